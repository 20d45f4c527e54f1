//! Benchmark of exact suite simulation (`ncomplete run --model`): random input-enabled
//! suspension automata and large synthetic suites whose tests branch on every output and share
//! their continuation nodes (DAGs), so each node is met in many implementation states.
//!
//! Run: `cargo bench --bench exec_simulate`. Prints a table: states, tests, nodes per test,
//! explored (node, state) pairs, time.

use ncomplete::exec::{InputEnabling, SimulatedSystem, run_suite};
use ncomplete::model::{LabelId, suspension_from_marked};
use ncomplete::suite::{Next, SuiteModel, TestCase, TestNode};
use std::time::Instant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const INPUTS: [&str; 3] = ["?a", "?b", "?c"];
const OUTPUTS: [&str; 3] = ["!x", "!y", "!z"];

fn random_system(states: usize, rng: &mut Rng) -> SimulatedSystem {
    let mut edges: Vec<(u32, String, u32)> = Vec::new();
    for s in 0..states {
        for i in INPUTS {
            edges.push((s as u32, i.into(), rng.below(states) as u32));
        }
        // Half the states output (one or two outputs), the others are quiescent.
        if rng.below(2) == 0 {
            let k = 1 + rng.below(2);
            for o in OUTPUTS.iter().take(k) {
                edges.push((s as u32, (*o).into(), rng.below(states) as u32));
            }
        } else {
            edges.push((s as u32, "delta".into(), s as u32));
        }
    }
    let borrowed: Vec<(u32, &str, u32)> =
        edges.iter().map(|(a, l, b)| (*a, l.as_str(), *b)).collect();
    let sa = suspension_from_marked("bench", states, &borrowed).expect("valid automaton");
    let suite = SuiteModel {
        name: "bench".into(),
        inputs: vec!["a".into(), "b".into(), "c".into()],
        outputs: vec!["x".into(), "y".into(), "z".into()],
        quiescence: Some("delta".into()),
    };
    SimulatedSystem::from_suspension(&sa, &suite, InputEnabling::Reject).expect("input-enabled")
}

/// A test of `steps` send/expect pairs; every expect accepts every output and continues at the
/// next send (a DAG in which the state set per node grows).
fn random_test(name: String, steps: usize, rng: &mut Rng) -> TestCase {
    let mut nodes = Vec::with_capacity(2 * steps);
    for k in 0..steps {
        let next = if k + 1 == steps {
            Next::PASS
        } else {
            Next::Node((2 * k + 2) as u32)
        };
        let race: Vec<(LabelId, Next)> = (0..3).map(|o| (LabelId(o), Next::RETRY)).collect();
        nodes.push(TestNode::Send {
            input: LabelId(rng.below(3) as u32),
            then: Next::Node((2 * k + 1) as u32),
            race,
        });
        nodes.push(TestNode::Expect {
            branches: (0..4).map(|o| (LabelId(o), next)).collect(),
        });
    }
    TestCase { name, nodes }
}

fn main() {
    println!(
        "{:>8} {:>8} {:>8} {:>14} {:>10}",
        "states", "tests", "nodes", "explored", "time"
    );
    for &(states, tests, steps) in &[
        (100, 1_000, 10),
        (1_000, 10_000, 10),
        (1_000, 1_000, 200),
        (10_000, 10_000, 20),
    ] {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ states as u64);
        let sys = random_system(states, &mut rng);
        let suite: Vec<TestCase> = (0..tests)
            .map(|t| random_test(format!("t{t}"), steps, &mut rng))
            .collect();
        let start = Instant::now();
        let report = run_suite(&sys, &suite);
        let elapsed = start.elapsed();
        let explored: usize = report.tests.iter().map(|t| t.explored).sum();
        println!(
            "{states:>8} {tests:>8} {:>8} {explored:>14} {:>8.1?}",
            2 * steps,
            elapsed
        );
    }
}
