//! n-complete ioco test suites for suspension automata (van den Bos Ch. 2, Sec. 2.7):
//!
//! - [`IocoMethod::Complete`]: the distinguishing test suite `T(S, n)` of Def. 2.37 — every trace
//!   of `P+(S, n)` followed by every distinguishing experiment of the state it reaches:
//!   harmonised distinguishing graphs for incompatible pairs, and for compatible but inequivalent
//!   pairs the suite of their merge, recursively (Theorem 2.40);
//! - [`IocoMethod::Unconditional`]: `U(S, n)` of Def. 2.43, `n`-bounded traces followed by an
//!   observation (Corollary 2.44);
//! - [`IocoMethod::Ads`]: a practical suite from the shortest state cover (see [`ads`]);
//! - [`IocoMethod::Counting`]: state counting over sets of pairwise incompatible states with
//!   distinguishing graphs, no merges and no recursion (see [`counting`]);
//! - [`IocoMethod::CoverCounting`]: the same with visits counted relative to the forced state
//!   cover (see [`counting`]).
//!
//! Every method is built for a quiescence domain ([`domain`]): the general one of the thesis, or
//! the classic one of LTSs observed through a timeout, whose suites never wait for an output
//! right after quiescence. The command line minimises the specification by `≈` (Def. 2.13)
//! first ([`specification_for`]), so `n` counts states of the minimal equivalent automaton.
//!
//! Suites are plans (`plan`) from which test cases are built one at a time with the execution
//! semantics of Sec. 2.7.4, and streamed through [`SuiteWriter`]. Plans of `T(S, n)` and
//! `ioco-ads` are brought to normal form (`normal`) and the few tests that still repeat are
//! filtered out exactly, so no suite has two equal tests. Test `k` depends only on the
//! plan, so the output is byte-identical for any number of threads.

pub mod access;
pub mod ads;
pub mod auto;
pub mod bounds;
mod conjunction;
mod costs;
pub(crate) use costs::measure_with_raw;
pub mod counting;
mod distinguishing;
pub mod domain;
mod normal;
mod pairs;
mod plan;
pub mod sizes;
mod unconditional;

use crate::model::{
    Model, SuspensionAutomaton, SuspensionOptions, lts_to_suspension, mealy_to_suspension,
};
use crate::suite::names::{Shard, ShardPicker, shard_header};
use crate::suite::{SuiteHeader, SuiteModel, SuiteWriter, TestCase};
pub(crate) use plan::LabelMap;
use plan::{Plan, Target};
use rayon::prelude::*;
use serde_json::{Map, Value, json};
use std::io::{self, Write};

pub use counting::IncompatibleSets;
pub use domain::{Domain, SuiteOptions};

pub use access::{
    count_extended_access, count_traces_shorter_than, extended_access, reachable_states,
    shortest_state_cover, traces_shorter_than,
};

/// The ioco suite generators.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IocoMethod {
    /// `T(S, n)`, the distinguishing test suite (Def. 2.37).
    Complete,
    /// `U(S, n)`, the unconditional test suite (Def. 2.43).
    Unconditional,
    /// Shortest state cover, extension, adaptive distinguishing graph and top-ups.
    Ads,
    /// The cheapest complete suite among the candidates of [`auto`], counted from their plans.
    Auto,
    /// State counting over sets of pairwise incompatible states ([`counting`]).
    Counting(IncompatibleSets),
    /// [`IocoMethod::Counting`] with visits counted relative to the forced state cover.
    CoverCounting(IncompatibleSets),
}

impl IocoMethod {
    /// The name written to the suite's `method` field.
    pub fn name(self) -> &'static str {
        match self {
            IocoMethod::Complete => "ioco-complete",
            IocoMethod::Unconditional => "unconditional",
            IocoMethod::Ads => "ioco-ads",
            IocoMethod::Auto => "ioco-auto",
            IocoMethod::Counting(_) => "ioco-counting",
            IocoMethod::CoverCounting(_) => "ioco-cover-counting",
        }
    }
}

/// The bound on implementation size a suite is generated for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// At most `n` specified implementation states.
    States(usize),
    /// At most `|S| + e` specified implementation states, `|S|` the reachable specification states.
    ExtraStates(usize),
}

pub use crate::suite::costs::{Budget, CostRefusal, Figure, SuiteCosts};

/// Why a suite could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IocoSuiteError {
    /// The construction would exceed a budget.
    #[error("{what} exceeds the budget of {budget}; {advice}")]
    Budget {
        /// What grew, phrased to precede "exceeds".
        what: String,
        /// The limit.
        budget: u128,
        /// What the user can do.
        advice: String,
    },
    /// A figure of the suite exceeds its budget (checked before anything is written).
    #[error(transparent)]
    Refused(Box<CostRefusal>),
    /// `ioco-auto` found no candidate within the budgets: one line per candidate, each reason
    /// whole, then the advice.
    #[error(
        "no complete suite for n = {n} fits the budgets:\n{}\n{advice}",
        reasons.iter().map(|r| format!("  {r}")).collect::<Vec<_>>().join("\n")
    )]
    NoCandidate {
        /// The bound.
        n: usize,
        /// Why each candidate was refused or left out, one per candidate.
        reasons: Vec<String>,
        /// What the user can do (never a method that was just refused).
        advice: String,
    },
    /// `ioco-auto` only: a candidate's bounded traces outgrew what a suite cheaper than the
    /// best one found can have (see [`auto`]).
    #[error(
        "its plan reached {trace_nodes} bounded traces, so its suite takes a step for each but the empty one"
    )]
    CannotWin {
        /// The trace nodes planned when it stopped.
        trace_nodes: usize,
    },
    /// `n = 0` asks for nothing.
    #[error("n must be at least 1 (the initial state is always specified)")]
    ZeroBound,
}

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

/// The suite JSON's view of a suspension automaton's labels: inputs in label order, outputs
/// without quiescence in label order, then quiescence.
pub fn suite_model(sa: &SuspensionAutomaton) -> SuiteModel {
    let a = &sa.alphabet;
    SuiteModel {
        name: sa.name.clone(),
        inputs: a.inputs().map(|l| a.name(l).to_owned()).collect(),
        outputs: a
            .outputs()
            .filter(|&l| l != sa.quiescence())
            .map(|l| a.name(l).to_owned())
            .collect(),
        quiescence: Some(a.name(sa.quiescence()).to_owned()),
    }
}

/// What to do about a suite of the method named `method` refused by the budgets, never naming
/// it: try a smaller `n`, raise the limits named, or (for one method) try `ioco-auto`; or
/// test without a completeness guarantee through coverage goals or `explore`.
pub fn refusal_advice(method: &str) -> String {
    let other = if method == IocoMethod::Auto.name() {
        ""
    } else {
        ", or --method ioco-auto (the cheapest complete suite that fits)"
    };
    format!(
        "try a smaller n (complete only for implementations with at most n states), raise the \
         limits named{other}; without a completeness guarantee, `generate --cover \
         transitions` writes one sound test per reachable transition and `explore` walks the \
         system at random for a set time (both fail only on outputs the model forbids, neither \
         proves an implementation correct)"
    )
}

impl IocoSuiteError {
    /// The refusal without its advice, for a table of refused candidates whose advice is given
    /// once for all of them (a candidate's own advice may name another refused candidate).
    pub fn reason(&self) -> String {
        match self {
            IocoSuiteError::Budget { what, budget, .. } => {
                format!("{what} exceeds the budget of {budget}")
            }
            IocoSuiteError::Refused(r) => r.overruns(),
            other => other.to_string(),
        }
    }
}

impl From<Box<CostRefusal>> for IocoSuiteError {
    fn from(e: Box<CostRefusal>) -> Self {
        IocoSuiteError::Refused(e)
    }
}

/// Resolves a [`Bound`] to `n`.
pub fn resolve_bound(sa: &SuspensionAutomaton, bound: Bound) -> Result<usize, IocoSuiteError> {
    let n = match bound {
        Bound::States(n) => n,
        Bound::ExtraStates(e) => {
            let states = reachable_states(sa).len();
            states
                .checked_add(e)
                .ok_or_else(|| IocoSuiteError::Budget {
                    what: format!("{states} states plus {e} extra states"),
                    budget: usize::MAX as u128,
                    advice: "give fewer extra states".into(),
                })?
        }
    };
    if n == 0 {
        return Err(IocoSuiteError::ZeroBound);
    }
    Ok(n)
}

/// Generates the suite of `method` for `sa`, refusing it (before anything is written) when a
/// figure of [`IocoSuite::costs`] exceeds its budget. [`IocoMethod::Auto`] picks the cheapest
/// complete candidate ([`auto`]).
///
/// ```
/// use ncomplete::format::{LoadOptions, load_model};
/// use ncomplete::suite::costs::Budget;
/// use ncomplete::suite::ioco::{self, Bound, IocoMethod};
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/vending.aut");
/// let sa = ioco::suspension_for(&load_model(path, &LoadOptions::default())?, path)?;
/// let suite = ioco::generate(&sa, IocoMethod::Auto, Bound::States(2), Budget::default())?;
/// assert!(suite.is_complete());
/// assert_eq!(suite.tests().count() as u128, suite.num_tests());
/// // Budgets refuse a suite before a test is built.
/// let tight = Budget { max_tests: 1, ..Budget::default() };
/// assert!(ioco::generate(&sa, IocoMethod::Complete, Bound::States(2), tight).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
) -> Result<IocoSuite, IocoSuiteError> {
    generate_with(sa, method, bound, budget, SuiteOptions::default())
}

/// [`generate`] for the domain and with the minimisation note of `options`.
pub fn generate_with(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
    options: SuiteOptions,
) -> Result<IocoSuite, IocoSuiteError> {
    if method == IocoMethod::Auto {
        return auto::choose_with(sa, bound, budget, options).map(|(suite, _)| suite);
    }
    let n = resolve_bound(sa, bound)?;
    if let Some(bound) = bounds::lower_bound(sa, method, n)? {
        bound.check(
            &budget,
            &format!("{} suite for n = {n}", method.name()),
            &refusal_advice(method.name()),
        )?;
    }
    let suite = plan_counted(sa, method, bound, budget, Counting::Always, options)?;
    suite.check(&budget)?;
    Ok(suite.without_repeated_tests())
}

/// Plans the suite of `method` (not [`IocoMethod::Auto`]) and counts its figures, without
/// checking them against the budget (only planning itself is bounded, by
/// [`Budget::max_plan_nodes`]; nodes and bytes are counted up to their budgets).
pub fn plan_suite(
    sa: &SuspensionAutomaton,
    method: IocoMethod,
    bound: Bound,
    budget: Budget,
) -> Result<IocoSuite, IocoSuiteError> {
    plan_counted(
        sa,
        method,
        bound,
        budget,
        Counting::Always,
        SuiteOptions::default(),
    )
}

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
    /// `--max-seconds` (see [`auto`]).
    ForRanking {
        /// Most trace nodes of a suite that can still win.
        max_trace_nodes: Option<usize>,
    },
}

impl Counting {
    /// Where [`Counting::ForRanking`] stops a plan of bounded traces under `budget`.
    fn trace_cap(self, budget: &Budget) -> counting::TraceCap {
        match self {
            Counting::Always => counting::TraceCap::default(),
            // Before a suite is found the time budget caps the plan; after, the best suite's
            // time does, by the trace nodes alone.
            Counting::ForRanking { max_trace_nodes } => counting::TraceCap {
                nodes: max_trace_nodes,
                seconds: max_trace_nodes
                    .is_none()
                    .then_some((budget.max_seconds, budget.timing)),
            },
        }
    }
}

/// [`plan_suite`], counting as `counting` says.
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
        IocoMethod::Auto => {
            return auto::choose_with(sa, bound, budget, options).map(|(suite, _)| suite);
        }
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

#[cfg(test)]
pub(crate) mod testkit;

#[cfg(test)]
mod adversary;

#[cfg(test)]
mod tests;

/// The suspension automaton a model is tested against: an LTS is determinised with quiescence
/// (its suspension automaton), a Mealy machine becomes one with every input followed by its
/// output.
pub fn suspension_for(model: &Model, path: &str) -> crate::Result<SuspensionAutomaton> {
    let sa = match model {
        Model::Lts(lts) => lts_to_suspension(lts, &SuspensionOptions::default()),
        Model::Mealy(m) => mealy_to_suspension(m),
    };
    sa.map_err(|source| crate::Error::Model {
        path: path.to_owned(),
        source,
    })
}

/// The specification an ioco suite is built for: [`suspension_for`], minimised by `≈` (van den
/// Bos Def. 2.9, 2.13; [`crate::model::minimize_suspension`]) unless `minimise` is false, and the
/// options that record it (`minimised_from`: the reachable states before) for `domain`.
pub fn specification_for(
    model: &Model,
    path: &str,
    minimise: bool,
    domain: Domain,
) -> crate::Result<(SuspensionAutomaton, SuiteOptions)> {
    let sa = suspension_for(model, path)?;
    let mut options = SuiteOptions {
        domain,
        minimised_from: None,
    };
    if !minimise {
        return Ok((sa, options));
    }
    options.minimised_from = Some(reachable_states(&sa).len());
    let min = crate::model::minimize_suspension(&sa).map_err(|source| crate::Error::Model {
        path: path.to_owned(),
        source,
    })?;
    Ok((min, options))
}

/// Writes `suite` (or its `shard`) as JSON v1 to `out` (`None` or `-`: standard output; a file
/// is replaced whole or not at all), with progress on stderr when `progress` is set
/// ([`crate::progress`]).
pub fn write_suite_file(
    suite: &IocoSuite,
    out: Option<&str>,
    shard: Option<Shard>,
    progress: bool,
) -> crate::Result<()> {
    let path = out.unwrap_or("-");
    let total = u64::try_from(suite.num_tests()).unwrap_or(u64::MAX);
    let report = crate::progress::Progress::new(progress, "writing tests", "tests", Some(total));
    let mut output = crate::output::Output::create(path)?;
    let result = suite.write_json_with(&mut output, shard, &|k| report.set_position(k));
    report.finish();
    result.map_err(|e| crate::Error::io(path, e))?;
    Ok(output.commit()?)
}
