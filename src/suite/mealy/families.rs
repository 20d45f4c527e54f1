//! The identifier families of the family-built Mealy methods: one of a kind (W, Wp, HSI, UIO,
//! UIOv), hybrid-ADS with the suite's per-state test weights ([`HADS_CONFIG`]), and the
//! smallest of the splitting-tree families of `hsi-st`.

use super::estimate;
use crate::identify::mealy::{
    AccessTree, AdaptiveConfig, Family, FamilyKind, HSI_ST_CONFIGS, LySplittingTree, SplittingTree,
    uio_sequences,
};
use crate::model::Mealy;
use rayon::prelude::*;

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

pub(super) fn build_family(
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
pub(super) fn hads_family(
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
pub(super) fn hsi_st_family(
    m: &Mealy,
    access: &AccessTree,
    tree: &SplittingTree,
    extra: usize,
) -> Family {
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
