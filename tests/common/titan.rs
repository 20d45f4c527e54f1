//! Building and running TTCN-3 renderings with Eclipse Titan (`compiler` and `ttcn3_makefilegen`
//! on the PATH; Debian package `eclipse-titan`), for the tests that run them where it is
//! installed: a single-mode executable per rendering, run with a configuration file of module
//! parameters, its verdicts read from the console.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether Titan's compiler and Makefile generator are on the PATH; reports the skip otherwise.
pub fn available() -> bool {
    let found = |tool: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if found("compiler") && found("ttcn3_makefilegen") {
        return true;
    }
    eprintln!(
        "SKIPPED: building the TTCN-3 suites with Eclipse Titan: `compiler` and \
         `ttcn3_makefilegen` are not on the PATH (apt-get install eclipse-titan)"
    );
    false
}

/// Builds a rendering with Titan (single mode) and returns the executable.
pub fn build(dir: &Path) -> PathBuf {
    let mut modules: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".ttcn"))
        .collect();
    modules.sort();
    let makefile = Command::new("ttcn3_makefilegen")
        .args(["-s", "-e", "suite"])
        .args(&modules)
        .args(["LabelPort.hh", "LabelPort.cc"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        makefile.status.success(),
        "{}",
        String::from_utf8_lossy(&makefile.stderr)
    );
    // The test port includes the definitions module's generated header, which the Makefile
    // does not list as its dependency: generate the C++ first, then compile in parallel.
    let generate = Command::new("make")
        .arg("compile")
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        generate.status.success(),
        "{}",
        String::from_utf8_lossy(&generate.stderr)
    );
    let make = Command::new("make")
        .args(["-j2"])
        .current_dir(dir)
        .output()
        .unwrap();
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&make.stdout),
        String::from_utf8_lossy(&make.stderr)
    );
    assert!(make.status.success(), "Titan build failed:\n{log}");
    assert!(!log.contains(": error:"), "{log}");
    dir.join("suite")
}

/// The module parameters of a run: timeouts in seconds, and how often an inconclusive testcase
/// is run again.
pub struct Settings<'a> {
    pub quiescence_s: &'a str,
    pub response_s: &'a str,
    pub retries: u32,
}

/// The command running the control part of the control module `module` of the executable built
/// in `dir` with `settings` (written to a configuration file in `dir`); the system is named by
/// the caller's environment (`NCOMPLETE_SUT`, `NCOMPLETE_CONNECT` or `NCOMPLETE_LISTEN`).
pub fn command(dir: &Path, module: &str, settings: &Settings) -> Command {
    let cfg = dir.join("run.cfg");
    std::fs::write(
        &cfg,
        format!(
            "[MODULE_PARAMETERS]\nQUIESCENCE_TIMEOUT := {}\nRESPONSE_TIMEOUT := {}\n\
             MAX_RETRIES := {}\n[LOGGING]\nFileMask := ERROR | WARNING\n\
             ConsoleMask := ERROR | VERDICTOP | TESTCASE | STATISTICS\n\
             [EXECUTE]\n{module}.control\n",
            settings.quiescence_s, settings.response_s, settings.retries
        ),
    )
    .unwrap();
    let mut cmd = Command::new(dir.join("suite"));
    cmd.arg(&cfg).current_dir(dir);
    cmd
}

/// The final verdict of every testcase in a console output (the last execution's, after the
/// retries), in order.
pub fn verdicts(console: &str) -> Vec<(String, String)> {
    let mut verdicts: Vec<(String, String)> = Vec::new();
    for line in console.lines() {
        let Some(rest) = line.strip_prefix("Test case ") else {
            continue;
        };
        let Some((name, verdict)) = rest.split_once(" finished. Verdict: ") else {
            continue;
        };
        let verdict = verdict.split(' ').next().unwrap().to_owned();
        match verdicts.last_mut() {
            Some(last) if last.0 == name => last.1 = verdict,
            _ => verdicts.push((name.to_owned(), verdict)),
        }
    }
    verdicts
}

/// A console output with the reasons of the verdicts as they were given: Titan logs a reason as
/// a charstring, a backslash before each backslash and quote.
pub fn unescaped(console: &str) -> String {
    let mut text = String::with_capacity(console.len());
    let mut chars = console.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => text.extend(chars.next()),
            _ => text.push(c),
        }
    }
    text
}

/// Runs the control part of the control module `module` against the command `sut` (timeouts
/// 0.4 s and 3 s, up to 30 retries); returns the final verdict of every testcase and the whole
/// console output.
pub fn run(dir: &Path, module: &str, sut: &str) -> (Vec<(String, String)>, String) {
    let settings = Settings {
        quiescence_s: "0.4",
        response_s: "3.0",
        retries: 30,
    };
    let out = command(dir, module, &settings)
        .env("NCOMPLETE_SUT", sut)
        .output()
        .unwrap();
    let console = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (verdicts(&console), console)
}
