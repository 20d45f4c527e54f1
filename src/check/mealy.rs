//! Equivalence of Mealy machines with a shortest distinguishing input sequence, by breadth-first
//! search over the product of the two machines (inputs and outputs matched by name).
//!
//! Partial machines: an input defined in one machine's state but not in the other's distinguishes
//! them (the word is accepted by one and refused by the other). With `quasi` set, the check is
//! quasi-equivalence instead: inputs the specification leaves undefined are "don't care", and only
//! the implementation must define what the specification defines.

use super::error::CheckError;
use crate::model::{LabelId, Mealy, StateId};
use std::collections::{HashMap, VecDeque};

/// How the two machines differ after the distinguishing word's prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MealyDifference {
    /// Both define the last input but answer differently.
    Outputs {
        /// The specification's output.
        spec: String,
        /// The implementation's output.
        imp: String,
    },
    /// Only the specification defines the last input.
    UndefinedInImplementation,
    /// Only the implementation defines the last input.
    UndefinedInSpecification,
}

/// The verdict of a Mealy equivalence check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MealyVerdict {
    /// The machines are (quasi-)equivalent.
    Equivalent,
    /// A shortest input word on which they differ.
    Distinguished {
        /// The input word; the machines agree on every proper prefix.
        inputs: Vec<String>,
        /// The outputs both machines produce on the prefix.
        common_outputs: Vec<String>,
        /// What differs on the last input.
        difference: MealyDifference,
        /// The specification state before the last input.
        spec_state: String,
        /// The implementation state before the last input.
        impl_state: String,
    },
}

impl MealyVerdict {
    /// Whether the machines are (quasi-)equivalent.
    pub fn conforms(&self) -> bool {
        matches!(self, MealyVerdict::Equivalent)
    }
}

impl std::fmt::Display for MealyVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MealyVerdict::Equivalent => write!(f, "the machines are equivalent"),
            MealyVerdict::Distinguished {
                inputs,
                common_outputs,
                difference,
                spec_state,
                impl_state,
            } => {
                let (prefix, last) = inputs.split_at(inputs.len() - 1);
                let steps: Vec<String> = prefix
                    .iter()
                    .zip(common_outputs)
                    .map(|(i, o)| format!("{i}/{o}"))
                    .collect();
                let before = if steps.is_empty() {
                    "initially".to_owned()
                } else {
                    format!("after {}", steps.join(" "))
                };
                write!(f, "{before}, on input {} ", last[0])?;
                match difference {
                    MealyDifference::Outputs { spec, imp } => write!(
                        f,
                        "the specification (state {spec_state}) outputs {spec} but the implementation (state {impl_state}) outputs {imp}"
                    ),
                    MealyDifference::UndefinedInImplementation => write!(
                        f,
                        "the specification (state {spec_state}) has a transition but the implementation (state {impl_state}) has none"
                    ),
                    MealyDifference::UndefinedInSpecification => write!(
                        f,
                        "the implementation (state {impl_state}) has a transition but the specification (state {spec_state}) has none"
                    ),
                }
            }
        }
    }
}

/// Decides whether `imp` is equivalent (or, with `quasi`, quasi-equivalent) to `spec`.
pub fn check_mealy(spec: &Mealy, imp: &Mealy, quasi: bool) -> Result<MealyVerdict, CheckError> {
    // Inputs by name: the specification's first, then the implementation's new ones.
    let mut names: Vec<&str> = spec.inputs.names().iter().map(String::as_str).collect();
    for n in imp.inputs.names() {
        if spec.inputs.get(n).is_none() {
            names.push(n);
        }
    }
    let pairs: Vec<(Option<LabelId>, Option<LabelId>)> = names
        .iter()
        .map(|n| (spec.inputs.get(n), imp.inputs.get(n)))
        .collect();
    let step = |m: &Mealy, s: StateId, i: Option<LabelId>| i.and_then(|i| m.step(s, i));
    let start = (spec.initial(), imp.initial());
    let mut nodes: Vec<(StateId, StateId, usize, usize)> = vec![(start.0, start.1, usize::MAX, 0)];
    let mut seen: HashMap<(StateId, StateId), ()> = HashMap::from([(start, ())]);
    let mut queue = VecDeque::from([0usize]);
    while let Some(k) = queue.pop_front() {
        let (s, q, _, _) = nodes[k];
        for (x, &(si, ii)) in pairs.iter().enumerate() {
            let difference = match (step(spec, s, si), step(imp, q, ii)) {
                (None, None) => continue,
                (None, Some(_)) if quasi => continue,
                (None, Some(_)) => MealyDifference::UndefinedInSpecification,
                (Some(_), None) => MealyDifference::UndefinedInImplementation,
                (Some((s2, o1)), Some((q2, o2))) => {
                    let (n1, n2) = (spec.outputs.name(o1), imp.outputs.name(o2));
                    if n1 == n2 {
                        if seen.insert((s2, q2), ()).is_none() {
                            nodes.push((s2, q2, k, x));
                            queue.push_back(nodes.len() - 1);
                        }
                        continue;
                    }
                    MealyDifference::Outputs {
                        spec: n1.to_owned(),
                        imp: n2.to_owned(),
                    }
                }
            };
            let mut word = vec![x];
            let mut j = k;
            while nodes[j].2 != usize::MAX {
                word.push(nodes[j].3);
                j = nodes[j].2;
            }
            word.reverse();
            let prefix = &word[..word.len() - 1];
            let mut common_outputs = Vec::new();
            let mut state = spec.initial();
            for &w in prefix {
                if let Some((t, o)) = step(spec, state, pairs[w].0) {
                    common_outputs.push(spec.outputs.name(o).to_owned());
                    state = t;
                }
            }
            return Ok(MealyVerdict::Distinguished {
                inputs: word.iter().map(|&w| names[w].to_owned()).collect(),
                common_outputs,
                difference,
                spec_state: spec.state_name(s).to_owned(),
                impl_state: imp.state_name(q).to_owned(),
            });
        }
    }
    Ok(MealyVerdict::Equivalent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;

    fn word(v: &MealyVerdict) -> String {
        match v {
            MealyVerdict::Equivalent => "equivalent".into(),
            MealyVerdict::Distinguished { inputs, .. } => inputs.join(" "),
        }
    }

    #[test]
    fn equivalent_machines_of_different_size() {
        // A 2-state toggle and its unminimised 4-state copy.
        let spec = mealy_from_named("s", 2, &[(0, "a", "0", 1), (1, "a", "1", 0)]).unwrap();
        let imp = mealy_from_named(
            "i",
            4,
            &[
                (0, "a", "0", 1),
                (1, "a", "1", 2),
                (2, "a", "0", 3),
                (3, "a", "1", 0),
            ],
        )
        .unwrap();
        assert!(check_mealy(&spec, &imp, false).unwrap().conforms());
    }

    #[test]
    fn shortest_distinguishing_word() {
        let spec = mealy_from_named(
            "s",
            3,
            &[
                (0, "a", "0", 1),
                (1, "a", "0", 2),
                (2, "a", "1", 0),
                (0, "b", "0", 0),
                (1, "b", "0", 0),
                (2, "b", "0", 0),
            ],
        )
        .unwrap();
        // The transfer fault 1 -a-> 0 shows after a a a (spec outputs 1, impl 0).
        let imp = mealy_from_named(
            "i",
            3,
            &[
                (0, "a", "0", 1),
                (1, "a", "0", 0),
                (2, "a", "1", 0),
                (0, "b", "0", 0),
                (1, "b", "0", 0),
                (2, "b", "0", 0),
            ],
        )
        .unwrap();
        let v = check_mealy(&spec, &imp, false).unwrap();
        assert_eq!(word(&v), "a a a");
        let text = v.to_string();
        assert!(text.contains("after a/0 a/0, on input a"), "{text}");
        assert!(text.contains("outputs 1 but the implementation"), "{text}");
    }

    #[test]
    fn partial_machines() {
        let spec = mealy_from_named("s", 2, &[(0, "a", "x", 1), (1, "b", "y", 0)]).unwrap();
        let total = mealy_from_named(
            "i",
            2,
            &[
                (0, "a", "x", 1),
                (1, "b", "y", 0),
                (0, "b", "z", 0),
                (1, "a", "z", 1),
            ],
        )
        .unwrap();
        let v = check_mealy(&spec, &total, false).unwrap();
        assert_eq!(word(&v), "b");
        assert!(matches!(
            v,
            MealyVerdict::Distinguished {
                difference: MealyDifference::UndefinedInSpecification,
                ..
            }
        ));
        assert!(check_mealy(&spec, &total, true).unwrap().conforms());
        let v = check_mealy(&total, &spec, true).unwrap();
        assert!(matches!(
            v,
            MealyVerdict::Distinguished {
                difference: MealyDifference::UndefinedInImplementation,
                ..
            }
        ));
        // Inputs only one machine knows count as undefined in the other.
        let extra = mealy_from_named(
            "i",
            2,
            &[(0, "a", "x", 1), (1, "b", "y", 0), (1, "c", "y", 0)],
        )
        .unwrap();
        assert_eq!(word(&check_mealy(&spec, &extra, false).unwrap()), "a c");
    }
}
