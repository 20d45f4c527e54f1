//! Mutation audits of suite strength versus the bound (Goga, seed 001: a suite is measured by the
//! faults it detects; van den Bos Sec. 2.3: an n-complete suite detects every non-conforming
//! implementation with at most n states). For each method and each bound of a range, the suite
//! is generated, measured (tests, send/expect nodes, longest test) and executed exactly (every
//! race and output choice, [`crate::exec::simulate`]) against seeded mutants whose conformance is
//! decided exactly ([`super::mutate`]). The mutation score is the share of non-conforming mutants
//! some execution of some test fails; a conforming mutant that fails is a soundness bug.
//!
//! Mutants are made once per bound, with a size bound equal to the suite's bound, and shared by
//! all methods. Results are collected in mutant order, so reports are identical for every thread
//! count; only the measured times differ between runs ([`AuditReport::without_time`]).

use super::error::AuditError;
use super::mutate::{MutantModel, MutateOptions, SizeBound, mutants};
use crate::exec::simulate::{InputEnabling, SimulatedSystem, TestVerdict, run_test};
use crate::progress::Progress;
use crate::suite::ioco::{self, Bound, Budget, IocoMethod};
use crate::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use crate::suite::{SuiteModel, TestCase};
use rayon::prelude::*;
use serde::Serialize;
use std::ops::RangeInclusive;
use std::time::Instant;

type Result<T, E = AuditError> = std::result::Result<T, E>;

/// A suite generation method to audit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AuditMethod {
    /// A Mealy method (Mealy machines only).
    Mealy(MealyMethod),
    /// An ioco method (suspension automata).
    Ioco(IocoMethod),
}

impl AuditMethod {
    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            AuditMethod::Mealy(m) => m.name(),
            AuditMethod::Ioco(m) => m.name(),
        }
    }

    /// The default methods for a model: W, Wp, HSI, H-ADS and UIO for Mealy machines, ioco-ads
    /// and ioco-complete for suspension automata.
    pub fn defaults(model: &MutantModel) -> Vec<AuditMethod> {
        match model {
            MutantModel::Mealy(_) => [
                MealyMethod::W,
                MealyMethod::Wp,
                MealyMethod::Hsi,
                MealyMethod::Hads,
                MealyMethod::Uio,
            ]
            .into_iter()
            .map(AuditMethod::Mealy)
            .collect(),
            MutantModel::Suspension(_) => vec![
                AuditMethod::Ioco(IocoMethod::Ads),
                AuditMethod::Ioco(IocoMethod::Complete),
            ],
        }
    }
}

/// Which kind of bound the audited range gives.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoundKind {
    /// At most `n` implementation states.
    States,
    /// At most `E` states more than the model.
    ExtraStates,
}

impl BoundKind {
    /// The column heading: `n` or `E`.
    pub fn symbol(self) -> &'static str {
        match self {
            BoundKind::States => "n",
            BoundKind::ExtraStates => "E",
        }
    }
}

/// What to audit.
#[derive(Clone, Debug)]
pub struct AuditOptions {
    /// The methods, in report order.
    pub methods: Vec<AuditMethod>,
    /// The kind of bound.
    pub bound_kind: BoundKind,
    /// The bounds (inclusive).
    pub bounds: RangeInclusive<usize>,
    /// Mutants to make per bound.
    pub mutants: usize,
    /// The mutant generator's seed.
    pub seed: u64,
    /// A method stops at the first bound whose suite has more tests than this.
    pub max_tests: u64,
}

/// One (method, bound) measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditRow {
    /// The bound (`n` or `E`).
    pub bound: usize,
    /// The implementation state bound the suite is complete for.
    pub n: usize,
    /// Number of tests.
    pub tests: u64,
    /// Total send/expect nodes over all tests.
    pub steps: u64,
    /// Most nodes on a root-to-leaf path of any test.
    pub longest: u64,
    /// Mutants made for this bound.
    pub mutants: usize,
    /// Non-conforming mutants.
    pub non_conforming: usize,
    /// Non-conforming mutants some execution of some test fails.
    pub detected: usize,
    /// `detected / non_conforming` (absent when every mutant conforms).
    pub score: Option<f64>,
    /// Conforming mutants.
    pub conforming: usize,
    /// Conforming mutants some test fails (a soundness bug when not zero).
    pub wrongly_failed: usize,
    /// Names of the non-conforming mutants no test detects.
    pub survivors: Vec<String>,
    /// Seconds to generate the suite and run every mutant (absent in reproducible reports).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

/// The rows of one method.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MethodAudit {
    /// The method's name.
    pub method: String,
    /// One row per bound, in order.
    pub rows: Vec<AuditRow>,
    /// Why the method stopped before the last bound, if it did.
    pub stopped: Option<String>,
}

/// The result of an audit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuditReport {
    /// The model's name.
    pub model: String,
    /// `mealy` or `suspension`.
    pub kind: String,
    /// States of the model.
    pub states: usize,
    /// The kind of bound of the rows.
    pub bound_kind: BoundKind,
    /// Mutants requested per bound.
    pub mutants: usize,
    /// The seed of the mutants.
    pub seed: u64,
    /// One entry per method, in the requested order.
    pub methods: Vec<MethodAudit>,
}

/// A suite, materialised for execution.
struct BuiltSuite {
    model: SuiteModel,
    tests: Vec<TestCase>,
    n: usize,
}

/// Generates the suite of `method` at `bound`, or says why not (budget, method unfit for model).
fn build_suite(
    model: &MutantModel,
    method: AuditMethod,
    kind: BoundKind,
    bound: usize,
    max_tests: u64,
) -> Result<std::result::Result<BuiltSuite, String>> {
    match (model, method) {
        (MutantModel::Mealy(m), AuditMethod::Mealy(mm)) => {
            let extra = match kind {
                BoundKind::ExtraStates => bound,
                BoundKind::States => match bound.checked_sub(m.num_states()) {
                    Some(e) => e,
                    None => {
                        return Ok(Err(format!(
                            "n = {bound} is below the model's {} states",
                            m.num_states()
                        )));
                    }
                },
            };
            let suite =
                MealySuite::new(m, MealySuiteOptions::new(mm, extra)).map_err(|source| {
                    AuditError::Model {
                        path: m.name.clone(),
                        source,
                    }
                })?;
            let mut tests = Vec::new();
            for (k, word) in suite.words().enumerate() {
                if k as u64 >= max_tests {
                    return Ok(Err(format!(
                        "{} = {bound}: the suite has more than {max_tests} tests (--max-tests)",
                        kind.symbol()
                    )));
                }
                tests.push(suite.test_case(&word));
            }
            Ok(Ok(BuiltSuite {
                model: suite.suite_model(),
                tests,
                n: suite.bound(),
            }))
        }
        (MutantModel::Suspension(sa), AuditMethod::Ioco(im)) => {
            let b = match kind {
                BoundKind::States => Bound::States(bound),
                BoundKind::ExtraStates => Bound::ExtraStates(bound),
            };
            // The suite runs against mutant models in memory, not a real system: its estimated
            // execution time limits nothing here.
            let budget = Budget {
                max_tests: max_tests as u128,
                max_seconds: u128::MAX,
                ..Budget::default()
            };
            let suite = match ioco::generate(sa, im, b, budget) {
                Ok(s) => s,
                Err(e) => return Ok(Err(format!("{} = {bound}: {e}", kind.symbol()))),
            };
            let n = ioco::resolve_bound(sa, b)?;
            let count = suite.num_tests() as u64;
            let tests = (0..count)
                .into_par_iter()
                .map(|k| suite.test(k as u128))
                .collect();
            Ok(Ok(BuiltSuite {
                model: ioco::suite_model(sa),
                tests,
                n,
            }))
        }
        (MutantModel::Mealy(_), AuditMethod::Ioco(_)) => Err(AuditError::Usage(format!(
            "{} is an ioco method; this model is a Mealy machine (use w, wp, hsi, hsi-st, hads, uio, uiov or auto)",
            method.name()
        ))),
        (MutantModel::Suspension(_), AuditMethod::Mealy(_)) => Err(AuditError::Usage(format!(
            "{} is a Mealy method; this model is a labelled transition system (use ioco-ads, ioco-complete or unconditional)",
            method.name()
        ))),
    }
}

/// The simulated system of a mutant, over the suite's labels.
fn system(mutant: &MutantModel, suite: &SuiteModel) -> Result<SimulatedSystem> {
    Ok(match mutant {
        MutantModel::Mealy(m) => SimulatedSystem::from_mealy(m, suite, InputEnabling::Reject)?,
        MutantModel::Suspension(s) => {
            SimulatedSystem::from_suspension(s, suite, InputEnabling::Reject)?
        }
    })
}

/// The size bound of the mutants of one bound.
fn size_bound(model: &MutantModel, kind: BoundKind, bound: usize) -> Result<SizeBound> {
    Ok(match (kind, model) {
        (BoundKind::ExtraStates, MutantModel::Mealy(_)) => SizeBound::Extra(bound),
        (BoundKind::States, _) => SizeBound::States(bound),
        // ioco suites count reachable states of the suspension automaton.
        (BoundKind::ExtraStates, MutantModel::Suspension(sa)) => {
            SizeBound::States(ioco::resolve_bound(sa, Bound::ExtraStates(bound))?)
        }
    })
}

/// Audits `model` (from [`super::mutable_model`]) as `opts` says; `progress` counts executed
/// mutants.
pub fn audit(model: &MutantModel, opts: &AuditOptions, progress: &Progress) -> Result<AuditReport> {
    if opts.bounds.is_empty() {
        return Err(AuditError::Usage("the range of bounds is empty".into()));
    }
    // Methods that do not fit the model are refused before any work.
    for &m in &opts.methods {
        match (model, m) {
            (MutantModel::Mealy(_), AuditMethod::Mealy(_))
            | (MutantModel::Suspension(_), AuditMethod::Ioco(_)) => {}
            _ => {
                let _unfit = build_suite(model, m, opts.bound_kind, *opts.bounds.start(), 0)?;
            }
        }
    }
    let mut audits: Vec<MethodAudit> = opts
        .methods
        .iter()
        .map(|m| MethodAudit {
            method: m.name().to_owned(),
            rows: Vec::new(),
            stopped: None,
        })
        .collect();
    for bound in opts.bounds.clone() {
        if audits.iter().all(|a| a.stopped.is_some()) {
            break;
        }
        let mutate = MutateOptions {
            count: opts.mutants,
            bound: size_bound(model, opts.bound_kind, bound)?,
            seed: opts.seed,
        };
        let muts = mutants(model, &mutate)?;
        let non_conforming = muts.iter().filter(|m| !m.conforms).count();
        for (method, entry) in opts.methods.iter().zip(audits.iter_mut()) {
            if entry.stopped.is_some() {
                continue;
            }
            let start = Instant::now();
            let suite = match build_suite(model, *method, opts.bound_kind, bound, opts.max_tests)? {
                Ok(s) => s,
                Err(why) => {
                    entry.stopped = Some(why);
                    continue;
                }
            };
            progress.set_message(format!(
                "{} {} = {bound}",
                method.name(),
                opts.bound_kind.symbol()
            ));
            progress.inc_total(muts.len() as u64);
            let failed: Vec<bool> = muts
                .par_iter()
                .map(|m| {
                    let sys = system(&m.model, &suite.model)?;
                    let fails = suite
                        .tests
                        .iter()
                        .any(|t| run_test(&sys, t).verdict == TestVerdict::Fail);
                    progress.inc(1);
                    Ok(fails)
                })
                .collect::<Result<_>>()?;
            let detected = muts
                .iter()
                .zip(&failed)
                .filter(|(m, f)| !m.conforms && **f)
                .count();
            let wrongly_failed = muts
                .iter()
                .zip(&failed)
                .filter(|(m, f)| m.conforms && **f)
                .count();
            let survivors = muts
                .iter()
                .zip(&failed)
                .filter(|(m, f)| !m.conforms && !**f)
                .map(|(m, _)| m.name.clone())
                .collect();
            entry.rows.push(AuditRow {
                bound,
                n: suite.n,
                tests: suite.tests.len() as u64,
                steps: suite.tests.iter().map(|t| t.nodes.len() as u64).sum(),
                longest: suite
                    .tests
                    .iter()
                    .map(|t| t.depth() as u64)
                    .max()
                    .unwrap_or(0),
                mutants: muts.len(),
                non_conforming,
                detected,
                score: (non_conforming > 0).then(|| detected as f64 / non_conforming as f64),
                conforming: muts.len() - non_conforming,
                wrongly_failed,
                survivors,
                seconds: Some(start.elapsed().as_secs_f64()),
            });
        }
    }
    let (kind, name) = match model {
        MutantModel::Mealy(m) => ("mealy", m.name.clone()),
        MutantModel::Suspension(s) => ("suspension", s.name.clone()),
    };
    Ok(AuditReport {
        model: name,
        kind: kind.into(),
        states: model.num_states(),
        bound_kind: opts.bound_kind,
        mutants: opts.mutants,
        seed: opts.seed,
        methods: audits,
    })
}

/// Parses an inclusive range of bounds: `2`, `0..2` or `0..=2`; `min` is the smallest allowed.
pub fn parse_bounds(text: &str, min: usize) -> std::result::Result<RangeInclusive<usize>, String> {
    let bad =
        || format!("expected a bound like `2` or an inclusive range like `0..2`, found `{text}`");
    let num = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let range = match text.split_once("..") {
        None => {
            let n = num(text)?;
            n..=n
        }
        Some((a, b)) => num(a)?..=num(b.strip_prefix('=').unwrap_or(b))?,
    };
    if range.is_empty() {
        return Err(format!(
            "the range `{text}` is empty: its start must not exceed its end"
        ));
    }
    if *range.start() < min {
        return Err(format!("the range `{text}` must start at {min} or more"));
    }
    Ok(range)
}

impl AuditReport {
    /// The report without measured times: identical across runs and thread counts.
    pub fn without_time(mut self) -> Self {
        for m in &mut self.methods {
            for r in &mut m.rows {
                r.seconds = None;
            }
        }
        self
    }

    /// Total conforming mutants wrongly failed over every row (must be zero).
    pub fn wrongly_failed(&self) -> usize {
        self.methods
            .iter()
            .flat_map(|m| &m.rows)
            .map(|r| r.wrongly_failed)
            .sum()
    }

    /// The report as pretty JSON (fields in declaration order), ending in a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("reports serialise");
        text.push('\n');
        text
    }

    /// The report as an aligned text table, one block per method.
    pub fn to_text(&self) -> String {
        let b = self.bound_kind.symbol();
        let timed = self
            .methods
            .iter()
            .flat_map(|m| &m.rows)
            .any(|r| r.seconds.is_some());
        let mut out = format!(
            "audit of {} ({}, {} states): {} mutants per bound, seed {}\n",
            self.model, self.kind, self.states, self.mutants, self.seed
        );
        // Bounds in states are the n column itself; bounds in extra states show n beside E.
        let n_column = self.bound_kind == BoundKind::ExtraStates;
        out.push_str(&format!("{:<14} {:>3}", "method", b));
        if n_column {
            out.push_str(&format!(" {:>4}", "n"));
        }
        out.push_str(&format!(
            " {:>8} {:>10} {:>7} {:>9} {:>8} {:>7} {:>10}",
            "tests", "steps", "longest", "detected", "score", "conf", "wrong-fail"
        ));
        if timed {
            out.push_str(&format!(" {:>8}", "seconds"));
        }
        out.push('\n');
        for m in &self.methods {
            for r in &m.rows {
                out.push_str(&format!("{:<14} {:>3}", m.method, r.bound));
                if n_column {
                    out.push_str(&format!(" {:>4}", r.n));
                }
                out.push_str(&format!(
                    " {:>8} {:>10} {:>7} {:>9} {:>8} {:>7} {:>10}",
                    r.tests,
                    r.steps,
                    r.longest,
                    format!("{}/{}", r.detected, r.non_conforming),
                    r.score.map_or("-".into(), |s| format!("{s:.3}")),
                    r.conforming,
                    r.wrongly_failed
                ));
                if let Some(s) = r.seconds {
                    out.push_str(&format!(" {s:>8.3}"));
                }
                out.push('\n');
            }
            if let Some(why) = &m.stopped {
                out.push_str(&format!("{:<14} stopped: {why}\n", m.method));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{mealy_from_named, suspension_from_marked};

    fn mealy_model() -> MutantModel {
        // A three-state counter with a reset: distinguishable only by longer words.
        let m = mealy_from_named(
            "counter",
            3,
            &[
                (0, "a", "x", 1),
                (1, "a", "x", 2),
                (2, "a", "y", 0),
                (0, "r", "x", 0),
                (1, "r", "x", 0),
                (2, "r", "y", 0),
            ],
        )
        .unwrap();
        MutantModel::Mealy(m)
    }

    fn options(
        methods: Vec<AuditMethod>,
        kind: BoundKind,
        bounds: RangeInclusive<usize>,
    ) -> AuditOptions {
        AuditOptions {
            methods,
            bound_kind: kind,
            bounds,
            mutants: 40,
            seed: 7,
            max_tests: 200_000,
        }
    }

    #[test]
    fn complete_mealy_methods_kill_every_mutant_within_the_bound() {
        let model = mealy_model();
        let methods = vec![
            AuditMethod::Mealy(MealyMethod::W),
            AuditMethod::Mealy(MealyMethod::Hsi),
            AuditMethod::Mealy(MealyMethod::Hads),
        ];
        let report = audit(
            &model,
            &options(methods, BoundKind::ExtraStates, 0..=1),
            &Progress::hidden(),
        )
        .unwrap();
        for m in &report.methods {
            assert_eq!(m.rows.len(), 2, "{report:?}");
            for r in &m.rows {
                assert!(r.non_conforming > 0, "{r:?}");
                assert_eq!(r.detected, r.non_conforming, "{} {r:?}", m.method);
                assert_eq!(r.wrongly_failed, 0);
                assert_eq!(r.score, Some(1.0));
            }
        }
    }

    #[test]
    fn complete_ioco_suites_kill_every_mutant_within_the_bound() {
        let sa = suspension_from_marked(
            "fig",
            2,
            &[(0, "?a", 1), (0, "!x", 0), (1, "!y", 0), (1, "?a", 1)],
        )
        .unwrap();
        let model = MutantModel::Suspension(sa);
        let methods = vec![AuditMethod::Ioco(IocoMethod::Complete)];
        let report = audit(
            &model,
            &options(methods, BoundKind::States, 2..=3),
            &Progress::hidden(),
        )
        .unwrap();
        let rows = &report.methods[0].rows;
        assert!(!rows.is_empty(), "{report:?}");
        for r in rows {
            assert_eq!(r.detected, r.non_conforming, "{r:?}");
            assert_eq!(r.wrongly_failed, 0, "{r:?}");
        }
    }

    #[test]
    fn reports_do_not_depend_on_the_thread_count() {
        let model = mealy_model();
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let methods = AuditMethod::defaults(&model);
                audit(
                    &model,
                    &options(methods, BoundKind::ExtraStates, 0..=1),
                    &Progress::hidden(),
                )
                .unwrap()
                .without_time()
            })
        };
        let one = run(1);
        let three = run(3);
        assert_eq!(one.to_json(), three.to_json());
        assert_eq!(one.to_text(), three.to_text());
        assert!(!one.to_json().contains("seconds"));
    }

    #[test]
    fn a_method_stops_at_the_budget() {
        let model = mealy_model();
        let mut opts = options(
            vec![AuditMethod::Mealy(MealyMethod::W)],
            BoundKind::ExtraStates,
            0..=3,
        );
        let first = audit(&model, &opts, &Progress::hidden()).unwrap();
        let tests0 = first.methods[0].rows[0].tests;
        opts.max_tests = tests0;
        let report = audit(&model, &opts, &Progress::hidden()).unwrap();
        let m = &report.methods[0];
        assert_eq!(m.rows.len(), 1, "{report:?}");
        let why = m.stopped.as_deref().unwrap();
        assert!(
            why.contains("E = 1") && why.contains("--max-tests"),
            "{why}"
        );
        assert!(report.to_text().contains("stopped: E = 1"));
    }

    #[test]
    fn methods_must_fit_the_model() {
        let model = mealy_model();
        let opts = options(
            vec![AuditMethod::Ioco(IocoMethod::Ads)],
            BoundKind::ExtraStates,
            0..=0,
        );
        let err = audit(&model, &opts, &Progress::hidden()).unwrap_err();
        assert!(err.to_string().contains("ioco method"), "{err}");
    }

    #[test]
    fn bound_ranges() {
        assert_eq!(parse_bounds("0..2", 0), Ok(0..=2));
        assert_eq!(parse_bounds("1..=6", 1), Ok(1..=6));
        assert_eq!(parse_bounds("3", 0), Ok(3..=3));
        assert!(parse_bounds("0..2", 1).unwrap_err().contains("start at 1"));
        assert!(parse_bounds("4..2", 0).unwrap_err().contains("empty"));
        assert!(
            parse_bounds("a..b", 0)
                .unwrap_err()
                .contains("found `a..b`")
        );
    }
}
