//! Offline test cases that steer towards a goal by a joker strategy (van den Bos Sec. 6.6:
//! Lemma 6.28 and Theorem 6.30 for winning strategies, Lemma 6.32 and Theorem 6.35 for joker
//! strategies), in the suite JSON v1 form of [`crate::suite::TestCase`].
//!
//! At each position the test plays the strategy's move: an input becomes a `send` whose `race`
//! branches are the outputs the specification allows there, θ becomes an `expect` of the allowed
//! outputs (quiescence included when allowed). Every other output is not listed and so fails:
//! `fail` is decided by the specification alone, so the tests are sound (Theorem 6.27). After a
//! step the test goes on only while it progresses, i.e. (J-rank, A-rank) strictly decreases: it
//! says `pass` when the goal is reached and `retry` (inconclusive) when the system took a step
//! that did not help — in a joker state, or out of the goal's reach (a test purpose's refuse
//! state). From a winning state every allowed step progresses, so such a test ends in `pass` or
//! `fail` against any system. A test node is one arena position and nodes are ordered by
//! decreasing (J-rank, A-rank), so every test is a DAG in topological order with at most one node
//! per position.
//!
//! With *patience* k a test tolerates k steps that do not help: after such a step it goes on
//! playing the strategy from the position the system chose, as long as the goal can still be
//! reached from there, and says `retry` only at the (k+1)-th. Test nodes are then (position,
//! patience left), ordered by both, so tests stay acyclic with at most k+1 nodes per position.

use super::error::GoalSuiteError;
use super::goal::{Coverage, Goal, GoalError};
use super::shortest::{PathGoal, ShortestPaths};
use super::solve::{Move, Reachability};
use super::{Position, Strategy, reach_strategy};
use crate::format::LoadOptions;
use crate::model::{LabelId, Model, SuspensionAutomaton};
use crate::suite::case::suite_model;
use crate::suite::costs::{Budget, CostRefusal, Figure, SuiteCosts};
use crate::suite::ioco::LabelMap;
use crate::suite::{Next, SuiteHeader, SuiteModel, TestCase, TestNode};
use rayon::prelude::*;
use std::collections::HashMap;

/// The test case that plays `strategy` from its start, named `name`; `None` if the goal is
/// unreachable. `patience` is how many steps that do not help the test tolerates, going on from
/// where the system went while the goal is still reachable there (0: stop at the first, as the
/// finite joker strategy of Lemma 6.32 does).
pub fn strategy_test_case(
    strategy: &Strategy,
    sa: &SuspensionAutomaton,
    name: &str,
    patience: u32,
) -> Option<TestCase> {
    let ids = LabelMap::new(sa);
    let start = strategy.start();
    if strategy.reachability() == Reachability::Unreachable {
        return None;
    }
    let arena = strategy.arena();
    if strategy.reached(start) {
        // The goal holds before any step: the test checks the next output and passes.
        let mut branches: Vec<(LabelId, Next)> = arena
            .outputs(start.0)
            .map(|(x, _)| (ids.id(x), Next::PASS))
            .collect();
        if branches.is_empty() {
            // Goal nodes are not expanded: list the automaton's outputs of the state.
            let q = strategy.spec_state(start)?;
            branches = sa
                .outputs_enabled(q)
                .map(|x| (ids.id(x), Next::PASS))
                .collect();
        }
        branches.sort_unstable();
        return Some(TestCase {
            name: name.to_owned(),
            nodes: vec![TestNode::Expect { branches }],
        });
    }
    // Test nodes are (position, patience left); the start and every continuing successor.
    type Key = (Position, u32);
    let step = |p: Position, r: u32, w: Position| -> Option<Next> {
        if strategy.reached(w) {
            Some(Next::PASS)
        } else if strategy.progressed(p, w) || (r > 0 && strategy.game().jrank(w.0).is_some()) {
            None
        } else {
            Some(Next::RETRY)
        }
    };
    let key_after = |p: Position, r: u32, w: Position| -> Key {
        if strategy.progressed(p, w) {
            (w, r)
        } else {
            (w, r - 1)
        }
    };
    let mut visited: Vec<Key> = vec![(start, patience)];
    let mut seen: HashMap<Key, u32> = HashMap::new();
    seen.insert((start, patience), 0);
    let mut k = 0;
    while k < visited.len() {
        let (p, r) = visited[k];
        k += 1;
        for w in move_outcomes(strategy, p) {
            if step(p, r, w).is_none() {
                let key = key_after(p, r, w);
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(key) {
                    e.insert(0);
                    visited.push(key);
                }
            }
        }
    }
    // Continuing steps lower the patience left, or keep it and lower (J-rank, A-rank): ordering
    // by both, decreasing, is a topological order.
    let game = strategy.game();
    visited.sort_by_key(|&(p, r)| (std::cmp::Reverse((r, game.measure(p.0))), p.0));
    for (k, key) in visited.iter().enumerate() {
        seen.insert(*key, k as u32);
    }
    let next = |p: Position, r: u32, w: Position| {
        step(p, r, w).unwrap_or_else(|| Next::Node(seen[&key_after(p, r, w)]))
    };
    let q = arena.quiescence();
    let nodes = visited
        .iter()
        .map(|&(p, r)| {
            let outputs = arena.outputs(p.0);
            match strategy.move_at(p) {
                Some(Move::Input(a)) => {
                    let then = arena
                        .after(p.0, a)
                        .map_or(Next::RETRY, |w| next(p, r, Position(w)));
                    let mut race: Vec<(LabelId, Next)> = outputs
                        .filter(|&(x, _)| x != q)
                        .map(|(x, w)| (ids.id(x), next(p, r, Position(w))))
                        .collect();
                    race.sort_unstable();
                    TestNode::Send {
                        input: ids.id(a),
                        then,
                        race,
                    }
                }
                _ => {
                    let mut branches: Vec<(LabelId, Next)> = outputs
                        .map(|(x, w)| (ids.id(x), next(p, r, Position(w))))
                        .collect();
                    branches.sort_unstable();
                    TestNode::Expect { branches }
                }
            }
        })
        .collect();
    Some(TestCase {
        name: name.to_owned(),
        nodes,
    })
}

/// The positions the strategy's move at `p` may lead to: `Moves(p, a, x)` over every output x.
fn move_outcomes(strategy: &Strategy, p: Position) -> Vec<Position> {
    let arena = strategy.arena();
    let q = arena.quiescence();
    let mut out: Vec<Position> = Vec::new();
    match strategy.move_at(p) {
        Some(Move::Input(a)) => {
            out.extend(arena.after(p.0, a).map(Position));
            out.extend(
                arena
                    .outputs(p.0)
                    .filter(|&(x, _)| x != q)
                    .map(|(_, w)| Position(w)),
            );
        }
        Some(Move::Wait) => out.extend(arena.outputs(p.0).map(|(_, w)| Position(w))),
        None => {}
    }
    out
}

/// What became of one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalReport {
    /// The goal in words.
    pub goal: String,
    /// Winning, joker-reachable with its joker count, or unreachable from the initial state.
    pub reachability: Reachability,
    /// The name of its test (`None` when unreachable).
    pub test: Option<String>,
    /// A joker goal that only a won race reaches ([`super::Arena::reachable_without_races`]):
    /// a fast conforming system, whose outputs come before the tester's inputs, never lets the
    /// test reach it, so its test may end in `retry` against a correct system.
    pub race_dependent: bool,
}

/// A suite of goal-directed tests with the report per goal. Tests that follow a path of the
/// shared tree of shortest paths (`goals::shortest`) are kept as that path and built when read, so the suite
/// takes memory linear in the goals and the automaton, not in the tests' total length.
#[derive(Clone, Debug)]
pub struct GoalSuite {
    /// The header of the suite JSON but for its last entry, `goals_json`.
    header: SuiteHeader,
    goals_json: String,
    /// One report per goal, in goal order.
    pub reports: Vec<GoalReport>,
    /// The suite's figures.
    pub costs: SuiteCosts,
    /// One test per reachable goal, in goal order.
    tests: GoalTests,
}

/// The tests of a goal suite: every one built by its goal's own game, or some of them paths of
/// a tree of shortest paths the suite holds.
#[derive(Clone, Debug)]
enum GoalTests {
    PerGoal(Vec<TestCase>),
    Shared {
        paths: ShortestPaths,
        tests: Vec<SharedTest>,
    },
}

/// A test of a suite whose goals share a tree of shortest paths: built by its goal's own game,
/// or a path of that tree.
#[derive(Clone, Debug)]
enum SharedTest {
    Built(TestCase),
    Path { name: String, goal: PathGoal },
}

impl GoalTests {
    fn len(&self) -> usize {
        match self {
            GoalTests::PerGoal(tests) => tests.len(),
            GoalTests::Shared { tests, .. } => tests.len(),
        }
    }

    /// Test `k` in suite order (`k < self.len()`).
    fn build(&self, k: usize) -> TestCase {
        match self {
            GoalTests::PerGoal(tests) => tests[k].clone(),
            GoalTests::Shared { paths, tests } => match &tests[k] {
                SharedTest::Built(test) => test.clone(),
                SharedTest::Path { name, goal } => paths.test_case(goal, name),
            },
        }
    }
}

impl GoalSuite {
    /// How many tests the suite has.
    pub fn num_tests(&self) -> usize {
        self.tests.len()
    }

    /// Whether the suite's state, transition and switch goals share one tree of shortest paths
    /// (see the `goals::shortest` module).
    pub fn shares_paths(&self) -> bool {
        matches!(self.tests, GoalTests::Shared { .. })
    }

    /// The tests in suite order, built one at a time.
    pub fn tests(&self) -> impl Iterator<Item = TestCase> + '_ {
        (0..self.tests.len()).map(|k| self.tests.build(k))
    }
}

impl GoalSuite {
    /// Refuses the suite of a `--purpose-regex` that no trace of the specification matches: an
    /// empty suite is a mistake in the expression, not a suite to run.
    pub fn refuse_unreachable(&self, source: &GoalSource) -> Result<(), GoalSuiteError> {
        match source {
            GoalSource::Regex(text) if self.num_tests() == 0 => {
                Err(GoalSuiteError::Usage(format!(
                    "--purpose-regex `{}` is unreachable: no trace of the model from its initial state matches it, so there is no test; check the order and spelling of its labels against the model (`ncomplete info MODEL` lists them)",
                    crate::format::position::excerpt(text)
                )))
            }
            _ => Ok(()),
        }
    }

    /// The per-goal table: goal, reachability, test.
    pub fn report_text(&self) -> String {
        let mut out = String::new();
        for r in &self.reports {
            out.push_str(&format!(
                "{}: {}{}{}\n",
                r.goal,
                r.reachability,
                if r.race_dependent {
                    ", race-dependent"
                } else {
                    ""
                },
                r.test
                    .as_ref()
                    .map_or_else(|| ", no test".to_owned(), |t| format!(", test {t}"))
            ));
        }
        let count = |f: fn(&Reachability) -> bool| {
            self.reports.iter().filter(|r| f(&r.reachability)).count()
        };
        let races = self.reports.iter().filter(|r| r.race_dependent).count();
        out.push_str(&format!(
            "{} goals: {} winning, {} with jokers{}, {} unreachable\n",
            self.reports.len(),
            count(|r| *r == Reachability::Winning),
            count(|r| matches!(r, Reachability::Jokers(_))),
            if races > 0 {
                format!(" ({races} race-dependent: a fast conforming system may never let them be reached; `run` lists them unreached without failing)")
            } else {
                String::new()
            },
            count(|r| *r == Reachability::Unreachable),
        ));
        out
    }
}

/// Builds the goal-directed suite of `goals` on `sa`; `method` names it in the suite header
/// (`purpose`, `cover-states`, ...). When the goal games of `sa` are deterministic, state,
/// transition and switch goals share one tree of shortest paths (`goals::shortest`); every
/// other goal is solved by its own game, in parallel and kept in order, with progress on stderr
/// counted in goals. Refuses, before any test is built, more goals than `--max-tests`, and a
/// suite over any other figure of the budget.
pub fn goal_suite(
    sa: &SuspensionAutomaton,
    goals: &[Goal],
    method: &str,
    patience: u32,
    budget: &Budget,
) -> Result<GoalSuite, GoalSuiteError> {
    goal_suite_with(sa, goals, method, patience, budget, Sharing::Shared)
}

/// Whether [`goal_suite_with`] may solve goals together. Both give byte-identical suites.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// One tree of shortest paths for the goals it covers, when its precondition holds.
    Shared,
    /// Every goal by its own game (the reference the shared tree is checked against).
    PerGoal,
}

/// [`goal_suite`] with the choice of sharing work across goals (`PerGoal` is the reference the
/// shared tree is tested and benchmarked against).
pub fn goal_suite_with(
    sa: &SuspensionAutomaton,
    goals: &[Goal],
    method: &str,
    patience: u32,
    budget: &Budget,
    sharing: Sharing,
) -> Result<GoalSuite, GoalSuiteError> {
    let goal_count = goals.len() as u128;
    let early = SuiteCosts {
        tests: Figure::AtMost(goal_count),
        runs: Figure::Unknown,
        steps: Figure::Unknown,
        waits: Figure::Unknown,
        nodes: Figure::Unknown,
        longest: Figure::Unknown,
        bytes: Figure::Unknown,
    };
    let advice = "choose a smaller model, a coarser coverage criterion, or raise the limit";
    early.check(budget, &format!("{method} suite"), advice)?;
    let paths = match sharing {
        Sharing::Shared => ShortestPaths::new(sa),
        Sharing::PerGoal => None,
    };
    let model = suite_model(sa);
    // Tests are named by their goal's stem and their content.
    let named = |stem: &str, mut test: TestCase| {
        test.name = crate::suite::names::content_name(stem, &model, &test);
        test
    };
    // Goals the tree does not cover (and all of them without a tree) are solved by their own game.
    let solve_alone = |stem: String, goal: &Goal| -> Result<_, GoalError> {
        let strategy = reach_strategy(sa, goal)?;
        let test = strategy_test_case(&strategy, sa, "", patience).map(|t| named(&stem, t));
        let reachability = strategy.reachability();
        let race_dependent = matches!(reachability, Reachability::Jokers(_))
            && !strategy.arena().reachable_without_races();
        Ok((reachability, race_dependent, test))
    };
    let (reports, tests) = match paths {
        Some(paths) => {
            let (reports, tests) = solve_goals(sa, goals, |stem, goal| {
                match paths.path_goal(sa, goal) {
                    // Every path goal is winning: its tree path is the winning play.
                    Some(path) => {
                        let name = named(&stem, paths.test_case(&path, "")).name;
                        Ok((
                            Reachability::Winning,
                            false,
                            Some(SharedTest::Path { name, goal: path }),
                        ))
                    }
                    None => solve_alone(stem, goal)
                        .map(|(r, race, t)| (r, race, t.map(SharedTest::Built))),
                }
            })?;
            (reports, GoalTests::Shared { paths, tests })
        }
        None => {
            let (reports, tests) = solve_goals(sa, goals, solve_alone)?;
            (reports, GoalTests::PerGoal(tests))
        }
    };
    let (header, goals_json) = header(&model, method, patience, &reports);
    let mut suite = GoalSuite {
        header,
        goals_json,
        reports,
        // The early check's figures until the exact ones, measured over the suite, replace them.
        costs: early,
        tests,
    };
    suite.costs =
        crate::suite::ioco::measure_with_raw(suite.tests(), &suite.header, &suite.raw_header())
            .costs;
    suite
        .costs
        .check(budget, &format!("{method} suite"), advice)?;
    Ok(suite)
}

/// Solves every goal by `solve` (given the goal's [`Goal::stem`]; it answers the reachability,
/// whether the goal is race-dependent, and the test) in parallel, with progress on stderr
/// counted in goals: the reports in goal order and the tests of the reachable goals, their
/// names made unique in goal order (`crate::suite::names::UniqueNames`).
fn solve_goals<T: TestName + Send>(
    sa: &SuspensionAutomaton,
    goals: &[Goal],
    solve: impl Fn(String, &Goal) -> Result<(Reachability, bool, Option<T>), GoalError> + Sync,
) -> Result<(Vec<GoalReport>, Vec<T>), GoalSuiteError> {
    let progress =
        crate::progress::Progress::start("solving goals", "goals", Some(goals.len() as u64));
    let solved: Vec<Result<(GoalReport, Option<T>), GoalError>> = goals
        .par_iter()
        .map(|goal| {
            let (reachability, race_dependent, test) = solve(goal.stem(sa), goal)?;
            progress.inc(1);
            let report = GoalReport {
                goal: goal.describe(sa),
                reachability,
                test: None,
                race_dependent,
            };
            Ok((report, test))
        })
        .collect();
    progress.finish();
    let mut reports = Vec::with_capacity(goals.len());
    let mut tests = Vec::new();
    let mut names = crate::suite::names::UniqueNames::default();
    for r in solved {
        let (mut report, test) = r.map_err(|e| GoalSuiteError::Usage(e.to_string()))?;
        if let Some(mut test) = test {
            let name = names.claim_tree_name(std::mem::take(test.name_mut()));
            report.test = Some(name.clone());
            *test.name_mut() = name;
            tests.push(test);
        }
        reports.push(report);
    }
    Ok((reports, tests))
}

/// The name of a goal suite's test, however it is kept.
trait TestName {
    fn name_mut(&mut self) -> &mut String;
}

impl TestName for TestCase {
    fn name_mut(&mut self) -> &mut String {
        &mut self.name
    }
}

impl TestName for SharedTest {
    fn name_mut(&mut self) -> &mut String {
        match self {
            SharedTest::Built(t) => &mut t.name,
            SharedTest::Path { name, .. } => name,
        }
    }
}

/// The goals of a coverage criterion, refused before they are listed when there are more than
/// `--max-tests`.
pub fn coverage_goals(
    sa: &SuspensionAutomaton,
    coverage: Coverage,
    budget: &Budget,
) -> Result<Vec<Goal>, GoalSuiteError> {
    let count = coverage.count(sa);
    if count > budget.max_tests {
        return Err(GoalSuiteError::Refused(Box::new(CostRefusal {
            suite: format!("cover-{} suite", coverage.as_str()),
            figure: "tests",
            value: Figure::AtMost(count),
            limit: budget.max_tests,
            flag: "--max-tests",
            advice: "choose a coarser coverage criterion or raise the limit".into(),
            more: Vec::new(),
        })));
    }
    Ok(coverage.goals(sa))
}

/// The suite header, and its last entry, `goals`, as serialized JSON: one small object per goal,
/// each built and serialized on its own (held as a `Value`, the list of a few hundred thousand
/// goals took about 500 bytes a goal).
fn header(
    model: &SuiteModel,
    method: &str,
    patience: u32,
    reports: &[GoalReport],
) -> (SuiteHeader, String) {
    let mut goals = String::from("[");
    for (k, r) in reports.iter().enumerate() {
        let (status, jokers) = match r.reachability {
            Reachability::Winning => ("winning", 0),
            Reachability::Jokers(k) => ("jokers", k),
            Reachability::Unreachable => ("unreachable", 0),
        };
        let mut v = serde_json::json!({"goal": r.goal, "reach": status, "test": r.test});
        if status == "jokers" {
            v["jokers"] = serde_json::Value::from(jokers);
            v["race_dependent"] = serde_json::Value::from(r.race_dependent);
        }
        if k > 0 {
            goals.push(',');
        }
        goals.push_str(&v.to_string());
    }
    goals.push(']');
    let mut extra = serde_json::Map::new();
    extra.insert("patience".into(), serde_json::Value::from(patience));
    let header = SuiteHeader {
        model: model.clone(),
        method: method.to_owned(),
        n: None,
        guarantee: "each test steers to its goal by a joker strategy (van den Bos Ch. 6): pass when the goal is reached, fail on an output the specification forbids, retry when the system takes more steps that do not help than the patience allows, or one after which the goal is unreachable; a winning goal's test passes against every conforming system".into(),
        extra,
    };
    (header, goals)
}

/// Where the goals of `generate --purpose`, `--purpose-regex` or `--cover` come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalSource {
    /// A test purpose file (`.aut`, DOT, YAML or JSON).
    Purpose(String),
    /// A regular expression over the model's labels.
    Regex(String),
    /// A coverage criterion.
    Cover(Coverage),
    /// Switch-pair coverage of a symbolic transition system (`--cover switch-pairs`): test
    /// purposes of an STS, never goals of an automaton.
    StsSwitchPairs,
}

/// The goals a source names on `sa`, with the suite's method name; a test purpose file is read
/// by `load_model` (such as [`crate::format::load_model`]), whose errors pass through.
pub fn load_goals<E: From<GoalSuiteError>>(
    sa: &SuspensionAutomaton,
    source: &GoalSource,
    budget: &Budget,
    load_model: impl FnOnce(&str, &LoadOptions) -> Result<Model, E>,
) -> Result<(Vec<Goal>, String), E> {
    match source {
        GoalSource::Cover(c) => Ok((
            coverage_goals(sa, *c, budget)?,
            format!("cover-{}", c.as_str()),
        )),
        GoalSource::StsSwitchPairs => Err(GoalSuiteError::Usage(
            "--cover switch-pairs selects test purposes of a symbolic transition system (`.sts.yaml`); for an automaton, --cover switches already covers every pair of consecutive transitions".into(),
        )
        .into()),
        GoalSource::Regex(text) => {
            let regex = crate::check::Regex::parse(text, "--purpose-regex")
                .map_err(|e| GoalSuiteError::Usage(e.to_string()))?;
            let goal = super::goal::RegexGoal::new(&regex, text, sa)
                .map_err(|e| GoalSuiteError::Usage(e.to_string()))?;
            Ok((vec![Goal::Regex(Box::new(goal))], "purpose".into()))
        }
        GoalSource::Purpose(path) => {
            // Purpose labels are matched by name: the model's own labels are declared, so
            // unmarked spellings work as in the model file, and the markers are outputs.
            let mut outputs: Vec<String> = sa
                .alphabet
                .outputs()
                .map(|l| sa.alphabet.name(l).to_owned())
                .collect();
            outputs.extend(
                [
                    super::goal::ACCEPT,
                    super::goal::REFUSE,
                    super::goal::OTHERWISE,
                ]
                .map(String::from),
            );
            let opts = LoadOptions {
                format: None,
                inputs: sa
                    .alphabet
                    .inputs()
                    .map(|l| sa.alphabet.name(l).to_owned())
                    .collect(),
                outputs,
                initial: None,
            };
            let lts = match load_model(path, &opts)? {
                Model::Lts(lts) => lts,
                Model::Mealy(_) => {
                    return Err(GoalSuiteError::Usage(format!(
                        "{path}: a test purpose is an automaton over single labels (`?a`, `!x`, `ACCEPT`, ...), not a Mealy machine (`in / out`)"
                    ))
                    .into());
                }
            };
            let purpose = super::goal::TestPurpose::new(&lts, sa, path)
                .map_err(|e| GoalSuiteError::Usage(e.to_string()))?;
            Ok((vec![Goal::Purpose(Box::new(purpose))], "purpose".into()))
        }
    }
}

impl GoalSuite {
    /// Writes the suite JSON to `out`, one test at a time, with progress on stderr.
    pub fn write_to<W: std::io::Write>(&self, out: W) -> std::io::Result<W> {
        let progress = crate::progress::Progress::start(
            "writing tests",
            "tests",
            Some(self.tests.len() as u64),
        );
        let written = (|| {
            let raw = self.raw_header();
            let mut writer =
                crate::suite::json::SuiteWriter::begin_with_raw(out, &self.header, &raw)?;
            // Tests are built and serialized in parallel a chunk at a time, written in order.
            let count = self.tests.len();
            for start in (0..count).step_by(crate::suite::json::LINE_CHUNK) {
                let chunk = start..count.min(start + crate::suite::json::LINE_CHUNK);
                let written = chunk.len() as u64;
                let lines: Vec<std::io::Result<String>> = chunk
                    .into_par_iter()
                    .map(|k| {
                        crate::suite::json::test_line(&self.header.model, &self.tests.build(k))
                    })
                    .collect();
                for line in lines {
                    writer.write_test_line(&line?)?;
                }
                progress.inc(written);
            }
            writer.finish()
        })();
        progress.finish();
        written
    }

    /// The header entries kept serialized.
    fn raw_header(&self) -> [(&str, &str); 1] {
        [("goals", self.goals_json.as_str())]
    }
}
