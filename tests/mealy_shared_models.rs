//! Mealy figures of the shared benchmark models when the folder exists (`$NCOMPLETE_SHARED`,
//! `../shared/models` next to the crate, or `/work/shared/models`); skipped silently otherwise.
//! Sizes and times are measured by `benches/mealy.rs`, not here.

use ncomplete::format::{LoadOptions, load_model};
use ncomplete::identify::mealy::{AccessTree, longest_shortest_separating, minimize_mealy};
use ncomplete::model::{Mealy, Model};
use ncomplete::suite::mealy::{MealyMethod, MealySuite, MealySuiteOptions};
use std::path::PathBuf;

fn shared_models() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("NCOMPLETE_SHARED").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models")),
        Some(PathBuf::from("/work/shared/models")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_dir())
}

fn mealy(path: PathBuf) -> Mealy {
    match load_model(path.to_str().unwrap(), &LoadOptions::default()).unwrap() {
        Model::Mealy(m) => m,
        Model::Lts(_) => panic!("{} is not a Mealy machine", path.display()),
    }
}

#[test]
fn esm_figures_match_the_published_ones() {
    let Some(root) = shared_models() else {
        return;
    };
    let esm = mealy(root.join("esm/esm.dot"));
    // README of the shared models: 3,410 states, longest shortest access sequence 29, longest
    // shortest separating sequence 9.
    let min = minimize_mealy(&esm);
    assert_eq!(min.num_states(), 3410);
    let access = AccessTree::new(&min);
    let deepest = min.states().filter_map(|s| access.depth(s)).max();
    assert_eq!(deepest, Some(29));
    assert_eq!(longest_shortest_separating(&esm), 9);
}

#[test]
fn wiki_suites_pass_their_own_model() {
    let Some(root) = shared_models() else {
        return;
    };
    for file in ["SSH/OpenSSH.dot", "TCP/TCP_Linux_Server.dot"] {
        let m = mealy(root.join("automata-wiki").join(file));
        let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::Auto, 0)).unwrap();
        let spec = suite.spec();
        let mut tests = 0;
        for w in suite.words() {
            // The minimised specification and the model answer alike on every test.
            assert_eq!(spec.run(spec.initial(), &w), m.run(m.initial(), &w));
            tests += 1;
        }
        assert!(tests > 0);
    }
}
