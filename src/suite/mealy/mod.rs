//! m-complete test suites for complete deterministic Mealy machines: W (Chow), Wp (Fujiwara et
//! al.), HSI (pairwise and splitting-tree identifiers), hybrid-ADS (Moerman), UIO and UIOv (Goga
//! Sec. 3.3), H (Dorofeeva et al., separating sequences chosen per pair of traces; built as a test
//! tree in [`h_method`]), SPY (Simão et al., identifiers shared through convergent traces; [`spy`]),
//! SPYH (Soucha and Bogdanov, convergence classes with per-pair separating sequences; [`spyh`]),
//! and `auto`, which builds several identifier families (and the H, SPY and SPYH trees where
//! affordable) in parallel and keeps the one giving the smallest suite by exact count.
//!
//! A suite for `E` extra states is the set of words `p·x·h` where `p` is a shortest access
//! sequence, `x` a middle part of at most `E + 1` inputs, and `h` a word of the identifier of the
//! state reached by `p·x` (not by `p`). Each word `p·x` is generated once, from its canonical
//! split (`p` the longest access sequence that is a prefix; so `x` does not start with a
//! spanning-tree edge).
//!
//! Streaming: the words are produced in lexicographic order by walking the spanning tree depth
//! first and generating, for every state `c` and every non-tree input `a`, the unit of words that
//! start with `access(c)·a`. Units are generated in parallel in batches and emitted in their fixed
//! order, so the output is the same for any thread count, and memory is bounded by a batch.
//! Because the stream is sorted, a word that is a prefix of another is immediately followed by an
//! extension of itself; dropping such words (and duplicates) needs one word of look-behind.
//!
//! The suite is generated for the minimised reachable part of the specification; its bound `N`
//! counts the states of that minimal machine plus `E`.

pub mod block;
mod estimate;
pub mod h_method;
pub mod spy;
pub mod spyh;
pub mod stream;

pub use block::WordBlock;
pub use estimate::SuiteSize;

use crate::identify::mealy::{
    AccessTree, AdaptiveConfig, Family, FamilyKind, HSI_ST_CONFIGS, LySplittingTree, SplittingTree,
    minimize_mealy, uio_sequences,
};
use crate::model::{LabelId, Mealy, ModelError, StateId};
use crate::suite::costs::{CostRefusal, Figure, SuiteCosts};
use crate::suite::{SuiteHeader, SuiteModel, TestCase};
use rayon::prelude::*;

/// How the identifiers after each access sequence and middle part are chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MealyMethod {
    /// One characterisation set (Chow's W method).
    W,
    /// Characterisation set, then identification sets (Wp).
    Wp,
    /// Harmonised state identifiers from pairwise shortest separating sequences.
    Hsi,
    /// Harmonised state identifiers read adaptively off the splitting tree.
    HsiSt,
    /// Hybrid adaptive distinguishing sequences.
    Hads,
    /// UIO sequences (not complete).
    Uio,
    /// UIO sequences with the uniqueness check (UIOv).
    Uiov,
    /// The H method: separating sequences chosen per pair of traces, reusing the test tree.
    H,
    /// The SPY method: hybrid-ADS identifiers (after traversal words of up to `E` inputs)
    /// appended after any trace shown convergent with the transition's source, sharing tests.
    Spy,
    /// The SPYH method: SPY's convergence classes with separating sequences chosen per pair as
    /// in H.
    Spyh,
    /// The smallest of the complete families for the requested extra states.
    Auto,
}

impl MealyMethod {
    /// Every method, in the order the CLI lists them.
    pub const ALL: [MealyMethod; 11] = [
        MealyMethod::W,
        MealyMethod::Wp,
        MealyMethod::Hsi,
        MealyMethod::HsiSt,
        MealyMethod::Hads,
        MealyMethod::Uio,
        MealyMethod::Uiov,
        MealyMethod::H,
        MealyMethod::Spy,
        MealyMethod::Spyh,
        MealyMethod::Auto,
    ];

    /// The name on the command line and in suite files.
    pub fn name(self) -> &'static str {
        match (self, self.family()) {
            (MealyMethod::H, _) => "h",
            (MealyMethod::Spy, _) => "spy",
            (MealyMethod::Spyh, _) => "spyh",
            (_, Some(k)) => k.name(),
            (_, None) => "auto",
        }
    }

    fn family(self) -> Option<FamilyKind> {
        Some(match self {
            MealyMethod::W => FamilyKind::W,
            MealyMethod::Wp => FamilyKind::Wp,
            MealyMethod::Hsi => FamilyKind::Hsi,
            MealyMethod::HsiSt => FamilyKind::HsiSt,
            MealyMethod::Hads => FamilyKind::Hads,
            MealyMethod::Uio => FamilyKind::Uio,
            MealyMethod::Uiov => FamilyKind::Uiov,
            MealyMethod::H | MealyMethod::Spy | MealyMethod::Spyh | MealyMethod::Auto => {
                return None;
            }
        })
    }
}

/// Which method built a suite's test tree.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TreeMethod {
    H,
    Spy,
    Spyh,
}

/// Options of a Mealy suite.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MealySuiteOptions {
    /// The method.
    pub method: MealyMethod,
    /// Extra states `E` the implementation may have beyond the minimal specification.
    pub extra_states: usize,
    /// Drop tests that are prefixes of other tests.
    pub prune_prefixes: bool,
}

impl MealySuiteOptions {
    /// Options with prefix pruning on.
    pub fn new(method: MealyMethod, extra_states: usize) -> Self {
        MealySuiteOptions {
            method,
            extra_states,
            prune_prefixes: true,
        }
    }
}

/// Most middle parts per transition a suite may enumerate (`|I|^E`).
pub const MIDDLE_BUDGET: u64 = 50_000_000;

/// A Mealy test suite, ready to be streamed.
#[derive(Clone, Debug)]
pub struct MealySuite {
    spec: Mealy,
    access: AccessTree,
    family: Family,
    /// The test tree of a tree-built method (H, SPY); `None` for the identifier-family methods.
    tree: Option<(TreeMethod, h_method::TestTree)>,
    method: MealyMethod,
    extra: usize,
    prune: bool,
}

/// Statistics of a streamed suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteStats {
    /// Number of tests.
    pub tests: u64,
    /// Total input symbols over all tests.
    pub symbols: u64,
    /// Length of the longest test.
    pub longest: usize,
}

impl std::fmt::Display for SuiteStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tests: {}, total input symbols: {}, longest test: {}",
            self.tests, self.symbols, self.longest
        )
    }
}

impl SuiteStats {
    /// Accounts for one test.
    pub fn add(&mut self, word: &[LabelId]) {
        self.tests += 1;
        self.symbols += word.len() as u64;
        self.longest = self.longest.max(word.len());
    }
}

fn build_family(
    m: &Mealy,
    kind: FamilyKind,
    tree: &SplittingTree,
    ly: Option<&LySplittingTree>,
) -> Family {
    let uio = matches!(kind, FamilyKind::Uio | FamilyKind::Uiov).then(|| {
        let ly = ly.expect("UIO families are built with the Lee-Yannakakis tree");
        uio_sequences(m, &ly.ads(m))
    });
    Family::build(m, kind, tree, ly, uio.as_ref())
}

/// The family of `--method hads` (and `spy`): hybrid-ADS with [`HADS_CONFIG`] and the per-state
/// test weights of the suite for `extra` extra states.
fn hads_family(
    m: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    ly: &LySplittingTree,
    extra: usize,
) -> Family {
    let weights = estimate::state_weights(m, access, extra);
    Family::build_adaptive(m, tree, ly, HADS_CONFIG, Some(&weights))
}

/// The family of `--method hsi-st`: of the splitting-tree families of [`HSI_ST_CONFIGS`] (with the
/// per-state test weights of the suite for `extra` extra states), the one whose suite is
/// estimated to have the fewest symbols, the first on ties.
fn hsi_st_family(m: &Mealy, access: &AccessTree, tree: &SplittingTree, extra: usize) -> Family {
    let weights = estimate::state_weights(m, access, extra);
    let families: Vec<(u64, Family)> = HSI_ST_CONFIGS
        .par_iter()
        .map(|&cfg| {
            let family = Family::build_hsi_st(m, tree, cfg, Some(&weights));
            (
                estimate::suite_size(m, access, &family, extra).symbols,
                family,
            )
        })
        .collect();
    families
        .into_iter()
        .min_by_key(|(symbols, _)| *symbols)
        .expect("two choices")
        .1
}

/// Lower bounds of the cost figures of a `method` suite for `extra` extra states on the
/// minimised machine `min`, known before any identifier or test tree is built: the identifier
/// families from `estimate::least_suite_size`, H from `estimate::least_h_tree`, SPY and SPYH
/// from `estimate::least_shared_tree`, and `auto` the least of all of them figure by figure, so
/// a budget refused by it is refused by every suite `auto` could choose. They bound the figures
/// the budgets are checked against ([`MealySuite::costs`], counted before prefix removal).
/// Bytes are bounded for the file format `json` names (`Some(true)` suite JSON, `Some(false)`
/// words, [`least_bytes`]) and left unknown without one; the longest test is left unknown.
pub fn least_costs(
    min: &Mealy,
    access: &AccessTree,
    method: MealyMethod,
    extra: usize,
    json: Option<bool>,
) -> SuiteCosts {
    let family = || estimate::least_suite_size(min, access, extra);
    let h = || estimate::least_h_tree(min, access, extra);
    let shared = || estimate::least_shared_tree(min, access).0;
    let least = match method {
        MealyMethod::H => h(),
        MealyMethod::Spy | MealyMethod::Spyh => shared(),
        MealyMethod::Auto => [family(), h(), shared()]
            .into_iter()
            .reduce(|x, y| SuiteSize {
                tests: x.tests.min(y.tests),
                symbols: x.symbols.min(y.symbols),
            })
            .expect("three candidates"),
        _ => family(),
    };
    let at_least = |x: u128| match x.checked_sub(1) {
        Some(below) => Figure::MoreThan(below),
        None => Figure::Exact(0),
    };
    let (tests, symbols) = (u128::from(least.tests), u128::from(least.symbols));
    let bytes = json.map_or(Figure::Unknown, |json| {
        at_least(least_bytes(min, tests, symbols, json))
    });
    chain_costs(tests, symbols, at_least, Figure::Unknown, bytes)
}

/// The bytes of `text` as a JSON string, quotes included (serialising a string cannot fail;
/// the fallback is the longest escaping, six bytes a byte).
fn json_string_len(text: &str) -> usize {
    serde_json::to_string(text).map_or(6 * text.len() + 2, |q| q.len())
}

/// A lower bound on the bytes of a Mealy suite of at least `tests` tests and `symbols` inputs
/// (counted before prefix removal, as [`MealySuite::costs`] bounds them from above), the
/// header left out.
///
/// - Words: a test of `k > 0` inputs is a line of `k` tokens, each followed by a space or the
///   newline, so every input takes its token's length plus one byte.
/// - Suite JSON: every input is a node `{"send":I,"then":R,"race":{}}` (27 bytes besides `I`
///   and `R`) and a node `{"expect":{O:R}}` (14 besides `O` and `R`), with a reference `R` of at
///   least one byte each, at least one comma between nodes per input (a test of `k` inputs has
///   `2k - 1`), and its token in the test's name; every test line has its prefix (3 bytes or
///   more) and the frame `{"name":"","root":0,"nodes":[]}` (31 bytes).
pub fn least_bytes(min: &Mealy, tests: u128, symbols: u128, json: bool) -> u128 {
    let least = |lengths: &mut dyn Iterator<Item = usize>| lengths.min().unwrap_or(0) as u128;
    let inputs = min.inputs.names();
    let token = |n: &String| crate::suite::names::word_token(n);
    if !json {
        return symbols * (least(&mut inputs.iter().map(|n| token(n).len())) + 1);
    }
    let input = least(&mut inputs.iter().map(|n| json_string_len(n)));
    let output = least(&mut min.outputs.names().iter().map(|n| json_string_len(n)));
    let in_name = least(&mut inputs.iter().map(|n| json_string_len(&token(n)) - 2));
    tests * (3 + 31) + symbols * (27 + 14 + 2 + 1 + input + output + in_name)
}

/// What is known of a Mealy suite's costs before it is built: [`least_costs`] of the minimised
/// machine for the requested method and extra states, and of any other, so a refusal can say
/// which alternatives are not already refused.
#[derive(Copy, Clone, Debug)]
pub struct LeastCosts<'a> {
    min: &'a Mealy,
    access: &'a AccessTree,
    method: MealyMethod,
    extra: usize,
    json: Option<bool>,
}

impl LeastCosts<'_> {
    /// The same bounds with bytes bounded for suite JSON (`json`) or words files.
    pub fn in_format(self, json: bool) -> Self {
        LeastCosts {
            json: Some(json),
            ..self
        }
    }

    /// The lower bounds of the requested suite.
    pub fn suite(&self) -> SuiteCosts {
        self.of(self.method, self.extra)
    }

    /// The lower bounds of a `method` suite for `extra` extra states on the same machine.
    pub fn of(&self, method: MealyMethod, extra: usize) -> SuiteCosts {
        least_costs(self.min, self.access, method, extra, self.json)
    }

    /// The requested method.
    pub fn method(&self) -> MealyMethod {
        self.method
    }

    /// The requested extra states.
    pub fn extra_states(&self) -> usize {
        self.extra
    }
}

/// The cost figures of a Mealy suite of `tests` tests and `symbols` inputs in all, each count
/// turned into a figure by `figure` (an upper or a lower bound): every test is a send/expect
/// chain, so it has one run, and two steps and two nodes per input; every output is required,
/// so no quiescence is observed.
fn chain_costs(
    tests: u128,
    symbols: u128,
    figure: impl Fn(u128) -> Figure,
    longest: Figure,
    bytes: Figure,
) -> SuiteCosts {
    SuiteCosts {
        tests: figure(tests),
        runs: figure(tests),
        steps: figure(2 * symbols),
        waits: Figure::Exact(0),
        nodes: figure(2 * symbols),
        longest,
        bytes,
    }
}

/// The refusal of a test tree (H, SPY) over its budget: `what` exceeds `budget`. A smaller
/// `--extra-states` is advised only when there are extra states to remove.
fn tree_budget_error(what: String, budget: usize, extra: usize) -> ModelError {
    let advice = if extra > 0 {
        "use --method auto or hads, or a smaller --extra-states"
    } else {
        "use --method auto or hads"
    };
    ModelError::Budget {
        what,
        budget,
        advice: advice.into(),
    }
}

/// Refuses the H and SPYH methods when the pairs of traces they separate (one check each)
/// exceed [`h_method::H_PAIR_BUDGET`].
fn check_h_pairs(method: &str, min: &Mealy, extra: usize) -> Result<(), ModelError> {
    let pairs = h_method::h_pairs(min, extra);
    if pairs <= h_method::H_PAIR_BUDGET {
        return Ok(());
    }
    Err(tree_budget_error(
        format!(
            "{pairs} pairs of traces to separate by the {method} method ({} states, {} inputs, {extra} extra states)",
            min.num_states(),
            min.num_inputs()
        ),
        h_method::H_PAIR_BUDGET as usize,
        extra,
    ))
}

/// Refuses, before building, a test tree whose method is known to exceed a limit no flag
/// raises: H and SPYH by their pairs of traces ([`check_h_pairs`]), SPY and SPYH when their
/// least node count ([`estimate::least_shared_tree`]) exceeds their node budget.
fn check_tree_limits(
    min: &Mealy,
    access: &AccessTree,
    opts: MealySuiteOptions,
) -> Result<(), ModelError> {
    let extra = opts.extra_states;
    let (name, node_budget) = match opts.method {
        MealyMethod::H => return check_h_pairs("H", min, extra),
        MealyMethod::Spy => ("SPY", spy::SPY_NODE_BUDGET),
        MealyMethod::Spyh => {
            check_h_pairs("SPYH", min, extra)?;
            ("SPYH", spyh::SPYH_NODE_BUDGET)
        }
        _ => return Ok(()),
    };
    if estimate::least_shared_tree(min, access).1 > node_budget as u64 {
        return Err(tree_nodes_error(name, min, extra, node_budget));
    }
    Ok(())
}

/// The refusal of a `method` test tree (SPY, SPYH) that grew past `budget` nodes.
fn tree_nodes_error(method: &str, min: &Mealy, extra: usize, budget: usize) -> ModelError {
    tree_budget_error(
        format!(
            "the node count of the {method} test tree ({} states, {} inputs, {extra} extra states)",
            min.num_states(),
            min.num_inputs()
        ),
        budget,
        extra,
    )
}

/// Machines with more transitions than this get only one family from `auto`: hybrid-ADS with
/// cost-ranked splitting words (building and comparing all families would exceed the time budget;
/// this variant gave the smallest suite on the large benchmark model, ESM).
pub const AUTO_FULL_LIMIT: usize = 50_000;

/// Candidates whose suite (before pruning) is at most this many symbols are compared by their
/// exact size after pruning, obtained by streaming them; larger ones by the estimate.
pub const AUTO_EXACT_LIMIT: u64 = 5_000_000;

/// The splitting-word choice of `--method hads`: up to 64 splitting-tree candidates and one per
/// input, ranked by the estimated symbols they add to the suite.
pub const HADS_CONFIG: AdaptiveConfig = AdaptiveConfig {
    candidates: 64,
    input_candidates: true,
    ratio_score: false,
    cost_score: true,
    top_up_cost: 2,
    level_cost: 1,
};

/// Machines with at most this many transitions get, from `auto`, the hybrid-ADS families of
/// `cost_grid` as further candidates (each is built and streamed once; cheap at this size),
/// unless their suites are large (see [`AUTO_GRID_BUDGET`]).
pub const AUTO_GRID_LIMIT: usize = 5_000;

/// The grid is skipped when the suite of `--method hads` (before pruning) times the grid size
/// exceeds this many symbols (streaming every grid candidate would take too long).
pub const AUTO_GRID_BUDGET: u64 = 50_000_000;

/// Cost-ranked hybrid-ADS configurations over a grid of top-up and level costs, candidate
/// counts and input candidates, each with the per-state test weights (`true`) and without.
/// Every one is a hybrid-ADS family, harmonised by construction.
fn cost_grid() -> Vec<(AdaptiveConfig, bool)> {
    let mut out = Vec::new();
    for weighted in [true, false] {
        for input_candidates in [true, false] {
            for candidates in [64, 16] {
                for top_up_cost in [0, 1, 2, 3, 4, 6, 8] {
                    for level_cost in [0, 1, 2, 3] {
                        out.push((
                            AdaptiveConfig {
                                candidates,
                                input_candidates,
                                top_up_cost,
                                level_cost,
                                ..HADS_CONFIG
                            },
                            weighted,
                        ));
                    }
                }
            }
        }
    }
    out
}

/// `auto`: builds candidate families in parallel and keeps the one with the smallest suite; the
/// H tree (when its pairs are within [`AUTO_H_PAIR_LIMIT`], tree within
/// [`h_method::H_NODE_BUDGET`]) and the SPYH tree (pairs within [`AUTO_SPYH_PAIR_LIMIT`], tree
/// within [`spyh::SPYH_NODE_BUDGET`]) are built beside them, and SPY
/// trees: over the [`AUTO_SPY_FAMILIES`] smallest families and the family of `--method spy` when
/// the smallest family suite is within [`AUTO_SPY_POOL_LIMIT`] symbols, over the family of
/// `--method spy` alone above it (each tree within [`spy::SPY_NODE_BUDGET`]); a tree wins when
/// its exact size is strictly smaller.
fn auto_choice(
    min: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    opts: MealySuiteOptions,
) -> (Family, Option<(TreeMethod, h_method::TestTree)>) {
    let pairs = h_method::h_pairs(min, opts.extra_states);
    let h_affordable = pairs <= AUTO_H_PAIR_LIMIT;
    let spyh_affordable = pairs <= AUTO_SPYH_PAIR_LIMIT;
    let extra = opts.extra_states;
    let (candidates, (h_tree, spyh_tree)) = rayon::join(
        || auto_family(min, access, tree, opts),
        || {
            rayon::join(
                || {
                    h_affordable.then(|| {
                        h_method::build_h(min, access, tree, extra, h_method::H_NODE_BUDGET)
                    })
                },
                || spyh_affordable.then(|| spyh::build_spyh(min, access, tree, extra)),
            )
        },
    );
    let AutoFamilies { mut ranked, hads } = candidates;
    let best_family_symbols = ranked[0].1;
    let mut best_symbols = best_family_symbols;
    let mut best_tree = None;
    let trees = [
        h_tree.flatten().map(|t| (TreeMethod::H, t)),
        spyh_tree.flatten().map(|t| (TreeMethod::Spyh, t)),
    ];
    for (method, t) in trees.into_iter().flatten() {
        let symbols = t.size(opts.prune_prefixes).1;
        if symbols < best_symbols {
            best_symbols = symbols;
            best_tree = Some((method, t));
        }
    }
    if min.num_states() * min.num_inputs() <= AUTO_FULL_LIMIT {
        // The family of `--method spy` is always in the pool, so `auto` is never larger.
        let spy_family = hads;
        let mut pool: Vec<usize> = if best_family_symbols <= AUTO_SPY_POOL_LIMIT {
            (0..ranked.len().min(AUTO_SPY_FAMILIES)).collect()
        } else {
            Vec::new()
        };
        if !pool.contains(&spy_family) {
            pool.push(spy_family);
        }
        // Built in parallel and reduced to the smallest (ties: the earlier in the pool), so
        // only a few trees are alive at once and the winner is not rebuilt.
        let prune = opts.prune_prefixes;
        let smallest = pool
            .par_iter()
            .enumerate()
            .filter_map(|(i, &j)| {
                let t = spy::build_spy(min, access, &ranked[j].0, opts.extra_states)?;
                Some((t.size(prune).1, i, t))
            })
            .reduce_with(|x, y| if (y.0, y.1) < (x.0, x.1) { y } else { x });
        if let Some((symbols, i, spy_tree)) = smallest
            && symbols < best_symbols
        {
            // The suite header names the family the SPY tree was built from.
            let family = ranked.swap_remove(pool[i]).0;
            return (family, Some((TreeMethod::Spy, spy_tree)));
        }
    }
    (ranked.swap_remove(0).0, best_tree)
}

/// Most pairs of traces ([`h_method::h_pairs`]) for which `auto` builds the H tree beside its
/// families (about 6 s of CPU at the limit): above it `auto` leaves H to `--method h`, whose tree
/// on m173 with one extra state (177 million pairs) takes 54-57 s of CPU against `auto`'s 5 s.
pub const AUTO_H_PAIR_LIMIT: u64 = 20_000_000;

/// Most pairs of traces ([`h_method::h_pairs`]) for which `auto` builds the SPYH tree: above it
/// SPYH takes seconds (m173 without extra states, 6.4 million pairs: 4.9 s) and on the benchmark
/// models it is never the smallest, so `auto` leaves it to `--method spyh`.
pub const AUTO_SPYH_PAIR_LIMIT: u64 = 2_000_000;

/// How many of the smallest families `auto` also tries with SPY.
pub const AUTO_SPY_FAMILIES: usize = 8;

/// Above this many input symbols of the smallest family suite (exact or estimated), `auto` builds
/// the SPY tree of the `--method spy` family only (one tree in memory, about 3.5 s on m173 with
/// one extra state) instead of [`AUTO_SPY_FAMILIES`] of them.
pub const AUTO_SPY_POOL_LIMIT: u64 = 5_000_000;

/// The families of `auto`, smallest suite first, and the index among them of the family of
/// `--method hads` (and `spy`), when it was built.
struct AutoFamilies {
    ranked: Vec<(Family, u64)>,
    /// The rank of the family of `--method hads` (and `--method spy`).
    hads: usize,
}

/// The harmonised candidate families of `auto` with the sizes of their suites (exact, or the
/// estimate before pruning for suites over [`AUTO_EXACT_LIMIT`] symbols), smallest first.
fn auto_family(
    min: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    opts: MealySuiteOptions,
) -> AutoFamilies {
    let ly = LySplittingTree::new(min);
    let weights = estimate::state_weights(min, access, opts.extra_states);
    let wide = AdaptiveConfig {
        candidates: 64,
        ..AdaptiveConfig::default()
    };
    let costed = HADS_CONFIG;
    if min.num_states() * min.num_inputs() > AUTO_FULL_LIMIT {
        let family = hads_family(min, access, tree, &ly, opts.extra_states);
        let est = estimate::suite_size(min, access, &family, opts.extra_states);
        return AutoFamilies {
            ranked: vec![(family, est.symbols)],
            hads: 0,
        };
    }
    let mut adaptive = vec![
        AdaptiveConfig::default(),
        wide,
        AdaptiveConfig {
            input_candidates: true,
            ..wide
        },
        AdaptiveConfig {
            input_candidates: true,
            ratio_score: true,
            ..wide
        },
    ];
    for input_candidates in [true, false] {
        for (top_up_cost, level_cost) in [(2, 1), (4, 2)] {
            adaptive.push(AdaptiveConfig {
                input_candidates,
                top_up_cost,
                level_cost,
                ..costed
            });
        }
    }
    let mut adaptive: Vec<(AdaptiveConfig, bool)> =
        adaptive.into_iter().map(|cfg| (cfg, true)).collect();
    let grid = cost_grid();
    let grid_affordable = min.num_states() * min.num_inputs() <= AUTO_GRID_LIMIT && {
        let probe = hads_family(min, access, tree, &ly, opts.extra_states);
        let est = estimate::suite_size(min, access, &probe, opts.extra_states);
        est.symbols.saturating_mul(grid.len() as u64) <= AUTO_GRID_BUDGET
    };
    if grid_affordable {
        for (cfg, weighted) in grid {
            if !adaptive.contains(&(cfg, weighted)) {
                adaptive.push((cfg, weighted));
            }
        }
    }
    let mut cands: Vec<Family> = adaptive
        .par_iter()
        .map(|&(cfg, weighted)| {
            Family::build_adaptive(min, tree, &ly, cfg, weighted.then_some(&weights[..]))
        })
        .collect();
    cands.extend(
        [FamilyKind::HsiSt, FamilyKind::Hsi, FamilyKind::Wp]
            .par_iter()
            .map(|&kind| match kind {
                FamilyKind::HsiSt => hsi_st_family(min, access, tree, opts.extra_states),
                _ => build_family(min, kind, tree, Some(&ly)),
            })
            .collect::<Vec<_>>(),
    );
    let sizes: Vec<u64> = cands
        .par_iter()
        .map(|f| {
            let est = estimate::suite_size(min, access, f, opts.extra_states);
            if est.symbols > AUTO_EXACT_LIMIT {
                return est.symbols;
            }
            let probe = MealySuite {
                spec: min.clone(),
                access: access.clone(),
                family: f.clone(),
                tree: None,
                method: MealyMethod::Auto,
                extra: opts.extra_states,
                prune: opts.prune_prefixes,
            };
            probe.words().map(|w| w.len() as u64).sum()
        })
        .collect();
    // The family of `--method hads`: HADS_CONFIG with the state weights.
    // Always present: `costed` with input candidates and costs (2, 1) is HADS_CONFIG.
    let hads_at = adaptive
        .iter()
        .position(|&c| c == (HADS_CONFIG, true))
        .expect("the candidates include HADS_CONFIG");
    let mut order: Vec<usize> = (0..cands.len()).collect();
    // Stable: equal sizes keep the candidate order.
    order.sort_by_key(|&j| sizes[j]);
    let hads = order
        .iter()
        .position(|&j| j == hads_at)
        .expect("every candidate is ranked");
    let mut slots: Vec<Option<Family>> = cands.into_iter().map(Some).collect();
    let ranked = order
        .iter()
        .map(|&j| (slots[j].take().expect("each candidate once"), sizes[j]))
        .collect();
    AutoFamilies { ranked, hads }
}

impl MealySuite {
    /// Prepares the suite for `spec`: minimises it, computes access sequences and the identifier
    /// family. Fails on partial machines and when the middle parts exceed [`MIDDLE_BUDGET`].
    ///
    /// ```
    /// use ncomplete::format::{LoadOptions, load_model};
    /// use ncomplete::model::Model;
    /// use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
    ///
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/coffeemachine.dot");
    /// let Model::Mealy(machine) = load_model(path, &LoadOptions::default())? else {
    ///     panic!("a Mealy machine");
    /// };
    /// // An HSI suite that catches every faulty implementation with one state more.
    /// let suite = MealySuite::new(&machine, MealySuiteOptions::new(MealyMethod::Hsi, 1))?;
    /// assert!(suite.guarantee().starts_with("m-complete"));
    /// let mut tests = Vec::new();
    /// suite.stream(|word| {
    ///     tests.push(suite.test_case(word));
    ///     Ok::<(), std::convert::Infallible>(())
    /// })?;
    /// // Bounded before generation: the counted figures are upper bounds of the real suite.
    /// let bound = suite.size_before_pruning().tests;
    /// assert!(!tests.is_empty() && tests.len() as u64 <= bound);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(spec: &Mealy, opts: MealySuiteOptions) -> Result<MealySuite, ModelError> {
        Ok(Self::new_within(spec, opts, |_| Ok(()))?.expect("nothing is refused"))
    }

    /// [`MealySuite::new`] under a budget known before the identifiers are built: for every
    /// method, `precheck` is given lower bounds of the suite's costs ([`LeastCosts`]) once the
    /// machine is minimised, and its refusal is returned before any identifier or tree is built.
    /// A SPY or SPYH tree whose least node count already exceeds its node budget is refused
    /// then too.
    pub fn new_within(
        spec: &Mealy,
        opts: MealySuiteOptions,
        precheck: impl FnOnce(LeastCosts<'_>) -> Result<(), Box<CostRefusal>>,
    ) -> Result<Result<MealySuite, Box<CostRefusal>>, ModelError> {
        spec.require_complete()?;
        let k = spec.num_inputs() as u64;
        let middles = (0..opts.extra_states).try_fold(1u64, |acc, _| acc.checked_mul(k));
        if middles.is_none_or(|x| x > MIDDLE_BUDGET) {
            return Err(ModelError::Budget {
                what: format!(
                    "{} extra states with {} inputs (|I|^E middle parts per transition)",
                    opts.extra_states, k
                ),
                budget: MIDDLE_BUDGET as usize,
                advice: "try a smaller --extra-states".into(),
            });
        }
        let min = minimize_mealy(spec);
        let access = AccessTree::new(&min);
        let least = LeastCosts {
            min: &min,
            access: &access,
            method: opts.method,
            extra: opts.extra_states,
            json: None,
        };
        // The limits no flag raises come first, so the refusal of a flag's limit never advises
        // raising it for a suite that cannot be built anyway.
        check_tree_limits(&min, &access, opts)?;
        if let Err(refusal) = precheck(least) {
            return Ok(Err(refusal));
        }
        let tree = SplittingTree::new(&min);
        let needs_ads = matches!(
            opts.method,
            MealyMethod::Hads | MealyMethod::Uio | MealyMethod::Uiov | MealyMethod::Auto
        );
        let mut h_tree = None;
        let family = match opts.method.family() {
            None if opts.method == MealyMethod::H => {
                let h = h_method::build_h(
                    &min,
                    &access,
                    &tree,
                    opts.extra_states,
                    h_method::H_NODE_BUDGET,
                )
                .ok_or_else(|| {
                    tree_nodes_error("H", &min, opts.extra_states, h_method::H_NODE_BUDGET)
                })?;
                h_tree = Some((TreeMethod::H, h));
                build_family(&min, FamilyKind::Hsi, &tree, None)
            }
            None if opts.method == MealyMethod::Spy => {
                let ly = LySplittingTree::new(&min);
                let family = hads_family(&min, &access, &tree, &ly, opts.extra_states);
                let spy_tree = spy::build_spy(&min, &access, &family, opts.extra_states)
                    .ok_or_else(|| {
                        tree_nodes_error("SPY", &min, opts.extra_states, spy::SPY_NODE_BUDGET)
                    })?;
                h_tree = Some((TreeMethod::Spy, spy_tree));
                family
            }
            None if opts.method == MealyMethod::Spyh => {
                let spyh_tree = spyh::build_spyh(&min, &access, &tree, opts.extra_states)
                    .ok_or_else(|| {
                        tree_nodes_error("SPYH", &min, opts.extra_states, spyh::SPYH_NODE_BUDGET)
                    })?;
                h_tree = Some((TreeMethod::Spyh, spyh_tree));
                build_family(&min, FamilyKind::Hsi, &tree, None)
            }
            Some(FamilyKind::Hads) => {
                let ly = LySplittingTree::new(&min);
                hads_family(&min, &access, &tree, &ly, opts.extra_states)
            }
            Some(FamilyKind::HsiSt) => hsi_st_family(&min, &access, &tree, opts.extra_states),
            Some(kind) => {
                let ly = needs_ads.then(|| LySplittingTree::new(&min));
                build_family(&min, kind, &tree, ly.as_ref())
            }
            None => {
                let (family, tree) = auto_choice(&min, &access, &tree, opts);
                h_tree = tree;
                family
            }
        };
        Ok(Ok(MealySuite {
            spec: min,
            access,
            family,
            tree: h_tree,
            method: opts.method,
            extra: opts.extra_states,
            prune: opts.prune_prefixes,
        }))
    }

    /// The lower bounds of this suite's costs and of the other methods' on its machine
    /// ([`least_costs`]), as the precheck of [`MealySuite::new_within`] saw them.
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
            units_made: 0,
            words_made: 0,
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
    /// None`, the bare access sequence), sorted, duplicates removed.
    fn unit_words(&self, unit: &Unit) -> WordBlock {
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
        let mut words = WordBlock::new();
        words.reserve(rel.len(), rel.len() * prefix.len() + rel.stored_symbols());
        for r in rel.iter() {
            words.push_parts(&[&prefix, r]);
        }
        words
    }
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

/// Words [`SuiteWords::next_blocks`] generates at least per call (before prefix removal), or the
/// words of a tree-built suite it returns at most, unless set by [`SuiteWords::chunked`]. A
/// chunk is the unit of synchronisation of the writing pipeline
/// ([`crate::render::words::write_mealy_suite_with`]): large enough that its parallel parts
/// outweigh the barrier after it (4,096 words gave a 2-thread/1-thread wall ratio of about 0.8
/// on ESM E=1; this size, with the allocator of the binary, about 0.6), small enough to keep
/// the chunks in flight a few megabytes.
pub const WORD_CHUNK: usize = 32768;

/// Words per block of a tree-built suite in [`SuiteWords::next_blocks`].
const TREE_BLOCK: usize = 256;

/// The test words of a suite in lexicographic order (an iterator; see [`MealySuite::words`]),
/// also taken a chunk at a time ([`SuiteWords::next_blocks`], [`SuiteWords::next_chunk`]).
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
    /// Units generated so far and their words (before filtering), to size the next batch.
    units_made: usize,
    words_made: usize,
}

impl SuiteWords<'_> {
    /// The same stream taken in chunks of about `words` words (at least 1) rather than
    /// [`WORD_CHUNK`]: the words and their order do not change, only how many a call of
    /// [`SuiteWords::next_blocks`] returns (tests use small chunks to cross chunk boundaries
    /// often).
    pub fn chunked(mut self, words: usize) -> Self {
        self.chunk = words.max(1);
        self
    }

    /// How many units to generate in parallel for about `words` more words: the words a unit
    /// has made on average so far decide, within [`BATCH_UNITS_MIN`] and [`BATCH_UNITS`] (a
    /// unit of ESM at E=1 makes about 90 words, so a fixed batch of 2,048 units made chunks of
    /// 180,000 words, several times the chunk's size and memory).
    fn batch_units(&self, words: usize) -> usize {
        let most = BATCH_UNITS.min(self.chunk);
        if self.units_made == 0 {
            return BATCH_UNITS_FIRST.min(most);
        }
        let per_unit = self.words_made.div_ceil(self.units_made).max(1);
        words
            .div_ceil(per_unit)
            .clamp(BATCH_UNITS_MIN.min(most), most)
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
    /// at the end of the stream), generated in parallel by units (a block per unit) and filtered
    /// in parallel, since whether a word is dropped depends only on the word generated after it
    /// (equal, or an extension when pruning). Words already taken by `next` are not repeated,
    /// but those of a chunk `next` started are not returned here: mix the two only through
    /// [`SuiteWords::next_chunk`].
    pub fn next_blocks(&mut self) -> Vec<WordBlock> {
        if let Some(words) = &mut self.tree_words {
            let mut blocks = Vec::new();
            let mut taken = 0;
            while taken < self.chunk {
                let mut block = WordBlock::new();
                for word in words.by_ref().take(TREE_BLOCK) {
                    block.push(&word);
                }
                if block.is_empty() {
                    break;
                }
                taken += block.len();
                blocks.push(block);
            }
            return blocks;
        }
        let suite = self.suite;
        loop {
            let mut blocks: Vec<WordBlock> = Vec::new();
            if let Some(word) = self.held.take() {
                let mut block = WordBlock::new();
                block.push(&word);
                blocks.push(block);
            }
            let mut raw = blocks.len();
            let mut ended = false;
            while raw <= self.chunk {
                let batch = self.batch_units(self.chunk + 1 - raw);
                let mut units = Vec::with_capacity(batch);
                while units.len() < batch {
                    match self.cursor.next(suite) {
                        Some(u) => units.push(u),
                        None => break,
                    }
                }
                if units.is_empty() {
                    ended = true;
                    break;
                }
                let parts: Vec<WordBlock> = units
                    .par_iter()
                    .map(|u| suite.unit_words(u))
                    .filter(|block| !block.is_empty())
                    .collect();
                let made = parts.iter().map(WordBlock::len).sum::<usize>();
                self.units_made += units.len();
                self.words_made += made;
                raw += made;
                blocks.extend(parts);
            }
            // The last word's successor is not known before the stream ends.
            if !ended {
                self.held = blocks.last_mut().and_then(WordBlock::pop);
            }
            // The first word after each block: the held word after the last one.
            let mut after: Vec<Option<&[LabelId]>> = vec![None; blocks.len()];
            if let Some(last) = after.last_mut() {
                *last = self.held.as_deref();
            }
            for k in (0..blocks.len().saturating_sub(1)).rev() {
                after[k] = blocks[k + 1].first().or(after[k + 1]);
            }
            let keep = |next: Option<&[LabelId]>, word: &[LabelId]| {
                next.is_none_or(|next| next != word && !(suite.prune && next.starts_with(word)))
            };
            let kept: Vec<Vec<bool>> = blocks
                .par_iter()
                .zip(&after)
                .map(|(block, &after)| {
                    (0..block.len())
                        .map(|k| {
                            let next = if k + 1 < block.len() {
                                Some(block.word(k + 1))
                            } else {
                                after
                            };
                            keep(next, block.word(k))
                        })
                        .collect()
                })
                .collect();
            blocks
                .par_iter_mut()
                .zip(kept)
                .for_each(|(block, kept)| block.retain(|k, _| kept[k]));
            blocks.retain(|block| !block.is_empty());
            if !blocks.is_empty() || ended {
                return blocks;
            }
        }
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

#[cfg(test)]
mod tests;
