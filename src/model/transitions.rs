//! Compressed adjacency (CSR) storage shared by [`Lts`](super::Lts) and
//! [`Automaton`](super::Automaton).
//!
//! Invariant: the outgoing edges of state `s` are `edges[offsets[s]..offsets[s+1]]`, sorted by
//! `(label, target)` without duplicates, so the successors under one label are a contiguous run
//! found by binary search.

use super::ids::{LabelId, StateId, id32};

/// Outgoing edges of every state, grouped by source and sorted by label then target.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transitions {
    offsets: Vec<u32>,
    edges: Vec<(LabelId, StateId)>,
}

impl Transitions {
    /// Builds the table for `num_states` states from `(source, label, target)` triples in any order.
    /// Duplicate triples are kept once. Callers check that ids are in range.
    pub fn from_triples(num_states: usize, mut triples: Vec<(StateId, LabelId, StateId)>) -> Self {
        triples.sort_unstable();
        triples.dedup();
        let mut offsets = Vec::with_capacity(num_states + 1);
        let mut edges = Vec::with_capacity(triples.len());
        let mut next = 0usize;
        for s in 0..num_states {
            offsets.push(id32(edges.len()));
            while next < triples.len() && triples[next].0.index() == s {
                edges.push((triples[next].1, triples[next].2));
                next += 1;
            }
        }
        offsets.push(id32(edges.len()));
        Transitions { offsets, edges }
    }

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Total number of edges.
    pub fn num_edges(&self) -> usize {
        self.edges.len()
    }

    /// The outgoing edges of `s`, sorted by label then target.
    #[inline]
    pub fn of(&self, s: StateId) -> &[(LabelId, StateId)] {
        let lo = self.offsets[s.index()] as usize;
        let hi = self.offsets[s.index() + 1] as usize;
        &self.edges[lo..hi]
    }

    /// The edges of `s` labelled `l` (a contiguous run, possibly empty).
    #[inline]
    pub fn with_label(&self, s: StateId, l: LabelId) -> &[(LabelId, StateId)] {
        let out = self.of(s);
        let lo = out.partition_point(|&(m, _)| m < l);
        let hi = lo + out[lo..].partition_point(|&(m, _)| m == l);
        &out[lo..hi]
    }

    /// All edges as `(source, label, target)` in storage order.
    pub fn triples(&self) -> impl Iterator<Item = (StateId, LabelId, StateId)> + '_ {
        (0..self.num_states()).flat_map(move |s| {
            let s = StateId(id32(s));
            self.of(s).iter().map(move |&(l, t)| (s, l, t))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_sorts_and_dedups() {
        let t = Transitions::from_triples(
            3,
            vec![
                (StateId(2), LabelId(0), StateId(0)),
                (StateId(0), LabelId(1), StateId(2)),
                (StateId(0), LabelId(0), StateId(1)),
                (StateId(0), LabelId(1), StateId(1)),
                (StateId(0), LabelId(1), StateId(1)),
            ],
        );
        assert_eq!(t.num_edges(), 4);
        assert_eq!(t.of(StateId(1)), &[]);
        assert_eq!(
            t.with_label(StateId(0), LabelId(1)),
            &[(LabelId(1), StateId(1)), (LabelId(1), StateId(2))]
        );
        assert_eq!(t.with_label(StateId(2), LabelId(1)), &[]);
        assert_eq!(t.triples().count(), 4);
    }
}
