//! The native schema as serde reads it: the document, its transitions, timeouts and
//! requirement keys, names that accept YAML numbers and booleans, and the places of the
//! document that problems found after reading point at.

use super::super::unique_keys::unique_keys;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::collections::HashMap;
use std::fmt;

/// A label or state name; YAML numbers and booleans are accepted as their text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct Name(pub(super) String);

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Name;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a name (a string or a number)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Name, E> {
                Ok(Name(v.to_owned()))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Name, E> {
                Ok(Name(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Name, E> {
                Ok(Name(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Kind {
    Lts,
    Mealy,
    Moore,
    Onfsm,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Transition {
    pub(super) from: Name,
    pub(super) to: Name,
    pub(super) label: Option<Name>,
    pub(super) input: Option<Name>,
    pub(super) output: Option<Name>,
    /// Requirement tags ([`crate::format::requirements`]).
    pub(super) requirements: Option<Vec<Name>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Document {
    pub(super) name: Option<Name>,
    pub(super) kind: Kind,
    #[serde(default)]
    pub(super) inputs: Vec<Name>,
    #[serde(default)]
    pub(super) outputs: Vec<Name>,
    #[serde(default)]
    pub(super) internal: Vec<Name>,
    pub(super) quiescence: Option<Name>,
    pub(super) initial: Name,
    pub(super) states: Option<Vec<Name>>,
    /// Moore only: the output of each state, in the order of `states`.
    pub(super) state_outputs: Option<Vec<Name>>,
    pub(super) transitions: Vec<Transition>,
    /// Timeout annotations ([`crate::format::timeouts`]).
    pub(super) timeouts: Option<Timeouts>,
    /// Requirement tags of states, by state name ([`crate::format::requirements`]).
    #[serde(default, deserialize_with = "unique_keys")]
    pub(super) state_requirements: HashMap<Name, Vec<Name>>,
}

/// The `timeouts` key: quiescence timeouts by state, response timeouts by input, in ms.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Timeouts {
    #[serde(default, deserialize_with = "unique_keys")]
    pub(super) quiescence_ms: HashMap<Name, Name>,
    #[serde(default, deserialize_with = "unique_keys")]
    pub(super) response_ms: HashMap<Name, Name>,
}

/// Where a semantic error sits: the value of a top-level key or the n-th transition.
#[derive(Copy, Clone, Debug)]
pub(super) enum Place {
    Key(&'static str),
    Transition(usize),
}

/// A semantic error before it has a position.
pub(super) struct Problem {
    pub(super) place: Place,
    pub(super) found: String,
    pub(super) expected: String,
}

pub(super) fn problem(
    place: Place,
    found: impl Into<String>,
    expected: impl Into<String>,
) -> Problem {
    Problem {
        place,
        found: found.into(),
        expected: expected.into(),
    }
}

/// Which syntax the text is in.
#[derive(Copy, Clone)]
pub(super) enum Syntax {
    Yaml,
    Json,
}
