//! A model of the implementation as the system of an exploration ([`ModelAdapter`]): stepped
//! in process, its output choices made by a seeded generator.

use crate::exec::error::ExecError;
use crate::exec::simulate::{InputEnabling, SimulatedSystem};
use crate::exec::stdio::{Adapter, Observation};
use crate::model::{LabelId, SuspensionAutomaton};
use crate::rng::SplitMix64;
use crate::suite::SuiteModel;
use std::time::Duration;

/// A model acting as the system in process: outputs (quiescence among them) are chosen by a
/// seeded generator, inputs the model refuses are ignored, as `ncomplete simulate --choose
/// random` does (an input is taken before a pending output).
pub struct ModelAdapter {
    system: SimulatedSystem,
    inputs: Vec<String>,
    rng: SplitMix64,
    state: u32,
}

impl ModelAdapter {
    /// The implementation `sa` over the specification's `labels`; `seed` drives its choices.
    pub fn new(
        sa: &SuspensionAutomaton,
        labels: &SuiteModel,
        seed: u64,
    ) -> Result<Self, ExecError> {
        let system = SimulatedSystem::from_suspension(sa, labels, InputEnabling::SelfLoop)?;
        let state = system.initial();
        Ok(ModelAdapter {
            system,
            inputs: labels.inputs.clone(),
            rng: SplitMix64::new(seed),
            state,
        })
    }
}

impl Adapter for ModelAdapter {
    fn reset(&mut self) -> Result<(), String> {
        self.state = self.system.initial();
        Ok(())
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        let id = self.inputs.iter().position(|i| i == input);
        match id
            .map(|k| LabelId(k as u32))
            .and_then(|i| self.system.after_input(self.state, i))
        {
            Some(t) => self.state = t,
            None => return Err(format!("input `{input}` is not one of the model's")),
        }
        Ok(())
    }

    /// The model steps on an input when it is sent: its outputs after it come after it.
    fn reads_inputs_at_once(&self) -> bool {
        true
    }

    /// A model's output is never on its way before the tester waits for it: an input goes
    /// first (as with `simulate --delay-ms`).
    fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
        Ok(None)
    }

    fn receive(&mut self, _timeout: Duration) -> Result<Observation, String> {
        let outs = self.system.outputs(self.state);
        if outs.is_empty() {
            return Ok(Observation::Quiescence);
        }
        let (o, t) = *self.rng.pick(outs);
        self.state = t;
        if o == self.system.quiescence() {
            Ok(Observation::Quiescence)
        } else {
            Ok(Observation::Output(self.system.output_name(o).to_owned()))
        }
    }
}
