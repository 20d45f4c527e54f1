//! Language-based conformance conf(D,F) of EVEREST (seed 003, Def. 5): the implementation I
//! conforms to the specification S for desired behaviour D and forbidden behaviour F iff
//! (i) no trace of I in F is a trace of S, and (ii) every trace of I in D is a trace of S; that is
//! (Prop. 1), otr(I) ∩ ((D \ otr(S)) ∪ (F ∩ otr(S))) = ∅.
//!
//! As in Prop. 2, the check is a search over the product of I, S (completed with a sink for
//! "not a trace of S") and deterministic automata for D and F, here built lazily from the NFAs of the
//! regular expressions; the search is breadth-first, so the witness trace is a shortest one. Traces
//! are suspension traces (quiescence is a label like any other); an expression that does not
//! mention quiescence (and has no `.`) describes the same traces as over otr.

use super::error::CheckError;
use super::observe::{DEFAULT_BUDGET, Observable, Observer, Vocabulary};
use super::regex::{LazyDfa, Regex};
use crate::fast_hash::FastSet;
use crate::model::LabelId;

/// Which clause of conf(D,F) a witness violates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A trace of the implementation in D that the specification does not have (clause ii).
    DesiredNotInSpecification,
    /// A trace of the implementation in F that the specification also has (clause i).
    ForbiddenInSpecification,
}

/// A shortest trace of the implementation violating conf(D,F).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageWitness {
    /// The trace, as marked labels.
    pub trace: Vec<String>,
    /// The clause it violates.
    pub violation: Violation,
}

impl std::fmt::Display for LanguageWitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let t = if self.trace.is_empty() {
            "ε".to_owned()
        } else {
            self.trace.join(" ")
        };
        match self.violation {
            Violation::DesiredNotInSpecification => write!(
                f,
                "the implementation has the trace {t}, which is desired (in D) but not a trace of the specification"
            ),
            Violation::ForbiddenInSpecification => write!(
                f,
                "the implementation has the trace {t}, which is forbidden (in F) and also a trace of the specification"
            ),
        }
    }
}

/// The verdict of a conf(D,F) check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LanguageVerdict {
    /// I conf(D,F) S.
    Conforms,
    /// A shortest violating trace.
    Fails(LanguageWitness),
}

impl LanguageVerdict {
    /// Whether the implementation conforms.
    pub fn conforms(&self) -> bool {
        matches!(self, LanguageVerdict::Conforms)
    }
}

/// A language of desired or forbidden behaviour.
#[derive(Copy, Clone, Debug)]
pub enum Language<'a> {
    /// The words of a regular expression over labels.
    Regex(&'a Regex),
    /// The suspension traces of a model (a prefix-closed language).
    Traces(Observable<'a>),
}

/// A deterministic acceptor of a [`Language`], built lazily.
#[allow(clippy::large_enum_variant, reason = "at most two acceptors per check")]
enum Acceptor<'a> {
    Regex(LazyDfa),
    Traces(Observer<'a>),
}

impl Acceptor<'_> {
    fn accepting(&self, d: u32) -> bool {
        match self {
            Acceptor::Regex(a) => a.accepting(d),
            Acceptor::Traces(_) => true,
        }
    }

    fn alive(&self, d: u32) -> bool {
        match self {
            Acceptor::Regex(a) => a.alive(d),
            Acceptor::Traces(_) => true,
        }
    }

    /// The successor on `l`; `None` when no word with this prefix is in the language.
    fn next(&mut self, d: u32, l: LabelId) -> Result<Option<u32>, CheckError> {
        match self {
            Acceptor::Regex(a) => {
                let t = a.next(d, l);
                if a.len() > DEFAULT_BUDGET {
                    return Err(CheckError::Budget {
                        what: "determinising a regular expression".into(),
                        budget: DEFAULT_BUDGET,
                    });
                }
                Ok(t)
            }
            Acceptor::Traces(o) => o.after(d, l),
        }
    }
}

/// The acceptor of a language with its initial state.
fn acceptor<'a>(
    l: Option<Language<'a>>,
    vocab: &Vocabulary,
) -> Result<Option<(Acceptor<'a>, u32)>, CheckError> {
    Ok(match l {
        None => None,
        Some(Language::Regex(r)) => Some((Acceptor::Regex(LazyDfa::new(r.compile(vocab)?)), 0)),
        Some(Language::Traces(m)) => {
            let o = Observer::new(m, vocab, DEFAULT_BUDGET);
            let init = o.initial();
            Some((Acceptor::Traces(o), init))
        }
    })
}

/// A product state: (D state, F state, spec state, impl state); `NONE` for a D or F state
/// when the language is empty or no word of it starts with the trace, and for the spec state
/// off the specification.
type ProductState = (u32, u32, u32, u32);
const NONE: u32 = u32::MAX;

/// The product states seen by the search. A state with a D state is first looked up among the
/// few seen with the same D state (a chain through the nodes, indexed by D state), so that a long
/// desired expression, whose DFA states are made in the order the search meets them, is
/// searched without random access to a large hash table; a D state met with more than
/// `CHAIN` product states moves to the hash set, which keeps every lookup O(1).
#[derive(Default)]
struct SeenStates {
    /// Per D state: the last node with it (or `NONE`), and how many there are (`MOVED` once
    /// they are in `hashed`).
    by_desired: Vec<(u32, u8)>,
    /// Per node: the previous node with the same D state (or `NONE`).
    previous: Vec<u32>,
    hashed: FastSet<ProductState>,
}

impl SeenStates {
    const CHAIN: u8 = 8;
    const MOVED: u8 = u8::MAX;

    /// Records `p`, to be node `node` if new (`nodes` holds the earlier ones); whether it is.
    fn insert(
        &mut self,
        p: ProductState,
        node: usize,
        nodes: &[(ProductState, usize, LabelId)],
    ) -> bool {
        debug_assert_eq!(node, self.previous.len());
        let d = p.0 as usize;
        if p.0 != NONE && self.by_desired.len() <= d {
            self.by_desired.resize(d + 1, (NONE, 0));
        }
        let chained = p.0 != NONE && self.by_desired[d].1 != Self::MOVED;
        if !chained {
            let new = self.hashed.insert(p);
            if new {
                self.previous.push(NONE);
            }
            return new;
        }
        let (last, count) = self.by_desired[d];
        let link = |j: u32| (j != NONE).then_some(j);
        let chain = std::iter::successors(link(last), |&j| link(self.previous[j as usize]));
        if chain.clone().any(|j| nodes[j as usize].0 == p) {
            return false;
        }
        if count == Self::CHAIN {
            let moved: Vec<ProductState> = chain.map(|j| nodes[j as usize].0).collect();
            self.hashed.extend(moved);
            self.hashed.insert(p);
            self.by_desired[d] = (NONE, Self::MOVED);
            self.previous.push(NONE);
        } else {
            self.previous.push(last);
            self.by_desired[d] = (node as u32, count + 1);
        }
        true
    }
}

/// Decides `imp conf(D,F) spec`; an absent `desired` or `forbidden` is the empty language.
pub fn check_language(
    spec: Observable<'_>,
    imp: Observable<'_>,
    desired: Option<Language<'_>>,
    forbidden: Option<Language<'_>>,
) -> Result<LanguageVerdict, CheckError> {
    let mut models = vec![spec, imp];
    for l in [desired, forbidden].into_iter().flatten() {
        if let Language::Traces(m) = l {
            models.push(m);
        }
    }
    let vocab = Vocabulary::of(&models)?;
    let (mut d_dfa, d0) = match acceptor(desired, &vocab)? {
        Some((a, i)) => (Some(a), i),
        None => (None, u32::MAX),
    };
    let (mut f_dfa, f0) = match acceptor(forbidden, &vocab)? {
        Some((a, i)) => (Some(a), i),
        None => (None, u32::MAX),
    };
    let mut s_obs = Observer::new(spec, &vocab, DEFAULT_BUDGET);
    let mut i_obs = Observer::new(imp, &vocab, DEFAULT_BUDGET);
    let start: ProductState = (d0, f0, s_obs.initial(), i_obs.initial());
    let mut nodes: Vec<(ProductState, usize, LabelId)> = vec![(start, usize::MAX, LabelId(0))];
    let mut seen = SeenStates::default();
    seen.insert(start, 0, &nodes);
    let mut edges: Vec<(LabelId, u32)> = Vec::new();
    // Nodes are appended in breadth-first order, so the queue is the tail of `nodes`.
    for k in 0.. {
        let Some(&((d, f, s, q), _, _)) = nodes.get(k) else {
            break;
        };
        let in_d = d != NONE && d_dfa.as_ref().is_some_and(|a| a.accepting(d));
        let in_f = f != NONE && f_dfa.as_ref().is_some_and(|a| a.accepting(f));
        let violation = if s == NONE && in_d {
            Some(Violation::DesiredNotInSpecification)
        } else if s != NONE && in_f {
            Some(Violation::ForbiddenInSpecification)
        } else {
            None
        };
        if let Some(violation) = violation {
            let mut trace = Vec::new();
            let mut j = k;
            while nodes[j].1 != usize::MAX {
                trace.push(vocab.marked(nodes[j].2));
                j = nodes[j].1;
            }
            trace.reverse();
            return Ok(LanguageVerdict::Fails(LanguageWitness { trace, violation }));
        }
        let d_alive = d != NONE && d_dfa.as_ref().is_some_and(|a| a.alive(d));
        let f_alive = f != NONE && f_dfa.as_ref().is_some_and(|a| a.alive(f));
        // Off the specification only D matters; on it, either language may still match.
        if !d_alive && (s == NONE || !f_alive) {
            continue;
        }
        edges.clear();
        edges.extend_from_slice(i_obs.enabled(q)?);
        for &(l, q2) in &edges {
            let d2 = match (&mut d_dfa, d) {
                (Some(a), d) if d != NONE => a.next(d, l)?.unwrap_or(NONE),
                _ => NONE,
            };
            let f2 = match (&mut f_dfa, f) {
                (Some(a), f) if f != NONE => a.next(f, l)?.unwrap_or(NONE),
                _ => NONE,
            };
            let s2 = if s == NONE {
                NONE
            } else {
                s_obs.after(s, l)?.unwrap_or(NONE)
            };
            let p = (d2, f2, s2, q2);
            if seen.insert(p, nodes.len(), &nodes) {
                nodes.push((p, k, l));
            }
        }
    }
    Ok(LanguageVerdict::Conforms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::lts_from_marked;

    fn conf(spec: &str, imp: &str, d: Option<&str>, f: Option<&str>) -> String {
        let parse = |e: &str| lts_from_marked("m", 3, &edges(e)).unwrap();
        let (s, i) = (parse(spec), parse(imp));
        let d = d.map(|t| Regex::parse(t, "D").unwrap());
        let f = f.map(|t| Regex::parse(t, "F").unwrap());
        match check_language(
            Observable::Lts(&s),
            Observable::Lts(&i),
            d.as_ref().map(Language::Regex),
            f.as_ref().map(Language::Regex),
        )
        .unwrap()
        {
            LanguageVerdict::Conforms => "conforms".into(),
            LanguageVerdict::Fails(w) => format!("{:?}: {}", w.violation, w.trace.join(" ")),
        }
    }

    /// "0 ?a 1, 1 !x 0" as marked triples.
    fn edges(text: &str) -> Vec<(u32, &str, u32)> {
        text.split(',')
            .filter(|t| !t.trim().is_empty())
            .map(|t| {
                let p: Vec<&str> = t.split_whitespace().collect();
                (p[0].parse().unwrap(), p[1], p[2].parse().unwrap())
            })
            .collect()
    }

    #[test]
    fn both_clauses() {
        let spec = "0 ?a 1, 1 !x 0";
        let imp = "0 ?a 1, 1 !x 0, 1 !y 2";
        assert_eq!(conf(spec, imp, None, None), "conforms");
        // ?a !y is desired but the specification lacks it.
        assert_eq!(
            conf(spec, imp, Some(". y"), None),
            "DesiredNotInSpecification: ?a !y"
        );
        // ?a !x is forbidden but specified.
        assert_eq!(
            conf(spec, imp, None, Some("a x")),
            "ForbiddenInSpecification: ?a !x"
        );
        // Forbidden behaviour outside the specification is fine, as is desired behaviour in it.
        assert_eq!(conf(spec, imp, Some("(a x)*"), Some("a y")), "conforms");
    }

    /// The chains by D state (and their move to the hash set past `CHAIN` entries) answer as a
    /// plain set does, duplicates included.
    #[test]
    fn seen_states_agree_with_a_set() {
        let mut rng = crate::rng::SplitMix64::new(7);
        let mut seen = SeenStates::default();
        let mut reference = std::collections::HashSet::new();
        let mut nodes: Vec<(ProductState, usize, LabelId)> = Vec::new();
        for _ in 0..5_000 {
            // Some D states met often (their chains move), many met a few times.
            let d = match rng.below(4) {
                0 => NONE,
                1 => rng.below(3) as u32,
                _ => 3 + rng.below(2_000) as u32,
            };
            let p = (d, NONE, rng.below(40) as u32, rng.below(3) as u32);
            let new = seen.insert(p, nodes.len(), &nodes);
            assert_eq!(new, reference.insert(p), "{p:?}");
            if new {
                nodes.push((p, 0, LabelId(0)));
            }
        }
        assert!(seen.by_desired.iter().any(|&(_, n)| n == SeenStates::MOVED));
        assert!(
            seen.by_desired
                .iter()
                .any(|&(_, n)| n > 0 && n < SeenStates::MOVED)
        );
    }

    #[test]
    fn quiescence_is_a_label() {
        // The implementation is quiescent after ?a; the specification is not.
        assert_eq!(
            conf("0 ?a 1, 1 !x 0", "0 ?a 1", Some("a delta"), None),
            "DesiredNotInSpecification: ?a delta"
        );
    }
}
