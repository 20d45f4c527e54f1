//! STS files, and model files that may be STSs: an STS file is recognised by its name
//! (`.sts.yaml`, `.sts.yml`, `.sts.json`) or, for other YAML and JSON files the native schema
//! refuses, by the top-level key `sts`, and instantiated as an LTS (the loading path of every
//! LTS command); every other model file is read by `crate::format`.

use super::error::StsError;
use super::instantiate::{InstantiateBudget, instantiate};
use super::load::{self, Syntax, parse_sts};
use super::types::Sts;
use crate::format::{Format, LoadOptions, Loaded, format_of, utf8_text};
use crate::model::Model;

/// Whether model text named `file_name` in `format` is an STS, and in which syntax: by the
/// name's `.sts.*` extension, or for YAML and JSON by the top-level key `sts` (looked at only
/// when `native_failed`, so native models pay nothing for the check).
pub fn sts_syntax(
    file_name: &str,
    format: Format,
    text: &str,
    native_failed: bool,
) -> Option<Syntax> {
    if let Some(s) = load::sts_syntax_of_path(file_name) {
        return Some(s);
    }
    let syntax = match format {
        Format::Yaml => Syntax::Yaml,
        Format::Json => Syntax::Json,
        _ => return None,
    };
    (native_failed && load::is_sts_document(text, syntax)).then_some(syntax)
}

/// Reads an STS file (the path `-` is not accepted: STS files are named).
pub fn load_sts(path: &str) -> Result<Sts, StsError> {
    let bytes = std::fs::read(path).map_err(|source| StsError::Io {
        path: path.to_owned(),
        source,
    })?;
    let text = utf8_text(bytes, path)?;
    let syntax = sts_syntax(path, Format::from_path(path).unwrap_or(Format::Yaml), &text, true)
        .ok_or_else(|| {
            StsError::Usage(format!(
                "{path} is not an STS file: name it `.sts.yaml` or `.sts.json`, or give it the top-level key `sts: 1`"
            ))
        })?;
    Ok(parse_sts(
        &text,
        path,
        &load::default_model_name(path),
        syntax,
    )?)
}

/// Parses an STS and instantiates it as an LTS model (the loading path of every LTS command).
pub fn parse_as_model(text: &str, file: &str, syntax: Syntax) -> Result<Model, StsError> {
    let sts = parse_sts(text, file, &load::default_model_name(file), syntax)?;
    let lts = instantiate(&sts, &InstantiateBudget::default()).map_err(|source| {
        StsError::Instantiate {
            path: file.to_owned(),
            source: Box::new(source),
        }
    })?;
    Ok(Model::Lts(lts))
}

/// Reads and parses a model file of any format, an STS instantiated as an LTS; warnings are
/// dropped ([`crate::format::load_model`], STSs included).
pub fn load_model(path: &str, opts: &LoadOptions) -> Result<Model, StsError> {
    load_model_with_warnings(path, opts).map(|l| l.model)
}

/// Reads and parses a model file of any format, keeping the warnings
/// ([`crate::format::load_model_with_warnings`], STSs included).
pub fn load_model_with_warnings(path: &str, opts: &LoadOptions) -> Result<Loaded, StsError> {
    crate::format::load_model_with(path, opts, parse_model_with_warnings)
}

/// Parses model text of any format, an STS instantiated as an LTS
/// ([`crate::format::parse_model`], STSs included).
pub fn parse_model(text: &str, file_name: &str, opts: &LoadOptions) -> Result<Model, StsError> {
    parse_model_with_warnings(text, file_name, opts).map(|l| l.model)
}

/// [`parse_model`], keeping the warnings: an STS by its name, else the text read by
/// [`crate::format::parse_model_with_warnings`], and a YAML or JSON text the native schema
/// refuses read as an STS when it has the top-level key `sts`.
pub fn parse_model_with_warnings(
    text: &str,
    file_name: &str,
    opts: &LoadOptions,
) -> Result<Loaded, StsError> {
    let format = format_of(file_name, opts)?;
    // A byte order mark is not part of the text (line 1, column 1 stays where it is).
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let instantiated = |model| Loaded {
        model,
        warnings: Vec::new(),
        timeouts: Default::default(),
        requirements: Default::default(),
    };
    if let Some(syntax) = sts_syntax(file_name, format, body, false) {
        return parse_as_model(body, file_name, syntax).map(instantiated);
    }
    crate::format::parse_model_with_warnings(text, file_name, opts).or_else(|e| {
        match sts_syntax(file_name, format, body, true) {
            Some(syntax) => parse_as_model(body, file_name, syntax).map(instantiated),
            None => Err(e.into()),
        }
    })
}
