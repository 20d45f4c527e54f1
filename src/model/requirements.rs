//! Requirement tags of a model (issue 45, after GraphWalker's `requirements` on vertices and
//! edges): a state or a transition may carry the names of the requirements it stands for.
//!
//! Tags are kept by name (states by their names, transitions by source, label and target
//! names), so they survive every renumbering of the model; the formats read them
//! (`crate::format::requirements`), suites name the requirements each test touches
//! (`crate::suite::requirements`) and runs report each requirement's coverage
//! (`crate::exec::requirements`).

use std::collections::{BTreeMap, BTreeSet};

/// The step of a tagged transition, by name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TaggedStep {
    /// An LTS transition by its label's name (unmarked: `coin`, `tau`, `delta`).
    Label(String),
    /// A Mealy transition (deterministic or not) by its input and output.
    Mealy(String, String),
}

/// A tagged transition: source state, step, target state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TaggedTransition {
    /// The source state's name.
    pub from: String,
    /// The step.
    pub step: TaggedStep,
    /// The target state's name.
    pub to: String,
}

/// A model's requirement tags; empty for a model without them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequirementTags {
    /// The tags of each tagged state, by state name.
    pub states: BTreeMap<String, BTreeSet<String>>,
    /// The tags of each tagged transition.
    pub transitions: BTreeMap<TaggedTransition, BTreeSet<String>>,
}

impl RequirementTags {
    /// Whether no state or transition carries a tag.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty() && self.transitions.is_empty()
    }

    /// Every requirement named, in name order.
    pub fn names(&self) -> Vec<String> {
        let all: BTreeSet<&String> = (self.states.values())
            .chain(self.transitions.values())
            .flatten()
            .collect();
        all.into_iter().cloned().collect()
    }
}

/// A Mealy transition by state indices and label names: source, input, output, target.
pub type NamedQuad = (usize, String, String, usize);

/// The state names and transitions of a Mealy machine, or of the ONFSM an LTS embeds; `None`
/// for any other LTS.
pub fn named_quads(model: &super::Model) -> Option<(&[String], Vec<NamedQuad>)> {
    use super::{Interner, LabelId, StateId};
    fn named<'a>(
        inputs: &'a Interner,
        outputs: &'a Interner,
    ) -> impl Fn((StateId, LabelId, LabelId, StateId)) -> NamedQuad + 'a {
        move |(s, i, o, d)| {
            let (i, o) = (inputs.name(i).to_owned(), outputs.name(o).to_owned());
            (s.index(), i, o, d.index())
        }
    }
    match model {
        super::Model::Lts(l) => {
            let o = l.onfsm()?;
            let quads = o.quads().iter().copied().map(named(&o.inputs, &o.outputs));
            Some((o.state_names(), quads.collect()))
        }
        super::Model::Mealy(m) => {
            let quads = m.quads().map(named(&m.inputs, &m.outputs));
            Some((m.state_names(), quads.collect()))
        }
    }
}
