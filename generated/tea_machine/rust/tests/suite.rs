//! Tests of model tea_machine against the process in `NCOMPLETE_SUT`.
//!
//! To test through your own adapter instead, add a file `tests/my_system.rs` containing
//! `tea_machine_ncomplete_tests::suite_tests!(my_crate::MyAdapter::new());` (any expression whose
//! type implements `tea_machine_ncomplete_tests::runtime::Adapter`) and run
//! `cargo test --test my_system`.

use tea_machine_ncomplete_tests::runtime::StdioAdapter;

tea_machine_ncomplete_tests::suite_tests!(StdioAdapter::from_env());
