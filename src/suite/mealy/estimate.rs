//! The size of a Mealy suite before duplicate and prefix removal, computed by counting rather
//! than generating: for each middle length `j`, the number of canonical `(p, x)` with `|x| = j`
//! reaching each state and their total length, by dynamic programming over the transitions.

use crate::identify::mealy::{AccessTree, Family};
use crate::model::{Mealy, StateId};

/// Tests and total input symbols of a suite.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SuiteSize {
    /// Total input symbols.
    pub symbols: u64,
    /// Number of tests.
    pub tests: u64,
}

/// Calls `visit(j, cnt, len)` for every middle length `j` in `0..=extra + 1`, where `cnt[t]` is
/// the number of canonical `(p, x)` with `|x| = j` reaching state `t` and `len[t]` their total
/// length (saturating on overflow).
fn for_each_middle_length(
    m: &Mealy,
    access: &AccessTree,
    extra: usize,
    mut visit: impl FnMut(usize, &[u64], &[u64]),
) {
    let n = m.num_states();
    let mut cnt = vec![0u64; n];
    let mut len = vec![0u64; n];
    for &s in access.bfs_order() {
        cnt[s.index()] = 1;
        len[s.index()] = access.depth(s).expect("reachable") as u64;
    }
    for j in 0..=extra + 1 {
        if j > 0 {
            let mut c2 = vec![0u64; n];
            let mut l2 = vec![0u64; n];
            for s in m.states() {
                let (c, l) = (cnt[s.index()], len[s.index()]);
                if c == 0 {
                    continue;
                }
                for a in m.input_ids() {
                    if j == 1 && access.tree_child(s, a).is_some() {
                        continue;
                    }
                    let (t, _) = m.step(s, a).expect("complete");
                    c2[t.index()] = c2[t.index()].saturating_add(c);
                    l2[t.index()] = l2[t.index()].saturating_add(l.saturating_add(c));
                }
            }
            cnt = c2;
            len = l2;
        }
        visit(j, &cnt, &len);
    }
}

/// The size of the suite of `family` for `extra` extra states on the complete machine `m`,
/// counting every `(p, x, h)` once (saturating on overflow).
pub fn suite_size(m: &Mealy, access: &AccessTree, family: &Family, extra: usize) -> SuiteSize {
    let mut size = SuiteSize::default();
    for_each_middle_length(m, access, extra, |j, cnt, len| {
        for (t, (&c, &l)) in cnt.iter().zip(len).enumerate() {
            if c == 0 {
                continue;
            }
            let sufs = family.suffixes(StateId(t as u32), j, extra);
            if sufs.is_empty() {
                size.tests = size.tests.saturating_add(c);
                size.symbols = size.symbols.saturating_add(l);
            }
            let total: u64 = sufs.iter().map(|&h| family.word(h).len() as u64).sum();
            let k = sufs.len() as u64;
            size.tests = size.tests.saturating_add(c.saturating_mul(k));
            size.symbols = size
                .symbols
                .saturating_add(l.saturating_mul(k))
                .saturating_add(c.saturating_mul(total));
        }
    });
    size
}

/// A lower bound on [`suite_size`] for every family, known before the identifiers are built:
/// each `(p, x)` makes at least one test, and when the machine has two or more states every
/// identifier has a word of at least one input after it.
pub fn least_suite_size(m: &Mealy, access: &AccessTree, extra: usize) -> SuiteSize {
    let per_identifier = u64::from(m.num_states() > 1);
    let mut size = SuiteSize::default();
    for_each_middle_length(m, access, extra, |_, cnt, len| {
        for (&c, &l) in cnt.iter().zip(len) {
            size.tests = size.tests.saturating_add(c);
            size.symbols = size
                .symbols
                .saturating_add(l)
                .saturating_add(c.saturating_mul(per_identifier));
        }
    });
    size
}

/// A lower bound on the size of the H method's test tree ([`super::h_method::build_h`]) as its
/// costs count it (every word marked in the tree, the empty one excepted), known before the tree
/// is built.
///
/// The tree marks every word of `S = {V(q)·w : |w| <= E + 1}` (the access sequences, then every
/// word of 1 to `E + 1` inputs after each). Because `V` is prefix-closed, each `u ∈ S` splits
/// uniquely as `p·x` with `p` its longest prefix in `V`, so `x` is empty or starts with an input
/// outside the spanning tree, `|x| <= E + 1`; conversely every such canonical `(p, x)` is in `S`.
/// So the marked words number at least the canonical `(p, x)` (less the empty word, the root,
/// which is never counted), and their lengths sum to at least those of the `p·x`: the counts of
/// [`for_each_middle_length`], with no identifier after them.
pub fn least_h_tree(m: &Mealy, access: &AccessTree, extra: usize) -> SuiteSize {
    let mut size = SuiteSize::default();
    for_each_middle_length(m, access, extra, |_, cnt, len| {
        for (&c, &l) in cnt.iter().zip(len) {
            size.tests = size.tests.saturating_add(c);
            size.symbols = size.symbols.saturating_add(l);
        }
    });
    size.tests = size.tests.saturating_sub(1);
    size
}

/// Lower bounds on a SPY or SPYH test tree ([`super::spy::build_spy`],
/// [`super::spyh::build_spyh`]) for any number of extra states, known before the tree is built:
/// the size as its costs count it (marked words other than the root, and their total length),
/// and its node count, the root included.
///
/// Both trees hold `V` (each access sequence marked) and, for every transition `(s, a)` outside
/// the spanning tree, a node `u·a` with `u` a node reaching `s` in the specification (SPY places
/// `a·h` after a trace convergent with `s`; SPYH gives the class of `V(s)`, whose members all
/// reach `s`, a successor under `a`). These *transition nodes* are pairwise distinct (`u·a = u'·a'`
/// gives `u = u'`, so one state and one input) and none is in `V` (else `u`, a prefix, is in `V`
/// and reaches `s`, so `u = V(s)` and `a` is the spanning-tree input of `s`). So the tree has
/// at least `n + T` nodes, `T` the transitions outside the spanning tree. Every leaf is marked
/// (words are only added by inserting them whole), so below each transition node lies a marked
/// word outside `V`: at least `n - 1` marked words (`V` without the root) and one more when
/// `T > 0`. The total length of the marked words is `Σ_v m(v)` over the non-root nodes `v`, `m(v)`
/// the marked words in the subtree of `v`: at least the access sequences below `v` for `v ∈ V`,
/// which sums to `Σ_q |V(q)|`, and at least 1 for each transition node.
pub fn least_shared_tree(m: &Mealy, access: &AccessTree) -> (SuiteSize, u64) {
    let n = access.bfs_order().len() as u64;
    let mut outside = 0u64;
    let mut access_symbols = 0u64;
    for &s in access.bfs_order() {
        access_symbols = access_symbols.saturating_add(access.depth(s).expect("reachable") as u64);
        for a in m.input_ids() {
            outside += u64::from(access.tree_child(s, a).is_none());
        }
    }
    let size = SuiteSize {
        tests: n.saturating_sub(1) + u64::from(outside > 0),
        symbols: access_symbols.saturating_add(outside),
    };
    (size, n.saturating_add(outside))
}

/// Per state `t`: how many canonical `(p, x)` (middles up to `E + 1` inputs) reach `t`, and their
/// total length: the weight of `t`'s identifier in the suite.
pub fn state_weights(m: &Mealy, access: &AccessTree, extra: usize) -> Vec<(f64, f64)> {
    let n = m.num_states();
    let mut cnt = vec![0f64; n];
    let mut len = vec![0f64; n];
    for &s in access.bfs_order() {
        cnt[s.index()] = 1.0;
        len[s.index()] = access.depth(s).expect("reachable") as f64;
    }
    let mut total: Vec<(f64, f64)> = cnt.iter().zip(&len).map(|(&c, &l)| (c, l)).collect();
    for j in 1..=extra + 1 {
        let mut c2 = vec![0f64; n];
        let mut l2 = vec![0f64; n];
        for s in m.states() {
            let (c, l) = (cnt[s.index()], len[s.index()]);
            if c == 0.0 {
                continue;
            }
            for a in m.input_ids() {
                if j == 1 && access.tree_child(s, a).is_some() {
                    continue;
                }
                let (t, _) = m.step(s, a).expect("complete");
                c2[t.index()] += c;
                l2[t.index()] += l + c;
            }
        }
        cnt = c2;
        len = l2;
        for t in 0..n {
            total[t].0 += cnt[t];
            total[t].1 += len[t];
        }
    }
    total
}
