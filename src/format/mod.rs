//! Model files: format detection, parsers and writers for Aldebaran `.aut`, Graphviz DOT and the
//! native YAML/JSON schema, all producing [`Model`]s.
//!
//! Parsers report [`ParseError`]s as `FILE:LINE:COL: found X, expected Y`; suspicious but
//! acceptable input (such as a DOT file without a start marker) produces [`Warning`]s that the
//! caller decides whether to print. Every writer's output reads back to an equal model in the same
//! format (`.aut` numbers states, so state names survive only in DOT, YAML and JSON).

pub mod aut;
mod build;
pub mod dot;
pub mod fsm;
pub(crate) mod locate;
pub mod native;
pub mod position;
pub mod requirements;
pub mod timeouts;
pub(crate) mod unique_keys;

pub(crate) use build::name_problem;
pub use position::{ParseError, Position, Span, Warning};

use crate::error::Error;
use crate::model::{Lts, Model, SuspensionAutomaton};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A model file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Aldebaran `.aut`.
    Aut,
    /// Graphviz DOT (`.dot`, `.gv`).
    Dot,
    /// The native schema in YAML (`.yaml`, `.yml`).
    Yaml,
    /// The native schema in JSON (`.json`).
    Json,
    /// FSMlib `.fsm` (deterministic Mealy and Moore machines with numbered states and labels).
    Fsm,
}

impl Format {
    /// The formats that can hold every model (LTSs too).
    pub const ALL: [Format; 4] = [Format::Aut, Format::Dot, Format::Yaml, Format::Json];
    /// Every format: [`Format::ALL`] and FSMlib's `.fsm`, which holds deterministic machines
    /// only.
    pub const EVERY: [Format; 5] = [
        Format::Aut,
        Format::Dot,
        Format::Yaml,
        Format::Json,
        Format::Fsm,
    ];

    /// The format a file name's extension stands for.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "aut" => Some(Format::Aut),
            "dot" | "gv" => Some(Format::Dot),
            "yaml" | "yml" => Some(Format::Yaml),
            "json" => Some(Format::Json),
            "fsm" => Some(Format::Fsm),
            _ => None,
        }
    }

    /// The format model text is written in, told from its first token (after a byte order mark,
    /// blank lines and `#` comment lines): `des` is `.aut`, `digraph`/`graph`/`strict` (or a `//`
    /// or `/*` comment) is DOT, `{` is JSON, `key:` or `---` is YAML, and a line of two numbers
    /// is FSMlib `.fsm`; `None` otherwise.
    ///
    /// ```
    /// use ncomplete::format::Format;
    /// assert_eq!(Format::sniff("des (0, 2, 2)\n"), Some(Format::Aut));
    /// assert_eq!(Format::sniff("digraph m { }"), Some(Format::Dot));
    /// assert_eq!(Format::sniff("{\"states\": []}"), Some(Format::Json));
    /// assert_eq!(Format::sniff("# a model\nname: m\n"), Some(Format::Yaml));
    /// assert_eq!(Format::sniff("2 1\n4 2 2\n"), Some(Format::Fsm));
    /// assert_eq!(Format::sniff("hello"), None);
    /// ```
    pub fn sniff(text: &str) -> Option<Format> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))?;
        let word: String = first
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        let rest = first[word.len()..].trim_start();
        match word.to_ascii_lowercase().as_str() {
            "des" if rest.starts_with('(') => return Some(Format::Aut),
            "digraph" | "graph" | "strict" => return Some(Format::Dot),
            _ => {}
        }
        let words: Vec<&str> = first.split_whitespace().collect();
        if words.len() == 2 && words.iter().all(|w| w.parse::<u32>().is_ok()) {
            return Some(Format::Fsm);
        }
        if first.starts_with("//") || first.starts_with("/*") {
            Some(Format::Dot)
        } else if first.starts_with('{') {
            Some(Format::Json)
        } else if first.starts_with("---") || (!word.is_empty() && rest.starts_with(':')) {
            Some(Format::Yaml)
        } else {
            None
        }
    }

    /// The name used on the command line (`aut`, `dot`, `yaml`, `json`, `fsm`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Aut => "aut",
            Format::Dot => "dot",
            Format::Yaml => "yaml",
            Format::Json => "json",
            Format::Fsm => "fsm",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "aut" => Ok(Format::Aut),
            "dot" | "gv" => Ok(Format::Dot),
            "yaml" | "yml" => Ok(Format::Yaml),
            "json" => Ok(Format::Json),
            "fsm" => Ok(Format::Fsm),
            _ => Err(format!(
                "unknown format `{s}`; expected aut, dot, yaml, json or fsm"
            )),
        }
    }
}

/// How to read a model file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The format; detected from the extension when `None`.
    pub format: Option<Format>,
    /// Unmarked labels that are inputs (`.aut` and DOT LTSs).
    pub inputs: Vec<String>,
    /// Unmarked labels that are outputs (`.aut` and DOT LTSs).
    pub outputs: Vec<String>,
    /// The initial state by name, overriding what the file says.
    pub initial: Option<String>,
}

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
/// # Ok::<(), ncomplete::Error>(())
/// ```
pub fn load_model(path: &str, opts: &LoadOptions) -> Result<Model, Error> {
    load_model_with_warnings(path, opts).map(|l| l.model)
}

/// The model path that stands for standard input.
pub const STDIN_PATH: &str = "-";
/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// Reads and parses a model file, keeping the warnings. The path `-` reads standard input, whose
/// format is `opts.format` or, when that is `None`, sniffed from its first token
/// ([`Format::sniff`]); standard input is read once per process, a second `-` is refused.
pub fn load_model_with_warnings(path: &str, opts: &LoadOptions) -> Result<Loaded, Error> {
    if path == STDIN_PATH {
        static READ: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if READ.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Err(Error::Usage(
                "standard input (`-`) holds one model and was read already; give the other model as a file"
                    .into(),
            ));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| Error::io(STDIN_NAME, e))?;
        let text = utf8_text(bytes, STDIN_NAME)?;
        let format = match opts.format.or_else(|| Format::sniff(&text)) {
            Some(f) => f,
            None => {
                return Err(Error::Usage(format!(
                    "cannot tell the format of standard input from its text; use --model-format {}",
                    FORMAT_CHOICES
                )));
            }
        };
        let opts = LoadOptions {
            format: Some(format),
            ..opts.clone()
        };
        return parse_model_with_warnings(&text, STDIN_NAME, &opts);
    }
    // Detect the format before reading, so a wrong extension fails fast.
    format_of(path, opts)?;
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let text = utf8_text(bytes, path)?;
    let mut loaded = parse_model_with_warnings(&text, path, opts)?;
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
) -> Result<T, Error> {
    let Some(bytes) = timeouts::read_side_file(side, model_path, kind)? else {
        return Ok(T::default());
    };
    let text = utf8_text(bytes, side)?;
    Ok(parse(&text, side)?)
}

/// The text of a file, or the line and column of its first byte that is not UTF-8.
pub fn utf8_text(bytes: Vec<u8>, file: &str) -> Result<String, ParseError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // Valid by construction; the position is that of the first bad byte.
        let before = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        ParseError::at(
            file,
            before,
            valid,
            format!("the byte 0x{:02X}, which is not UTF-8", bytes[valid]),
            "UTF-8 text",
        )
    })
}

/// Skips a UTF-8 byte order mark at the start of `reader`.
pub fn skip_bom<R: std::io::BufRead>(reader: &mut R) -> std::io::Result<()> {
    if reader.fill_buf()?.starts_with(b"\xef\xbb\xbf") {
        reader.consume(3);
    }
    Ok(())
}

/// The position of the first byte of `reader` that is not UTF-8, as [`utf8_text`] reports it,
/// found by reading in chunks (for files read as streams, whose text is never held whole).
pub fn first_non_utf8<R: std::io::Read>(
    mut reader: R,
    file: &str,
) -> std::io::Result<Option<ParseError>> {
    let (mut line, mut column) = (1usize, 1usize);
    let mut buf = vec![0u8; 1 << 16];
    let mut carry = 0usize;
    loop {
        let read = reader.read(&mut buf[carry..])?;
        let len = carry + read;
        let at_end = read == 0;
        let (valid, bad) = match std::str::from_utf8(&buf[..len]) {
            Ok(_) => (len, false),
            // An incomplete sequence at the end of a chunk may be completed by the next one.
            Err(e) if e.error_len().is_none() && !at_end => (e.valid_up_to(), false),
            Err(e) => (e.valid_up_to(), true),
        };
        for c in std::str::from_utf8(&buf[..valid])
            .unwrap_or_default()
            .chars()
        {
            if c == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        if bad {
            return Ok(Some(ParseError {
                file: file.to_owned(),
                line,
                column,
                found: format!("the byte 0x{:02X}, which is not UTF-8", buf[valid]),
                expected: "UTF-8 text".into(),
            }));
        }
        if at_end {
            return Ok(None);
        }
        buf.copy_within(valid..len, 0);
        carry = len - valid;
    }
}

/// Parses model text; `file_name` names the file in messages, gives the format when
/// `opts.format` is `None` and gives the model name when the file has none.
pub fn parse_model(text: &str, file_name: &str, opts: &LoadOptions) -> Result<Model, Error> {
    parse_model_with_warnings(text, file_name, opts).map(|l| l.model)
}

/// [`parse_model`], keeping the warnings.
pub fn parse_model_with_warnings(
    text: &str,
    file_name: &str,
    opts: &LoadOptions,
) -> Result<Loaded, Error> {
    let format = format_of(file_name, opts)?;
    // A byte order mark is not part of the text (line 1, column 1 stays where it is).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let name = model_name(file_name);
    let mut warnings = Vec::new();
    // Symbolic transition systems are instantiated as LTSs (`crate::sts`): named `.sts.*`, or
    // a YAML/JSON file the native schema refuses that has the top-level key `sts`.
    let no_timeouts = |model| (model, Default::default(), Default::default());
    if let Some(syntax) = crate::sts::sts_syntax(file_name, format, text, false) {
        let model = crate::sts::parse_as_model(text, file_name, syntax)?;
        return Ok(Loaded {
            model,
            warnings,
            timeouts: timeouts::TimeoutAnnotations::default(),
            requirements: Default::default(),
        });
    }
    let sts_fallback = |e: Error| match crate::sts::sts_syntax(file_name, format, text, true) {
        Some(syntax) => crate::sts::parse_as_model(text, file_name, syntax).map(no_timeouts),
        None => Err(e),
    };
    let (model, timeouts, requirements) = match format {
        Format::Aut => no_timeouts(aut::parse_with_warnings(
            text,
            file_name,
            &name,
            opts,
            &mut warnings,
        )?),
        Format::Dot => dot::parse_annotated(text, file_name, &name, opts, &mut warnings)?,
        Format::Yaml => {
            native::parse_annotated(text, file_name, &name, opts, true).or_else(sts_fallback)?
        }
        Format::Json => {
            native::parse_annotated(text, file_name, &name, opts, false).or_else(sts_fallback)?
        }
        Format::Fsm => no_timeouts(fsm::parse(text, file_name, &name)?),
    };
    Ok(Loaded {
        model,
        warnings,
        timeouts,
        requirements,
    })
}

/// The model formats as the `--model-format` option takes them.
const FORMAT_CHOICES: &str = "aut|dot|yaml|json|fsm";

fn format_of(path: &str, opts: &LoadOptions) -> Result<Format, Error> {
    opts.format
        .or_else(|| Format::from_path(path))
        .ok_or_else(|| {
            Error::Usage(format!(
                "cannot tell the format of {path} from its extension; use --model-format {FORMAT_CHOICES}"
            ))
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

/// Why `model` cannot be written in `format` so that it reads back as the same model, if it
/// cannot: `.aut` and DOT declare labels only on transitions, and their label conventions
/// cannot carry a Mealy input that contains `/` or
/// starts with `?` or `!`, internal labels other than `tau` and `i`, quiescence not named
/// `delta`, or (DOT) a state named like the start marker `__start...`. A Moore machine needs
/// state outputs (not in `.aut`) and, in DOT, inputs without marks and state names without
/// `|`, `{`, `}`; a nondeterministic Mealy machine is recognised in `.aut` and DOT only when
/// it is nondeterministic; `.fsm` holds deterministic Mealy and Moore machines only (and
/// numbers their states and labels, as `.aut` numbers states).
pub fn unrepresentable(model: &Model, format: Format) -> Option<String> {
    if matches!(format, Format::Yaml | Format::Json) {
        return None;
    }
    let states = match model {
        Model::Lts(l) if format == Format::Fsm => {
            let what = if l.onfsm().is_some() {
                "a nondeterministic Mealy machine"
            } else {
                "a labelled transition system"
            };
            return Some(format!(
                "FSMlib .fsm holds deterministic Mealy and Moore machines, and this model is {what}"
            ));
        }
        Model::Mealy(_) if format == Format::Fsm => return None,
        Model::Mealy(m) if m.state_outputs().is_some() => {
            if format == Format::Aut {
                return Some(
                    ".aut has no state outputs, so the Moore machine would read back as its Mealy translation".into(),
                );
            }
            if let Some(why) = moore_dot_problem(m) {
                return Some(why);
            }
            m.state_names()
        }
        Model::Mealy(m) => {
            let quads: Vec<_> = m.quads().collect();
            if let Some(why) = mealy_label_problem(&m.inputs, &m.outputs, &quads, format) {
                return Some(why);
            }
            m.state_names()
        }
        Model::Lts(l) if l.onfsm().is_some() => {
            let o = l.onfsm().expect("matched");
            if !o.is_nondeterministic() {
                return Some(format!(
                    "the nondeterministic Mealy machine has one transition per state and input, so {format} would read it as a deterministic one"
                ));
            }
            if let Some(why) = mealy_label_problem(&o.inputs, &o.outputs, o.quads(), format) {
                return Some(why);
            }
            o.state_names()
        }
        Model::Lts(l) => {
            let a = &l.alphabet;
            let mut used = vec![false; a.len()];
            for (_, lab, _) in l.triples() {
                used[lab.index()] = true;
            }
            if let Some(id) = a.ids().find(|id| !used[id.index()]) {
                return Some(unused_label(a.name(id), format));
            }
            for id in a.ids() {
                let name = a.name(id);
                if a.quiescence() == Some(id) {
                    if name != "delta" {
                        return Some(format!(
                            "quiescence is named `{}`; {format} writes it as `delta`",
                            position::excerpt(name)
                        ));
                    }
                } else if a.kind(id) == crate::model::LabelKind::Internal
                    && name != "tau"
                    && name != "i"
                {
                    return Some(format!(
                        "the internal label `{}` would be written as `tau` in {format}",
                        position::excerpt(name)
                    ));
                }
            }
            l.state_names()
        }
    };
    if format == Format::Dot
        && let Some(s) = states.iter().find(|s| dot::is_start_marker(s))
    {
        return Some(format!(
            "the state `{}` would be read as a start marker in DOT",
            position::excerpt(s)
        ));
    }
    None
}

/// Why the Mealy labels `input / output` of these transitions cannot be written in `.aut` or
/// DOT: a label on no transition, or an input the label conventions would read otherwise.
fn mealy_label_problem(
    inputs: &crate::model::Interner,
    outputs: &crate::model::Interner,
    quads: &[(
        crate::model::StateId,
        crate::model::LabelId,
        crate::model::LabelId,
        crate::model::StateId,
    )],
    format: Format,
) -> Option<String> {
    let mut used_in = vec![false; inputs.len()];
    let mut used_out = vec![false; outputs.len()];
    for &(_, i, o, _) in quads {
        used_in[i.index()] = true;
        used_out[o.index()] = true;
    }
    let unused = (inputs.ids().zip(&used_in))
        .find(|(_, u)| !**u)
        .map(|(i, _)| inputs.name(i))
        .or_else(|| {
            (outputs.ids().zip(&used_out))
                .find(|(_, u)| !**u)
                .map(|(o, _)| outputs.name(o))
        });
    if let Some(name) = unused {
        return Some(unused_label(name, format));
    }
    inputs
        .names()
        .iter()
        .find(|i| i.contains('/') || i.starts_with(['?', '!']))
        .map(|i| {
            format!(
                "the Mealy input `{}` contains `/` or starts with `?` or `!`, which the {format} label `input / output` cannot carry",
                position::excerpt(i)
            )
        })
}

/// Why a Moore machine cannot be written as an AALpy Moore DOT that reads back as itself.
fn moore_dot_problem(m: &crate::model::Mealy) -> Option<String> {
    if m.num_transitions() == 0 {
        return Some(
            "a Moore machine without transitions has no edges by which DOT would tell it from an LTS".into(),
        );
    }
    let mut used = vec![false; m.inputs.len()];
    for (_, i, _, _) in m.quads() {
        used[i.index()] = true;
    }
    if let Some(i) = m.input_ids().find(|i| !used[i.index()]) {
        return Some(unused_label(m.inputs.name(i), Format::Dot));
    }
    let outs = m.state_outputs().unwrap_or_default();
    if let Some(o) = m.outputs.ids().find(|o| !outs.contains(o)) {
        return Some(format!(
            "the output `{}` is the output of no state, and a Moore DOT declares outputs only on states",
            position::excerpt(m.outputs.name(o))
        ));
    }
    if let Some(i) = m
        .inputs
        .names()
        .iter()
        .find(|i| !matches!(build::shape(i), Ok(build::Shape::Unmarked(n)) if n == i.as_str()))
    {
        return Some(format!(
            "the Moore input `{}` would be read as a marked LTS label or a Mealy label in DOT",
            position::excerpt(i)
        ));
    }
    m.state_names()
        .iter()
        .find(|s| s.contains(['|', '{', '}']))
        .map(|s| {
            format!(
                "the Moore state `{}` contains `|`, `{{` or `}}`, which its DOT label `name|output` cannot carry",
                position::excerpt(s)
            )
        })
}

fn unused_label(name: &str, format: Format) -> String {
    format!(
        "the label `{}` is on no transition, and {format} declares labels only by using them",
        position::excerpt(name)
    )
}

/// The text of a model in a format. Check [`unrepresentable`] first: a model the format cannot
/// hold is written as well as it can (a Moore machine in `.aut` as its Mealy translation), and
/// an LTS, which `.fsm` cannot hold at all, in the YAML schema.
pub fn write_model(model: &Model, format: Format) -> String {
    write_with(model, &timeouts::TimeoutAnnotations::default(), format)
}

/// A model's text with its timeout annotations ([`write_model_annotated`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotatedText {
    /// The model file's text, holding the annotations when the format has room for them
    /// (YAML, JSON, DOT).
    pub model: String,
    /// The text of the side file `MODEL.timeouts` ([`timeouts::side_file`]) for formats without
    /// room (`.aut`, `.fsm`); `None` when there are no annotations or the model text holds them.
    pub side_file: Option<String>,
}

/// [`write_model`] with the model's timeout annotations where the format has room for them: the
/// native `timeouts` key, DOT node and edge attributes, or (`.aut`, `.fsm`) a side file whose
/// names are those the written file gives states and inputs when read back (`.aut` numbers
/// states, `.fsm` states and inputs). Without annotations the text is [`write_model`]'s. The
/// error says why a name cannot be written in a side file.
pub fn write_model_annotated(
    model: &Model,
    annotations: &timeouts::TimeoutAnnotations,
    format: Format,
) -> Result<AnnotatedText, String> {
    // A nondeterministic Mealy machine is written without the intermediate states of its LTS.
    if let (Model::Lts(l), Format::Aut | Format::Dot) = (model, format)
        && let Some(o) = l.onfsm()
        && let Some(s) = (annotations.quiescence_ms.keys()).find(|s| !o.state_names().contains(s))
    {
        return Err(format!(
            "the quiescence timeout of `{}`, an intermediate state of the nondeterministic Mealy machine, has no state to go on in {format}",
            position::excerpt(s)
        ));
    }
    let side_file = match (model, format) {
        _ if annotations.is_empty() => None,
        (_, Format::Aut) => {
            let numbered = |s: usize| s.to_string();
            let renamed = annotations.renamed(model, numbered, |i| i.to_owned());
            Some(timeouts::write_side_file(&renamed)?)
        }
        (Model::Mealy(m), Format::Fsm) => {
            let ids = fsm::file_ids(m);
            let input = |i: &str| {
                m.inputs
                    .get(i)
                    .map_or_else(String::new, |i| i.0.to_string())
            };
            let renamed = annotations.renamed(model, |s| ids[s].to_string(), input);
            Some(timeouts::write_side_file(&renamed)?)
        }
        _ => None,
    };
    Ok(AnnotatedText {
        model: write_with(model, annotations, format),
        side_file,
    })
}

/// [`write_model`] with the annotations in the text where the format has room for them.
fn write_with(model: &Model, annotations: &timeouts::TimeoutAnnotations, format: Format) -> String {
    match (model, format) {
        (Model::Lts(l), Format::Aut | Format::Dot) if l.onfsm().is_some() => {
            let o = l.onfsm().expect("matched");
            if format == Format::Aut {
                aut::write_onfsm(o)
            } else {
                dot::write_onfsm(o, annotations)
            }
        }
        (Model::Lts(l), Format::Aut) => aut::write_lts(l),
        (Model::Mealy(m), Format::Aut) => aut::write_mealy(m),
        (Model::Lts(l), Format::Dot) => dot::write_lts(l, annotations),
        (Model::Mealy(m), Format::Dot) => match m.state_outputs() {
            Some(outs) => dot::write_moore(m, outs, annotations),
            None => dot::write_mealy(m, annotations),
        },
        (Model::Mealy(m), Format::Fsm) => fsm::write(m),
        (Model::Lts(_), Format::Fsm) => native::write_annotated(model, annotations, true),
        (model, Format::Yaml) => native::write_annotated(model, annotations, true),
        (model, Format::Json) => native::write_annotated(model, annotations, false),
    }
}

/// The text of a suspension automaton, written as an LTS whose quiescence transitions are
/// explicit (`delta`); it reads back as that LTS.
pub fn write_suspension(sa: &SuspensionAutomaton, format: Format) -> String {
    write_model(&Model::Lts(suspension_as_lts(sa)), format)
}

/// A suspension automaton as an LTS with explicit quiescence transitions.
pub fn suspension_as_lts(sa: &SuspensionAutomaton) -> Lts {
    Lts::new(
        sa.name.clone(),
        sa.alphabet.clone(),
        sa.state_names().to_vec(),
        sa.initial(),
        sa.triples().collect(),
    )
    .expect("a suspension automaton is a valid LTS")
}

/// Writes `text` to `out`, or to standard output when `out` is `None` or `-`; a file is written
/// whole or not at all ([`crate::output`]).
pub fn write_text(out: Option<&str>, text: &str) -> Result<(), Error> {
    crate::output::write_file(out.unwrap_or("-"), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::suspension_from_marked;

    #[test]
    fn formats_from_extensions_and_names() {
        assert_eq!(Format::from_path("a/b.AUT"), Some(Format::Aut));
        assert_eq!(Format::from_path("x.gv"), Some(Format::Dot));
        assert_eq!(Format::from_path("x.yml"), Some(Format::Yaml));
        assert_eq!(Format::from_path("x.json"), Some(Format::Json));
        assert_eq!(Format::from_path("x.txt"), None);
        assert_eq!("YAML".parse::<Format>(), Ok(Format::Yaml));
        assert!("xml".parse::<Format>().is_err());
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
    }

    #[test]
    fn unknown_extension_is_a_usage_error() {
        let e = parse_model("", "m.txt", &LoadOptions::default()).unwrap_err();
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

    #[test]
    fn suspension_automata_round_trip_as_lts() {
        let sa = suspension_from_marked(
            "sa",
            2,
            &[(0, "?a", 1), (0, "delta", 0), (1, "!x", 0), (1, "!y", 1)],
        )
        .unwrap();
        for f in Format::ALL {
            let text = write_suspension(&sa, f);
            let file = format!("sa.{}", f.name());
            let Model::Lts(l) = parse_model(&text, &file, &LoadOptions::default()).unwrap() else {
                panic!("expected an LTS in {f}")
            };
            assert_eq!(l.num_transitions(), 4, "{f}");
            let d = l.alphabet.quiescence().expect("quiescence kept");
            assert_eq!(l.successors(l.initial(), d).count(), 1, "{f}");
            assert!(l.is_deterministic(), "{f}");
        }
    }

    #[test]
    fn annotations_read_back_from_every_format() {
        let text = "digraph t {\n  __start0 -> a;\n  a [quiescence_timeout_ms=10];\n  a -> b [label=\"?go\" response_timeout_ms=20];\n  b -> a [label=\"!done\"];\n  b -> b [label=\"?go\" response_timeout_ms=20];\n}\n";
        let loaded = parse_model_with_warnings(text, "t.dot", &LoadOptions::default()).unwrap();
        let annotations = loaded.timeouts;
        assert_eq!(annotations.quiescence_ms.get("a"), Some(&10));
        assert_eq!(annotations.response_ms.get("go"), Some(&20));
        for f in Format::ALL {
            let written = write_model_annotated(&loaded.model, &annotations, f).unwrap();
            let file = format!("t.{}", f.name());
            let back =
                parse_model_with_warnings(&written.model, &file, &LoadOptions::default()).unwrap();
            let read = match &written.side_file {
                Some(side) => {
                    let list = timeouts::parse_side_file(side, "side").unwrap();
                    timeouts::resolve(&list, &back.model, "side", side).unwrap()
                }
                None => back.timeouts,
            };
            let expected = if f == Format::Aut {
                annotations.renamed(&loaded.model, |s| s.to_string(), str::to_owned)
            } else {
                annotations.clone()
            };
            assert_eq!(read, expected, "{f}");
            assert_eq!(written.side_file.is_some(), f == Format::Aut, "{f}");
            let plain = write_model(&loaded.model, f);
            assert_eq!(written.model == plain, f == Format::Aut, "{f}");
        }
    }

    /// The streamed UTF-8 check against the whole-text one.
    mod utf8 {
        use super::super::{first_non_utf8, utf8_text};
        use proptest::prelude::*;

        /// A reader that hands out at most `chunk` bytes per read, so multi-byte characters
        /// and bad bytes fall on every position relative to a read's end.
        struct Trickle<'a> {
            bytes: &'a [u8],
            chunk: usize,
        }

        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.chunk.min(buf.len()).min(self.bytes.len());
                buf[..n].copy_from_slice(&self.bytes[..n]);
                self.bytes = &self.bytes[n..];
                Ok(n)
            }
        }

        proptest! {
            /// The streamed check finds the same first bad byte, at the same line and column,
            /// as the check of the whole text, however the reads split the text.
            #[test]
            fn first_non_utf8_agrees_with_utf8_text(
                pieces in prop::collection::vec(
                    prop_oneof![
                        3 => "[a\n\u{e9}\u{20ac}\u{1F600}]{0,6}".prop_map(String::into_bytes),
                        1 => prop::collection::vec(any::<u8>(), 0..3),
                    ],
                    0..12,
                ),
                chunk in 1usize..8,
            ) {
                let bytes = pieces.concat();
                let streamed = first_non_utf8(Trickle { bytes: &bytes, chunk }, "f").unwrap();
                prop_assert_eq!(streamed, utf8_text(bytes, "f").err());
            }
        }
    }

    #[test]
    fn first_non_utf8_reads_past_a_character_split_by_its_buffer() {
        let mut bytes = "x".repeat((1 << 16) - 1).into_bytes();
        bytes.extend("\u{20ac}\n\u{e9}".as_bytes());
        bytes.push(0xFF);
        let streamed = first_non_utf8(bytes.as_slice(), "f").unwrap();
        assert_eq!(streamed.as_ref().map(|e| (e.line, e.column)), Some((2, 2)));
        assert_eq!(streamed, utf8_text(bytes, "f").err());
    }
}
