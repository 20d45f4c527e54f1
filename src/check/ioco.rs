//! Deciding `impl ioco spec` (van den Bos Def. 2.3: for every suspension trace σ of the
//! specification, out(impl after σ) ⊆ out(spec after σ)) and `impl uioco spec` (TorX thesis
//! Def. 2.2.17: the same over Utraces, the traces whose inputs are enabled in every state the
//! specification may be in), by breadth-first search over the product of the two observation
//! graphs. A failure is reported with a shortest counterexample σx (Def. 2.6): σ a trace of both
//! models, x an output (or quiescence) of the implementation after σ that the specification does not
//! allow.
//!
//! ioco presumes an input-enabled implementation (TorX thesis Def. 2.2.8). Models are often not:
//! [`MissingInputs`] chooses what an input refused by the implementation means. The default,
//! [`MissingInputs::Reject`], reports an error only when the verdict depends on it: if the search
//! never meets a specification input refused by the implementation, every input-enabled completion
//! of the implementation has the same verdict; and a counterexample found is a trace of the
//! implementation itself, so it stays one in every completion.

use super::error::CheckError;
use super::observe::{DEFAULT_BUDGET, Observable, Observer, Vocabulary};
use crate::model::{LabelId, LabelKind};
use std::collections::{HashMap, VecDeque};

/// What an input that the implementation refuses means.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum MissingInputs {
    /// An error naming the state and input, when the verdict depends on it.
    #[default]
    Reject,
    /// The input is accepted and ignored: every implementation state that does not enable it gets
    /// a self-loop, as JTorX completes implementations (TorX thesis Sec. 3.2).
    SelfLoop,
    /// The behaviour after a refused input is not observed, as EVEREST treats partial models.
    Cut,
}

impl std::str::FromStr for MissingInputs {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "reject" => Ok(MissingInputs::Reject),
            "self-loop" => Ok(MissingInputs::SelfLoop),
            "cut" => Ok(MissingInputs::Cut),
            _ => Err(format!("found `{s}`, expected reject, self-loop or cut")),
        }
    }
}

/// Options of the ioco check.
#[derive(Copy, Clone, Debug)]
pub struct IocoOptions {
    /// Check uioco: only traces whose inputs are enabled in every state the specification may be in.
    pub uioco: bool,
    /// What an input refused by the implementation means.
    pub missing_inputs: MissingInputs,
    /// Bound on the observation states built for each LTS.
    pub budget: usize,
}

impl Default for IocoOptions {
    fn default() -> Self {
        IocoOptions {
            uioco: false,
            missing_inputs: MissingInputs::Reject,
            budget: DEFAULT_BUDGET,
        }
    }
}

/// A shortest trace σx showing that the implementation does not conform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IocoCounterexample {
    /// σ, as marked labels (`?a`, `!x`, `delta`).
    pub trace: Vec<String>,
    /// x, the implementation's output (or quiescence) after σ.
    pub output: String,
    /// out(spec after σ), sorted by label order.
    pub allowed: Vec<String>,
    /// The specification state after σ.
    pub spec_state: String,
    /// The implementation state after σ.
    pub impl_state: String,
}

impl std::fmt::Display for IocoCounterexample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let trace = if self.trace.is_empty() {
            "ε".to_owned()
        } else {
            self.trace.join(" ")
        };
        write!(
            f,
            "after {trace} the implementation (state {}) can produce {}, but the specification (state {}) allows only {{{}}}",
            self.impl_state,
            self.output,
            self.spec_state,
            self.allowed.join(", ")
        )
    }
}

/// The verdict of an ioco or uioco check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IocoVerdict {
    /// The implementation conforms.
    Conforms,
    /// It does not, shown by a shortest counterexample.
    Fails(IocoCounterexample),
}

impl IocoVerdict {
    /// Whether the implementation conforms.
    pub fn conforms(&self) -> bool {
        matches!(self, IocoVerdict::Conforms)
    }
}

/// Decides `imp ioco spec` (or uioco, per `opts`).
pub fn check_ioco(
    spec: Observable<'_>,
    imp: Observable<'_>,
    opts: &IocoOptions,
) -> Result<IocoVerdict, CheckError> {
    let vocab = Vocabulary::of(&[spec, imp])?;
    let mut s_obs = Observer::new(spec, &vocab, opts.budget);
    let mut i_obs = Observer::new(imp, &vocab, opts.budget);
    if opts.missing_inputs == MissingInputs::SelfLoop {
        i_obs = i_obs.with_self_loops(&vocab);
    }
    let start = (s_obs.initial(), i_obs.initial());
    // nodes[k] = (spec state, impl state, parent node, label from parent)
    let mut nodes: Vec<(u32, u32, usize, LabelId)> =
        vec![(start.0, start.1, usize::MAX, LabelId(0))];
    let mut seen: HashMap<(u32, u32), usize> = HashMap::from([(start, 0)]);
    let mut queue = VecDeque::from([0usize]);
    let mut first_missing: Option<(usize, LabelId)> = None;
    let trace_of = |nodes: &[(u32, u32, usize, LabelId)], mut k: usize| {
        let mut t = Vec::new();
        while nodes[k].2 != usize::MAX {
            t.push(nodes[k].3);
            k = nodes[k].2;
        }
        t.reverse();
        t
    };
    while let Some(k) = queue.pop_front() {
        let (s, q, _, _) = nodes[k];
        let mut children: Vec<(LabelId, u32, u32)> = Vec::new();
        // Outputs (quiescence included) of the implementation must be allowed by the specification.
        let imp_edges: Vec<(LabelId, u32)> = i_obs.enabled(q)?.to_vec();
        for &(x, q2) in imp_edges
            .iter()
            .filter(|(l, _)| vocab.kind(*l) == LabelKind::Output)
        {
            match s_obs.after(s, x)? {
                Some(s2) => children.push((x, s2, q2)),
                None => {
                    let allowed = s_obs
                        .enabled(s)?
                        .iter()
                        .filter(|(l, _)| vocab.kind(*l) == LabelKind::Output)
                        .map(|&(l, _)| vocab.marked(l))
                        .collect();
                    let trace = trace_of(&nodes, k);
                    return Ok(IocoVerdict::Fails(IocoCounterexample {
                        trace: trace.iter().map(|&l| vocab.marked(l)).collect(),
                        output: vocab.marked(x),
                        allowed,
                        spec_state: s_obs.state_name(s),
                        impl_state: i_obs.state_name(q),
                    }));
                }
            }
        }
        // Inputs the specification specifies (for uioco: in all its possible states).
        let inputs: Vec<LabelId> = if opts.uioco {
            s_obs.certain_inputs(s)?.to_vec()
        } else {
            s_obs
                .enabled(s)?
                .iter()
                .filter(|(l, _)| vocab.kind(*l) == LabelKind::Input)
                .map(|&(l, _)| l)
                .collect()
        };
        for a in inputs {
            let Some(s2) = s_obs.after(s, a)? else {
                continue;
            };
            let q2 = match i_obs.after(q, a)? {
                Some(q2) => q2,
                None => match opts.missing_inputs {
                    // Not reached: with self-loops every state enables every input.
                    MissingInputs::SelfLoop => q,
                    MissingInputs::Cut => continue,
                    MissingInputs::Reject => {
                        first_missing.get_or_insert((k, a));
                        continue;
                    }
                },
            };
            children.push((a, s2, q2));
        }
        children.sort_unstable_by_key(|&(l, _, _)| l);
        for (l, s2, q2) in children {
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry((s2, q2)) {
                e.insert(nodes.len());
                nodes.push((s2, q2, k, l));
                queue.push_back(nodes.len() - 1);
            }
        }
    }
    if let Some((k, a)) = first_missing {
        let trace = trace_of(&nodes, k);
        return Err(CheckError::NotInputEnabled {
            state: i_obs.state_name(nodes[k].1),
            input: vocab.name(a).to_owned(),
            trace: vocab.trace(&trace),
        });
    }
    Ok(IocoVerdict::Conforms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Lts, lts_from_marked, suspension_from_marked};

    fn ioco(spec: &Lts, imp: &Lts, opts: IocoOptions) -> Result<IocoVerdict, CheckError> {
        check_ioco(Observable::Lts(spec), Observable::Lts(imp), &opts)
    }

    fn cex(v: IocoVerdict) -> String {
        match v {
            IocoVerdict::Fails(c) => format!("{} {}", c.trace.join(" "), c.output)
                .trim()
                .to_owned(),
            IocoVerdict::Conforms => "conforms".into(),
        }
    }

    /// Van den Bos Fig. 2.1: the bundled specification `models/vdbos_fig2_1.aut` shared by every
    /// unit test (thesis state k is state k-1). Implementation i1 conforms with one state for
    /// both 2 and 3 and one for both 4 and 5 (Example 2.8); i2 fails with the counterexample
    /// ?a !w !z !x and no shorter one.
    fn fig_2_1() -> (Lts, Lts, Lts) {
        let s = crate::analysis::compatibility::tests::vdbos_fig_2_1_lts();
        let i1 = lts_from_marked(
            "i1",
            4,
            &[
                (0, "!x", 1),
                (0, "?a", 1),
                (1, "!w", 3),
                (1, "?a", 2),
                (2, "!y", 3),
                (2, "?a", 2),
                (3, "!z", 3),
                (3, "?a", 3),
            ],
        )
        .unwrap();
        let i2 = lts_from_marked(
            "i2",
            7,
            &[
                (0, "!x", 5),
                (0, "?a", 1),
                (1, "!w", 2),
                (1, "?a", 6),
                (2, "!z", 3),
                (2, "?a", 2),
                (3, "!x", 4),
                (3, "?a", 3),
                (4, "?a", 4),
                (5, "!w", 6),
                (5, "?a", 6),
                (6, "!y", 6),
                (6, "?a", 6),
            ],
        )
        .unwrap();
        (s, i1, i2)
    }

    #[test]
    fn fig_2_1_verdicts() {
        let (s, i1, i2) = fig_2_1();
        assert!(ioco(&s, &i1, IocoOptions::default()).unwrap().conforms());
        let IocoVerdict::Fails(c) = ioco(&s, &i2, IocoOptions::default()).unwrap() else {
            panic!("i2 must fail")
        };
        assert_eq!(c.trace, ["?a", "!w", "!z"]);
        assert_eq!(c.output, "!x");
        assert_eq!(c.allowed, ["!y", "!z"]);
        // An implementation that stays quiescent after ?a fails with the shortest σx = ?a delta.
        let i3 = lts_from_marked(
            "i3",
            3,
            &[
                (0, "!x", 1),
                (0, "?a", 2),
                (1, "!w", 1),
                (1, "?a", 1),
                (2, "?a", 2),
            ],
        )
        .unwrap();
        assert_eq!(
            cex(ioco(&s, &i3, IocoOptions::default()).unwrap()),
            "?a delta"
        );
    }

    #[test]
    fn counterexample_is_shortest_and_explains() {
        let spec = suspension_from_marked(
            "s",
            3,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (2, "?a", 0),
                (2, "delta", 2),
            ],
        )
        .unwrap();
        let imp = suspension_from_marked(
            "i",
            4,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (2, "?a", 3),
                (2, "delta", 2),
                (3, "!y", 0),
                (1, "?a", 1),
                (3, "?a", 3),
            ],
        )
        .unwrap();
        let v = check_ioco(
            Observable::Suspension(&spec),
            Observable::Suspension(&imp),
            &IocoOptions::default(),
        )
        .unwrap();
        let IocoVerdict::Fails(c) = v else {
            panic!("expected a failure")
        };
        assert_eq!(c.trace, ["?a", "!x", "?a"]);
        assert_eq!(c.output, "!y");
        assert_eq!(c.allowed, ["delta"]);
        assert!(c.to_string().contains("allows only {delta}"), "{c}");
    }

    #[test]
    fn missing_inputs_policies() {
        // The spec allows ?b after ?a !x; the implementation refuses it.
        let spec = lts_from_marked("s", 3, &[(0, "?a", 1), (1, "!x", 2), (2, "?b", 0)]).unwrap();
        let imp = lts_from_marked("i", 3, &[(0, "?a", 1), (1, "!x", 2)]).unwrap();
        let err = ioco(&spec, &imp, IocoOptions::default()).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("state `{2}`") && msg.contains("input `b`"),
            "{msg}"
        );
        assert!(msg.contains("?a !x"), "{msg}");
        let loops = IocoOptions {
            missing_inputs: MissingInputs::SelfLoop,
            ..Default::default()
        };
        // Self-loop: the implementation ignores ?b and then ?a, so it stays quiescent where the
        // specification expects !x.
        assert_eq!(cex(ioco(&spec, &imp, loops).unwrap()), "?a !x ?b ?a delta");
        let cut = IocoOptions {
            missing_inputs: MissingInputs::Cut,
            ..Default::default()
        };
        assert!(ioco(&spec, &imp, cut).unwrap().conforms());
        // A counterexample that does not depend on the missing input is still reported.
        let bad = lts_from_marked("i", 3, &[(0, "?a", 1), (1, "!y", 2)]).unwrap();
        assert_eq!(
            cex(ioco(&spec, &bad, IocoOptions::default()).unwrap()),
            "?a !y"
        );
    }

    #[test]
    fn uioco_ignores_underspecified_inputs() {
        // After ?a the spec is in {1, 2}; only 1 specifies ?b (then !x). ioco tests ?a ?b, uioco not.
        let spec = lts_from_marked(
            "s",
            4,
            &[
                (0, "?a", 1),
                (0, "?a", 2),
                (1, "?b", 3),
                (3, "!x", 0),
                (2, "!y", 0),
            ],
        )
        .unwrap();
        // The implementation resolves ?a to the branch of state 2 but answers ?b with !z.
        let imp = lts_from_marked(
            "i",
            3,
            &[
                (0, "?a", 1),
                (1, "!y", 0),
                (1, "?b", 2),
                (2, "!z", 0),
                (0, "?b", 0),
                (2, "?a", 2),
                (2, "?b", 2),
                (1, "?a", 1),
            ],
        )
        .unwrap();
        assert_eq!(
            cex(ioco(&spec, &imp, IocoOptions::default()).unwrap()),
            "?a ?b !z"
        );
        let u = IocoOptions {
            uioco: true,
            ..Default::default()
        };
        assert!(ioco(&spec, &imp, u).unwrap().conforms());
    }
}
