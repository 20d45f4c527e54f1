//! Equivalence and minimisation of suspension automata (van den Bos thesis Sec. 2.4,
//! Def. 2.9, 2.10 and 2.13).
//!
//! Two specifications are *equivalent* (Def. 2.9) when exactly the same implementations are
//! ioco-conforming to them. The *demonic completion* `X(S)` (Def. 2.10) adds a chaos state `χ`
//! with a self-loop on every label and sends every missing input to `χ`; by Lemma 2.11 it is
//! equivalent to `S`. States `q, q'` are equivalent (`q ≈ q'`, Def. 2.13 and Prop. 2.14) when a
//! coinductive equivalence relation on `X(S)` relates them: equal outputs, and related
//! successors under every common label. As `X(S)` is deterministic and input-enabled, `≈` is
//! bisimilarity (= trace equivalence) on `X(S)`.
//!
//! # Algorithm
//!
//! [`equivalence_classes`] works in two steps.
//!
//! 1. [`chaos_states`]: the states equivalent to `χ` form the greatest set of states that enable
//!    every output (δ included) and whose enabled transitions all stay in the set (a missing
//!    input goes to `χ` in `X(S)`). Computed by removing violators and propagating backwards.
//! 2. Partition refinement of the other states, on the automaton in which an input into a
//!    chaos-equivalent state counts as missing and an output into one leads to a single chaos
//!    block that is never split. In this automaton `≈` is plain bisimilarity with missing
//!    transitions as missing (a remaining state is never chaos-equivalent, so a missing input
//!    and an input into a remaining state always differ). Blocks split by the signature "label
//!    and successor block of every enabled transition"; only states with a successor that
//!    changed block are re-examined, and in a split block the part with the unchanged states
//!    keeps its number, so the work follows the changes rather than `rounds × states`.
//!
//! Classes are numbered by their first member in state-id order (`χ`'s class last if no state is
//! chaos-equivalent), so the result is reproducible. The unit tests check it against plain Moore
//! refinement on the demonic completion.
//!
//! # Quotient and chaos removal
//!
//! [`minimize_suspension`] builds the quotient over the blocks reachable from the initial state
//! (breadth-first, labels in id order; a block is named after its lowest-id member). Blocks
//! equivalent to `χ` allow every behaviour, so no implementation can fail there (van den Bos
//! remark before Example 2.38). They are removed as follows, which keeps `X(quotient)` bisimilar
//! to `X(S)` and therefore preserves the set of conforming implementations (Lemma 2.12):
//!
//! * an input transition into a chaos-equivalent state is deleted: the demonic completion sends
//!   the now missing input to `χ`, which is equivalent to the deleted target;
//! * an output transition into a chaos-equivalent state cannot be deleted (that would forbid the
//!   output), so it is redirected to a single state `chaos` (or `chaos_1`, ... if the name is
//!   taken) that enables every output, including δ, as a self-loop and no input. Its demonic
//!   completion is bisimilar to `χ`. It also serves as the initial state if that is
//!   chaos-equivalent.
//!
//! The result never has more states than the input: every state of the quotient is a block with
//! a member in `S`, and `chaos` only appears if some state of `S` is chaos-equivalent.

use super::automaton::SuspensionAutomaton;
use super::error::ModelError;
use super::ids::{StateId, id32};
use super::naming::fresh_name;
use std::collections::HashMap;

/// The classes of `≈` (van den Bos Def. 2.13) on the states of a suspension automaton and the
/// chaos state `χ` of its demonic completion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EquivalenceClasses {
    /// Class of each state; the last entry is the class of `χ`.
    class: Vec<u32>,
    count: usize,
}

impl EquivalenceClasses {
    /// The class of `q` (classes are numbered `0..num_classes()`).
    pub fn class_of(&self, q: StateId) -> usize {
        self.class[q.index()] as usize
    }

    /// The class of the chaos state `χ`.
    pub fn chaos_class(&self) -> usize {
        self.class[self.class.len() - 1] as usize
    }

    /// Whether `q ≈ χ`: every behaviour is allowed from `q` on.
    pub fn is_chaos_equivalent(&self, q: StateId) -> bool {
        self.class_of(q) == self.chaos_class()
    }

    /// Whether `p ≈ q`.
    pub fn equivalent(&self, p: StateId, q: StateId) -> bool {
        self.class_of(p) == self.class_of(q)
    }

    /// Number of classes, the class of `χ` included (it may have no state as member).
    pub fn num_classes(&self) -> usize {
        self.count
    }

    /// The states of each class in id order (`χ` not listed).
    pub fn classes(&self) -> Vec<Vec<StateId>> {
        let mut out = vec![Vec::new(); self.count];
        for (q, &c) in self.class[..self.class.len() - 1].iter().enumerate() {
            out[c as usize].push(StateId(id32(q)));
        }
        out
    }
}

/// The states equivalent to `χ`: the greatest set of states that enable every output and whose
/// every enabled transition leads into the set (missing inputs lead to `χ` anyway).
pub fn chaos_states(sa: &SuspensionAutomaton) -> Vec<bool> {
    let n = sa.num_states();
    let all_outputs = sa.alphabet.outputs().count();
    let preds = Predecessors::new(sa);
    let mut chaos: Vec<bool> = sa
        .states()
        .map(|q| sa.outputs_enabled(q).count() == all_outputs)
        .collect();
    let mut removed: Vec<u32> = (0..n).filter(|&q| !chaos[q]).map(id32).collect();
    while let Some(t) = removed.pop() {
        for &q in preds.of(t) {
            if chaos[q as usize] {
                chaos[q as usize] = false;
                removed.push(q);
            }
        }
    }
    chaos
}

/// Predecessor lists (CSR) of a suspension automaton, labels forgotten.
struct Predecessors {
    offsets: Vec<u32>,
    sources: Vec<u32>,
}

impl Predecessors {
    fn new(sa: &SuspensionAutomaton) -> Self {
        let n = sa.num_states();
        let mut offsets = vec![0u32; n + 1];
        for (_, _, t) in sa.triples() {
            offsets[t.index() + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut sources = vec![0u32; sa.num_transitions()];
        for (s, _, t) in sa.triples() {
            sources[fill[t.index()] as usize] = s.0;
            fill[t.index()] += 1;
        }
        Predecessors { offsets, sources }
    }

    fn of(&self, t: u32) -> &[u32] {
        &self.sources[self.offsets[t as usize] as usize..self.offsets[t as usize + 1] as usize]
    }
}

/// Computes `≈` on `sa` and `χ`: first the chaos-equivalent states (`chaos_states`), then
/// partition refinement of the others, in which an input into a chaos-equivalent state counts
/// as missing and an output into one leads to the (never split) chaos block. Only states whose
/// successors changed block are re-examined, and in a block that splits the part holding the
/// unchanged states keeps its number.
pub fn equivalence_classes(sa: &SuspensionAutomaton) -> EquivalenceClasses {
    let n = sa.num_states();
    let chaos = chaos_states(sa);
    let preds = Predecessors::new(sa);
    const CHAOS_BLOCK: u32 = 0;
    // Blocks are ranges of `elems`; `pos` is the inverse of `elems`.
    let mut elems: Vec<u32> = (0..n)
        .filter(|&q| chaos[q])
        .chain((0..n).filter(|&q| !chaos[q]))
        .map(id32)
        .collect();
    let num_chaos = chaos.iter().filter(|&&c| c).count();
    let mut pos = vec![0u32; n];
    for (i, &q) in elems.iter().enumerate() {
        pos[q as usize] = id32(i);
    }
    let mut ranges: Vec<(u32, u32)> = vec![(0, id32(num_chaos)), (id32(num_chaos), id32(n))];
    let mut block: Vec<u32> = chaos
        .iter()
        .map(|&c| if c { CHAOS_BLOCK } else { 1 })
        .collect();

    let mut dirty = vec![false; n];
    let mut dirty_list: Vec<u32> = (0..n).filter(|&q| !chaos[q]).map(id32).collect();
    let mut in_round = vec![false; n];
    let mut sig_buf: Vec<(u32, u32)> = Vec::new();
    let mut sig_range: Vec<(usize, usize)> = Vec::new();
    let signature = |q: u32, block: &[u32], buf: &mut Vec<(u32, u32)>| -> (usize, usize) {
        let start = buf.len();
        for &(l, t) in sa.enabled(StateId(q)) {
            if chaos[t.index()] && sa.alphabet.is_input(l) {
                continue;
            }
            buf.push((l.0, block[t.index()]));
        }
        (start, buf.len())
    };

    while !dirty_list.is_empty() {
        let mut list = std::mem::take(&mut dirty_list);
        for &q in &list {
            dirty[q as usize] = false;
        }
        list.sort_unstable_by_key(|&q| (block[q as usize], q));
        // Phase 1: the groups of every block with re-examined states, against the partition
        // as it is at the start of the round.
        let mut splits: Vec<(u32, Vec<Vec<u32>>, Option<usize>)> = Vec::new();
        let mut i = 0;
        while i < list.len() {
            let b = block[list[i] as usize];
            let mut j = i;
            while j < list.len() && block[list[j] as usize] == b {
                j += 1;
            }
            let run = &list[i..j];
            i = j;
            let (lo, hi) = ranges[b as usize];
            if b == CHAOS_BLOCK || hi - lo <= 1 {
                continue;
            }
            for &q in run {
                in_round[q as usize] = true;
            }
            let rep = if run.len() < (hi - lo) as usize {
                elems[lo as usize..hi as usize]
                    .iter()
                    .copied()
                    .find(|&q| !in_round[q as usize])
            } else {
                None
            };
            sig_buf.clear();
            sig_range.clear();
            for &q in run {
                sig_range.push(signature(q, &block, &mut sig_buf));
            }
            let rep_sig = rep.map(|r| signature(r, &block, &mut sig_buf));
            let mut group_of: HashMap<&[(u32, u32)], usize> = HashMap::new();
            let mut groups: Vec<Vec<u32>> = Vec::new();
            let rep_group = rep_sig.map(|(a, z)| {
                groups.push(Vec::new());
                group_of.insert(&sig_buf[a..z], 0);
                0
            });
            for (k, &q) in run.iter().enumerate() {
                let (a, z) = sig_range[k];
                let g = *group_of.entry(&sig_buf[a..z]).or_insert_with(|| {
                    groups.push(Vec::new());
                    groups.len() - 1
                });
                groups[g].push(q);
            }
            for &q in run {
                in_round[q as usize] = false;
            }
            if groups.len() > 1 {
                splits.push((b, groups, rep_group));
            }
        }
        // Phase 2: carve the groups out; the group with the unchanged states (or else the
        // largest) keeps the block number.
        for (b, groups, rep_group) in splits {
            let keeper = rep_group.unwrap_or_else(|| {
                (0..groups.len())
                    .max_by_key(|&g| (groups[g].len(), std::cmp::Reverse(g)))
                    .unwrap_or(0)
            });
            for (g, members) in groups.iter().enumerate() {
                if g == keeper {
                    continue;
                }
                let (lo, mut hi) = ranges[b as usize];
                let end = hi;
                for &q in members {
                    hi -= 1;
                    let p = pos[q as usize];
                    let other = elems[hi as usize];
                    elems.swap(p as usize, hi as usize);
                    pos[other as usize] = p;
                    pos[q as usize] = hi;
                }
                ranges[b as usize] = (lo, hi);
                let nb = id32(ranges.len());
                ranges.push((hi, end));
                for &q in members {
                    block[q as usize] = nb;
                    for &p in preds.of(q) {
                        if !dirty[p as usize] && !chaos[p as usize] {
                            dirty[p as usize] = true;
                            dirty_list.push(p);
                        }
                    }
                }
            }
        }
    }

    // Number the classes by first member in state order; χ's class is the chaos block.
    let mut number = vec![u32::MAX; ranges.len()];
    let mut count = 0u32;
    let mut class = Vec::with_capacity(n + 1);
    for &b in &block {
        let b = b as usize;
        if number[b] == u32::MAX {
            number[b] = count;
            count += 1;
        }
        class.push(number[b]);
    }
    if number[CHAOS_BLOCK as usize] == u32::MAX {
        number[CHAOS_BLOCK as usize] = count;
        count += 1;
    }
    class.push(number[CHAOS_BLOCK as usize]);
    EquivalenceClasses {
        class,
        count: count as usize,
    }
}

/// Reference implementation for the tests: plain Moore refinement on the demonic completion,
/// re-signing every state in every round.
#[cfg(test)]
pub(crate) fn moore_classes(sa: &SuspensionAutomaton) -> EquivalenceClasses {
    let n = sa.num_states();
    let chaos = n;
    let outputs: Vec<super::ids::LabelId> = sa.alphabet.outputs().collect();
    let mut class = vec![0u32; n + 1];
    let mut count = 1usize;
    let mut sig: Vec<(u32, u32)> = Vec::new();
    loop {
        let chaos_class = class[chaos];
        let mut ids: HashMap<(u32, Vec<(u32, u32)>), u32> = HashMap::with_capacity(count * 2);
        let mut next = vec![0u32; n + 1];
        for q in 0..=n {
            sig.clear();
            if q == chaos {
                sig.extend(outputs.iter().map(|&x| (x.0, chaos_class)));
            } else {
                for &(l, t) in sa.enabled(StateId(id32(q))) {
                    let c = class[t.index()];
                    if sa.alphabet.is_input(l) && c == chaos_class {
                        continue;
                    }
                    sig.push((l.0, c));
                }
            }
            let fresh = id32(ids.len());
            let id = *ids.entry((class[q], sig.clone())).or_insert(fresh);
            next[q] = id;
        }
        let new_count = ids.len();
        class = next;
        if new_count == count {
            break;
        }
        count = new_count;
    }
    EquivalenceClasses { class, count }
}

/// The minimal suspension automaton equivalent to `sa` (van den Bos Def. 2.9), with
/// chaos-equivalent states removed; see the module documentation.
pub fn minimize_suspension(sa: &SuspensionAutomaton) -> Result<SuspensionAutomaton, ModelError> {
    let eq = equivalence_classes(sa);
    let chaos = eq.chaos_class();
    let mut representative = vec![None; eq.num_classes()];
    for q in sa.states() {
        representative[eq.class_of(q)].get_or_insert(q);
    }
    let chaos_name = fresh_name("chaos", |n| sa.state_names().iter().any(|s| s == n));
    let mut new_id: Vec<Option<u32>> = vec![None; eq.num_classes()];
    let mut order: Vec<usize> = Vec::new();
    let mut visit = |c: usize, order: &mut Vec<usize>| -> u32 {
        *new_id[c].get_or_insert_with(|| {
            order.push(c);
            id32(order.len() - 1)
        })
    };
    visit(eq.class_of(sa.initial()), &mut order);
    let mut triples = Vec::new();
    let mut names = Vec::new();
    let mut k = 0;
    while k < order.len() {
        let c = order[k];
        let from = StateId(id32(k));
        if c == chaos {
            names.push(chaos_name.clone());
            for x in sa.alphabet.outputs() {
                triples.push((from, x, from));
            }
        } else {
            // Every class but χ's has a member in `sa`; classes are only reached through them.
            let Some(r) = representative[c] else {
                return Err(ModelError::Empty);
            };
            names.push(sa.state_name(r).to_owned());
            for &(l, t) in sa.enabled(r) {
                let target = eq.class_of(t);
                if target == chaos && sa.alphabet.is_input(l) {
                    continue;
                }
                let to = visit(target, &mut order);
                triples.push((from, l, StateId(to)));
            }
        }
        k += 1;
    }
    SuspensionAutomaton::new(
        sa.name.clone(),
        sa.alphabet.clone(),
        names,
        StateId(0),
        triples,
    )
}

/// Whether `sa` is minimal: [`minimize_suspension`] would not reduce its number of states (all
/// states reachable, pairwise inequivalent, and no chaos-equivalent state other than a single
/// `chaos` state reached by outputs).
pub fn is_minimal_suspension(sa: &SuspensionAutomaton) -> Result<bool, ModelError> {
    Ok(minimize_suspension(sa)?.num_states() == sa.num_states())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    /// Van den Bos Fig. 2.1a: the bundled reconstruction shared by every unit test.
    fn figure_2_1() -> SuspensionAutomaton {
        crate::analysis::compatibility::tests::vdbos_fig_2_1()
    }

    #[test]
    fn refinement_agrees_with_moore_on_random_automata() {
        // A seeded generator (xorshift) of random suspension automata over ?a ?b !x !y δ.
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let labels = ["?a", "?b", "!x", "!y", "delta"];
        for _ in 0..400 {
            let n = 1 + next(9) as usize;
            let mut edges = Vec::new();
            for s in 0..n as u32 {
                let mut has_output = false;
                for (k, &l) in labels.iter().enumerate() {
                    // Outputs are frequent, so chaos-equivalent states occur.
                    if next(10) < if k >= 2 { 7 } else { 5 } {
                        edges.push((s, l, next(n as u64) as u32));
                        has_output |= k >= 2;
                    }
                }
                if !has_output {
                    edges.push((s, "delta", s));
                }
            }
            let sa = suspension_from_marked("r", n, &edges).unwrap();
            assert_eq!(equivalence_classes(&sa), moore_classes(&sa), "{edges:?}");
        }
    }

    #[test]
    fn inequivalent_states_stay_apart() {
        let sa = figure_2_1();
        let eq = equivalence_classes(&sa);
        // Six distinct classes plus χ.
        assert_eq!(eq.num_classes(), 7);
        assert!(!eq.equivalent(StateId(1), StateId(2)));
        assert!(!eq.equivalent(StateId(3), StateId(4)));
        assert!(sa.states().all(|q| !eq.is_chaos_equivalent(q)));
        let min = minimize_suspension(&sa).unwrap();
        assert_eq!(min.num_states(), 6);
        assert!(is_minimal_suspension(&sa).unwrap());
    }

    #[test]
    fn equivalent_states_are_merged() {
        // 0 and 2 behave the same: ?a then !x back; 1 and 3 likewise.
        let sa = suspension_from_marked(
            "dup",
            4,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (2, "?a", 3),
                (2, "delta", 2),
                (3, "!x", 0),
            ],
        )
        .unwrap();
        let eq = equivalence_classes(&sa);
        assert!(eq.equivalent(StateId(0), StateId(2)));
        assert!(eq.equivalent(StateId(1), StateId(3)));
        assert_eq!(
            eq.classes()[eq.class_of(StateId(0))],
            [StateId(0), StateId(2)]
        );
        let min = minimize_suspension(&sa).unwrap();
        assert_eq!(min.num_states(), 2);
        assert_eq!(min.state_names(), ["0", "1"]);
    }

    #[test]
    fn missing_inputs_equal_inputs_into_chaos() {
        // State 2 allows every output (x, delta) forever and has no input: it is χ.
        // 0 --?a--> 2 is therefore the same as 1 lacking ?a.
        let sa = suspension_from_marked(
            "chaos",
            3,
            &[
                (0, "?a", 2),
                (0, "!x", 1),
                (1, "!x", 0),
                (2, "!x", 2),
                (2, "delta", 2),
                (2, "?a", 2),
            ],
        )
        .unwrap();
        let eq = equivalence_classes(&sa);
        assert!(eq.is_chaos_equivalent(StateId(2)));
        assert!(eq.equivalent(StateId(0), StateId(1)));
        let min = minimize_suspension(&sa).unwrap();
        // The input into chaos is dropped, 0 and 1 merge, and chaos is unreachable.
        assert_eq!(min.num_states(), 1);
        assert_eq!(min.num_transitions(), 1);
        assert!(!is_minimal_suspension(&sa).unwrap());
    }

    #[test]
    fn outputs_into_chaos_go_to_one_chaos_state() {
        let sa = suspension_from_marked(
            "c",
            3,
            &[
                (0, "!x", 1),
                (0, "?a", 0),
                (1, "!x", 2),
                (1, "delta", 1),
                (1, "?a", 2),
                (2, "!x", 1),
                (2, "delta", 2),
            ],
        )
        .unwrap();
        let eq = equivalence_classes(&sa);
        assert!(eq.is_chaos_equivalent(StateId(1)));
        assert!(eq.is_chaos_equivalent(StateId(2)));
        assert!(!eq.is_chaos_equivalent(StateId(0)));
        let min = minimize_suspension(&sa).unwrap();
        assert_eq!(min.state_names(), ["0", "chaos"]);
        let chaos = StateId(1);
        assert_eq!(min.inputs_enabled(chaos).count(), 0);
        assert_eq!(min.outputs_enabled(chaos).count(), 2);
        assert_eq!(
            min.after(StateId(0), min.alphabet.get("x").unwrap()),
            Some(chaos)
        );
    }
}
