//! A stable least-significant-digit radix sort of 128-bit entries by their upper 96 bits, for
//! the response tables of the adaptive identifiers ([`super::family`]).
//!
//! Evaluating a candidate splitting word sorts one entry per distinct state, `outputs·2⁶⁴ +
//! end·2³² + index`, built in increasing index order. In a profile of the 400k-state doubling row of
//! the `mealy` bench these sorts took about a fifth of the samples, and a comparison sort's log
//! factor makes that share grow with the machine. Because the entries come in increasing order of their low 32 bits, a stable sort by
//! the upper 96 bits gives exactly the increasing order of the whole entries, and a radix sort
//! does it in a few linear passes: each pass sorts by the 11 bits from the lowest varying bit not
//! yet sorted by, so constant bits cost nothing (end states of a 400k-state machine need 19 bits,
//! the outputs of a word of length 8 over 3 outputs 13: four passes).
//!
//! Invariant: the result is the same permutation a stable comparison sort by `x >> 32` gives,
//! whatever the input order (see the tests).

/// Bits of one digit: a pass counts into 2¹¹ buckets (16 KiB of counts, in L1/L2 cache).
const DIGIT_BITS: u32 = 11;

/// Sorts `entries` stably by `x >> 32`, with `scratch` as the second buffer of the passes (its
/// contents are overwritten; kept by the caller so that repeated sorts allocate nothing).
pub(super) fn sort_by_upper_bits(entries: &mut Vec<u128>, scratch: &mut Vec<u128>) {
    let Some(&first) = entries.first() else {
        return;
    };
    // The bits (above the low 32) in which some entry differs from the first.
    let varying = entries.iter().fold(0u128, |acc, &x| acc | (x ^ first)) >> 32;
    if varying == 0 {
        return;
    }
    scratch.clear();
    scratch.resize(entries.len(), 0);
    let mut counts = vec![0usize; 1 << DIGIT_BITS];
    let mask = (1u128 << DIGIT_BITS) - 1;
    // Each pass sorts by the digit starting at the lowest varying bit not yet sorted by, so
    // runs of constant bits (between the end state and the outputs) cost no pass.
    let mut shift = 0;
    while varying >> shift != 0 {
        shift += (varying >> shift).trailing_zeros();
        let digit = |x: u128| (((x >> 32) >> shift) & mask) as usize;
        counts.fill(0);
        for &x in entries.iter() {
            counts[digit(x)] += 1;
        }
        let mut start = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = start;
            start += n;
        }
        for &x in entries.iter() {
            let d = digit(x);
            scratch[counts[d]] = x;
            counts[d] += 1;
        }
        std::mem::swap(entries, scratch);
        shift += DIGIT_BITS;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64 as Rng;

    fn check(entries: Vec<u128>) {
        let mut expected = entries.clone();
        expected.sort_by_key(|&x| x >> 32);
        let mut got = entries;
        let mut scratch = Vec::new();
        sort_by_upper_bits(&mut got, &mut scratch);
        assert_eq!(got, expected);
    }

    #[test]
    fn equals_a_stable_sort_by_the_upper_bits() {
        let mut rng = Rng::new(29);
        for round in 0..200 {
            let n = rng.below(3000);
            // Narrow and wide key and end ranges, so that digits are skipped and straddled.
            let key_range = [1u64, 3, 1 << 13, 1 << 40, u64::MAX][round % 5];
            let end_range = [1u64, 7, 1 << 19, 1 << 32][round % 4];
            let entries = (0..n)
                .map(|k| {
                    let key = u128::from(rng.next_u64() % key_range);
                    let end = u128::from(rng.next_u64() % end_range);
                    // Low bits in index order (as the responses build them) or arbitrary.
                    let low = if round % 3 == 0 {
                        u128::from(rng.next_u64() as u32)
                    } else {
                        k as u128
                    };
                    (key << 64) | (end << 32) | low
                })
                .collect();
            check(entries);
        }
    }

    #[test]
    fn entries_in_index_order_come_out_fully_sorted() {
        let mut rng = Rng::new(7);
        let entries: Vec<u128> = (0..10_000u128)
            .map(|k| ((rng.below(50) as u128) << 64) | ((rng.below(4000) as u128) << 32) | k)
            .collect();
        let mut full = entries.clone();
        full.sort_unstable();
        let mut got = entries;
        sort_by_upper_bits(&mut got, &mut Vec::new());
        assert_eq!(got, full);
    }

    #[test]
    fn empty_single_and_constant_tables() {
        check(Vec::new());
        check(vec![5]);
        check(vec![(3u128 << 64) | 2, (3u128 << 64) | 1]);
    }
}
