//! Reading model files: standard input or a file, its format told (option, extension, or the
//! first token of standard input), its text checked to be UTF-8 and handed to the parser of its
//! format, and the timeouts and requirements side files of an `.aut` or `.fsm` model.

use super::error::FormatError;
use super::options::{FORMAT_CHOICES, Format, LoadOptions, format_of};
use super::position::{ParseError, Warning};
use super::text::utf8_text;
use super::{aut, dot, fsm, native, requirements, timeouts};
use crate::model::Model;
use std::path::Path;

/// A parsed model with the warnings the parser raised.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The model.
    pub model: Model,
    /// Warnings, in file order.
    pub warnings: Vec<Warning>,
    /// The timeout annotations (native `timeouts` key, DOT attributes, or the side file of an
    /// `.aut` or `.fsm` model; [`timeouts`]).
    pub timeouts: timeouts::TimeoutAnnotations,
    /// The requirement tags (DOT `requirements` attributes, native `requirements` and
    /// `state_requirements` keys, or the side file of an `.aut` or `.fsm` model;
    /// [`requirements`]).
    pub requirements: crate::model::RequirementTags,
}

/// Reads and parses a model file; warnings are dropped (use [`load_model_with_warnings`] to show
/// them).
///
/// ```
/// use ncomplete::format::{LoadOptions, load_model};
/// use ncomplete::model::Model;
///
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/models/coffeemachine.dot");
/// let Model::Mealy(machine) = load_model(path, &LoadOptions::default())? else {
///     panic!("the coffee machine is a Mealy machine");
/// };
/// assert_eq!(machine.num_states(), 6);
/// // A file that is not a model is refused with its position.
/// let error = ncomplete::format::parse_model("des (0, 1\n", "bad.aut", &LoadOptions::default())
///     .unwrap_err();
/// assert!(error.to_string().starts_with("bad.aut:1:"));
/// # Ok::<(), ncomplete::format::FormatError>(())
/// ```
pub fn load_model(path: &str, opts: &LoadOptions) -> Result<Model, FormatError> {
    load_model_with_warnings(path, opts).map(|l| l.model)
}

/// The model path that stands for standard input.
pub const STDIN_PATH: &str = "-";
/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Reads and parses a model file, keeping the warnings. The path `-` reads standard input, whose
/// format is `opts.format` or, when that is `None`, sniffed from its first token
/// ([`Format::sniff`]); standard input is read once per process, a second `-` is refused.
///
/// Symbolic transition systems (`.sts.yaml`) are not read here but by the STS reader above this
/// layer (`crate::sts::load_model_with_warnings`), which hands its parser to [`load_model_with`].
pub fn load_model_with_warnings(path: &str, opts: &LoadOptions) -> Result<Loaded, FormatError> {
    load_model_with(path, opts, parse_model_with_warnings)
}

/// [`load_model_with_warnings`] with the text parsed by `parse(text, file_name, opts)` (in place
/// of [`parse_model_with_warnings`]): standard input or the file is read, its format told and
/// its text checked as [`load_model_with_warnings`] does, and the side files of an `.aut` or
/// `.fsm` model read and checked against the parsed model.
pub fn load_model_with<E: From<FormatError>>(
    path: &str,
    opts: &LoadOptions,
    parse: impl FnOnce(&str, &str, &LoadOptions) -> Result<Loaded, E>,
) -> Result<Loaded, E> {
    if path == STDIN_PATH {
        static READ: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if READ.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Err(FormatError::Usage(
                "standard input (`-`) holds one model and was read already; give the other model as a file"
                    .into(),
            )
            .into());
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| FormatError::io(STDIN_NAME, e))?;
        let text = utf8_text(bytes, STDIN_NAME).map_err(FormatError::from)?;
        let format = match opts.format.or_else(|| Format::sniff(&text)) {
            Some(f) => f,
            None => {
                return Err(FormatError::Usage(format!(
                    "cannot tell the format of standard input from its text; use --model-format {}",
                    FORMAT_CHOICES
                ))
                .into());
            }
        };
        let opts = LoadOptions {
            format: Some(format),
            ..opts.clone()
        };
        return parse(&text, STDIN_NAME, &opts);
    }
    // Detect the format before reading, so a wrong extension fails fast.
    format_of(path, opts)?;
    let bytes = std::fs::read(path).map_err(|e| FormatError::io(path, e))?;
    let text = utf8_text(bytes, path).map_err(FormatError::from)?;
    let mut loaded = parse(&text, path, opts)?;
    if matches!(format_of(path, opts)?, Format::Aut | Format::Fsm) {
        let model = &loaded.model;
        loaded.timeouts = load_side_file(path, &timeouts::side_file(path), "timeouts", |t, f| {
            timeouts::parse_side_file(t, f).and_then(|a| timeouts::resolve(&a, model, f, t))
        })?;
        loaded.requirements = load_side_file(
            path,
            &requirements::side_file(path),
            "requirements",
            |t, f| {
                requirements::parse_side_file(t, f)
                    .and_then(|a| requirements::resolve(&a, model, f, t))
            },
        )?;
    }
    Ok(loaded)
}

/// The side file `side` of the model at `model_path` (`kind`: `timeouts` or `requirements`),
/// its text parsed and checked against the model by `parse(text, side)`; the empty annotation
/// when there is no such file.
fn load_side_file<T: Default>(
    model_path: &str,
    side: &str,
    kind: &str,
    parse: impl FnOnce(&str, &str) -> Result<T, ParseError>,
) -> Result<T, FormatError> {
    let Some(bytes) = timeouts::read_side_file(side, model_path, kind)? else {
        return Ok(T::default());
    };
    let text = utf8_text(bytes, side)?;
    Ok(parse(&text, side)?)
}

/// Parses model text; `file_name` names the file in messages, gives the format when
/// `opts.format` is `None` and gives the model name when the file has none. Symbolic
/// transition systems are read above this layer (`crate::sts::parse_model`).
pub fn parse_model(text: &str, file_name: &str, opts: &LoadOptions) -> Result<Model, FormatError> {
    parse_model_with_warnings(text, file_name, opts).map(|l| l.model)
}

/// [`parse_model`], keeping the warnings.
pub fn parse_model_with_warnings(
    text: &str,
    file_name: &str,
    opts: &LoadOptions,
) -> Result<Loaded, FormatError> {
    let format = format_of(file_name, opts)?;
    // A byte order mark is not part of the text (line 1, column 1 stays where it is).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let name = model_name(file_name);
    let mut warnings = Vec::new();
    let no_timeouts = |model| (model, Default::default(), Default::default());
    let (model, timeouts, requirements) = match format {
        Format::Aut => no_timeouts(aut::parse_with_warnings(
            text,
            file_name,
            &name,
            opts,
            &mut warnings,
        )?),
        Format::Dot => dot::parse_annotated(text, file_name, &name, opts, &mut warnings)?,
        Format::Yaml => native::parse_annotated(text, file_name, &name, opts, true)?,
        Format::Json => native::parse_annotated(text, file_name, &name, opts, false)?,
        Format::Fsm => no_timeouts(fsm::parse(text, file_name, &name)?),
    };
    Ok(Loaded {
        model,
        warnings,
        timeouts,
        requirements,
    })
}

/// The file stem, the name of models whose file does not name them.
fn model_name(file_name: &str) -> String {
    if file_name == STDIN_NAME {
        return "stdin".to_owned();
    }
    Path::new(file_name)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("model")
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_extension_is_a_usage_error() {
        let e = crate::Error::from(parse_model("", "m.txt", &LoadOptions::default()).unwrap_err());
        assert_eq!(
            e.to_string(),
            "cannot tell the format of m.txt from its extension; use --model-format aut|dot|yaml|json|fsm"
        );
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn format_option_overrides_the_extension() {
        let opts = LoadOptions {
            format: Some(Format::Aut),
            ..LoadOptions::default()
        };
        let m = parse_model("des (0, 0, 1)\n", "m.txt", &opts).unwrap();
        assert!(matches!(m, Model::Lts(l) if l.num_states() == 1 && l.name == "m"));
    }
}
