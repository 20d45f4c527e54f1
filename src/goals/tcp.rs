//! Table 6.1 of van den Bos (Sec. 6.8): the joker game of the TCP suspension automaton of
//! Fig. 6.5 for the goal ☺ (the connection opened and closed again).
//!
//! The seed has the table but not the drawing, so the automaton is reconstructed to satisfy
//! every fact the text states: the (joker set, attractor set) at which each state joins, the
//! strategy actions of every row (one action per state, two for 9 and 16), the five joker states
//! 7, 8, 9, 16 and 26, two jokers from state 1, 11 moves along the helped plays of the joker
//! strategies, 10 moves with `passiveOpen?` in 1 or `FIN?` in 13 (4 moves from 13 to joker state
//! 26 and 1 more to ☺, against 2 moves to 16 and 4 more), and state 5, which the table never
//! lists, outside the joker game. Inputs carry the thesis' names; outputs are `send…`,
//! `createTCB`, `deleteTCB` and `timeout`. Automaton state `k - 1` is thesis state `k`; state
//! 26 is ☺.

use super::solve::Move;
use super::{Goal, Reachability, reach_strategy};
use crate::format::{LoadOptions, parse_model};
use crate::model::{Model, StateId, SuspensionAutomaton};

const SMILE: u32 = 26;

/// Thesis state `k` (1-based) or ☺ as an automaton state.
fn st(k: u32) -> u32 {
    k - 1
}

/// The bundled `models/vdbos_fig6_5_tcp.aut`, used as it is (it is deterministic with explicit
/// quiescence).
pub(super) fn tcp() -> SuspensionAutomaton {
    bundled_suspension(
        include_str!("../../models/vdbos_fig6_5_tcp.aut"),
        "vdbos_fig6_5_tcp.aut",
    )
}

/// A bundled `.aut` suspension automaton; `.aut` state `k` is state id `k`.
pub(super) fn bundled_suspension(text: &str, file: &str) -> SuspensionAutomaton {
    let Model::Lts(lts) = parse_model(text, file, &LoadOptions::default()).unwrap() else {
        panic!("{file} is an LTS");
    };
    let sa = SuspensionAutomaton::new(
        lts.name.clone(),
        lts.alphabet.clone(),
        lts.state_names().to_vec(),
        lts.initial(),
        lts.triples().collect(),
    )
    .unwrap();
    assert!(sa.states().all(|q| sa.state_name(q) == q.0.to_string()));
    sa
}

/// Table 6.1: joker set, attractor set, added states (thesis numbers, 0 for ☺) and the
/// strategy actions of each (input names, `θ` for waiting), per row.
/// A row of Table 6.1: joker set, attractor set, added states with their strategy actions.
type Row = (u32, u32, &'static [(u32, &'static [&'static str])]);

const TABLE_6_1: &[Row] = &[
    (0, 0, &[(0, &[])]),
    (0, 1, &[(19, &["θ"])]),
    (0, 2, &[(18, &["θ"]), (20, &["θ"])]),
    (0, 3, &[(17, &["FIN"]), (21, &["θ"])]),
    (1, 0, &[(16, &["ACK", "FIN"]), (26, &["ACK"])]),
    (1, 1, &[(15, &["θ"]), (22, &["θ"]), (25, &["θ"])]),
    (1, 2, &[(13, &["CLOSE"]), (24, &["CLOSE"])]),
    (1, 3, &[(14, &["θ"]), (23, &["θ"])]),
    (1, 4, &[(12, &["θ"])]),
    (
        2,
        0,
        &[(7, &["SYNACK"]), (8, &["ACK"]), (9, &["ACK", "CLOSE"])],
    ),
    (2, 1, &[(6, &["θ"]), (10, &["θ"])]),
    (2, 2, &[(4, &["θ"]), (11, &["SYN"])]),
    (2, 3, &[(1, &["activeOpen"]), (2, &["θ"])]),
    (2, 4, &[(3, &["θ"])]),
];

fn thesis_state(k: u32) -> StateId {
    StateId(if k == 0 { SMILE } else { st(k) })
}

fn move_name(sa: &SuspensionAutomaton, m: Move) -> String {
    match m {
        Move::Wait => "θ".to_owned(),
        Move::Input(a) => sa.alphabet.name(a).to_owned(),
    }
}

#[test]
fn table_6_1_joker_sets_attractor_sets_and_strategy_actions() {
    let sa = tcp();
    let s = reach_strategy(&sa, &Goal::State(StateId(SMILE))).unwrap();
    let (arena, game) = (s.arena(), s.game());
    // A state goal keeps one monitor state: arena nodes are automaton states.
    let node = |k: u32| {
        let q = thesis_state(k);
        (1..arena.len() as u32)
            .find(|&v| arena.sa_state(v) == q)
            .unwrap_or_else(|| panic!("state {k} is unreachable"))
    };
    let mut listed = Vec::new();
    for &(joker_set, attractor_set, added) in TABLE_6_1 {
        for &(k, actions) in added {
            let v = node(k);
            assert_eq!(
                game.measure(v),
                Some((joker_set, attractor_set)),
                "state {k}"
            );
            let moves: Vec<String> = game
                .strategy_moves(arena, v)
                .into_iter()
                .map(|m| move_name(&sa, m))
                .collect();
            let mut expected: Vec<String> = actions.iter().map(|a| a.to_string()).collect();
            let mut got = moves.clone();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "strategy actions of state {k}");
            listed.push(k);
        }
    }
    // Every state but 5 is in the table; 5 cannot reach ☺.
    listed.sort_unstable();
    assert_eq!(listed, (0..=26).filter(|&k| k != 5).collect::<Vec<_>>());
    assert_eq!(game.reachability(node(5)), Reachability::Unreachable);
    // The joker states are 7, 8, 9, 16 and 26; two jokers are needed from 1.
    let jokers: Vec<u32> = (0..=26)
        .filter(|&k| k != 5 && game.is_joker_state(node(k)))
        .collect();
    assert_eq!(jokers, vec![7, 8, 9, 16, 26]);
    assert_eq!(s.reachability(), Reachability::Jokers(2));
}

/// The helped play from state 1 of the positional strategy `choose` (the opponent helps in
/// joker states by letting the chosen input through; elsewhere every move has one outcome):
/// its states (thesis numbers) and its number of jokers.
fn helped_play(
    sa: &SuspensionAutomaton,
    choose: impl Fn(u32) -> Option<&'static str>,
) -> (Vec<u32>, usize) {
    let s = reach_strategy(sa, &Goal::State(StateId(SMILE))).unwrap();
    let number = |q: StateId| if q.0 == SMILE { 0 } else { q.0 + 1 };
    let mut p = s.start();
    let mut states = vec![1];
    let mut jokers = 0;
    while !s.reached(p) {
        let q = s.spec_state(p).unwrap();
        let v = p.0;
        let label = match choose(number(q)) {
            Some(input) => sa.alphabet.get(input).unwrap(),
            None => match s.move_at(p).unwrap() {
                Move::Input(a) => a,
                Move::Wait => {
                    // Non-joker waiting states have exactly one output on these plays.
                    let outs: Vec<_> = s.arena().outputs(v).collect();
                    assert_eq!(outs.len(), 1, "state {}", number(q));
                    outs[0].0
                }
            },
        };
        jokers += usize::from(s.game().is_joker_state(v));
        p = s.after(p, label).unwrap();
        states.push(s.spec_state(p).map_or(0, number));
        assert!(states.len() < 30);
    }
    (states, jokers)
}

#[test]
fn section_6_8_lengths_of_helped_plays() {
    let sa = tcp();
    // The joker strategies reach ☺ in 11 moves with 2 jokers.
    let (play, jokers) = helped_play(&sa, |_| None);
    assert_eq!(play, vec![1, 4, 6, 7, 14, 13, 15, 16, 17, 18, 19, 0]);
    assert_eq!((play.len() - 1, jokers), (11, 2));
    // After passiveOpen?, the other strategy action of 9 (ACK?) takes 11 moves.
    let via_ack = |k| match k {
        1 => Some("passiveOpen"),
        9 => Some("ACK"),
        _ => None,
    };
    assert_eq!(helped_play(&sa, via_ack).0.len() - 1, 11);
    // passiveOpen? in 1 or FIN? in 13: 10 moves with the same number of jokers.
    let passive = helped_play(&sa, |k| (k == 1).then_some("passiveOpen"));
    assert_eq!((passive.0.len() - 1, passive.1), (10, 2));
    let fin = helped_play(&sa, |k| (k == 13).then_some("FIN"));
    assert_eq!((fin.0.len() - 1, fin.1), (10, 2));
    // From 13: FIN? takes 4 moves to joker state 26 and 1 more to ☺; CLOSE? 2 moves to 16, 4 more.
    let from_13 = |play: &[u32]| play.iter().position(|&k| k == 13).unwrap();
    let f = from_13(&fin.0);
    assert_eq!(fin.0[f + 4], 26);
    assert_eq!(fin.0.len() - 1 - (f + 4), 1);
    let (default, _) = helped_play(&sa, |_| None);
    let c = from_13(&default);
    assert_eq!(default[c + 2], 16);
    assert_eq!(default.len() - 1 - (c + 2), 4);
}
