//! A model acting as a system under test on the stdio protocol (`ncomplete simulate`): inputs are
//! read from stdin, outputs written to stdout, one label per line, nothing is written while the
//! model is quiescent.
//!
//! The model is a [`SimulatedSystem`] over its own labels: a suspension automaton (TorX thesis
//! Def. 2.2.12) or a Mealy machine. In a state with outputs the system picks one (the first, or at
//! random) and writes it after the configured delay (per output label, `--output-delay`), unless an input arrives first (a race, as a
//! real system would have). Inputs the model does not accept are ignored with a note on stderr.
//! An STS is served on concrete states by [`serve_sts`] (values chosen with the solver).

use super::error::ExecError;
use super::simulate::{InputEnabling, SimulatedSystem};
use crate::model::{LabelId, Mealy, Onfsm, SuspensionAutomaton};
use crate::rng::SplitMix64;
use crate::sts::concrete::StsSystem;
use crate::suite::SuiteModel;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Outputs still written after stdin has ended, before giving up on reaching quiescence.
const MAX_OUTPUTS_AFTER_EOF: usize = 10_000;

/// How the system picks among several allowed outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Always the first in label order (quiescence last).
    First,
    /// Uniformly at random (seeded, or from the clock and process id).
    Random,
}

/// Options of the simulated system.
#[derive(Clone, Debug)]
pub struct SutOptions {
    /// How outputs are chosen.
    pub choice: Choice,
    /// Seed for [`Choice::Random`]; `None` draws a fresh seed per process, so that restarted
    /// processes take different branches (what the retries of a test rely on).
    pub seed: Option<u64>,
    /// Delay before each output, during which an input may overtake it.
    pub delay: Duration,
    /// Delays of particular outputs by name, replacing `delay` for them (a slow reply).
    pub output_delays: Vec<(String, Duration)>,
}

impl SutOptions {
    /// The delay before output `name`.
    fn delay_of(&self, name: &str) -> Duration {
        self.output_delays
            .iter()
            .rev()
            .find(|(o, _)| o == name)
            .map_or(self.delay, |&(_, d)| d)
    }
}

/// The labels of a suspension automaton as a suite model (quiescence named as in the model).
pub fn suspension_labels(sa: &SuspensionAutomaton) -> SuiteModel {
    SuiteModel {
        name: sa.name.clone(),
        inputs: sa
            .alphabet
            .inputs()
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect(),
        outputs: sa
            .alphabet
            .outputs()
            .filter(|&l| l != sa.quiescence())
            .map(|l| sa.alphabet.name(l).to_owned())
            .collect(),
        quiescence: Some(sa.alphabet.name(sa.quiescence()).to_owned()),
    }
}

/// The labels of a Mealy machine as a suite model (no quiescence).
pub fn mealy_labels(m: &Mealy) -> SuiteModel {
    SuiteModel {
        name: m.name.clone(),
        inputs: m.inputs.names().to_vec(),
        outputs: m.outputs.names().to_vec(),
        quiescence: None,
    }
}

/// A model ready to serve: the system and its labels.
pub struct Sut {
    labels: SuiteModel,
    system: SimulatedSystem,
}

impl Sut {
    /// From a suspension automaton; inputs it refuses are ignored.
    pub fn from_suspension(sa: &SuspensionAutomaton) -> Result<Self, ExecError> {
        let labels = suspension_labels(sa);
        let system = SimulatedSystem::from_suspension(sa, &labels, InputEnabling::SelfLoop)?;
        Ok(Sut { labels, system })
    }

    /// From a Mealy machine; undefined inputs are ignored.
    pub fn from_mealy(m: &Mealy) -> Result<Self, ExecError> {
        let labels = mealy_labels(m);
        let system = SimulatedSystem::from_mealy(m, &labels, InputEnabling::SelfLoop)?;
        Ok(Sut { labels, system })
    }

    /// From a nondeterministic Mealy machine: each input answered by one of its transitions'
    /// outputs, chosen as `--choose` says; undefined inputs are ignored.
    pub fn from_onfsm(m: &Onfsm) -> Result<Self, ExecError> {
        let labels = SuiteModel {
            name: m.name.clone(),
            inputs: m.inputs.names().to_vec(),
            outputs: m.outputs.names().to_vec(),
            quiescence: None,
        };
        let system = SimulatedSystem::from_onfsm(m, &labels, InputEnabling::SelfLoop)?;
        Ok(Sut { labels, system })
    }

    /// Serves the protocol until `input` ends. `notes` receives warnings (stderr in the CLI).
    pub fn serve(
        &self,
        input: impl BufRead + Send + 'static,
        mut output: impl Write,
        mut notes: impl Write,
        options: &SutOptions,
    ) -> std::io::Result<()> {
        let rx = read_lines(input);
        let mut rng = SplitMix64::new(options.seed.unwrap_or_else(fresh_seed));
        let quiescence = self.system.quiescence();
        let mut q = self.system.initial();
        let mut buffered: Option<LabelId> = None;
        let mut closed = false;
        let mut after_close = 0usize;
        loop {
            if let Some(i) = buffered
                && let Some(t) = self.system.after_input(q, i)
            {
                q = t;
                buffered = None;
                continue;
            }
            let outs = self.system.outputs(q);
            let pick = match options.choice {
                _ if outs.is_empty() => None,
                Choice::First => Some(outs[0]),
                Choice::Random => Some(outs[rng.below(outs.len())]),
            };
            let wait_for_input = match pick {
                Some((o, t)) if o != quiescence && buffered.is_some() => {
                    // The pending input cannot be taken before this output.
                    self.write(&mut output, o)?;
                    q = t;
                    continue;
                }
                Some((o, t)) if o != quiescence => {
                    let delay = options.delay_of(self.labels.output_name(o));
                    let line = line_within(&rx, delay, &mut closed);
                    if line.is_none() {
                        if closed {
                            // Input has ended: finish the outputs up to quiescence, boundedly.
                            after_close += 1;
                            if after_close > MAX_OUTPUTS_AFTER_EOF {
                                return Ok(());
                            }
                        }
                        self.write(&mut output, o)?;
                        q = t;
                        continue;
                    }
                    line
                }
                Some((_, t)) => {
                    q = t;
                    None
                }
                None => None,
            };
            let line = match wait_for_input {
                Some(line) => line,
                None => match rx.recv() {
                    Ok(line) => line,
                    Err(_) => return Ok(()),
                },
            };
            match self.labels.inputs.iter().position(|i| *i == line) {
                Some(k) => match self.system.after_input(q, LabelId(k as u32)) {
                    Some(t) => q = t,
                    None => buffered = Some(LabelId(k as u32)),
                },
                None => writeln!(notes, "simulate: ignoring unknown input `{line}`")?,
            }
        }
    }

    fn write(&self, output: &mut impl Write, o: LabelId) -> std::io::Result<()> {
        writeln!(output, "{}", self.labels.output_name(o))?;
        output.flush()
    }
}

/// Serves the stdio protocol as the STS `sts` on concrete states ([`StsSystem`], no
/// instantiation, so data domains may be unbounded) until `input` ends: an input line naming a
/// gate value some switch enables is taken, others are ignored with a note; while an output
/// switch is enabled, an output is written after the delay unless an input arrives first.
/// `--choose first` takes the first enabled output switch and the solver's first values,
/// `random` a seeded random switch and random values.
pub fn serve_sts(
    sts: &crate::sts::Sts,
    solver: Box<dyn crate::sts::solver::Solver>,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    mut notes: impl Write,
    options: &SutOptions,
) -> std::io::Result<()> {
    let rx = read_lines(input);
    let seed = options.seed.unwrap_or_else(fresh_seed);
    let mut system = StsSystem::new(sts, solver, seed, options.choice == Choice::Random);
    let mut closed = false;
    let mut after_close = 0usize;
    loop {
        if system.has_output() {
            let line = line_within(&rx, options.delay, &mut closed);
            match line {
                Some(line) => take_sts_input(&mut system, &line, &mut notes)?,
                None => {
                    after_close += usize::from(closed);
                    if after_close > MAX_OUTPUTS_AFTER_EOF {
                        return Ok(());
                    }
                    match system.output() {
                        Ok(Some(o)) => {
                            writeln!(output, "{o}")?;
                            output.flush()?;
                            continue;
                        }
                        // The solver could not give values: wait for an input instead.
                        Ok(None) => match rx.recv() {
                            Ok(line) => take_sts_input(&mut system, &line, &mut notes)?,
                            Err(_) => return Ok(()),
                        },
                        Err(e) => {
                            writeln!(notes, "simulate: model error: {e}")?;
                            return Ok(());
                        }
                    }
                }
            }
            continue;
        }
        match rx.recv() {
            Ok(line) => take_sts_input(&mut system, &line, &mut notes)?,
            Err(_) => return Ok(()),
        }
    }
}

fn take_sts_input(
    system: &mut StsSystem<'_>,
    line: &str,
    notes: &mut impl Write,
) -> std::io::Result<()> {
    match system.input(line) {
        Ok(true) => Ok(()),
        Ok(false) => writeln!(notes, "simulate: ignoring input `{line}`"),
        Err(e) => writeln!(notes, "simulate: model error: {e}"),
    }
}

/// The next input line if one arrives within `delay` (while an output is due); `None` when none
/// does or input has ended, which sets `closed` (and then returns at once).
fn line_within(rx: &mpsc::Receiver<String>, delay: Duration, closed: &mut bool) -> Option<String> {
    if *closed {
        return None;
    }
    match rx.recv_timeout(delay) {
        Ok(line) => Some(line),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => {
            *closed = true;
            None
        }
    }
}

/// The non-empty lines of `input`, trimmed, read by a thread.
fn read_lines(input: impl BufRead + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { return };
            let label = line.trim();
            if !label.is_empty() && tx.send(label.to_owned()).is_err() {
                return;
            }
        }
    });
    rx
}

/// A seed from the clock and the process id.
pub fn fresh_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{mealy_from_named, suspension_from_marked};
    use std::io::Cursor;

    fn serve(sut: &Sut, input: &str, options: &SutOptions) -> String {
        let mut out = Vec::new();
        let mut notes = Vec::new();
        sut.serve(
            Cursor::new(input.to_owned().into_bytes()),
            &mut out,
            &mut notes,
            options,
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    fn first() -> SutOptions {
        SutOptions {
            choice: Choice::First,
            seed: None,
            delay: Duration::ZERO,
            output_delays: Vec::new(),
        }
    }

    #[test]
    fn mealy_machines_answer_each_input() {
        let m = mealy_from_named("m", 2, &[(0, "a", "0", 1), (1, "a", "1", 0)]).unwrap();
        let sut = Sut::from_mealy(&m).unwrap();
        // Inputs are all available at once: each pending output still comes before the next input.
        assert_eq!(serve(&sut, "a\na\nzz\na\n", &first()), "0\n1\n0\n");
    }

    #[test]
    fn suspension_automata_output_until_quiescent() {
        let sa = suspension_from_marked(
            "s",
            3,
            &[
                (0, "?a", 1),
                (0, "delta", 0),
                (1, "!x", 2),
                (1, "!y", 2),
                (2, "!z", 0),
            ],
        )
        .unwrap();
        let sut = Sut::from_suspension(&sa).unwrap();
        // After the end of input the outputs run on up to quiescence.
        assert_eq!(serve(&sut, "a\n", &first()), "x\nz\n");
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..20 {
            let options = SutOptions {
                choice: Choice::Random,
                seed: Some(seed),
                delay: Duration::ZERO,
                output_delays: Vec::new(),
            };
            let a = serve(&sut, "a\n", &options);
            assert_eq!(a, serve(&sut, "a\n", &options), "seeded runs repeat");
            seen.insert(a);
        }
        assert_eq!(seen.len(), 2, "both branches are taken: {seen:?}");
    }
}
