//! `ncomplete run --html FILE` and `ncomplete explore --html FILE`: the self-contained HTML
//! report of a run. A failing run in simulation writes it byte-identically twice; headless
//! Chromium loads it (the DOM holds the verdict rows and the failing test's sequence diagram)
//! and takes a screenshot, kept as `target/test-artifacts/html-report-failing.png` (the guide's
//! page on running suites shows it). Where Chromium is absent the browser part is skipped with a
//! message; `.ci/run` installs it.

mod common;

use common::browser::{chromium, headless, screenshot};
use common::{fixture, run, work_dir};

#[test]
fn a_failing_simulated_run_writes_a_report_that_a_browser_shows() {
    let dir = work_dir("html-report-failing");
    let html = dir.join("report.html");
    let args = [
        "run",
        &fixture("coffee.suite.json"),
        "--model",
        &fixture("coffee-faulty.aut"),
        "--spec",
        &fixture("coffee.aut"),
        "--html",
        html.to_str().unwrap(),
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    let text = std::fs::read_to_string(&html).unwrap();
    let (code, _, _) = run(&args);
    assert_eq!(code, 1);
    assert_eq!(
        text,
        std::fs::read_to_string(&html).unwrap(),
        "a simulated run gives the same bytes"
    );
    // The suite's model name `coffee "deluxe"` is escaped; nothing is loaded from anywhere.
    assert!(text.contains("ncomplete run: coffee &quot;deluxe&quot;"));
    assert!(!text.contains("src=") && !text.contains("href=\"http") && !text.contains("url(http"));
    // t0004 fails on ?coin ?button !coffee ?button !coffee: 4 of the 9 reachable transitions
    // of the coffee machine are covered by the four tests' executions.
    assert!(text.contains("<tr id=\"test-3\" class=\"fail\" data-verdict=\"fail\">"));
    assert!(text.contains("id=\"transitions-covered\">"));

    let Some(browser) = chromium("the HTML report") else {
        return;
    };
    let profile = dir.join("profile");
    let dom = headless(browser, &html, &profile, &["--dump-dom"]);
    assert!(
        dom.contains("<p id=\"verdict\" class=\"badge fail\">fail</p>"),
        "{dom}"
    );
    for (name, count) in [("pass", 3), ("fail", 1), ("inconclusive", 0)] {
        assert!(
            dom.contains(&format!(
                "<span class=\"number\" id=\"count-{name}\">{count}</span>"
            )),
            "{dom}"
        );
    }
    for (k, verdict) in ["pass", "pass", "pass", "fail"].iter().enumerate() {
        assert!(
            dom.contains(&format!(
                "<tr id=\"test-{k}\" class=\"{verdict}\" data-verdict=\"{verdict}\"><td>{}</td><td class=\"name\">t000{}</td>",
                k + 1,
                k + 1
            )),
            "{dom}"
        );
    }
    let failure = &dom[dom
        .find("<article class=\"failing-test\" id=\"failure-3\">")
        .unwrap()..];
    assert!(failure.contains("<h3>t0004</h3>"), "{failure}");
    assert!(
        failure.contains("unexpected !coffee (expected one of: delta)"),
        "{failure}"
    );
    assert_eq!(failure.matches("<g class=\"step").count(), 5, "{failure}");
    assert!(failure.contains("<g class=\"step fail\">"), "{failure}");
    assert!(
        dom.contains("<svg class=\"ncomplete-model\" id=\"model-drawing\""),
        "{dom}"
    );

    screenshot(browser, &html, &profile, "html-report-failing.png");
}

#[test]
fn a_run_against_a_system_reports_times_and_observed_traces() {
    let dir = work_dir("html-report-system");
    let html = dir.join("report.html");
    let sut = format!(
        "'{}' simulate '{}'",
        env!("CARGO_BIN_EXE_ncomplete"),
        fixture("toggle-faulty.dot")
    );
    let (code, out, err) = run(&[
        "run",
        &fixture("mealy.suite.json"),
        "--sut",
        &sut,
        "--jobs",
        "2",
        "--spec",
        &fixture("toggle.dot"),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(text.contains("<tr><th>total time</th><td>"), "{text}");
    assert!(text.contains("<th>time</th>"), "{text}");
    // t0002 fails on ?b !0 ?a !0 ?b !0, drawn with what was expected.
    let failure = &text[text
        .find("<article class=\"failing-test\" id=\"failure-1\">")
        .unwrap()..];
    assert!(
        failure.contains("<p class=\"failure\">unexpected !0 (expected one of: !1)</p>"),
        "{failure}"
    );
    assert_eq!(failure.matches("class=\"msg input\"").count(), 3);
    assert_eq!(failure.matches("class=\"msg output\"").count(), 3);
    assert!(text.contains("<svg class=\"ncomplete-model\""));
}

#[test]
fn explore_writes_a_report_and_a_run_without_specification_says_how_to_get_the_drawing() {
    let dir = work_dir("html-report-explore");
    let html = dir.join("explore.html");
    let args = [
        "explore",
        &fixture("coffee.aut"),
        "--model",
        &fixture("coffee-faulty.aut"),
        "--seed",
        "3",
        "--html",
        html.to_str().unwrap(),
        "--quiet",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    let text = std::fs::read_to_string(&html).unwrap();
    let (code, _, _) = run(&args);
    assert_eq!(code, 1);
    assert_eq!(text, std::fs::read_to_string(&html).unwrap());
    assert!(text.contains("<p id=\"verdict\" class=\"badge fail\">fail</p>"));
    assert!(text.contains("<td class=\"name\">exploration</td>"));
    assert!(text.contains("<g class=\"step fail\">"));
    assert!(text.contains("<svg class=\"ncomplete-model\""));
    assert!(
        !text.contains("total time"),
        "a model in process is not timed"
    );

    let bare = dir.join("bare.html");
    let (code, _, _) = run(&[
        "run",
        &fixture("coffee.suite.json"),
        "--model",
        &fixture("coffee.aut"),
        "--html",
        bare.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&bare).unwrap();
    assert!(text.contains("run again with --spec MODEL"), "{text}");
    assert!(!text.contains("<svg"));
    // The report never replaces an input, and needs a file of its own.
    let (code, _, err) = run(&[
        "run",
        &fixture("coffee.suite.json"),
        "--model",
        &fixture("coffee.aut"),
        "--html",
        "-",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// A Mealy suite sends an input wherever the machine waits for one: the quiescence loops of the
/// specification's suspension automaton are no coverage goals, so a complete suite run against
/// a correct system covers every transition and lists none as missed.
#[test]
fn a_mealy_run_can_cover_every_transition() {
    let dir = work_dir("html-report-mealy-full");
    let html = dir.join("report.html");
    let (code, out, err) = run(&[
        "run",
        &fixture("mealy.suite.json"),
        "--model",
        &fixture("toggle.dot"),
        "--spec",
        &fixture("toggle.dot"),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(&html).unwrap();
    // toggle.dot: 2 states and 4 transitions, each an input and an output step.
    assert!(
        text.contains("Transitions covered: <b id=\"transitions-covered\">8</b> of 8 (100.0%)"),
        "{text}"
    );
    assert!(!text.contains("id=\"missed\""), "{text}");
    assert!(!text.contains("--δ--"), "{text}");
    // Drawn as the Mealy machine it is: four `i/o` transitions, all covered, on its 2 states.
    for label in ["a/0", "b/0", "a/1", "b/1"] {
        assert!(
            text.contains(&format!(">{label}</tspan>")),
            "{label}: {text}"
        );
    }
    assert_eq!(
        text.matches("<tspan class=\"label mealy covered\" x=\"")
            .count(),
        4,
        "{text}"
    );
    assert_eq!(text.matches("<g class=\"state ").count(), 2, "{text}");
    assert!(
        !text.contains(">?a</tspan>") && !text.contains("s0/a"),
        "{text}"
    );
}
