//! A planned ioco suite ([`IocoSuite`]): the plan of a method (not `ioco-auto`, which chooses
//! among these), its header and cost figures, and its tests built on demand from the plan and
//! streamed as suite JSON v1.

use super::access::reachable_states;
use super::domain::{Domain, SuiteOptions};
use super::error::IocoSuiteError;
use super::method::{Bound, IocoMethod, refusal_advice, resolve_bound};
use super::plan::{LabelMap, Plan, Target};
use super::{ads, bounded_traces, costs, counting, distinguishing, normal, unconditional};
use crate::model::SuspensionAutomaton;
use crate::suite::costs::{Budget, CostRefusal, Figure, SuiteCosts};
use crate::suite::names::{Shard, ShardPicker, shard_header};
use crate::suite::{SuiteHeader, SuiteWriter, TestCase};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// A generated ioco suite: header and a plan from which its tests are built on demand.
#[derive(Clone, Debug)]
pub struct IocoSuite {
    sa: SuspensionAutomaton,
    labels: LabelMap,
    plan: Plan,
    root: Target,
    header: SuiteHeader,
    tests: u128,
    counted: costs::Counted,
    complete: bool,
    n: usize,
    /// The plan's test index of each test, when the plan repeats tests (see [`normal`]).
    kept: Option<Vec<u128>>,
    /// Whether the plan may repeat a test (every method but `U(S, n)`, which is duplicate-free
    /// as built).
    may_repeat: bool,
}

pub use crate::suite::case::suite_model;

/// Which planned suites [`plan_counted`] brings to normal form and counts in full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counting {
    /// Every suite.
    Always,
    /// For ranking (`ioco-auto`): suites that are `n`-complete as planned are normalised and
    /// counted by arithmetic on the plan only (tests, runs, steps, waits, longest; nodes and
    /// bytes are left to [`IocoSuite::written_unless`], which may never need them); of the
    /// others (no candidate) only the tests of the plan as built are counted, an upper bound
    /// (`AtMost`): normalising a suite that cannot be chosen would cost memory and time for
    /// nothing. Bounded traces (`U(S, n)`, the counting suites) stop with
    /// [`IocoSuiteError::CannotWin`] past `max_trace_nodes` plan nodes, and without such a
    /// cap with [`IocoSuiteError::Budget`] once their steps and waits are over
    /// `--max-seconds` (see [`auto`](super::auto)).
    ForRanking {
        /// Most trace nodes of a suite that can still win.
        max_trace_nodes: Option<usize>,
    },
}

impl Counting {
    /// Where [`Counting::ForRanking`] stops a plan of bounded traces under `budget`.
    fn trace_cap(self, budget: &Budget) -> bounded_traces::TraceCap {
        match self {
            Counting::Always => bounded_traces::TraceCap::default(),
            // Before a suite is found the time budget caps the plan; after, the best suite's
            // time does, by the trace nodes alone.
            Counting::ForRanking { max_trace_nodes } => bounded_traces::TraceCap {
                nodes: max_trace_nodes,
                seconds: max_trace_nodes
                    .is_none()
                    .then_some((budget.max_seconds, budget.timing)),
            },
        }
    }
}

/// [`plan_suite`](super::plan_suite), counting as `counting` says, for any method but
/// `ioco-auto` (which `auto::choose_with` chooses among these).
pub(crate) fn plan_counted(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
    counting: Counting,
    options: SuiteOptions,
) -> Result<IocoSuite, IocoSuiteError> {
    let n = resolve_bound(sa, bound)?;
    let mut plan = Plan::new(options.domain == Domain::Classic);
    let mut notes: Vec<String> = Vec::new();
    let mut complete = true;
    let mut incompatible_sets = None;
    let (root, guarantee) = match method {
        IocoMethod::Unconditional => {
            let root = unconditional::unconditional_plan(
                &mut plan,
                sa,
                sa.initial(),
                n,
                budget.max_plan_nodes,
                counting.trace_cap(&budget),
            )?;
            (
                root,
                format!(
                    "complete for every implementation with at most {n} specified states \
                     (unconditional suite, van den Bos Cor. 2.44)"
                ),
            )
        }
        IocoMethod::Complete => {
            let mut builder = distinguishing::CompleteBuilder::new(sa, n, budget);
            let root = builder.build(&mut plan)?;
            let mut guarantee = format!(
                "complete for every implementation with at most {n} specified states \
                 (distinguishing test suite, van den Bos Thm. 2.40)"
            );
            if builder.merges > 0 {
                notes.push(format!(
                    "{} merges of compatible, inequivalent states are tested with their own \
                     distinguishing test suites",
                    builder.merges
                ));
            }
            if !builder.fallbacks.is_empty() {
                // Complete, but not T(S, n) itself: `ioco-auto` does not take it.
                complete = false;
                let list: Vec<String> = builder.fallbacks.iter().cloned().collect();
                let text = format!(
                    "the suites of the merges {} would recurse without end (Def. 2.37 defines an \
                     infinite suite for them); they are tested with their unconditional suite \
                     U(merge, {n}) instead, which keeps the guarantee (Cor. 2.44)",
                    list.join(", ")
                );
                guarantee.push_str("; ");
                guarantee.push_str(&text);
                notes.push(text);
            }
            (root, guarantee)
        }
        IocoMethod::Ads => {
            let (root, guarantee) = ads::plan(sa, n, budget, &mut plan, &mut notes)?;
            // `ads::plan` states the guarantee; it begins with "complete" exactly when the
            // completeness condition of `ads` holds.
            complete = guarantee.starts_with("complete");
            (root, guarantee)
        }
        IocoMethod::Counting(choice) | IocoMethod::CoverCounting(choice) => {
            let relative = matches!(method, IocoMethod::CoverCounting(_));
            let c = counting::counting_plan(
                &mut plan,
                sa,
                n,
                choice,
                budget.max_plan_nodes,
                relative,
                counting.trace_cap(&budget),
            )?;
            let (guarantee, field) = counting::describe(sa, n, choice, &c.family, c.pinned);
            incompatible_sets = Some(field);
            (c.root, guarantee)
        }
        // The callers choose `ioco-auto` (`auto::choose_with`) instead of planning it.
        IocoMethod::Auto => unreachable!("ioco-auto is chosen among planned candidates"),
    };
    let guarantee = full_guarantee(guarantee, sa, options);
    let count_in_full = complete || counting == Counting::Always;
    // T(S, n) and ioco-ads enumerate duplicates until normalised; the state-counting plans
    // (U(S, n) and ioco-counting) have one observation and one send per input per node.
    let (mut plan, root) = match method {
        IocoMethod::Complete | IocoMethod::Ads if count_in_full => {
            normal::normalise(&plan, sa, root, budget.max_plan_nodes)?
        }
        _ => (plan, root),
    };
    plan.finish();
    let tests = plan.count(root);
    let labels = LabelMap::new(sa);
    let counted = if count_in_full {
        costs::count(
            sa,
            &labels,
            &plan,
            root,
            &budget,
            counting == Counting::Always,
        )
    } else {
        costs::Counted::tests_at_most(tests)
    };
    let mut extra = Map::new();
    extra.insert("domain".into(), json!(options.domain.name()));
    if let Some(before) = options.minimised_from {
        extra.insert(
            "minimised".into(),
            json!({"states_before": before, "states": reachable_states(sa).len()}),
        );
    }
    extra.insert(
        "stats".into(),
        stats_json(tests, plan.len(), &counted.costs),
    );
    if let Some(field) = incompatible_sets {
        extra.insert("incompatible_sets".into(), field);
    }
    if !notes.is_empty() {
        extra.insert(
            "notes".into(),
            Value::Array(notes.into_iter().map(Value::from).collect()),
        );
    }
    let header = SuiteHeader {
        model: suite_model(sa),
        method: method.name().into(),
        n: Some(n),
        guarantee,
        extra,
    };
    Ok(IocoSuite {
        sa: sa.clone(),
        labels,
        plan,
        root,
        counted: counted.with_header(&header),
        header,
        tests,
        complete,
        n,
        kept: None,
        // Quiet observations left out in the classic domain can make two tests equal.
        may_repeat: !matches!(method, IocoMethod::Unconditional)
            || options.domain == Domain::Classic,
    })
}

/// A construction's guarantee with what `n` counts (after minimisation) and the domain.
fn full_guarantee(guarantee: String, sa: &SuspensionAutomaton, options: SuiteOptions) -> String {
    let mut out = guarantee;
    if let Some(before) = options.minimised_from {
        out.push_str(&format!(
            "; n counts the states of the specification minimised by ≈ (van den Bos Def. 2.13, \
             {} states, {before} before)",
            reachable_states(sa).len()
        ));
    }
    out.push_str("; ");
    out.push_str(options.domain.guarantee());
    out
}

/// The header's `stats`: tests, plan nodes, waits (quiescence observations over all runs).
fn stats_json(tests: u128, plan_nodes: usize, costs: &SuiteCosts) -> Value {
    json!({
        "tests": u64::try_from(tests).ok(),
        "plan_nodes": plan_nodes,
        "waits": costs.waits.exact().and_then(|w| u64::try_from(w).ok()),
    })
}

impl IocoSuite {
    /// The cost figures, counted from the plan (bytes: of the JSON file with this header).
    pub fn costs(&self) -> SuiteCosts {
        self.counted.costs
    }

    /// Whether the suite is `n`-complete as planned (for `ioco-complete`: without nesting
    /// `U(merge, n)`; for `ioco-ads`: when its completeness condition holds).
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The bound `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Refuses the suite if a figure exceeds its budget.
    pub fn check(&self, budget: &Budget) -> Result<(), Box<CostRefusal>> {
        self.costs().check(
            budget,
            &format!("{} suite for n = {}", self.header.method, self.n),
            &refusal_advice(&self.header.method),
        )
    }

    /// The suite without the tests its plan repeats: they are found exactly (every test is
    /// built once, so call this after the budgets were checked) and left out, and the figures
    /// are then measured on the tests kept. The plan's figures, by which budgets were checked
    /// and `ioco-auto` ranked, are upper bounds of these.
    pub(crate) fn without_repeated_tests(mut self) -> Self {
        if !self.may_repeat || self.kept.is_some() {
            return self;
        }
        let kept = normal::first_occurrences(self.tests, &|k| {
            self.plan.build_test(
                &self.sa,
                &self.labels,
                self.root,
                self.sa.initial(),
                k,
                String::new(),
            )
        });
        if let Some(kept) = kept {
            self.tests = kept.len() as u128;
            self.kept = Some(kept);
            self.measure_as_written();
        }
        self
    }

    /// Measures the figures on the tests as written and records them in the header's stats.
    fn measure_as_written(&mut self) {
        self.counted = costs::measure(self.tests(), &self.header);
        self.header.extra.insert(
            "stats".into(),
            stats_json(self.tests, self.plan.len(), &self.counted.costs),
        );
        self.counted = self.counted.with_header(&self.header);
    }

    /// The suite as it would be written (its repeated tests left out, every figure exact),
    /// unless `stop` holds for the figures of the distinct tests found so far: those are lower
    /// bounds of the figures as written, so a candidate that cannot win (`ioco-auto`) or is
    /// already over a budget is abandoned after a chunk of tests
    /// ([`normal::first_occurrences_until`]). A suite without repeated tests is counted by the
    /// walk of [`costs::count`] unless `stop` holds for its planned figures, which are exact.
    /// Also returns the number of tests built.
    pub(crate) fn written_unless(
        mut self,
        budget: &Budget,
        stop: &dyn Fn(&normal::KeptSums) -> bool,
    ) -> (Result<Self, (Self, normal::KeptSums)>, u128) {
        if self.planned_as_written() {
            let exact = |f: Figure| f.exact().unwrap_or(u128::MAX);
            let c = self.costs();
            let planned = normal::KeptSums {
                tests: self.tests,
                runs: exact(c.runs),
                steps: exact(c.steps),
                waits: exact(c.waits),
                nodes: 0,
            };
            if stop(&planned) {
                return (Err((self, planned)), 0);
            }
            if self.counted.costs.nodes == Figure::Unknown {
                let counted =
                    costs::count(&self.sa, &self.labels, &self.plan, self.root, budget, true);
                self.counted = counted.with_header(&self.header);
            }
            return (Ok(self), 0);
        }
        let quiescence = self.header.model.quiescence_id();
        let (found, built) = normal::first_occurrences_until(
            self.tests,
            &|k| {
                self.plan.build_test(
                    &self.sa,
                    &self.labels,
                    self.root,
                    self.sa.initial(),
                    k,
                    String::new(),
                )
            },
            quiescence,
            stop,
        );
        let kept = match found {
            normal::Occurrences::Stopped(sums) => return (Err((self, sums)), built),
            normal::Occurrences::AllDistinct => None,
            normal::Occurrences::Kept(kept) => Some(kept),
        };
        if let Some(kept) = kept {
            self.tests = kept.len() as u128;
            self.kept = Some(kept);
        }
        self.measure_as_written();
        (Ok(self), built)
    }

    /// Whether the planned figures are those of the suite as written (its plan repeats no
    /// test), so no test needs building to know them.
    pub(crate) fn planned_as_written(&self) -> bool {
        !self.may_repeat || self.kept.is_some()
    }

    /// Replaces the header (bytes are recounted for it).
    pub(crate) fn set_header(&mut self, header: SuiteHeader) {
        self.counted = self.counted.with_header(&header);
        self.header = header;
    }

    /// The header written before the tests.
    pub fn header(&self) -> &SuiteHeader {
        &self.header
    }

    /// Number of tests.
    pub fn num_tests(&self) -> u128 {
        self.tests
    }

    /// Test number `k` (0-based), named by its content ([`crate::suite::names::tree_name`]; the
    /// suite file makes the rare equal names unique, see [`IocoSuite::write_json`]).
    pub fn test(&self, k: u128) -> TestCase {
        let mut test = self.plan.build_test(
            &self.sa,
            &self.labels,
            self.root,
            self.sa.initial(),
            self.kept.as_ref().map_or(k, |v| v[k as usize]),
            String::new(),
        );
        test.name = crate::suite::names::tree_name(&self.header.model, &test);
        test
    }

    /// All tests in order (built lazily).
    pub fn tests(&self) -> impl Iterator<Item = TestCase> + '_ {
        (0..self.tests).map(|k| self.test(k))
    }

    /// Streams the suite as JSON v1, building tests in parallel in fixed-size chunks and writing
    /// them in order; a content name taken by an earlier test is rehashed (same width). Returns
    /// the writer's output.
    pub fn write_json<W: Write>(&self, out: W) -> io::Result<W> {
        self.write_json_with(out, None, &|_| {})
    }

    /// [`IocoSuite::write_json`], only the tests of `shard` when given (names are made unique
    /// over the whole suite first, so a test has the same name in its shard as in the suite),
    /// reporting the number of tests built after every chunk.
    pub fn write_json_with<W: Write>(
        &self,
        out: W,
        shard: Option<Shard>,
        progress: &dyn Fn(u64),
    ) -> io::Result<W> {
        let mut writer = SuiteWriter::begin(out, &shard_header(&self.header, shard))?;
        let mut names = crate::suite::names::UniqueNames::default();
        let mut picker = shard.map(ShardPicker::new);
        // Tests built at once: up to 256, fewer when tests are large (about 2 M nodes in memory).
        let chunk = (2_000_000 / self.counted.largest_test.max(1)).clamp(1, 256);
        let chunk = chunk as u128;
        let mut start = 0u128;
        while start < self.tests {
            let end = (start + chunk).min(self.tests);
            let chunk: Vec<TestCase> = (start as u64..end as u64)
                .into_par_iter()
                .map(|k| self.test(k as u128))
                .collect();
            for mut t in chunk {
                t.name = names.claim_tree_name(std::mem::take(&mut t.name));
                if picker.as_mut().is_none_or(|p| p.keep(&t)) {
                    writer.write_test(&t)?;
                }
            }
            start = end;
            progress(start as u64);
        }
        writer.finish()
    }
}
