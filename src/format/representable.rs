//! Which models a format can hold so that they read back as themselves ([`unrepresentable`]):
//! the label conventions of `.aut` and DOT, Moore machines in DOT, `.fsm`'s deterministic
//! machines.

use super::options::Format;
use super::{build, dot, position};
use crate::model::Model;

/// Why `model` cannot be written in `format` so that it reads back as the same model, if it
/// cannot: `.aut` and DOT declare labels only on transitions, and their label conventions
/// cannot carry a Mealy input that contains `/` or
/// starts with `?` or `!`, internal labels other than `tau` and `i`, quiescence not named
/// `delta`, or (DOT) a state named like the start marker `__start...`. A Moore machine needs
/// state outputs (not in `.aut`) and, in DOT, inputs without marks and state names without
/// `|`, `{`, `}`; a nondeterministic Mealy machine is recognised in `.aut` and DOT only when
/// it is nondeterministic; `.fsm` holds deterministic Mealy and Moore machines only (and
/// numbers their states and labels, as `.aut` numbers states).
pub fn unrepresentable(model: &Model, format: Format) -> Option<String> {
    if matches!(format, Format::Yaml | Format::Json) {
        return None;
    }
    let states = match model {
        Model::Lts(l) if format == Format::Fsm => {
            let what = if l.onfsm().is_some() {
                "a nondeterministic Mealy machine"
            } else {
                "a labelled transition system"
            };
            return Some(format!(
                "FSMlib .fsm holds deterministic Mealy and Moore machines, and this model is {what}"
            ));
        }
        Model::Mealy(_) if format == Format::Fsm => return None,
        Model::Mealy(m) if m.state_outputs().is_some() => {
            if format == Format::Aut {
                return Some(
                    ".aut has no state outputs, so the Moore machine would read back as its Mealy translation".into(),
                );
            }
            if let Some(why) = moore_dot_problem(m) {
                return Some(why);
            }
            m.state_names()
        }
        Model::Mealy(m) => {
            let quads: Vec<_> = m.quads().collect();
            if let Some(why) = mealy_label_problem(&m.inputs, &m.outputs, &quads, format) {
                return Some(why);
            }
            m.state_names()
        }
        Model::Lts(l) if l.onfsm().is_some() => {
            let o = l.onfsm().expect("matched");
            if !o.is_nondeterministic() {
                return Some(format!(
                    "the nondeterministic Mealy machine has one transition per state and input, so {format} would read it as a deterministic one"
                ));
            }
            if let Some(why) = mealy_label_problem(&o.inputs, &o.outputs, o.quads(), format) {
                return Some(why);
            }
            o.state_names()
        }
        Model::Lts(l) => {
            let a = &l.alphabet;
            let mut used = vec![false; a.len()];
            for (_, lab, _) in l.triples() {
                used[lab.index()] = true;
            }
            if let Some(id) = a.ids().find(|id| !used[id.index()]) {
                return Some(unused_label(a.name(id), format));
            }
            for id in a.ids() {
                let name = a.name(id);
                if a.quiescence() == Some(id) {
                    if name != "delta" {
                        return Some(format!(
                            "quiescence is named `{}`; {format} writes it as `delta`",
                            position::excerpt(name)
                        ));
                    }
                } else if a.kind(id) == crate::model::LabelKind::Internal
                    && name != "tau"
                    && name != "i"
                {
                    return Some(format!(
                        "the internal label `{}` would be written as `tau` in {format}",
                        position::excerpt(name)
                    ));
                }
            }
            l.state_names()
        }
    };
    if format == Format::Dot
        && let Some(s) = states.iter().find(|s| dot::is_start_marker(s))
    {
        return Some(format!(
            "the state `{}` would be read as a start marker in DOT",
            position::excerpt(s)
        ));
    }
    None
}

/// Why the Mealy labels `input / output` of these transitions cannot be written in `.aut` or
/// DOT: a label on no transition, or an input the label conventions would read otherwise.
fn mealy_label_problem(
    inputs: &crate::model::Interner,
    outputs: &crate::model::Interner,
    quads: &[(
        crate::model::StateId,
        crate::model::LabelId,
        crate::model::LabelId,
        crate::model::StateId,
    )],
    format: Format,
) -> Option<String> {
    let mut used_in = vec![false; inputs.len()];
    let mut used_out = vec![false; outputs.len()];
    for &(_, i, o, _) in quads {
        used_in[i.index()] = true;
        used_out[o.index()] = true;
    }
    let unused = (inputs.ids().zip(&used_in))
        .find(|(_, u)| !**u)
        .map(|(i, _)| inputs.name(i))
        .or_else(|| {
            (outputs.ids().zip(&used_out))
                .find(|(_, u)| !**u)
                .map(|(o, _)| outputs.name(o))
        });
    if let Some(name) = unused {
        return Some(unused_label(name, format));
    }
    inputs
        .names()
        .iter()
        .find(|i| i.contains('/') || i.starts_with(['?', '!']))
        .map(|i| {
            format!(
                "the Mealy input `{}` contains `/` or starts with `?` or `!`, which the {format} label `input / output` cannot carry",
                position::excerpt(i)
            )
        })
}

/// Why a Moore machine cannot be written as an AALpy Moore DOT that reads back as itself.
fn moore_dot_problem(m: &crate::model::Mealy) -> Option<String> {
    if m.num_transitions() == 0 {
        return Some(
            "a Moore machine without transitions has no edges by which DOT would tell it from an LTS".into(),
        );
    }
    let mut used = vec![false; m.inputs.len()];
    for (_, i, _, _) in m.quads() {
        used[i.index()] = true;
    }
    if let Some(i) = m.input_ids().find(|i| !used[i.index()]) {
        return Some(unused_label(m.inputs.name(i), Format::Dot));
    }
    let outs = m.state_outputs().unwrap_or_default();
    if let Some(o) = m.outputs.ids().find(|o| !outs.contains(o)) {
        return Some(format!(
            "the output `{}` is the output of no state, and a Moore DOT declares outputs only on states",
            position::excerpt(m.outputs.name(o))
        ));
    }
    if let Some(i) = m
        .inputs
        .names()
        .iter()
        .find(|i| !matches!(build::shape(i), Ok(build::Shape::Unmarked(n)) if n == i.as_str()))
    {
        return Some(format!(
            "the Moore input `{}` would be read as a marked LTS label or a Mealy label in DOT",
            position::excerpt(i)
        ));
    }
    m.state_names()
        .iter()
        .find(|s| s.contains(['|', '{', '}']))
        .map(|s| {
            format!(
                "the Moore state `{}` contains `|`, `{{` or `}}`, which its DOT label `name|output` cannot carry",
                position::excerpt(s)
            )
        })
}

fn unused_label(name: &str, format: Format) -> String {
    format!(
        "the label `{}` is on no transition, and {format} declares labels only by using them",
        position::excerpt(name)
    )
}
