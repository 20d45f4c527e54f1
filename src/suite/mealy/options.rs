//! What a Mealy suite is asked for: the method ([`MealyMethod`]), the extra states and prefix
//! pruning ([`MealySuiteOptions`]), the budget on middle parts, and the statistics of a streamed
//! suite ([`SuiteStats`]).

use crate::identify::mealy::FamilyKind;
use crate::model::LabelId;

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

    pub(super) fn family(self) -> Option<FamilyKind> {
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
pub(super) enum TreeMethod {
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
