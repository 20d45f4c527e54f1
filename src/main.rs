//! The `ncomplete` command line: parses arguments (clap derive) and calls the library.
//!
//! Exit status: 0 success, 1 a check or suite failed, 2 bad input or usage (clap's usage errors
//! exit with 2 too).

use clap::{Args, Parser, Subcommand, ValueEnum};
use ncomplete::Error;
use ncomplete::format::{self, Format, LoadOptions};
use ncomplete::model::Model;
use ncomplete::output::{self, AtomicDir};
use ncomplete::suite::ioco::IncompatibleSets;
use ncomplete::suite::names::Shard;
use std::process::ExitCode;

/// n-complete test suites (ioco and Mealy) from behavioural models.
mod cli;
use cli::*;

fn run_distinguish(a: DistinguishArgs, quiet: bool) -> Result<(), Error> {
    use ncomplete::identify::{
        self, DistinguishOptions, InputSplitRule, Preference, SplitOptions, SplitPolicy,
    };
    for (option, out) in [("--dot", &a.dot), ("--suite", &a.suite)] {
        if let Some(out) = out {
            output::refuse_input_as_output(option, out, &[&a.model])?;
        }
    }
    if a.dot.is_some() && a.dot == a.suite && a.dot.as_deref() != Some("-") {
        return Err(Error::Usage("--dot and --suite name the same file".into()));
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let embedding = ncomplete::model::MealyEmbedding {
        hidden: a.hide.clone(),
        merged_inputs: a.merge_inputs.clone(),
        merged_outputs: a.merge_outputs.clone(),
    };
    let sa =
        identify::report::suspension_of(&model, &embedding).map_err(|source| Error::Model {
            path: a.model.clone(),
            source,
        })?;
    let options = DistinguishOptions {
        preference: match a.prefer {
            PreferArg::Outputs => Preference::Outputs,
            PreferArg::Inputs => Preference::Inputs,
        },
        split: SplitOptions {
            node_budget: a.max_nodes,
            input_rule: match a.input_splits {
                InputSplitArg::Separate => InputSplitRule::SeparateChild,
                InputSplitArg::Copy => InputSplitRule::CopyNonEnabling,
            },
            policy: match a.split_policy {
                SplitPolicyArg::Searched => SplitPolicy::Searched,
                SplitPolicyArg::FewestLost => SplitPolicy::FewestPairsLost,
                SplitPolicyArg::LostAhead => SplitPolicy::LostAhead(2),
                SplitPolicyArg::FewestPairs => SplitPolicy::FewestPairsTogether,
                SplitPolicyArg::OutputsFirst => SplitPolicy::OutputsFirst,
            },
            resplit_rounds: a.resplit,
            ..SplitOptions::default()
        },
        max_pairs: a.max_pairs,
        minimize: !a.no_minimize,
        repair: !a.no_repair,
        bound: a.bound,
    };
    let spinner = if quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    let d = identify::distinguish(&sa, &options, &mut |phase| {
        spinner.set_message(phase.to_owned());
        spinner.tick();
    })?;
    spinner.finish_and_clear();
    if let Some(path) = &a.dot {
        let mut out = output::Output::create(path)?;
        identify::report::write_distinguish_dot(&d, a.dot_topups, &mut out)
            .map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    if let Some(path) = &a.suite {
        let mut out = output::Output::create(path)?;
        identify::report::write_suite(&d, &mut out).map_err(|e| Error::io(path, e))?;
        out.commit()?;
    }
    let text = if a.json {
        d.report.to_json()
    } else {
        d.report.to_text()
    };
    format::write_text(None, &text)
}

fn run(cli: Cli) -> Result<ExitCode, Error> {
    let quiet = cli.quiet;
    ncomplete::progress::show_on_stderr(!quiet);
    ncomplete::progress::check_interval_variable().map_err(Error::Usage)?;
    match cli.command {
        Command::Info(a) => run_info(a, quiet),
        Command::Distinguish(a) => run_distinguish(a, quiet).map(|()| ExitCode::SUCCESS),
        Command::Convert(a) => run_convert(a, quiet),
        Command::Check(a) => run_check(a, quiet),
        Command::Mutate(a) => run_mutate(a, quiet),
        Command::Render(a) => run_render(a, quiet),
        Command::Simulate(a) => run_simulate(a, quiet),
        Command::Run(a) => run_run(a, quiet),
        Command::Explore(a) => run_explore(a, quiet),
        Command::Generate(a) => run_generate(a, quiet),
        Command::Sizes(a) => run_sizes(a, quiet),
        Command::Audit(a) => run_audit(&a, quiet),
        Command::Completions(a) => run_completions(&a),
        Command::Man(a) => run_man(&a, quiet),
    }
}

/// `completions`: the completion script of a shell on standard output.
fn run_completions(a: &CompletionsArgs) -> Result<ExitCode, Error> {
    let mut script = Vec::new();
    clap_complete::generate(
        a.shell,
        &mut <Cli as clap::CommandFactory>::command(),
        "ncomplete",
        &mut script,
    );
    format::write_text(None, &String::from_utf8_lossy(&script))?;
    Ok(ExitCode::SUCCESS)
}

/// `man`: the manual page of ncomplete on standard output, or every command's page in a
/// directory.
fn run_man(a: &ManArgs, quiet: bool) -> Result<ExitCode, Error> {
    let command = <Cli as clap::CommandFactory>::command();
    let page = |cmd: clap::Command| -> Result<Vec<u8>, Error> {
        let mut roff = Vec::new();
        clap_mangen::Man::new(cmd)
            .render(&mut roff)
            .map_err(|e| Error::io("<man page>", e))?;
        Ok(roff)
    };
    let Some(dir) = &a.out else {
        format::write_text(None, &String::from_utf8_lossy(&page(command)?))?;
        return Ok(ExitCode::SUCCESS);
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display().to_string(), e))?;
    let mut pages = vec![("ncomplete.1".to_owned(), command.clone())];
    for sub in command.get_subcommands() {
        let name = format!("ncomplete-{}", sub.get_name());
        pages.push((
            format!("{name}.1"),
            sub.clone()
                .display_name(name)
                .bin_name(format!("ncomplete {}", sub.get_name())),
        ));
    }
    for (file, cmd) in &pages {
        let path = dir.join(file);
        output::write_path(&path, &page(cmd.clone())?)
            .map_err(|e| Error::io(path.display().to_string(), e))?;
    }
    if !quiet {
        eprintln!("wrote {} manual pages to {}", pages.len(), dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `info`: the figures of a model.
fn run_info(a: InfoArgs, quiet: bool) -> Result<ExitCode, Error> {
    let model = a.model_args.load(&a.model, quiet)?;
    let info = ncomplete::info::model_info(&model);
    let text = if a.json {
        info.to_json()
    } else {
        info.to_text()
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `convert`: a model in another format, optionally transformed.
fn run_convert(a: ConvertArgs, quiet: bool) -> Result<ExitCode, Error> {
    if let Some(out) = &a.out {
        output::refuse_input_as_output("--out", out, &[&a.model])?;
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let text = a.transform.convert(&a.model, model, a.to)?;
    format::write_text(a.out.as_deref(), &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `check`: conformance of an implementation model to a specification (status 1 when it does not conform).
fn run_check(a: CheckArgs, quiet: bool) -> Result<ExitCode, Error> {
    let spec = a.model_args.load(&a.spec, quiet)?;
    let imp = a.model_args.load(&a.imp, quiet)?;
    let req = ncomplete::check::CheckRequest {
        uioco: a.uioco,
        missing_inputs: a.missing_inputs,
        quasi: a.quasi,
        desired: a.language(
            &a.desired,
            &a.desired_file,
            &a.desired_model,
            "--desired",
            quiet,
        )?,
        forbidden: a.language(
            &a.forbidden,
            &a.forbidden_file,
            &a.forbidden_model,
            "--forbidden",
            quiet,
        )?,
        budget: a.budget,
    };
    let report = ncomplete::check::check_models(&spec, &a.spec, &imp, &a.imp, &req)?;
    format::write_text(None, &report.text)?;
    if !report.conforms {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `mutate`: seeded mutants of a model within a state bound, written to a directory.
fn run_mutate(a: MutateArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::audit::{self, MutateOptions, SizeBound};
    output::refuse_input_inside_dir("--out", std::path::Path::new(&a.out), &[&a.model])?;
    let model = a.model_args.load(&a.model, quiet)?;
    let bound = match (a.n, a.extra_states) {
        (Some(n), _) => SizeBound::States(n),
        (None, Some(e)) => SizeBound::Extra(e),
        (None, None) => {
            return Err(Error::Usage("give --n N or --extra-states E".into()));
        }
    };
    let opts = MutateOptions {
        count: a.count,
        bound,
        seed: a.seed,
    };
    let original = audit::mutable_model(&model, &a.model)?;
    let mutants = audit::mutants(&original, &opts)?;
    if mutants.len() < a.count && !quiet {
        eprintln!(
            "warning: only {} distinct mutants found (asked for {})",
            mutants.len(),
            a.count
        );
    }
    let summary = audit::write_mutants(
        std::path::Path::new(&a.out),
        &a.model,
        &original,
        &opts,
        &mutants,
    )?;
    format::write_text(None, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// `render`: a suite file rendered as TTCN-3 text, a pytest module or a Cargo package.
fn run_render(a: RenderArgs, quiet: bool) -> Result<ExitCode, Error> {
    let target = a.format.format();
    let spec = match &a.explore_spec {
        Some(_) if !target.has_explorer() => {
            return Err(Error::Usage(
                "--explore-spec needs --format python or --format rust".into(),
            ));
        }
        Some(path) => Some(ModelArgs::default().load(path, quiet)?),
        None => None,
    };
    let written = ncomplete::exec::commands::render(
        &a.suite,
        target,
        &a.out,
        a.templates.as_deref(),
        (a.shard, a.force),
        spec.as_ref(),
    )?;
    if !quiet {
        let files = if written.len() == 1 { "file" } else { "files" };
        eprintln!("wrote {} {files} to {}", written.len(), a.out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `simulate`: a model acting as a system under test on stdin/stdout.
fn run_simulate(a: SimulateArgs, quiet: bool) -> Result<ExitCode, Error> {
    let model = a.model_args.load(&a.model, quiet)?;
    let options = ncomplete::exec::sut::SutOptions {
        choice: match a.choose {
            ChooseArg::First => ncomplete::exec::sut::Choice::First,
            ChooseArg::Random => ncomplete::exec::sut::Choice::Random,
        },
        seed: a.seed,
        delay: std::time::Duration::from_millis(a.delay_ms),
    };
    ncomplete::exec::commands::simulate(&model, &options)?;
    Ok(ExitCode::SUCCESS)
}

/// `run`: a suite executed against a model (exact simulation) or a process; the status tells the verdict.
fn run_run(a: RunArgs, quiet: bool) -> Result<ExitCode, Error> {
    let mut stdout = std::io::stdout();
    let inputs: Vec<&str> = [Some(&a.suite), a.spec.as_ref(), a.model.as_ref()]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    for (option, path) in [
        ("--junit", &a.junit),
        ("--json", &a.json),
        ("--html", &a.html),
    ] {
        if let Some(path) = path {
            if path == "-" {
                return Err(Error::Usage(format!(
                    "{option} needs a file: standard output carries the run's report"
                )));
            }
            ncomplete::output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    let files = [&a.junit, &a.json, &a.html];
    if (0..3).any(|i| files[i].is_some() && files[i + 1..].contains(&files[i])) {
        return Err(Error::Usage(
            "--junit, --json and --html must name different files".into(),
        ));
    }
    let system = match (&a.model, &a.sut) {
        (Some(path), _) => format!("model {path}"),
        (None, Some(command)) => format!("system {command}"),
        (None, None) => String::new(),
    };
    let spec = match &a.spec {
        Some(path) => Some(a.model_args.load(path, quiet)?),
        None => None,
    };
    let mut results =
        ncomplete::exec::results::RunResults::new(a.junit.clone(), a.json.clone(), system)
            .with_html(a.html.clone(), a.spec.as_deref().zip(spec.as_ref()))?;
    let status = match (&a.model, &a.sut) {
        (Some(path), _) => {
            let model = a.model_args.load(path, quiet)?;
            let enabling = match a.input_enable {
                InputEnableArg::Reject => ncomplete::exec::InputEnabling::Reject,
                InputEnableArg::SelfLoop => ncomplete::exec::InputEnabling::SelfLoop,
            };
            let verdict = ncomplete::exec::commands::run_on_model(
                &a.suite,
                spec.as_ref(),
                &model,
                enabling,
                &mut stdout,
                &mut results,
            )?;
            ncomplete::exec::commands::model_exit_status(verdict)
        }
        (None, Some(command)) => {
            let verdict = ncomplete::exec::commands::run_on_system(
                &a.suite,
                spec.as_ref(),
                &ncomplete::exec::commands::SystemRun {
                    command,
                    timeouts: &a.timeouts.timeouts(),
                    retries: a.retries,
                    follow: a.follow,
                    jobs: a.jobs.map_or_else(
                        || std::thread::available_parallelism().map_or(1, |n| n.get()),
                        usize::from,
                    ),
                },
                &mut stdout,
                &mut results,
            )?;
            ncomplete::exec::commands::system_exit_status(verdict)
        }
        (None, None) => {
            return Err(Error::Usage("give --model IMPL or --sut COMMAND".into()));
        }
    };
    Ok(ExitCode::from(status))
}

/// `explore`: on-the-fly testing of a process or a model against a specification.
fn run_explore(a: ExploreArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::exec::explore::{CoverageTarget, ExploreOptions, Policy};
    let probability = |name: &str, p: f64| {
        if (0.0..=1.0).contains(&p) {
            Ok(p)
        } else {
            Err(Error::Usage(format!(
                "{name} must be between 0 and 1, got {p}"
            )))
        }
    };
    let mut inputs = vec![a.model.as_str()];
    inputs.extend(a.impl_model.as_deref());
    for (option, path) in [("--out", &a.out), ("--html", &a.html)] {
        if let Some(path) = path {
            output::refuse_input_as_output(option, path, &inputs)?;
        }
    }
    if a.html.is_some() && a.html == a.out {
        return Err(Error::Usage("--out and --html name the same file".into()));
    }
    if a.html.as_deref() == Some("-") {
        return Err(Error::Usage(
            "--html needs a file: standard output carries the run's report".into(),
        ));
    }
    let time_limit = match a.time_limit {
        Some(t) => Some(std::time::Duration::try_from_secs_f64(t).map_err(|_| {
            Error::Usage(format!(
                "--time-limit must be a non-negative number of seconds that fits a \
                         duration (at most about 1.8e19), got {t:?}"
            ))
        })?),
        None => None,
    };
    let options = ExploreOptions {
        policy: match a.policy {
            PolicyArg::Random => Policy::Random,
            PolicyArg::Bias => Policy::InputBias {
                input: probability("--input-bias", a.input_bias)?,
            },
            PolicyArg::Goal => Policy::Goal,
            PolicyArg::Strategy => Policy::Strategy,
        },
        seed: a.seed,
        reset_probability: probability("--reset-probability", a.reset_probability)?,
        max_steps: a.max_steps,
        target: a.until.map(|u| match u {
            UntilArg::States => CoverageTarget::States,
            UntilArg::Transitions => CoverageTarget::Transitions,
        }),
        time_limit,
        timeouts: a.timeouts.timeouts(),
        goals: Vec::new(),
    };
    let purpose = a.goal.goal_source();
    if purpose.is_some() && a.policy != PolicyArg::Strategy {
        return Err(Error::Usage(
            "--purpose and --purpose-regex steer `--policy strategy` (add it)".into(),
        ));
    }
    let spec = a.model_args.load(&a.model, quiet)?;
    let implementation = match &a.impl_model {
        Some(path) => Some(a.model_args.load(path, quiet)?),
        None => None,
    };
    let system = match (&implementation, &a.sut) {
        (Some(model), _) => ncomplete::exec::commands::ExploreSystem::Model(model),
        (None, Some(command)) => ncomplete::exec::commands::ExploreSystem::Process(command),
        (None, None) => return Err(Error::Usage("give --sut COMMAND or --model IMPL".into())),
    };
    let status = ncomplete::exec::commands::explore(
        &spec,
        system,
        &options,
        purpose.as_ref(),
        ncomplete::exec::commands::ExploreOutputs {
            json: a.out.as_deref(),
            html: a.html.as_deref(),
        },
        quiet,
        &mut std::io::stdout(),
    )?;
    Ok(ExitCode::from(status))
}

/// `generate`: a test suite for a model, ioco or Mealy by its method.
fn run_generate(a: GenerateArgs, quiet: bool) -> Result<ExitCode, Error> {
    let start = std::time::Instant::now();
    let (dir, suite_path) = a.destination()?;
    let model_args = ModelArgs {
        model_format: a.model_format,
        deprecated_format: None,
        inputs: a.inputs.clone(),
        outputs: a.outputs.clone(),
        initial: a.initial.clone(),
    };
    let model = model_args.load(&a.model, quiet)?;
    if let Some(source) = a.goal_source() {
        return generate_goals(&a, model, source, quiet, dir, &suite_path);
    }
    // `auto` is ioco-auto for labelled transition systems, Mealy auto for Mealy machines.
    let chosen = match (a.method, &model) {
        (GenerateMethod::Auto, Model::Lts(_)) => GenerateMethod::IocoAuto,
        (m, _) => m,
    };
    if let Some(method) = chosen.ioco(a.incompatible_sets) {
        return generate_ioco(&a, model, method, quiet, dir, &suite_path);
    }
    generate_mealy(&a, model, quiet, dir, &suite_path, start)
}

/// `generate --purpose|--purpose-regex|--cover`: goal-directed tests by joker strategies.
fn generate_goals(
    a: &GenerateArgs,
    model: Model,
    source: ncomplete::goals::cases::GoalSource,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
) -> Result<ExitCode, Error> {
    a.refuse_words("goal-directed tests are suite JSON (--format json) or its renderings")?;
    let sa = ncomplete::suite::ioco::suspension_for(&model, &a.model)?;
    let budget = a.budget.budget();
    let (goals, method) = ncomplete::goals::cases::load_goals(&sa, &source, &budget)?;
    let suite = ncomplete::goals::goal_suite(&sa, &goals, &method, a.patience, &budget)?;
    suite.refuse_unreachable(&source)?;
    if a.stats {
        eprintln!("{method}: {}", suite.costs.summary(&budget.timing));
    }
    suite.write(suite_path)?;
    a.finish(dir, suite_path)?;
    if !quiet {
        eprint!("{}", suite.report_text());
    }
    Ok(ExitCode::SUCCESS)
}

/// `generate` with a Mealy method: the suite of the minimised machine, as JSON v1 or words.
fn generate_mealy(
    a: &GenerateArgs,
    model: Model,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
    start: std::time::Instant,
) -> Result<ExitCode, Error> {
    let method = a.method.mealy().expect("every method is Mealy or ioco");
    let mut mealy = match model {
        Model::Mealy(m) => m,
        Model::Lts(l) => {
            let what = if l.onfsm().is_some() {
                "a nondeterministic Mealy machine (ONFSM), which is tested with ioco through its suspension automaton"
            } else {
                "a labelled transition system"
            };
            return Err(Error::Usage(format!(
                "{}: the Mealy methods need a deterministic Mealy machine, but this model is {what} (use --method ioco-complete|unconditional|ioco-ads|ioco-counting)",
                a.model
            )));
        }
    };
    if a.n.is_some() {
        return Err(Error::Usage(
            "the Mealy methods take --extra-states E (the bound is the minimised model's size plus E)".into(),
        ));
    }
    if let Some(c) = a.complete {
        mealy = ncomplete::model::complete_mealy(&mealy, c.completion()).map_err(|source| {
            Error::Model {
                path: a.model.clone(),
                source,
            }
        })?;
    }
    let options = ncomplete::suite::mealy::MealySuiteOptions {
        method,
        extra_states: a.extra_states.unwrap_or(0),
        prune_prefixes: !a.keep_prefixes,
    };
    let format = match a.format {
        SuiteFileFormat::Words => ncomplete::render::words::MealySuiteFormat::Words,
        _ => ncomplete::render::words::MealySuiteFormat::Json,
    };
    let generated = ncomplete::render::words::generate_mealy_suite(
        &mealy,
        &a.model,
        options,
        ncomplete::render::words::MealySuiteFile {
            format,
            out: suite_path,
            shard: a.shard,
        },
        !quiet,
        &a.budget.budget(),
    )?;
    a.finish(dir, suite_path)?;
    if a.stats {
        eprintln!(
            "{}, time: {:.2} s",
            generated.stats,
            start.elapsed().as_secs_f64()
        );
    }
    if !quiet {
        eprintln!(
            "{}; guarantee: {}",
            tests_text(&generated.stats.tests.to_string()),
            generated.guarantee
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `COUNT tests`, or `1 test`.
fn tests_text(count: &str) -> String {
    if count == "1" {
        "1 test".to_owned()
    } else {
        format!("{count} tests")
    }
}

/// `sizes`: the cost figures of the ioco methods per bound, counted from their plans.
fn run_sizes(a: SizesArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::suite::ioco::sizes;
    let methods = if a.method.is_empty() {
        vec![
            GenerateMethod::IocoComplete,
            GenerateMethod::Unconditional,
            GenerateMethod::IocoCounting,
            GenerateMethod::IocoAds,
            GenerateMethod::IocoAuto,
        ]
    } else {
        a.method.clone()
    };
    let methods = methods
        .iter()
        .map(|m| {
            m.ioco(a.incompatible_sets).ok_or_else(|| {
                Error::Usage(
                    "sizes audits the ioco methods: --method ioco-complete|unconditional|ioco-ads|ioco-counting|ioco-auto"
                        .into(),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let range = sizes::parse_range(&a.n).map_err(Error::Usage)?;
    let model = a.model_args.load(&a.model, quiet)?;
    let (sa, options) = a.ioco.specification(&model, &a.model)?;
    let tables: Vec<sizes::SizeTable> = methods
        .iter()
        .map(|&m| sizes::size_table(&sa, m, range.clone(), a.budget.budget(), options))
        .collect();
    let text = if a.json {
        let mut t =
            serde_json::to_string_pretty(&tables).map_err(|e| Error::Usage(e.to_string()))?;
        t.push('\n');
        t
    } else {
        tables
            .iter()
            .map(|t| t.to_text())
            .collect::<Vec<_>>()
            .join("\n")
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `generate` with an ioco method: the suite of the model's suspension automaton, as JSON v1.
fn generate_ioco(
    a: &GenerateArgs,
    model: Model,
    method: ncomplete::suite::ioco::IocoMethod,
    quiet: bool,
    dir: Option<AtomicDir>,
    suite_path: &str,
) -> Result<ExitCode, Error> {
    use ncomplete::suite::ioco::{self, Bound, IocoMethod};
    a.refuse_words(
        "the ioco methods write suite JSON (--format json); words are for Mealy suites",
    )?;
    let (sa, options) = a.ioco.specification(&model, &a.model)?;
    let bound = match (a.n, a.extra_states) {
        (Some(n), _) => Bound::States(n),
        (None, Some(e)) => Bound::ExtraStates(e),
        (None, None) => return Err(Error::Usage("give --n N or --extra-states E".into())),
    };
    let budget = a.budget.budget();
    // Every figure is counted and checked against the budget here, before the file is created.
    let suite = if method == IocoMethod::Auto {
        let (suite, choice) = ioco::auto::choose_with(&sa, bound, budget, options)?;
        if a.stats {
            eprint!("{}", choice.to_text());
        }
        suite
    } else {
        ioco::generate_with(&sa, method, bound, budget, options)?
    };
    if a.stats {
        eprintln!(
            "{}: {}",
            suite.header().method,
            suite.costs().summary(&budget.timing)
        );
    }
    ioco::write_suite_file(&suite, Some(suite_path), a.shard, !quiet)?;
    a.finish(dir, suite_path)?;
    if !quiet {
        eprintln!(
            "{}; guarantee: {}",
            tests_text(&ncomplete::suite::count_text(suite.num_tests())),
            suite.header().guarantee
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `audit`: the mutation audit of the chosen methods over a range of bounds.
fn run_audit(a: &AuditArgs, quiet: bool) -> Result<ExitCode, Error> {
    use ncomplete::audit::report::{self, AuditMethod, AuditOptions, BoundKind};
    let (bound_kind, bounds) = match (&a.n, &a.extra_states) {
        (Some(r), _) => (
            BoundKind::States,
            report::parse_bounds(r, 1).map_err(|e| Error::Usage(format!("--n: {e}")))?,
        ),
        (None, r) => (
            BoundKind::ExtraStates,
            report::parse_bounds(r.as_deref().unwrap_or("0..2"), 0)
                .map_err(|e| Error::Usage(format!("--extra-states: {e}")))?,
        ),
    };
    if let Some(plot) = &a.plot {
        output::refuse_input_as_output("--plot", plot, &[&a.model])?;
    }
    let model = a.model_args.load(&a.model, quiet)?;
    let mutable = ncomplete::audit::mutable_model(&model, &a.model)?;
    let methods = if a.method.is_empty() {
        AuditMethod::defaults(&mutable)
    } else {
        a.method
            .iter()
            .map(|m| match (m.mealy(), m.ioco(a.incompatible_sets)) {
                (Some(mm), _) => AuditMethod::Mealy(mm),
                (None, Some(im)) => AuditMethod::Ioco(im),
                (None, None) => unreachable!("every method is Mealy or ioco"),
            })
            .collect()
    };
    let options = AuditOptions {
        methods,
        bound_kind,
        bounds,
        mutants: a.mutants,
        seed: a.seed,
        max_tests: a.max_tests,
    };
    let progress =
        ncomplete::progress::Progress::new(!quiet && a.mutants > 0, "auditing", "mutants", None);
    let mut result = report::audit(&mutable, &options, &progress)?;
    progress.finish();
    if a.no_time {
        result = result.without_time();
    }
    let text = if a.json {
        result.to_json()
    } else {
        result.to_text()
    };
    format::write_text(None, &text)?;
    if let Some(path) = &a.plot {
        ncomplete::audit::plot::write_audit_svg(&result, path)?;
    }
    let wrong = result.wrongly_failed();
    if wrong > 0 {
        eprintln!(
            "error: {wrong} conforming mutants were failed by a suite: a soundness bug, please report it"
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A message cut to at most 1,000 bytes, so input quoted in it (a huge label) cannot flood the
/// terminal; messages quote input through `excerpt` already, this is the backstop.
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 1000;
    if message.len() <= MAX {
        return message.into();
    }
    let mut cut = MAX;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} more bytes)", &message[..cut], message.len() - cut).into()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // A reader that closed the pipe (`| head`) has what it wanted.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let shown = e.to_string();
            eprintln!("error: {}", shorten(&shown));
            // Causes the message does not already show.
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                let text = s.to_string();
                if !shown.contains(&text) {
                    eprintln!("  caused by: {}", shorten(&text));
                }
                source = s.source();
            }
            ExitCode::from(e.exit_code())
        }
    }
}
