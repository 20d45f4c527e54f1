//! Unique input/output (UIO) sequences (Goga Sec. 3.3.1, "UInOut"): an input word on which a
//! state produces an output word no other state produces.
//!
//! Shortest UIO sequences are found by breadth-first search over pairs (current state of `s`,
//! set of current states of the states not yet told apart), within a work budget. A state whose
//! search exhausts the budget takes its adaptive distinguishing sequence word when the ADS
//! singles it out (such a word is a UIO sequence: every other state follows the same inputs until
//! the outputs differ); otherwise it has no UIO sequence here.

use super::ads::Ads;
use crate::model::{LabelId, Mealy, StateId};
use std::collections::{HashSet, VecDeque};

/// Total BFS work (state-input steps) spent on all states together.
const DEFAULT_BUDGET: usize = 20_000_000;

/// A UIO sequence per state, where one was found.
#[derive(Clone, Debug)]
pub struct UioSet {
    /// `uio[s]`: the UIO sequence of state `s`, if found.
    pub uio: Vec<Option<Vec<LabelId>>>,
}

impl UioSet {
    /// Number of states without a UIO sequence.
    pub fn missing(&self) -> usize {
        self.uio.iter().filter(|u| u.is_none()).count()
    }
}

fn search(m: &Mealy, s: StateId, budget: usize) -> Option<Vec<LabelId>> {
    let others: Vec<u32> = m.states().filter(|&t| t != s).map(|t| t.0).collect();
    if others.is_empty() {
        return Some(Vec::new());
    }
    // Nodes: (current state, confusable current states, parent node, input).
    let mut nodes: Vec<(u32, Vec<u32>, u32, LabelId)> = vec![(s.0, others, u32::MAX, LabelId(0))];
    let mut seen: HashSet<(u32, Vec<u32>)> = HashSet::new();
    let mut queue = VecDeque::from([0u32]);
    let mut work = 0usize;
    while let Some(x) = queue.pop_front() {
        for a in m.input_ids() {
            let (cur, conf) = (&nodes[x as usize].0, &nodes[x as usize].1);
            work += conf.len() + 1;
            if work > budget {
                return None;
            }
            let (t, o) = m.step(StateId(*cur), a)?;
            let mut next: Vec<u32> = Vec::new();
            let mut merged = false;
            for &c in conf {
                let (c2, oc) = m.step(StateId(c), a)?;
                if oc == o {
                    if c2 == t {
                        merged = true;
                        break;
                    }
                    next.push(c2.0);
                }
            }
            if merged {
                continue;
            }
            next.sort_unstable();
            next.dedup();
            let done = next.is_empty();
            if !done && !seen.insert((t.0, next.clone())) {
                continue;
            }
            nodes.push((t.0, next, x, a));
            let id = nodes.len() as u32 - 1;
            if done {
                let mut w = Vec::new();
                let mut k = id;
                while nodes[k as usize].2 != u32::MAX {
                    w.push(nodes[k as usize].3);
                    k = nodes[k as usize].2;
                }
                w.reverse();
                return Some(w);
            }
            queue.push_back(id);
        }
    }
    None
}

/// UIO sequences of all states of a complete machine: shortest ones within the search budget,
/// otherwise the ADS word where the ADS identifies the state.
pub fn uio_sequences(m: &Mealy, ads: &Ads) -> UioSet {
    let n = m.num_states().max(1);
    let per_state = (DEFAULT_BUDGET / n).max(1000);
    let uio = m
        .states()
        .map(|s| {
            search(m, s, per_state)
                .or_else(|| (ads.leaf_states(s).len() == 1).then(|| ads.word(m, s)))
        })
        .collect();
    UioSet { uio }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identify::mealy::LySplittingTree;
    use crate::identify::mealy::tests_support::{ly_non_distinguishable, random_mealy};

    #[test]
    fn uio_sequences_are_unique() {
        for seed in 0..30u64 {
            let m = random_mealy(seed, 2 + seed as usize % 8, 2, 2);
            let ads = LySplittingTree::new(&m).ads(&m);
            let set = uio_sequences(&m, &ads);
            for s in m.states() {
                if let Some(u) = &set.uio[s.index()] {
                    for t in m.states().filter(|&t| t != s) {
                        assert_ne!(m.run(s, u), m.run(t, u), "seed {seed}");
                    }
                }
            }
        }
    }

    #[test]
    fn states_without_uio_are_reported() {
        // In the non-distinguishable example s1 has UIO `b`, s3 has UIO `a`, and s2 has none:
        // `a` merges it with s1 and `b` with s3, with equal outputs.
        let m = ly_non_distinguishable();
        let ads = LySplittingTree::new(&m).ads(&m);
        let set = uio_sequences(&m, &ads);
        let a = m.inputs.get("a").unwrap();
        let b = m.inputs.get("b").unwrap();
        assert_eq!(set.uio[0], Some(vec![b]));
        assert_eq!(set.uio[1], None);
        assert_eq!(set.uio[2], Some(vec![a]));
        assert_eq!(set.missing(), 1);
        for s in m.states() {
            if let Some(u) = &set.uio[s.index()] {
                for t in m.states().filter(|&t| t != s) {
                    assert_ne!(m.run(s, u), m.run(t, u));
                }
            }
        }
    }
}
