//! The report itself ([`HtmlReport`]): what a run, an exploration or an STS run shows, and its
//! page, section by section (summary, table of tests, requirements, failing traces, model).

use super::coverage::{CoverageCounts, SpecCoverage};
use super::diagrams::{marked_trace, model_diagram, sequence_diagram};
use super::page::{
    DRAWN_FAILURES, DRAWN_STATES, DRAWN_TRANSITIONS, LEGEND, MISSED_LISTED, STYLE, bar, percent,
    seconds,
};
use super::switches::SwitchCoverage;
use crate::exec::TestVerdict;
use crate::exec::explore::{ExploreOptions, ExploreReport, Policy};
use crate::exec::records::{ObservedStep, TestRecord, VerdictCounts, failure_at_last_step};
use crate::render::escape::html_text;
use crate::suite::SuiteHeader;
use std::borrow::Cow;
use std::fmt::Write as _;
use std::time::Duration;

/// Everything the report shows.
#[derive(Debug)]
pub struct HtmlReport<'a> {
    pub(in crate::exec) title: String,
    /// The run's verdict (for a suite the worst test verdict; an STS run's rounds decide
    /// otherwise, [`crate::exec::sts_run::StsRunReport::verdict`]).
    pub(in crate::exec) verdict: TestVerdict,
    pub(in crate::exec) counts: VerdictCounts,
    /// Name and value of each line of the summary table.
    pub(in crate::exec) facts: Vec<(&'static str, String)>,
    pub(in crate::exec) records: Cow<'a, [TestRecord]>,
    /// Whether the table of tests shows every record's trace (an STS run: the data values the
    /// tester chose and the system answered).
    pub(in crate::exec) traces_in_table: bool,
    /// What the coverage section shows.
    pub(in crate::exec) coverage: CoverageView<'a>,
    /// The requirements coverage table, when the suite names requirements
    /// ([`crate::exec::requirements`]).
    pub(in crate::exec) requirements: Option<crate::exec::requirements::RequirementCoverage>,
}

/// The coverage section of a report.
#[derive(Debug)]
pub(in crate::exec) enum CoverageView<'a> {
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
    Switches(SwitchCoverage),
}

/// The advice a report without a specification gives.
pub const NO_SPEC_ADVICE: &str = "No specification was given, so the model is not drawn and no \
     coverage is counted: run again with --spec MODEL (the model the suite was generated from).";

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
        let requirements = crate::exec::requirements::RequirementCoverage::of(header, verdicts);
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
