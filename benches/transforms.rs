//! Benchmark of the model transformations on the real models in the shared benchmark folder
//! (skipped, with a note, when it is absent): Mealy machine to suspension automaton, minimisation
//! of that automaton, and determinisation (LTS to suspension automaton) after hiding the first
//! two inputs as internal steps, which creates output nondeterminism.
//!
//! Some learned models (the SSH servers) use a name both as input and as output, which ioco does
//! not allow; for the benchmark such outputs are renamed `NAME_out` (and the table says so).
//!
//! Run with `cargo bench --bench transforms`. Times are the median of five runs.

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::model::{
    Mealy, Model, SuspensionOptions, disjoint_labels, lts_to_suspension, mealy_to_lts,
    mealy_to_suspension, minimize_suspension,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MODELS: [&str; 6] = [
    "automata-wiki/TCP/TCP_Linux_Server.dot",
    "automata-wiki/SSH/OpenSSH.dot",
    "automata-wiki/SSH/BitVise.dot",
    "automata-wiki/ASMLRERS2019/m173.dot",
    "automata-wiki/ASMLRERS2019/m182.dot",
    "esm/esm.dot",
];
const RUNS: usize = 5;
const HIDDEN: usize = 2;

/// Median time of `RUNS` runs of `f`, and its last result.
fn time<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(RUNS);
    let mut last = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        let r = f();
        times.push(start.elapsed());
        last = Some(r);
    }
    times.sort();
    (times[RUNS / 2], last.expect("RUNS > 0"))
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e3)
}

fn row(name: &str, m: &Mealy) -> String {
    let (t_sa, sa) = time(|| mealy_to_suspension(m));
    let sa = match sa {
        Ok(sa) => sa,
        Err(e) => {
            return format!(
                "| {name} | {} | {} | error: {e} | | | | | |",
                m.num_states(),
                m.num_inputs()
            );
        }
    };
    let (t_min, min) = time(|| minimize_suspension(&sa));
    let min_states = min
        .map(|a| a.num_states().to_string())
        .unwrap_or_else(|e| e.to_string());
    let hidden: Vec<&str> = m
        .inputs
        .names()
        .iter()
        .take(HIDDEN)
        .map(String::as_str)
        .collect();
    let (t_det, det) = time(|| {
        mealy_to_lts(m, &hidden)
            .and_then(|lts| lts_to_suspension(&lts, &SuspensionOptions::default()))
    });
    let det_states = det
        .map(|a| a.num_states().to_string())
        .unwrap_or_else(|e| e.to_string());
    format!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        m.num_states(),
        m.num_inputs(),
        ms(t_sa),
        sa.num_states(),
        ms(t_min),
        min_states,
        hidden.join(","),
        ms(t_det),
        det_states,
    )
}

fn main() {
    // The shared benchmark folder: `$NCOMPLETE_SHARED`, `../shared/models` next to the crate, or
    // `/work/shared/models` (as in tests/shared_models.rs).
    let candidates = [
        std::env::var_os("NCOMPLETE_SHARED").map(PathBuf::from),
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/models")),
        Some(PathBuf::from("/work/shared/models")),
    ];
    let Some(root) = candidates.into_iter().flatten().find(|p| p.is_dir()) else {
        println!("transforms bench: no shared benchmark models found, skipped");
        return;
    };
    println!(
        "| model | states | inputs | Mealy→SA ms | SA states | minimise ms | minimal states | hidden | hide+determinise ms | SA states |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for rel in MODELS {
        let path = root.join(rel);
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or(rel);
        match load_model(&path.to_string_lossy(), &LoadOptions::default()) {
            Ok(Model::Mealy(m)) => {
                let (m, renamed) = disjoint_labels(&m);
                let name = if renamed > 0 {
                    format!("{name} ({renamed} outputs renamed)")
                } else {
                    name.to_owned()
                };
                println!("{}", row(&name, &m));
            }
            Ok(Model::Lts(_)) => println!("| {name} | not a Mealy machine | | | | | | | | |"),
            Err(e) => println!("| {name} | error: {e} | | | | | | | | |"),
        }
    }
}
