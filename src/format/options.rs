//! What reading a model file is told: the model file formats ([`Format`], by name, extension
//! or first token) and the options of reading ([`LoadOptions`]).

use super::error::FormatError;
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

/// The model formats as the `--model-format` option takes them.
pub(crate) const FORMAT_CHOICES: &str = "aut|dot|yaml|json|fsm";

/// The format of the model file `path`: `opts.format`, else the one its extension stands for.
pub fn format_of(path: &str, opts: &LoadOptions) -> Result<Format, FormatError> {
    opts.format
        .or_else(|| Format::from_path(path))
        .ok_or_else(|| {
            FormatError::Usage(format!(
                "cannot tell the format of {path} from its extension; use --model-format {FORMAT_CHOICES}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
