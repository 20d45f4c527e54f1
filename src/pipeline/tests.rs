//! The pipeline on bundled models: the files it writes are the command line's (the committed
//! `generated/` suites were written by `ncomplete generate`), `auto` resolves by the model, and
//! option combinations that do not fit are usage errors with the command line's messages.

use super::*;
use crate::exec::explore::Policy;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn model(name: &str) -> String {
    root().join("models").join(name).display().to_string()
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> crate::scratch::Scratch {
    crate::scratch::Scratch::new(&format!("pipeline-{name}"))
}

fn path_text(path: &Path) -> String {
    path.display().to_string()
}

fn usage(result: Result<impl std::fmt::Debug, Error>) -> String {
    match result {
        Err(Error::Usage(message)) => message,
        other => panic!("expected a usage error, got {other:?}"),
    }
}

fn quiet_generate(method: Method, out: &Path) -> GenerateOptions {
    GenerateOptions {
        method,
        out: path_text(out),
        quiet: true,
        ..GenerateOptions::default()
    }
}

#[test]
fn generate_writes_the_bytes_of_the_command_line() {
    let dir = scratch("cli-bytes");
    // `generated/*/suite.json` were written by `ncomplete generate` with these options.
    for (name, method, extra, committed) in [
        (
            "coffeemachine.dot",
            Method::Hads,
            1,
            "generated/coffeemachine/suite.json",
        ),
        (
            "tea_machine.dot",
            Method::IocoComplete,
            0,
            "generated/tea_machine/suite.json",
        ),
    ] {
        let out = dir.join(format!("{name}.json"));
        let options = GenerateOptions {
            extra_states: Some(extra),
            ..quiet_generate(method, &out)
        };
        let generated = generate(&model(name), &options).unwrap();
        assert_eq!(generated.suite_path, path_text(&out));
        assert_eq!(generated.method, Some(method));
        let written = std::fs::read_to_string(&out).unwrap();
        let expected = std::fs::read_to_string(root().join(committed)).unwrap();
        assert!(written == expected, "{name}: differs from {committed}");
        let (_, tests) = crate::suite::read_suite(&written).unwrap();
        assert_eq!(generated.tests, tests.len().to_string());
        assert!(
            generated
                .summary
                .starts_with(&format!("{} tests; guarantee: ", tests.len())),
            "{}",
            generated.summary
        );
        assert!(written.contains(&generated.guarantee));
    }
}

#[test]
fn a_rendering_holds_the_suite_and_the_committed_program() {
    let dir = scratch("render-dir").join("python");
    let options = GenerateOptions {
        extra_states: Some(1),
        format: SuiteFileFormat::Python,
        ..quiet_generate(Method::Hads, &dir)
    };
    let generated = generate(&model("coffeemachine.dot"), &options).unwrap();
    assert_eq!(generated.suite_path, path_text(&dir.join("suite.json")));
    let committed = root().join("generated/coffeemachine");
    for (file, reference) in [
        ("suite.json", "suite.json"),
        ("test_coffeemachine.py", "python/test_coffeemachine.py"),
    ] {
        let written = std::fs::read_to_string(dir.join(file)).unwrap();
        let expected = std::fs::read_to_string(committed.join(reference)).unwrap();
        assert!(written == expected, "{file} differs from {reference}");
    }
}

#[test]
fn auto_is_ioco_auto_for_an_lts_and_the_mealy_auto_for_a_mealy_machine() {
    let dir = scratch("auto");
    let out = dir.join("tea.json");
    let options = GenerateOptions {
        extra_states: Some(0),
        stats: true,
        ..quiet_generate(Method::Auto, &out)
    };
    let tea = generate(&model("tea_machine.dot"), &options).unwrap();
    assert_eq!(tea.method, Some(Method::IocoAuto));
    assert!(tea.choice.as_deref().is_some_and(|c| !c.is_empty()));
    let stats = tea.stats.unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    let (header, _) = crate::suite::read_suite(&written).unwrap();
    assert_eq!(header.method, "ioco-auto");
    assert!(stats.starts_with("ioco-auto: "), "{stats}");

    let out = dir.join("coffee.json");
    let coffee = generate(
        &model("coffeemachine.dot"),
        &GenerateOptions {
            stats: true,
            ..quiet_generate(Method::Auto, &out)
        },
    )
    .unwrap();
    assert_eq!(coffee.method, Some(Method::Auto));
    assert_eq!(coffee.choice, None);
    assert!(coffee.stats.unwrap().contains(", time: "));
    // Without --stats there are no figures.
    let plain = generate(
        &model("coffeemachine.dot"),
        &quiet_generate(Method::W, &out),
    )
    .unwrap();
    assert_eq!(plain.stats, None);
    assert_eq!(
        Method::Auto
            .resolve(&load_model(&model("coffeemachine.dot"), &Default::default(), true).unwrap()),
        Method::Auto
    );
}

#[test]
fn methods_that_do_not_fit_the_model_or_format_are_usage_errors() {
    let dir = scratch("usage");
    let out = dir.join("suite.json");
    let tea = model("tea_machine.dot");
    let message = usage(generate(&tea, &quiet_generate(Method::W, &out)));
    assert_eq!(
        message,
        format!(
            "{tea}: the Mealy methods need a deterministic Mealy machine, but this model is a labelled transition system (use --method ioco-complete|unconditional|ioco-ads|ioco-counting)"
        )
    );
    let onfsm = model("aalpy_benchmark_onfsm.dot");
    assert!(
        usage(generate(&onfsm, &quiet_generate(Method::Hsi, &out)))
            .contains("a nondeterministic Mealy machine (ONFSM)")
    );
    let words = GenerateOptions {
        format: SuiteFileFormat::Words,
        extra_states: Some(0),
        ..quiet_generate(Method::IocoComplete, &out)
    };
    assert_eq!(
        usage(generate(&tea, &words)),
        "the ioco methods write suite JSON (--format json); words are for Mealy suites"
    );
    assert_eq!(
        usage(generate(&tea, &quiet_generate(Method::IocoAds, &out))),
        "give --n N or --extra-states E"
    );
    let coffee = model("coffeemachine.dot");
    let with_n = GenerateOptions {
        n: Some(6),
        ..quiet_generate(Method::Wp, &out)
    };
    assert!(
        usage(generate(&coffee, &with_n)).starts_with("the Mealy methods take --extra-states E")
    );
    let to_stdout = GenerateOptions {
        format: SuiteFileFormat::Rust,
        out: "-".into(),
        ..quiet_generate(Method::W, &out)
    };
    assert_eq!(
        usage(generate(&coffee, &to_stdout)),
        "--format ttcn|python|rust writes files: give --out DIR"
    );
    let goals_as_words = GenerateOptions {
        format: SuiteFileFormat::Words,
        goals: Some(crate::goals::cases::GoalSource::Cover(
            crate::goals::Coverage::States,
        )),
        ..quiet_generate(Method::Auto, &out)
    };
    assert_eq!(
        usage(generate(&coffee, &goals_as_words)),
        "goal-directed tests are suite JSON (--format json) or its renderings"
    );
    let sizes_of_mealy = SizesRequest {
        methods: vec![Method::Hsi],
        quiet: true,
        ..SizesRequest::default()
    };
    assert!(usage(sizes(&tea, &sizes_of_mealy)).starts_with("sizes audits the ioco methods"));
    assert!(!out.exists(), "no suite is written on a usage error");
}

#[test]
fn an_output_that_is_the_model_is_refused_before_anything_is_written() {
    let dir = scratch("refuse");
    let copy = dir.join("coffee.dot");
    std::fs::copy(model("coffeemachine.dot"), &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let options = quiet_generate(Method::W, &copy);
    assert!(generate(&path_text(&copy), &options).is_err());
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    let convert_onto_itself = ConvertRequest {
        load: Default::default(),
        to: crate::format::Format::Dot,
        out: Some(path_text(&copy)),
        transform: Default::default(),
        quiet: true,
    };
    assert!(convert(&path_text(&copy), &convert_onto_itself).is_err());
    assert_eq!(std::fs::read(&copy).unwrap(), before);
}

#[test]
fn goal_suites_report_each_goal() {
    let dir = scratch("goals");
    let out = dir.join("cover.json");
    let options = GenerateOptions {
        goals: Some(crate::goals::cases::GoalSource::Cover(
            crate::goals::Coverage::States,
        )),
        stats: true,
        ..quiet_generate(Method::Auto, &out)
    };
    let generated = generate(&model("tea_machine.dot"), &options).unwrap();
    assert_eq!(generated.method, None);
    assert!(
        generated.summary.contains(" goals: "),
        "{}",
        generated.summary
    );
    assert!(generated.stats.unwrap().starts_with("cover-states: "));
    let (_, tests) = crate::suite::read_suite(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(generated.tests, tests.len().to_string());
    assert!(!tests.is_empty());
}

#[test]
fn generate_model_takes_a_model_in_memory() {
    let dir = scratch("in-memory");
    let out = dir.join("suite.json");
    let coffee = load_model(&model("coffeemachine.dot"), &Default::default(), true).unwrap();
    let options = GenerateOptions {
        extra_states: Some(1),
        ..quiet_generate(Method::Hads, &out)
    };
    generate_model(coffee, "coffeemachine", &options).unwrap();
    let written = std::fs::read_to_string(&out).unwrap();
    // The model's own name is in the header, so the bytes are those of the file path.
    let expected =
        std::fs::read_to_string(root().join("generated/coffeemachine/suite.json")).unwrap();
    assert_eq!(written, expected);
}

#[test]
fn sizes_counts_every_default_method_per_bound() {
    let request = SizesRequest {
        n: "3..4".into(),
        quiet: true,
        ..SizesRequest::default()
    };
    let report = sizes(&model("tea_machine.dot"), &request).unwrap();
    let names: Vec<&str> = report.tables.iter().map(|t| t.method.as_str()).collect();
    assert_eq!(names.len(), 5, "{names:?}");
    assert!(names[0].contains("ioco-complete"), "{names:?}");
    assert!(report.to_json().unwrap().ends_with("]\n"));
    let text = report.to_text();
    assert!(text.contains(names[1]));
}

#[test]
fn run_passes_the_specification_and_fails_a_faulty_implementation() {
    let dir = scratch("run");
    let suite = dir.join("suite.json");
    let options = GenerateOptions {
        extra_states: Some(0),
        ..quiet_generate(Method::IocoComplete, &suite)
    };
    generate(&model("tea_machine.dot"), &options).unwrap();
    let faulty = dir.join("coffee.dot");
    let text = std::fs::read_to_string(model("tea_machine.dot")).unwrap();
    std::fs::write(&faulty, text.replace("!tea", "!coffee")).unwrap();
    let suite = path_text(&suite);
    for (implementation, verdict, status) in [
        (model("tea_machine.dot"), crate::exec::TestVerdict::Pass, 0),
        (path_text(&faulty), crate::exec::TestVerdict::Fail, 1),
    ] {
        let request = RunRequest {
            implementation: Some(implementation),
            input_enabling: crate::exec::InputEnabling::SelfLoop,
            quiet: true,
            ..RunRequest::default()
        };
        let mut report = Vec::new();
        let outcome = run(&suite, &request, &mut report).unwrap();
        assert_eq!((outcome.verdict, outcome.status), (verdict, status));
        assert!(!report.is_empty());
    }
    let to_stdout = RunRequest {
        implementation: Some(model("tea_machine.dot")),
        junit: Some("-".into()),
        ..RunRequest::default()
    };
    assert_eq!(
        usage(run(&suite, &to_stdout, &mut Vec::new())),
        "--junit needs a file: standard output carries the run's report"
    );
    assert_eq!(
        usage(run(&suite, &RunRequest::default(), &mut Vec::new())),
        "give --model IMPL, --sut COMMAND, --sut-connect HOST:PORT or --sut-listen HOST:PORT"
    );
}

#[test]
fn explore_checks_its_probabilities_and_time_limit() {
    let bias = ExploreRequest {
        policy: Policy::InputBias { input: 1.5 },
        ..ExploreRequest::default()
    };
    assert_eq!(
        usage(bias.options()),
        "--input-bias must be between 0 and 1, got 1.5"
    );
    let reset = ExploreRequest {
        reset_probability: -0.1,
        ..ExploreRequest::default()
    };
    assert_eq!(
        usage(reset.options()),
        "--reset-probability must be between 0 and 1, got -0.1"
    );
    let time = ExploreRequest {
        time_limit: Some(-1.0),
        ..ExploreRequest::default()
    };
    assert!(usage(time.options()).starts_with("--time-limit must be a non-negative number"));
    let fine = ExploreRequest {
        policy: Policy::InputBias { input: 0.25 },
        time_limit: Some(2.5),
        ..ExploreRequest::default()
    };
    let options = fine.options().unwrap();
    assert_eq!(options.policy, Policy::InputBias { input: 0.25 });
    assert_eq!(
        options.time_limit,
        Some(std::time::Duration::from_millis(2500))
    );
    // A purpose steers only the strategy policy.
    let purpose = ExploreRequest {
        purpose: Some(crate::goals::cases::GoalSource::Regex("?coin".into())),
        ..ExploreRequest::default()
    };
    assert!(
        usage(explore(
            &model("tea_machine.dot"),
            &purpose,
            &mut Vec::new()
        ))
        .starts_with("--purpose and --purpose-regex steer")
    );
    // The specification explored against itself never fails.
    let itself = ExploreRequest {
        implementation: Some(model("tea_machine.dot")),
        max_steps: 200,
        quiet: true,
        ..ExploreRequest::default()
    };
    let mut out = Vec::new();
    assert_eq!(
        explore(&model("tea_machine.dot"), &itself, &mut out).unwrap(),
        0
    );
    assert!(!out.is_empty());
}

#[test]
fn check_info_convert_mutate_distinguish_and_audit_on_bundled_models() {
    let dir = scratch("models");
    let coffee = model("coffeemachine.dot");
    let info = info(&coffee, &Default::default(), true).unwrap();
    assert!(info.to_text().contains('6'), "{}", info.to_text());

    // A converted model reads back with the same figures.
    let yaml = dir.join("coffee.yaml");
    let text = convert(
        &coffee,
        &ConvertRequest {
            load: Default::default(),
            to: crate::format::Format::Yaml,
            out: None,
            transform: Default::default(),
            quiet: true,
        },
    )
    .unwrap()
    .text;
    std::fs::write(&yaml, text).unwrap();
    let again = super::info(&path_text(&yaml), &Default::default(), true).unwrap();
    assert_eq!(again, info);

    let quiet = CheckModels {
        budget: crate::check::DEFAULT_BUDGET,
        quiet: true,
        ..CheckModels::default()
    };
    assert!(check(&coffee, &coffee, &quiet).unwrap().conforms);
    let broken = dir.join("broken.dot");
    let text = std::fs::read_to_string(&coffee).unwrap();
    std::fs::write(&broken, text.replacen("WATER / ok", "WATER / error", 1)).unwrap();
    let report = check(&coffee, &path_text(&broken), &quiet).unwrap();
    assert!(!report.conforms, "{}", report.text);

    let mutants = dir.join("mutants");
    let request = MutateRequest {
        load: Default::default(),
        count: 3,
        n: None,
        extra_states: Some(0),
        seed: 7,
        out: path_text(&mutants),
        quiet: true,
    };
    let summary = mutate(&coffee, &request).unwrap();
    assert!(!summary.is_empty());
    assert!(mutants.join("index.json").exists());
    let unbounded = MutateRequest {
        extra_states: None,
        out: path_text(&dir.join("unbounded")),
        ..request
    };
    assert_eq!(
        usage(mutate(&coffee, &unbounded)),
        "give --n N or --extra-states E"
    );

    let same_file = DistinguishRequest {
        dot: Some(path_text(&dir.join("x"))),
        suite: Some(path_text(&dir.join("x"))),
        quiet: true,
        ..DistinguishRequest::default()
    };
    assert_eq!(
        usage(distinguish(&coffee, &same_file)),
        "--dot and --suite name the same file"
    );
    let suite = dir.join("adg.json");
    let report = distinguish(
        &model("vdbos_fig3_1.aut"),
        &DistinguishRequest {
            suite: Some(path_text(&suite)),
            quiet: true,
            ..DistinguishRequest::default()
        },
    )
    .unwrap();
    assert!(!report.to_text().is_empty());
    assert!(crate::suite::read_suite(&std::fs::read_to_string(&suite).unwrap()).is_ok());

    let mut out = Vec::new();
    let outcome = audit(
        &coffee,
        &AuditRequest {
            methods: vec![Method::W, Method::Hsi],
            extra_states: Some("0..1".into()),
            mutants: 4,
            no_time: true,
            quiet: true,
            ..AuditRequest::default()
        },
        &mut out,
    )
    .unwrap();
    assert_eq!(outcome.wrongly_failed, 0);
    assert_eq!(String::from_utf8(out).unwrap(), outcome.report.to_text());
    let bad_range = AuditRequest {
        n: Some("x".into()),
        ..AuditRequest::default()
    };
    assert!(usage(audit(&coffee, &bad_range, &mut Vec::new())).starts_with("--n: "));
}

#[test]
fn method_names_are_those_of_the_library_methods() {
    for (name, method) in Method::NAMED {
        assert_eq!(Method::from_name(name), Some(method));
        // A Mealy method is named as the Mealy suites name it; every other one is an ioco
        // method.
        match method.mealy() {
            Some(m) => assert_eq!(m.name(), name),
            None => assert!(method.ioco(Default::default()).is_some(), "{name}"),
        }
    }
    assert_eq!(Method::from_name("ioco"), None);
}
