//! A Mealy suite's tests one at a time, for callers that run them as they come (the Python
//! package, equivalence oracles of automata learning) rather than write a file.
//!
//! - [`WordStream`]: the words of [`MealySuite::words`] in suite order, generated on a worker
//!   thread a bounded number of chunks ahead and owned by the caller (no borrow of the suite, so
//!   it can live in an object of another language), optionally only one shard, split by the same
//!   least-loaded rule as `generate --shard` ([`ShardPicker`], cost [`word_steps`]).
//! - [`ByLength`]: the same words in order of increasing length (then lexicographic), the order
//!   in which an equivalence oracle finds short counterexamples first. The stream is sorted
//!   lexicographically, not by length, so the words are taken in passes over the stream: a pass
//!   keeps the words of the shortest lengths not yet emitted, at most [`BY_LENGTH_BUFFER`] of them
//!   (a single length is always kept whole, so memory is bounded by the larger of the buffer and
//!   the words of one length), and the next pass starts at the first length it dropped.

use super::MealySuite;
use crate::model::LabelId;
use crate::suite::names::{Shard, ShardPicker};
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// The sharding cost of a Mealy test: an input and an output per symbol (as
/// [`crate::suite::TestCase::runs_and_steps`] counts its chain).
pub fn word_steps(word: &[LabelId]) -> u128 {
    2 * word.len() as u128
}

/// Chunks [`WordStream`]'s worker generates ahead of the consumer.
const CHUNKS_AHEAD: usize = 2;

/// The test words of a suite (or of one shard) in suite order, generated on a worker thread.
///
/// The worker ends when the stream is exhausted or dropped.
#[derive(Debug)]
pub struct WordStream {
    chunks: Receiver<Vec<Vec<LabelId>>>,
    ready: std::vec::IntoIter<Vec<LabelId>>,
}

impl WordStream {
    /// Starts generating the words of `suite`, only those of `shard` when given.
    pub fn spawn(suite: Arc<MealySuite>, shard: Option<Shard>) -> WordStream {
        let (sender, chunks) = sync_channel(CHUNKS_AHEAD);
        std::thread::spawn(move || generate_chunks(&suite, shard, &sender));
        WordStream {
            chunks,
            ready: Vec::new().into_iter(),
        }
    }
}

/// The worker of [`WordStream`]: sends chunks until the stream ends or the receiver is gone.
fn generate_chunks(
    suite: &MealySuite,
    shard: Option<Shard>,
    sender: &SyncSender<Vec<Vec<LabelId>>>,
) {
    let mut picker = shard.map(ShardPicker::new);
    let mut words = suite.words();
    loop {
        let mut chunk = words.next_chunk();
        if chunk.is_empty() {
            return;
        }
        if let Some(picker) = &mut picker {
            let index = picker.shard().index;
            chunk.retain(|word| picker.assign(word_steps(word)) == index);
        }
        if !chunk.is_empty() && sender.send(chunk).is_err() {
            return;
        }
    }
}

impl Iterator for WordStream {
    type Item = Vec<LabelId>;

    fn next(&mut self) -> Option<Vec<LabelId>> {
        loop {
            if let Some(word) = self.ready.next() {
                return Some(word);
            }
            self.ready = self.chunks.recv().ok()?.into_iter();
        }
    }
}

/// Most words [`ByLength`] holds from one pass, unless they all have one length.
pub const BY_LENGTH_BUFFER: usize = 1 << 18;

/// The test words of a suite in order of increasing length, ties in suite (lexicographic)
/// order; see the module doc for the passes it takes.
#[derive(Debug)]
pub struct ByLength<S> {
    suite: S,
    /// The shortest length not emitted yet; `None` once every length is.
    next_length: Option<usize>,
    buffer: usize,
    ready: std::vec::IntoIter<Vec<LabelId>>,
}

impl<S: Deref<Target = MealySuite>> ByLength<S> {
    /// The words of `suite` by length, holding at most [`BY_LENGTH_BUFFER`] words of a pass.
    pub fn new(suite: S) -> Self {
        ByLength::with_buffer(suite, BY_LENGTH_BUFFER)
    }

    /// [`ByLength::new`] holding at most `buffer` words of a pass (at least one length whole).
    pub fn with_buffer(suite: S, buffer: usize) -> Self {
        ByLength {
            suite,
            next_length: Some(0),
            buffer,
            ready: Vec::new().into_iter(),
        }
    }

    /// One pass over the suite: the words of the shortest lengths from `floor` on that fit the
    /// buffer, and the first length left for the next pass.
    fn pass(&self, floor: usize) -> (Vec<Vec<LabelId>>, Option<usize>) {
        let mut by_length: BTreeMap<usize, Vec<Vec<LabelId>>> = BTreeMap::new();
        let mut held = 0usize;
        let mut ceiling = usize::MAX;
        for word in self.suite.words() {
            let length = word.len();
            if length < floor || length > ceiling {
                continue;
            }
            by_length.entry(length).or_default().push(word);
            held += 1;
            while held > self.buffer && by_length.len() > 1 {
                let (longest, dropped) = by_length.pop_last().expect("two lengths held");
                held -= dropped.len();
                ceiling = longest - 1;
            }
        }
        let next = (ceiling != usize::MAX).then(|| ceiling + 1);
        (by_length.into_values().flatten().collect(), next)
    }
}

impl<S: Deref<Target = MealySuite>> Iterator for ByLength<S> {
    type Item = Vec<LabelId>;

    fn next(&mut self) -> Option<Vec<LabelId>> {
        loop {
            if let Some(word) = self.ready.next() {
                return Some(word);
            }
            let floor = self.next_length?;
            let (words, next) = self.pass(floor);
            self.next_length = next;
            self.ready = words.into_iter();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;
    use crate::suite::mealy::{MealyMethod, MealySuiteOptions};

    /// A 4-state counter with a reset input, so words of many lengths occur.
    fn counter_suite(method: MealyMethod, extra: usize) -> MealySuite {
        let machine = mealy_from_named(
            "counter",
            4,
            &[
                (0, "inc", "0", 1),
                (1, "inc", "0", 2),
                (2, "inc", "0", 3),
                (3, "inc", "1", 0),
                (0, "rst", "r", 0),
                (1, "rst", "r", 0),
                (2, "rst", "r", 0),
                (3, "rst", "x", 0),
            ],
        )
        .expect("valid machine");
        MealySuite::new(&machine, MealySuiteOptions::new(method, extra)).expect("suite")
    }

    #[test]
    fn word_stream_is_the_suite_in_order() {
        let suite = Arc::new(counter_suite(MealyMethod::Wp, 1));
        let expected: Vec<_> = suite.words().collect();
        assert!(expected.len() > 5);
        let streamed: Vec<_> = WordStream::spawn(Arc::clone(&suite), None).collect();
        assert_eq!(streamed, expected);
    }

    #[test]
    fn word_stream_shards_partition_the_suite() {
        let suite = Arc::new(counter_suite(MealyMethod::Hsi, 2));
        let all: Vec<_> = suite.words().collect();
        let mut together: Vec<_> = (1..=3)
            .flat_map(|index| {
                let shard = Shard { index, count: 3 };
                let part: Vec<_> = WordStream::spawn(Arc::clone(&suite), Some(shard)).collect();
                assert!(!part.is_empty() && part.len() < all.len());
                part
            })
            .collect();
        together.sort();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(together, sorted);
    }

    #[test]
    fn a_dropped_word_stream_stops_its_worker() {
        let suite = Arc::new(counter_suite(MealyMethod::W, 3));
        let mut stream = WordStream::spawn(suite, None);
        assert!(stream.next().is_some());
        drop(stream);
    }

    #[test]
    fn by_length_orders_every_word_by_length_with_any_buffer() {
        for (method, extra) in [
            (MealyMethod::Wp, 2),
            (MealyMethod::H, 1),
            (MealyMethod::Auto, 1),
        ] {
            let suite = counter_suite(method, extra);
            let mut expected: Vec<_> = suite.words().collect();
            expected.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            for buffer in [1, 3, 10, BY_LENGTH_BUFFER] {
                let ordered: Vec<_> = ByLength::with_buffer(&suite, buffer).collect();
                assert_eq!(ordered, expected, "{method:?} E={extra} buffer {buffer}");
            }
        }
    }

    #[test]
    fn a_small_buffer_takes_more_passes_and_holds_less() {
        let suite = counter_suite(MealyMethod::W, 2);
        let mut small = ByLength::with_buffer(&suite, 2);
        let (first, next) = small.pass(0);
        let shortest = first.iter().map(Vec::len).min().expect("words");
        // Only the shortest lengths are held when the buffer is exceeded.
        assert!(next.is_some());
        assert!(first.iter().all(|w| w.len() < next.unwrap()));
        assert!(first.iter().all(|w| w.len() >= shortest));
        assert!(small.next().is_some());
    }
}
