//! `generated/` holds the suites of bundled models, rendered in every format, so that users can
//! read (and CI can run) real generated programs. This test regenerates them into memory and fails
//! on any difference; `UPDATE_GENERATED=1 cargo test --test generated` rewrites them.
//!
//! Covered so far: the bundled Mealy machine `models/coffeemachine.dot` (hybrid-ADS, one extra
//! state). Suites of bundled IOLTSs join once the ioco generator is on main.

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::model::Model;
use ncomplete::render::words::{MealySuiteFormat, write_mealy_suite};
use ncomplete::render::{Format, render_suite};
use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use ncomplete::suite::read_suite;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files of `generated/<name>/`: the suite JSON and its renderings.
fn mealy_files(model: &str, method: MealyMethod, extra: usize) -> Vec<(PathBuf, String)> {
    let path = root().join("models").join(model);
    let Model::Mealy(m) = load_model(path.to_str().unwrap(), &LoadOptions::default()).unwrap()
    else {
        panic!("{model} is not a Mealy machine");
    };
    let suite = MealySuite::new(&m, MealySuiteOptions::new(method, extra)).unwrap();
    let mut json = Vec::new();
    write_mealy_suite(&mut json, &suite, MealySuiteFormat::Json).unwrap();
    let json = String::from_utf8(json).unwrap();
    let (header, tests) = read_suite(&json).unwrap();
    let mut files = vec![(PathBuf::from("suite.json"), json.clone())];
    for (format, dir) in [
        (Format::Ttcn, "ttcn"),
        (Format::Python, "python"),
        (Format::Rust, "rust"),
    ] {
        for f in render_suite(&header, &tests, format, None).unwrap() {
            files.push((Path::new(dir).join(f.path), f.contents));
        }
    }
    files
}

fn check(name: &str, files: Vec<(PathBuf, String)>) {
    let dir = root().join("generated").join(name);
    let update = std::env::var_os("UPDATE_GENERATED").is_some_and(|v| v == "1");
    let mut problems = Vec::new();
    for (path, contents) in &files {
        let full = dir.join(path);
        if update {
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, contents).unwrap();
        } else {
            match std::fs::read_to_string(&full) {
                Ok(text) if text == *contents => {}
                Ok(_) => problems.push(format!("{} differs", full.display())),
                Err(_) => problems.push(format!("{} is missing", full.display())),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "generated/ is out of date (UPDATE_GENERATED=1 cargo test --test generated, then review):\n{}",
        problems.join("\n")
    );
}

#[test]
fn generated_suites_are_up_to_date() {
    check(
        "coffeemachine",
        mealy_files("coffeemachine.dot", MealyMethod::Hads, 1),
    );
}
