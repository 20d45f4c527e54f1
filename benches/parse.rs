//! Parse time per model: every file under the shared benchmark folder (`$NCOMPLETE_SHARED`,
//! `../shared/models` or `/work/shared/models`; skipped when absent) and the bundled models.
//! Prints a table: file, size, states, transitions, best and median of several parses.
//!
//! Run with `cargo bench --bench parse`; `NCOMPLETE_BENCH_FILTER=esm` times only the files whose
//! path contains `esm`.

use ncomplete::format::{LoadOptions, parse_model};
use ncomplete::model::Model;
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

fn main() {
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
}
