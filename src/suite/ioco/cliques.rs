//! The maximal (or one largest) cliques of a graph: Bron–Kerbosch with pivoting over bitsets,
//! bounded in steps and in cliques found; `ioco-counting` takes its sets of pairwise
//! incompatible states from them.

use super::error::IocoSuiteError;

/// Most recursive steps of the clique search.
const CLIQUE_STEPS: usize = 1_000_000;
/// Most maximal sets the plan keeps counts for.
const MAX_SETS: usize = 4096;

/// Bron–Kerbosch with pivoting on an adjacency given as bitsets over `0..m`.
struct CliqueSearch<'a> {
    adjacent: &'a [Vec<u64>],
    steps: usize,
    largest_only: bool,
    found: Vec<Vec<usize>>,
}

fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| {
        (0..64)
            .filter(move |b| bits >> b & 1 == 1)
            .map(move |b| w * 64 + b)
    })
}

fn meet(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn size(set: &[u64]) -> usize {
    set.iter().map(|w| w.count_ones() as usize).sum()
}

impl CliqueSearch<'_> {
    /// Extends clique `r` by vertices of `p` (candidates), `x` the vertices already tried.
    fn expand(&mut self, r: &mut Vec<usize>, mut p: Vec<u64>, mut x: Vec<u64>) -> Result<(), ()> {
        self.steps += 1;
        if self.steps > CLIQUE_STEPS {
            return Err(());
        }
        let candidates = size(&p);
        if candidates == 0 {
            if size(&x) == 0 {
                if !self.largest_only {
                    self.found.push(r.clone());
                    if self.found.len() > MAX_SETS {
                        return Err(());
                    }
                } else if self.found.first().is_none_or(|best| r.len() > best.len()) {
                    self.found = vec![r.clone()];
                }
            }
            return Ok(());
        }
        if self.largest_only
            && self
                .found
                .first()
                .is_some_and(|best| r.len() + candidates <= best.len())
        {
            return Ok(());
        }
        // The pivot has the most candidates as neighbours (the first such vertex on ties).
        let pivot = members(&p)
            .chain(members(&x))
            .max_by_key(|&u| (size(&meet(&p, &self.adjacent[u])), std::cmp::Reverse(u)))
            .expect("p is not empty");
        let branch: Vec<usize> = members(&p)
            .filter(|&v| self.adjacent[pivot][v / 64] >> (v % 64) & 1 == 0)
            .collect();
        for v in branch {
            r.push(v);
            let next_p = meet(&p, &self.adjacent[v]);
            let next_x = meet(&x, &self.adjacent[v]);
            self.expand(r, next_p, next_x)?;
            r.pop();
            p[v / 64] &= !(1 << (v % 64));
            x[v / 64] |= 1 << (v % 64);
        }
        Ok(())
    }
}

/// The maximal cliques (or, with `largest_only`, the first largest one in the same order) of
/// the graph on `0..m` whose adjacency rows are bitsets, each clique in vertex order, the list
/// sorted; fails once the search takes more than [`CLIQUE_STEPS`] steps or finds more than
/// [`MAX_SETS`] cliques.
pub(super) fn cliques(
    adjacent: &[Vec<u64>],
    largest_only: bool,
) -> Result<Vec<Vec<usize>>, IocoSuiteError> {
    let m = adjacent.len();
    let words = m.div_ceil(64);
    let mut all = vec![0u64; words];
    for j in 0..m {
        all[j / 64] |= 1 << (j % 64);
    }
    let mut search = CliqueSearch {
        adjacent,
        steps: 0,
        largest_only,
        found: Vec::new(),
    };
    let what = if largest_only {
        "a largest"
    } else {
        "the maximal"
    };
    if search
        .expand(&mut Vec::new(), all, vec![0u64; words])
        .is_err()
    {
        let (what, budget) = if search.steps > CLIQUE_STEPS {
            (
                format!(
                    "the search for {what} sets of pairwise incompatible states takes more \
                     steps than that, which"
                ),
                CLIQUE_STEPS,
            )
        } else {
            (
                "the number of maximal sets of pairwise incompatible states".to_owned(),
                MAX_SETS,
            )
        };
        return Err(IocoSuiteError::Budget {
            what,
            budget: budget as u128,
            advice: "use --incompatible-sets largest or none".into(),
        });
    }
    let mut found = search.found;
    for c in &mut found {
        c.sort_unstable();
    }
    found.sort();
    Ok(found)
}
