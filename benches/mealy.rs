//! Mealy suite benchmark: sizes and times of our suites beside the peers' published figures
//! (hybrid-ads on ESM, FSMlib's splitting-tree HSI on automata-wiki models). Each case runs in a
//! child process (this binary with `--case`), which reports its peak memory (VmHWM).
//! Skipped when `../shared/models` (or `$NCOMPLETE_MODELS`) is absent.
//!
//! Run: `cargo bench --bench mealy` (add `-- --esm1` for ESM with one extra state, `-- --methods`
//! for the per-method table of the automata-wiki models against the best published peer figures,
//! `-- --methods --big` to add m173 with one extra state, `-- --doubling` for the growth table of
//! seeded random complete machines from 25k to 400k states, which needs no model files). Suites
//! are written in the words format to a temporary file. Wall time on a shared machine includes waiting
//! for a core; the `cpu s` column is user plus system time of the case.

use ncomplete::format::LoadOptions;
use ncomplete::model::{Mealy, Model};
use ncomplete::render::words::write_words;
use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "common/cpu.rs"]
mod cpu;

/// Parses a model file with the crate's DOT reader.
fn read_dot(path: &Path) -> Mealy {
    let path = path.to_str().expect("UTF-8 path");
    match ncomplete::format::load_model(path, &LoadOptions::default()) {
        Ok(Model::Mealy(m)) => m,
        Ok(_) => panic!("{path} is not a Mealy machine"),
        Err(e) => panic!("{e}"),
    }
}

fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// CPU seconds of this process (the machine may be shared, so wall time alone overstates our
/// cost).
fn cpu_seconds() -> f64 {
    cpu::cpu_time().as_secs_f64()
}

fn method(name: &str) -> MealyMethod {
    *MealyMethod::ALL
        .iter()
        .find(|m| m.name() == name)
        .expect("method name")
}

/// Child: parse, generate, write to `out`; print "tests symbols seconds peak_kb identifiers
/// cpu_seconds".
fn run_case(model: &Path, method_name: &str, e: usize, out: &Path) {
    let t0 = Instant::now();
    let m = read_dot(model);
    let suite = MealySuite::new(&m, MealySuiteOptions::new(method(method_name), e)).unwrap();
    let file = std::fs::File::create(out).unwrap();
    let stats = write_words(BufWriter::with_capacity(1 << 20, file), &suite).unwrap();
    println!(
        "{} {} {:.2} {} {} {:.2}",
        stats.tests,
        stats.symbols,
        t0.elapsed().as_secs_f64(),
        peak_kb(),
        suite.identifiers(),
        cpu_seconds()
    );
}

/// SplitMix64, the seeded generator of the doubling rows.
struct SplitMix64(u64);

impl SplitMix64 {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// A seeded random complete Mealy machine: `n` states, 5 inputs, 3 outputs, every transition's
/// target and output uniform (the issue-29 measurement). Not necessarily minimal or connected:
/// the suite minimises it, and the table reports the states of the minimised machine.
fn random_machine(n: usize, seed: u64) -> Mealy {
    const INPUTS: [&str; 5] = ["a", "b", "c", "d", "e"];
    const OUTPUTS: [&str; 3] = ["x", "y", "z"];
    let mut rng = SplitMix64(seed);
    let mut edges = Vec::with_capacity(n * INPUTS.len());
    for s in 0..n as u32 {
        for i in INPUTS {
            let t = rng.below(n as u64) as u32;
            edges.push((s, i, OUTPUTS[rng.below(3) as usize], t));
        }
    }
    ncomplete::model::mealy_from_named("random", n, &edges).expect("a valid machine")
}

/// Child of the doubling table: generate, build the hads E=0 suite (minimisation, trees,
/// identifiers), write it; print "states tests symbols wall_s cpu_s peak_kb build_s".
fn run_random_case(n: usize, seed: u64, out: &Path) {
    let m = random_machine(n, seed);
    let (cpu0, t0) = (cpu_seconds(), Instant::now());
    let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::Hads, 0)).unwrap();
    let build = t0.elapsed().as_secs_f64();
    let file = std::fs::File::create(out).unwrap();
    let stats = write_words(BufWriter::with_capacity(1 << 20, file), &suite).unwrap();
    println!(
        "{} {} {} {:.2} {:.2} {} {:.2}",
        suite.spec().num_states(),
        stats.tests,
        stats.symbols,
        t0.elapsed().as_secs_f64(),
        cpu_seconds() - cpu0,
        peak_kb(),
        build
    );
}

/// The doubling table of issue 29: hads E=0 on random machines of 25k..400k states, each in a
/// child process, with the growth of wall and CPU time against the previous row.
fn doubling_table() {
    let exe = std::env::current_exe().unwrap();
    let out = std::env::temp_dir().join(format!("ncomplete-bench-{}.txt", std::process::id()));
    let peer = match std::process::Command::new("hybrid-ads")
        .arg("--help")
        .output()
    {
        Ok(_) => "hybrid-ads is installed but not run by this table",
        Err(_) => "hybrid-ads is not installed here: no peer figures",
    };
    println!("random complete Mealy machines, 5 inputs, 3 outputs, seed 29, hads E=0; {peer}");
    println!(
        "{:>8} {:>8} {:>11} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "states", "tests", "symbols", "wall s", "cpu s", "peak MB", "build s", "x wall", "x cpu"
    );
    let mut previous: Option<(f64, f64)> = None;
    for n in [25_000usize, 50_000, 100_000, 200_000, 400_000] {
        let res = std::process::Command::new(&exe)
            .args(["--random-case", &n.to_string(), "29", out.to_str().unwrap()])
            .output()
            .unwrap();
        let line = String::from_utf8_lossy(&res.stdout);
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 7 {
            println!("{n}: failed: {}", String::from_utf8_lossy(&res.stderr));
            previous = None;
            continue;
        }
        let num = |k: usize| f[k].parse::<f64>().unwrap_or(0.0);
        let (wall, cpu) = (num(3), num(4));
        let growth = |x: f64, p: f64| {
            if p > 0.0 {
                format!("{:.2}", x / p)
            } else {
                "-".into()
            }
        };
        let (gw, gc) = previous.map_or(("-".into(), "-".into()), |(pw, pc)| {
            (growth(wall, pw), growth(cpu, pc))
        });
        println!(
            "{:>8} {:>8} {:>11} {:>8.2} {:>8.2} {:>8.1} {:>8.2} {:>8} {:>8}",
            f[0],
            f[1],
            f[2],
            wall,
            cpu,
            num(5) / 1024.0,
            num(6),
            gw,
            gc
        );
        previous = Some((wall, cpu));
    }
    let _ = std::fs::remove_file(out);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(k) = args.iter().position(|a| a == "--random-case") {
        run_random_case(
            args[k + 1].parse().unwrap(),
            args[k + 2].parse().unwrap(),
            Path::new(&args[k + 3]),
        );
        return;
    }
    if args.iter().any(|a| a == "--doubling") {
        doubling_table();
        return;
    }
    if let Some(k) = args.iter().position(|a| a == "--case") {
        run_case(
            Path::new(&args[k + 1]),
            &args[k + 2],
            args[k + 3].parse().unwrap(),
            Path::new(&args[k + 4]),
        );
        return;
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var("NCOMPLETE_MODELS").map(PathBuf::from).ok(),
        Some(manifest.join("../shared/models")),
        Some(manifest.join("../../shared/models")),
    ];
    let Some(root) = candidates.into_iter().flatten().find(|p| p.is_dir()) else {
        println!("mealy bench: shared models not found, skipped");
        return;
    };
    if args.iter().any(|a| a == "--methods") {
        methods_table(&root, args.iter().any(|a| a == "--big"));
        return;
    }
    let esm1 = args.iter().any(|a| a == "--esm1");
    let wiki = |f: &str| root.join("automata-wiki").join(f);
    let mut cases: Vec<(PathBuf, &str, usize, String)> = vec![
        (
            root.join("esm/esm.dot"),
            "hads",
            0,
            "hybrid-ads: 666,471 / 17.1 M / 4.7 s; target <= 8.5 M, < 2 s, < 200 MB".into(),
        ),
        (
            root.join("esm/esm.dot"),
            "auto",
            0,
            "target <= 8.5 M symbols, < 2 s, < 200 MB".into(),
        ),
        (
            wiki("TCP/TCP_Linux_Server.dot"),
            "auto",
            0,
            "FSMlib HSI-ST: 1,046 / 13,416".into(),
        ),
        (
            wiki("SSH/OpenSSH.dot"),
            "auto",
            0,
            "FSMlib HSI-ST: 900 / 6,558".into(),
        ),
        (
            wiki("SSH/BitVise.dot"),
            "auto",
            0,
            "FSMlib HSI-ST: 952 / 10,788".into(),
        ),
    ];
    for m in ["w", "wp", "hsi", "hsi-st", "hads", "uiov"] {
        cases.push((wiki("TCP/TCP_Linux_Server.dot"), m, 0, String::new()));
    }
    if esm1 {
        cases.push((
            root.join("esm/esm.dot"),
            "auto",
            1,
            "hybrid-ads: 52.3 M / 1.39 G / 99 s; target <= 0.7 G, < 40 s, < 200 MB".into(),
        ));
    }
    let exe = std::env::current_exe().unwrap();
    let out = std::env::temp_dir().join(format!("ncomplete-bench-{}.txt", std::process::id()));
    println!(
        "{:<22} {:<7} {:>2} {:>10} {:>14} {:>8} {:>8} {:>9} {:<7}  peers / targets",
        "model", "method", "E", "tests", "symbols", "wall s", "cpu s", "peak MB", "ids"
    );
    for (model, m, e, peer) in cases {
        let res = std::process::Command::new(&exe)
            .args([
                "--case",
                model.to_str().unwrap(),
                m,
                &e.to_string(),
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let line = String::from_utf8_lossy(&res.stdout);
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 6 {
            println!(
                "{}: failed: {}",
                model.display(),
                String::from_utf8_lossy(&res.stderr)
            );
            continue;
        }
        println!(
            "{:<22} {:<7} {:>2} {:>10} {:>14} {:>8} {:>8} {:>9.1} {:<7}  {}",
            model.file_stem().unwrap().to_string_lossy(),
            m,
            e,
            f[0],
            f[1],
            f[2],
            f[5],
            f[3].parse::<f64>().unwrap_or(0.0) / 1024.0,
            f[4],
            peer
        );
    }
    let _ = std::fs::remove_file(out);
}

/// Runs one case in a child process: `(tests, symbols, cpu seconds, peak MB, identifiers)`.
fn child_case(model: &Path, method: &str, e: usize) -> Option<(u64, u64, f64, f64, String)> {
    let exe = std::env::current_exe().ok()?;
    let out = std::env::temp_dir().join(format!("ncomplete-bench-{}.txt", std::process::id()));
    let res = std::process::Command::new(&exe)
        .args([
            "--case",
            model.to_str()?,
            method,
            &e.to_string(),
            out.to_str()?,
        ])
        .output()
        .ok()?;
    let _ = std::fs::remove_file(out);
    let line = String::from_utf8_lossy(&res.stdout);
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 6 {
        eprintln!(
            "{} {method} E={e}: failed: {}",
            model.display(),
            String::from_utf8_lossy(&res.stderr)
        );
        return None;
    }
    Some((
        f[0].parse().ok()?,
        f[1].parse().ok()?,
        f[5].parse().ok()?,
        f[3].parse::<f64>().ok()? / 1024.0,
        f[4].to_owned(),
    ))
}

/// The issue-16 table: symbols of every complete method and of `auto` per model and extra
/// states, beside the best published peer figure (FSMlib / hybrid-ads, measured by the issue's
/// author on the same models).
fn methods_table(root: &Path, big: bool) {
    let wiki = |f: &str| root.join("automata-wiki").join(f);
    let mut rows: Vec<(PathBuf, usize, &str, u64)> = vec![
        (wiki("SSH/OpenSSH.dot"), 0, "FSMlib SPY-ST", 5_966),
        (wiki("SSH/OpenSSH.dot"), 1, "FSMlib SPY-ST", 132_786),
        (wiki("SSH/BitVise.dot"), 0, "FSMlib SPY-ST", 10_337),
        (wiki("SSH/BitVise.dot"), 1, "FSMlib SPY-ST", 136_603),
        (wiki("TLS/GnuTLS_3.3.8_server_full.dot"), 0, "FSMlib H", 936),
        (
            wiki("TLS/GnuTLS_3.3.8_server_full.dot"),
            1,
            "FSMlib SPYH",
            10_397,
        ),
        (wiki("ASMLRERS2019/m173.dot"), 0, "FSMlib H", 1_587_577),
    ];
    if big {
        rows.push((wiki("ASMLRERS2019/m173.dot"), 1, "FSMlib SPY", 46_753_818));
    }
    let methods = ["wp", "hsi", "hsi-st", "hads", "h", "spy", "spyh"];
    print!("{:<26} {:>2}", "model", "E");
    for m in methods {
        print!(" {m:>11}");
    }
    println!(
        " {:>11} {:>7} {:>7} {:>7}  {:>11} {:>6}  best peer",
        "auto", "ids", "cpu s", "peak MB", "peer", "ratio"
    );
    for (model, e, peer, peer_symbols) in rows {
        if !model.is_file() {
            println!("{}: absent, skipped", model.display());
            continue;
        }
        print!(
            "{:<26} {:>2}",
            model.file_stem().unwrap().to_string_lossy(),
            e
        );
        let heavy = e >= 1 && model.to_string_lossy().contains("m173");
        for m in methods {
            // Every method on m173 with an extra state is tens of millions of symbols each; the
            // big row runs hads, spy and `auto` only (H and SPYH are over their budgets there).
            let runs = !heavy || matches!(m, "hads" | "spy");
            match runs.then(|| child_case(&model, m, e)).flatten() {
                Some((_, symbols, ..)) => print!(" {symbols:>11}"),
                None => print!(" {:>11}", "-"),
            }
        }
        match child_case(&model, "auto", e) {
            Some((_, symbols, cpu, mb, ids)) => println!(
                " {symbols:>11} {ids:>7} {cpu:>7.2} {mb:>7.1}  {peer_symbols:>11} {:>6.3}  {peer}",
                symbols as f64 / peer_symbols as f64
            ),
            None => println!(" {:>11}", "failed"),
        }
    }
}
