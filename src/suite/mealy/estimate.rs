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
