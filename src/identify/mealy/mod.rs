//! State identification for complete deterministic Mealy machines: shortest access sequences, the
//! splitting tree of minimal separating sequences (partition refinement, also used for
//! minimisation), the Lee–Yannakakis splitting tree with its adaptive distinguishing sequence, UIO
//! sequences (Goga Sec. 3.3), and the separating families (W, Wp, HSI, hybrid-ADS, UIO) that the
//! Mealy suite generators append after access sequences.

mod access;
mod ads;
mod family;
mod radix;
mod splitting;
mod uio;

pub use access::AccessTree;
pub use ads::{Ads, AdsNode, LySplittingTree};
pub use family::{AdaptiveConfig, Family, FamilyKind, HSI_ST_CONFIGS};
pub use splitting::{
    SplittingTree, longest_shortest_separating, minimize_mealy, minimize_mealy_with_tree,
};
pub use uio::{UioSet, uio_sequences};

/// The preorder numbers of a tree's nodes (root 0, children visited in their order, so siblings'
/// numbers increase): every subtree's nodes are one range of numbers. Returns the number of each
/// node and the node with each number.
fn preorder<'t>(num_nodes: usize, children: impl Fn(u32) -> &'t [u32]) -> (Vec<u32>, Vec<u32>) {
    let mut number = vec![0u32; num_nodes];
    let mut node_at = Vec::with_capacity(num_nodes);
    let mut stack = vec![0u32];
    while let Some(v) = stack.pop() {
        number[v as usize] = node_at.len() as u32;
        node_at.push(v);
        stack.extend(children(v).iter().rev());
    }
    (number, node_at)
}

/// Seeded pseudo-random machines for tests.
#[cfg(test)]
pub(crate) mod tests_support {
    use crate::model::{Mealy, mealy_from_named};

    /// SplitMix64.
    pub(crate) struct Rng(pub u64);

    impl Rng {
        pub(crate) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A random complete machine with `n` states, `k` inputs `i0..` and `o` outputs `o0..`.
    pub(crate) fn random_mealy(seed: u64, n: usize, k: usize, o: usize) -> Mealy {
        let mut rng = Rng(seed);
        let names_i: Vec<String> = (0..k).map(|i| format!("i{i}")).collect();
        let names_o: Vec<String> = (0..o).map(|i| format!("o{i}")).collect();
        let mut edges = Vec::new();
        for s in 0..n as u32 {
            for i in &names_i {
                let t = rng.below(n as u64) as u32;
                let out = &names_o[rng.below(o as u64) as usize];
                edges.push((s, i.as_str(), out.as_str(), t));
            }
        }
        mealy_from_named("r", n, &edges).expect("valid random machine")
    }

    /// `models/lee_yannakakis_distinguishable.dot` (s1..s6 as 0..5): has an ADS.
    pub(crate) fn ly_distinguishable() -> Mealy {
        let mut edges = Vec::new();
        for s in 0..6u32 {
            let a_out = if s % 2 == 0 { "0" } else { "1" };
            edges.push((s, "a", a_out, (s + 1) % 6));
            edges.push((s, "b", "0", if s == 0 { 0 } else { (s + 1) % 6 }));
        }
        mealy_from_named("distinguishable", 6, &edges).expect("valid")
    }

    /// `models/lee_yannakakis_non_distinguishable.dot` (s1..s3 as 0..2): has no ADS.
    pub(crate) fn ly_non_distinguishable() -> Mealy {
        mealy_from_named(
            "non_distinguishable",
            3,
            &[
                (0, "a", "0", 0),
                (1, "a", "0", 0),
                (2, "a", "1", 2),
                (0, "b", "0", 2),
                (1, "b", "1", 1),
                (2, "b", "1", 1),
            ],
        )
        .expect("valid")
    }
}
