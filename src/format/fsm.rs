//! FSMlib `.fsm` files (Michal Soucha's FSMlib, the format of its `data/` benchmark machines):
//! deterministic machines whose states, inputs and outputs are numbers.
//!
//! ```text
//! t r        machine type (1 DFSM, 2 Mealy, 3 Moore, 4 DFA) and reduced flag (0 or 1)
//! n p q      numbers of states, inputs and outputs
//! m          number of state ids (ids are 0..m-1; n of them are used)
//! then, by type: n lines `state output` (Moore, DFA: the state outputs),
//!                n lines `state o_0 .. o_{p-1}` (Mealy: the output of each input),
//!                n lines `state t_0 .. t_{p-1}` (all types: the next state of each input)
//! ```
//!
//! Values are separated by whitespace; `-1` is a missing transition (the machine is partial).
//! State 0 is the initial state. Whatever follows the transition lines is ignored (FSMlib's
//! example files append their distinguishing sequences there). States are named by their ids,
//! inputs `0..p-1` and outputs `0..q-1`.
//!
//! Mealy machines (type 2) are read as Mealy machines, Moore machines (type 3) and DFAs (type 4,
//! outputs 0 reject and 1 accept) as the Mealy translation of a Moore machine
//! ([`Mealy::from_moore`]). Type 1 (outputs on states and on transitions) is refused. An output
//! of `-1` (none) on a state or an existing transition is refused too: the tool's machines
//! always answer.
//!
//! Writing numbers what has names: the initial state becomes 0 and the others follow in id
//! order, inputs and outputs are numbered in their order, and the names are lost (as with
//! `.aut`). A Moore machine is written as type 3, any other Mealy machine as type 2, with the
//! reduced flag 0 (not known to be minimal).

use super::error::FormatError;
use super::position::{ParseError, excerpt};
use crate::model::{Interner, LabelId, Mealy, Model, StateId};
use std::fmt::Write;

/// The whitespace-separated numbers of a `.fsm` file, read one at a time with their offsets.
struct Numbers<'a> {
    file: &'a str,
    text: &'a str,
    pos: usize,
}

impl Numbers<'_> {
    fn error(&self, at: usize, found: String, expected: &str) -> ParseError {
        ParseError::at(self.file, self.text, at, found, expected)
    }

    /// The next number in `min..=max` with its offset; `what` says what it is.
    fn next(&mut self, min: i64, max: i64, what: &str) -> Result<(i64, usize), ParseError> {
        let rest = &self.text[self.pos..];
        let skipped = rest.len() - rest.trim_start().len();
        let start = self.pos + skipped;
        let word_len = self.text[start..]
            .find(char::is_whitespace)
            .unwrap_or(self.text.len() - start);
        let word = &self.text[start..start + word_len];
        let expected = format!("{what} ({min}..={max})");
        if word.is_empty() {
            return Err(self.error(start, "the end of the file".into(), &expected));
        }
        let value: i64 = word
            .parse()
            .map_err(|_| self.error(start, format!("`{}`", excerpt(word)), &expected))?;
        if value < min || value > max {
            return Err(self.error(start, format!("{value}"), &expected));
        }
        self.pos = start + word_len;
        Ok((value, start))
    }
}

/// The machine types of the format.
const DFSM: i64 = 1;
const MEALY: i64 = 2;
const MOORE: i64 = 3;
const DFA: i64 = 4;

/// Largest count the reader accepts for states, inputs or outputs (tables are dense).
const MAX_COUNT: i64 = 1 << 24;

/// Parses `.fsm` text into a model named `name`.
pub fn parse(text: &str, file: &str, name: &str) -> Result<Model, FormatError> {
    let mut r = Numbers { file, text, pos: 0 };
    let (kind, kind_at) = r.next(1, 4, "the machine type (2 Mealy, 3 Moore, 4 DFA)")?;
    if kind == DFSM {
        return Err(r
            .error(
                kind_at,
                "machine type 1 (DFSM: outputs on states and on transitions)".into(),
                "machine type 2 (Mealy), 3 (Moore) or 4 (DFA)",
            )
            .into());
    }
    r.next(0, 1, "the reduced flag")?;
    let (n, _) = r.next(1, MAX_COUNT, "the number of states")?;
    let (p, _) = r.next(0, MAX_COUNT, "the number of inputs")?;
    let (q, _) = r.next(0, MAX_COUNT, "the number of outputs")?;
    let (m, m_at) = r.next(1, MAX_COUNT, "the number of state ids")?;
    if m < n {
        return Err(r
            .error(
                m_at,
                format!("{m} state ids for {n} states"),
                "at least as many state ids as states",
            )
            .into());
    }
    let (n, p, m) = (n as usize, p as usize, m as usize);
    // Dense tables of p * n cells: refuse sizes that cannot be allocated before trying.
    if n.checked_mul(p.max(1)).is_none_or(|c| c > 1 << 28) {
        return Err(r
            .error(
                m_at,
                format!("{n} states × {p} inputs"),
                "a machine of at most 2^28 transitions",
            )
            .into());
    }
    let q_max = if kind == DFA { 1.max(q - 1) } else { q - 1 };
    // State id -> dense index, in the order of the first table.
    let mut index = vec![u32::MAX; m];
    let mut ids = Vec::with_capacity(n);
    let mut outputs = Interner::new();
    for o in 0..=q_max.max(-1) {
        outputs.intern(&o.to_string());
    }
    let mut inputs = Interner::new();
    for i in 0..p {
        inputs.intern(&i.to_string());
    }
    let state_kind = kind == MOORE || kind == DFA;
    let mut state_out = vec![LabelId(0); n];
    // Each transition's output (-1: none, allowed only where the transition is missing) and
    // its offset.
    let mut trans_out = vec![(-1i64, 0usize); n * p];
    if state_kind {
        let mut table = Table::new(n, "state outputs", true);
        for _ in 0..n {
            let k = table.row(&mut r, &mut index, &mut ids)?;
            let (o, _) = r.next(0, q_max, "the state's output")?;
            state_out[k] = LabelId(o as u32);
        }
    } else {
        let mut table = Table::new(n, "transition outputs", true);
        for _ in 0..n {
            let k = table.row(&mut r, &mut index, &mut ids)?;
            for i in 0..p {
                trans_out[k * p + i] =
                    r.next(-1, q_max, &format!("the output of input {i} or -1"))?;
            }
        }
    }
    let mut next = Vec::with_capacity(n * p);
    let mut table = Table::new(n, "next states", false);
    for _ in 0..n {
        let k = table.row(&mut r, &mut index, &mut ids)?;
        for i in 0..p {
            let (t, at) = r.next(
                -1,
                m as i64 - 1,
                &format!("the next state of input {i} or -1"),
            )?;
            if t >= 0 && index[t as usize] == u32::MAX {
                return Err(r
                    .error(
                        at,
                        format!("state {t}, which no line lists"),
                        "a listed state or -1",
                    )
                    .into());
            }
            let (o, o_at) = trans_out[k * p + i];
            if t >= 0 && !state_kind && o < 0 {
                return Err(r
                    .error(
                        o_at,
                        format!("output -1 (none) for input {i} of state {}, whose next state is {t}", ids[k]),
                        "an output on every transition that exists (-1 only where the next state is -1)",
                    )
                    .into());
            }
            next.push((k, i, t));
        }
    }
    let Some(&initial) = index.first().filter(|&&k| k != u32::MAX) else {
        return Err(r
            .error(
                0,
                "no state 0".into(),
                "state 0, the initial state, among the states",
            )
            .into());
    };
    let state_names: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    let model_error = |source| FormatError::Model {
        path: file.to_owned(),
        source,
    };
    let defined = next.iter().filter(|&&(_, _, t)| t >= 0).map(|&(k, i, t)| {
        (
            StateId(k as u32),
            LabelId(i as u32),
            StateId(index[t as usize]),
        )
    });
    let machine = if state_kind {
        let transitions: Vec<_> = defined.collect();
        Mealy::from_moore(
            name,
            inputs,
            outputs,
            state_names,
            StateId(initial),
            state_out,
            &transitions,
        )
    } else {
        let quads: Vec<_> = defined
            .map(|(s, i, t)| {
                let o = trans_out[s.index() * p + i.index()].0;
                (s, i, LabelId(o as u32), t)
            })
            .collect();
        Mealy::new(name, inputs, outputs, state_names, StateId(initial), &quads)
    }
    .map_err(model_error)?;
    Ok(Model::Mealy(machine))
}

/// The rows of one table: each row starts with a state id, read by [`Table::row`] before the
/// row's values. The first table declares the states (`declare`): dense indices follow its
/// order; every table lists each state exactly once.
struct Table<'w> {
    what: &'w str,
    declare: bool,
    seen: Vec<bool>,
}

impl<'w> Table<'w> {
    fn new(n: usize, what: &'w str, declare: bool) -> Self {
        Table {
            what,
            declare,
            seen: vec![false; n],
        }
    }

    /// Reads the state id starting the next row and returns its dense index.
    fn row(
        &mut self,
        r: &mut Numbers<'_>,
        index: &mut [u32],
        ids: &mut Vec<usize>,
    ) -> Result<usize, ParseError> {
        let what = self.what;
        let state_max = index.len() as i64 - 1;
        let (s, at) = r.next(
            0,
            state_max,
            &format!("a state id starting a line of {what}"),
        )?;
        let s = s as usize;
        if self.declare && index[s] == u32::MAX {
            index[s] = ids.len() as u32;
            ids.push(s);
        }
        let k = index[s];
        if k == u32::MAX {
            return Err(r.error(
                at,
                format!("state {s}, which the first table does not list"),
                "a state listed in the first table",
            ));
        }
        if std::mem::replace(&mut self.seen[k as usize], true) {
            return Err(r.error(
                at,
                format!("state {s} a second time in {what}"),
                "each state once per table",
            ));
        }
        Ok(k as usize)
    }
}

/// The file id of each state (by state id) as [`write`] numbers them: the initial state first,
/// then the others in id order.
pub(crate) fn file_ids(m: &Mealy) -> Vec<usize> {
    let initial = m.initial().index();
    (0..m.num_states())
        .map(|s| match s.cmp(&initial) {
            std::cmp::Ordering::Less => s + 1,
            std::cmp::Ordering::Equal => 0,
            std::cmp::Ordering::Greater => s,
        })
        .collect()
}

/// The `.fsm` text of a Mealy machine (type 3 when it is a Moore machine, else type 2); see the
/// module documentation for the numbering.
pub fn write(m: &Mealy) -> String {
    let n = m.num_states();
    let p = m.num_inputs();
    let file_id = file_ids(m);
    let mut order: Vec<StateId> = vec![m.initial()];
    order.extend(m.states().filter(|&s| s != m.initial()));
    let kind = if m.state_outputs().is_some() {
        MOORE
    } else {
        MEALY
    };
    let mut out = String::with_capacity(16 + n * (p + 1) * 8);
    let _ = writeln!(out, "{kind} 0\n{n} {p} {}\n{n}", m.outputs.len());
    match m.state_outputs() {
        Some(outs) => {
            for (k, s) in order.iter().enumerate() {
                let _ = writeln!(out, "{k} {}", outs[s.index()].0);
            }
        }
        None => {
            for (k, &s) in order.iter().enumerate() {
                let _ = write!(out, "{k}");
                for i in m.input_ids() {
                    match m.step(s, i) {
                        Some((_, o)) => write!(out, "\t{}", o.0),
                        None => write!(out, "\t-1"),
                    }
                    .expect("writing to a String");
                }
                out.push('\n');
            }
        }
    }
    for (k, &s) in order.iter().enumerate() {
        let _ = write!(out, "{k}");
        for i in m.input_ids() {
            match m.step(s, i) {
                Some((t, _)) => write!(out, "\t{}", file_id[t.index()]),
                None => write!(out, "\t-1"),
            }
            .expect("writing to a String");
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Mealy {
        match parse(text, "t.fsm", "t") {
            Ok(Model::Mealy(m)) => m,
            other => panic!("{other:?}"),
        }
    }

    fn parse_err(text: &str) -> String {
        parse(text, "t.fsm", "t").unwrap_err().to_string()
    }

    #[test]
    fn mealy_with_trailing_sections() {
        let m = parse_ok("2 1\n2 2 2\n2\n0\t0\t1\n1\t1\t0\n0\t1\t0\n1\t-1\t1\n\nPDS: NO\n");
        assert_eq!(m.num_states(), 2);
        assert_eq!(m.num_transitions(), 3);
        assert!(m.state_outputs().is_none());
        let (a, b) = (LabelId(0), LabelId(1));
        assert_eq!(m.step(StateId(0), a), Some((StateId(1), LabelId(0))));
        assert_eq!(m.step(StateId(0), b), Some((StateId(0), LabelId(1))));
        assert_eq!(m.step(StateId(1), a), None);
        assert_eq!(parse_ok(&write(&m)), m);
    }

    #[test]
    fn moore_outputs_are_on_entered_states() {
        let text = "3 1\n2 1 2\n2\n0 1\n1 0\n0 1\n1 0\n";
        let m = parse_ok(text);
        assert_eq!(m.state_outputs(), Some(&[LabelId(1), LabelId(0)][..]));
        assert_eq!(
            m.step(StateId(0), LabelId(0)),
            Some((StateId(1), LabelId(0)))
        );
        assert_eq!(
            m.step(StateId(1), LabelId(0)),
            Some((StateId(0), LabelId(1)))
        );
        assert_eq!(write(&m), "3 0\n2 1 2\n2\n0 1\n1 0\n0\t1\n1\t0\n");
    }

    #[test]
    fn states_are_renumbered_with_the_initial_first() {
        // Ids 3 and 0 listed in that order; 0 is initial and becomes the first state.
        let m = parse_ok("2 0\n2 1 1\n4\n3 0\n0 0\n3 0\n0 3\n");
        assert_eq!(m.state_names(), ["3", "0"]);
        assert_eq!(m.initial(), StateId(1));
        let again = parse_ok(&write(&m));
        assert_eq!(again.state_names(), ["0", "1"]);
        assert_eq!(write(&again), write(&m));
    }

    #[test]
    fn errors_point_at_the_number() {
        assert_eq!(
            parse_err("1 0\n"),
            "t.fsm:1:1: found machine type 1 (DFSM: outputs on states and on transitions), expected machine type 2 (Mealy), 3 (Moore) or 4 (DFA)"
        );
        assert_eq!(
            parse_err("2 0\n1 1 1\n1\n0 x\n"),
            "t.fsm:4:3: found `x`, expected the output of input 0 or -1 (-1..=0)"
        );
        assert_eq!(
            parse_err("2 0\n1 1 1\n1\n0 0\n"),
            "t.fsm:5:1: found the end of the file, expected a state id starting a line of next states (0..=0)"
        );
        assert!(parse_err("3 0\n2 1 1\n2\n0 0\n0 0\n").contains("state 0 a second time"));
        // -1 is the output of a missing transition only.
        assert_eq!(
            parse_err("2 0\n1 2 1\n1\n0 -1 0\n0 0 -1\n"),
            "t.fsm:4:3: found output -1 (none) for input 0 of state 0, whose next state is 0, expected an output on every transition that exists (-1 only where the next state is -1)"
        );
        let partial = parse_ok("2 0\n1 2 1\n1\n0 0 -1\n0 0 -1\n");
        assert_eq!(partial.num_transitions(), 1);
        assert_eq!(write(&partial), "2 0\n1 2 1\n1\n0\t0\t-1\n0\t0\t-1\n");
        assert!(parse_err("3 0\n1 1 1\n2\n1 0\n1 1\n").contains("no state 0"));
        assert!(parse_err("2 0\n2 1 1\n1\n").contains("1 state ids for 2 states"));
    }
}
