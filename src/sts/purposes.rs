//! Switch-coverage test purposes (van den Bos Sec. 4.4): a test purpose (Def. 4.16) is a path
//! `r0 … rn` of the symbolic execution graph with the path condition of the state it reaches;
//! a set of purposes has a priori switch coverage `|⋃ {r0, …, rn}| / |R|`.
//!
//! Purposes are found breadth-first, as the thesis suggests: the graph is unfolded until every
//! switch labels an edge (or the depth or node budget is reached); then, switch by switch in
//! file order, a switch not on an earlier purpose's path gets the path to the first node (in
//! breadth-first order) it leads to, so each purpose is a shortest path for its switch. A path
//! that is a prefix of another purpose's is dropped (it covers nothing more). Purposes are
//! written longest first, the order of the thesis' case study.
//!
//! Switch coverage is a selection criterion: it is sound (a purpose's verdict `fail` means
//! non-conformance) but not exhaustive, and it is NOT n-completeness: a system that conforms on
//! every covered path can still fail elsewhere.

use super::solver::{Sat, Solver};
use super::symbolic::{Seg, SegLimits, unfold};
use super::types::Sts;
use serde_json::json;

/// The identifier of the purposes file format.
pub const FORMAT: &str = "ncomplete-sts-purposes";
/// Its version.
pub const VERSION: u64 = 1;

/// One test purpose: a node of the symbolic execution graph.
#[derive(Clone, Debug)]
pub struct Purpose {
    /// The node the path leads to.
    pub node: usize,
    /// The switches of the path.
    pub path: Vec<usize>,
}

/// The purposes of an STS with their a priori coverage.
#[derive(Clone, Debug)]
pub struct Purposes {
    /// The unfolded graph the purposes are paths of.
    pub seg: Seg,
    /// The purposes, longest first.
    pub purposes: Vec<Purpose>,
    /// Per switch, whether a purpose covers it.
    pub covered: Vec<bool>,
    /// The depth bound used.
    pub depth: usize,
}

/// Switch-coverage purposes of `sts` within `limits`.
pub fn switch_purposes(sts: &Sts, solver: &mut dyn Solver, limits: SegLimits) -> Purposes {
    let seg = unfold(sts, solver, limits, true);
    let mut first: Vec<Option<usize>> = vec![None; sts.switches.len()];
    for (i, node) in seg.nodes.iter().enumerate() {
        if let Some((_, k)) = node.parent
            && first[k].is_none()
        {
            first[k] = Some(i);
        }
    }
    let mut covered = vec![false; sts.switches.len()];
    let mut purposes: Vec<Purpose> = Vec::new();
    for k in 0..sts.switches.len() {
        if covered[k] {
            continue;
        }
        let Some(node) = first[k] else { continue };
        let path = seg.path(node);
        for &r in &path {
            covered[r] = true;
        }
        purposes.push(Purpose { node, path });
    }
    let paths: Vec<Vec<usize>> = purposes.iter().map(|p| p.path.clone()).collect();
    purposes.retain(|p| {
        !paths
            .iter()
            .any(|q| q.len() > p.path.len() && q.starts_with(&p.path))
    });
    purposes.sort_by(|a, b| b.path.len().cmp(&a.path.len()).then(a.node.cmp(&b.node)));
    Purposes {
        seg,
        purposes,
        covered,
        depth: limits.depth,
    }
}

impl Purposes {
    /// Switches covered.
    pub fn covered_count(&self) -> usize {
        self.covered.iter().filter(|&&c| c).count()
    }

    /// Inputs and outputs over all purposes.
    pub fn steps(&self) -> usize {
        self.purposes.iter().map(|p| p.path.len()).sum()
    }

    /// The purposes file: format, version, model, coverage, and per purpose its steps (switch,
    /// gate, direction, the step's symbols, the guard as written) and its path condition as a
    /// constraint over the symbols (`p_k`: parameter `p` at step `k`).
    pub fn to_json(&self, sts: &Sts) -> String {
        let purposes: Vec<serde_json::Value> = self
            .purposes
            .iter()
            .map(|p| {
                let node = &self.seg.nodes[p.node];
                let steps: Vec<serde_json::Value> = p
                    .path
                    .iter()
                    .enumerate()
                    .map(|(i, &k)| {
                        let s = &sts.switches[k];
                        let gate = &sts.gates[s.gate];
                        json!({
                            "switch": s.name,
                            "gate": gate.name,
                            "direction": gate.direction.to_string(),
                            "symbols": gate.parameters.iter().map(|q| format!("{}_{}", q.name, i + 1)).collect::<Vec<_>>(),
                            "guard": s.guard_text,
                        })
                    })
                    .collect();
                let constraint: Vec<String> = node
                    .condition
                    .iter()
                    .map(|c| c.to_expr(sts, &node.symbols).to_string())
                    .collect();
                json!({
                    "steps": steps,
                    "constraint": constraint,
                    "solver": match node.answer { Sat::Sat => "sat", Sat::Unsat => "unsat", Sat::Unknown => "unknown" },
                })
            })
            .collect();
        let uncovered: Vec<&str> = sts
            .switches
            .iter()
            .zip(&self.covered)
            .filter(|(_, c)| !**c)
            .map(|(s, _)| s.name.as_str())
            .collect();
        let doc = json!({
            "format": FORMAT,
            "version": VERSION,
            "model": sts.name,
            "criterion": "switch coverage (van den Bos Sec. 4.4); not n-complete",
            "depth": self.depth,
            "coverage": {
                "switches": sts.switches.len(),
                "covered": self.covered_count(),
                "uncovered": uncovered,
            },
            "inputs_and_outputs": self.steps(),
            "purposes": purposes,
        });
        let mut text = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
        text.push('\n');
        text
    }

    /// The one-line summary: purposes, steps and a priori coverage.
    pub fn summary(&self, sts: &Sts) -> String {
        format!(
            "{} switch-coverage test purposes, {} inputs and outputs, a priori switch coverage {}/{} ({:.1}%){}\n",
            self.purposes.len(),
            self.steps(),
            self.covered_count(),
            sts.switches.len(),
            if sts.switches.is_empty() {
                100.0
            } else {
                100.0 * self.covered_count() as f64 / sts.switches.len() as f64
            },
            if self.seg.truncated {
                " (unfolding stopped at its node budget)"
            } else {
                ""
            }
        )
    }
}

#[cfg(all(test, feature = "smt"))]
mod tests {
    use super::*;
    use crate::sts::load::{Syntax, parse_sts};
    use crate::sts::z3::Z3Solver;

    fn bundled(name: &str) -> Sts {
        let path = format!("{}/models/sts/{name}.sts.yaml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        parse_sts(&text, &path, name, Syntax::Yaml).unwrap()
    }

    const LIMITS: SegLimits = SegLimits {
        depth: 30,
        nodes: 50_000,
    };

    #[test]
    fn bundled_models_reach_full_a_priori_switch_coverage() {
        for name in ["coffee", "brp", "login"] {
            let sts = bundled(name);
            let p = switch_purposes(&sts, &mut Z3Solver::new(), LIMITS);
            assert_eq!(
                p.covered_count(),
                sts.switches.len(),
                "{name}: {}",
                p.summary(&sts)
            );
            // Every purpose's path condition has a witness (the solver says sat).
            for purpose in &p.purposes {
                let node = &p.seg.nodes[purpose.node];
                let w = Z3Solver::new().witness(&node.symbols, &node.condition);
                assert!(w.is_some(), "{name}: no witness for {:?}", purpose.path);
            }
        }
    }

    #[test]
    fn infeasible_paths_are_pruned() {
        // Example 4.13: r2 (done!, x > 15) is not enabled initially, only after enough inX.
        let text = "sts: 1
variables: [{name: x, type: int, initial: 0}]
gates:
  - {name: inX, kind: input, parameters: [{name: p, type: int}]}
  - {name: outX, kind: output, parameters: [{name: p, type: int}]}
  - {name: done, kind: output}
initial: l0
switches:
  - {name: r0, from: l0, gate: inX, guard: 1 <= p and p <= 10, assign: {x: x + p}, to: l1}
  - {name: r1, from: l1, gate: outX, guard: p == x, to: l0}
  - {name: r2, from: l0, gate: done, guard: x > 15, to: l2}
";
        let sts = parse_sts(text, "fig.sts.yaml", "fig", Syntax::Yaml).unwrap();
        let p = switch_purposes(&sts, &mut Z3Solver::new(), LIMITS);
        assert_eq!(p.covered_count(), 3);
        // The shortest purpose reaching r2 is r0 r1 r0 r1 r2 (Example 4.17): r0 r1 r2 is
        // infeasible (p_1 <= 10 < 15), and the solver pruned it.
        assert_eq!(p.purposes[0].path, vec![0, 1, 0, 1, 2]);
        assert_eq!(p.purposes.len(), 1);
        let json = p.to_json(&sts);
        assert!(
            json.contains("\"format\": \"ncomplete-sts-purposes\""),
            "{json}"
        );
        assert!(json.contains("p_3 <= 10"), "{json}");
        // Too shallow an unfolding leaves r2 uncovered, and says so.
        let shallow = switch_purposes(
            &sts,
            &mut Z3Solver::new(),
            SegLimits {
                depth: 4,
                nodes: 100,
            },
        );
        assert_eq!(shallow.covered_count(), 2);
        assert!(
            shallow
                .to_json(&sts)
                .contains("\"uncovered\": [\n      \"r2\"")
        );
    }
}
