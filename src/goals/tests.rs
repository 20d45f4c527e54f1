//! Tests of the goals module: the worked examples of van den Bos Ch. 6 on the game arena
//! `G_{a∨b}` of Figs. 6.1/6.3 (reconstructed from Examples 6.10-6.39, see below), brute-force
//! cross-checks of attractor and joker ranks on random small games, and the soundness of the
//! goal-directed test cases under exact simulation against the specification and its mutants.
//!
//! The suspension automaton of Fig. 6.3 (the seed has no drawing) is fixed by the text:
//! `out(1) = {δ}` and `1 --b--> 3` (Ex. 6.10), `3` enables `a` and only `x` and `Moves(3, a, x) =
//! {☺, ☹}` (Ex. 6.10) with `T(3, x) = ☹` (Ex. 6.39: the system forces ☹ from 3 in one move);
//! `2` has outputs `x` and `y` with `y` to 3 and the helping move (x, ☺) for `a` (Ex. 6.17);
//! `1 --a--> 2` (σ1a of Ex. 6.19 and its play 1⟨a, δ⟩2 in Ex. 6.39); ☺ ∈ Pre({☺}) (Ex. 6.12)
//! makes ☺ a δ self-loop, and 1 in the system's attractor of ☹ at rank 3 (Ex. 6.39) needs every
//! move of 1, θ included, to reach {2, 3}: `1 --δ--> 2`. ☹ only loops on δ.

use super::arena::Arena;
use super::cases::{Sharing, goal_suite_with, strategy_test_case};
use super::goal::{Coverage, Goal};
use super::shortest::ShortestPaths;
use super::solve::{JokerGame, Move, Reachability, adversary_attractor};
use super::{Position, reach_strategy};
use crate::exec::simulate::{InputEnabling, SimulatedSystem, TestVerdict, run_test};
use crate::identify::random::{random_io_suspension, random_suspension};
use crate::model::{StateId, SuspensionAutomaton, suspension_from_marked};
use crate::suite::case::suite_model;
use crate::suite::{Next, Verdict};

/// Fig. 6.3 (`models/vdbos_fig6_3.aut`): states 0..4 are the thesis' 1, 2, 3, ☺, ☹.
fn fig_6_3() -> SuspensionAutomaton {
    super::tcp::bundled_suspension(
        include_str!("../../models/vdbos_fig6_3.aut"),
        "vdbos_fig6_3.aut",
    )
}

const SMILE: StateId = StateId(3);
const FROWN: StateId = StateId(4);

/// The arena node of automaton state `q` (state goals keep one monitor state).
fn node(arena: &Arena, q: StateId) -> u32 {
    (1..arena.len() as u32)
        .find(|&v| arena.sa_state(v) == q)
        .unwrap()
}

#[test]
fn example_6_12_joker_sets_and_6_17_joker_states() {
    let sa = fig_6_3();
    let s = reach_strategy(&sa, &Goal::State(SMILE)).unwrap();
    let (arena, game) = (s.arena(), s.game());
    let n = |k: u32| node(arena, StateId(k));
    // Joker⁰ = {☺}; Joker¹ = {1, 2, 3, ☺} = Joker²; ☹ is in no joker set.
    assert_eq!(game.jrank(n(3)), Some(0));
    for k in [0, 1, 2] {
        assert_eq!(game.jrank(n(k)), Some(1), "state {}", k + 1);
    }
    assert_eq!(game.jrank(n(4)), None);
    assert_eq!(game.reachability(n(4)), Reachability::Unreachable);
    // Pre(Joker⁰) = {2, 3, ☺}: the joker states are 2 and 3 (Ex. 6.17); 1 is attracted.
    assert!(game.is_joker_state(n(1)) && game.is_joker_state(n(2)));
    assert!(!game.is_joker_state(n(0)) && !game.is_joker_state(n(3)));
    assert_eq!(game.measure(n(0)), Some((1, 1)));
    // HMove(2, a) and HMove(3, a) hold (x, ☺); (x, ☹) does not help in 3, nor (y, 3) in 2 (equal
    // J-ranks): in 3 only `a` has a helping move, in 2 also θ (x leads to ☺).
    let a = sa.alphabet.get("a").unwrap();
    let b = sa.alphabet.get("b").unwrap();
    assert_eq!(game.strategy_moves(arena, n(2)), vec![Move::Input(a)]);
    assert_eq!(
        game.strategy_moves(arena, n(1)),
        vec![Move::Input(a), Move::Wait]
    );
    assert_eq!(game.jrank(n(1)), game.jrank(n(2)));
    // Ex. 6.19: σ1a plays a in 1, σ1b plays b; both play a in 2 and 3.
    let at_1 = game.strategy_moves(arena, n(0));
    assert!(at_1.contains(&Move::Input(a)) && at_1.contains(&Move::Input(b)));
    assert_eq!(game.chosen(n(0)), Some(Move::Input(a)));
    assert_eq!(game.chosen(n(1)), Some(Move::Input(a)));
    assert_eq!(game.chosen(n(2)), Some(Move::Input(a)));
    assert_eq!(s.reachability(), Reachability::Jokers(1));
    // Ex. 6.10: no winning strategy from 1 (the attractor of {☺} is {☺}).
    assert!((1..arena.len() as u32).all(|v| v == n(3) || game.jrank(v) != Some(0)));
}

/// Plays from thesis state 1 with Player 1 playing `first` in 1 and `a` elsewhere, and the
/// system choosing its (output, next state) per state from `choice`; whether ☺ is reached.
fn play(sa: &SuspensionAutomaton, first: &str, choice: &[(u32, &str, u32)]) -> bool {
    let mut q = StateId(0);
    for _ in 0..10 {
        if q == SMILE {
            return true;
        }
        let action = if q == StateId(0) { first } else { "a" };
        let a = sa.alphabet.get(action).unwrap();
        let next = match choice.iter().find(|c| c.0 == q.0) {
            Some(&(_, x, t)) => {
                // The system's choice must be a move: T(q, a) or T(q, x) for x ≠ δ.
                let x = sa.alphabet.get(x).unwrap();
                let t = StateId(t);
                assert!(sa.after(q, a) == Some(t) || sa.after(q, x) == Some(t));
                t
            }
            None => match sa.after(q, a) {
                Some(t) => t,
                None => return false,
            },
        };
        q = next;
    }
    q == SMILE
}

#[test]
fn example_6_37_dominance_table() {
    let sa = fig_6_3();
    // State 2: (x, ☺) or (y, 3); state 3: (x, ☺) or (x, ☹).
    let rows = [
        ([(1, "x", 3), (2, "x", 3)], true, true),
        ([(1, "x", 3), (2, "x", 4)], true, false),
        ([(1, "y", 2), (2, "x", 3)], true, true),
        ([(1, "y", 2), (2, "x", 4)], false, false),
    ];
    for (choice, a_wins, b_wins) in rows {
        assert_eq!(play(&sa, "a", &choice), a_wins, "{choice:?}");
        assert_eq!(play(&sa, "b", &choice), b_wins, "{choice:?}");
    }
}

#[test]
fn example_6_39_system_attractor_of_the_losing_state() {
    let sa = fig_6_3();
    let s = reach_strategy(&sa, &Goal::State(SMILE)).unwrap();
    let arena = s.arena();
    // The arena of goal ☺ does not expand ☺; ☹ is an ordinary node.
    let target: Vec<bool> = (0..arena.len() as u32)
        .map(|v| v != Arena::LOST && arena.sa_state(v) == FROWN)
        .collect();
    let rank = adversary_attractor(arena, &target);
    let r = |k: u32| rank[node(arena, StateId(k)) as usize];
    assert_eq!(
        [r(4), r(2), r(1), r(0), r(3)],
        [Some(0), Some(1), Some(2), Some(3), None]
    );
}

#[test]
fn theorem_6_35_joker_test_case_of_fig_6_3() {
    let sa = fig_6_3();
    let s = reach_strategy(&sa, &Goal::State(SMILE)).unwrap();
    let t = strategy_test_case(&s, &sa, "t", 0).unwrap();
    let model = suite_model(&sa);
    t.validate(model.inputs.len(), model.num_output_ids())
        .unwrap();
    // send a (no output races δ in 1); in 2: send a, x passes, y does not help (retry).
    assert_eq!(t.nodes.len(), 2);
    let verdict = run_test(
        &SimulatedSystem::from_suspension(&sa, &model, InputEnabling::SelfLoop).unwrap(),
        &t,
    );
    assert_eq!(verdict.verdict, TestVerdict::Pass);
    assert_eq!(verdict.reachable, vec![Verdict::Pass, Verdict::Retry]);
}

/// Every outcome of `action` at `v` (the successors `Moves(v, action, x)` over all x).
fn outcomes(arena: &Arena, v: u32, action: Move) -> Vec<u32> {
    let q = arena.quiescence();
    match action {
        Move::Wait => arena.outputs(v).map(|(_, w)| w).collect(),
        Move::Input(a) => {
            let mut out: Vec<u32> = arena
                .outputs(v)
                .filter(|&(x, _)| x != q)
                .map(|(_, w)| w)
                .collect();
            out.push(arena.after(v, a).unwrap());
            out
        }
    }
}

fn actions(arena: &Arena, v: u32) -> Vec<Move> {
    let mut m: Vec<Move> = arena.inputs(v).map(|(a, _)| Move::Input(a)).collect();
    m.push(Move::Wait);
    m
}

/// Brute force over positional strategies: per node, the least number of steps within which
/// some strategy reaches the goal against every opponent (`None`: no such strategy).
fn brute_attractor_ranks(arena: &Arena) -> Vec<Option<u32>> {
    let n = arena.len();
    let playing: Vec<u32> = (0..n as u32).filter(|&v| arena.is_playing(v)).collect();
    let choices: Vec<Vec<Move>> = playing.iter().map(|&v| actions(arena, v)).collect();
    let mut best: Vec<Option<u32>> = (0..n as u32)
        .map(|v| (v != Arena::LOST && arena.is_goal(v)).then_some(0))
        .collect();
    let mut pick = vec![0usize; playing.len()];
    loop {
        let mut sigma = vec![None; n];
        for (k, &v) in playing.iter().enumerate() {
            sigma[v as usize] = Some(choices[k][pick[k]]);
        }
        // Longest play to the goal under σ, exploring every outcome up to n steps.
        fn worst(arena: &Arena, sigma: &[Option<Move>], v: u32, left: u32) -> Option<u32> {
            if v != Arena::LOST && arena.is_goal(v) {
                return Some(0);
            }
            let m = sigma[v as usize]?;
            if left == 0 {
                return None;
            }
            let mut w = 0;
            for t in outcomes(arena, v, m) {
                w = w.max(worst(arena, sigma, t, left - 1)? + 1);
            }
            Some(w)
        }
        for &v in &playing {
            if let Some(w) = worst(arena, &sigma, v, n as u32) {
                let b = &mut best[v as usize];
                *b = Some(b.map_or(w, |x| x.min(w)));
            }
        }
        // Next strategy (odometer).
        let mut k = 0;
        loop {
            if k == pick.len() {
                return best;
            }
            pick[k] += 1;
            if pick[k] < choices[k].len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
    }
}

/// The least number of jokers by value iteration of the joker cost game: a move costs 0 against
/// the worst outcome, or 1 (a joker) for the best outcome.
fn brute_jokers(arena: &Arena) -> Vec<Option<u32>> {
    let n = arena.len();
    let mut value: Vec<Option<u32>> = (0..n as u32)
        .map(|v| (v != Arena::LOST && arena.is_goal(v)).then_some(0))
        .collect();
    loop {
        let mut changed = false;
        for v in 0..n as u32 {
            if !arena.is_playing(v) {
                continue;
            }
            let mut best = value[v as usize];
            for m in actions(arena, v) {
                let outs = outcomes(arena, v, m);
                let worst = outs
                    .iter()
                    .try_fold(0, |acc, &w| value[w as usize].map(|x| acc.max(x)));
                let helped = outs
                    .iter()
                    .filter_map(|&w| value[w as usize])
                    .min()
                    .map(|x| x + 1);
                for c in [worst, helped].into_iter().flatten() {
                    if best.is_none_or(|b| c < b) {
                        best = Some(c);
                    }
                }
            }
            if best != value[v as usize] {
                value[v as usize] = best;
                changed = true;
            }
        }
        if !changed {
            return value;
        }
    }
}

/// Plays the joker strategy from `v` against every opponent that helps in joker states (and
/// only there uses the helping outcome); returns the most jokers used on a play to the goal, or
/// `None` if some such play misses the goal.
fn helped_plays(arena: &Arena, game: &JokerGame, v: u32) -> Option<u32> {
    if v != Arena::LOST && arena.is_goal(v) {
        return Some(0);
    }
    let m = game.chosen(v)?;
    let j = game.jrank(v)?;
    let outs = outcomes(arena, v, m);
    if game.is_joker_state(v) {
        let helping = outs
            .into_iter()
            .find(|&w| game.jrank(w).is_some_and(|k| k < j))?;
        return helped_plays(arena, game, helping).map(|k| k + 1);
    }
    let mut most = 0;
    for w in outs {
        // Def. 6.18: every outcome keeps the J-rank and lowers the A-rank.
        assert!(game.measure(w) < game.measure(v) || arena.is_goal(w));
        most = most.max(helped_plays(arena, game, w)?);
    }
    Some(most)
}

#[test]
fn attractor_and_jokers_match_brute_force_on_random_games() {
    let mut compared = 0;
    let mut with_jokers = 0;
    for seed in 0..60u64 {
        let sa = if seed % 2 == 0 {
            random_suspension(seed, 4, 2, 2)
        } else {
            random_io_suspension(seed, 5, 1, 2)
        };
        let goals = Coverage::States
            .goals(&sa)
            .into_iter()
            .chain(Coverage::Transitions.goals(&sa).into_iter().take(3));
        for goal in goals {
            let s = reach_strategy(&sa, &goal).unwrap();
            let (arena, game) = (s.arena(), s.game());
            if arena.len() > 9 {
                continue;
            }
            let attr = brute_attractor_ranks(arena);
            let jokers = brute_jokers(arena);
            for v in 1..arena.len() as u32 {
                let (j, a) = (game.jrank(v), game.arank(v));
                // Theorem 6.9: the winning region is the attractor; ranks are the least
                // number of moves that force the goal.
                assert_eq!(
                    attr[v as usize],
                    (j == Some(0)).then(|| a.unwrap()),
                    "{seed} {v}"
                );
                // Joker ranks are the least number of jokers (Dallal et al.'s joker game).
                assert_eq!(jokers[v as usize], j, "seed {seed} node {v}");
                // Theorem 6.13: Joker(R) = Reach(G, R).
                let reach = {
                    let mut seen = vec![false; arena.len()];
                    let mut stack = vec![v];
                    let mut found = false;
                    while let Some(w) = stack.pop() {
                        if std::mem::replace(&mut seen[w as usize], true) {
                            continue;
                        }
                        found |= w != Arena::LOST && arena.is_goal(w);
                        stack.extend(arena.successors(w).iter().map(|&(_, t)| t));
                    }
                    found
                };
                assert_eq!(reach, j.is_some(), "seed {seed} node {v}");
                // Theorem 6.21: helped, the joker strategy reaches the goal with J-rank jokers.
                if let Some(j) = j {
                    assert_eq!(
                        helped_plays(arena, game, v),
                        Some(j),
                        "seed {seed} node {v}"
                    );
                    with_jokers += usize::from(j > 0);
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "{compared} nodes compared");
    assert!(with_jokers > 50, "{with_jokers} nodes need jokers");
}

/// Whether the test never fails against the system, and whether it can pass.
fn verdict(
    sa: &SuspensionAutomaton,
    imp: &SuspensionAutomaton,
    t: &crate::suite::TestCase,
) -> TestVerdict {
    let model = suite_model(sa);
    let sys = SimulatedSystem::from_suspension(imp, &model, InputEnabling::SelfLoop).unwrap();
    run_test(&sys, t).verdict
}

#[test]
fn goal_tests_pass_on_the_specification_and_winning_ones_never_retry() {
    for seed in 0..30u64 {
        let sa = random_io_suspension(seed, 6, 2, 2);
        for coverage in [Coverage::States, Coverage::Transitions, Coverage::Switches] {
            for (k, goal) in coverage.goals(&sa).into_iter().enumerate().take(40) {
                let s = reach_strategy(&sa, &goal).unwrap();
                let patience = (seed % 3) as u32;
                let Some(t) = strategy_test_case(&s, &sa, &format!("g{k}"), patience) else {
                    assert_eq!(s.reachability(), Reachability::Unreachable);
                    continue;
                };
                let model = suite_model(&sa);
                t.validate(model.inputs.len(), model.num_output_ids())
                    .unwrap();
                let retries = t
                    .nodes
                    .iter()
                    .flat_map(|n| n.successors())
                    .any(|n| n == Next::RETRY);
                if patience == 0 {
                    assert_eq!(retries, s.reachability() != Reachability::Winning);
                } else {
                    assert!(!retries || s.reachability() != Reachability::Winning);
                }
                assert_eq!(
                    verdict(&sa, &sa, &t),
                    TestVerdict::Pass,
                    "seed {seed} {goal:?}"
                );
            }
        }
    }
}

#[test]
fn goal_tests_fail_only_non_conforming_mutants() {
    use crate::audit::mutate::{MutantModel, MutateOptions, SizeBound, mutants};
    let mut failed = 0;
    let mut non_conforming = 0;
    for seed in 0..12u64 {
        let sa = random_io_suspension(seed, 5, 2, 2);
        let tests: Vec<_> = Coverage::Transitions
            .goals(&sa)
            .iter()
            .enumerate()
            .filter_map(|(k, g)| {
                strategy_test_case(
                    &reach_strategy(&sa, g).unwrap(),
                    &sa,
                    &format!("g{k}"),
                    (seed % 2) as u32,
                )
            })
            .collect();
        let opts = MutateOptions {
            count: 8,
            bound: SizeBound::Extra(0),
            seed,
        };
        for m in mutants(&MutantModel::Suspension(sa.clone()), &opts).unwrap() {
            let MutantModel::Suspension(imp) = &m.model else {
                unreachable!()
            };
            let fails = tests
                .iter()
                .any(|t| verdict(&sa, imp, t) == TestVerdict::Fail);
            if m.conforms {
                assert!(!fails, "seed {seed}: conforming mutant {} failed", m.name);
            } else {
                non_conforming += 1;
                failed += usize::from(fails);
            }
        }
    }
    assert!(non_conforming > 20, "{non_conforming}");
    // Transition coverage reaches most faults of one transition (not a completeness claim).
    assert!(failed * 2 > non_conforming, "{failed} of {non_conforming}");
}

#[test]
fn strategy_positions_follow_traces() {
    let sa = fig_6_3();
    let a = sa.alphabet.get("a").unwrap();
    let x = sa.alphabet.get("x").unwrap();
    let s = reach_strategy(&sa, &Goal::Transition(StateId(1), x)).unwrap();
    let p = s.after(s.start(), a).unwrap();
    assert_eq!(s.spec_state(p), Some(StateId(1)));
    assert_eq!(s.move_at(p), Some(Move::Wait));
    let done = s.after(p, x).unwrap();
    assert!(s.reached(done));
    assert!(s.progressed(p, done));
    assert_eq!(s.after(done, a), Some(done));
    assert_eq!(s.after(s.start(), x), None::<Position>);
}

/// A budget no test suite of these tests reaches.
fn unlimited() -> crate::suite::costs::Budget {
    crate::suite::costs::Budget {
        max_tests: u128::MAX,
        max_runs: u128::MAX,
        max_steps: u128::MAX,
        max_nodes: u128::MAX,
        max_bytes: u128::MAX,
        ..Default::default()
    }
}

/// The suite JSON, report and figures of a goal suite built with `sharing`.
fn goal_suite_text(
    sa: &SuspensionAutomaton,
    goals: &[Goal],
    patience: u32,
    sharing: Sharing,
) -> (String, String, String) {
    let suite = goal_suite_with(sa, goals, "cover-test", patience, &unlimited(), sharing).unwrap();
    assert_eq!(suite.tests().count(), suite.num_tests());
    let json = suite.write_to(Vec::new()).unwrap();
    assert_eq!(
        suite.costs.bytes,
        crate::suite::costs::Figure::Exact(json.len() as u128),
        "counted and written sizes"
    );
    (
        String::from_utf8(json).unwrap(),
        suite.report_text(),
        suite.costs.summary(&Default::default()),
    )
}

/// Whether every move of every goal game on `sa` has one outcome, checked directly: each
/// reachable state enables one output, only δ when it enables an input.
fn deterministic_moves(sa: &SuspensionAutomaton) -> bool {
    use crate::model::RestrictToReachable;
    let reach = sa.reachable();
    sa.states().filter(|q| reach[q.index()]).all(|q| {
        let outputs: Vec<_> = sa.outputs_enabled(q).collect();
        outputs.len() == 1 && (outputs[0] == sa.quiescence() || sa.inputs_enabled(q).count() == 0)
    })
}

/// Checks that shared paths and per-goal games give the same suites for every coverage
/// criterion (at most `limit` goals each); whether the shared tree applied.
fn assert_sharing_agrees(sa: &SuspensionAutomaton, what: &str, limit: usize) -> bool {
    let shared = ShortestPaths::new(sa).is_some();
    assert_eq!(shared, deterministic_moves(sa), "{what}");
    for coverage in [Coverage::States, Coverage::Transitions, Coverage::Switches] {
        let goals: Vec<Goal> = coverage.goals(sa).into_iter().take(limit).collect();
        for patience in [0, 2] {
            let reference = goal_suite_text(sa, &goals, patience, Sharing::PerGoal);
            let fast = goal_suite_text(sa, &goals, patience, Sharing::Shared);
            assert!(
                reference == fast,
                "{what}, {} coverage, patience {patience}: suites differ",
                coverage.as_str()
            );
        }
    }
    shared
}

#[test]
fn shared_paths_give_the_per_goal_suites_on_bundled_models() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "aut" || x == "dot"))
        .collect();
    files.sort();
    let mut shared = 0;
    for path in &files {
        let text = path.to_string_lossy();
        let model = crate::format::load_model(&text, &Default::default()).unwrap();
        let sa = match crate::suite::ioco::suspension_for(&model, &text) {
            Ok(sa) => sa,
            // A Mealy machine naming a label both as input and output (the SSH and TLS models
            // of automata learning) has no suspension automaton: it is tested as a Mealy machine.
            Err(crate::suite::ioco::IocoSuiteError::Model {
                source: crate::model::ModelError::InputOutputClash { .. },
                ..
            }) if matches!(model, crate::model::Model::Mealy(_)) => continue,
            Err(e) => panic!("{text}: {e}"),
        };
        shared += usize::from(assert_sharing_agrees(&sa, &text, 400));
    }
    // The Mealy machines (coffee machine, TCP client, tea machine, Lee–Yannakakis) share.
    assert!(
        files.len() >= 15 && shared >= 4,
        "{shared} of {}",
        files.len()
    );
}

#[test]
fn counted_bytes_are_the_size_of_the_written_file() {
    let dir = crate::scratch::Scratch::new("goal-bytes");
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    // A Mealy machine (path tests of the shared tree), and a model whose goals are each solved
    // by their own game.
    let mut kinds = Vec::new();
    for name in ["coffeemachine.dot", "vdbos_fig6_3.aut"] {
        let text = models.join(name).to_string_lossy().into_owned();
        let model = crate::format::load_model(&text, &Default::default()).unwrap();
        let sa = crate::suite::ioco::suspension_for(&model, &text).unwrap();
        for coverage in [Coverage::Transitions, Coverage::Switches] {
            let goals = coverage.goals(&sa);
            let suite =
                goal_suite_with(&sa, &goals, "cover", 1, &unlimited(), Sharing::Shared).unwrap();
            kinds.push(suite.shares_paths());
            let file = dir.join(format!("{name}-{}.json", coverage.as_str()));
            suite
                .write_to(std::fs::File::create(&file).unwrap())
                .unwrap();
            let written = std::fs::metadata(&file).unwrap().len();
            assert_eq!(
                suite.costs.bytes,
                crate::suite::costs::Figure::Exact(u128::from(written)),
                "{name}, {} coverage",
                coverage.as_str()
            );
        }
    }
    assert_eq!(kinds, [true, true, false, false]);
}

/// A random suspension automaton in which states either wait for inputs (some enabled, δ to
/// any state) or give one output; with `breaks`, some input states also give an output, so the
/// shared tree must not apply.
fn random_io_game(seed: u64, n: u32, breaks: bool) -> SuspensionAutomaton {
    let mut rng = crate::rng::SplitMix64::new(seed);
    let inputs = ["?a", "?b", "?c"];
    let outputs = ["!x", "!y", "delta"];
    let mut edges: Vec<(u32, &str, u32)> = Vec::new();
    for q in 0..n {
        let target = |rng: &mut crate::rng::SplitMix64| rng.below(n as usize) as u32;
        if rng.chance(1, 2) {
            for a in inputs {
                if rng.chance(3, 4) {
                    let t = target(&mut rng);
                    edges.push((q, a, t));
                }
            }
            let t = if rng.chance(1, 2) {
                q
            } else {
                target(&mut rng)
            };
            edges.push((q, "delta", t));
            if breaks && rng.chance(1, 4) {
                let t = target(&mut rng);
                edges.push((q, "!x", t));
            }
        } else {
            let x = *rng.pick(&outputs);
            let t = target(&mut rng);
            edges.push((q, x, t));
        }
    }
    // Every label appears, so alphabets do not depend on the draw.
    let spare = n;
    edges.extend(inputs.iter().chain(&outputs).map(|&l| (spare, l, spare)));
    suspension_from_marked("random", n as usize + 1, &edges).unwrap()
}

#[test]
fn shared_paths_give_the_per_goal_suites_on_random_automata() {
    let mut shared = 0;
    for seed in 0..60u64 {
        let breaks = seed % 3 == 2;
        let sa = random_io_game(seed, 4 + (seed % 9) as u32, breaks);
        shared += usize::from(assert_sharing_agrees(&sa, &format!("game {seed}"), 200));
        // Nondeterministic automata: the shared tree only applies where its precondition holds.
        let nd = random_io_suspension(seed, 5, 2, 2);
        assert_sharing_agrees(&nd, &format!("io suspension {seed}"), 200);
        let mealy = crate::identify::mealy::tests_support::random_mealy(seed, 5, 3, 2);
        let sa = crate::model::mealy_to_suspension(&mealy).unwrap();
        assert!(assert_sharing_agrees(&sa, &format!("mealy {seed}"), 200));
    }
    assert!(shared >= 30, "{shared}");
}

/// Whether a goal can be reached by a play against a system that outputs whenever it may not
/// be quiescent, found by brute force over bounded plays: inputs only where δ is allowed.
fn reached_by_a_race_free_play(arena: &Arena, v: u32, depth: u32) -> bool {
    if v != Arena::LOST && arena.is_goal(v) {
        return true;
    }
    if depth == 0 || !arena.is_playing(v) {
        return false;
    }
    let quiescent = arena.outputs(v).any(|(l, _)| l == arena.quiescence());
    arena
        .successors(v)
        .iter()
        .filter(|&&(l, _)| quiescent || !arena.is_input(l))
        .any(|&(_, w)| reached_by_a_race_free_play(arena, w, depth - 1))
}

#[test]
fn race_dependent_goals_are_the_joker_goals_only_a_won_race_reaches() {
    // vending: `?coin` in {6}, where `!change` is due, is reached only when the input wins.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/vending.aut");
    let model = crate::format::load_model(path, &Default::default()).unwrap();
    let sa = crate::suite::ioco::suspension_for(&model, path).unwrap();
    let goals = Coverage::Transitions.goals(&sa);
    let suite = goal_suite_with(&sa, &goals, "t", 2, &unlimited(), Sharing::PerGoal).unwrap();
    let races: Vec<&str> = suite
        .reports
        .iter()
        .filter(|r| r.race_dependent)
        .map(|r| r.goal.as_str())
        .collect();
    assert_eq!(races, ["transition {6} --coin--> {6}"]);
    assert!(
        suite
            .report_text()
            .contains("2 jokers, race-dependent, test 6_coin")
    );
    let json = String::from_utf8(suite.write_to(Vec::new()).unwrap()).unwrap();
    assert!(
        json.contains(r#""jokers":2,"race_dependent":true"#),
        "{json}"
    );
    // On random games, the classification agrees with bounded brute force, and a winning goal
    // is never race-dependent.
    let mut counted = [0usize; 2];
    for seed in 0..40u64 {
        let sa = random_suspension(seed, 5, 2, 2);
        for goal in Coverage::Transitions.goals(&sa) {
            let s = reach_strategy(&sa, &goal).unwrap();
            let race_free = s.arena().reachable_without_races();
            let brute = reached_by_a_race_free_play(s.arena(), s.arena().initial(), 12);
            assert_eq!(race_free, brute, "seed {seed} {goal:?}");
            if s.reachability() == Reachability::Winning {
                assert!(race_free, "seed {seed} {goal:?}");
            }
            if matches!(s.reachability(), Reachability::Jokers(_)) {
                counted[usize::from(race_free)] += 1;
            }
        }
    }
    assert!(counted[0] > 0 && counted[1] > 0, "{counted:?}");
}
