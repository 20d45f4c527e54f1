//! Validity of automata with inputs and outputs (van den Bos Def. 2.21, Lemma 3.6): a state is
//! invalid when the tester can force the system into a state without outputs, by inputs (which
//! implementations must accept) and by waiting when every output leads to invalid states.
//! Algorithm 2 computes the invalid states with a winning `strategy` and its `rank`.
//!
//! A specification whose initial state is invalid has no conforming implementation at all;
//! [`check_specification`] reports that with the tester's winning play, and [`prune_invalid`]
//! removes invalid states (the step that turns a parallel composition into a merge, Def. 2.23).

use crate::model::{Automaton, LabelId, ModelError, StateId, SuspensionAutomaton};

/// The tester's move from an invalid state (Algorithm 2's `strategy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Apply this input: it leads to an invalid state of lower rank.
    Input(LabelId),
    /// Apply no input (θ): every output leads to an invalid state of lower rank, or there is none.
    Wait,
}

/// The invalid states of an automaton with, for each, a winning move and its rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validity {
    /// Per state: `None` if valid, else the winning move and the maximal number of moves to win.
    moves: Vec<Option<(Strategy, u32)>>,
}

impl Validity {
    /// Runs Algorithm 2 on `a`, breadth-first so that ranks are attractor levels.
    pub fn compute(a: &Automaton) -> Validity {
        let n = a.num_states();
        let mut incoming: Vec<Vec<(LabelId, StateId)>> = vec![Vec::new(); n];
        for (s, l, t) in a.triples() {
            incoming[t.index()].push((l, s));
        }
        let mut count: Vec<usize> = a.states().map(|q| a.outputs_enabled(q).count()).collect();
        let mut moves: Vec<Option<(Strategy, u32)>> = vec![None; n];
        let mut queue = Vec::new();
        for q in a.states() {
            if count[q.index()] == 0 {
                moves[q.index()] = Some((Strategy::Wait, 0));
                queue.push(q);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let p = queue[head];
            head += 1;
            let rank = moves[p.index()].map_or(0, |m| m.1);
            for &(l, q) in &incoming[p.index()] {
                if moves[q.index()].is_some() {
                    continue;
                }
                if a.alphabet.is_input(l) {
                    moves[q.index()] = Some((Strategy::Input(l), rank + 1));
                    queue.push(q);
                } else {
                    count[q.index()] -= 1;
                    if count[q.index()] == 0 {
                        moves[q.index()] = Some((Strategy::Wait, rank + 1));
                        queue.push(q);
                    }
                }
            }
        }
        Validity { moves }
    }

    /// Whether `q` is invalid.
    pub fn is_invalid(&self, q: StateId) -> bool {
        self.moves[q.index()].is_some()
    }

    /// The winning move and rank from an invalid state.
    pub fn strategy(&self, q: StateId) -> Option<(Strategy, u32)> {
        self.moves[q.index()]
    }

    /// The invalid states in id order.
    pub fn invalid_states(&self) -> impl Iterator<Item = StateId> + '_ {
        self.moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.is_some())
            .map(|(i, _)| StateId(i as u32))
    }
}

/// A specification to which no implementation can conform.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "no implementation can conform to `{model}`: the tester can force a state without outputs: {play}"
)]
pub struct InvalidSpecification {
    /// Model name.
    pub model: String,
    /// The winning play of the tester from the initial state, in words.
    pub play: String,
}

fn describe_play(a: &Automaton, v: &Validity, from: StateId) -> String {
    let mut steps = Vec::new();
    let mut q = from;
    while let Some((strategy, rank)) = v.strategy(q) {
        if rank == 0 {
            steps.push(format!("state `{}` enables no output", a.state_name(q)));
            break;
        }
        match strategy {
            Strategy::Input(l) => {
                steps.push(format!("input `{}`", a.alphabet.name(l)));
                q = a.after(q, l).unwrap_or(q);
            }
            Strategy::Wait => {
                // Follow the output of highest rank: the one the system can delay the longest.
                let (x, t) = a
                    .enabled(q)
                    .iter()
                    .filter(|(l, _)| a.alphabet.is_output(*l))
                    .max_by_key(|(_, t)| v.strategy(*t).map_or(0, |m| m.1))
                    .copied()
                    .unwrap_or((LabelId(0), q));
                steps.push(format!(
                    "wait in `{}` (every output leads to an invalid state, e.g. `{}`)",
                    a.state_name(q),
                    a.alphabet.name(x)
                ));
                q = t;
            }
        }
        if steps.len() > 20 {
            steps.push("...".into());
            break;
        }
    }
    steps.join(", then ")
}

/// Fails with a readable tester play when the initial state of `a` is invalid.
pub fn check_specification(a: &Automaton) -> Result<(), InvalidSpecification> {
    let v = Validity::compute(a);
    if v.is_invalid(a.initial()) {
        return Err(InvalidSpecification {
            model: a.name.clone(),
            play: describe_play(a, &v, a.initial()),
        });
    }
    Ok(())
}

/// Removes the invalid states of `a` and keeps the valid states reachable from the initial state
/// (renumbered in breadth-first order), giving a suspension automaton (Def. 2.23; removing invalid
/// states creates no new invalid ones, so the result is non-blocking).
pub fn prune_invalid(a: &Automaton) -> Result<SuspensionAutomaton, InvalidSpecification> {
    let v = Validity::compute(a);
    if v.is_invalid(a.initial()) {
        return Err(InvalidSpecification {
            model: a.name.clone(),
            play: describe_play(a, &v, a.initial()),
        });
    }
    let mut new_id = vec![u32::MAX; a.num_states()];
    let mut order = vec![a.initial()];
    new_id[a.initial().index()] = 0;
    let mut head = 0;
    while head < order.len() {
        let q = order[head];
        head += 1;
        for &(_, t) in a.enabled(q) {
            if !v.is_invalid(t) && new_id[t.index()] == u32::MAX {
                new_id[t.index()] = order.len() as u32;
                order.push(t);
            }
        }
    }
    let names = order.iter().map(|&q| a.state_name(q).to_owned()).collect();
    let triples = order
        .iter()
        .flat_map(|&q| {
            let new_id = &new_id;
            a.enabled(q)
                .iter()
                .filter(move |(_, t)| new_id[t.index()] != u32::MAX)
                .map(move |&(l, t)| (StateId(new_id[q.index()]), l, StateId(new_id[t.index()])))
        })
        .collect();
    let automaton = Automaton::new(
        a.name.clone(),
        a.alphabet.clone(),
        names,
        StateId(0),
        triples,
    )
    .map_err(|e| InvalidSpecification {
        model: a.name.clone(),
        play: e.to_string(),
    })?;
    SuspensionAutomaton::from_automaton(automaton).map_err(|e: ModelError| InvalidSpecification {
        model: a.name.clone(),
        play: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Alphabet, LabelKind};

    fn automaton(n: usize, edges: &[(u32, &str, u32)]) -> Automaton {
        let mut alphabet = Alphabet::new();
        let triples = edges
            .iter()
            .map(|&(s, l, t)| {
                let id = match l.strip_prefix('?') {
                    Some(a) => alphabet.add(a, LabelKind::Input).unwrap(),
                    None => alphabet
                        .add(l.trim_start_matches('!'), LabelKind::Output)
                        .unwrap(),
                };
                (StateId(s), id, StateId(t))
            })
            .collect();
        alphabet.set_quiescence("delta").unwrap();
        let names = (0..n).map(|i| format!("s{i}")).collect();
        Automaton::new("spec", alphabet, names, StateId(0), triples).unwrap()
    }

    #[test]
    fn inputs_into_blocking_states_make_the_specification_invalid() {
        // s2 blocks; s1 reaches it by input; s0 only has outputs into s1.
        let a = automaton(4, &[(0, "!x", 1), (1, "?a", 2), (1, "!y", 3), (3, "!y", 3)]);
        let v = Validity::compute(&a);
        assert_eq!(v.strategy(StateId(2)), Some((Strategy::Wait, 0)));
        let a_id = a.alphabet.get("a").unwrap();
        assert_eq!(v.strategy(StateId(1)), Some((Strategy::Input(a_id), 1)));
        assert_eq!(v.strategy(StateId(0)), Some((Strategy::Wait, 2)));
        assert!(!v.is_invalid(StateId(3)));
        let err = check_specification(&a).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("input `a`"), "{text}");
        assert!(text.contains("`s2` enables no output"), "{text}");
        assert!(prune_invalid(&a).is_err());
    }

    #[test]
    fn pruning_keeps_valid_reachable_states() {
        // s0 may output x to the blocking s2, but also y to the valid s1.
        let a = automaton(3, &[(0, "!x", 2), (0, "!y", 1), (1, "!y", 0)]);
        check_specification(&a).unwrap();
        let sa = prune_invalid(&a).unwrap();
        assert_eq!(sa.num_states(), 2);
        assert_eq!(sa.num_transitions(), 2);
        assert_eq!(sa.state_name(StateId(1)), "s1");
    }
}
