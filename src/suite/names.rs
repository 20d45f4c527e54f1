//! Stable test identities and shards.
//!
//! A test's name is derived from its content, so a test that a model edit leaves unchanged keeps
//! its name (and its function name in every rendering):
//! - a Mealy test (a chain of inputs with expected outputs) is named by its input word, written as
//!   a line of the words format ([`word_name`]): labels separated by spaces, a label holding
//!   whitespace, a quote or a backslash (or starting with `#`) written as a JSON string, so
//!   distinct words have distinct names;
//! - any other test is named by a readable stem, `_t` and 12 hexadecimal digits of a 64-bit hash
//!   of its tree ([`tree_hash`], [`content_name`]), e.g. `coin_coffee_t3bdbc5e9313`. The stem
//!   ([`stem`], at most [`STEM_MAX_LEN`] bytes of lowercase ASCII letters, digits and `_`) is
//!   the first labels of the test ([`tree_stem`]: from the root, the input sent, and after an
//!   observation the output, first by name, after which the test goes on) or, for a goal test,
//!   the goal it reaches (`goals::goal::Goal::stem`). The hash is computed bottom-up over the DAG
//!   from label *names* and verdicts, with branches ordered by label name, so it does not depend
//!   on label ids or on how the nodes are numbered. The hash is FNV-1a with a fixed basis and a
//!   SplitMix64 finaliser, implemented here: it never changes between runs, platforms or Rust
//!   releases.
//!
//! Two different trees with the same stem and 48-bit hash prefix are told apart by
//! [`UniqueNames`]: in suite order, a name already taken gets, after its stem, the hash of
//! `name/2`, `name/3`, … (same width), so the result is deterministic.
//!
//! Shards ([`Shard`], [`ShardPicker`]) split a suite for CI matrices: tests are taken in suite
//! order and each goes to the shard with the smallest cost so far (fewest steps, then the lowest
//! index), so the shards partition the suite, their costs differ by at most one test's steps,
//! and every job computes the same split from the same suite.

use super::{Next, SuiteModel, TestCase, TestNode};
use crate::model::LabelId;
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// A 64-bit FNV-1a hasher with a SplitMix64 finaliser: stable across runs and platforms.
#[derive(Clone, Debug)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl StableHasher {
    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds a length-prefixed string, so that consecutive strings cannot run together.
    pub fn write_str(&mut self, s: &str) {
        self.write_u64(s.len() as u64);
        self.write(s.as_bytes());
    }

    /// Feeds a number.
    pub fn write_u64(&mut self, x: u64) {
        self.write(&x.to_le_bytes());
    }

    /// The hash.
    pub fn finish(&self) -> u64 {
        crate::rng::SplitMix64::new(self.0).next_u64()
    }
}

/// The stable hash of a string.
pub fn string_hash(s: &str) -> u64 {
    let mut h = StableHasher::default();
    h.write_str(s);
    h.finish()
}

/// The content hash of a test's tree: independent of its name, of label ids and of the order
/// of its nodes.
pub fn tree_hash(model: &SuiteModel, test: &TestCase) -> u64 {
    let mut node_hash = vec![0u64; test.nodes.len()];
    let next_hash = |node_hash: &[u64], n: Next| match n {
        Next::Node(k) => node_hash.get(k as usize).copied().unwrap_or(0),
        Next::Verdict(v) => string_hash(v.as_str()),
    };
    for k in (0..test.nodes.len()).rev() {
        let mut h = StableHasher::default();
        let branches = match &test.nodes[k] {
            TestNode::Send { input, then, race } => {
                h.write_str("send");
                h.write_str(model.input_name(*input));
                h.write_u64(next_hash(&node_hash, *then));
                race
            }
            TestNode::Expect { branches } => {
                h.write_str("expect");
                branches
            }
        };
        let mut named: Vec<(&str, u64)> = branches
            .iter()
            .map(|&(o, n)| (model.output_name(o), next_hash(&node_hash, n)))
            .collect();
        named.sort_unstable();
        h.write_u64(named.len() as u64);
        for (label, next) in named {
            h.write_str(label);
            h.write_u64(next);
        }
        node_hash[k] = h.finish();
    }
    node_hash.first().copied().unwrap_or(0)
}

/// The length of the hash part of a content name (`t` and 12 hex digits).
pub const TREE_NAME_LEN: usize = 13;

/// The longest stem of a content name, so that a name (stem, `_`, hash) fits in the 28 bytes
/// of a rendered identifier (`render::escape::MAX_IDENTIFIER_LEN`) uncut.
pub const STEM_MAX_LEN: usize = 14;

/// The length of a content name with a stem of `stem_len` bytes.
pub fn content_name_len(stem_len: usize) -> usize {
    if stem_len == 0 {
        TREE_NAME_LEN
    } else {
        stem_len + 1 + TREE_NAME_LEN
    }
}

/// The content name of a test that is not a Mealy chain: [`tree_stem`] and its tree hash.
pub fn tree_name(model: &SuiteModel, test: &TestCase) -> String {
    content_name(&tree_stem(model, test), model, test)
}

/// The name of `test` with `stem` (from [`stem`]): `stem_t` and 12 hex digits of its tree hash
/// (`t` and the digits for an empty stem).
pub fn content_name(stem: &str, model: &SuiteModel, test: &TestCase) -> String {
    hash_name(stem, tree_hash(model, test))
}

/// `stem_t` (or `t`) and the top 48 bits of `hash` in hex.
fn hash_name(stem: &str, hash: u64) -> String {
    if stem.is_empty() {
        format!("t{:012x}", hash >> 16)
    } else {
        format!("{stem}_t{:012x}", hash >> 16)
    }
}

/// A stem of `words` (label, state or goal names): each written in lowercase ASCII letters and
/// digits, runs of other characters as one `_`, joined by `_`, as many whole words as fit in
/// [`STEM_MAX_LEN`] bytes (the first word cut if it alone is longer); words with no letter or
/// digit are skipped. Empty when no word has a letter or digit.
pub fn stem<'a>(words: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    // A bound on the words looked at, for words that all sanitise to nothing.
    for word in words.into_iter().take(4 * STEM_MAX_LEN) {
        let mut part = String::new();
        for c in word.chars() {
            if c.is_ascii_alphanumeric() {
                part.push(c.to_ascii_lowercase());
            } else if !part.is_empty() && !part.ends_with('_') {
                part.push('_');
            }
        }
        while part.ends_with('_') {
            part.pop();
        }
        if part.is_empty() {
            continue;
        }
        if out.is_empty() {
            part.truncate(STEM_MAX_LEN);
            while part.ends_with('_') {
                part.pop();
            }
            out = part;
        } else if out.len() + 1 + part.len() <= STEM_MAX_LEN {
            out.push('_');
            out.push_str(&part);
        } else {
            break;
        }
        if out.len() >= STEM_MAX_LEN - 1 {
            break;
        }
    }
    out
}

/// The labels a test starts with, for its [`stem`]: from the root, a send gives its input and
/// goes on to its next node; an observation gives, of its outputs after which the test goes on
/// (not to a verdict), the first by name, and goes on after it; a verdict ends the list.
pub fn first_labels<'a>(
    model: &'a SuiteModel,
    test: &'a TestCase,
) -> impl Iterator<Item = &'a str> {
    let mut at = (!test.nodes.is_empty()).then_some(0usize);
    std::iter::from_fn(move || {
        let k = at?;
        let (label, next) = match test.nodes.get(k)? {
            TestNode::Send { input, then, .. } => (model.input_name(*input), *then),
            TestNode::Expect { branches } => branches
                .iter()
                .filter(|(_, n)| matches!(n, Next::Node(_)))
                .map(|&(o, n)| (model.output_name(o), n))
                .min_by_key(|&(name, _)| name)?,
        };
        at = match next {
            Next::Node(j) => Some(j as usize),
            Next::Verdict(_) => None,
        };
        Some(label)
    })
}

/// The stem of a test that is not a Mealy chain: the [`stem`] of its [`first_labels`].
pub fn tree_stem(model: &SuiteModel, test: &TestCase) -> String {
    stem(first_labels(model, test))
}

/// A label as a token of the words format: itself when plain, else a JSON string.
pub fn word_token(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.starts_with('#')
        && !name
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '\\');
    if plain {
        name.to_owned()
    } else {
        serde_json::Value::from(name).to_string()
    }
}

/// The name of a Mealy test: its input word as a line of the words format (`""` for the empty
/// word, which no label can be written as).
pub fn word_name(inputs: &[String], word: &[LabelId]) -> String {
    if word.is_empty() {
        return "\"\"".to_owned();
    }
    let tokens: Vec<String> = word
        .iter()
        .map(|a| word_token(&inputs[a.index()]))
        .collect();
    tokens.join(" ")
}

/// Tree names ([`tree_name`]) made unique in suite order. Remembers 8 bytes per name (its hash).
#[derive(Debug, Default)]
pub struct UniqueNames {
    used: HashSet<u64>,
}

impl UniqueNames {
    /// A [`content_name`] made unique with the same width: `name` if not taken yet, else the
    /// first name not taken of its stem and 48 bits of the hash of `name/2`, `name/3`, …; the
    /// result is taken. (Names keep their width so the suite's byte count is exact before it is
    /// written.)
    pub fn claim_tree_name(&mut self, name: String) -> String {
        if self.used.insert(string_hash(&name)) {
            return name;
        }
        let stem = name
            .len()
            .checked_sub(TREE_NAME_LEN + 1)
            .and_then(|end| name.get(..end))
            .unwrap_or("");
        (2u64..)
            .map(|k| hash_name(stem, string_hash(&format!("{name}/{k}"))))
            .find(|n| self.used.insert(string_hash(n)))
            .expect("an unbounded range has an unused name")
    }
}

/// Part `index` (1-based) of `count` parts of a suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub index: usize,
    /// Number of shards.
    pub count: usize,
}

impl Shard {
    /// Parses `K/N` with `1 <= K <= N`.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "found `{}`, expected K/N with 1 <= K <= N (e.g. 2/4)",
                s.trim()
            )
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// `K/N`.
    pub fn label(self) -> String {
        format!("{}/{}", self.index, self.count)
    }
}

/// The header of a suite file holding only `shard` of the suite: `shard: "K/N"` added.
pub fn shard_header(
    header: &super::SuiteHeader,
    shard: Option<Shard>,
) -> Cow<'_, super::SuiteHeader> {
    match shard {
        None => Cow::Borrowed(header),
        Some(shard) => {
            let mut h = header.clone();
            h.extra.insert("shard".into(), shard.label().into());
            Cow::Owned(h)
        }
    }
}

/// Assigns tests, in suite order, to the least loaded of `count` shards.
///
/// Only shards that received a test are stored, in a min-heap by (load, index); the others all
/// have load 0 and the lowest of them is `untouched`. So memory and time per test do not depend
/// on `count` (a shard count of 2^64 - 1 costs nothing: the shards past the number of tests are
/// empty), and the choice is the same as scanning every shard for the least (load, index).
#[derive(Clone, Debug)]
pub struct ShardPicker {
    shard: Shard,
    loads: BinaryHeap<Reverse<(u128, usize)>>,
    untouched: usize,
}

impl ShardPicker {
    /// A picker for `shard`.
    pub fn new(shard: Shard) -> Self {
        ShardPicker {
            shard,
            loads: BinaryHeap::new(),
            untouched: 0,
        }
    }

    /// The 1-based shard the next test, of cost `steps`, goes to.
    pub fn assign(&mut self, steps: u128) -> usize {
        let used = self.loads.peek().map(|&Reverse(used)| used);
        let fresh = (self.untouched < self.shard.count).then_some((0, self.untouched));
        let k = match (fresh, used) {
            (Some((_, k)), used) if used.is_none_or(|used| (0, k) < used) => {
                self.untouched += 1;
                self.loads.push(Reverse((steps, k)));
                k
            }
            _ => {
                // Some shard has tests: a shard count is at least 1.
                let mut top = self.loads.peek_mut().expect("a shard count is at least 1");
                let Reverse((load, k)) = *top;
                *top = Reverse((load.saturating_add(steps), k));
                k
            }
        };
        k + 1
    }

    /// The shard this picker keeps.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// Whether the next test belongs to this picker's shard.
    pub fn keep(&mut self, test: &TestCase) -> bool {
        self.assign(test.runs_and_steps().1) == self.shard.index
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LabelId;

    fn model() -> SuiteModel {
        SuiteModel {
            name: "m".into(),
            inputs: vec!["a".into(), "b c".into()],
            outputs: vec!["x".into(), "y".into()],
            quiescence: Some("delta".into()),
        }
    }

    fn l(k: usize) -> LabelId {
        LabelId(k as u32)
    }

    #[test]
    fn the_hash_is_fixed_and_names_follow_content_not_numbering() {
        assert_eq!(string_hash(""), string_hash(""));
        assert_ne!(string_hash("a"), string_hash("b"));
        // FNV-1a of no bytes is its basis; the finaliser is fixed: this value never changes.
        let mut h = StableHasher::default();
        h.write(b"");
        assert_eq!(h.finish(), StableHasher::default().finish());
        assert_eq!(
            string_hash("abc"),
            0xe94b_3236_0022_f630,
            "{:#x}",
            string_hash("abc")
        );
        let m = model();
        // The same tree with nodes numbered differently and under another name.
        let one = TestCase {
            name: "x".into(),
            nodes: vec![
                TestNode::Send {
                    input: l(0),
                    then: Next::Node(1),
                    race: vec![(l(0), Next::RETRY)],
                },
                TestNode::Expect {
                    branches: vec![(l(0), Next::PASS), (l(1), Next::FAIL)],
                },
            ],
        };
        let mut other = one.clone();
        other.name = "y".into();
        assert_eq!(tree_name(&m, &one), tree_name(&m, &other));
        // The stem of the first labels (`a`; both outputs end the test, so no second label),
        // `_t` and 12 hex digits of the hash.
        let name = tree_name(&m, &one);
        let (stem, hash) = name.rsplit_once("_t").expect("a stem and a hash");
        assert_eq!(stem, "a", "{name}");
        assert!(
            hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
            "{name}"
        );
        let mut changed = one.clone();
        changed.nodes[1] = TestNode::Expect {
            branches: vec![(l(0), Next::PASS), (l(1), Next::PASS)],
        };
        assert_ne!(tree_name(&m, &one), tree_name(&m, &changed));
    }

    #[test]
    fn tree_names_start_with_the_first_labels() {
        let m = model();
        assert_eq!(stem(["?Coin", "!coffee", "b c"]), "coin_coffee");
        assert_eq!(stem(["insert_coin", "press_button"]), "insert_coin");
        assert_eq!(stem(["a_very_long_label_name"]), "a_very_long_la");
        assert_eq!(stem(["!", "--", "x"]), "x");
        assert_eq!(stem(std::iter::repeat_n("?", 1000)), "");
        // Send `a`, then of the outputs going on (`y` to node 2, `x` to a verdict) `y`.
        let test = TestCase {
            name: String::new(),
            nodes: vec![
                TestNode::Send {
                    input: l(0),
                    then: Next::Node(1),
                    race: vec![(l(0), Next::RETRY)],
                },
                TestNode::Expect {
                    branches: vec![(l(0), Next::PASS), (l(1), Next::Node(2))],
                },
                TestNode::Send {
                    input: l(1),
                    then: Next::PASS,
                    race: vec![],
                },
            ],
        };
        assert_eq!(
            first_labels(&m, &test).collect::<Vec<_>>(),
            ["a", "y", "b c"]
        );
        let name = tree_name(&m, &test);
        assert!(
            name.starts_with("a_y_b_c_t") && name.len() == content_name_len(7),
            "{name}"
        );
        // A collision keeps the stem and the width.
        let mut names = UniqueNames::default();
        assert_eq!(names.claim_tree_name(name.clone()), name);
        let other = names.claim_tree_name(name.clone());
        assert!(other.starts_with("a_y_b_c_t") && other.len() == name.len() && other != name);
    }

    #[test]
    fn words_name_mealy_tests_and_equal_tree_names_get_new_hashes() {
        let m = model();
        assert_eq!(word_name(&m.inputs, &[l(0), l(1), l(0)]), "a \"b c\" a");
        assert_eq!(word_name(&m.inputs, &[]), "\"\"");
        let mut names = UniqueNames::default();
        let t = "t0123456789ab".to_owned();
        assert_eq!(names.claim_tree_name(t.clone()), t);
        let other = names.claim_tree_name(t.clone());
        assert!(other != t && other.len() == TREE_NAME_LEN && other.starts_with('t'));
        assert_eq!(other, UniqueNames::default().claim_tree_name(other.clone()));
    }

    #[test]
    fn shards_partition_a_suite_with_near_equal_steps() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/3", "4/3", "x", "1/", "/2"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let tests: Vec<TestCase> = (1..=40)
            .map(|k| {
                let steps: Vec<(LabelId, LabelId)> =
                    (0..(k % 7 + 1)).map(|_| (l(0), l(1))).collect();
                TestCase::chain(format!("c{k}"), &steps)
            })
            .collect();
        let count = 3;
        let mut seen = vec![0usize; tests.len()];
        let mut loads = vec![0u128; count];
        for index in 1..=count {
            let mut picker = ShardPicker::new(Shard { index, count });
            for (k, t) in tests.iter().enumerate() {
                if picker.keep(t) {
                    seen[k] += 1;
                    loads[index - 1] += t.runs_and_steps().1;
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1), "{seen:?}");
        let longest = tests
            .iter()
            .map(|t| t.runs_and_steps().1)
            .max()
            .unwrap_or(0);
        let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(hi - lo <= longest, "{loads:?}");
        assert_eq!(tests[0].runs_and_steps(), (1, 4));
    }

    /// The picker chooses as a scan of every shard for the least (load, index) would, zero-step
    /// tests included, and a huge shard count costs nothing.
    #[test]
    fn the_picker_matches_a_full_scan_and_ignores_the_shard_count() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for count in [1usize, 2, 3, 5, 17] {
            let mut picker = ShardPicker::new(Shard { index: 1, count });
            let mut loads = vec![0u128; count];
            for _ in 0..200 {
                let steps = u128::from(rng.next_u64() % 4);
                let (k, _) = loads
                    .iter()
                    .enumerate()
                    .min_by_key(|&(k, &load)| (load, k))
                    .unwrap();
                loads[k] += steps;
                assert_eq!(picker.assign(steps), k + 1, "count {count}");
            }
        }
        let shard = Shard::parse("1/18446744073709551615").unwrap();
        let mut picker = ShardPicker::new(shard);
        let picks: Vec<usize> = (0..100_000).map(|_| picker.assign(3)).collect();
        assert_eq!(picks[..3], [1, 2, 3]);
        assert_eq!(picks[99_999], 100_000);
    }
}
