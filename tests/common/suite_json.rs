//! Suite JSON v1 read back by the tests: each test as its name and its content, the content
//! being the test's tree unfolded from its root.

use serde_json::Value;

/// The tests of a suite JSON text as (name, content) in order; the content is the test's tree
/// unfolded from its root, so two numberings or sharings of the same tree are the same content.
pub fn tests_of(json: &str) -> Vec<(String, String)> {
    let doc: Value = serde_json::from_str(json).unwrap();
    doc["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let mut t = t.as_object().unwrap().clone();
            let name = t.remove("name").unwrap().as_str().unwrap().to_owned();
            let nodes = t.remove("nodes").unwrap();
            let root = t.remove("root").unwrap_or(Value::from(0));
            t.insert("tree".into(), unfold(nodes.as_array().unwrap(), &root));
            (name, Value::Object(t).to_string())
        })
        .collect()
}

/// The subtree at `next` (a node number, or a verdict kept as it is), every node number in its
/// `then`, `race` and `expect` fields replaced by the subtree it names.
pub fn unfold(nodes: &[Value], next: &Value) -> Value {
    let Some(k) = next.as_u64() else {
        return next.clone();
    };
    let mut node = nodes[k as usize].as_object().unwrap().clone();
    for (key, value) in node.iter_mut() {
        match key.as_str() {
            "then" => *value = unfold(nodes, value),
            "race" | "expect" => {
                for branch in value.as_object_mut().unwrap().values_mut() {
                    *branch = unfold(nodes, branch);
                }
            }
            _ => {}
        }
    }
    Value::Object(node)
}
