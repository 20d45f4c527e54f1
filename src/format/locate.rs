//! Positions of values in YAML and JSON documents, for errors found after deserializing (a
//! name that is not declared, an expression that does not type check): the document is
//! deserialized again along a path of keys and indices by a seed that fails at the value there,
//! so the deserializer attaches that value's line and column (serde_yaml_ng: where the value
//! starts; serde_json: just after it).

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A step of the path from the document's root to a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// The value of this key of a map.
    Key(String),
    /// This element of a sequence.
    Index(usize),
}

/// The line and column (1-based) serde reports for the value at `path` of `text` (YAML when
/// `yaml`, else JSON), clamped to the text; `(1, 1)` when the path is not in the document.
pub(crate) fn value_position(text: &str, yaml: bool, path: &[Step]) -> (usize, usize) {
    let seed = FailAt { path };
    let reported = if yaml {
        let d = serde_yaml_ng::Deserializer::from_str(text);
        seed.deserialize(d)
            .err()
            .and_then(|e| e.location().map(|l| (l.line(), l.column())))
    } else {
        let mut d = serde_json::Deserializer::from_str(text);
        seed.deserialize(&mut d)
            .err()
            .map(|e| (e.line(), e.column()))
    };
    let (line, column) = reported.unwrap_or((1, 1));
    super::position::clamp(text, line, column)
}

/// A seed that walks the document along `path` and fails at the value there.
struct FailAt<'p> {
    path: &'p [Step],
}

const LOCATED: &str = "located";

impl<'de> DeserializeSeed<'de> for FailAt<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FailAt<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if let Some(Step::Key(want)) = self.path.first() {
            while let Some(k) = map.next_key::<String>()? {
                if *want == k {
                    map.next_value_seed(FailAt {
                        path: &self.path[1..],
                    })?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Err(de::Error::custom(LOCATED))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if let Some(Step::Index(n)) = self.path.first() {
            for _ in 0..*n {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    break;
                }
            }
            seq.next_element_seed(FailAt {
                path: &self.path[1..],
            })?;
        }
        Err(de::Error::custom(LOCATED))
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(LOCATED))
    }
}
