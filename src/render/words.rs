//! The `words` format: one test per line, its inputs separated by single spaces (the format other
//! FSM test tools print). Only inputs are written; outputs follow from the specification.

use crate::model::LabelId;
use crate::suite::mealy::{MealySuite, SuiteStats};
use std::io::{self, Write};

/// Writes input words line by line with pre-rendered label names.
pub struct WordsWriter<W: Write> {
    out: W,
    names: Vec<Vec<u8>>,
}

impl<W: Write> WordsWriter<W> {
    /// A writer for words over inputs named `names` (indexed by input id).
    pub fn new(out: W, names: &[String]) -> Self {
        WordsWriter {
            out,
            names: names.iter().map(|n| n.as_bytes().to_vec()).collect(),
        }
    }

    /// Writes one test.
    pub fn write(&mut self, word: &[LabelId]) -> io::Result<()> {
        for (k, a) in word.iter().enumerate() {
            if k > 0 {
                self.out.write_all(b" ")?;
            }
            self.out.write_all(&self.names[a.index()])?;
        }
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the sink.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Streams a Mealy suite in the words format.
pub fn write_words<W: Write>(out: W, suite: &MealySuite) -> io::Result<SuiteStats> {
    let mut w = WordsWriter::new(out, suite.spec().inputs.names());
    let stats = suite.stream(|word| w.write(word))?;
    w.finish()?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;
    use crate::suite::mealy::{MealyMethod, MealySuiteOptions};

    #[test]
    fn one_line_per_test_inputs_separated_by_spaces() {
        let m = mealy_from_named(
            "m",
            2,
            &[
                (0, "on", "x", 1),
                (0, "off", "y", 0),
                (1, "on", "y", 1),
                (1, "off", "y", 0),
            ],
        )
        .unwrap();
        let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::W, 0)).unwrap();
        let mut out = Vec::new();
        let stats = write_words(&mut out, &suite).unwrap();
        let text = String::from_utf8(out).unwrap();
        // Inputs sort by id: `on` (0) before `off` (1).
        assert_eq!(text, "on on on\non off on\noff on\n");
        assert_eq!(stats.tests, 3);
        assert_eq!(stats.symbols, 8);
        assert_eq!(stats.longest, 3);
    }
}
