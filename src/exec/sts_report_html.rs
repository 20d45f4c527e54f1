//! The HTML report of an STS run (`ncomplete explore MODEL.sts.yaml --cover switches|switch-pairs
//! | --purposes FILE --html REPORT`): the page of [`super::report_html`] (skeleton, style,
//! summary, table of tests, failing traces as sequence diagrams) with one row per executed
//! purpose (van den Bos Sec. 4.4) and, for its coverage section, the STS's switches (Def. 4.3)
//! with their a posteriori coverage instead of a drawn automaton.
//!
//! Each purpose's row gives its verdict, why it ended so (the failing observation, what left the
//! purpose, or its end reached), its attempts and switches, and the trace of its last attempt
//! with the concrete gate values the tester chose (`?gate(v1,v2)`), the outputs the system
//! gave and quiescence (`δ`). A failing purpose's trace is drawn as a sequence diagram with the
//! offending observation highlighted. The switch table lists every switch (location, gate,
//! guard and assignments as written), the purposes whose path holds it, and whether an observed
//! trace covered it; a switch-pair run lists its items beyond switches likewise. The figures
//! are those of the text and JSON reports ([`StsRunReport`]). Every text of the model or the
//! system passes through [`html_text`](crate::render::escape::html_text).

use super::TestVerdict;
use super::records::{ObservedStep, TestRecord, VerdictCounts};
use super::report_html::{CoverageView, HtmlReport, SwitchCoverage, seconds};
use super::sts_run::{PurposePath, PurposeVerdict, StsRunReport};
use crate::sts::types::Sts;
use std::borrow::Cow;
use std::time::Duration;

/// The quiescence mark of an STS run's traces ([`super::sts_run::PurposeOutcome::trace`]).
const QUIESCENCE: &str = "delta";

/// What ran an STS run, for the report's summary.
#[derive(Clone, Debug)]
pub struct StsRunFacts<'a> {
    /// The specification's path.
    pub spec: &'a str,
    /// Where the purposes came from: `--cover switches`, or the purposes file.
    pub purposes_source: String,
    /// The system: `model IMPL` or the command or address.
    pub system: &'a str,
    /// The tester's seed.
    pub seed: u64,
    /// Attempts per purpose.
    pub attempts: usize,
    /// Wall-clock time of the run, against a process only (a model in process gives the same
    /// report every time).
    pub time: Option<Duration>,
}

fn test_verdict(verdict: PurposeVerdict) -> TestVerdict {
    match verdict {
        PurposeVerdict::Pass => TestVerdict::Pass,
        PurposeVerdict::Inconclusive => TestVerdict::Inconclusive,
        PurposeVerdict::Fail => TestVerdict::Fail,
    }
}

impl HtmlReport<'static> {
    /// The report of an STS run: one record per purpose executed (the trace of its last
    /// attempt), the run's verdict and figures, and the switches' a posteriori coverage.
    pub fn of_sts_run(
        sts: &Sts,
        purposes: &[PurposePath],
        report: &StsRunReport,
        facts: &StsRunFacts<'_>,
    ) -> HtmlReport<'static> {
        let total = report.total.max(1);
        let records: Vec<TestRecord> = report
            .purposes
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let trace = ObservedStep::from_marked_trace(&p.trace, QUIESCENCE);
                let verdict = test_verdict(p.verdict);
                TestRecord {
                    name: if report.rounds > 1 {
                        format!(
                            "round {}, purpose {}/{}",
                            i / total + 1,
                            i % total + 1,
                            report.total
                        )
                    } else {
                        format!("purpose {}/{}", i % total + 1, report.total)
                    },
                    verdict,
                    message: Some(format!(
                        "{} ({} attempt{}; switches: {})",
                        p.reason,
                        p.attempts,
                        if p.attempts == 1 { "" } else { "s" },
                        p.switches.join(" ")
                    )),
                    time: None,
                    failure: (verdict == TestVerdict::Fail && !trace.is_empty())
                        .then(|| p.reason.clone()),
                    trace,
                    reason: None,
                    timing_traces: None,
                }
            })
            .collect();
        let mut rows = vec![
            ("specification", facts.spec.to_owned()),
            ("model", sts.name.clone()),
            (
                "method",
                format!(
                    "test purposes of --cover {}, executed on the fly (explore), input values chosen by the solver",
                    report.criterion.name()
                ),
            ),
            (
                "purposes",
                format!("{} ({})", report.total, facts.purposes_source),
            ),
            ("guarantee", report.criterion.description().to_owned()),
            ("system", facts.system.to_owned()),
            ("seed", facts.seed.to_string()),
            ("rounds", report.rounds.to_string()),
            ("attempts per purpose", facts.attempts.to_string()),
            ("inputs and outputs", report.steps.to_string()),
        ];
        if let Some(steps) = report.steps_to_failure {
            rows.push(("inputs and outputs to failure", steps.to_string()));
        }
        if let Some(time) = facts.time {
            rows.push(("total time", seconds(time)));
        }
        HtmlReport {
            requirements: None,
            title: format!("ncomplete explore: {}", sts.name),
            verdict: test_verdict(report.verdict()),
            counts: VerdictCounts::of(records.iter().map(|r| r.verdict)),
            facts: rows,
            records: Cow::Owned(records),
            traces_in_table: true,
            coverage: CoverageView::Switches(SwitchCoverage::new(sts, purposes, report)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::sts_run::PurposeOutcome;
    use crate::sts::load::{Syntax, parse_sts};
    use crate::sts::purposes::Criterion;

    const HOSTILE: &str = r#"sts: 1
name: "<m>&"
variables: [{name: n, type: int, min: 0, max: 3, initial: 0}]
gates:
  - {name: put, kind: input, parameters: [{name: p, type: int, min: 0, max: 3}]}
  - {name: ack, kind: output}
initial: "<a>"
switches:
  - {name: "s<1>", from: "<a>", gate: put, guard: p < n + 1, assign: {n: p}, to: "b&c"}
  - {name: done, from: "b&c", gate: ack, to: "<a>"}
"#;

    fn outcome(verdict: PurposeVerdict, trace: &[&str], reason: &str) -> PurposeOutcome {
        PurposeOutcome {
            switches: vec!["s<1>".into(), "done".into()],
            verdict,
            attempts: 5,
            trace: trace.iter().map(|s| s.to_string()).collect(),
            reason: reason.into(),
        }
    }

    fn report(outcomes: Vec<PurposeOutcome>, criterion: Criterion) -> StsRunReport {
        StsRunReport {
            model: "<m>&".into(),
            purposes: outcomes,
            total: 1,
            rounds: 2,
            exercised: vec![true, false],
            switch_names: vec!["s<1>".into(), "done".into()],
            criterion,
            items: vec![("s<1>,done".into(), true), ("done,s<1>".into(), false)],
            steps: 5,
            steps_to_failure: None,
        }
    }

    fn facts() -> StsRunFacts<'static> {
        StsRunFacts {
            spec: "<spec>.sts.yaml",
            purposes_source: "--cover switch-pairs".into(),
            system: "model <m>&",
            seed: 4,
            attempts: 5,
            time: None,
        }
    }

    #[test]
    fn the_run_verdict_counts_rounds_and_every_model_text_is_escaped() {
        let sts = parse_sts(HOSTILE, "h.sts.yaml", "h", Syntax::Yaml).unwrap();
        // Inconclusive in round 1, passed in round 2: the run passes (as its exit status), the
        // counts show both purposes executed, each row its trace with the values.
        let passed = report(
            vec![
                outcome(
                    PurposeVerdict::Inconclusive,
                    &["?put(0)", "delta"],
                    "quiescence, where the purpose expects switch `done`",
                ),
                outcome(
                    PurposeVerdict::Pass,
                    &["?put(0)", "!ack", "delta"],
                    "the purpose's end is reached",
                ),
            ],
            Criterion::SWITCH_PAIRS,
        );
        let html = HtmlReport::of_sts_run(&sts, &[], &passed, &facts()).render();
        assert!(html.contains("<p id=\"verdict\" class=\"badge pass\">pass</p>"));
        assert!(html.contains("<span class=\"number\" id=\"count-inconclusive\">1</span>"));
        assert!(html.contains("<td class=\"name\">round 2, purpose 1/1</td>"));
        assert!(html.contains("<code class=\"trace\">?put(0) δ</code>"));
        assert!(html.contains("<code class=\"trace\">?put(0) !ack δ</code>"));
        assert!(html.contains("<b id=\"switches-covered\">1/2 (50.0%)</b>"));
        assert!(html.contains("<p class=\"failure\" id=\"switches-missed\">Not covered: done</p>"));
        assert!(html.contains("<b id=\"items-covered\">1/2 (50.0%)</b>"));
        assert!(!html.contains("id=\"failures\""));
        for raw in ["<m>", "<a>", "s<1>", "b&c", "p < n", "<spec>"] {
            assert!(!html.contains(raw), "{raw} unescaped");
        }
        for escaped in [
            "&lt;m&gt;&amp;",
            "&lt;a&gt;",
            "s&lt;1&gt;,done",
            "b&amp;c",
            "<code>p &lt; n + 1</code>",
            "<code>n := p</code>",
            "<code>?put(p)</code>",
            "&lt;spec&gt;.sts.yaml",
        ] {
            assert!(html.contains(escaped), "{escaped}");
        }
        for tag in html.split('<').skip(1) {
            let tag = tag.split('>').next().unwrap();
            assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
        }
        // A failure: the fail badge, the reason above the drawn trace, the step in red; switch
        // coverage alone lists no items.
        let mut failed = report(
            vec![outcome(
                PurposeVerdict::Fail,
                &["?put(0)", "!<x>"],
                "output `<x>` is no output gate value of the STS",
            )],
            Criterion::SWITCHES,
        );
        failed.rounds = 1;
        failed.steps_to_failure = Some(2);
        let html = HtmlReport::of_sts_run(&sts, &[], &failed, &facts()).render();
        assert!(html.contains("<p id=\"verdict\" class=\"badge fail\">fail</p>"));
        assert!(html.contains(
            "<p class=\"failure\">output `&lt;x&gt;` is no output gate value of the STS</p>"
        ));
        assert!(html.contains("<g class=\"step fail\">"));
        assert!(html.contains("<td class=\"name\">purpose 1/1</td>"));
        assert!(html.contains("inputs and outputs to failure</th><td>2</td>"));
        assert!(!html.contains("items-covered"));
    }
}
