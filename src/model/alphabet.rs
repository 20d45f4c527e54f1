//! Label interning and the input/output/internal classification of labels.
//!
//! An [`Interner`] maps names to dense [`LabelId`]s in first-seen order, so the order of labels (and
//! with it every output that iterates labels) follows the model file and is reproducible.
//! An [`Alphabet`] adds a [`LabelKind`] per label and the quiescence label (van den Bos Def. 2.1:
//! quiescence δ is an ordinary output of a suspension automaton).

use super::ids::{LabelId, id32};
use std::collections::HashMap;

/// Names interned to dense ids, in first-seen order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Interner {
    names: Vec<String>,
    index: HashMap<String, LabelId>,
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `name`, interning it if new.
    pub fn intern(&mut self, name: &str) -> LabelId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = LabelId(id32(self.names.len()));
        self.names.push(name.to_owned());
        self.index.insert(name.to_owned(), id);
        id
    }

    /// The id of `name`, if interned.
    pub fn get(&self, name: &str) -> Option<LabelId> {
        self.index.get(name).copied()
    }

    /// The name of `id`. Panics on an id this interner did not issue (a programming error).
    pub fn name(&self, id: LabelId) -> &str {
        &self.names[id.index()]
    }

    /// Number of interned names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether nothing is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// All ids in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = LabelId> + '_ {
        (0..self.names.len()).map(|i| LabelId(id32(i)))
    }

    /// All names in id order.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// How a label of an LTS or suspension automaton is observed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LabelKind {
    /// Offered by the tester, accepted by the system.
    Input,
    /// Produced by the system and observed by the tester (quiescence included).
    Output,
    /// Internal step (τ), not observable.
    Internal,
}

/// The labels of an LTS or suspension automaton with their kinds.
///
/// Invariant: every label has exactly one kind; a name is never both input and output
/// (ioco requires L_I ∩ L_U = ∅). If `quiescence` is set, it names an output label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alphabet {
    labels: Interner,
    kinds: Vec<LabelKind>,
    quiescence: Option<LabelId>,
}

/// A label was declared with two different kinds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("label `{name}` is used both as {first:?} and as {second:?}")]
pub struct KindConflict {
    /// The label.
    pub name: String,
    /// The kind it had.
    pub first: LabelKind,
    /// The kind it was given again.
    pub second: LabelKind,
}

impl Alphabet {
    /// An empty alphabet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Interns `name` with `kind`, failing if it already has another kind.
    pub fn add(&mut self, name: &str, kind: LabelKind) -> Result<LabelId, KindConflict> {
        if let Some(id) = self.labels.get(name) {
            let first = self.kinds[id.index()];
            if first != kind {
                return Err(KindConflict {
                    name: name.to_owned(),
                    first,
                    second: kind,
                });
            }
            return Ok(id);
        }
        let id = self.labels.intern(name);
        self.kinds.push(kind);
        Ok(id)
    }

    /// Interns `name` as an output and marks it as the quiescence label.
    pub fn set_quiescence(&mut self, name: &str) -> Result<LabelId, KindConflict> {
        let id = self.add(name, LabelKind::Output)?;
        self.quiescence = Some(id);
        Ok(id)
    }

    /// The quiescence label, if the alphabet has one.
    pub fn quiescence(&self) -> Option<LabelId> {
        self.quiescence
    }

    /// The id of `name`.
    pub fn get(&self, name: &str) -> Option<LabelId> {
        self.labels.get(name)
    }

    /// The name of `id`.
    pub fn name(&self, id: LabelId) -> &str {
        self.labels.name(id)
    }

    /// The kind of `id`.
    pub fn kind(&self, id: LabelId) -> LabelKind {
        self.kinds[id.index()]
    }

    /// Whether `id` is an input.
    pub fn is_input(&self, id: LabelId) -> bool {
        self.kind(id) == LabelKind::Input
    }

    /// Whether `id` is an output (quiescence included).
    pub fn is_output(&self, id: LabelId) -> bool {
        self.kind(id) == LabelKind::Output
    }

    /// Whether `id` is internal.
    pub fn is_internal(&self, id: LabelId) -> bool {
        self.kind(id) == LabelKind::Internal
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether the alphabet is empty.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    /// All label ids in order.
    pub fn ids(&self) -> impl ExactSizeIterator<Item = LabelId> + '_ {
        self.labels.ids()
    }

    /// The labels of one kind, in id order.
    pub fn of_kind(&self, kind: LabelKind) -> impl Iterator<Item = LabelId> + '_ {
        self.ids().filter(move |&l| self.kind(l) == kind)
    }

    /// The input labels in id order.
    pub fn inputs(&self) -> impl Iterator<Item = LabelId> + '_ {
        self.of_kind(LabelKind::Input)
    }

    /// The output labels (quiescence included) in id order.
    pub fn outputs(&self) -> impl Iterator<Item = LabelId> + '_ {
        self.of_kind(LabelKind::Output)
    }

    /// The underlying interner.
    pub fn interner(&self) -> &Interner {
        &self.labels
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_first_seen_order_and_idempotent() {
        let mut i = Interner::new();
        assert_eq!(i.intern("b"), LabelId(0));
        assert_eq!(i.intern("a"), LabelId(1));
        assert_eq!(i.intern("b"), LabelId(0));
        assert_eq!(i.names(), &["b".to_string(), "a".to_string()]);
    }

    #[test]
    fn a_label_keeps_one_kind() {
        let mut a = Alphabet::new();
        a.add("x", LabelKind::Output).unwrap();
        let err = a.add("x", LabelKind::Input).unwrap_err();
        assert_eq!(err.first, LabelKind::Output);
        let d = a.set_quiescence("delta").unwrap();
        assert_eq!(a.quiescence(), Some(d));
        assert!(a.is_output(d));
        assert_eq!(a.outputs().count(), 2);
        assert_eq!(a.inputs().count(), 0);
    }
}
