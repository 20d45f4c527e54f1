//! Naming helpers shared by the model transformations: fresh names for labels and states that a
//! transformation introduces (`delta`, `tau`, `undefined`, `sink`, `chaos`) and a pass that makes
//! generated state names unique.
//!
//! A generated name is the base name if it is free, otherwise the base followed by `_1`, `_2`, ...
//! (the first free one), so that a model that already uses `delta` for something else keeps it.

use std::collections::HashSet;

/// `base` if `taken(base)` is false, otherwise the first of `base_1`, `base_2`, ... that is free.
pub(crate) fn fresh_name(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_owned();
    }
    (1usize..)
        .map(|k| format!("{base}_{k}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_owned())
}

/// Makes every name unique, keeping the first occurrence of a name as it is and renaming later
/// duplicates with [`fresh_name`] (`x`, `x_1`, ...). Names stay in their positions.
pub(crate) fn make_unique(names: &mut [String]) {
    {
        let mut distinct: HashSet<&str> = HashSet::with_capacity(names.len());
        if names.iter().all(|n| distinct.insert(n.as_str())) {
            return;
        }
    }
    let all: HashSet<String> = names.iter().cloned().collect();
    let mut seen: HashSet<String> = HashSet::with_capacity(names.len());
    for name in names.iter_mut() {
        if !seen.insert(name.clone()) {
            let fresh = fresh_name(name, |n| seen.contains(n) || all.contains(n));
            seen.insert(fresh.clone());
            *name = fresh;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_skip_taken_ones() {
        assert_eq!(fresh_name("delta", |n| n == "x"), "delta");
        assert_eq!(
            fresh_name("delta", |n| n == "delta" || n == "delta_1"),
            "delta_2"
        );
    }

    #[test]
    fn duplicates_are_renamed_after_their_first_occurrence() {
        let mut names: Vec<String> = ["a", "b", "a", "a_1", "a"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        make_unique(&mut names);
        assert_eq!(names, ["a", "b", "a_2", "a_1", "a_3"]);
    }
}
