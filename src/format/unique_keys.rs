//! Maps read from YAML and JSON whose keys must be unique: serde fills a `HashMap` or a
//! `BTreeMap` silently keeping the last of two equal keys, where a DOT or `.aut` side file
//! refuses the second annotation. [`unique_keys`] (for `#[serde(deserialize_with)]`) refuses
//! it too, as a deserialization error at the second key's value (where YAML and JSON readers
//! can place it), so the reader reports its line and column like any other error.

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// A map that takes each key at most once.
pub(crate) trait MapOfUniqueKeys: Default {
    /// The key type.
    type Key;
    /// The value type.
    type Value;
    /// Whether the map holds `key`.
    fn holds(&self, key: &Self::Key) -> bool;
    /// Inserts `key` with `value`.
    fn put(&mut self, key: Self::Key, value: Self::Value);
}

impl<K: Eq + Hash, V> MapOfUniqueKeys for HashMap<K, V> {
    type Key = K;
    type Value = V;
    fn holds(&self, key: &K) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
}

impl<K: Ord, V> MapOfUniqueKeys for BTreeMap<K, V> {
    type Key = K;
    type Value = V;
    fn holds(&self, key: &K) -> bool {
        self.contains_key(key)
    }
    fn put(&mut self, key: K, value: V) {
        self.insert(key, value);
    }
}

/// Deserializes a map, refusing a key it has seen already: "found a second key `KEY`, expected
/// each key once", at the second key's value.
pub(crate) fn unique_keys<'de, D, M>(d: D) -> Result<M, D::Error>
where
    D: Deserializer<'de>,
    M: MapOfUniqueKeys,
    M::Key: Deserialize<'de> + AsRef<str>,
    M::Value: Deserialize<'de>,
{
    struct V<M>(PhantomData<M>);
    impl<'de, M> Visitor<'de> for V<M>
    where
        M: MapOfUniqueKeys,
        M::Key: Deserialize<'de> + AsRef<str>,
        M::Value: Deserialize<'de>,
    {
        type Value = M;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<M, A::Error> {
            let mut map = M::default();
            while let Some(key) = access.next_key::<M::Key>()? {
                if map.holds(&key) {
                    let found = format!("a second key `{}`", key.as_ref());
                    access.next_value_seed(Refuse(found))?;
                    // A value read without failing (it cannot be) is still a second key.
                    return Err(de::Error::custom("a second key"));
                }
                let value = access.next_value::<M::Value>()?;
                map.put(key, value);
            }
            Ok(map)
        }
    }
    d.deserialize_map(V(PhantomData))
}

/// Fails at the value it is asked to read with "found FOUND, expected each key once", so the
/// deserializer places the error at that value.
struct Refuse(String);

impl Refuse {
    fn error<E: de::Error>(&self) -> E {
        E::invalid_value(de::Unexpected::Other(&self.0), &"each key once")
    }
}

impl<'de> DeserializeSeed<'de> for Refuse {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Refuse {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("each key once")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Err(self.error())
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.error())
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(self.error())
    }
}
