//! Parse time per model: every file under the shared benchmark folder (`$NCOMPLETE_SHARED`,
//! `../shared/models` or `/work/shared/models`; skipped when absent) and the bundled models.
//! Prints a table: file, size, states, transitions, best and median of several parses.
//!
//! Run with `cargo bench --bench parse`; `NCOMPLETE_BENCH_FILTER=esm` times only the files whose
//! path contains `esm`.
//!
//! Then generated DOT machines (issue 44): states named `s0`, `s1`, ... and states whose names
//! were chosen to collide under the unkeyed multiply-rotate hash the parser used for node names
//! before (all share the low 29 bits of that hash, so they shared one probe sequence), at 40k
//! and 400k states. The last column is the time per state against the 40k row of the same
//! kind: about 1 when parsing is linear. `--write DIR` also writes the four files (for timing
//! `ncomplete info` on them).

use ncomplete::fast_hash::FastBuild;
use ncomplete::format::{LoadOptions, parse_model};
use ncomplete::model::Model;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn shared_models() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("NCOMPLETE_SHARED").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models")),
        Some(PathBuf::from("/work/shared/models")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_dir())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("dot" | "aut" | "yaml" | "yml" | "json")
        ) {
            out.push(p);
        }
    }
}

/// The hash the DOT parser keyed node names with up to issue 44 ([`FastBuild`], unkeyed: one
/// multiply-rotate step per 8-byte word, then the `0xff` terminator of a `str`), used here only
/// to choose names that collide under it.
fn old_name_hash(name: &str) -> u64 {
    FastBuild::default().hash_one(name)
}

/// `count` distinct 8-byte bare ids `col?????` whose old hashes agree in the low 29 bits: the
/// low three bytes are fixed, so the low bits of the first product are, and the five varying
/// bytes are kept only when the top five bits of that product are zero (the rotate brings them
/// down). Enumerated in a fixed order, so the file is the same on every run.
fn colliding_names(count: usize) -> Vec<String> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    let target = old_name_hash("colAAAAA") & ((1 << 29) - 1);
    let mut names = Vec::with_capacity(count);
    let mut digits = [0usize; 5];
    'outer: while names.len() < count {
        let mut name = b"col".to_vec();
        name.extend(digits.iter().map(|&d| ALPHABET[d]));
        let name = String::from_utf8(name).expect("ASCII");
        if old_name_hash(&name) & ((1 << 29) - 1) == target {
            names.push(name);
        }
        for d in digits.iter_mut() {
            *d += 1;
            if *d < ALPHABET.len() {
                continue 'outer;
            }
            *d = 0;
        }
        break;
    }
    assert_eq!(names.len(), count, "not enough colliding names");
    names
}

/// A Mealy machine in DOT over `names` (state `i` is `names[i]`): inputs `a` and `b`, `a` to
/// the next state, `b` to a state further on, outputs by parity.
fn machine_dot(names: &[String]) -> String {
    let n = names.len();
    let mut text = String::with_capacity(n * 64);
    text.push_str("digraph g {\n__start0 [shape=none label=\"\"];\n");
    text.push_str(&format!("__start0 -> {};\n", names[0]));
    for (i, name) in names.iter().enumerate() {
        let next = &names[(i + 1) % n];
        let far = &names[(i * 7 + 3) % n];
        text.push_str(&format!(
            "{name} -> {next} [label=\"a / {}\"];\n{name} -> {far} [label=\"b / {}\"];\n",
            i % 2,
            i % 3
        ));
    }
    text.push_str("}\n");
    text
}

/// Times the parse of the generated machines and prints their table.
fn generated_rows(write_to: Option<&Path>) {
    println!();
    println!(
        "{:<30} {:>10} {:>7} {:>10} {:>10} {:>14}",
        "generated DOT", "bytes", "states", "best ms", "median ms", "per state x40k"
    );
    for kind in ["sequential", "colliding"] {
        let mut base = None;
        for n in [40_000, 400_000] {
            let names: Vec<String> = match kind {
                "sequential" => (0..n).map(|i| format!("s{i}")).collect(),
                _ => colliding_names(n),
            };
            let text = machine_dot(&names);
            let label = format!("{kind}-{}k.dot", n / 1000);
            if let Some(dir) = write_to {
                std::fs::write(dir.join(&label), &text).expect("writing a generated model");
            }
            let mut times = Vec::new();
            for _ in 0..5 {
                let start = Instant::now();
                let model = parse_model(&text, &label, &LoadOptions::default());
                times.push(start.elapsed());
                match model {
                    Ok(Model::Mealy(m)) => assert_eq!(m.num_states(), n),
                    other => panic!("{label}: not a Mealy machine: {:?}", other.err()),
                }
            }
            times.sort();
            let median = times[times.len() / 2].as_secs_f64();
            let per_state = median / n as f64;
            let ratio = per_state / *base.get_or_insert(per_state);
            println!(
                "{:<30} {:>10} {:>7} {:>10.1} {:>10.1} {:>14.2}",
                label,
                text.len(),
                n,
                times[0].as_secs_f64() * 1000.0,
                median * 1000.0,
                ratio
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let write_to = args
        .iter()
        .position(|a| a == "--write")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from);
    if args.iter().any(|a| a == "--generated-only") {
        generated_rows(write_to.as_deref());
        return;
    }
    let mut files = Vec::new();
    match shared_models() {
        Some(dir) => collect(&dir, &mut files),
        None => eprintln!("shared models not found: timing the bundled models only"),
    }
    collect(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models"),
        &mut files,
    );
    if let Ok(filter) = std::env::var("NCOMPLETE_BENCH_FILTER") {
        files.retain(|p| p.to_string_lossy().contains(&filter));
    }
    println!(
        "{:<58} {:>10} {:>7} {:>8} {:>10} {:>10}",
        "model", "bytes", "states", "trans", "best ms", "median ms"
    );
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.to_string_lossy();
        let opts = LoadOptions::default();
        // More repetitions for small files, at least 3 for big ones.
        let runs = (2_000_000 / text.len().max(1)).clamp(3, 50);
        let mut times: Vec<Duration> = Vec::with_capacity(runs);
        let mut size = (0, 0);
        for _ in 0..runs {
            let start = Instant::now();
            let model = parse_model(&text, &name, &opts);
            times.push(start.elapsed());
            match model {
                Ok(Model::Mealy(m)) => size = (m.num_states(), m.num_transitions()),
                Ok(Model::Lts(l)) => size = (l.num_states(), l.num_transitions()),
                Err(e) => {
                    println!("{name}: {e}");
                    break;
                }
            }
        }
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let short: String = {
            let s = name.as_ref();
            let n = s.chars().count();
            if n > 58 {
                s.chars().skip(n - 58).collect()
            } else {
                s.to_owned()
            }
        };
        println!(
            "{:<58} {:>10} {:>7} {:>8} {:>10.3} {:>10.3}",
            short,
            text.len(),
            size.0,
            size.1,
            ms(times[0]),
            ms(times[times.len() / 2])
        );
    }
    generated_rows(write_to.as_deref());
}
