//! An STS in process as the system under test ([`StsAdapter`]).

use crate::exec::stdio::{Adapter, Observation};
use crate::sts::concrete::StsSystem;
use crate::sts::solver::Solver;
use crate::sts::types::Sts;
use std::time::Duration;

/// An STS in process as the system under test ([`StsSystem`]: outputs and their values chosen
/// by a seeded generator and the solver; inputs no switch enables are ignored).
pub struct StsAdapter<'a> {
    system: StsSystem<'a>,
}

impl<'a> StsAdapter<'a> {
    /// The implementation `sts`, its choices seeded by `seed`.
    pub fn new(sts: &'a Sts, solver: Box<dyn Solver>, seed: u64) -> Self {
        StsAdapter {
            system: StsSystem::new(sts, solver, seed, true),
        }
    }
}

impl Adapter for StsAdapter<'_> {
    fn reset(&mut self) -> Result<(), String> {
        self.system.reset();
        Ok(())
    }

    fn send(&mut self, input: &str) -> Result<(), String> {
        self.system
            .input(input)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn receive(&mut self, _timeout: Duration) -> Result<Observation, String> {
        Ok(match self.system.output().map_err(|e| e.to_string())? {
            Some(o) => Observation::Output(o),
            None => Observation::Quiescence,
        })
    }

    /// The model steps on an input when it is sent.
    fn reads_inputs_at_once(&self) -> bool {
        true
    }

    /// The model outputs as soon as it can (as `simulate --delay-ms 0`): an enabled output is
    /// on its way before any input.
    fn pending_output(&mut self, _grace: Duration) -> Result<Option<String>, String> {
        self.system.output().map_err(|e| e.to_string())
    }
}
