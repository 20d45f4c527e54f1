//! Deciding whether a non-conforming implementation can be *seen* to fail by a tester that
//! talks to it through a channel where outputs may overtake inputs: `impl ioco spec` observed
//! under the input/output race of van den Bos Sec. 2.7.4 (`Moves(q, a, x) = {T(q, a), T(q, x)}`),
//! the semantics every runner of this crate applies (module doc of `crate::exec::stdio`).
//!
//! A tester that sent input `a` and then reads output `x` cannot tell whether the system wrote
//! `x` before or after it read `a`. The runners therefore accept an observation when some
//! *reading* of it is a suspension trace of the specification: a reading orders the observed
//! inputs and outputs as the system may have met them, each output no later than observed,
//! inputs in the order sent, and quiescence only once every input sent is read. Some faults are
//! hidden by this: the tea machine that refunds where it should serve tea after `?coin ?button`
//! writes `?coin ?button !refund`, which the reading `?coin !refund ?button` explains when the
//! specification may refund after a coin and leaves `?button` unspecified after the refund.
//!
//! [`check_ioco_under_race`] decides, exactly and within a budget, whether some observation of
//! the implementation has no reading in the specification: the implementation is taken to read
//! every input as soon as it is sent, which is its most revealing timing (a later reading of an
//! input only adds readings of the observation, so it can only hide more). The search runs over
//! pairs of an implementation observation state and the set of readings still open, each a
//! specification state with the inputs sent but not yet read in it (at most
//! `MAX_INPUTS_IN_FLIGHT`, a bound of this search only: the runners keep readings with any
//! number of inputs unread, so a `Fails` whose observation needs more inputs in flight may be
//! explained by a runner; `Conforms` holds for them all, since more readings only explain
//! more). A reading in which the system read an input the
//! specification does not enable allows everything after it (ioco is silent past an unspecified
//! input), so a pair holding one can never fail and is not explored further. The verdict
//! `Fails` carries a shortest such observation; `Conforms` means that no tester of this crate can
//! ever fail the implementation, although `check` without `--race` may find it non-conforming.
//!
//! The question answered is the one a mutation test needs: a suite or an explorer cannot be
//! blamed for passing an implementation whose every observation the specification explains.

use super::error::CheckError;
use super::ioco::{IocoCounterexample, IocoOptions, IocoVerdict, MissingInputs};
use super::observe::{Observable, Observer, Vocabulary};
use crate::model::{LabelId, LabelKind};
use std::collections::{BTreeSet, HashSet, VecDeque};

/// Inputs a reading of the search may leave unread (the runners have no such bound).
const MAX_INPUTS_IN_FLIGHT: usize = 8;

/// A reading of the observations so far: the specification state it reaches and the inputs
/// sent that the system has not read in it, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Reading {
    spec: u32,
    unread: Vec<LabelId>,
}

/// The open readings of an observation, closed under reading the oldest unread input; `None`
/// when one of them read an input the specification does not enable (anything is allowed).
type Readings = Option<BTreeSet<Reading>>;

/// Decides whether some observation of `imp`, read under the input/output race, is explained by
/// no reading of `spec` (see the module doc). uioco is not decided (`opts.uioco` is refused).
/// An input the implementation refuses is not sent there; with `MissingInputs::Reject` a verdict
/// `Conforms` reached without sending one is an error instead (it may depend on what the
/// implementation would do), `SelfLoop` adds self-loops first, `Cut` just does not send it.
pub fn check_ioco_under_race(
    spec: Observable<'_>,
    imp: Observable<'_>,
    opts: &IocoOptions,
) -> Result<IocoVerdict, CheckError> {
    if opts.uioco {
        return Err(CheckError::Incompatible(
            "uioco is not decided under the input/output race; drop --uioco or --race".into(),
        ));
    }
    let vocab = Vocabulary::of(&[spec, imp])?;
    let mut s_obs = Observer::new(spec, &vocab, opts.budget);
    let mut i_obs = Observer::new(imp, &vocab, opts.budget);
    if opts.missing_inputs == MissingInputs::SelfLoop {
        i_obs = i_obs.with_self_loops(&vocab);
    }
    let inputs: Vec<LabelId> = vocab
        .ids()
        .filter(|&l| vocab.kind(l) == LabelKind::Input)
        .collect();
    let start = BTreeSet::from([Reading {
        spec: s_obs.initial(),
        unread: Vec::new(),
    }]);
    // nodes[k] = (impl state, open readings, parent node, label from parent)
    type Node = (u32, BTreeSet<Reading>, usize, LabelId);
    let mut nodes: Vec<Node> = vec![(i_obs.initial(), start.clone(), usize::MAX, LabelId(0))];
    let mut seen: HashSet<(u32, BTreeSet<Reading>)> = HashSet::from([(i_obs.initial(), start)]);
    let mut queue = VecDeque::from([0usize]);
    let mut first_missing: Option<(usize, LabelId)> = None;
    let trace_of = |nodes: &[Node], mut k: usize| {
        let mut t = Vec::new();
        while nodes[k].2 != usize::MAX {
            t.push(vocab.marked(nodes[k].3));
            k = nodes[k].2;
        }
        t.reverse();
        t
    };
    while let Some(k) = queue.pop_front() {
        if nodes.len() > opts.budget {
            return Err(CheckError::Budget {
                what: "observation pairs under the input/output race".into(),
                budget: opts.budget,
            });
        }
        let (q, readings) = (nodes[k].0, nodes[k].1.clone());
        let mut children: Vec<(LabelId, u32, BTreeSet<Reading>)> = Vec::new();
        let imp_edges: Vec<(LabelId, u32)> = i_obs.enabled(q)?.to_vec();
        for &(x, q2) in imp_edges
            .iter()
            .filter(|(l, _)| vocab.kind(*l) == LabelKind::Output)
        {
            let Some(after) = observe(&mut s_obs, &readings, x, x == vocab.quiescence())? else {
                continue;
            };
            if after.is_empty() {
                let preferred = readings
                    .iter()
                    .find(|r| r.unread.is_empty())
                    .or_else(|| readings.iter().next())
                    .map_or(s_obs.initial(), |r| r.spec);
                let allowed = s_obs
                    .enabled(preferred)?
                    .iter()
                    .filter(|(l, _)| vocab.kind(*l) == LabelKind::Output)
                    .map(|&(l, _)| vocab.marked(l))
                    .collect();
                return Ok(IocoVerdict::Fails(IocoCounterexample {
                    trace: trace_of(&nodes, k),
                    output: vocab.marked(x),
                    allowed,
                    spec_state: s_obs.state_name(preferred),
                    impl_state: i_obs.state_name(q),
                }));
            }
            children.push((x, q2, after));
        }
        for &a in &inputs {
            let q2 = match i_obs.after(q, a)? {
                Some(q2) => q2,
                None => {
                    // As in `check_ioco`: refusing an input matters where the specification
                    // allows it, here in a reading that has read every input sent.
                    if opts.missing_inputs == MissingInputs::Reject && first_missing.is_none() {
                        for r in readings.iter().filter(|r| r.unread.is_empty()) {
                            if s_obs.after(r.spec, a)?.is_some() {
                                first_missing = Some((k, a));
                                break;
                            }
                        }
                    }
                    continue;
                }
            };
            let sent = readings
                .iter()
                .filter(|r| r.unread.len() < MAX_INPUTS_IN_FLIGHT)
                .map(|r| {
                    let mut unread = r.unread.clone();
                    unread.push(a);
                    Reading {
                        spec: r.spec,
                        unread,
                    }
                });
            let Some(after) = read_closure(&mut s_obs, sent)? else {
                continue;
            };
            children.push((a, q2, after));
        }
        children.sort_by_key(|c| c.0);
        for (l, q2, after) in children {
            if after.is_empty() {
                continue;
            }
            if seen.insert((q2, after.clone())) {
                nodes.push((q2, after, k, l));
                queue.push_back(nodes.len() - 1);
            }
        }
    }
    if let Some((k, a)) = first_missing {
        return Err(CheckError::NotInputEnabled {
            state: i_obs.state_name(nodes[k].0),
            input: vocab.name(a).to_owned(),
            trace: match trace_of(&nodes, k) {
                t if t.is_empty() => "ε".to_owned(),
                t => t.join(" "),
            },
        });
    }
    Ok(IocoVerdict::Conforms)
}

/// The readings after observing output (or quiescence) `x`: every reading whose state allows
/// it steps (quiescence only in readings that have read every input), then the result is closed
/// under reading. `Ok(None)`: a reading allows anything from now on.
fn observe(
    s_obs: &mut Observer<'_>,
    readings: &BTreeSet<Reading>,
    x: LabelId,
    quiescence: bool,
) -> Result<Readings, CheckError> {
    let mut stepped = Vec::new();
    for r in readings {
        if quiescence && !r.unread.is_empty() {
            continue;
        }
        if let Some(s2) = s_obs.after(r.spec, x)? {
            stepped.push(Reading {
                spec: s2,
                unread: r.unread.clone(),
            });
        }
    }
    read_closure(s_obs, stepped)
}

/// `readings` with every reading the system may reach by reading its oldest unread inputs;
/// `Ok(None)` when one of them reads an input the specification does not enable there.
fn read_closure(
    s_obs: &mut Observer<'_>,
    readings: impl IntoIterator<Item = Reading>,
) -> Result<Readings, CheckError> {
    let mut out = BTreeSet::new();
    let mut todo: Vec<Reading> = readings.into_iter().collect();
    while let Some(r) = todo.pop() {
        if let Some((&a, rest)) = r.unread.split_first() {
            match s_obs.after(r.spec, a)? {
                Some(s2) => todo.push(Reading {
                    spec: s2,
                    unread: rest.to_vec(),
                }),
                None => return Ok(None),
            }
        }
        out.insert(r);
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_ioco;
    use crate::model::{SuspensionAutomaton, suspension_from_marked};

    fn verdicts(spec: &SuspensionAutomaton, imp: &SuspensionAutomaton) -> (String, String) {
        let opts = IocoOptions::default();
        let show = |v: IocoVerdict| match v {
            IocoVerdict::Conforms => "conforms".to_owned(),
            IocoVerdict::Fails(c) => format!("{} {}", c.trace.join(" "), c.output),
        };
        let (s, i) = (Observable::Suspension(spec), Observable::Suspension(imp));
        (
            show(check_ioco(s, i, &opts).unwrap()),
            show(check_ioco_under_race(s, i, &opts).unwrap()),
        )
    }

    /// The tea machine of the module doc: after `?coin` it may refund at once, `?button` serves
    /// tea, and after the refund `?button` is unspecified.
    fn tea(fault: Option<(&str, u32)>) -> SuspensionAutomaton {
        let after_button = fault.unwrap_or(("!tea", 0));
        suspension_from_marked(
            "tea",
            4,
            &[
                (0, "?coin", 1),
                (0, "delta", 0),
                (1, "!refund", 3),
                (1, "?button", 2),
                (1, "delta", 1),
                (2, after_button.0, after_button.1),
                (3, "?coin", 1),
                (3, "delta", 3),
            ],
        )
        .unwrap()
    }

    #[test]
    fn a_refund_for_tea_is_hidden_by_the_race() {
        let (plain, race) = verdicts(&tea(None), &tea(Some(("!refund", 3))));
        assert_eq!(plain, "?coin ?button !refund");
        assert_eq!(
            race, "conforms",
            "the reading ?coin !refund ?button explains it"
        );
    }

    #[test]
    fn a_fault_no_reading_explains_is_seen_with_the_same_shortest_trace() {
        // Quiescence where tea is due: every reading has read ?button by then.
        let spec = tea(None);
        let quiet = suspension_from_marked(
            "quiet",
            3,
            &[
                (0, "?coin", 1),
                (0, "delta", 0),
                (1, "!refund", 0),
                (1, "?button", 2),
                (1, "delta", 1),
                (2, "delta", 2),
            ],
        )
        .unwrap();
        let (plain, race) = verdicts(&spec, &quiet);
        assert_eq!(plain, "?coin ?button delta");
        assert_eq!(race, plain);
    }

    #[test]
    fn conforming_implementations_conform_under_the_race_too() {
        let spec = tea(None);
        assert_eq!(
            verdicts(&spec, &spec),
            ("conforms".into(), "conforms".into())
        );
        // One that never refunds conforms (fewer outputs) and so under the race.
        let never = suspension_from_marked(
            "never",
            3,
            &[
                (0, "?coin", 1),
                (0, "delta", 0),
                (1, "?button", 2),
                (1, "delta", 1),
                (2, "!tea", 0),
            ],
        )
        .unwrap();
        assert_eq!(verdicts(&spec, &never).1, "conforms");
    }

    #[test]
    fn an_output_racing_a_specified_input_is_caught_one_step_later() {
        // After ?a the specification says !x (or takes ?b), after ?a ?b it says !z. The
        // implementation says !x forever after ?b: the reading ?a !x ?b explains the first !x,
        // nothing explains the second.
        let spec = suspension_from_marked(
            "s",
            4,
            &[
                (0, "?a", 1),
                (0, "?b", 0),
                (0, "delta", 0),
                (1, "?a", 1),
                (1, "?b", 3),
                (1, "!x", 2),
                (2, "?a", 2),
                (2, "?b", 3),
                (2, "delta", 2),
                (3, "?a", 3),
                (3, "?b", 3),
                (3, "!z", 0),
            ],
        )
        .unwrap();
        let imp = suspension_from_marked(
            "i",
            4,
            &[
                (0, "?a", 1),
                (0, "?b", 0),
                (0, "delta", 0),
                (1, "?a", 1),
                (1, "?b", 3),
                (1, "!x", 2),
                (2, "?a", 2),
                (2, "?b", 3),
                (2, "delta", 2),
                (3, "?a", 3),
                (3, "?b", 3),
                (3, "!x", 3),
            ],
        )
        .unwrap();
        let (plain, race) = verdicts(&spec, &imp);
        assert_eq!(plain, "?a ?b !x");
        assert!(
            ["?a ?b !x !x", "?a !x ?b !x"].contains(&race.as_str()),
            "{race}"
        );
    }
}
