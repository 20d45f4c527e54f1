//! Hash maps of two kinds: [`FastMap`] for keys that come from our own explorations (state
//! sets, product states, game positions), and [`NameMap`] for keys whoever wrote the model file
//! chose (node names, labels, the edges of a parsed file).
//!
//! [`FastMap`] is a multiply-rotate hash of the kind of rustc's `FxHasher`: SipHash, the
//! standard library's default, took about a fifth of `distinguish`'s time on game positions and
//! the largest share of `check --desired-file` on long expressions (`perf record`). It is
//! unkeyed and weak in its low bits, which pick the bucket: names that differ only in their
//! later bytes (`s0`..`s399999`) fall into a few hundred buckets, and names can be chosen so
//! that all fall into one; the DOT parser keyed node names by it and became quadratic (issue
//! 44). So user-chosen keys go into [`NameMap`]: the standard library's SipHash-1-3 under a
//! random key per map, which neither sequential nor crafted keys can degrade.
//!
//! Only lookups may use these maps, never their iteration order (and a [`NameMap`]'s order
//! changes from run to run): output must not depend on hashing.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher, RandomState};

/// The hasher: one rotate, xor and multiply per machine word.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The build hasher of [`FastHasher`].
pub type FastBuild = BuildHasherDefault<FastHasher>;

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;

/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, FastBuild>;

/// A `HashMap` for keys taken from user input: SipHash-1-3 with a random key (the standard
/// library's [`RandomState`]), so no choice of keys makes lookups slow.
pub type NameMap<K, V> = HashMap<K, V, RandomState>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(t: &T) -> u64 {
        FastBuild::default().hash_one(t)
    }

    #[test]
    fn equal_keys_hash_equal_and_neighbours_differ() {
        assert_eq!(hash(&vec![1u32, 2, 3]), hash(&vec![1u32, 2, 3]));
        assert_ne!(hash(&vec![1u32, 2, 3]), hash(&vec![1u32, 3, 2]));
        assert_ne!(hash(&(1u32, 2u32)), hash(&(2u32, 1u32)));
        let distinct: FastSet<u64> = (0u32..10_000).map(|k| hash(&k)).collect();
        assert_eq!(distinct.len(), 10_000);
    }
}
