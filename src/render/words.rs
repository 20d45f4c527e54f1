//! The `words` format: one test per line, its inputs separated by single spaces (the format other
//! FSM test tools print). Only inputs are written; outputs follow from the specification.
//!
//! A words file starts with `#` comment lines naming the format (`# ncomplete words v1`), the
//! model, method, bound and guarantee, and ends with the line `# end: K tests`. A file cut short
//! (a killed writer, a full disk) lacks the end marker or has fewer tests than it states, and
//! [`read_words`] refuses it with the line where it stops. An input name that is empty, contains
//! whitespace, a quote or a backslash, or starts with `#`, is written as a JSON string.

use crate::model::LabelId;
use crate::suite::json::{LINE_CHUNK, push_test_line};
use crate::suite::mealy::stream::word_steps;
use crate::suite::mealy::{MealySuite, SuiteStats, SuiteWords, WORD_CHUNK, WordBlock};
use crate::suite::names::{Shard, ShardPicker, shard_header, word_token};
use rayon::prelude::*;
use std::io::{self, Write};
use std::sync::Mutex;

/// The label names of input words, pre-rendered as tokens of the words format.
pub struct WordTokens {
    names: Vec<Vec<u8>>,
    /// When every token with its following space fits [`PADDED`] bytes: each one padded to
    /// that width with its length, so that a line is built by fixed-size copies (one move of
    /// [`PADDED`] bytes per input rather than a call copying a few bytes).
    padded: Option<Vec<([u8; PADDED], usize)>>,
    /// The bytes an input takes in a line on average over the alphabet: its token and a
    /// separator, rounded up.
    mean_width: usize,
}

/// The width of [`WordTokens`]' padded tokens.
const PADDED: usize = 16;

impl WordTokens {
    /// Tokens for words over inputs named `names` (indexed by input id).
    pub fn new(names: &[String]) -> Self {
        let names: Vec<Vec<u8>> = names.iter().map(|n| word_token(n).into_bytes()).collect();
        let padded = names
            .iter()
            .map(|name| {
                let mut token = [0u8; PADDED];
                let spaced = token.get_mut(..=name.len())?;
                spaced[..name.len()].copy_from_slice(name);
                spaced[name.len()] = b' ';
                Some((token, name.len() + 1))
            })
            .collect();
        let total: usize = names.iter().map(|name| name.len() + 1).sum();
        WordTokens {
            mean_width: total.div_ceil(names.len().max(1)),
            names,
            padded,
        }
    }

    /// The bytes [`WordTokens::push_line`] appends for a word of `len` inputs, estimated from
    /// the mean width of a token (to reserve buffers).
    pub fn line_estimate(&self, len: usize) -> usize {
        len * self.mean_width + 1
    }

    /// Appends the line of one test to `buf`.
    pub fn push_line(&self, buf: &mut Vec<u8>, word: &[LabelId]) {
        let Some(padded) = &self.padded else {
            for (k, a) in word.iter().enumerate() {
                if k > 0 {
                    buf.push(b' ');
                }
                buf.extend_from_slice(&self.names[a.index()]);
            }
            buf.push(b'\n');
            return;
        };
        if word.is_empty() {
            buf.push(b'\n');
            return;
        }
        for a in word {
            let (token, len) = &padded[a.index()];
            let end = buf.len() + len;
            buf.extend_from_slice(token);
            buf.truncate(end);
        }
        // The space after the last token ends the line.
        if let Some(last) = buf.last_mut() {
            *last = b'\n';
        }
    }
}

/// The file formats a Mealy suite can be written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MealySuiteFormat {
    /// One test per line, inputs separated by spaces.
    Words,
    /// Suite JSON v1 (send/expect chains).
    Json,
}

/// Streams a Mealy suite in `format` to `out` and returns its statistics.
pub fn write_mealy_suite<W: Write>(
    out: W,
    suite: &MealySuite,
    format: MealySuiteFormat,
) -> io::Result<SuiteStats> {
    write_mealy_suite_with(out, suite, format, None, &mut |_| {})
}

/// [`write_mealy_suite`], only the tests of `shard` when given (the statistics count the tests
/// written), calling `tick` with the number of tests generated (those of every shard) after
/// every chunk of at least [`LINE_CHUNK`] more, and once at the end.
///
/// The tests are independent, so the stream is a pipeline of chunks of generated tests
/// ([`SuiteWords::next_blocks`]): while the calling thread writes chunk `k`, the rayon pool renders chunk `k + 1` (in
/// tasks of [`RENDER_TASK`] tests, each into a buffer of its own) and generates chunk `k + 2`.
/// Chunks are written whole and in order, so the bytes do not depend on the thread count.
pub fn write_mealy_suite_with<W: Write>(
    out: W,
    suite: &MealySuite,
    format: MealySuiteFormat,
    shard: Option<Shard>,
    tick: &mut dyn FnMut(u64),
) -> io::Result<SuiteStats> {
    write_in_chunks(out, suite, format, shard, tick, STREAM_CHUNK)
}

/// [`write_mealy_suite_with`] with chunks of about `chunk` generated words (the bytes written
/// do not depend on it).
fn write_in_chunks<W: Write>(
    out: W,
    suite: &MealySuite,
    format: MealySuiteFormat,
    shard: Option<Shard>,
    tick: &mut dyn FnMut(u64),
    chunk: usize,
) -> io::Result<SuiteStats> {
    let header = suite.header();
    let tokens = WordTokens::new(suite.spec().inputs.names());
    let mut sink = match format {
        MealySuiteFormat::Words => {
            let mut out = out;
            out.write_all(words_header(suite, shard).as_bytes())?;
            TestSink::Words(out)
        }
        MealySuiteFormat::Json => TestSink::Json(crate::suite::SuiteWriter::begin(
            out,
            &shard_header(&header, shard),
        )?),
    };
    let spare = SpareBuffers::default();
    // The buffers of `blocks`, the first word at position `first` of the file, one per render
    // task of at most `RENDER_TASK` words of one block, with their test counts.
    let render = |blocks: &[WordBlock], first: usize| -> io::Result<Vec<(Vec<u8>, usize)>> {
        let mut tasks = Vec::new();
        let mut position = first;
        for block in blocks {
            for start in (0..block.len()).step_by(RENDER_TASK) {
                let end = block.len().min(start + RENDER_TASK);
                tasks.push((block, start..end, position + start));
            }
            position += block.len();
        }
        tasks
            .into_par_iter()
            .map(|(block, range, position)| {
                let mut buf = spare.take();
                if format == MealySuiteFormat::Words {
                    let bytes = range
                        .clone()
                        .map(|k| tokens.line_estimate(block.word(k).len()));
                    buf.reserve_exact(bytes.sum::<usize>() + PADDED);
                }
                let tests = range.len();
                for (k, word) in range.map(|k| block.word(k)).enumerate() {
                    match format {
                        MealySuiteFormat::Words => tokens.push_line(&mut buf, word),
                        MealySuiteFormat::Json => push_test_line(
                            &mut buf,
                            position + k,
                            &header.model,
                            &suite.test_case(word),
                        )?,
                    }
                }
                Ok((buf, tests))
            })
            .collect()
    };
    let mut stream = TestStream {
        words: suite.words().chunked(chunk),
        picker: shard.map(ShardPicker::new),
        stats: SuiteStats::default(),
        generated: 0,
    };
    let mut next = stream.gather();
    let mut rendered: Option<Rendered> = None;
    let mut ticked = 0;
    loop {
        if stream.generated >= ticked + LINE_CHUNK as u64 {
            ticked = stream.generated;
            tick(ticked);
        }
        if next.blocks.is_empty() && rendered.is_none() {
            break;
        }
        let current = std::mem::take(&mut next);
        let to_write = rendered.take();
        let mut written = Ok(());
        rayon::in_place_scope(|scope| {
            if !current.blocks.is_empty() {
                let (slot, render) = (&mut rendered, &render);
                scope.spawn(move |_| *slot = Some(render(&current.blocks, current.first)));
            }
            let (slot, stream) = (&mut next, &mut stream);
            scope.spawn(move |_| *slot = stream.gather());
            if let Some(chunk) = to_write {
                written = sink.write(chunk, &spare);
            }
        });
        written?;
    }
    match sink {
        TestSink::Words(mut out) => {
            writeln!(out, "{END_PREFIX}{} tests", stream.stats.tests)?;
            out.flush()?;
        }
        TestSink::Json(writer) => {
            writer.finish()?;
        }
    }
    tick(stream.generated);
    Ok(stream.stats)
}

/// Tests rendered by one parallel task of [`write_mealy_suite_with`].
pub const RENDER_TASK: usize = 256;

/// Words generated per chunk of [`write_mealy_suite_with`] (the bytes written do not depend on
/// it), an eighth of [`WORD_CHUNK`]: the words, render buffers and filter flags of three chunks
/// are in flight at once, and the allocator keeps freed pages resident for a while, so the
/// stream's peak grew with the chunk. `scripts/peak_rss` (issue 44, docs/src/benchmarks.md):
/// ESM `hads` E=0 peaked at 52-57 MiB with chunks of 32,768 words, 41-45 with 8,192, 32-36
/// with 4,096 (the previous main 33.7); E=1 at 62-82, 40-44 and 38-40 MiB (the previous main
/// 41-46), with no more CPU time (E=1: 2.0-2.1 user seconds against 2.2-2.6).
const STREAM_CHUNK: usize = WORD_CHUNK / 8;

/// The render buffers of chunks already written, for the render tasks of later chunks.
///
/// The render buffers of a chunk are megabytes in blocks of tens of kilobytes, allocated on the
/// pool's threads and freed by the writing thread; freed and allocated again for every chunk,
/// they left that much memory resident in the allocator's pages of every thread (freed pages are
/// returned to the system only after a delay), which made most of the words stream's peak above
/// its live data (issue 44). Reused, the buffers of at most the chunks in flight exist at once.
#[derive(Default)]
struct SpareBuffers(Mutex<Vec<Vec<u8>>>);

impl SpareBuffers {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// An empty buffer: one of a chunk already written when there is one, else a new one.
    fn take(&self) -> Vec<u8> {
        let mut buffer = self.lock().pop().unwrap_or_default();
        buffer.clear();
        buffer
    }

    /// Keeps `buffers` (written) for later render tasks.
    fn put_back(&self, buffers: impl IntoIterator<Item = Vec<u8>>) {
        self.lock().extend(buffers);
    }
}

/// The generation side of [`write_mealy_suite_with`]: the suite's words, the shard they are
/// assigned to, the figures of the tests taken.
struct TestStream<'a> {
    words: SuiteWords<'a>,
    picker: Option<ShardPicker>,
    stats: SuiteStats,
    generated: u64,
}

/// The words of one chunk taken by the shard, the first at position `first` of the file.
#[derive(Default)]
struct Chunk {
    blocks: Vec<WordBlock>,
    first: usize,
}

/// A chunk rendered: one buffer per render task with its test count (or the first error).
type Rendered = io::Result<Vec<(Vec<u8>, usize)>>;

impl TestStream<'_> {
    /// The next chunk of generated tests ([`SuiteWords::next_chunk`]), those of other shards
    /// dropped; every test is counted and assigned to a shard in suite order.
    fn gather(&mut self) -> Chunk {
        let first = self.stats.tests as usize;
        let mut blocks = self.words.next_blocks();
        for block in &mut blocks {
            self.generated += block.len() as u64;
            if let Some(picker) = &mut self.picker {
                let index = picker.shard().index;
                block.retain(|_, word| picker.assign(word_steps(word)) == index);
            }
            for word in block.iter() {
                self.stats.add(word);
            }
        }
        blocks.retain(|block| !block.is_empty());
        Chunk { blocks, first }
    }
}

/// Where [`write_mealy_suite_with`] writes rendered tests.
enum TestSink<W: Write> {
    Words(W),
    Json(crate::suite::SuiteWriter<W>),
}

impl<W: Write> TestSink<W> {
    /// Writes the buffers of `chunk` in order and puts them into `spare` for later chunks.
    fn write(&mut self, chunk: Rendered, spare: &SpareBuffers) -> io::Result<()> {
        let buffers = chunk?;
        match self {
            // A chunk (megabytes) exceeds the output's buffer: its buffers go to the file in
            // vectored writes rather than being copied into the buffer first.
            TestSink::Words(out) => {
                crate::output::write_all_vectored(out, buffers.iter().map(|(b, _)| &b[..]))
            }
            TestSink::Json(writer) => writer.write_rendered_all(&buffers),
        }?;
        spare.put_back(buffers.into_iter().map(|(buffer, _)| buffer));
        Ok(())
    }
}

/// The first line of a words file.
pub const WORDS_MAGIC: &str = "# ncomplete words v1";
/// The start of the last line of a words file, followed by the test count and ` tests`.
const END_PREFIX: &str = "# end: ";

/// A header value on one line: control characters (newlines) become spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The comment lines that open a words file (with `# shard: K/N` for a shard).
fn words_header(suite: &MealySuite, shard: Option<Shard>) -> String {
    let mut header = format!(
        "{WORDS_MAGIC}\n# model: {}\n# method: {}\n# bound: {} states ({} extra)\n# guarantee: {}\n",
        one_line(&suite.spec().name),
        suite.header().method,
        suite.bound(),
        suite.bound() - suite.spec().num_states(),
        one_line(&suite.guarantee()),
    );
    if let Some(shard) = shard {
        header.push_str(&format!("# shard: {}\n", shard.label()));
    }
    header
}

/// A words file as read back: its header fields and its tests as input names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordsFile {
    /// The `# key: value` lines of the header, in file order.
    pub header: Vec<(String, String)>,
    /// The tests, each a sequence of input names.
    pub tests: Vec<Vec<String>>,
}

impl WordsFile {
    /// The value of header field `key`.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A malformed or truncated words file.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{line}:{column}: {message}")]
pub struct WordsError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

fn words_error(line: usize, column: usize, message: impl Into<String>) -> WordsError {
    WordsError {
        line,
        column,
        message: message.into(),
    }
}

/// Whether `text` looks like a words file (rather than suite JSON).
pub fn is_words(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').starts_with(WORDS_MAGIC)
}

/// Why reading a words stream stopped.
#[derive(Debug)]
pub enum WordsReadError<E> {
    /// The file is not a complete words file.
    Format(WordsError),
    /// The stream could not be read.
    Io(io::Error),
    /// The consumer of the tests returned an error.
    Consumer(E),
}

/// Reads a words file, checking its first line, its end marker and its test count.
pub fn read_words(text: &str) -> Result<WordsFile, WordsError> {
    let mut tests = Vec::new();
    let mut keep = |_: &[(String, String)], test: Vec<String>| {
        tests.push(test);
        Ok::<(), std::convert::Infallible>(())
    };
    match read_words_stream(text.as_bytes(), &mut keep) {
        Ok(header) => Ok(WordsFile { header, tests }),
        Err(WordsReadError::Format(e)) => Err(e),
        Err(WordsReadError::Io(e)) => Err(words_error(1, 1, e.to_string())),
        Err(WordsReadError::Consumer(never)) => match never {},
    }
}

/// The consumer of [`read_words_stream`]: the header fields read so far and the input names of
/// the next test.
pub type WordsConsumer<'a, E> = dyn FnMut(&[(String, String)], Vec<String>) -> Result<(), E> + 'a;

/// Reads a words file line by line without holding it: each test's input names are handed to
/// `each` (with the header fields read before it) as soon as its line is read; the first line,
/// the end marker and the test count are checked (so a consumer sees every test of a file cut
/// short before the error). Returns the header fields.
pub fn read_words_stream<R: io::BufRead, E>(
    mut reader: R,
    each: &mut WordsConsumer<'_, E>,
) -> Result<Vec<(String, String)>, WordsReadError<E>> {
    let format =
        |line, column, message: String| WordsReadError::Format(words_error(line, column, message));
    let mut raw = Vec::new();
    let mut read_line = |raw: &mut Vec<u8>| {
        raw.clear();
        reader.read_until(b'\n', raw).map_err(WordsReadError::Io)
    };
    read_line(&mut raw)?;
    let first = raw.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&raw);
    if first.trim_ascii_end() != WORDS_MAGIC.as_bytes() {
        return Err(format(
            1,
            1,
            format!("expected `{WORDS_MAGIC}` (a words file written by ncomplete)"),
        ));
    }
    let mut header = Vec::new();
    let mut tests = 0usize;
    let mut ended = false;
    let mut line_no = 1;
    loop {
        if read_line(&mut raw)? == 0 {
            break;
        }
        line_no += 1;
        if ended {
            return Err(format(line_no, 1, "text after the end marker".into()));
        }
        let Some(line) = raw.strip_suffix(b"\n") else {
            return Err(format(
                line_no,
                raw.len() + 1,
                "the file ends inside a line: it was cut short".into(),
            ));
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = std::str::from_utf8(line)
            .map_err(|e| format(line_no, e.valid_up_to() + 1, "expected UTF-8 text".into()))?;
        if let Some(count) = line.strip_prefix(END_PREFIX) {
            let stated = count
                .strip_suffix(" tests")
                .and_then(|c| c.parse::<usize>().ok())
                .ok_or_else(|| {
                    format(line_no, END_PREFIX.len() + 1, "expected `K tests`".into())
                })?;
            if stated != tests {
                return Err(format(
                    line_no,
                    END_PREFIX.len() + 1,
                    format!("the end marker states {stated} tests, but the file holds {tests}"),
                ));
            }
            ended = true;
        } else if let Some(comment) = line.strip_prefix('#') {
            if tests == 0
                && let Some((key, value)) = comment.trim_start().split_once(": ")
            {
                header.push((key.to_owned(), value.to_owned()));
            }
        } else {
            let word = parse_word(line, line_no).map_err(WordsReadError::Format)?;
            tests += 1;
            each(&header, word).map_err(WordsReadError::Consumer)?;
        }
    }
    if !ended {
        return Err(format(
            line_no + 1,
            1,
            format!(
                "no end marker `{END_PREFIX}K tests` after {tests} tests: the file was cut short"
            ),
        ));
    }
    Ok(header)
}

/// The input names of one words line.
fn parse_word(line: &str, line_no: usize) -> Result<Vec<String>, WordsError> {
    let mut names = Vec::new();
    let mut rest = line;
    let mut column = 1;
    while !rest.is_empty() {
        if rest.starts_with('"') {
            let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
            let name = match stream.next() {
                Some(Ok(name)) => name,
                _ => return Err(words_error(line_no, column, "expected a JSON string")),
            };
            let used = stream.byte_offset();
            names.push(name);
            rest = &rest[used..];
            column += used;
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            if end == 0 {
                return Err(words_error(line_no, column, "expected an input name"));
            }
            names.push(rest[..end].to_owned());
            rest = &rest[end..];
            column += end;
        }
        if let Some(r) = rest.strip_prefix(' ') {
            if r.is_empty() {
                return Err(words_error(line_no, column + 1, "expected an input name"));
            }
            rest = r;
            column += 1;
        } else if !rest.is_empty() {
            return Err(words_error(line_no, column, "expected a space"));
        }
    }
    Ok(names)
}

/// The suite of a words file over the Mealy machine `spec` it was generated from: each word as a
/// send/expect chain with the specification's outputs.
pub fn words_suite(
    file: &WordsFile,
    spec: &crate::model::Mealy,
) -> Result<(crate::suite::SuiteHeader, Vec<crate::suite::TestCase>), String> {
    let cases = file
        .tests
        .iter()
        .enumerate()
        .map(|(k, names)| word_test(spec, k, names))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((words_suite_header(&file.header, spec), cases))
}

/// Test `k` (0-based) of a words file, the word `names`, as a send/expect chain with the outputs
/// of `spec`.
pub fn word_test(
    spec: &crate::model::Mealy,
    k: usize,
    names: &[String],
) -> Result<crate::suite::TestCase, String> {
    let word = names
        .iter()
        .map(|n| {
            spec.inputs.get(n).ok_or_else(|| {
                format!(
                    "test {} uses input `{}` that {} does not have",
                    k + 1,
                    crate::format::position::excerpt(n),
                    spec.name
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let outs = spec.run(spec.initial(), &word);
    if outs.len() < word.len() {
        return Err(format!(
            "test {}: {} has no transition for its input {}",
            k + 1,
            spec.name,
            outs.len() + 1
        ));
    }
    let steps: Vec<(LabelId, LabelId)> = word.iter().copied().zip(outs).collect();
    Ok(crate::suite::TestCase::chain(
        crate::suite::names::word_name(spec.inputs.names(), &word),
        &steps,
    ))
}

/// The suite header of a words file with header fields `fields` over `spec`.
pub fn words_suite_header(
    fields: &[(String, String)],
    spec: &crate::model::Mealy,
) -> crate::suite::SuiteHeader {
    let field = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let mut extra = serde_json::Map::new();
    extra.insert("source".into(), "words".into());
    crate::suite::SuiteHeader {
        model: crate::suite::SuiteModel {
            name: spec.name.clone(),
            inputs: spec.inputs.names().to_vec(),
            outputs: spec.outputs.names().to_vec(),
            quiescence: None,
        },
        method: field("method").unwrap_or("words").to_owned(),
        n: field("bound")
            .and_then(|b| b.split(' ').next())
            .and_then(|b| b.parse().ok()),
        guarantee: field("guarantee").unwrap_or_default().to_owned(),
        extra,
    }
}

/// Streams a Mealy suite in the words format.
pub fn write_words<W: Write>(out: W, suite: &MealySuite) -> io::Result<SuiteStats> {
    write_mealy_suite(out, suite, MealySuiteFormat::Words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::mealy_from_named;
    use crate::suite::mealy::{MealyMethod, MealySuiteOptions};

    /// A render buffer put back after writing is handed out again, emptied, with its memory
    /// (the stream reuses its buffers rather than allocating them per chunk); a new one only
    /// when none is spare.
    #[test]
    fn written_buffers_are_handed_out_again_empty() {
        let spare = SpareBuffers::default();
        assert_eq!(spare.take().capacity(), 0);
        let mut written = b"a b\n".repeat(1000);
        written.reserve_exact(10);
        let (pointer, capacity) = (written.as_ptr(), written.capacity());
        spare.put_back([written]);
        let again = spare.take();
        assert!(again.is_empty());
        assert_eq!((again.as_ptr(), again.capacity()), (pointer, capacity));
        assert!(spare.lock().is_empty());
    }

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
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(body, ["on on on", "on off on", "off on"]);
        assert!(text.starts_with("# ncomplete words v1\n# model: m\n# method: w\n# bound: 2 states (0 extra)\n# guarantee: m-complete"));
        assert!(text.ends_with("off on\n# end: 3 tests\n"));
        let read = read_words(&text).unwrap();
        assert_eq!(read.field("method"), Some("w"));
        assert_eq!(read.tests.len(), 3);
        let (header, cases) = words_suite(&read, &m).unwrap();
        assert_eq!(header.n, Some(2));
        assert_eq!(
            cases[1],
            suite.test_case(&[LabelId(0), LabelId(1), LabelId(0)])
        );
        assert_eq!(stats.tests, 3);
        assert_eq!(stats.symbols, 8);
        assert_eq!(stats.longest, 3);
        let mut json = Vec::new();
        let jstats = write_mealy_suite(&mut json, &suite, MealySuiteFormat::Json).unwrap();
        assert_eq!(jstats, stats);
        let (header, tests) =
            crate::suite::read_suite(std::str::from_utf8(&json).unwrap()).unwrap();
        assert_eq!(header.method, "w");
        assert_eq!(header.n, Some(2));
        assert_eq!(tests.len(), 3);
        assert_eq!(
            tests[0],
            suite.test_case(&[LabelId(0), LabelId(0), LabelId(0)])
        );
    }

    #[test]
    fn odd_input_names_are_quoted_and_read_back() {
        let names = ["a b", "#x", "", "q\"", "plain", "back\\slash"];
        let words = [vec![0u32, 1, 2], vec![3, 4, 5], vec![]];
        let mut out = Vec::new();
        let padded = WordTokens::new(&names.map(String::from));
        assert!(padded.padded.is_some());
        // A name too long for the padded tokens takes the other path, to the same bytes.
        let mut with_long = names.map(String::from).to_vec();
        with_long.push("x".repeat(PADDED));
        let unpadded = WordTokens::new(&with_long);
        assert!(unpadded.padded.is_none());
        for word in &words {
            let word: Vec<LabelId> = word.iter().map(|&i| LabelId(i)).collect();
            let mut line = Vec::new();
            unpadded.push_line(&mut line, &word);
            padded.push_line(&mut out, &word);
            assert!(out.ends_with(&line), "{line:?}");
        }
        let text = format!(
            "{WORDS_MAGIC}\n{}# end: 3 tests\n",
            String::from_utf8(out).unwrap()
        );
        let read = read_words(&text).unwrap();
        let expected: Vec<Vec<String>> = words
            .iter()
            .map(|w| w.iter().map(|&i| names[i as usize].to_owned()).collect())
            .collect();
        assert_eq!(read.tests, expected);
    }

    #[test]
    fn truncated_and_malformed_files_are_refused_with_positions() {
        let whole = "# ncomplete words v1\n# method: w\na b\nc\n# end: 2 tests\n";
        assert_eq!(read_words(whole).unwrap().tests.len(), 2);
        for cut in 0..whole.len() {
            let e = read_words(&whole[..cut]).unwrap_err();
            assert!(e.line >= 1 && e.column >= 1, "{cut}: {e}");
        }
        let e = read_words("# ncomplete words v1\na  b\n# end: 1 tests\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        let e = read_words("# ncomplete words v1\n# end: 0 tests\nx\n").unwrap_err();
        assert_eq!(e.message, "text after the end marker");
        let e = read_words("a b\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
    }

    #[test]
    fn progress_counts_every_generated_test_of_a_shard_and_ends_at_that_count() {
        use crate::identify::mealy::tests_support::random_mealy;
        let m = random_mealy(3, 10, 4, 2);
        let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::W, 3)).unwrap();
        let whole = write_mealy_suite(io::sink(), &suite, MealySuiteFormat::Words).unwrap();
        // A tick on the way, and an estimate that prefix removal makes too large.
        assert!(whole.tests > 4_096, "{}", whole.tests);
        assert!(whole.tests < suite.size_before_pruning().tests);
        let mut written = 0;
        for index in 1..=3 {
            let shard = Shard { index, count: 3 };
            let mut ticks = Vec::new();
            let stats = write_mealy_suite_with(
                io::sink(),
                &suite,
                MealySuiteFormat::Words,
                Some(shard),
                &mut |n| ticks.push(n),
            )
            .unwrap();
            assert!(ticks.len() >= 2, "{ticks:?}");
            assert!(ticks.is_sorted(), "{ticks:?}");
            assert_eq!(ticks.last(), Some(&whole.tests));
            assert!(stats.tests < whole.tests);
            written += stats.tests;
        }
        assert_eq!(written, whole.tests);
    }

    /// A sink that takes `left` bytes, then fails every write.
    struct FailingSink {
        left: usize,
    }

    impl std::io::Write for FailingSink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Err(std::io::Error::other("disk full"));
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_write_stops_the_stream_with_its_error_on_any_pool() {
        use crate::identify::mealy::tests_support::random_mealy;
        let m = random_mealy(5, 10, 4, 2);
        let suite = MealySuite::new(&m, MealySuiteOptions::new(MealyMethod::W, 3)).unwrap();
        let mut whole = Vec::new();
        write_in_chunks(
            &mut whole,
            &suite,
            MealySuiteFormat::Words,
            None,
            &mut |_| {},
            64,
        )
        .unwrap();
        // Failing in the header, in the first chunk, in a later chunk and at the end line.
        for left in [10, 200, whole.len() / 2, whole.len() - 5] {
            for threads in [1, 2, 4] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let result = pool.install(|| {
                    let sink = FailingSink { left };
                    write_in_chunks(sink, &suite, MealySuiteFormat::Words, None, &mut |_| {}, 64)
                });
                let error = result.expect_err("the write failed");
                assert_eq!(
                    error.to_string(),
                    "disk full",
                    "{left} bytes, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn bytes_are_identical_for_one_two_and_four_threads_and_any_chunk_size() {
        use crate::identify::mealy::tests_support::random_mealy;
        let m = random_mealy(5, 10, 4, 2);
        // Chunks of 1,024 words, so that W's suite spans more than two and writing, rendering
        // and generating overlap; the default chunk size too, for the path users take.
        const CHUNK: usize = 1024;
        for method in [MealyMethod::W, MealyMethod::Hads, MealyMethod::H] {
            let suite = MealySuite::new(&m, MealySuiteOptions::new(method, 3)).unwrap();
            for format in [MealySuiteFormat::Words, MealySuiteFormat::Json] {
                for shard in [None, Some(Shard { index: 2, count: 3 })] {
                    let written = |threads: usize, chunk: usize| {
                        let pool = rayon::ThreadPoolBuilder::new()
                            .num_threads(threads)
                            .build()
                            .unwrap();
                        pool.install(|| {
                            let mut out = Vec::new();
                            let mut ticks = Vec::new();
                            let stats = write_in_chunks(
                                &mut out,
                                &suite,
                                format,
                                shard,
                                &mut |n| ticks.push(n),
                                chunk,
                            )
                            .unwrap();
                            (out, stats, ticks)
                        })
                    };
                    let case = format!("{method:?} {format:?} {shard:?}");
                    let one = written(1, CHUNK);
                    // W's suite spans more than two chunks; the smaller suites of the other
                    // methods are compared all the same.
                    let generated = *one.2.last().unwrap();
                    if method == MealyMethod::W {
                        assert!(generated > 2 * CHUNK as u64, "{case}: {generated}");
                    }
                    for threads in [2, 4] {
                        assert!(one == written(threads, CHUNK), "{case}: {threads} threads");
                    }
                    // The progress ticks follow the chunks; the bytes and figures do not.
                    let (out, stats, _) = written(2, WORD_CHUNK);
                    assert!(one.0 == out && one.1 == stats, "{case}: default chunks");
                }
            }
        }
    }

    #[test]
    fn mealy_cost_bounds_hold_for_the_written_suites() {
        use crate::identify::mealy::tests_support::random_mealy;
        use crate::suite::costs::Figure;
        let bound = |f: Figure| match f {
            Figure::AtMost(x) => x,
            other => panic!("expected an upper bound, got {other:?}"),
        };
        for seed in 0..12 {
            let m = random_mealy(seed, 5, 3, 2);
            for method in [MealyMethod::W, MealyMethod::Hsi, MealyMethod::Hads] {
                for extra in 0..=2 {
                    for prune in [true, false] {
                        let options = MealySuiteOptions {
                            method,
                            extra_states: extra,
                            prune_prefixes: prune,
                        };
                        let suite = MealySuite::new(&m, options).unwrap();
                        for format in [MealySuiteFormat::Json, MealySuiteFormat::Words] {
                            let costs = suite.costs(format == MealySuiteFormat::Json);
                            let mut out = Vec::new();
                            let stats = write_mealy_suite(&mut out, &suite, format).unwrap();
                            assert!(stats.tests as u128 <= bound(costs.tests));
                            assert!(2 * stats.symbols as u128 <= bound(costs.steps));
                            assert!(2 * stats.longest as u128 <= bound(costs.longest));
                            let bytes = bound(costs.bytes);
                            assert!(out.len() as u128 <= bytes, "{} > {bytes}", out.len());
                            if !prune {
                                // Without pruning the bound is within a small factor.
                                assert!(bytes <= 4 * out.len() as u128, "{bytes} vs {}", out.len());
                            }
                        }
                    }
                }
            }
        }
    }
}
