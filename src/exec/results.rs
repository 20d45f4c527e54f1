//! Machine-readable results of `ncomplete run`: JUnit XML (`--junit FILE`, the report format CI
//! systems read) and JSON (`--json FILE`, format `ncomplete-results-v1`), written whole or not at
//! all through [`crate::output`].
//!
//! One record per test case, in suite order, with the verdict of the run: `pass`, `fail` (with
//! the reason and the trace that led to it) or `inconclusive` (every execution ended in `retry`,
//! TorX's and van den Bos's fairness assumption not met within the retries). In JUnit XML a fail
//! is a `<failure>`, and an inconclusive test is `<skipped>`, as in the generated pytest module
//! by default: it is not a pass, and not evidence of non-conformance either. An unreached joker
//! goal of a goal suite (`super::goal_coverage`) is `inconclusive` with the reason
//! `race-dependent goal` or `joker goal`: skipped with that reason in JUnit, counted apart in
//! JSON (`counts.unreached_goals`), and the suite verdict does not rest on it.
//!
//! Runs in simulation are exact, so their results carry no times and are byte-identical for the
//! same suite and model; runs against a system carry each test's wall-clock time in seconds.
//!
//! A record also keeps the observed trace of its test as structured steps (every test of a run
//! against a system: its last execution; in simulation: the witness of a failure) and what was
//! expected at a failing last step; the HTML report (`run --html FILE`,
//! [`super::report_html`]) draws them, the JUnit and JSON files do not carry them.

use super::TestVerdict;
use super::error::{ExecError, Result};
pub use super::records::{
    EXCUSED_REASONS, ObservedStep, TestRecord, VerdictCounts, failure_at_last_step,
};
use super::report_html::{HtmlReport, SpecCoverage};
use super::stdio::LatencyWarning;
use crate::output::Output;
use crate::suite::SuiteHeader;
use std::fmt::Write as _;
use std::io::Write;
use std::time::Duration;

/// The results of a run, collected test by test for the files asked for.
#[derive(Debug, Default)]
pub struct RunResults {
    /// The file to write JUnit XML to (a path; `run` refuses `-` and its inputs).
    pub junit: Option<String>,
    /// The file to write the JSON results to (a path; `run` refuses `-` and its inputs).
    pub json: Option<String>,
    /// What ran the suite: `model FILE` or `system COMMAND`.
    pub system: String,
    records: Vec<TestRecord>,
    /// The file to write the HTML report to.
    html: Option<String>,
    /// The specification (its path) with the coverage of the run, kept when it was given and
    /// the HTML report draws it or the JSON results list it.
    spec: Option<(String, SpecCoverage)>,
    /// Wall-clock time of the whole run (runs against a system only).
    total_time: Option<Duration>,
    /// The latency warning of a run against a system, carried into the JSON results.
    latency: Option<LatencyWarning>,
}

impl RunResults {
    /// Results to collect for the given files (nothing is kept when both are `None`).
    pub fn new(junit: Option<String>, json: Option<String>, system: String) -> RunResults {
        RunResults {
            junit,
            json,
            system,
            records: Vec::new(),
            html: None,
            spec: None,
            total_time: None,
            latency: None,
        }
    }

    /// Also writes the HTML report of the run to `path` (nothing when `None`); with `spec`
    /// (its path and model) the report draws the specification with the transitions the run
    /// covered, and the JSON results list them (`coverage`).
    pub fn with_html(
        mut self,
        path: Option<String>,
        spec: Option<(&str, &crate::model::Model)>,
    ) -> Result<RunResults> {
        self.html = path;
        self.spec = match spec {
            Some((name, model)) if self.html.is_some() || self.json.is_some() => {
                Some((name.to_owned(), SpecCoverage::of_run_spec(model)?))
            }
            _ => None,
        };
        Ok(self)
    }

    /// Whether any file was asked for.
    pub fn wanted(&self) -> bool {
        self.junit.is_some() || self.json.is_some() || self.html.is_some()
    }

    /// The specification coverage the HTML report draws, when it has a specification.
    pub fn coverage_mut(&mut self) -> Option<&mut SpecCoverage> {
        self.spec.as_mut().map(|(_, coverage)| coverage)
    }

    /// Records the latency warning of a run against a system (the timing rule).
    pub fn set_latency_warning(&mut self, warning: Option<LatencyWarning>) {
        self.latency = warning;
    }

    /// Records the wall-clock time of the whole run (runs against a system).
    pub fn set_total_time(&mut self, time: Duration) {
        self.total_time = Some(time);
    }

    /// Records one test's result (kept only when a file was asked for; its trace only for the
    /// HTML report, the one file that draws traces).
    pub fn record(&mut self, mut record: TestRecord) {
        if self.html.is_none() {
            record.trace = Vec::new();
            record.failure = None;
        }
        if self.wanted() {
            self.records.push(record);
        }
    }

    /// The recorded results.
    pub fn records(&self) -> &[TestRecord] {
        &self.records
    }

    /// Checks, before any test runs, that the files asked for can be written where they are
    /// named: the directory exists (and is writable, on Unix), and the path is not a
    /// directory. A run that would only fail at its end after running every test fails first.
    pub fn check_paths(&self) -> Result<()> {
        for path in [self.junit.as_ref(), self.json.as_ref(), self.html.as_ref()]
            .into_iter()
            .flatten()
        {
            writable_path(path)?;
        }
        Ok(())
    }

    /// Writes the files asked for, each whole or not at all.
    pub fn write(&self, suite_path: &str, header: &SuiteHeader) -> Result<()> {
        if let Some(path) = &self.junit {
            write_to(path, &junit_xml(suite_path, header, &self.records))?;
        }
        if let Some(path) = &self.json {
            write_to(
                path,
                &results_json(
                    suite_path,
                    header,
                    &self.system,
                    &self.records,
                    self.latency.as_ref(),
                    self.spec.as_ref().map(|(name, c)| (name.as_str(), c)),
                ),
            )?;
        }
        if let Some(html) = &self.html {
            let report = HtmlReport::of_run(
                suite_path,
                header,
                &self.system,
                &self.records,
                self.total_time,
                self.spec.as_ref().map(|(name, c)| (name.as_str(), c)),
            );
            write_to(html, &report.render())?;
        }
        Ok(())
    }
}

/// Whether a file can be written at `path` (see [`RunResults::check_paths`]).
pub fn writable_path(path: &str) -> Result<()> {
    let refuse = |why: &str| Err(ExecError::Usage(format!("cannot write {path}: {why}")));
    let target = std::path::Path::new(path);
    if target.is_dir() {
        return refuse("it is a directory");
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        return refuse(&format!("the directory {} does not exist", dir.display()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::CString::new(dir.as_os_str().as_bytes()).map_err(|_| {
            ExecError::Usage(format!("cannot write {path}: a NUL byte in the path"))
        })?;
        // SAFETY: `name` is a NUL-terminated string alive for the call.
        if unsafe { libc::access(name.as_ptr(), libc::W_OK | libc::X_OK) } != 0 {
            return refuse(&format!("the directory {} is not writable", dir.display()));
        }
    }
    Ok(())
}

fn write_to(path: &str, text: &str) -> Result<()> {
    let mut out = Output::create(path)?;
    out.write_all(text.as_bytes())
        .map_err(|e| ExecError::io(out.name(), e))?;
    Ok(out.commit()?)
}

/// Text for an XML attribute value or character data: markup characters as entities, and the
/// characters XML 1.0 cannot hold at all (controls other than tab, newline and return) as
/// `\u{..}` text.
fn xml_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || matches!(c, '\u{fffe}' | '\u{ffff}') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn seconds(time: Duration) -> String {
    format!("{:.3}", time.as_secs_f64())
}

/// The JUnit XML report: one `<testsuite>` named after the model, one `<testcase>` per test.
pub fn junit_xml(suite_path: &str, header: &SuiteHeader, records: &[TestRecord]) -> String {
    let VerdictCounts {
        fail,
        inconclusive,
        unreached_goals,
        ..
    } = VerdictCounts::of_records(records);
    // An unreached goal's test is skipped too.
    let inconclusive = inconclusive + unreached_goals;
    let total: Option<Duration> = records.iter().map(|r| r.time).sum();
    let time =
        |t: Option<Duration>| t.map_or(String::new(), |t| format!(" time=\"{}\"", seconds(t)));
    let model = xml_text(&header.model.name);
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"ncomplete\" tests=\"{}\" failures=\"{fail}\" errors=\"0\" skipped=\"{inconclusive}\"{}>",
        records.len(),
        time(total)
    );
    let _ = writeln!(
        x,
        "  <testsuite name=\"{model}\" tests=\"{}\" failures=\"{fail}\" errors=\"0\" skipped=\"{inconclusive}\"{}>",
        records.len(),
        time(total)
    );
    x.push_str("    <properties>\n");
    let n = header.n.map_or("-".to_owned(), |n| n.to_string());
    for (name, value) in [
        ("suite", suite_path),
        ("method", header.method.as_str()),
        ("n", n.as_str()),
        ("guarantee", header.guarantee.as_str()),
    ] {
        let _ = writeln!(
            x,
            "      <property name=\"{name}\" value=\"{}\"/>",
            xml_text(value)
        );
    }
    x.push_str("    </properties>\n");
    // The requirements each test touches (`super::requirements`), as properties.
    let requirements = super::requirements::by_test(header);
    for r in records {
        let _ = write!(
            x,
            "    <testcase classname=\"{model}\" name=\"{}\"{}",
            xml_text(&r.name),
            time(r.time)
        );
        let mut properties = String::new();
        if let Some(names) = requirements.get(&r.name) {
            properties.push_str("\n      <properties>");
            for name in names {
                let _ = write!(
                    properties,
                    "\n        <property name=\"requirement\" value=\"{}\"/>",
                    xml_text(name)
                );
            }
            properties.push_str("\n      </properties>");
        }
        let message = xml_text(r.message.as_deref().unwrap_or_default());
        match r.verdict {
            TestVerdict::Pass if properties.is_empty() => x.push_str("/>\n"),
            TestVerdict::Pass => {
                let _ = writeln!(x, ">{properties}\n    </testcase>");
            }
            TestVerdict::Fail => {
                let _ = writeln!(
                    x,
                    ">{properties}\n      <failure type=\"fail\" message=\"{message}\">{message}</failure>\n    </testcase>"
                );
            }
            TestVerdict::Inconclusive => {
                let why = match r.reason {
                    Some(reason) if EXCUSED_REASONS.contains(&reason) => reason,
                    _ => "inconclusive",
                };
                let _ = writeln!(
                    x,
                    ">{properties}\n      <skipped message=\"{why}: {message}\"/>\n    </testcase>"
                );
            }
        }
    }
    x.push_str("  </testsuite>\n</testsuites>\n");
    x
}

/// The JSON results (format `ncomplete-results-v1`): the suite and system, the suite verdict and
/// counts, one object per test, and with a specification (its path and the run's coverage) the
/// states visited and transitions covered ([`SpecCoverage::to_json`], which `ncomplete draw
/// --coverage` reads).
pub fn results_json(
    suite_path: &str,
    header: &SuiteHeader,
    system: &str,
    records: &[TestRecord],
    latency: Option<&LatencyWarning>,
    spec: Option<(&str, &SpecCoverage)>,
) -> String {
    let counts = VerdictCounts::of_records(records);
    let requirements = super::requirements::by_test(header);
    let tests: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            let mut t = serde_json::json!({
                "name": r.name,
                "verdict": r.verdict.to_string(),
                "message": r.message,
            });
            if let Some(time) = r.time {
                t["seconds"] = serde_json::json!(time.as_secs_f64());
            }
            if let Some(reason) = r.reason {
                t["reason"] = serde_json::json!(reason);
            }
            if let Some((first, rerun)) = &r.timing_traces {
                t["traces"] = serde_json::json!({"first": first, "rerun": rerun});
            }
            if let Some(names) = requirements.get(&r.name) {
                t["requirements"] = serde_json::json!(names);
            }
            t
        })
        .collect();
    let mut value = serde_json::json!({
        "format": "ncomplete-results-v1",
        "suite": suite_path,
        "model": header.model.name,
        "method": header.method,
        "n": header.n,
        "guarantee": header.guarantee,
        "system": system,
        "verdict": counts.verdict().to_string(),
        "counts": {
            "pass": counts.pass,
            "fail": counts.fail,
            "inconclusive": counts.inconclusive,
        },
        "tests": tests,
    });
    if counts.unreached_goals > 0 {
        value["counts"]["unreached_goals"] = serde_json::json!(counts.unreached_goals);
    }
    // The shard of the suite (`generate --shard K/N`) the run ran, for `results merge`.
    if let Some(shard) = header.extra.get("shard") {
        value["shard"] = shard.clone();
    }
    if let Some(w) = latency {
        value["latency_warning"] = serde_json::json!({
            "largest_ms": w.largest_ms,
            "quiescence_ms": w.quiescence_ms,
            "advised_quiescence_ms": w.advised_ms,
            "message": w.text(),
        });
    }
    if let Some((path, coverage)) = spec {
        value["coverage"] = coverage.to_json(path);
    }
    let verdicts = records.iter().map(|r| (r.name.as_str(), r.verdict));
    if let Some(table) = super::requirements::RequirementCoverage::of(header, verdicts) {
        value["requirements"] = table.to_json();
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::SuiteModel;

    fn header() -> SuiteHeader {
        SuiteHeader {
            model: SuiteModel {
                name: "m<&>".into(),
                inputs: vec!["a".into()],
                outputs: vec!["x".into()],
                quiescence: Some("delta".into()),
            },
            method: "ioco-complete".into(),
            n: Some(2),
            guarantee: "g \"quoted\"".into(),
            extra: serde_json::Map::new(),
        }
    }

    fn records() -> Vec<TestRecord> {
        vec![
            TestRecord {
                name: "t0001".into(),
                verdict: TestVerdict::Pass,
                message: None,
                time: None,
                trace: Vec::new(),
                failure: None,
                reason: None,
                timing_traces: None,
            },
            TestRecord {
                name: "t0002".into(),
                verdict: TestVerdict::Fail,
                message: Some("unexpected !<x> after ?a\u{1}".into()),
                time: None,
                trace: Vec::new(),
                failure: None,
                reason: None,
                timing_traces: None,
            },
            TestRecord {
                name: "t0003".into(),
                verdict: TestVerdict::Inconclusive,
                message: Some("every execution ends in retry".into()),
                time: None,
                trace: Vec::new(),
                failure: None,
                reason: None,
                timing_traces: None,
            },
        ]
    }

    #[test]
    fn counts_give_the_worst_verdict_and_the_summary_line() {
        assert_eq!(VerdictCounts::default().verdict(), TestVerdict::Pass);
        let verdicts = records().iter().map(|r| r.verdict).collect::<Vec<_>>();
        for k in 0..=verdicts.len() {
            let counts = VerdictCounts::of(verdicts[..k].iter().copied());
            let worst = verdicts[..k].iter().copied().max();
            assert_eq!(counts.verdict(), worst.unwrap_or(TestVerdict::Pass));
            assert_eq!(counts.pass + counts.fail + counts.inconclusive, k);
        }
        assert_eq!(
            VerdictCounts::of(verdicts).summary_line(),
            "suite: fail (1 pass, 1 fail, 1 inconclusive)\n"
        );
    }

    #[test]
    fn junit_reports_failures_and_inconclusive_tests_as_skipped_with_escaped_text() {
        let x = junit_xml("s.json", &header(), &records());
        assert!(x.contains(
            "<testsuite name=\"m&lt;&amp;&gt;\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">"
        ));
        assert!(x.contains("<testcase classname=\"m&lt;&amp;&gt;\" name=\"t0001\"/>"));
        assert!(
            x.contains("<failure type=\"fail\" message=\"unexpected !&lt;x&gt; after ?a\\u{1}\">")
        );
        assert!(x.contains("<skipped message=\"inconclusive: every execution ends in retry\"/>"));
        assert!(x.contains("<property name=\"guarantee\" value=\"g &quot;quoted&quot;\"/>"));
        assert!(!x.contains("time="), "simulated runs carry no times");
        assert!(!x.contains('\u{1}'));
    }

    #[test]
    fn json_results_hold_verdicts_counts_and_times_when_measured() {
        let mut rs = records();
        rs[0].time = Some(Duration::from_millis(1500));
        let v: serde_json::Value = serde_json::from_str(&results_json(
            "s.json",
            &header(),
            "system x",
            &rs,
            None,
            None,
        ))
        .unwrap();
        assert_eq!(v["verdict"], "fail");
        assert_eq!(v["counts"]["inconclusive"], 1);
        assert_eq!(v["tests"][0]["seconds"], 1.5);
        assert_eq!(v["tests"][1]["message"], "unexpected !<x> after ?a\u{1}");
        assert!(v["tests"][1].get("seconds").is_none());
        assert_eq!(v["n"], 2);
    }
}
