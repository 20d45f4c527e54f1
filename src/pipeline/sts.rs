//! The commands over symbolic transition systems (`crate::sts`): telling an STS file from
//! other models, and `generate --cover switches` on one (switch-coverage test purposes, van den
//! Bos Sec. 4.4, through the SMT solver of the `smt` feature).

use super::generate::{GenerateOptions, GeneratedSuite, SuiteFileFormat};
use crate::Error;
use crate::format::{self, Format, LoadOptions};
use crate::output;
use crate::sts::symbolic::SegLimits;

/// The default depth of the symbolic execution graph when `--n` does not give one.
pub const DEFAULT_DEPTH: usize = 40;
/// Most nodes of the symbolic execution graph unfolded for test purposes.
pub const NODE_BUDGET: usize = 100_000;

/// Whether a model file is an STS: by its name (`.sts.yaml`, `.sts.yml`, `.sts.json`), or for
/// YAML and JSON by its top-level key `sts`. Standard input is never one.
pub fn is_sts_file(path: &str, load: &LoadOptions) -> Result<bool, Error> {
    if path == format::STDIN_PATH {
        return Ok(false);
    }
    if crate::sts::load::sts_syntax_of_path(path).is_some() {
        return Ok(true);
    }
    let Some(format) = load.format.or_else(|| Format::from_path(path)) else {
        return Ok(false);
    };
    if !matches!(format, Format::Yaml | Format::Json) {
        return Ok(false);
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = format::utf8_text(bytes, path)?;
    Ok(crate::sts::sts_syntax(path, format, &text, true).is_some())
}

/// `generate --cover switches` on an STS: the switch-coverage test purposes as
/// `ncomplete-sts-purposes` JSON (depth `--n`, default 40).
pub fn generate_purposes(
    model_path: &str,
    options: &GenerateOptions,
) -> Result<GeneratedSuite, Error> {
    if options.format != SuiteFileFormat::Json {
        return Err(Error::Usage(
            "switch-coverage test purposes of an STS are written as JSON (ncomplete-sts-purposes): drop --format".into(),
        ));
    }
    output::refuse_input_as_output("--out", &options.out, &[model_path])?;
    let sts = crate::sts::load_sts(model_path)?;
    let mut solver =
        crate::sts::solver::default_solver().map_err(|e| Error::Usage(e.to_string()))?;
    let limits = SegLimits {
        depth: options.n.unwrap_or(DEFAULT_DEPTH),
        nodes: NODE_BUDGET,
    };
    let purposes = crate::sts::purposes::switch_purposes(&sts, solver.as_mut(), limits);
    format::write_text(Some(&options.out), &purposes.to_json(&sts))?;
    Ok(GeneratedSuite {
        method: None,
        suite_path: options.out.clone(),
        tests: purposes.purposes.len().to_string(),
        guarantee: "switch coverage (not n-complete)".into(),
        stats: None,
        choice: None,
        summary: purposes.summary(&sts),
    })
}
