//! The cost figures of an ioco suite ([`crate::suite::costs`]) counted from its plan before any
//! test is built: tests, runs, total steps and the longest test by arithmetic on the plan
//! ([`PlanCosts`]: closed-form sums over the per-node test counts that decide which move test
//! `k` takes), then nodes and bytes by walking each test's distinct choice points in the order
//! the JSON writer emits them (no test is built or kept), stopping as soon as a budget is
//! exceeded. The walk runs only when tests, runs and steps are within their budgets, so its
//! work is bounded by the budget too.

use super::plan::{LabelMap, Plan, PlanCosts, Target, WalkedTest, quoted_name_lengths};
use crate::model::SuspensionAutomaton;
use crate::suite::costs::{Budget, Figure, SuiteCosts, frame_bytes};
use crate::suite::json::ByteCounter;
use crate::suite::{SuiteHeader, SuiteWriter, TestCase};
use rayon::prelude::*;

/// The figures of a planned suite, and what writing it needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Counted {
    /// The figures; `bytes` counts the tests only until [`Counted::with_header`].
    pub(crate) costs: SuiteCosts,
    /// Bytes of the test lines (separators included), if walked to the end.
    pub(crate) test_bytes: Option<u128>,
    /// Nodes of the largest test (for the writer's chunk size).
    pub(crate) largest_test: u64,
}

/// Tests walked per parallel chunk between two budget checks.
const WALK_CHUNK: u128 = 4096;

/// Counts the figures of the suite whose tests are those of `root` (see the module doc); with
/// `walk` false, nodes and bytes are left uncounted (`Unknown`).
pub(crate) fn count(
    sa: &SuspensionAutomaton,
    labels: &LabelMap,
    plan: &Plan,
    root: Target,
    budget: &Budget,
    walk: bool,
) -> Counted {
    let mut pc = PlanCosts::new(plan, sa, labels);
    let tests = plan.count(root);
    let longest = Figure::Exact(pc.longest_test(root, sa.initial()));
    let unknown = Counted {
        costs: SuiteCosts {
            tests: Figure::Exact(tests),
            runs: Figure::Unknown,
            steps: Figure::Unknown,
            waits: Figure::Unknown,
            nodes: Figure::Unknown,
            longest,
            bytes: Figure::Unknown,
        },
        test_bytes: None,
        largest_test: 0,
    };
    if tests == u128::MAX {
        // Plan counts saturate; every test has at least one run, step and node.
        let over = Figure::MoreThan(u128::MAX);
        return Counted {
            costs: SuiteCosts {
                tests: over,
                runs: over,
                steps: over,
                waits: Figure::Unknown,
                nodes: over,
                bytes: over,
                longest,
            },
            ..unknown
        };
    }
    let Some(sums) = pc.path_sums(root, sa.initial()) else {
        return unknown;
    };
    let mut costs = SuiteCosts {
        runs: Figure::checked(sums.runs),
        steps: Figure::checked(sums.steps),
        waits: Figure::checked(sums.waits),
        ..unknown.costs
    };
    if !walk
        || costs.tests.exceeds(budget.max_tests)
        || costs.runs.exceeds(budget.max_runs)
        || costs.steps.exceeds(budget.max_steps)
        || costs.seconds(&budget.timing).exceeds(budget.max_seconds)
    {
        return Counted { costs, ..unknown };
    }
    let quoted = quoted_name_lengths(sa);
    // {"name":"coin_t0123456789ab","root":0,"nodes":[...]}, after "\n  " or ",\n  ": content
    // names are plain ASCII of the length the walk finds (`crate::suite::names::tree_name`,
    // collisions rehashed to the same).
    let line = |k: u128, w: WalkedTest| {
        let sep = if k == 0 { 3 } else { 4 };
        sep + 8 + w.name_len as u128 + 2 + 19 + w.node_bytes as u128 + 2
    };
    let (mut nodes, mut bytes, mut largest) = (0u128, 0u128, 0u64);
    let mut start = 0u128;
    while start < tests {
        let end = (start + WALK_CHUNK).min(tests);
        let (n, b, l) = (start as u64..end as u64)
            .into_par_iter()
            .map(|k| {
                let w = pc.walk_test(root, sa.initial(), k as u128, &quoted);
                (w.nodes as u128, line(k as u128, w), w.nodes)
            })
            .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2.max(b.2)));
        nodes += n;
        bytes += b;
        largest = largest.max(l);
        start = end;
        if start < tests && (nodes > budget.max_nodes || bytes > budget.max_bytes) {
            costs.nodes = Figure::MoreThan(nodes.min(budget.max_nodes));
            costs.bytes = Figure::MoreThan(bytes.min(budget.max_bytes));
            return Counted {
                costs,
                test_bytes: None,
                largest_test: largest,
            };
        }
    }
    costs.nodes = Figure::Exact(nodes);
    costs.bytes = Figure::Exact(bytes);
    Counted {
        costs,
        test_bytes: Some(bytes),
        largest_test: largest,
    }
}

/// Measures the figures of built tests exactly (for suites whose plan repeats tests that are
/// left out, see [`super::normal::first_occurrences`]): runs and steps over the paths of each
/// test, and bytes by serializing the JSON file into a counter, no line of it built.
pub(crate) fn measure(tests: impl Iterator<Item = TestCase>, header: &SuiteHeader) -> Counted {
    measure_with_raw(tests, header, &[])
}

/// [`measure`] for a file whose header ends in entries already serialized (see
/// [`SuiteWriter::begin_with_raw`]).
pub(crate) fn measure_with_raw(
    tests: impl Iterator<Item = TestCase>,
    header: &SuiteHeader,
    raw: &[(&str, &str)],
) -> Counted {
    let (mut count, mut runs, mut steps, mut waits, mut nodes, mut longest, mut largest) =
        (0u128, 0u128, 0u128, 0u128, 0u128, 0u128, 0u64);
    let quiescence = header.model.quiescence_id();
    let mut writer = SuiteWriter::begin_with_raw(ByteCounter(0), header, raw).ok();
    let mut tests = tests.peekable();
    while tests.peek().is_some() {
        // Counted in parallel a chunk at a time, added in order.
        let chunk: Vec<TestCase> = tests
            .by_ref()
            .take(crate::suite::json::LINE_CHUNK)
            .collect();
        let line_bytes: Vec<Option<u64>> = chunk
            .par_iter()
            .map(|t| crate::suite::json::test_line_bytes(&header.model, t).ok())
            .collect();
        for (t, line) in chunk.iter().zip(line_bytes) {
            let (p, s, w) = t.runs_steps_waits(quiescence);
            count += 1;
            runs += p;
            steps += s;
            waits += w;
            nodes += t.nodes.len() as u128;
            longest = longest.max(t.depth() as u128);
            largest = largest.max(t.nodes.len() as u64);
            writer = writer.and_then(|mut w| {
                w.count_test_line(line?);
                Some(w)
            });
        }
    }
    let bytes = writer
        .and_then(|w| w.finish().ok())
        .map(|c| u128::from(c.0));
    let frame = SuiteWriter::begin_with_raw(ByteCounter(0), header, raw)
        .and_then(|w| w.finish())
        .map_or(0, |c| u128::from(c.0));
    Counted {
        costs: SuiteCosts {
            tests: Figure::Exact(count),
            runs: Figure::Exact(runs),
            steps: Figure::Exact(steps),
            waits: Figure::Exact(waits),
            nodes: Figure::Exact(nodes),
            longest: Figure::Exact(longest),
            bytes: bytes.map_or(Figure::Unknown, Figure::Exact),
        },
        test_bytes: bytes.map(|b| b.saturating_sub(frame)),
        largest_test: largest,
    }
}

impl Counted {
    /// The figures with the file's header and closing added to the bytes.
    /// Only an upper bound on the tests (of a plan not in normal form), nothing else counted.
    pub(crate) fn tests_at_most(tests: u128) -> Counted {
        Counted {
            costs: SuiteCosts {
                tests: Figure::AtMost(tests),
                runs: Figure::Unknown,
                steps: Figure::Unknown,
                waits: Figure::Unknown,
                nodes: Figure::Unknown,
                longest: Figure::Unknown,
                bytes: Figure::Unknown,
            },
            test_bytes: None,
            largest_test: 0,
        }
    }

    pub(crate) fn with_header(mut self, header: &SuiteHeader) -> Counted {
        if let Some(b) = self.test_bytes {
            self.costs.bytes = Figure::Exact(b + frame_bytes(header));
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{Rng, fig_2_1, fig_2_8, fig_2_9, random_sa};
    use super::super::{Bound, Budget, IocoMethod, plan_suite};
    use crate::identify::random::random_suspension;
    use crate::model::SuspensionAutomaton;
    use crate::suite::costs::Figure;
    use crate::suite::{TestCase, suite_to_string};

    /// Compares every counted figure with the one measured on the built suite; returns whether
    /// the suite was small enough to compare.
    fn compare(sa: &SuspensionAutomaton, method: IocoMethod, n: usize) -> bool {
        let small = Budget {
            max_tests: 300,
            max_plan_nodes: 20_000,
            ..Budget::default()
        };
        let Ok(suite) = plan_suite(sa, method, Bound::States(n), small) else {
            return false;
        };
        if suite.num_tests() > 300 {
            return false;
        }
        let tests: Vec<TestCase> = suite.tests().collect();
        let (mut runs, mut steps, mut nodes, mut longest) = (0u128, 0u128, 0u128, 0u128);
        for t in &tests {
            let (p, s) = t.runs_and_steps();
            runs += p;
            steps += s;
            nodes += t.nodes.len() as u128;
            longest = longest.max(t.depth() as u128);
        }
        let bytes = suite_to_string(suite.header(), &tests).len() as u128;
        let c = suite.costs();
        let what = format!("{} {} n = {n}", sa.name, method.name());
        assert_eq!(c.tests, Figure::Exact(tests.len() as u128), "{what}");
        assert_eq!(c.runs, Figure::Exact(runs), "{what}");
        assert_eq!(c.steps, Figure::Exact(steps), "{what}");
        assert_eq!(c.nodes, Figure::Exact(nodes), "{what}");
        assert_eq!(c.longest, Figure::Exact(longest), "{what}");
        assert_eq!(c.bytes, Figure::Exact(bytes), "{what}");
        true
    }

    const METHODS: [IocoMethod; 3] = [
        IocoMethod::Complete,
        IocoMethod::Unconditional,
        IocoMethod::Ads,
    ];

    #[test]
    fn figures_of_the_thesis_suites_match_the_built_tests() {
        let mut compared = 0;
        for sa in [fig_2_1(), fig_2_8(), fig_2_9()] {
            for method in METHODS {
                for n in 1..=4 {
                    compared += compare(&sa, method, n) as usize;
                }
            }
        }
        assert!(compared >= 20, "only {compared} suites compared");
    }

    #[test]
    fn figures_of_random_suites_match_the_built_tests() {
        let mut compared = 0;
        let mut rng = Rng::new(11);
        for seed in 0..16u64 {
            let sa = if seed % 2 == 0 {
                random_suspension(seed, 3 + (seed as usize % 3), 2, 2)
            } else {
                random_sa(&mut rng, 3 + (seed as usize % 3), 2, 1)
            };
            for method in METHODS {
                for n in 1..=3 {
                    compared += compare(&sa, method, n) as usize;
                }
            }
        }
        assert!(compared >= 60, "only {compared} suites compared");
    }

    #[test]
    fn counting_stops_at_the_node_budget_with_a_lower_bound() {
        let sa = fig_2_1();
        let budget = Budget {
            max_nodes: 10,
            ..Budget::default()
        };
        let suite = plan_suite(&sa, IocoMethod::Complete, Bound::States(3), budget).unwrap();
        // Counted exactly (one chunk of tests) or up to the limit: over it either way.
        assert!(suite.costs().nodes.exceeds(10), "{:?}", suite.costs());
        let e = suite.check(&budget).unwrap_err();
        assert_eq!(e.flag, "--max-nodes");
        let tight = Budget {
            max_runs: 5,
            ..Budget::default()
        };
        let suite = plan_suite(&sa, IocoMethod::Complete, Bound::States(3), tight).unwrap();
        // Runs already refuse it: nodes and bytes are not counted.
        assert_eq!(suite.costs().nodes, Figure::Unknown);
        assert_eq!(suite.check(&tight).unwrap_err().flag, "--max-runs");
    }
}
