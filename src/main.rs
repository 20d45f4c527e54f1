//! The `ncomplete` command line: parses arguments (clap derive) and calls the library.
//!
//! Exit status: 0 success, 1 a check or suite failed, 2 bad input or usage (clap's usage errors
//! exit with 2 too), 3 `run --sut` with an inconclusive test and no failure.

use clap::Parser;
use ncomplete::Error;
use ncomplete::format;
use ncomplete::pipeline;
use std::process::ExitCode;

/// mimalloc, with large blocks mapped on their own (see `allocator`).
#[global_allocator]
static ALLOCATOR: allocator::Allocator = allocator::Allocator;

/// n-complete test suites (ioco and Mealy) from behavioural models.
mod allocator;
mod cli;
use cli::*;

fn run(cli: Cli) -> Result<ExitCode, Error> {
    let quiet = cli.quiet;
    ncomplete::progress::show_on_stderr(!quiet);
    ncomplete::progress::check_interval_variable().map_err(Error::Usage)?;
    match cli.command {
        Command::Info(a) => run_info(a, quiet),
        Command::Distinguish(a) => run_distinguish(a, quiet),
        Command::Convert(a) => run_convert(a, quiet),
        Command::Draw(a) => run_draw(a, quiet),
        Command::Check(a) => run_check(a, quiet),
        Command::Mutate(a) => run_mutate(a, quiet),
        Command::Render(a) => run_render(a, quiet),
        Command::Simulate(a) => run_simulate(a, quiet),
        Command::Run(a) => run_run(a, quiet),
        Command::Explore(a) => run_explore(a, quiet),
        Command::Generate(a) => run_generate(a, quiet),
        Command::Sizes(a) => run_sizes(a, quiet),
        Command::Audit(a) => run_audit(a, quiet),
        Command::Results(ResultsArgs {
            action: ResultsAction::Merge(a),
        }) => run_results_merge(&a, quiet),
        Command::Completions(a) => run_completions(&a),
        Command::Man(a) => run_man(&a, quiet),
    }
}

/// `results merge`: the results of a suite's shards merged; the status tells the merged verdict.
fn run_results_merge(a: &MergeArgs, quiet: bool) -> Result<ExitCode, Error> {
    let out = a.out.as_deref().filter(|&o| o != "-");
    if let Some(o) = out.filter(|o| a.results.iter().any(|r| r == o)) {
        return Err(Error::Usage(format!("--out {o} would overwrite an input")));
    }
    let merged = pipeline::merge_results(&a.results)?;
    format::write_text(out, &merged.json)?;
    if !quiet {
        eprint!("{}", merged.summary());
    }
    let status = ncomplete::exec::commands::system_exit_status(merged.verdict());
    Ok(ExitCode::from(status))
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
        ncomplete::output::write_path(&path, &page(cmd.clone())?)
            .map_err(|e| Error::io(path.display().to_string(), e))?;
    }
    if !quiet {
        eprintln!("wrote {} manual pages to {}", pages.len(), dir.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `info`: the figures of a model.
fn run_info(a: InfoArgs, quiet: bool) -> Result<ExitCode, Error> {
    let info = pipeline::info_report(&a.model, &a.model_args.options(quiet), quiet)?;
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
    pipeline::convert(&a.model, &a.to_request(quiet))?.write(a.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// `draw`: the picture of a model, SVG or DOT, optionally coloured by a run's coverage.
fn run_draw(a: DrawArgs, quiet: bool) -> Result<ExitCode, Error> {
    let out = a.out.as_deref().filter(|&o| o != "-");
    if let Some(o) = out
        && (o == a.model || Some(o) == a.coverage.as_deref())
    {
        return Err(Error::Usage(format!("--out {o} would overwrite an input")));
    }
    format::write_text(out, &pipeline::draw(&a.model, &a.to_request(quiet))?)?;
    Ok(ExitCode::SUCCESS)
}

/// `check`: conformance of an implementation model to a specification (status 1 when it does not conform).
fn run_check(a: CheckArgs, quiet: bool) -> Result<ExitCode, Error> {
    let report = pipeline::check(&a.spec, &a.imp, &a.to_request(quiet))?;
    format::write_text(None, &report.text)?;
    Ok(ExitCode::from(u8::from(!report.conforms)))
}

/// `mutate`: seeded mutants of a model within a state bound, written to a directory.
fn run_mutate(a: MutateArgs, quiet: bool) -> Result<ExitCode, Error> {
    let summary = pipeline::mutate(&a.model, &a.to_request(quiet))?;
    format::write_text(None, &summary)?;
    Ok(ExitCode::SUCCESS)
}

/// `render`: a suite file rendered as TTCN-3 text, a pytest module or a Cargo package.
fn run_render(a: RenderArgs, quiet: bool) -> Result<ExitCode, Error> {
    let written = pipeline::render(&a.suite, &a.to_request(quiet))?;
    if !quiet {
        let files = if written.len() == 1 { "file" } else { "files" };
        eprintln!("wrote {} {files} to {}", written.len(), a.out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `simulate`: a model acting as a system under test on stdin/stdout.
fn run_simulate(a: SimulateArgs, quiet: bool) -> Result<ExitCode, Error> {
    pipeline::simulate(
        &a.model,
        &a.model_args.options(quiet),
        &a.sut_options(),
        quiet,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// `run`: a suite executed against a model (exact simulation) or a process; the status tells the verdict.
fn run_run(a: RunArgs, quiet: bool) -> Result<ExitCode, Error> {
    let outcome = pipeline::run(&a.suite, &a.to_request(quiet), &mut std::io::stdout())?;
    Ok(ExitCode::from(outcome.status))
}

/// `explore`: on-the-fly testing of a process or a model against a specification.
fn run_explore(a: ExploreArgs, quiet: bool) -> Result<ExitCode, Error> {
    let status = pipeline::explore(&a.model, &a.to_request(quiet), &mut std::io::stdout())?;
    Ok(ExitCode::from(status))
}

/// `generate`: a test suite for a model, ioco or Mealy by its method.
fn run_generate(a: GenerateArgs, quiet: bool) -> Result<ExitCode, Error> {
    configure_generate_threads();
    let generated = pipeline::generate(&a.model, &a.to_options(quiet))?;
    if a.stats {
        for text in [&generated.choice, &generated.stats].into_iter().flatten() {
            eprint!("{text}");
        }
    }
    if !quiet {
        eprint!("{}", generated.summary);
    }
    Ok(ExitCode::SUCCESS)
}

/// `sizes`: the cost figures of the ioco methods per bound, counted from their plans.
fn run_sizes(a: SizesArgs, quiet: bool) -> Result<ExitCode, Error> {
    let report = pipeline::sizes(&a.model, &a.to_request(quiet))?;
    let text = if a.json {
        report.to_json()?
    } else {
        report.to_text()
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `distinguish`: state identification metrics, with the DOT and suite files asked for.
fn run_distinguish(a: DistinguishArgs, quiet: bool) -> Result<ExitCode, Error> {
    let report = pipeline::distinguish(&a.model, &a.to_request(quiet))?;
    let text = if a.json {
        report.to_json()
    } else {
        report.to_text()
    };
    format::write_text(None, &text)?;
    Ok(ExitCode::SUCCESS)
}

/// `audit`: the mutation audit of the chosen methods over a range of bounds.
fn run_audit(a: AuditArgs, quiet: bool) -> Result<ExitCode, Error> {
    let outcome = pipeline::audit(&a.model, &a.to_request(quiet), &mut std::io::stdout())?;
    if outcome.wrongly_failed > 0 {
        eprintln!(
            "error: {} conforming mutants were failed by a suite: a soundness bug, please report it",
            outcome.wrongly_failed
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A message with each line cut to at most 1,000 bytes, so input quoted in it (a huge label)
/// cannot flood the terminal while a refusal's table (a line per candidate) stays whole;
/// messages quote input through `excerpt` already, this is the backstop.
fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 1000;
    if message.lines().all(|line| line.len() <= MAX) {
        return message.into();
    }
    let cut_line = |line: &str| {
        if line.len() <= MAX {
            return line.to_owned();
        }
        let mut cut = MAX;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        format!("{}… ({} more bytes)", &line[..cut], line.len() - cut)
    };
    message
        .lines()
        .map(cut_line)
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

/// For `generate`: the global rayon pool (`RAYON_NUM_THREADS` threads, else one per CPU) with
/// the main thread as one of its threads. The main thread runs the setup and writes the suite,
/// and whenever it waits for the pool (the end of a parallel step, a batch of the words stream)
/// it takes work from it instead of sleeping until a pool thread wakes it, which cost a wake-up
/// on every step and left one thread of two idle meanwhile (docs/src/design/scaling.md, issue
/// 44). `generate` starts no thread that uses the pool while the main thread waits on it outside
/// the pool (the commands that run systems do, so they keep rayon's default pool), so a pool of
/// one thread, the main thread, works through every job when it waits. If the pool cannot be
/// built this way, rayon's default stays.
fn configure_generate_threads() {
    let _ = rayon::ThreadPoolBuilder::new()
        .use_current_thread()
        .build_global();
}

fn main() -> ExitCode {
    allocator::configure();
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
