//! The HTML report of a run (`ncomplete run --html FILE`, `ncomplete explore --html FILE`): one
//! self-contained file a person opens in a browser, without network access (inline CSS and
//! inline SVG, no script, no external font or style sheet; a Content-Security-Policy forbids
//! loading anything).
//!
//! It holds the suite verdict and the counts of pass, fail and inconclusive tests; the suite's
//! method, bound n and guarantee, the system and the measured times; one row per test; the
//! failing traces drawn as sequence diagrams (two lifelines, tester and system: inputs are
//! arrows from the tester to the system, outputs arrows back, quiescence δ a marked wait on
//! the tester's lifeline, and the offending last step highlighted with what was expected
//! there); and the specification drawn with the transitions the run covered and those it
//! missed. An STS run's page (`explore MODEL.sts.yaml --cover ... --html FILE`) is this one with
//! a row per purpose and the STS's switches as its coverage section
//! ([`super::sts_report_html`]).
//!
//! Coverage ([`SpecCoverage`]) is counted on the specification's suspension automaton (TorX
//! Def. 2.2.12; a Mealy machine through `q --i--> q/i --o--> q'`), over its reachable states and
//! transitions, quiescence loops included, as `explore` counts it; a `run` whose specification
//! is a Mealy machine leaves out the quiescence loops of its suspension automaton (a Mealy suite
//! sends an input wherever the machine waits for one, so it never observes quiescence: those
//! loops are neither covered nor missed, and not drawn). A trace is replayed from the
//! initial state, marking every transition it takes, until a step the specification does not
//! enable (the failing observation, or an input it leaves unspecified, after which ioco allows
//! anything). A run against a system replays the last observed execution of each test; a run in
//! simulation explores every execution of every test against the implementation model
//! ([`super::simulate`]), so it marks what some execution takes: the sweep of `run_test` over
//! the pairs (test node, implementation state), with the specification state as a third
//! component (both systems are deterministic over the observed labels, so every triple is
//! visited once). `explore` hands over the marks of the run it followed.
//!
//! The drawing is a deterministic layered layout: states on the levels of a breadth-first
//! search from the initial state (in the automaton's transition order), one column per level;
//! each transition a quadratic curve whose bend separates parallel and opposite transitions,
//! self-loops above their state. Models beyond [`DRAWN_STATES`] states or
//! [`DRAWN_TRANSITIONS`] transitions are not drawn (the figures and the missed transitions are
//! still listed).
//!
//! Every text from a model, suite or system (names, labels, messages, the command) passes
//! through [`html_text`]. The same inputs give the same bytes: a run in simulation has no
//! times, and only times measured against a process appear.

use super::TestVerdict;
use super::explore::{ExploreOptions, ExploreReport, Policy};
use super::results::{ObservedStep, TestRecord, VerdictCounts, failure_at_last_step};
use super::simulate::{SimulatedSystem, Step};
use crate::model::{LabelId, RestrictToReachable, StateId, SuspensionAutomaton};
use crate::render::draw::{Picture, PictureState, PictureTransition, marked_label};
use crate::render::escape::html_text;
use crate::suite::{Next, SuiteHeader, TestCase, TestNode};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

/// Models with more reachable states than this are not drawn.
pub const DRAWN_STATES: usize = 120;
/// Models with more reachable transitions than this are not drawn.
pub const DRAWN_TRANSITIONS: usize = 480;
/// How many failing tests get a sequence diagram (the others keep their row).
pub const DRAWN_FAILURES: usize = 20;
/// How many steps of a trace a sequence diagram shows (the last ones: a failure is at the end).
pub const DRAWN_STEPS: usize = 300;
/// How many missed transitions the report lists.
pub const MISSED_LISTED: usize = 50;

/// The specification's suspension automaton with the states and transitions a run covered.
#[derive(Clone, Debug)]
pub struct SpecCoverage {
    sa: SuspensionAutomaton,
    /// Per state, the number of its first transition (transitions numbered state by state in
    /// the order of `enabled`).
    first: Vec<usize>,
    reachable: Vec<bool>,
    visited: Vec<bool>,
    taken: Vec<bool>,
    /// Whether quiescence transitions count (not for a Mealy specification's run).
    quiescence_counted: bool,
    /// The specification when it is a Mealy machine: drawn as one, its transition `q --i/o-->
    /// q'` covered when both `q --i--> q/i` and `q/i --o--> q'` are.
    mealy: Option<crate::model::Mealy>,
}

/// Covered and reachable states and transitions of a [`SpecCoverage`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CoverageCounts {
    /// Reachable states visited.
    pub states: usize,
    /// Reachable states.
    pub states_total: usize,
    /// Reachable transitions taken.
    pub transitions: usize,
    /// Reachable transitions (quiescence loops included).
    pub transitions_total: usize,
}

impl SpecCoverage {
    /// Nothing covered yet but the initial state.
    pub fn new(sa: SuspensionAutomaton) -> SpecCoverage {
        let mut first = Vec::with_capacity(sa.num_states() + 1);
        first.push(0);
        for q in sa.states() {
            first.push(first[q.index()] + sa.enabled(q).len());
        }
        let reachable = sa.reachable();
        let mut visited = vec![false; sa.num_states()];
        visited[sa.initial().index()] = true;
        SpecCoverage {
            taken: vec![false; first[sa.num_states()]],
            visited,
            reachable,
            first,
            sa,
            quiescence_counted: true,
            mealy: None,
        }
    }

    /// Nothing covered yet of the specification `model` of a suite's run: its suspension
    /// automaton, without the quiescence loops when it is a Mealy machine (see the module doc).
    pub fn of_run_spec(
        model: &crate::model::Model,
    ) -> Result<SpecCoverage, super::error::ExecError> {
        let mut coverage = SpecCoverage::new(super::explore::specification_automaton(model)?);
        if let crate::model::Model::Mealy(m) = model {
            coverage.quiescence_counted = false;
            coverage.mealy = Some(m.clone());
        }
        Ok(coverage)
    }

    /// The specification drawn with what the run covered ([`crate::render::draw`]): a Mealy
    /// machine as itself, its `i/o` transitions covered when the run took both halves; an LTS
    /// as its suspension automaton (reachable states, δ loops when they count), on which
    /// coverage is counted.
    pub fn picture(&self) -> Picture {
        let sa = &self.sa;
        if let Some(m) = &self.mealy {
            let mut p = Picture::of_mealy(m);
            for (t, (q, i, _, _)) in p.transitions.iter_mut().zip(m.quads()) {
                let taken = self.input_label(m.inputs.name(i)).and_then(|l| {
                    let k = sa.enabled(q).iter().position(|&(x, _)| x == l)?;
                    let middle = sa.enabled(q)[k].1;
                    let answered = (0..sa.enabled(middle).len()).any(|k2| {
                        sa.enabled(middle)[k2].0 != sa.quiescence() && self.is_taken(middle, k2)
                    });
                    Some(self.is_taken(q, k) && answered)
                });
                t.covered = Some(taken.unwrap_or(false));
            }
            for (q, state) in p.states.iter_mut().enumerate() {
                state.visited = Some(self.visited[q]);
            }
            return p;
        }
        let mut index = vec![usize::MAX; sa.num_states()];
        let mut states = Vec::new();
        for q in sa.states().filter(|q| self.reachable[q.index()]) {
            index[q.index()] = states.len();
            states.push(PictureState {
                name: sa.state_name(q).to_owned(),
                quiescent: false,
                visited: Some(self.visited[q.index()]),
            });
        }
        let mut transitions = Vec::new();
        for q in sa.states().filter(|q| self.reachable[q.index()]) {
            for (k, &(l, t)) in sa.enabled(q).iter().enumerate() {
                if !self.counts_transition(q, k) {
                    continue;
                }
                let (label, kind) = marked_label(&sa.alphabet, Some(sa.quiescence()), l);
                transitions.push(PictureTransition {
                    from: index[q.index()],
                    to: index[t.index()],
                    label,
                    kind,
                    covered: Some(self.is_taken(q, k)),
                });
            }
        }
        Picture {
            name: sa.name.clone(),
            kind: "suspension automaton",
            states,
            initial: index[sa.initial().index()],
            transitions,
        }
    }

    /// The coverage as the JSON results carry it: the specification's path, the figures, the
    /// names of the visited states and the covered transitions as `[from, label, to]` (labels
    /// `?a`, `!x`, `δ`), in state order.
    pub fn to_json(&self, spec_path: &str) -> serde_json::Value {
        let sa = &self.sa;
        let c = self.counts();
        let reachable = || sa.states().filter(|q| self.reachable[q.index()]);
        let visited: Vec<&str> = reachable()
            .filter(|q| self.visited[q.index()])
            .map(|q| sa.state_name(q))
            .collect();
        let mut covered = Vec::new();
        for q in reachable() {
            for (k, &(l, t)) in sa.enabled(q).iter().enumerate() {
                if self.counts_transition(q, k) && self.is_taken(q, k) {
                    covered.push(serde_json::json!([
                        sa.state_name(q),
                        self.marked(l),
                        sa.state_name(t)
                    ]));
                }
            }
        }
        serde_json::json!({
            "specification": spec_path,
            "states_visited": c.states,
            "states": c.states_total,
            "transitions_covered": c.transitions,
            "transitions": c.transitions_total,
            "visited_states": visited,
            "covered_transitions": covered,
        })
    }

    /// Marks the coverage a run's JSON results list ([`SpecCoverage::to_json`]); an error names
    /// the first state or transition this specification does not have.
    pub fn mark_json(&mut self, coverage: &serde_json::Value) -> Result<(), String> {
        let names: HashMap<&str, StateId> = self
            .sa
            .states()
            .map(|q| (self.sa.state_name(q), q))
            .collect();
        let state = |v: &serde_json::Value| -> Result<StateId, String> {
            v.as_str()
                .and_then(|name| names.get(name).copied())
                .ok_or_else(|| format!("the specification has no state {v}"))
        };
        let list = |key: &str| -> Result<&Vec<serde_json::Value>, String> {
            coverage[key]
                .as_array()
                .ok_or_else(|| format!("`coverage.{key}` is not a list"))
        };
        let mut visited = Vec::new();
        for v in list("visited_states")? {
            visited.push(state(v)?);
        }
        let mut taken = Vec::new();
        for t in list("covered_transitions")? {
            let triple = t
                .as_array()
                .filter(|a| a.len() == 3)
                .ok_or_else(|| format!("a covered transition is not [from, label, to]: {t}"))?;
            let (q, target) = (state(&triple[0])?, state(&triple[2])?);
            let k = self
                .sa
                .enabled(q)
                .iter()
                .position(|&(l, t)| {
                    t == target && Some(self.marked(l).as_str()) == triple[1].as_str()
                })
                .ok_or_else(|| format!("the specification has no transition {t}"))?;
            taken.push(self.first[q.index()] + k);
        }
        for q in visited {
            self.visited[q.index()] = true;
        }
        for k in taken {
            self.taken[k] = true;
        }
        Ok(())
    }

    /// Whether transition `k` of state `q` is a coverage goal (quiescence ones only when they
    /// count).
    fn counts_transition(&self, q: StateId, k: usize) -> bool {
        self.quiescence_counted || self.sa.enabled(q)[k].0 != self.sa.quiescence()
    }

    /// The coverage marked by a run that numbered states and transitions as this type does
    /// (`explore`'s [`ExploreReport::visited`] and [`ExploreReport::taken`]).
    pub fn from_marks(sa: SuspensionAutomaton, visited: &[bool], taken: &[bool]) -> SpecCoverage {
        let mut coverage = SpecCoverage::new(sa);
        for (mark, &v) in coverage.visited.iter_mut().zip(visited) {
            *mark |= v;
        }
        for (mark, &t) in coverage.taken.iter_mut().zip(taken) {
            *mark |= t;
        }
        coverage
    }

    /// The suspension automaton.
    pub fn automaton(&self) -> &SuspensionAutomaton {
        &self.sa
    }

    /// Follows `l` from `q`, marking the transition and its target; `None` when `q` does not
    /// enable `l`.
    fn take(&mut self, q: StateId, l: LabelId) -> Option<StateId> {
        let enabled = self.sa.enabled(q);
        let k = enabled.iter().position(|&(m, _)| m == l)?;
        let t = enabled[k].1;
        self.taken[self.first[q.index()] + k] = true;
        self.visited[t.index()] = true;
        Some(t)
    }

    fn input_label(&self, name: &str) -> Option<LabelId> {
        let alphabet = &self.sa.alphabet;
        alphabet.get(name).filter(|&l| alphabet.is_input(l))
    }

    fn output_label(&self, name: &str) -> Option<LabelId> {
        let alphabet = &self.sa.alphabet;
        alphabet
            .get(name)
            .filter(|&l| !alphabet.is_input(l) && l != self.sa.quiescence())
    }

    fn step_label(&self, step: &ObservedStep) -> Option<LabelId> {
        match step {
            ObservedStep::Input(name) => self.input_label(name),
            ObservedStep::Output(name) => self.output_label(name),
            ObservedStep::Quiescence => Some(self.sa.quiescence()),
        }
    }

    /// Marks what `trace` takes from the initial state, up to its first step the specification
    /// does not enable.
    pub fn cover_trace(&mut self, trace: &[ObservedStep]) {
        let mut q = self.sa.initial();
        for step in trace {
            match self.step_label(step).and_then(|l| self.take(q, l)) {
                Some(t) => q = t,
                None => return,
            }
        }
    }

    /// Marks what every execution of `test` against `sys` takes (the executions
    /// [`super::run_test`] explores), each up to its first step the specification does not
    /// enable.
    pub fn cover_simulated(&mut self, sys: &SimulatedSystem, test: &TestCase) {
        let n = test.nodes.len();
        if n == 0 {
            return;
        }
        let mut labels: HashMap<Step, Option<LabelId>> = HashMap::new();
        let mut at: Vec<Vec<(u32, StateId)>> = vec![Vec::new(); n];
        at[0].push((sys.initial(), self.sa.initial()));
        let mut moves = Vec::new();
        for k in 0..n {
            let mut arrivals = std::mem::take(&mut at[k]);
            arrivals.sort_unstable();
            arrivals.dedup();
            let node = &test.nodes[k];
            for (q, s) in arrivals {
                moves.clear();
                if let TestNode::Send { input, then, .. } = node
                    && let Some(t) = sys.after_input(q, *input)
                {
                    moves.push((Step::Input(*input), *then, t));
                }
                for &(o, t) in sys.outputs(q) {
                    // Quiescence never races an input.
                    if o != sys.quiescence() || matches!(node, TestNode::Expect { .. }) {
                        moves.push((Step::Output(o), node.on_output(o), t));
                    }
                }
                for &(step, next, target) in &moves {
                    let label = *labels.entry(step).or_insert_with(|| match step {
                        Step::Input(i) => self.input_label(sys.input_name(i)),
                        Step::Output(o) if o == sys.quiescence() => Some(self.sa.quiescence()),
                        Step::Output(o) => self.output_label(sys.output_name(o)),
                    });
                    let Some(s2) = label.and_then(|l| self.take(s, l)) else {
                        continue;
                    };
                    if let Next::Node(j) = next {
                        at[j as usize].push((target, s2));
                    }
                }
            }
        }
    }

    /// Whether transition `k` of state `q` was taken.
    fn is_taken(&self, q: StateId, k: usize) -> bool {
        self.taken[self.first[q.index()] + k]
    }

    /// The covered and reachable figures.
    pub fn counts(&self) -> CoverageCounts {
        let mut c = CoverageCounts {
            states: 0,
            states_total: 0,
            transitions: 0,
            transitions_total: 0,
        };
        for q in self.sa.states().filter(|q| self.reachable[q.index()]) {
            c.states_total += 1;
            c.states += usize::from(self.visited[q.index()]);
            for k in (0..self.sa.enabled(q).len()).filter(|&k| self.counts_transition(q, k)) {
                c.transitions_total += 1;
                c.transitions += usize::from(self.is_taken(q, k));
            }
        }
        c
    }

    /// A label as traces show it: `?a`, `!x`, `δ` for quiescence.
    fn marked(&self, l: LabelId) -> String {
        let name = self.sa.alphabet.name(l);
        if l == self.sa.quiescence() {
            "δ".to_owned()
        } else if self.sa.alphabet.is_input(l) {
            format!("?{name}")
        } else {
            format!("!{name}")
        }
    }
}

/// Everything the report shows.
#[derive(Debug)]
pub struct HtmlReport<'a> {
    pub(super) title: String,
    /// The run's verdict (for a suite the worst test verdict; an STS run's rounds decide
    /// otherwise, [`super::sts_run::StsRunReport::verdict`]).
    pub(super) verdict: TestVerdict,
    pub(super) counts: VerdictCounts,
    /// Name and value of each line of the summary table.
    pub(super) facts: Vec<(&'static str, String)>,
    pub(super) records: Cow<'a, [TestRecord]>,
    /// Whether the table of tests shows every record's trace (an STS run: the data values the
    /// tester chose and the system answered).
    pub(super) traces_in_table: bool,
    /// What the coverage section shows.
    pub(super) coverage: CoverageView<'a>,
    /// The requirements coverage table, when the suite names requirements
    /// ([`super::requirements`]).
    pub(super) requirements: Option<super::requirements::RequirementCoverage>,
}

/// The coverage section of a report.
#[derive(Debug)]
pub(super) enum CoverageView<'a> {
    /// The specification's name or path, its suspension automaton with what the run covered,
    /// and what coverage counts in this kind of run.
    Automaton {
        name: String,
        coverage: &'a SpecCoverage,
        note: &'static str,
    },
    /// No specification was given: the advice.
    Absent(&'static str),
    /// The switches (and criterion items) of an STS the run covered a posteriori.
    Switches(super::sts_report_html::SwitchCoverage),
}

/// The advice a report without a specification gives.
pub const NO_SPEC_ADVICE: &str = "No specification was given, so the model is not drawn and no \
     coverage is counted: run again with --spec MODEL (the model the suite was generated from).";

pub(super) fn seconds(time: Duration) -> String {
    format!("{:.3} s", time.as_secs_f64())
}

impl<'a> HtmlReport<'a> {
    /// The report of `ncomplete run`: the suite's header, what ran it (`system`), one record
    /// per test, the run's measured time, and the specification (its path and coverage) when
    /// given.
    pub fn of_run(
        suite_path: &str,
        header: &SuiteHeader,
        system: &str,
        records: &'a [TestRecord],
        total_time: Option<Duration>,
        spec: Option<(&str, &'a SpecCoverage)>,
    ) -> HtmlReport<'a> {
        let mut facts = vec![
            ("suite", suite_path.to_owned()),
            ("model", header.model.name.clone()),
            ("method", header.method.clone()),
            (
                "bound n",
                header.n.map_or("none".to_owned(), |n| n.to_string()),
            ),
            ("guarantee", header.guarantee.clone()),
            ("system", system.to_owned()),
            (
                "specification",
                spec.map_or("not given".to_owned(), |(path, _)| path.to_owned()),
            ),
            ("tests", records.len().to_string()),
        ];
        if let Some(time) = total_time {
            facts.push(("total time", seconds(time)));
        }
        let simulated = records.iter().all(|r| r.time.is_none());
        let counts = VerdictCounts::of_records(records);
        let verdicts = records.iter().map(|r| (r.name.as_str(), r.verdict));
        let requirements = super::requirements::RequirementCoverage::of(header, verdicts);
        HtmlReport {
            requirements,
            title: format!("ncomplete run: {}", header.model.name),
            verdict: counts.verdict(),
            counts,
            facts,
            records: Cow::Borrowed(records),
            traces_in_table: false,
            coverage: match spec {
                Some((path, coverage)) => CoverageView::Automaton {
                    name: path.to_owned(),
                    coverage,
                    note: if simulated {
                        "In simulation every execution the implementation model allows is \
                         explored: a transition is covered when some explored execution of some \
                         test takes it."
                    } else {
                        "A transition is covered when the last observed execution of some test \
                         takes it."
                    },
                },
                None => CoverageView::Absent(NO_SPEC_ADVICE),
            },
        }
    }

    /// The report of `ncomplete explore`: its one run as a test named `exploration`; `system`
    /// says what was explored, `measured` whether its time is shown (not for a model in
    /// process, whose seeded run gives the same report every time).
    pub fn of_exploration(
        report: &ExploreReport,
        options: &ExploreOptions,
        system: &str,
        measured: bool,
        coverage: &'a SpecCoverage,
    ) -> HtmlReport<'a> {
        let sa = coverage.automaton();
        let quiescence = sa.alphabet.name(sa.quiescence());
        let policy = match options.policy {
            Policy::Random => "random".to_owned(),
            Policy::InputBias { input } => format!("bias (input probability {input})"),
            Policy::Goal => "goal".to_owned(),
            Policy::Strategy => "strategy".to_owned(),
        };
        let (trace, failure) = match &report.message {
            Some(m) if report.failed => (
                ObservedStep::from_marked_trace(&report.trace, quiescence),
                failure_at_last_step(m, &report.trace),
            ),
            _ => (Vec::new(), None),
        };
        let time = measured.then_some(report.elapsed);
        let record = TestRecord {
            name: "exploration".to_owned(),
            verdict: match (report.failed, &report.timing) {
                (true, _) => TestVerdict::Fail,
                (false, Some(_)) => TestVerdict::Inconclusive,
                (false, None) => TestVerdict::Pass,
            },
            message: report.message.clone(),
            time,
            trace,
            failure,
            reason: None,
            timing_traces: None,
        };
        let mut facts = vec![
            ("specification", sa.name.clone()),
            (
                "method",
                format!("on-the-fly testing (explore), policy {policy}"),
            ),
            ("bound n", "none".to_owned()),
            (
                "guarantee",
                "none: an exploration finds failures, it proves no completeness".to_owned(),
            ),
            ("system", system.to_owned()),
            ("seed", options.seed.to_string()),
            ("steps", report.steps.to_string()),
            ("resets", report.resets.to_string()),
            ("stopped", report.stop.as_str().to_owned()),
        ];
        if let Some(time) = time {
            facts.push(("total time", seconds(time)));
        }
        HtmlReport {
            title: format!("ncomplete explore: {}", sa.name),
            verdict: record.verdict,
            counts: VerdictCounts::of([record.verdict]),
            facts,
            records: Cow::Owned(vec![record]),
            traces_in_table: false,
            requirements: None,
            coverage: CoverageView::Automaton {
                name: sa.name.clone(),
                coverage,
                note: "A transition is covered when the exploration took it (in the reading of \
                       the observations it followed).",
            },
        }
    }

    /// The HTML document.
    pub fn render(&self) -> String {
        let verdict = self.verdict;
        let mut h = String::new();
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
             style-src 'unsafe-inline'\">\n<title>{} ({verdict})</title>\n<style>{STYLE}</style>\n\
             </head>\n<body>\n",
            html_text(&self.title)
        );
        let _ = writeln!(
            h,
            "<header><h1>{}</h1><p id=\"verdict\" class=\"badge {verdict}\">{verdict}</p></header>",
            html_text(&self.title)
        );
        self.summary(&mut h);
        self.test_table(&mut h);
        self.requirement_table(&mut h);
        self.failures(&mut h);
        self.model(&mut h);
        let _ = writeln!(
            h,
            "<footer>Written by ncomplete {}.</footer>\n</body>\n</html>",
            env!("CARGO_PKG_VERSION")
        );
        h
    }

    fn summary(&self, h: &mut String) {
        let VerdictCounts {
            pass,
            fail,
            inconclusive,
            unreached_goals,
        } = self.counts;
        h.push_str("<section id=\"summary\">\n<h2>Summary</h2>\n<div class=\"counts\">");
        // Unreached joker goals (`goal_coverage`), counted apart, where a run had some.
        let goals = (unreached_goals > 0).then_some(("unreached-goals", unreached_goals));
        for (name, count) in [
            ("pass", pass),
            ("fail", fail),
            ("inconclusive", inconclusive),
        ]
        .into_iter()
        .chain(goals)
        {
            let _ = write!(
                h,
                "<div class=\"count {name}\"><span class=\"number\" id=\"count-{name}\">{count}</span> {}</div>",
                name.replace('-', " ")
            );
        }
        h.push_str("</div>\n<table class=\"facts\">\n");
        for (name, value) in &self.facts {
            let _ = writeln!(h, "<tr><th>{name}</th><td>{}</td></tr>", html_text(value));
        }
        h.push_str("</table>\n</section>\n");
    }

    /// The records with a drawn sequence diagram: failures with a trace, the first
    /// [`DRAWN_FAILURES`].
    fn drawn(&self) -> impl Iterator<Item = (usize, &TestRecord)> {
        self.records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.verdict == TestVerdict::Fail && !r.trace.is_empty())
            .take(DRAWN_FAILURES)
    }

    fn test_table(&self, h: &mut String) {
        let timed = self.records.iter().any(|r| r.time.is_some());
        let last_drawn = self.drawn().last().map(|(k, _)| k);
        h.push_str("<section id=\"tests\">\n<h2>Tests</h2>\n<table id=\"test-table\">\n<thead><tr><th>#</th><th>test</th><th>verdict</th>");
        if timed {
            h.push_str("<th>time</th>");
        }
        h.push_str("<th>details</th></tr></thead>\n<tbody>\n");
        for (k, r) in self.records.iter().enumerate() {
            let v = r.verdict;
            let _ = write!(
                h,
                "<tr id=\"test-{k}\" class=\"{v}\" data-verdict=\"{v}\"><td>{}</td><td class=\"name\">{}</td><td class=\"verdict\">{v}</td>",
                k + 1,
                html_text(&r.name)
            );
            if timed {
                let _ = write!(h, "<td>{}</td>", r.time.map(seconds).unwrap_or_default());
            }
            h.push_str("<td>");
            if let Some(m) = &r.message {
                h.push_str(&html_text(m));
            }
            if self.traces_in_table {
                let _ = write!(
                    h,
                    "<br><code class=\"trace\">{}</code>",
                    html_text(&marked_trace(&r.trace))
                );
            }
            let drawn = v == TestVerdict::Fail
                && !r.trace.is_empty()
                && last_drawn.is_some_and(|last| k <= last);
            if drawn {
                let _ = write!(h, " <a href=\"#failure-{k}\">(trace)</a>");
            }
            h.push_str("</td></tr>\n");
        }
        h.push_str("</tbody>\n</table>\n</section>\n");
    }

    /// Per requirement: its status, its tests and how they ended (only for a suite naming
    /// requirements, with its own style, so other reports stay as they were).
    fn requirement_table(&self, h: &mut String) {
        let Some(table) = &self.requirements else {
            return;
        };
        h.push_str(
            "<section id=\"requirements\">\n<h2>Requirements</h2>\n<style>\
             #requirement-table th,#requirement-table td{border-bottom:1px solid #eceff1;padding:4px 8px;text-align:left}\
             #requirement-table tr.failed td.status{color:#c62828;font-weight:700}\
             #requirement-table tr.passed td.status{color:#2e7d32}\
             #requirement-table tr.inconclusive td.status{color:#ef6c00}\
             #requirement-table tr.not-covered td.status{color:#546e7a;font-style:italic}</style>\n\
             <table id=\"requirement-table\">\n<thead><tr><th>requirement</th><th>status</th>\
             <th>tests</th><th>pass</th><th>fail</th><th>inconclusive</th></tr></thead>\n<tbody>\n",
        );
        for r in &table.rows {
            let status = r.status();
            let _ = writeln!(
                h,
                "<tr class=\"{}\" data-status=\"{status}\"><td class=\"name\">{}</td><td class=\"status\">{status}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                status.replace(' ', "-"),
                html_text(&r.name),
                r.tests,
                r.pass,
                r.fail,
                r.inconclusive
            );
        }
        h.push_str(
            "</tbody>\n</table>\n<p class=\"note\">A requirement is failed when a test touching it \
             failed, passed when none failed and some passed, not covered when no test of the \
             suite touches it.</p>\n</section>\n",
        );
    }

    fn failures(&self, h: &mut String) {
        let failing = self
            .records
            .iter()
            .filter(|r| r.verdict == TestVerdict::Fail)
            .count();
        if failing == 0 {
            return;
        }
        h.push_str("<section id=\"failures\">\n<h2>Failing traces</h2>\n");
        let mut drawn = 0;
        for (k, r) in self.drawn() {
            drawn += 1;
            let _ = writeln!(
                h,
                "<article class=\"failing-test\" id=\"failure-{k}\">\n<h3>{}</h3>",
                html_text(&r.name)
            );
            if let Some(m) = r.failure.as_ref().or(r.message.as_ref()) {
                let _ = writeln!(h, "<p class=\"failure\">{}</p>", html_text(m));
            }
            h.push_str(&sequence_diagram(k, r));
            h.push_str("</article>\n");
        }
        if drawn < failing {
            let _ = writeln!(
                h,
                "<p class=\"note\">{} more failing tests are in the table above, their traces not drawn.</p>",
                failing - drawn
            );
        }
        h.push_str("</section>\n");
    }

    fn model(&self, h: &mut String) {
        h.push_str("<section id=\"model\">\n<h2>Specification and coverage</h2>\n");
        let (name, coverage, note) = match &self.coverage {
            CoverageView::Automaton {
                name,
                coverage,
                note,
            } => (name, coverage, note),
            CoverageView::Absent(advice) => {
                let _ = writeln!(
                    h,
                    "<p class=\"note\" id=\"no-spec\">{advice}</p>\n</section>"
                );
                return;
            }
            CoverageView::Switches(switches) => {
                switches.render(h);
                h.push_str("</section>\n");
                return;
            }
        };
        let c = coverage.counts();
        let transitions = percent(c.transitions, c.transitions_total);
        let _ = writeln!(
            h,
            "<p>The suspension automaton of {} ({}).</p>\n\
             <p class=\"coverage\" id=\"coverage-figure\">Transitions covered: <b id=\"transitions-covered\">{}</b> of {} ({transitions:.1}%), states visited: <b id=\"states-visited\">{}</b> of {} ({:.1}%).</p>\n\
             {}<p class=\"note\">{}</p>",
            html_text(name),
            if coverage.quiescence_counted {
                "quiescence as δ"
            } else {
                "a Mealy machine, whose suite never waits for quiescence: its δ loops are left out"
            },
            c.transitions,
            c.transitions_total,
            c.states,
            c.states_total,
            percent(c.states, c.states_total),
            bar(transitions),
            note
        );
        if c.states_total > DRAWN_STATES || c.transitions_total > DRAWN_TRANSITIONS {
            let _ = writeln!(
                h,
                "<p class=\"note\">The model is not drawn: it has {} reachable states and {} transitions (drawn up to {DRAWN_STATES} and {DRAWN_TRANSITIONS}).</p>",
                c.states_total, c.transitions_total
            );
        } else {
            h.push_str(LEGEND);
            h.push_str(&model_diagram(coverage));
        }
        missed_list(coverage, c, h);
        h.push_str("</section>\n");
    }
}

/// `a` of `b` in percent (100% of nothing).
pub(super) fn percent(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// A coverage bar filled to `percent`.
pub(super) fn bar(percent: f64) -> String {
    format!("<div class=\"bar\"><div class=\"fill\" style=\"width:{percent:.1}%\"></div></div>\n")
}

/// The first [`MISSED_LISTED`] reachable transitions the run did not take.
fn missed_list(coverage: &SpecCoverage, c: CoverageCounts, h: &mut String) {
    let missed = c.transitions_total - c.transitions;
    if missed == 0 {
        return;
    }
    let sa = coverage.automaton();
    let _ = writeln!(
        h,
        "<h3>Missed transitions ({missed})</h3>\n<ul id=\"missed\">"
    );
    let mut listed = 0;
    'states: for q in sa.states().filter(|q| coverage.reachable[q.index()]) {
        for (k, &(l, t)) in sa.enabled(q).iter().enumerate() {
            if coverage.is_taken(q, k) || !coverage.counts_transition(q, k) {
                continue;
            }
            if listed == MISSED_LISTED {
                break 'states;
            }
            listed += 1;
            let _ = writeln!(
                h,
                "<li><code>{} --{}--&gt; {}</code></li>",
                html_text(sa.state_name(q)),
                html_text(&coverage.marked(l)),
                html_text(sa.state_name(t))
            );
        }
    }
    if listed < missed {
        let _ = writeln!(h, "<li>and {} more</li>", missed - listed);
    }
    h.push_str("</ul>\n");
}

const STYLE: &str = "
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0 auto;max-width:min(100%,1800px);box-sizing:border-box;padding:0 24px 40px;color:#212121;background:#fff}
header{display:flex;align-items:center;gap:20px;border-bottom:2px solid #eceff1}
h1{font-size:1.5em;margin:18px 0;overflow-wrap:anywhere}
h2{font-size:1.2em;margin-top:28px;border-bottom:1px solid #eceff1;padding-bottom:4px}
h3{font-size:1em}
.badge{font-weight:700;text-transform:uppercase;padding:4px 14px;border-radius:14px;color:#fff;margin:0}
.badge.pass{background:#2e7d32}.badge.fail{background:#c62828}.badge.inconclusive{background:#ef6c00}
.counts{display:flex;gap:12px;margin:8px 0 16px}
.count{border-radius:6px;padding:8px 16px;border:1px solid #cfd8dc;min-width:90px}
.count .number{font-size:1.6em;font-weight:700;margin-right:6px}
.count.pass .number{color:#2e7d32}.count.fail .number{color:#c62828}.count.inconclusive .number{color:#ef6c00}
table{border-collapse:collapse}
.facts th{text-align:left;padding:3px 16px 3px 0;color:#546e7a;font-weight:600;vertical-align:top}
.facts td{padding:3px 0;overflow-wrap:anywhere}
#test-table{width:100%;font-size:.92em}
#test-table th,#test-table td{border-bottom:1px solid #eceff1;padding:4px 8px;text-align:left;vertical-align:top}
#test-table td{overflow-wrap:anywhere}
#test-table td:first-child,#test-table td.verdict,#test-table td.verdict+td:not(:last-child){white-space:nowrap;overflow-wrap:normal}
#test-table td.name{min-width:18ch}
#test-table td:last-child{width:50%}
.scroll svg.ncomplete-model{display:block;height:auto}
#test-table tr.fail td.verdict{color:#c62828;font-weight:700}
#test-table tr.pass td.verdict{color:#2e7d32}
#test-table tr.inconclusive td.verdict{color:#ef6c00}
.failure{color:#b71c1c;font-weight:600;overflow-wrap:anywhere}
.note{color:#546e7a}
.bar{height:10px;background:#eceff1;border-radius:5px;max-width:480px;overflow:hidden}
.bar .fill{height:100%;background:#2e7d32}
svg text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;fill:#263238}
.sequence .actor{fill:#eceff1;stroke:#546e7a}
.sequence .actor-name{font-family:system-ui,sans-serif;font-weight:700;font-size:13px}
.sequence .lifeline{stroke:#90a4ae;stroke-dasharray:6 4}
.sequence .msg{stroke:#37474f;stroke-width:1.6}
.sequence .wait{fill:#fff8e1;stroke:#ff8f00}
.sequence .stepno{fill:#90a4ae}
.sequence .fail .msg{stroke:#c62828;stroke-width:2.6}
.sequence .fail .wait{fill:#ffebee;stroke:#c62828;stroke-width:2}
.sequence .fail text,.sequence text.expected{fill:#c62828;font-weight:700}
.sequence .fail-row{fill:#ffebee}
.list{width:100%;font-size:.92em;margin-top:8px}
.list th,.list td{border-bottom:1px solid #eceff1;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.list tr.covered td.mark{color:#2e7d32;font-weight:700}
.list tr.missed td{color:#757575}
.list tr.missed td.mark{color:#c62828;font-weight:700}
code.trace{color:#37474f;overflow-wrap:anywhere}
.legend span{margin-right:18px}
.legend .covered{color:#2e7d32;font-weight:700}.legend .missed{color:#757575}
.scroll{overflow-x:auto;border:1px solid #eceff1;border-radius:4px}
footer{margin-top:36px;color:#90a4ae;font-size:.85em}
";

const LEGEND: &str = "<p class=\"legend\"><span class=\"covered\">━ covered transition</span><span class=\"missed\">╌ missed transition</span><span>● green: visited state</span><span>→ initial state</span></p>\n";

/// A trace as runners print it: `?in !out δ`, `(empty trace)` when there is no step.
fn marked_trace(trace: &[ObservedStep]) -> String {
    if trace.is_empty() {
        return "(empty trace)".to_owned();
    }
    let steps: Vec<String> = trace
        .iter()
        .map(|step| match step {
            ObservedStep::Input(name) => format!("?{name}"),
            ObservedStep::Output(name) => format!("!{name}"),
            ObservedStep::Quiescence => "δ".to_owned(),
        })
        .collect();
    steps.join(" ")
}

/// Cuts `s` to `max` characters, ending in `…` when cut.
fn shortened(s: &str, max: usize) -> Cow<'_, str> {
    if s.chars().count() <= max {
        Cow::Borrowed(s)
    } else {
        let cut: String = s.chars().take(max.saturating_sub(1)).collect();
        Cow::Owned(cut + "…")
    }
}

/// The sequence diagram of record `k`'s trace (its last [`DRAWN_STEPS`] steps): tester and
/// system lifelines, one row per step, the last step highlighted when it is the failing one.
fn sequence_diagram(k: usize, r: &TestRecord) -> String {
    const TESTER: f64 = 170.0;
    const SYSTEM: f64 = 590.0;
    const WIDTH: f64 = 780.0;
    const FIRST: f64 = 80.0;
    const ROW: f64 = 34.0;
    let skipped = r.trace.len().saturating_sub(DRAWN_STEPS);
    let steps = &r.trace[skipped..];
    let failing_last = r.verdict == TestVerdict::Fail && r.failure.is_some();
    let rows = steps.len() + usize::from(skipped > 0);
    let bottom = FIRST + ROW * rows as f64 + if failing_last { 30.0 } else { 0.0 };
    let height = bottom + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<div class=\"scroll\"><svg class=\"sequence\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" role=\"img\" aria-label=\"sequence diagram of {}\">",
        html_text(&r.name)
    );
    let _ = writeln!(
        s,
        "<defs><marker id=\"seq{k}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#37474f\"/></marker>\
         <marker id=\"seq{k}-fail\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#c62828\"/></marker></defs>"
    );
    for (x, name) in [(TESTER, "tester"), (SYSTEM, "system")] {
        let _ = writeln!(
            s,
            "<rect class=\"actor\" x=\"{}\" y=\"10\" width=\"140\" height=\"32\" rx=\"5\"/><text class=\"actor-name\" x=\"{x}\" y=\"31\" text-anchor=\"middle\">{name}</text><line class=\"lifeline\" x1=\"{x}\" y1=\"42\" x2=\"{x}\" y2=\"{bottom}\"/>",
            x - 70.0
        );
    }
    let mut y = FIRST;
    if skipped > 0 {
        let _ = writeln!(
            s,
            "<text class=\"note\" x=\"{}\" y=\"{y}\" text-anchor=\"middle\">… {skipped} earlier steps not drawn</text>",
            (TESTER + SYSTEM) / 2.0
        );
        y += ROW;
    }
    let middle = (TESTER + SYSTEM) / 2.0;
    for (i, step) in steps.iter().enumerate() {
        let fail = failing_last && i + 1 == steps.len();
        let (class, marker) = if fail {
            ("step fail", "fail")
        } else {
            ("step", "arrow")
        };
        let _ = write!(s, "<g class=\"{class}\">");
        if fail {
            let _ = write!(
                s,
                "<rect class=\"fail-row\" x=\"40\" y=\"{}\" width=\"{}\" height=\"{ROW}\"/>",
                y - ROW / 2.0 - 2.0,
                WIDTH - 50.0
            );
        }
        let _ = write!(
            s,
            "<text class=\"stepno\" x=\"30\" y=\"{}\" text-anchor=\"end\">{}</text>",
            y + 4.0,
            skipped + i + 1
        );
        let arrow = |s: &mut String, from: f64, to: f64, kind: &str, text: String| {
            let _ = write!(
                s,
                "<line class=\"msg {kind}\" x1=\"{from}\" y1=\"{y}\" x2=\"{to}\" y2=\"{y}\" marker-end=\"url(#seq{k}-{marker})\"/><text class=\"label\" x=\"{middle}\" y=\"{}\" text-anchor=\"middle\"><title>{}</title>{}</text>",
                y - 6.0,
                html_text(&text),
                html_text(&shortened(&text, 56))
            );
        };
        match step {
            ObservedStep::Input(name) => arrow(&mut s, TESTER, SYSTEM, "input", format!("?{name}")),
            ObservedStep::Output(name) => {
                arrow(&mut s, SYSTEM, TESTER, "output", format!("!{name}"))
            }
            ObservedStep::Quiescence => {
                let _ = write!(
                    s,
                    "<rect class=\"wait\" x=\"{}\" y=\"{}\" width=\"16\" height=\"24\" rx=\"3\"/><path class=\"wait\" d=\"M{} {} h10 l-10 14 h10 z\"/><text class=\"label quiet\" x=\"{}\" y=\"{}\">δ quiescence: no output within the timeout</text>",
                    TESTER - 8.0,
                    y - 12.0,
                    TESTER - 5.0,
                    y - 7.0,
                    TESTER + 16.0,
                    y + 4.0
                );
            }
        }
        if fail {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"start\">✗</text>",
                SYSTEM + 14.0,
                y + 5.0
            );
        }
        s.push_str("</g>\n");
        y += ROW;
    }
    if let (true, Some(failure)) = (failing_last, &r.failure) {
        let _ = writeln!(
            s,
            "<text class=\"expected\" x=\"{}\" y=\"{}\"><title>{}</title>{}</text>",
            TESTER - 120.0,
            y + 4.0,
            html_text(failure),
            html_text(&shortened(failure, 100))
        );
    }
    s.push_str("</svg></div>\n");
    s
}

/// The specification drawn by [`crate::render::draw`] with what the run covered.
fn model_diagram(coverage: &SpecCoverage) -> String {
    let mut s = String::from("<div class=\"scroll\">");
    coverage
        .picture()
        .svg_element(&mut s, "model-drawing", true);
    s.push_str("</div>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;
    use crate::suite::SuiteModel;

    /// The coffee machine of `tests/fixtures/coffee.aut` as a suspension automaton.
    fn coffee() -> SuspensionAutomaton {
        suspension_from_marked(
            "coffee",
            3,
            &[
                (0, "?coin", 1),
                (0, "?button", 0),
                (0, "delta", 0),
                (1, "?coin", 1),
                (1, "?button", 2),
                (1, "delta", 1),
                (2, "!coffee", 0),
                (2, "!tea", 0),
                (2, "?coin", 2),
                (2, "?button", 2),
            ],
        )
        .unwrap()
    }

    fn steps(marked: &[&str]) -> Vec<ObservedStep> {
        marked
            .iter()
            .map(|s| ObservedStep::from_marked(s, "delta"))
            .collect()
    }

    fn header(name: &str) -> SuiteHeader {
        SuiteHeader {
            model: SuiteModel {
                name: name.into(),
                inputs: vec!["coin".into(), "button".into()],
                outputs: vec!["coffee".into(), "tea".into()],
                quiescence: Some("delta".into()),
            },
            method: "ioco-complete".into(),
            n: Some(3),
            guarantee: "complete for n <= 3".into(),
            extra: serde_json::Map::new(),
        }
    }

    fn failing(name: &str, trace: &[&str], failure: &str) -> TestRecord {
        TestRecord {
            name: name.into(),
            verdict: TestVerdict::Fail,
            message: Some(format!("{failure} after ...")),
            time: None,
            trace: steps(trace),
            failure: Some(failure.into()),
            reason: None,
            timing_traces: None,
        }
    }

    fn passing(name: &str) -> TestRecord {
        TestRecord {
            name: name.into(),
            verdict: TestVerdict::Pass,
            message: None,
            time: None,
            trace: Vec::new(),
            failure: None,
            reason: None,
            timing_traces: None,
        }
    }

    #[test]
    fn replayed_traces_cover_exactly_the_transitions_they_take() {
        let mut c = SpecCoverage::new(coffee());
        assert_eq!(
            c.counts(),
            CoverageCounts {
                states: 1,
                states_total: 3,
                transitions: 0,
                transitions_total: 10
            }
        );
        c.cover_trace(&steps(&["?coin", "delta", "?button", "!tea"]));
        assert_eq!(c.counts().transitions, 4);
        assert_eq!(c.counts().states, 3);
        // Again, then beyond the specification: nothing new, and nothing after the step it
        // does not enable (!coffee in state 0).
        c.cover_trace(&steps(&["?coin", "delta", "!coffee", "?button"]));
        assert_eq!(c.counts().transitions, 4);
        c.cover_trace(&steps(&["?button", "delta"]));
        assert_eq!(c.counts().transitions, 6);
        let sa = c.automaton();
        let taken: Vec<String> = sa
            .states()
            .flat_map(|q| (0..sa.enabled(q).len()).map(move |k| (q, k)))
            .filter(|&(q, k)| c.is_taken(q, k))
            .map(|(q, k)| format!("{} {}", q.0, c.marked(sa.enabled(q)[k].0)))
            .collect();
        let mut taken = taken;
        taken.sort();
        assert_eq!(
            taken,
            ["0 ?button", "0 ?coin", "0 δ", "1 ?button", "1 δ", "2 !tea"]
        );
    }

    #[test]
    fn simulated_runs_cover_every_execution_and_stop_where_the_specification_ends() {
        // The implementation answers ?button after ?coin with !coffee or !tea; the test waits
        // for either. Every execution is explored: both outputs are covered.
        let imp = coffee();
        let suite = header("coffee").model;
        let sys =
            SimulatedSystem::from_suspension(&imp, &suite, super::super::InputEnabling::Reject)
                .unwrap();
        let test = TestCase {
            name: "t".into(),
            nodes: vec![
                TestNode::Send {
                    input: LabelId(0),
                    then: Next::Node(1),
                    race: vec![],
                },
                TestNode::Send {
                    input: LabelId(1),
                    then: Next::Node(2),
                    race: vec![],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(0), Next::PASS), (LabelId(1), Next::Node(3))],
                },
                TestNode::Expect {
                    branches: vec![(LabelId(2), Next::PASS)],
                },
            ],
        };
        let mut c = SpecCoverage::new(coffee());
        c.cover_simulated(&sys, &test);
        // ?coin, ?button, !coffee, !tea, then δ in state 0 after !tea.
        assert_eq!(c.counts().transitions, 5);
        assert_eq!(c.counts().states, 3);
        // A specification without !tea: the executions through !tea stop there.
        let strict = suspension_from_marked(
            "strict",
            3,
            &[
                (0, "?coin", 1),
                (0, "delta", 0),
                (1, "?button", 2),
                (1, "delta", 1),
                (2, "!coffee", 0),
            ],
        )
        .unwrap();
        let mut c = SpecCoverage::new(strict);
        c.cover_simulated(&sys, &test);
        assert_eq!(c.counts().transitions, 3);
        assert_eq!(c.counts().transitions_total, 5);
    }

    #[test]
    fn sequence_diagrams_draw_inputs_outputs_waits_and_the_failing_step() {
        let r = failing(
            "t1",
            &["?coin", "delta", "?button", "!coffee"],
            "unexpected !coffee (expected one of: !tea)",
        );
        let svg = sequence_diagram(3, &r);
        assert_eq!(svg.matches("class=\"msg input\"").count(), 2);
        assert_eq!(svg.matches("class=\"msg output\"").count(), 1);
        assert_eq!(svg.matches("<rect class=\"wait\"").count(), 1);
        assert_eq!(svg.matches("<g class=\"step fail\">").count(), 1);
        // The failing step is the last one, drawn from the system to the tester in red.
        let fail = &svg[svg.find("<g class=\"step fail\">").unwrap()..];
        assert!(fail.contains("x1=\"590\" y1=\"182\" x2=\"170\""));
        assert!(fail.contains("url(#seq3-fail)"));
        assert!(fail.contains(">!coffee</text>"));
        assert!(svg.contains("unexpected !coffee (expected one of: !tea)</text>"));
        // The input arrows point at the system.
        assert!(svg.contains("x1=\"170\" y1=\"80\" x2=\"590\" y2=\"80\""));
        // A passing or crashed test's trace highlights nothing.
        let mut plain = r.clone();
        plain.failure = None;
        assert!(!sequence_diagram(3, &plain).contains("step fail"));
    }

    #[test]
    fn hostile_text_is_escaped_everywhere() {
        let hostile = "<script>alert(\"x\")</script>&'é\u{1}\u{202e}";
        let sa = suspension_from_marked(
            hostile,
            2,
            &[
                (0, &format!("?{hostile}i"), 1),
                (1, &format!("!{hostile}o"), 0),
                (0, "delta", 0),
            ],
        )
        .unwrap();
        let mut c = SpecCoverage::new(sa);
        let trace = [
            ObservedStep::Input(format!("{hostile}i")),
            ObservedStep::Output(format!("{hostile}o")),
        ];
        c.cover_trace(&trace);
        assert_eq!(c.counts().transitions, 2);
        let mut record = failing(hostile, &[], hostile);
        record.trace = trace.to_vec();
        let records = [record, passing(hostile)];
        let header = header(hostile);
        let html = HtmlReport::of_run(
            hostile,
            &header,
            hostile,
            &records,
            None,
            Some((hostile, &c)),
        )
        .render();
        assert!(!html.to_lowercase().contains("<script"));
        assert!(html.contains(
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;é\\u{1}\\u{202e}"
        ));
        assert!(!html.contains('\u{1}') && !html.contains('\u{202e}'));
        // Every quote in the document delimits an attribute: an even number per tag.
        for tag in html.split('<').skip(1) {
            let tag = tag.split('>').next().unwrap();
            assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
        }
    }

    #[test]
    fn reports_are_deterministic_and_timeless_in_simulation() {
        let c = {
            let mut c = SpecCoverage::new(coffee());
            c.cover_trace(&steps(&["?coin", "?button", "!coffee"]));
            c
        };
        let records = [
            passing("t0001"),
            failing("t0002", &["?coin", "?button", "!tea"], "unexpected !tea"),
        ];
        let header = header("coffee");
        let render = || {
            HtmlReport::of_run(
                "s.json",
                &header,
                "model imp.aut",
                &records,
                None,
                Some(("coffee.aut", &c)),
            )
            .render()
        };
        let html = render();
        assert_eq!(html, render());
        assert!(!html.contains(" s<") && !html.contains("total time"));
        assert!(html.contains("<span class=\"number\" id=\"count-fail\">1</span>"));
        assert!(html.contains("<tr id=\"test-1\" class=\"fail\" data-verdict=\"fail\">"));
        assert!(html.contains("<a href=\"#failure-1\">(trace)</a>"));
        assert!(html.contains("id=\"failure-1\""));
        assert!(html.contains("Transitions covered: <b id=\"transitions-covered\">3</b> of 10"));
        // One label per transition, each marked; merged edges between the same states.
        assert_eq!(html.matches(" covered\" x=\"").count(), 3);
        assert_eq!(html.matches(" missed\" x=\"").count(), 7);
        assert_eq!(html.matches("<g class=\"state ").count(), 3);
        // No network: nothing is loaded from anywhere.
        assert!(
            !html.contains("src=") && !html.contains("href=\"http") && !html.contains("@import")
        );
        // Without a specification the report says how to get the drawing.
        let bare =
            HtmlReport::of_run("s.json", &header, "model imp.aut", &records, None, None).render();
        assert!(bare.contains(NO_SPEC_ADVICE) && !bare.contains("<svg class=\"ncomplete-model\""));
        // Measured times appear when there are some.
        let mut timed = records.to_vec();
        timed[0].time = Some(Duration::from_millis(1250));
        let html = HtmlReport::of_run(
            "s.json",
            &header,
            "system ./sut",
            &timed,
            Some(Duration::from_secs(2)),
            None,
        )
        .render();
        assert!(html.contains("<td>1.250 s</td>") && html.contains("<td>2.000 s</td>"));
    }
}
