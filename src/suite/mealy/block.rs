//! Test words stored flat: a [`WordBlock`] holds the words of one generation unit (or of a
//! slice of a test tree) in one symbol buffer, so that generating, pruning, rendering and dropping
//! tens of millions of words costs a few allocations per block rather than one or two per word,
//! and no thread frees memory word by word that another thread allocated.

use crate::model::LabelId;

/// Words in order, stored back to back: word `k` is `symbols[spans[k].0..spans[k].1]`.
/// Removing words ([`WordBlock::retain`]) keeps their symbols, only their spans go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordBlock {
    symbols: Vec<LabelId>,
    spans: Vec<(usize, usize)>,
}

impl WordBlock {
    /// An empty block.
    pub fn new() -> Self {
        WordBlock::default()
    }

    /// The number of words.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// Whether the block holds no word.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Word `k`.
    pub fn word(&self, k: usize) -> &[LabelId] {
        let (start, end) = self.spans[k];
        &self.symbols[start..end]
    }

    /// The first word, if any.
    pub fn first(&self) -> Option<&[LabelId]> {
        (!self.is_empty()).then(|| self.word(0))
    }

    /// The last word, if any.
    pub fn last(&self) -> Option<&[LabelId]> {
        (!self.is_empty()).then(|| self.word(self.len() - 1))
    }

    /// The words in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[LabelId]> + '_ {
        self.spans
            .iter()
            .map(|&(start, end)| &self.symbols[start..end])
    }

    /// Reserves room for `words` more words of `symbols` symbols in all.
    pub fn reserve(&mut self, words: usize, symbols: usize) {
        self.spans.reserve(words);
        self.symbols.reserve(symbols);
    }

    /// The number of symbols of the words, including those of removed words.
    pub fn stored_symbols(&self) -> usize {
        self.symbols.len()
    }

    /// Appends the word made of `parts` one after the other.
    pub fn push_parts(&mut self, parts: &[&[LabelId]]) {
        let start = self.symbols.len();
        for part in parts {
            self.symbols.extend_from_slice(part);
        }
        self.spans.push((start, self.symbols.len()));
    }

    /// Appends `word`.
    pub fn push(&mut self, word: &[LabelId]) {
        self.push_parts(&[word]);
    }

    /// Keeps the words for which `keep` (given each word and its position) holds.
    pub fn retain(&mut self, mut keep: impl FnMut(usize, &[LabelId]) -> bool) {
        let symbols = &self.symbols;
        let mut k = 0;
        self.spans.retain(|&(start, end)| {
            let kept = keep(k, &symbols[start..end]);
            k += 1;
            kept
        });
    }

    /// Sorts the words and removes repeated ones.
    pub fn sort_dedup(&mut self) {
        let symbols = &self.symbols;
        let word = |&(start, end): &(usize, usize)| &symbols[start..end];
        self.spans.sort_unstable_by(|a, b| word(a).cmp(word(b)));
        self.spans.dedup_by(|a, b| word(a) == word(b));
    }

    /// Removes and returns the last word.
    pub fn pop(&mut self) -> Option<Vec<LabelId>> {
        let (start, end) = self.spans.pop()?;
        Some(self.symbols[start..end].to_vec())
    }

    /// The words as vectors.
    pub fn to_vecs(&self) -> Vec<Vec<LabelId>> {
        self.iter().map(<[LabelId]>::to_vec).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(ids: &[u32]) -> Vec<LabelId> {
        ids.iter().map(|&i| LabelId(i)).collect()
    }

    #[test]
    fn blocks_sort_dedup_retain_and_pop_their_words() {
        let mut block = WordBlock::new();
        block.push(&w(&[2, 1]));
        block.push_parts(&[&w(&[1]), &w(&[0, 3])]);
        block.push(&w(&[2, 1]));
        block.push(&[]);
        assert_eq!(block.len(), 4);
        block.sort_dedup();
        assert_eq!(block.to_vecs(), vec![w(&[]), w(&[1, 0, 3]), w(&[2, 1])]);
        block.retain(|k, word| k != 1 && word.len() < 3);
        assert_eq!(block.to_vecs(), vec![w(&[]), w(&[2, 1])]);
        assert_eq!(block.first(), Some(&[][..]));
        assert_eq!(block.pop(), Some(w(&[2, 1])));
        assert_eq!(block.pop(), Some(w(&[])));
        assert_eq!(block.pop(), None);
        assert!(block.is_empty());
    }
}
