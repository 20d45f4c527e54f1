//! Test goals over a suspension automaton: a state, a transition, a switch (two consecutive
//! transitions, the switch coverage of van den Bos Ch. 4 on finite models), a test purpose (TGV
//! style, Goga seed 001 and EVEREST seed 003: an automaton over the model's labels with accept and
//! refuse states) or a regular expression over labels (the `check` syntax). Each goal becomes a
//! [`Monitor`] whose product with the automaton is the goal's game arena.
//!
//! Test purposes follow TGV's conventions: a state is *accepting* when it has an outgoing
//! transition labelled `ACCEPT`, *refusing* when it has one labelled `REFUSE`; a transition
//! labelled `*` is taken by every label the state has no transition for; any other label missing
//! from a state leaves the purpose where it is (an implicit self-loop). Other labels must be labels
//! of the model, spelled as in the model file (`?coin`, `!tea`, `delta`, ...). The purpose must be
//! deterministic. The goal is reached when the purpose enters an accepting state; a step into a
//! refusing state is never taken by the tester and leaves the goal unreachable.
//!
//! A regular expression goal is reached as soon as the trace so far (quiescence included) is in
//! its language; a trace from which no word of the language can be completed is refused.

use super::arena::{Monitor, StateMonitor, SwitchMonitor, TransitionMonitor};
use crate::check::regex::LazyDfa;
use crate::check::{Observable, Regex, Vocabulary};
use crate::model::{LabelId, Lts, RestrictToReachable, StateId, SuspensionAutomaton};

/// A goal the tester wants the system to reach.
#[derive(Clone, Debug)]
pub enum Goal {
    /// Be in this automaton state.
    State(StateId),
    /// Take this transition (source state and label).
    Transition(StateId, LabelId),
    /// Take `from --first--> middle --second-->` as two consecutive steps.
    Switch {
        /// Source of the first transition.
        from: StateId,
        /// Label of the first transition.
        first: LabelId,
        /// Target of the first transition.
        middle: StateId,
        /// Label of the second transition.
        second: LabelId,
    },
    /// Reach an accepting state of a test purpose (boxed, like the expression: coverage
    /// criteria list hundreds of thousands of the small goals).
    Purpose(Box<TestPurpose>),
    /// Observe a trace in the language of a regular expression.
    Regex(Box<RegexGoal>),
}

/// Something wrong with a goal's definition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoalError {
    /// The purpose names a label the model does not have.
    #[error(
        "{file}: test purpose state `{state}` uses label `{label}`, which is no label of the model (expected a model label spelled as in the model file, `ACCEPT`, `REFUSE` or `*`)"
    )]
    UnknownLabel {
        /// Purpose file.
        file: String,
        /// Purpose state.
        state: String,
        /// The label.
        label: String,
    },
    /// Two transitions of one purpose state carry the same label.
    #[error(
        "{file}: test purpose state `{state}` has two transitions labelled `{label}` (expected a deterministic purpose)"
    )]
    Nondeterministic {
        /// Purpose file.
        file: String,
        /// Purpose state.
        state: String,
        /// The label.
        label: String,
    },
    /// The purpose has an internal step.
    #[error(
        "{file}: test purpose state `{state}` has an internal step `{label}` (expected observable labels only)"
    )]
    Internal {
        /// Purpose file.
        file: String,
        /// Purpose state.
        state: String,
        /// The label.
        label: String,
    },
    /// The purpose has no accepting state.
    #[error(
        "{file}: the test purpose has no accepting state (expected a transition labelled `ACCEPT` out of the states to reach)"
    )]
    NoAccept {
        /// Purpose file.
        file: String,
    },
    /// A regular expression that names no label of the model.
    #[error("{0}")]
    Regex(#[from] crate::check::RegexError),
    /// The model's labels do not form a vocabulary.
    #[error("{0}")]
    Labels(String),
    /// The arena is too large.
    #[error(transparent)]
    TooLarge(#[from] super::arena::ArenaTooLarge),
}

/// The label names a test purpose uses for accept and refuse states and for "any other label".
pub const ACCEPT: &str = "ACCEPT";
/// See [`ACCEPT`].
pub const REFUSE: &str = "REFUSE";
/// See [`ACCEPT`].
pub const OTHERWISE: &str = "*";

/// A deterministic test purpose over the labels of one suspension automaton.
#[derive(Clone, Debug)]
pub struct TestPurpose {
    name: String,
    initial: u32,
    /// Per purpose state: targets per automaton label (`u32::MAX`: stay).
    next: Vec<Vec<u32>>,
    accept: Vec<bool>,
    refuse: Vec<bool>,
}

impl TestPurpose {
    /// Reads a purpose from a parsed LTS over the labels of `sa` (names are matched; kinds are
    /// not). `file` names the purpose in errors.
    pub fn new(purpose: &Lts, sa: &SuspensionAutomaton, file: &str) -> Result<Self, GoalError> {
        let n = purpose.num_states();
        let labels = sa.alphabet.len();
        let mut next = vec![vec![u32::MAX; labels]; n];
        let mut accept = vec![false; n];
        let mut refuse = vec![false; n];
        for s in purpose.states() {
            let state = || purpose.state_name(s).to_owned();
            let mut explicit = vec![false; labels];
            let mut otherwise = None;
            for &(l, t) in purpose.transitions_from(s) {
                let name = purpose.alphabet.name(l);
                if purpose.alphabet.is_internal(l) {
                    return Err(GoalError::Internal {
                        file: file.to_owned(),
                        state: state(),
                        label: name.to_owned(),
                    });
                }
                let duplicate = || GoalError::Nondeterministic {
                    file: file.to_owned(),
                    state: state(),
                    label: name.to_owned(),
                };
                match name {
                    ACCEPT => accept[s.index()] = true,
                    REFUSE => refuse[s.index()] = true,
                    OTHERWISE => {
                        if otherwise.replace(t.0).is_some() {
                            return Err(duplicate());
                        }
                    }
                    _ => {
                        let Some(ml) = sa.alphabet.get(name) else {
                            // Labels of the model are declared to the purpose's reader, so an
                            // unknown one was marked: show it as written.
                            let label = if purpose.alphabet.is_input(l) {
                                format!("?{name}")
                            } else {
                                format!("!{name}")
                            };
                            return Err(GoalError::UnknownLabel {
                                file: file.to_owned(),
                                state: state(),
                                label,
                            });
                        };
                        if explicit[ml.index()] {
                            return Err(duplicate());
                        }
                        explicit[ml.index()] = true;
                        next[s.index()][ml.index()] = t.0;
                    }
                }
            }
            if let Some(t) = otherwise {
                for (l, seen) in explicit.iter().enumerate() {
                    if !seen {
                        next[s.index()][l] = t;
                    }
                }
            }
        }
        if !accept.iter().any(|&a| a) {
            return Err(GoalError::NoAccept {
                file: file.to_owned(),
            });
        }
        Ok(TestPurpose {
            name: file.to_owned(),
            initial: purpose.initial().0,
            next,
            accept,
            refuse,
        })
    }

    /// The purpose's name (its file).
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Monitor for TestPurpose {
    fn initial(&mut self) -> u32 {
        self.initial
    }
    fn step(&mut self, m: u32, _: StateId, l: LabelId) -> Option<u32> {
        if self.accept[m as usize] {
            return Some(m);
        }
        let t = match self.next[m as usize][l.index()] {
            u32::MAX => m,
            t => t,
        };
        (!self.refuse[t as usize] || self.accept[t as usize]).then_some(t)
    }
    fn accepting(&self, m: u32, _: StateId) -> bool {
        self.accept[m as usize]
    }
}

/// A regular expression over the labels of a suspension automaton, determinised lazily.
#[derive(Clone, Debug)]
pub struct RegexGoal {
    text: String,
    dfa: LazyDfa,
    /// Automaton label → NFA label.
    to_vocab: Vec<LabelId>,
}

impl RegexGoal {
    /// Compiles `regex` against the labels of `sa`.
    pub fn new(regex: &Regex, text: &str, sa: &SuspensionAutomaton) -> Result<Self, GoalError> {
        let vocab = Vocabulary::of(&[Observable::Suspension(sa)])
            .map_err(|e| GoalError::Labels(e.to_string()))?;
        let nfa = regex.compile(&vocab)?;
        let to_vocab = sa
            .alphabet
            .ids()
            .map(|l| {
                if l == sa.quiescence() {
                    vocab.quiescence()
                } else {
                    vocab.get(sa.alphabet.name(l)).unwrap_or(LabelId(u32::MAX))
                }
            })
            .collect();
        Ok(RegexGoal {
            text: text.to_owned(),
            dfa: LazyDfa::new(nfa),
            to_vocab,
        })
    }

    /// The expression's text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl Monitor for RegexGoal {
    fn initial(&mut self) -> u32 {
        0
    }
    fn step(&mut self, m: u32, _: StateId, l: LabelId) -> Option<u32> {
        if self.dfa.accepting(m) {
            return Some(m);
        }
        self.dfa.next(m, self.to_vocab[l.index()])
    }
    fn accepting(&self, m: u32, _: StateId) -> bool {
        self.dfa.accepting(m)
    }
}

impl Goal {
    /// The goal in words, with the model's state and label names.
    pub fn describe(&self, sa: &SuspensionAutomaton) -> String {
        let s = |q: StateId| sa.state_name(q);
        let l = |l: LabelId| sa.alphabet.name(l);
        match self {
            Goal::State(q) => format!("state {}", s(*q)),
            Goal::Transition(q, a) => {
                format!("transition {} --{}--> {}", s(*q), l(*a), after(sa, *q, *a))
            }
            Goal::Switch {
                from,
                first,
                middle,
                second,
            } => format!(
                "switch {} --{}--> {} --{}--> {}",
                s(*from),
                l(*first),
                s(*middle),
                l(*second),
                after(sa, *middle, *second)
            ),
            Goal::Purpose(p) => format!("purpose {}", p.name()),
            Goal::Regex(r) => format!("regex {}", r.text()),
        }
    }

    /// The readable part of the goal's test name (`crate::suite::names::stem`): the state, the
    /// source state and label of a transition, the source state and labels of a switch, the
    /// purpose's file stem, or the expression's text.
    pub fn stem(&self, sa: &SuspensionAutomaton) -> String {
        use crate::suite::names::stem;
        let s = |q: StateId| sa.state_name(q);
        let l = |l: LabelId| sa.alphabet.name(l);
        match self {
            Goal::State(q) => stem([s(*q)]),
            Goal::Transition(q, a) => stem([s(*q), l(*a)]),
            Goal::Switch {
                from,
                first,
                second,
                ..
            } => stem([s(*from), l(*first), l(*second)]),
            Goal::Purpose(p) => {
                let file = std::path::Path::new(p.name());
                stem([file
                    .file_stem()
                    .and_then(|f| f.to_str())
                    .unwrap_or(p.name())])
            }
            Goal::Regex(r) => stem([r.text()]),
        }
    }

    /// The goal's trace monitor (a fresh one: regular expression monitors grow while used).
    pub fn monitor(&self) -> Box<dyn Monitor> {
        match self {
            Goal::State(q) => Box::new(StateMonitor(*q)),
            Goal::Transition(from, label) => Box::new(TransitionMonitor {
                from: *from,
                label: *label,
            }),
            Goal::Switch {
                from,
                first,
                middle,
                second,
            } => Box::new(SwitchMonitor {
                from: *from,
                first: *first,
                middle: *middle,
                second: *second,
            }),
            Goal::Purpose(p) => p.clone(),
            Goal::Regex(r) => r.clone(),
        }
    }
}

fn after(sa: &SuspensionAutomaton, q: StateId, l: LabelId) -> String {
    sa.after(q, l)
        .map_or_else(|| "?".to_owned(), |t| sa.state_name(t).to_owned())
}

/// A coverage criterion: one goal per item of the reachable part of the automaton.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Every reachable state.
    States,
    /// Every transition out of a reachable state (quiescence included).
    Transitions,
    /// Every pair of consecutive transitions.
    Switches,
}

impl Coverage {
    /// The criterion's name (`states`, `transitions`, `switches`).
    pub fn as_str(self) -> &'static str {
        match self {
            Coverage::States => "states",
            Coverage::Transitions => "transitions",
            Coverage::Switches => "switches",
        }
    }

    /// How many goals the criterion has on `sa` (counted without building them).
    pub fn count(self, sa: &SuspensionAutomaton) -> u128 {
        let reach = sa.reachable();
        let states = sa.states().filter(|q| reach[q.index()]);
        match self {
            Coverage::States => states.count() as u128,
            Coverage::Transitions => states.map(|q| sa.enabled(q).len() as u128).sum(),
            Coverage::Switches => states
                .flat_map(|q| sa.enabled(q).iter())
                .map(|&(_, t)| sa.enabled(t).len() as u128)
                .sum(),
        }
    }

    /// The goals, in state order, then label order.
    pub fn goals(self, sa: &SuspensionAutomaton) -> Vec<Goal> {
        let reach = sa.reachable();
        let states = sa.states().filter(|q| reach[q.index()]);
        match self {
            Coverage::States => states.map(Goal::State).collect(),
            Coverage::Transitions => states
                .flat_map(|q| {
                    sa.enabled(q)
                        .iter()
                        .map(move |&(l, _)| Goal::Transition(q, l))
                })
                .collect(),
            Coverage::Switches => states
                .flat_map(|q| {
                    sa.enabled(q).iter().flat_map(move |&(first, middle)| {
                        sa.enabled(middle)
                            .iter()
                            .map(move |&(second, _)| Goal::Switch {
                                from: q,
                                first,
                                middle,
                                second,
                            })
                    })
                })
                .collect(),
        }
    }
}
