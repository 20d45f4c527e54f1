//! Tests of the HTML report: coverage replay, sequence diagrams, escaping, determinism.

use super::diagrams::sequence_diagram;
use super::*;
use crate::exec::TestVerdict;
use crate::exec::records::{ObservedStep, TestRecord};
use crate::exec::simulate::SimulatedSystem;
use crate::model::suspension_from_marked;
use crate::model::{LabelId, SuspensionAutomaton};
use crate::suite::SuiteModel;
use crate::suite::{Next, SuiteHeader, TestCase, TestNode};
use std::time::Duration;

/// The coffee machine of `tests/fixtures/coffee.aut` as a suspension automaton.
fn coffee() -> SuspensionAutomaton {
    suspension_from_marked(
        "coffee",
        3,
        &[
            (0, "?coin", 1),
            (0, "?button", 0),
            (0, "delta", 0),
            (1, "?coin", 1),
            (1, "?button", 2),
            (1, "delta", 1),
            (2, "!coffee", 0),
            (2, "!tea", 0),
            (2, "?coin", 2),
            (2, "?button", 2),
        ],
    )
    .unwrap()
}

fn steps(marked: &[&str]) -> Vec<ObservedStep> {
    marked
        .iter()
        .map(|s| ObservedStep::from_marked(s, "delta"))
        .collect()
}

fn header(name: &str) -> SuiteHeader {
    SuiteHeader {
        model: SuiteModel {
            name: name.into(),
            inputs: vec!["coin".into(), "button".into()],
            outputs: vec!["coffee".into(), "tea".into()],
            quiescence: Some("delta".into()),
        },
        method: "ioco-complete".into(),
        n: Some(3),
        guarantee: "complete for n <= 3".into(),
        extra: serde_json::Map::new(),
    }
}

fn failing(name: &str, trace: &[&str], failure: &str) -> TestRecord {
    TestRecord {
        name: name.into(),
        verdict: TestVerdict::Fail,
        message: Some(format!("{failure} after ...")),
        time: None,
        trace: steps(trace),
        failure: Some(failure.into()),
        reason: None,
        timing_traces: None,
    }
}

fn passing(name: &str) -> TestRecord {
    TestRecord {
        name: name.into(),
        verdict: TestVerdict::Pass,
        message: None,
        time: None,
        trace: Vec::new(),
        failure: None,
        reason: None,
        timing_traces: None,
    }
}

#[test]
fn replayed_traces_cover_exactly_the_transitions_they_take() {
    let mut c = SpecCoverage::new(coffee());
    assert_eq!(
        c.counts(),
        CoverageCounts {
            states: 1,
            states_total: 3,
            transitions: 0,
            transitions_total: 10
        }
    );
    c.cover_trace(&steps(&["?coin", "delta", "?button", "!tea"]));
    assert_eq!(c.counts().transitions, 4);
    assert_eq!(c.counts().states, 3);
    // Again, then beyond the specification: nothing new, and nothing after the step it
    // does not enable (!coffee in state 0).
    c.cover_trace(&steps(&["?coin", "delta", "!coffee", "?button"]));
    assert_eq!(c.counts().transitions, 4);
    c.cover_trace(&steps(&["?button", "delta"]));
    assert_eq!(c.counts().transitions, 6);
    let sa = c.automaton();
    let taken: Vec<String> = sa
        .states()
        .flat_map(|q| (0..sa.enabled(q).len()).map(move |k| (q, k)))
        .filter(|&(q, k)| c.is_taken(q, k))
        .map(|(q, k)| format!("{} {}", q.0, c.marked(sa.enabled(q)[k].0)))
        .collect();
    let mut taken = taken;
    taken.sort();
    assert_eq!(
        taken,
        ["0 ?button", "0 ?coin", "0 δ", "1 ?button", "1 δ", "2 !tea"]
    );
}

#[test]
fn simulated_runs_cover_every_execution_and_stop_where_the_specification_ends() {
    // The implementation answers ?button after ?coin with !coffee or !tea; the test waits
    // for either. Every execution is explored: both outputs are covered.
    let imp = coffee();
    let suite = header("coffee").model;
    let sys = SimulatedSystem::from_suspension(&imp, &suite, super::super::InputEnabling::Reject)
        .unwrap();
    let test = TestCase {
        name: "t".into(),
        nodes: vec![
            TestNode::Send {
                input: LabelId(0),
                then: Next::Node(1),
                race: vec![],
            },
            TestNode::Send {
                input: LabelId(1),
                then: Next::Node(2),
                race: vec![],
            },
            TestNode::Expect {
                branches: vec![(LabelId(0), Next::PASS), (LabelId(1), Next::Node(3))],
            },
            TestNode::Expect {
                branches: vec![(LabelId(2), Next::PASS)],
            },
        ],
    };
    let mut c = SpecCoverage::new(coffee());
    c.cover_simulated(&sys, &test);
    // ?coin, ?button, !coffee, !tea, then δ in state 0 after !tea.
    assert_eq!(c.counts().transitions, 5);
    assert_eq!(c.counts().states, 3);
    // A specification without !tea: the executions through !tea stop there.
    let strict = suspension_from_marked(
        "strict",
        3,
        &[
            (0, "?coin", 1),
            (0, "delta", 0),
            (1, "?button", 2),
            (1, "delta", 1),
            (2, "!coffee", 0),
        ],
    )
    .unwrap();
    let mut c = SpecCoverage::new(strict);
    c.cover_simulated(&sys, &test);
    assert_eq!(c.counts().transitions, 3);
    assert_eq!(c.counts().transitions_total, 5);
}

#[test]
fn sequence_diagrams_draw_inputs_outputs_waits_and_the_failing_step() {
    let r = failing(
        "t1",
        &["?coin", "delta", "?button", "!coffee"],
        "unexpected !coffee (expected one of: !tea)",
    );
    let svg = sequence_diagram(3, &r);
    assert_eq!(svg.matches("class=\"msg input\"").count(), 2);
    assert_eq!(svg.matches("class=\"msg output\"").count(), 1);
    assert_eq!(svg.matches("<rect class=\"wait\"").count(), 1);
    assert_eq!(svg.matches("<g class=\"step fail\">").count(), 1);
    // The failing step is the last one, drawn from the system to the tester in red.
    let fail = &svg[svg.find("<g class=\"step fail\">").unwrap()..];
    assert!(fail.contains("x1=\"590\" y1=\"182\" x2=\"170\""));
    assert!(fail.contains("url(#seq3-fail)"));
    assert!(fail.contains(">!coffee</text>"));
    assert!(svg.contains("unexpected !coffee (expected one of: !tea)</text>"));
    // The input arrows point at the system.
    assert!(svg.contains("x1=\"170\" y1=\"80\" x2=\"590\" y2=\"80\""));
    // A passing or crashed test's trace highlights nothing.
    let mut plain = r.clone();
    plain.failure = None;
    assert!(!sequence_diagram(3, &plain).contains("step fail"));
}

#[test]
fn hostile_text_is_escaped_everywhere() {
    let hostile = "<script>alert(\"x\")</script>&'é\u{1}\u{202e}";
    let sa = suspension_from_marked(
        hostile,
        2,
        &[
            (0, &format!("?{hostile}i"), 1),
            (1, &format!("!{hostile}o"), 0),
            (0, "delta", 0),
        ],
    )
    .unwrap();
    let mut c = SpecCoverage::new(sa);
    let trace = [
        ObservedStep::Input(format!("{hostile}i")),
        ObservedStep::Output(format!("{hostile}o")),
    ];
    c.cover_trace(&trace);
    assert_eq!(c.counts().transitions, 2);
    let mut record = failing(hostile, &[], hostile);
    record.trace = trace.to_vec();
    let records = [record, passing(hostile)];
    let header = header(hostile);
    let html = HtmlReport::of_run(
        hostile,
        &header,
        hostile,
        &records,
        None,
        Some((hostile, &c)),
    )
    .render();
    assert!(!html.to_lowercase().contains("<script"));
    assert!(
        html.contains(
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;é\\u{1}\\u{202e}"
        )
    );
    assert!(!html.contains('\u{1}') && !html.contains('\u{202e}'));
    // Every quote in the document delimits an attribute: an even number per tag.
    for tag in html.split('<').skip(1) {
        let tag = tag.split('>').next().unwrap();
        assert_eq!(tag.matches('"').count() % 2, 0, "{tag}");
    }
}

#[test]
fn reports_are_deterministic_and_timeless_in_simulation() {
    let c = {
        let mut c = SpecCoverage::new(coffee());
        c.cover_trace(&steps(&["?coin", "?button", "!coffee"]));
        c
    };
    let records = [
        passing("t0001"),
        failing("t0002", &["?coin", "?button", "!tea"], "unexpected !tea"),
    ];
    let header = header("coffee");
    let render = || {
        HtmlReport::of_run(
            "s.json",
            &header,
            "model imp.aut",
            &records,
            None,
            Some(("coffee.aut", &c)),
        )
        .render()
    };
    let html = render();
    assert_eq!(html, render());
    assert!(!html.contains(" s<") && !html.contains("total time"));
    assert!(html.contains("<span class=\"number\" id=\"count-fail\">1</span>"));
    assert!(html.contains("<tr id=\"test-1\" class=\"fail\" data-verdict=\"fail\">"));
    assert!(html.contains("<a href=\"#failure-1\">(trace)</a>"));
    assert!(html.contains("id=\"failure-1\""));
    assert!(html.contains("Transitions covered: <b id=\"transitions-covered\">3</b> of 10"));
    // One label per transition, each marked; merged edges between the same states.
    assert_eq!(html.matches(" covered\" x=\"").count(), 3);
    assert_eq!(html.matches(" missed\" x=\"").count(), 7);
    assert_eq!(html.matches("<g class=\"state ").count(), 3);
    // No network: nothing is loaded from anywhere.
    assert!(!html.contains("src=") && !html.contains("href=\"http") && !html.contains("@import"));
    // Without a specification the report says how to get the drawing.
    let bare =
        HtmlReport::of_run("s.json", &header, "model imp.aut", &records, None, None).render();
    assert!(bare.contains(NO_SPEC_ADVICE) && !bare.contains("<svg class=\"ncomplete-model\""));
    // Measured times appear when there are some.
    let mut timed = records.to_vec();
    timed[0].time = Some(Duration::from_millis(1250));
    let html = HtmlReport::of_run(
        "s.json",
        &header,
        "system ./sut",
        &timed,
        Some(Duration::from_secs(2)),
        None,
    )
    .render();
    assert!(html.contains("<td>1.250 s</td>") && html.contains("<td>2.000 s</td>"));
}
