//! `ncomplete draw`: snapshots of the SVG and DOT of small models (a Mealy machine and an LTS),
//! coverage from a run's JSON results (a vending run in simulation, opened in headless
//! Chromium), and clear errors for results without coverage or of another model.
//! `UPDATE_SNAPSHOTS=1 cargo test --test draw` rewrites the snapshots (review the diff).

mod common;

use common::browser::{artifacts, chromium, headless};
use common::{fixture, root, run, work_dir};

fn snapshot(name: &str, text: &str) {
    let path = root().join("tests/snapshots/draw").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    assert!(
        text == expected,
        "{name} differs from {} (UPDATE_SNAPSHOTS=1 rewrites it)\n{text}",
        path.display()
    );
}

fn draw(args: &[&str]) -> String {
    let mut all = vec!["draw"];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn small_models_are_drawn_as_the_snapshots_show() {
    let toggle = fixture("toggle.dot");
    let coffee = fixture("coffee.aut");
    for (name, args) in [
        ("toggle.svg", vec![toggle.as_str()]),
        ("toggle.dot", vec![toggle.as_str(), "--format", "dot"]),
        ("coffee.svg", vec![coffee.as_str(), "--format", "svg"]),
        ("coffee.dot", vec![coffee.as_str(), "--format", "dot"]),
    ] {
        let text = draw(&args);
        assert_eq!(text, draw(&args), "{name}: the same bytes every time");
        snapshot(name, &text);
    }
    // A Mealy machine is drawn with `i/o` edges, its two self-loops' labels above their states.
    let svg = draw(&[&toggle]);
    assert!(
        svg.contains(">a/0</tspan>") && svg.contains(">b/1</tspan>"),
        "{svg}"
    );
    assert!(!svg.contains(">?a<"), "no LTS labels");
}

#[test]
fn a_coloured_vending_run_opens_in_a_browser() {
    let dir = work_dir("draw-vending");
    let vending = root().join("models/vending.aut");
    let vending = vending.to_str().unwrap();
    let suite = dir.join("vending.suite.json");
    let results = dir.join("results.json");
    let (code, _, err) = run(&[
        "--quiet",
        "generate",
        vending,
        "--n",
        "2",
        "--out",
        suite.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Without a specification the results hold no coverage, and draw says how to get it.
    let (code, _, err) = run(&[
        "--quiet",
        "run",
        suite.to_str().unwrap(),
        "--model",
        vending,
        "--input-enable",
        "self-loop",
        "--json",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["draw", vending, "--coverage", results.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("the results hold no coverage: run the suite with --spec"),
        "{err}"
    );
    // Against a faulty implementation (the tea button gives coffee) some transitions are
    // missed: the run never sees !tea.
    let faulty = dir.join("faulty.aut");
    let text = std::fs::read_to_string(vending).unwrap();
    std::fs::write(&faulty, text.replace("\"!tea\"", "\"!coffee\"")).unwrap();
    assert_ne!(std::fs::read_to_string(&faulty).unwrap(), text);
    let (code, _, err) = run(&[
        "--quiet",
        "run",
        suite.to_str().unwrap(),
        "--model",
        faulty.to_str().unwrap(),
        "--input-enable",
        "self-loop",
        "--spec",
        vending,
        "--json",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let coverage = &json["coverage"];
    let (covered, total) = (
        coverage["transitions_covered"].as_u64().unwrap(),
        coverage["transitions"].as_u64().unwrap(),
    );
    assert!(0 < covered && covered < total, "{coverage}");
    let svg_path = dir.join("vending.svg");
    draw(&[
        vending,
        "--coverage",
        results.to_str().unwrap(),
        "--out",
        svg_path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let labels = |class: &str| svg.matches(&format!(" {class}\" x=\"")).count() as u64;
    assert_eq!(labels("covered"), covered, "{svg}");
    assert_eq!(labels("missed"), total - covered, "{svg}");
    assert!(svg.contains(" missed\" x=\"") && svg.contains(">!tea</tspan>"));
    // Results of another model are refused with the state they name.
    let (code, _, err) = run(&[
        "draw",
        &fixture("coffee.aut"),
        "--coverage",
        results.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("the specification has no state"), "{err}");
    assert!(err.contains("were these results run with --spec"), "{err}");

    let Some(browser) = chromium("the coloured drawing") else {
        return;
    };
    let profile = dir.join("profile");
    let dom = headless(browser, &svg_path, &profile, &["--dump-dom"]);
    assert!(
        dom.contains("class=\"ncomplete-model\" id=\"model\""),
        "{dom}"
    );
    assert!(dom.contains("class=\"transition") && dom.contains("state initial-state visited"));
    let shot = artifacts().join("draw-vending-coverage.png");
    std::fs::remove_file(&shot).ok();
    headless(
        browser,
        &svg_path,
        &profile,
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1000,500",
        ],
    );
    let png = std::fs::read(&shot).expect("Chromium wrote the screenshot");
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{}",
        png.len()
    );
}
