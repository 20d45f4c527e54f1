//! Renderers of test suites into the files users run or hand to other tools.

pub mod words;
