//! A Mealy suite ([`MealySuite`]) as built: its machine, access sequences, identifier family
//! or test tree; what it guarantees and costs, its header, and its test words streamed in
//! lexicographic order in parallel batches ([`SuiteWords`]).

use super::block::WordBlock;
use super::estimate::{self, SuiteSize};
use super::h_method;
use super::least::{LeastCosts, chain_costs, json_string_len};
use super::options::{MealyMethod, SuiteStats, TreeMethod};
use crate::identify::mealy::{AccessTree, Family, FamilyKind};
use crate::model::{LabelId, Mealy, StateId};
use crate::suite::costs::Figure;
use crate::suite::{SuiteHeader, SuiteModel, TestCase};
use rayon::prelude::*;

/// A Mealy test suite, ready to be streamed.
#[derive(Clone, Debug)]
pub struct MealySuite {
    pub(super) spec: Mealy,
    pub(super) access: AccessTree,
    pub(super) family: Family,
    /// The test tree of a tree-built method (H, SPY); `None` for the identifier-family methods.
    pub(super) tree: Option<(TreeMethod, h_method::TestTree)>,
    pub(super) method: MealyMethod,
    pub(super) extra: usize,
    pub(super) prune: bool,
}

impl MealySuite {
    /// The lower bounds of this suite's costs and of the other methods' on its machine
    /// ([`least_costs`](super::least_costs)), as the precheck of [`MealySuite::new_within`] saw
    /// them.
    pub fn least_costs(&self) -> LeastCosts<'_> {
        LeastCosts {
            min: &self.spec,
            access: &self.access,
            method: self.method,
            extra: self.extra,
            json: None,
        }
    }

    /// The minimised specification the suite tests against.
    pub fn spec(&self) -> &Mealy {
        &self.spec
    }

    /// The identifier family in use (for `auto`, the one chosen; for a tree-built suite, see
    /// [`MealySuite::identifiers`], the pairwise family its separating words come from).
    pub fn family(&self) -> &Family {
        &self.family
    }

    /// The name of the identifiers used: the family's, or `h` for a suite built as an H tree.
    pub fn identifiers(&self) -> &'static str {
        match self.tree {
            Some((TreeMethod::H, _)) => "h",
            Some((TreeMethod::Spy, _)) => "spy",
            Some((TreeMethod::Spyh, _)) => "spyh",
            None => self.family.kind().name(),
        }
    }

    /// The bound `N` on implementation states the guarantee refers to.
    pub fn bound(&self) -> usize {
        self.spec.num_states() + self.extra
    }

    /// The size of the suite before duplicate and prefix removal, computed without generating it.
    pub fn size_before_pruning(&self) -> SuiteSize {
        if let Some((_, tree)) = &self.tree {
            let (tests, symbols, _) = tree.size(false);
            return SuiteSize { symbols, tests };
        }
        estimate::suite_size(&self.spec, &self.access, &self.family, self.extra)
    }

    /// Upper bounds on the cost figures of the suite ([`crate::suite::costs`]), counted before
    /// prefix and duplicate removal without generating it: every test is a send/expect chain, so
    /// it has one run, two steps and two nodes per input. Bytes are bounded for the suite JSON
    /// (`json`) or the words format.
    pub fn costs(&self, json: bool) -> crate::suite::costs::SuiteCosts {
        use crate::suite::costs::frame_bytes;
        // One walk over a tree gives its size and its longest test.
        let (size, longest_test) = match &self.tree {
            Some((_, tree)) => {
                let (tests, symbols, longest) = tree.size(false);
                (SuiteSize { symbols, tests }, longest)
            }
            None => (self.size_before_pruning(), self.longest_bound()),
        };
        let (tests, symbols) = (size.tests as u128, size.symbols as u128);
        let saturated = size.tests == u64::MAX || size.symbols == u64::MAX;
        let bound = |x: u128| {
            if saturated {
                Figure::MoreThan(u128::MAX)
            } else {
                Figure::AtMost(x)
            }
        };
        let longest = 2 * longest_test as u128;
        let quoted =
            |names: &[String]| names.iter().map(|n| json_string_len(n)).max().unwrap_or(2) as u128;
        let (qi, qo) = (
            quoted(self.spec.inputs.names()),
            quoted(self.spec.outputs.names()),
        );
        let bytes = if json {
            // Per input: {"send":I,"then":R,"race":{}} and {"expect":{O:R}} with commas; a
            // reference is a node index below `longest` or "pass".
            let reference = (longest.max(1).ilog10() as u128 + 1).max(6);
            // The name is the word (`crate::suite::names::word_name`) as a JSON string: per
            // input its token escaped and a space; the quotes, or the 6 bytes of the empty word.
            let name_per_symbol = self
                .spec
                .inputs
                .names()
                .iter()
                .map(|n| json_string_len(&crate::suite::names::word_token(n)) - 1)
                .max()
                .unwrap_or(1) as u128;
            let per_symbol = 27 + qi + 14 + qo + 2 * reference + 2 + name_per_symbol;
            let per_test = 4 + 8 + 6 + 19 + 2;
            frame_bytes(&self.header()) + tests * per_test + symbols * per_symbol
        } else {
            // One line per test, inputs (quoted when odd) separated by spaces; the header lines
            // (model name and guarantee escaped to one line, at most 4 bytes per byte) and the
            // end marker.
            let frame = 160
                + 4 * (self.spec.name.len() + self.guarantee().len()) as u128
                + self.header().method.len() as u128;
            frame + tests + symbols * (qi + 1)
        };
        chain_costs(tests, symbols, bound, Figure::AtMost(longest), bound(bytes))
    }

    /// An upper bound on the inputs of one test of a family suite.
    fn longest_bound(&self) -> usize {
        let mut word_max = 0;
        for s in self.spec.states() {
            for j in 0..=self.extra + 1 {
                for &h in self.family.suffixes(s, j, self.extra) {
                    word_max = word_max.max(self.family.word(h).len());
                }
            }
        }
        let depth = self
            .access
            .bfs_order()
            .iter()
            .filter_map(|&s| self.access.depth(s))
            .max()
            .unwrap_or(0);
        depth + self.extra + 1 + word_max
    }

    /// Exactly what the suite guarantees.
    pub fn guarantee(&self) -> String {
        let n = self.bound();
        let complete = format!(
            "m-complete: detects every implementation with at most {n} states that is not equivalent to the specification ({} states after minimisation + {} extra; deterministic implementations over the same inputs with a reliable reset)",
            self.spec.num_states(),
            self.extra
        );
        if let Some((TreeMethod::Spy, _)) = self.tree {
            let traversal = if self.extra == 0 {
                String::new()
            } else {
                format!(
                    " and every input word of up to {} inputs after it (and after the target) with the harmonised identifier of the state reached",
                    self.extra
                )
            };
            return format!(
                "{complete}; SPY method (Simão, Petrenko, Yevtushenko): every access sequence is followed by its state's harmonised identifier, and each transition not in the spanning tree is taken{traversal} after some trace whose transitions are all verified"
            );
        }
        if let Some((TreeMethod::Spyh, _)) = self.tree {
            return format!(
                "{complete}; SPYH method (Soucha, Bogdanov): convergence classes of traces (access sequences, and transitions merged into their targets once verified), every two access-sequence classes separated, and for every transition outside the spanning tree its class and the target's, extended by up to {} inputs, separated from every access-sequence class and from each other along the way, by separating sequences chosen per pair where they add the fewest inputs",
                self.extra
            );
        }
        if self.tree.is_some() {
            return format!(
                "{complete}; H method: every two traces of the state cover, every trace of the state cover with every access sequence extended by 1 to {} inputs, and every such extension with its shorter ones are followed by a common sequence that separates their states (Dorofeeva et al.)",
                self.extra + 1
            );
        }
        match self.family.kind() {
            FamilyKind::Uio => {
                let missing = self.family.states_without_uio();
                let fallback = if missing > 0 {
                    format!(
                        "; {missing} states have no UIO sequence and are checked with their splitting-tree identifiers"
                    )
                } else {
                    String::new()
                };
                format!(
                    "not complete: checks the output of every transition (after middle parts of up to {} inputs) and that its target shows the target's UIO sequence, but a faulty implementation in which a UIO sequence is not unique can pass (Goga Sec. 3.3){fallback}",
                    self.extra + 1
                )
            }
            FamilyKind::Uiov => {
                let missing = self.family.states_without_uio();
                let note = if missing > 0 {
                    format!(
                        "; {missing} states have no UIO sequence and use their splitting-tree identifiers, which keeps the Wp argument valid"
                    )
                } else {
                    String::new()
                };
                format!(
                    "{complete}; UIOv under its assumptions (specification minimal and connected, ensured by minimisation and reachability; implementation within the bound), generated as a Wp suite whose characterisation set is the UIO sequences (Goga Sec. 3.3){note}"
                )
            }
            _ => complete,
        }
    }

    /// The model description of the suite file.
    pub fn suite_model(&self) -> SuiteModel {
        SuiteModel {
            name: self.spec.name.clone(),
            inputs: self.spec.inputs.names().to_vec(),
            outputs: self.spec.outputs.names().to_vec(),
            quiescence: None,
        }
    }

    /// The header of the suite file.
    pub fn header(&self) -> SuiteHeader {
        let mut extra = serde_json::Map::new();
        extra.insert("extra_states".into(), self.extra.into());
        extra.insert("identifiers".into(), self.identifiers().into());
        extra.insert("prune_prefixes".into(), self.prune.into());
        SuiteHeader {
            model: self.suite_model(),
            method: self.method.name().to_owned(),
            n: Some(self.bound()),
            guarantee: self.guarantee(),
            extra,
        }
    }

    /// The test case (a send/expect chain with the specification's outputs) of a word, named by
    /// the word (see [`crate::suite::names`]).
    pub fn test_case(&self, word: &[LabelId]) -> TestCase {
        let outs = self.spec.run(self.spec.initial(), word);
        let steps: Vec<(LabelId, LabelId)> = word.iter().copied().zip(outs).collect();
        TestCase::chain(
            crate::suite::names::word_name(self.spec.inputs.names(), word),
            &steps,
        )
    }

    /// The tests as input words, in lexicographic order.
    pub fn words(&self) -> SuiteWords<'_> {
        SuiteWords {
            suite: self,
            tree_words: self.tree.as_ref().map(|(_, t)| t.words(self.prune)),
            cursor: UnitCursor::new(self),
            ready: Vec::new().into_iter(),
            held: None,
            chunk: WORD_CHUNK,
            planned: 0,
            lag: 0,
            made: std::collections::VecDeque::new(),
            settled: 0,
        }
    }

    /// Streams every test word to `sink` and returns the statistics.
    pub fn stream<E>(
        &self,
        mut sink: impl FnMut(&[LabelId]) -> Result<(), E>,
    ) -> Result<SuiteStats, E> {
        let mut stats = SuiteStats::default();
        for w in self.words() {
            stats.add(&w);
            sink(&w)?;
        }
        Ok(stats)
    }

    /// Appends `x·h` for every identifier word `h` of `t` (or `x` alone if there is none), then
    /// recurses into the extensions of `x` while it is at most `E` long.
    fn middles(&self, x: &mut Vec<LabelId>, t: StateId, rel: &mut WordBlock) {
        let sufs = self.family.suffixes(t, x.len(), self.extra);
        if sufs.is_empty() {
            rel.push(x);
        }
        for &h in sufs {
            rel.push_parts(&[x, self.family.word(h)]);
        }
        if x.len() <= self.extra {
            for i in self.spec.input_ids() {
                let (t2, _) = self.spec.step(t, i).expect("complete");
                x.push(i);
                self.middles(x, t2, rel);
                x.pop();
            }
        }
    }

    /// Words of one unit: every word starting with `access(state)·first` (or, for `first =
    /// None`, the bare access sequence), sorted, duplicates removed, and, when pruning, without
    /// the words (but the last) that the word after them extends ([`UnitWords`]).
    fn unit_words(&self, unit: &Unit) -> UnitWords {
        let prefix = self
            .access
            .access(unit.state)
            .expect("units are at reachable states");
        let mut rel = WordBlock::new();
        for w in &unit.inherited {
            rel.push(w);
        }
        if let Some(a) = unit.first {
            for &h in self.family.suffixes(unit.state, 0, self.extra) {
                let w = self.family.word(h);
                if w.first() == Some(&a) {
                    rel.push(w);
                }
            }
            // Middle parts a·y with |y| <= E, enumerated depth first.
            let t = self.spec.step(unit.state, a).expect("complete").0;
            self.middles(&mut vec![a], t, &mut rel);
        }
        rel.sort_dedup();
        let generated = rel.len();
        let first_len = rel.first().map_or(0, |r| prefix.len() + r.len());
        // The unit's words are `prefix·r` in the order of the sorted, distinct `r`: the word
        // after one is never equal to it, and extends it exactly when its `r` extends this `r`.
        let pruned =
            |k: usize| self.prune && k + 1 < rel.len() && rel.word(k + 1).starts_with(rel.word(k));
        let kept: Vec<usize> = (0..rel.len()).filter(|&k| !pruned(k)).collect();
        let symbols = kept.iter().map(|&k| prefix.len() + rel.word(k).len()).sum();
        let mut words = WordBlock::new();
        words.reserve(kept.len(), symbols);
        for k in kept {
            words.push_parts(&[&prefix, rel.word(k)]);
        }
        UnitWords {
            words,
            generated,
            first_len,
        }
    }
}

/// The words of a unit as [`MealySuite::unit_words`] makes them: the words no word of the same
/// unit removes (a word is dropped when the word after it in the stream is equal to it or, when
/// pruning, extends it; the unit's words are distinct, so within the unit only extensions
/// remove words, and the last word, whose successor is in a later unit, is always kept).
struct UnitWords {
    words: WordBlock,
    /// The number of words generated before any was removed.
    generated: usize,
    /// The length of the unit's first generated word. A removed word is a prefix of the word
    /// after it, so the first generated word is the first kept word cut to this length.
    first_len: usize,
}

/// A slice of the lexicographic stream: the words starting with `access(state)·first`.
#[derive(Clone, Debug)]
struct Unit {
    state: StateId,
    first: Option<LabelId>,
    /// Words relative to `access(state)` handed down from ancestors (identifier words after
    /// shorter access sequences that continue along the spanning tree).
    inherited: Vec<Vec<LabelId>>,
}

/// Walks the spanning tree depth first, yielding units in lexicographic order.
#[derive(Debug)]
struct UnitCursor {
    /// (state, inherited words relative to it, next input to consider; `None` before the bare
    /// access-sequence unit).
    stack: Vec<(StateId, Vec<Vec<LabelId>>, Option<usize>)>,
}

impl UnitCursor {
    fn new(suite: &MealySuite) -> Self {
        UnitCursor {
            stack: vec![(suite.spec.initial(), Vec::new(), None)],
        }
    }

    fn next(&mut self, suite: &MealySuite) -> Option<Unit> {
        let k = suite.spec.num_inputs();
        loop {
            let (state, inherited, pos) = self.stack.last_mut()?;
            let state = *state;
            let Some(a) = *pos else {
                *pos = Some(0);
                if inherited.iter().any(Vec::is_empty) {
                    return Some(Unit {
                        state,
                        first: None,
                        inherited: vec![Vec::new()],
                    });
                }
                continue;
            };
            if a >= k {
                self.stack.pop();
                continue;
            }
            *pos = Some(a + 1);
            let a = LabelId(a as u32);
            let mut handed: Vec<Vec<LabelId>> = inherited
                .iter()
                .filter(|w| w.first() == Some(&a))
                .cloned()
                .collect();
            match suite.access.tree_child(state, a) {
                Some(child) => {
                    for &h in suite.family.suffixes(state, 0, suite.extra) {
                        let w = suite.family.word(h);
                        if w.first() == Some(&a) {
                            handed.push(w.to_vec());
                        }
                    }
                    let down = handed.into_iter().map(|w| w[1..].to_vec()).collect();
                    self.stack.push((child, down, None));
                }
                None => {
                    return Some(Unit {
                        state,
                        first: Some(a),
                        inherited: handed,
                    });
                }
            }
        }
    }
}

/// Number of units generated in parallel per batch (at most; fewer when the chunk is smaller,
/// or when units make many words: [`SuiteWords::batch_units`]).
const BATCH_UNITS: usize = 2048;

/// Units of the first batch, before the words per unit are known.
const BATCH_UNITS_FIRST: usize = 64;

/// Units per batch at least (enough to share among the pool's threads).
const BATCH_UNITS_MIN: usize = 16;

/// Words [`SuiteWords::next_blocks`] returns at least per call, or the words of a tree-built
/// suite at most, unless set by [`SuiteWords::chunked`] (the words stream,
/// [`crate::render::words::write_mealy_suite_with`], plans batches of its own size instead).
pub const WORD_CHUNK: usize = 32768;

/// Words per block of a tree-built suite in [`SuiteWords::next_blocks`].
const TREE_BLOCK: usize = 256;

/// The test words of a suite in lexicographic order (an iterator; see [`MealySuite::words`]),
/// also taken a chunk at a time ([`SuiteWords::next_blocks`], [`SuiteWords::next_chunk`]) or
/// a batch at a time, in three steps a pipeline can spread over threads
/// ([`SuiteWords::plan`], [`PlannedBatch::generate`], [`SuiteWords::settle`]).
#[derive(Debug)]
pub struct SuiteWords<'a> {
    suite: &'a MealySuite,
    /// The words of a tree-built suite (already sorted and, when pruning, prefix-free).
    tree_words: Option<h_method::TreeWords<'a>>,
    cursor: UnitCursor,
    /// Words of the last chunk not yet returned by `next`.
    ready: std::vec::IntoIter<Vec<LabelId>>,
    /// The last word generated, kept or dropped by the word after it.
    held: Option<Vec<LabelId>>,
    /// The words per chunk ([`WORD_CHUNK`] unless set by [`SuiteWords::chunked`]).
    chunk: usize,
    /// Batches planned so far.
    planned: usize,
    /// Batches planned but not yet settled that a batch's size may not depend on (see
    /// [`SuiteWords::pipelined`]).
    lag: usize,
    /// Units and words (before filtering) generated in all batches settled so far, after
    /// each of the last `lag + 1` of them (the oldest first), to size the next batch.
    made: std::collections::VecDeque<(usize, usize)>,
    /// Batches settled so far.
    settled: usize,
}

/// A batch of the stream taken in order by [`SuiteWords::plan`]: units whose words are still
/// to be generated ([`PlannedBatch::generate`], on any thread), or words of a tree-built
/// suite, generated already.
#[derive(Debug)]
pub struct PlannedBatch<'a> {
    suite: &'a MealySuite,
    units: Vec<Unit>,
    tree_blocks: Vec<WordBlock>,
}

/// A batch generated ([`PlannedBatch::generate`]): a block per unit, filtered within the unit,
/// with the length of its first generated word; or tree-built words, final already.
#[derive(Debug)]
pub struct GeneratedBatch {
    blocks: Vec<(WordBlock, usize)>,
    /// The units generated and their words before filtering.
    units: usize,
    generated: usize,
}

impl PlannedBatch<'_> {
    /// The number of units planned (or, for a tree-built suite, of blocks of words).
    pub fn len(&self) -> usize {
        self.units.len() + self.tree_blocks.len()
    }

    /// Whether nothing is planned (never for a batch [`SuiteWords::plan`] returns).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The words of the batch's units, one after the other on the calling thread.
    pub fn generate(self) -> GeneratedBatch {
        let parts = self
            .units
            .iter()
            .map(|u| self.suite.unit_words(u))
            .collect();
        GeneratedBatch::new(parts, self.units.len(), self.tree_blocks)
    }

    /// [`PlannedBatch::generate`] with the units in parallel.
    fn generate_par(self) -> GeneratedBatch {
        let parts = self
            .units
            .par_iter()
            .map(|u| self.suite.unit_words(u))
            .collect();
        GeneratedBatch::new(parts, self.units.len(), self.tree_blocks)
    }
}

impl GeneratedBatch {
    fn new(parts: Vec<UnitWords>, units: usize, tree_blocks: Vec<WordBlock>) -> Self {
        let generated = parts.iter().map(|unit| unit.generated).sum();
        let mut blocks: Vec<(WordBlock, usize)> = parts
            .into_iter()
            .filter(|unit| !unit.words.is_empty())
            .map(|unit| (unit.words, unit.first_len))
            .collect();
        blocks.extend(tree_blocks.into_iter().map(|block| (block, 0)));
        GeneratedBatch {
            blocks,
            units,
            generated,
        }
    }
}

impl<'a> SuiteWords<'a> {
    /// The same stream taken in chunks of about `words` words (at least 1) rather than
    /// [`WORD_CHUNK`]: the words and their order do not change, only how many a call of
    /// [`SuiteWords::next_blocks`] returns (tests use small chunks to cross chunk boundaries
    /// often).
    pub fn chunked(mut self, words: usize) -> Self {
        self.chunk = words.max(1);
        self
    }

    /// The same stream for a pipeline that plans a batch while up to `lag` batches planned
    /// before it are not settled: the size of each batch then depends only on the batches at
    /// least `lag + 1` before it, so the batches do not depend on how the threads ran (the
    /// words never depend on the batches).
    pub fn pipelined(mut self, lag: usize) -> Self {
        self.lag = lag;
        self
    }

    /// How many units to generate for about `words` more words: the words a unit has made on
    /// average in the batches settled at least `lag + 1` batches before this one decide,
    /// within [`BATCH_UNITS_MIN`] and [`BATCH_UNITS`] (a unit of ESM at E=1 makes about 90
    /// words, so a fixed batch of 2,048 units made chunks of 180,000 words, several times the
    /// chunk's size and memory).
    fn batch_units(&self, words: usize) -> usize {
        let most = BATCH_UNITS.min(self.chunk);
        // The totals after batch `planned - lag - 1`, the last one that may count: `made`
        // holds the totals after each of the last batches settled, the newest last.
        let known = self.planned.checked_sub(self.lag + 1).and_then(|batch| {
            let settled_since = self.settled.checked_sub(batch + 1)?;
            let at = self.made.len().checked_sub(settled_since + 1)?;
            self.made.get(at).copied()
        });
        let Some((units_made, words_made)) = known.filter(|&(units, _)| units > 0) else {
            return BATCH_UNITS_FIRST.min(most);
        };
        let per_unit = words_made.div_ceil(units_made).max(1);
        words
            .div_ceil(per_unit)
            .clamp(BATCH_UNITS_MIN.min(most), most)
    }

    /// The next batch of the stream, of about `words` words (at least one unit or one word),
    /// or `None` at its end. Batches are settled ([`SuiteWords::settle`]) in the order they
    /// are planned, and at most `lag + 1` of them are planned and not settled at once
    /// ([`SuiteWords::pipelined`]).
    pub fn plan(&mut self, words: usize) -> Option<PlannedBatch<'a>> {
        let suite = self.suite;
        let mut batch = PlannedBatch {
            suite,
            units: Vec::new(),
            tree_blocks: Vec::new(),
        };
        if let Some(tree_words) = &mut self.tree_words {
            let mut taken = 0;
            while taken < words.max(1) {
                let mut block = WordBlock::new();
                for word in tree_words.by_ref().take(TREE_BLOCK) {
                    block.push(&word);
                }
                if block.is_empty() {
                    break;
                }
                taken += block.len();
                batch.tree_blocks.push(block);
            }
        } else {
            let units = self.batch_units(words);
            batch.units.reserve(units);
            while batch.units.len() < units {
                match self.cursor.next(suite) {
                    Some(u) => batch.units.push(u),
                    None => break,
                }
            }
        }
        if batch.units.is_empty() && batch.tree_blocks.is_empty() {
            return None;
        }
        self.planned += 1;
        Some(batch)
    }

    /// The words of the next batch in stream order that the stream keeps, in blocks of at
    /// least one word; `None` for the end of the stream (after the last batch). Whether a word
    /// is dropped depends only on the word generated after it (equal, or an extension when
    /// pruning): each unit filtered its own words as it made them, all but its last, and this
    /// pass over the unit boundaries settles the last words. The last word of the batch waits
    /// for the next batch's first, unless the stream has ended.
    pub fn settle(&mut self, batch: Option<GeneratedBatch>) -> Vec<WordBlock> {
        let ended = batch.is_none();
        let batch = batch.unwrap_or(GeneratedBatch {
            blocks: Vec::new(),
            units: 0,
            generated: 0,
        });
        if !ended {
            self.settled += 1;
            let (units, words) = self.made.back().copied().unwrap_or((0, 0));
            self.made
                .push_back((units + batch.units, words + batch.generated));
            while self.made.len() > self.lag + 1 {
                self.made.pop_front();
            }
        }
        if self.tree_words.is_some() {
            return batch.blocks.into_iter().map(|(block, _)| block).collect();
        }
        let suite = self.suite;
        // Whether the stream keeps `word` when `next` is the word generated after it.
        let keep = |next: Option<&[LabelId]>, word: &[LabelId]| {
            next.is_none_or(|next| next != word && !(suite.prune && next.starts_with(word)))
        };
        // Every block with the length of its first generated word: the held word alone, then
        // a block per unit.
        let mut blocks: Vec<(WordBlock, usize)> = Vec::with_capacity(batch.blocks.len() + 1);
        if let Some(word) = self.held.take() {
            let mut block = WordBlock::new();
            block.push(&word);
            blocks.push((block, word.len()));
        }
        blocks.extend(batch.blocks);
        // The last word of each block against the first word generated after it: the first
        // of the next block (every block still holds its last word, so its first generated
        // word is its first word cut to its length).
        let drops: Vec<bool> = blocks
            .windows(2)
            .map(|pair| {
                let (next, next_len) = &pair[1];
                let next = next.first().map(|w| &w[..*next_len]);
                pair[0].0.last().is_some_and(|last| !keep(next, last))
            })
            .collect();
        if !ended {
            self.held = blocks.last_mut().and_then(|(block, _)| block.pop());
        }
        for ((block, _), drop) in blocks.iter_mut().zip(drops) {
            if drop {
                block.pop();
            }
        }
        blocks
            .into_iter()
            .map(|(block, _)| block)
            .filter(|block| !block.is_empty())
            .collect()
    }

    /// The next words of the stream in order (empty at its end): those `next` would return
    /// next, at least one, as vectors (see [`SuiteWords::next_blocks`]).
    pub fn next_chunk(&mut self) -> Vec<Vec<LabelId>> {
        let rest: Vec<Vec<LabelId>> = self.ready.by_ref().collect();
        if !rest.is_empty() {
            return rest;
        }
        self.next_blocks()
            .iter()
            .flat_map(|block| block.iter().map(<[LabelId]>::to_vec))
            .collect()
    }

    /// The next words of the stream in order, in blocks holding at least one word (no block
    /// at the end of the stream), about a chunk of them ([`SuiteWords::chunked`]): batches
    /// planned, generated with their units in parallel and settled one after the other
    /// ([`SuiteWords::settle`]). Words already taken by `next` are not repeated, but those of
    /// a chunk `next` started are not returned here: mix the two only through
    /// [`SuiteWords::next_chunk`].
    pub fn next_blocks(&mut self) -> Vec<WordBlock> {
        let mut blocks = Vec::new();
        let mut taken = 0;
        while taken <= self.chunk {
            let planned = self
                .plan(self.chunk + 1 - taken)
                .map(PlannedBatch::generate_par);
            let ended = planned.is_none();
            let settled = self.settle(planned);
            taken += settled.iter().map(WordBlock::len).sum::<usize>();
            blocks.extend(settled);
            if ended {
                break;
            }
        }
        blocks
    }
}

impl Iterator for SuiteWords<'_> {
    type Item = Vec<LabelId>;

    fn next(&mut self) -> Option<Vec<LabelId>> {
        if let Some(words) = &mut self.tree_words {
            return words.next();
        }
        if let Some(w) = self.ready.next() {
            return Some(w);
        }
        self.ready = self.next_chunk().into_iter();
        self.ready.next()
    }
}
