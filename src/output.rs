//! Files written whole or not at all.
//!
//! Every file ncomplete writes goes through this module: it is written to a temporary file with a
//! unique name in the same directory (so the final `rename` never crosses a file system), flushed
//! and synced, and only then renamed over the target. A crash, a kill or an error leaves the
//! previous file untouched; concurrent writers of the same target each write their own temporary
//! file, and the last rename wins with a whole file. `-` names standard output.
//!
//! What `--out` names is left what it was ([`AtomicFile::create`]):
//! - a symbolic link is followed (to the end of a chain) and the file it names is replaced, so
//!   the link stays a link; a dangling link gets its file created;
//! - a regular file with several hard links is generated into a temporary file as usual and,
//!   on commit, copied into the target (truncated and rewritten), so every name keeps sharing
//!   one file; only this copy is not atomic (a crash during it leaves a partial file);
//! - a read-only regular file (no write permission bit, or not writable by this user) is
//!   refused with an error, even for root, instead of being replaced by a rename;
//! - anything else that is not a directory (`/dev/null`, `/dev/stdout`, a terminal, a FIFO, a
//!   socket) is opened as given and written in place as the output goes: it is never replaced
//!   by a regular file, a FIFO's reader gets the data, and an error midway leaves what was
//!   written so far (as for standard output).
//!
//! Temporary files and directories are registered with [`crate::interrupt`], which removes them
//! when the process is stopped by SIGINT, SIGTERM or SIGHUP.
//!
//! A directory of files (a rendering, a set of mutants) is built in a temporary directory beside
//! the target and swapped in as a whole, so no file of an earlier rendering survives next to the
//! new ones. An existing directory is only replaced when it is empty or holds the marker file
//! [`DIR_MARKER`] that this module leaves in every directory it writes, so a user's directory is
//! never deleted by mistake. The marker records what the directory holds (`# format: python`)
//! and lists the files ncomplete wrote; a directory holding another format (a Cargo package
//! where pytest files are rendered) is replaced only when forced. Files a user added to the
//! directory since (an adapter test, a Cargo `target/`) are moved into the new directory unless
//! the new rendering writes a file of the same name.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a file or directory could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A file could not be written (or a directory read, made or swapped in).
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// An output that would destroy something: an input, a user's directory, a rendering of
    /// another kind, or what is not a directory where one goes.
    #[error("{0}")]
    Refused(String),
}

impl OutputError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<String>, source: io::Error) -> Self {
        OutputError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias for writing outputs.
pub type Result<T, E = OutputError> = std::result::Result<T, E>;

/// The file that marks a directory as written by ncomplete, so it may be replaced as a whole.
pub const DIR_MARKER: &str = ".ncomplete-output";

/// Distinguishes the temporary names one process creates.
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A fresh name `.NAME.PID-SEQ-NANOS.tmp` beside `target`.
fn temp_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_owned());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let seq = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let file = format!(".{name}.{}-{seq}-{nanos}.tmp", std::process::id());
    match target.parent() {
        Some(dir) => dir.join(file),
        None => PathBuf::from(file),
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Syncs a directory so a rename in it is durable (best effort: not every platform can).
fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// How an [`AtomicFile`] reaches its target.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Placement {
    /// The temporary file is renamed over the target (a new or a regular file).
    Rename,
    /// The temporary file is copied into the target, which keeps its inode (a regular file with
    /// several hard links: a rename would cut them).
    CopyIn,
    /// Written straight to the target, no temporary file (a device, a FIFO, a socket: replacing
    /// one by a regular file would break whatever uses it).
    InPlace,
}

/// A file being written to a temporary name; [`AtomicFile::commit`] puts it in place, dropping
/// it without a commit removes it. What the target is decides how (see the module doc).
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    temp: Option<PathBuf>,
    placement: Placement,
    out: Option<BufWriter<File>>,
}

/// `path` with its symbolic links followed to the file they name (which may not exist yet); a
/// path that is not a link comes back unchanged. Gives up (ELOOP) after 40 links.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = if link.is_absolute() {
                    link
                } else {
                    parent_dir(&current).join(link)
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(
        "too many levels of symbolic links; give the file itself",
    ))
}

/// Whether the process may write `path` (for root too: a file without write permission bits
/// is read-only by intent, so it is not replaced).
fn writable(path: &Path, meta: &fs::Metadata) -> bool {
    if meta.permissions().readonly() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: access(2) with a valid NUL-terminated path.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

/// How many names the regular file `meta` has.
fn hard_links(meta: &fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        meta.nlink()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

impl AtomicFile {
    /// Starts writing `target`. A new or regular file (a symbolic link is followed to the file
    /// it names) is written to a temporary file beside it and changes only on
    /// [`AtomicFile::commit`]; a read-only file is refused; anything else that is not a
    /// directory (a device such as `/dev/null`, a FIFO) is written in place as the output goes.
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let given = target.as_ref();
        let meta = match fs::metadata(given) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        let placement = match &meta {
            Some(m) if m.is_dir() => return Err(io::Error::other("is a directory")),
            Some(m) if !m.is_file() => Placement::InPlace,
            Some(m) if hard_links(m) > 1 => Placement::CopyIn,
            _ => Placement::Rename,
        };
        if placement == Placement::InPlace {
            // Opened as given: `/dev/stdout` names the descriptor, not a path to replace.
            let file = OpenOptions::new().write(true).open(given)?;
            return Ok(AtomicFile {
                target: given.to_path_buf(),
                temp: None,
                placement,
                out: Some(BufWriter::with_capacity(1 << 20, file)),
            });
        }
        let target = follow_links(given)?;
        if let Some(m) = &meta
            && !writable(&target, m)
        {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "the file is read-only, so it is not replaced; make it writable or choose \
                 another output",
            ));
        }
        loop {
            let temp = temp_name(&target);
            let opened = crate::interrupt::guarded(|pending| {
                let file = OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&temp)?;
                pending.add(&temp);
                Ok::<File, io::Error>(file)
            });
            match opened {
                Ok(file) => {
                    // Keep the permissions of the file being replaced.
                    if let Some(meta) = &meta {
                        let _ = file.set_permissions(meta.permissions());
                    }
                    return Ok(AtomicFile {
                        target,
                        temp: Some(temp),
                        placement,
                        out: Some(BufWriter::with_capacity(1 << 20, file)),
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The file this will replace (symbolic links followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flushes and syncs the output, then puts it in place: renames the temporary file over the
    /// target, or copies it into a target with several hard links.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(out) = self.out.take() else {
            return Err(io::Error::other("already committed"));
        };
        let file = out.into_inner().map_err(|e| e.into_error())?;
        let Some(temp) = self.temp.take() else {
            // In place: a device or FIFO may not support syncing; the data was written.
            let _ = file.sync_all();
            return Ok(());
        };
        file.sync_all()?;
        drop(file);
        let placed = crate::interrupt::guarded(|pending| {
            let placed = match self.placement {
                Placement::CopyIn => copy_into(&temp, &self.target),
                _ => fs::rename(&temp, &self.target),
            };
            if placed.is_ok() || fs::remove_file(&temp).is_ok() {
                pending.remove(&temp);
            }
            placed
        });
        placed?;
        sync_dir(parent_dir(&self.target));
        Ok(())
    }

    fn writer(&mut self) -> io::Result<&mut BufWriter<File>> {
        self.out
            .as_mut()
            .ok_or_else(|| io::Error::other("already committed"))
    }
}

/// Copies `temp` into the existing file `target` (truncated and rewritten, so its inode and
/// hard links stay), then removes `temp`.
fn copy_into(temp: &Path, target: &Path) -> io::Result<()> {
    let mut from = File::open(temp)?;
    let mut to = OpenOptions::new().write(true).truncate(true).open(target)?;
    io::copy(&mut from, &mut to)?;
    to.sync_all()?;
    fs::remove_file(temp)
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.writer()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer()?.write_all(buf)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.writer()?.write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer()?.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            drop(self.out.take());
            crate::interrupt::guarded(|pending| {
                let _ = fs::remove_file(&temp);
                pending.remove(&temp);
            });
        }
    }
}

/// Where a streamed output goes: standard output, or a file replaced whole on commit.
#[derive(Debug)]
pub enum Output {
    /// Standard output (`-`), buffered.
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A file written to a temporary name.
    File(AtomicFile),
}

impl Output {
    /// Opens `path` for writing (`-`: standard output). Nothing at `path` changes before
    /// [`Output::commit`].
    pub fn create(path: &str) -> Result<Output> {
        if path == "-" {
            return Ok(Output::Stdout(BufWriter::new(io::stdout().lock())));
        }
        AtomicFile::create(path)
            .map(Output::File)
            .map_err(|e| OutputError::io(path, e))
    }

    /// The name used in messages: the path, or `<stdout>`.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "<stdout>".to_owned(),
            Output::File(f) => f.target().display().to_string(),
        }
    }

    /// Finishes the output: flushes standard output, or renames the file into place.
    pub fn commit(self) -> Result<()> {
        let name = self.name();
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::File(f) => f.commit(),
        }
        .map_err(|e| OutputError::io(name, e))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(f) => f.write_all(buf),
        }
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write_vectored(bufs),
            Output::File(f) => f.write_vectored(bufs),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(f) => f.flush(),
        }
    }
}

/// Writes `bytes` to `path` (`-`: standard output), whole or not at all.
pub fn write_file(path: &str, bytes: &[u8]) -> Result<()> {
    let mut out = Output::create(path)?;
    out.write_all(bytes)
        .map_err(|e| OutputError::io(out.name(), e))?;
    out.commit()
}

/// Writes files that belong together (a model and its side file), each whole or not at all:
/// every file is written to its temporary name first, so an error while writing any of them
/// changes none; the renames come last, in order.
pub fn write_files_together(files: &[(&str, &[u8])]) -> Result<()> {
    let mut written = Vec::with_capacity(files.len());
    for &(path, bytes) in files {
        let mut f = AtomicFile::create(path).map_err(|e| OutputError::io(path, e))?;
        f.write_all(bytes).map_err(|e| OutputError::io(path, e))?;
        written.push((path, f));
    }
    for (path, f) in written {
        f.commit().map_err(|e| OutputError::io(path, e))?;
    }
    Ok(())
}

/// Creates the directory `root/rel` with the missing ones between, never `root` itself, under
/// the interrupt registry's lock. A writer filling a temporary directory ([`AtomicDir::path`])
/// creates its subdirectories with this: when an interrupt has removed the temporary directory,
/// the creation fails (`root` is gone) instead of making it again after the removal, which
/// would leave it behind when the process ends.
pub fn create_dirs_below(root: &Path, rel: &Path) -> io::Result<()> {
    crate::interrupt::guarded(|_| {
        let mut at = root.to_path_buf();
        for part in rel.components() {
            at.push(part);
            match fs::create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && at.is_dir() => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    })
}

/// [`write_file`] for a path that is not `-`.
pub fn write_path(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes)?;
    f.commit()
}

/// A directory being built beside its target; [`AtomicDir::commit`] swaps it in, dropping it
/// without a commit removes it.
#[derive(Debug)]
pub struct AtomicDir {
    target: PathBuf,
    temp: PathBuf,
    /// What the directory holds (`python`, `rust`, `mutants`, …), recorded in the marker.
    kind: String,
    /// Whether a directory marked with another kind may be replaced.
    force: bool,
    committed: bool,
}

impl AtomicDir {
    /// Starts building `target`, a directory holding `kind` (`python`, `rust`, `mutants`, …).
    /// Refused when `target` is a file, a directory that is neither empty nor marked as written
    /// by ncomplete, or (unless `force`) one marked as holding another kind.
    pub fn create(target: impl AsRef<Path>, kind: &str, force: bool) -> Result<AtomicDir> {
        let shown = target.as_ref().display().to_string();
        // A symbolic link to a directory stays a link: the directory it names is replaced.
        let target =
            follow_links(target.as_ref()).map_err(|e| OutputError::io(shown.clone(), e))?;
        check_replaceable(&target, kind, force)?;
        let parent = parent_dir(&target);
        fs::create_dir_all(parent).map_err(|e| OutputError::io(parent.display().to_string(), e))?;
        // Name the temporary directory after the target's final component, so `.` and `..`
        // targets get a sensible name.
        let base = fs::canonicalize(parent)
            .ok()
            .and_then(|p| {
                target
                    .file_name()
                    .map(|n| p.join(n))
                    .or_else(|| fs::canonicalize(&target).ok())
            })
            .unwrap_or_else(|| target.clone());
        loop {
            let temp = temp_name(&base);
            let created = crate::interrupt::guarded(|pending| {
                fs::create_dir(&temp)?;
                pending.add(&temp);
                Ok::<(), io::Error>(())
            });
            match created {
                Ok(()) => {
                    return Ok(AtomicDir {
                        target,
                        temp,
                        kind: kind.to_owned(),
                        force,
                        committed: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(OutputError::io(shown, e)),
            }
        }
    }

    /// The temporary directory to write into.
    pub fn path(&self) -> &Path {
        &self.temp
    }

    /// The directory this will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Marks the directory, then swaps it in: the old directory (if any) is moved aside, the new
    /// one renamed into place, files a user added to the old one moved over, and the old one
    /// removed.
    pub fn commit(mut self) -> Result<()> {
        let shown = self.target.display().to_string();
        let io = |e| OutputError::io(shown.clone(), e);
        let mut written = Vec::new();
        list_files(&self.temp, Path::new(""), &mut written).map_err(io)?;
        written.sort();
        let mut marker = format!("{MARKER_TEXT}{FORMAT_PREFIX}{}\n", self.kind);
        for f in &written {
            marker.push_str(f);
            marker.push('\n');
        }
        write_path(&self.temp.join(DIR_MARKER), marker.as_bytes()).map_err(io)?;
        sync_dir(&self.temp);
        // Checked again: another process may have put something there meanwhile.
        check_replaceable(&self.target, &self.kind, self.force)?;
        // Both renames under the registry lock: an interrupt never finds the target moved aside
        // and the new directory not yet in place.
        let old = crate::interrupt::guarded(|pending| {
            let old = if self.target.exists() {
                let old = temp_name(&self.temp);
                fs::rename(&self.target, &old)?;
                Some(old)
            } else {
                None
            };
            if let Err(e) = fs::rename(&self.temp, &self.target) {
                if let Some(old) = &old {
                    let _ = fs::rename(old, &self.target);
                }
                return Err(e);
            }
            // The old directory is kept only to move the user's files over: an interrupt
            // removes it as it removed the temporary one.
            pending.remove(&self.temp);
            if let Some(old) = &old {
                pending.add(old);
            }
            Ok(old)
        })
        .map_err(io)?;
        self.committed = true;
        sync_dir(parent_dir(&self.target));
        if let Some(old) = old {
            let ours = fs::read_to_string(old.join(DIR_MARKER)).unwrap_or_default();
            let ours: std::collections::BTreeSet<&str> =
                ours.lines().filter(|l| !l.starts_with('#')).collect();
            keep_user_files(&old, &self.target, "", &ours).map_err(io)?;
            crate::interrupt::guarded(|pending| {
                pending.remove(&old);
                fs::remove_dir_all(&old)
            })
            .map_err(|e| OutputError::io(old.display().to_string(), e))?;
        }
        Ok(())
    }
}

/// The files below `dir` (relative paths joined with `/`), the marker left out.
fn list_files(dir: &Path, rel: &Path, out: &mut Vec<String>) -> io::Result<()> {
    for entry in fs::read_dir(dir.join(rel))? {
        let entry = entry?;
        let path = rel.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            list_files(dir, &path, out)?;
        } else if path != Path::new(DIR_MARKER) {
            let parts: Vec<String> = path
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}

/// Moves what a user added below `old/rel` (anything not listed in `ours`, the files an earlier
/// run wrote) to the same place below `new`, unless `new` has something there.
fn keep_user_files(
    old: &Path,
    new: &Path,
    rel: &str,
    ours: &std::collections::BTreeSet<&str>,
) -> io::Result<()> {
    for entry in fs::read_dir(old.join(rel))? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if path == DIR_MARKER || ours.contains(path.as_str()) {
            continue;
        }
        let holds_ours = ours
            .range(format!("{path}/").as_str()..)
            .next()
            .is_some_and(|o| o.starts_with(&format!("{path}/")));
        let from = old.join(&path);
        let to = new.join(&path);
        if entry.file_type()?.is_dir() && (holds_ours || to.is_dir()) {
            keep_user_files(old, new, &path, ours)?;
        } else if !to.exists() {
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent)?;
            }
            fs::rename(&from, &to)?;
        }
    }
    Ok(())
}

impl Drop for AtomicDir {
    fn drop(&mut self) {
        if !self.committed {
            crate::interrupt::guarded(|pending| {
                let _ = fs::remove_dir_all(&self.temp);
                pending.remove(&self.temp);
            });
        }
    }
}

const MARKER_TEXT: &str = "# This directory was written by ncomplete; the next rendering into it replaces it as a whole.\n";

/// The marker line that records what a directory holds.
const FORMAT_PREFIX: &str = "# format: ";

/// What the marker of `dir` says the directory holds (`None` for a marker of an earlier version
/// that does not say).
fn marked_kind(dir: &Path) -> Option<String> {
    let marker = fs::read_to_string(dir.join(DIR_MARKER)).ok()?;
    marker
        .lines()
        .find_map(|l| l.strip_prefix(FORMAT_PREFIX))
        .map(|k| k.trim().to_owned())
}

/// Refuses to replace `target` unless it is missing, an empty directory or a marked one, and
/// (unless `force`) a marked one holding `kind`.
fn check_replaceable(target: &Path, kind: &str, force: bool) -> Result<()> {
    let shown = target.display().to_string();
    let meta = match fs::metadata(target) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(OutputError::io(shown, e)),
    };
    if !meta.is_dir() {
        return Err(OutputError::Refused(format!(
            "{shown} exists and is not a directory; give a directory for the output"
        )));
    }
    if target.join(DIR_MARKER).is_file() {
        return match marked_kind(target) {
            Some(held) if held != kind && !force => Err(OutputError::Refused(format!(
                "{shown} holds a {held} rendering (see its {DIR_MARKER}); writing {kind} there \
                 would replace it: give another directory, or --force to replace it"
            ))),
            _ => Ok(()),
        };
    }
    let mut entries = fs::read_dir(target).map_err(|e| OutputError::io(shown.clone(), e))?;
    if entries.next().is_none() {
        return Ok(());
    }
    Err(OutputError::Refused(format!(
        "{shown} is not empty and was not written by ncomplete (no {DIR_MARKER} file): its \
         contents would be replaced; give a new or empty directory"
    )))
}

/// One file system object: `(device, inode)` where the platform has them, else the canonical
/// path.
fn identity(path: &Path) -> Option<(u64, u64, PathBuf)> {
    let canonical = fs::canonicalize(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let meta = fs::metadata(&canonical).ok()?;
        Some((meta.dev(), meta.ino(), PathBuf::new()))
    }
    #[cfg(not(unix))]
    {
        Some((0, 0, canonical))
    }
}

/// The timeouts side file of a model path (`vending.aut` → `vending.aut.timeouts`), read with
/// `.aut` and `.fsm` models (the model formats name it by this, `crate::format::timeouts`).
pub fn timeouts_side_file(model_path: &str) -> String {
    format!("{model_path}.timeouts")
}

/// The files reading the input `input` reads: the file itself, then the timeouts side file
/// `INPUT.timeouts` ([`timeouts_side_file`]), read with `.aut` and `.fsm` models (counted for
/// any input: which format a file is read as may be forced).
fn files_read_with(input: &str) -> [String; 2] {
    [input.to_owned(), timeouts_side_file(input)]
}

/// What the output clashes with, for the message: the input itself or its side file.
fn clash_name(read: &str, input: &str) -> String {
    if read == input {
        format!("the input file {input}")
    } else {
        format!("{read}, the timeouts side file read with the input {input}")
    }
}

/// Refuses an output file that is one of the input files or a side file read with one (same
/// file, by device and inode or canonical path, so links are caught), before anything is
/// written. `-` never clashes.
pub fn refuse_input_as_output(option: &str, out: &str, inputs: &[&str]) -> Result<()> {
    if out == "-" {
        return Ok(());
    }
    let Some(target) = identity(Path::new(out)) else {
        return Ok(());
    };
    for input in inputs.iter().filter(|i| **i != "-") {
        for read in files_read_with(input) {
            if identity(Path::new(&read)).as_ref() == Some(&target) {
                return Err(OutputError::Refused(format!(
                    "{option} {out} is {}: writing it would destroy an input; choose another \
                     output file",
                    clash_name(&read, input)
                )));
            }
        }
    }
    Ok(())
}

/// Refuses an output directory that holds one of the input files or a side file read with one
/// (the directory is replaced as a whole).
pub fn refuse_input_inside_dir(option: &str, dir: &Path, inputs: &[&str]) -> Result<()> {
    let Ok(dir_canonical) = fs::canonicalize(dir) else {
        return Ok(());
    };
    for input in inputs {
        for read in files_read_with(input) {
            if let Ok(file) = fs::canonicalize(&read)
                && file.starts_with(&dir_canonical)
            {
                return Err(OutputError::Refused(format!(
                    "{option} {} holds {}, and the output replaces the directory as a whole; \
                     choose another directory",
                    dir.display(),
                    clash_name(&read, input)
                )));
            }
        }
    }
    Ok(())
}

/// The path of `file` relative to `dir` when it lies inside it (compared canonically).
pub fn relative_inside(file: &Path, dir: &Path) -> Option<PathBuf> {
    let dir = fs::canonicalize(dir).ok()?;
    let file = fs::canonicalize(file).ok()?;
    file.strip_prefix(&dir).ok().map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("output-{name}"))
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    /// A writer still filling a temporary directory after an interrupt removed it must not
    /// make it again (CI found `render` leaving an empty `.ttcn.*.tmp` behind when
    /// `create_dir_all` of a file's parent ran just after the removal).
    #[test]
    fn subdirectories_are_made_below_an_existing_root_only() {
        let dir = scratch("below");
        let root = dir.join("root");
        fs::create_dir(&root).unwrap();
        create_dirs_below(&root, Path::new("a/b")).unwrap();
        create_dirs_below(&root, Path::new("a/b")).unwrap();
        create_dirs_below(&root, Path::new("")).unwrap();
        assert!(root.join("a/b").is_dir());
        fs::write(root.join("f"), "x").unwrap();
        assert!(create_dirs_below(&root, Path::new("f/c")).is_err());
        fs::remove_dir_all(&root).unwrap();
        let gone = create_dirs_below(&root, Path::new("a"));
        assert_eq!(gone.unwrap_err().kind(), io::ErrorKind::NotFound);
        assert!(!root.exists());
        assert!(entries(&dir).is_empty());
    }

    #[test]
    fn a_file_appears_only_on_commit_and_a_dropped_one_leaves_nothing() {
        let dir = scratch("file");
        let target = dir.join("a.txt");
        fs::write(&target, "old").unwrap();
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"new contents").unwrap();
        f.flush().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        f.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new contents");
        let mut g = AtomicFile::create(&target).unwrap();
        g.write_all(b"abandoned").unwrap();
        drop(g);
        assert_eq!(fs::read_to_string(&target).unwrap(), "new contents");
        assert_eq!(entries(&dir), ["a.txt"]);
    }

    #[test]
    fn two_writers_of_one_target_do_not_mix() {
        let dir = scratch("two");
        let target = dir.join("t");
        let mut a = AtomicFile::create(&target).unwrap();
        let mut b = AtomicFile::create(&target).unwrap();
        a.write_all(&[b'a'; 10_000]).unwrap();
        b.write_all(&[b'b'; 20_000]).unwrap();
        a.commit().unwrap();
        b.commit().unwrap();
        assert_eq!(fs::read(&target).unwrap(), vec![b'b'; 20_000]);
        assert_eq!(entries(&dir), ["t"]);
    }

    #[test]
    fn a_directory_is_replaced_whole_and_foreign_ones_are_kept() {
        let dir = scratch("dir");
        let target = dir.join("out");
        let d = AtomicDir::create(&target, "python", false).unwrap();
        fs::write(d.path().join("old.txt"), "1").unwrap();
        fs::write(d.path().join("keep.txt"), "1").unwrap();
        d.commit().unwrap();
        assert_eq!(entries(&target), [DIR_MARKER, "keep.txt", "old.txt"]);
        let d = AtomicDir::create(&target, "python", false).unwrap();
        fs::write(d.path().join("keep.txt"), "2").unwrap();
        d.commit().unwrap();
        assert_eq!(entries(&target), [DIR_MARKER, "keep.txt"]);
        assert_eq!(fs::read_to_string(target.join("keep.txt")).unwrap(), "2");
        // Files a user added are kept; a file of the new rendering wins over one of theirs.
        fs::create_dir_all(target.join("user/deep")).unwrap();
        fs::write(target.join("user/deep/mine.txt"), "mine").unwrap();
        fs::write(target.join("notes.txt"), "mine").unwrap();
        fs::write(target.join("clash.txt"), "mine").unwrap();
        let d = AtomicDir::create(&target, "python", false).unwrap();
        fs::write(d.path().join("clash.txt"), "ours").unwrap();
        d.commit().unwrap();
        assert_eq!(
            entries(&target),
            [DIR_MARKER, "clash.txt", "notes.txt", "user"]
        );
        assert_eq!(
            fs::read_to_string(target.join("user/deep/mine.txt")).unwrap(),
            "mine"
        );
        assert_eq!(
            fs::read_to_string(target.join("clash.txt")).unwrap(),
            "ours"
        );
        // The next rendering drops `clash.txt` (it wrote it) and keeps the user's files.
        let d = AtomicDir::create(&target, "python", false).unwrap();
        fs::write(d.path().join("keep.txt"), "3").unwrap();
        d.commit().unwrap();
        assert_eq!(
            entries(&target),
            [DIR_MARKER, "keep.txt", "notes.txt", "user"]
        );
        // An abandoned rendering leaves the last one in place and no temporary directory.
        let d = AtomicDir::create(&target, "python", false).unwrap();
        fs::write(d.path().join("x"), "3").unwrap();
        drop(d);
        assert_eq!(entries(&dir), ["out"]);
        // A user's directory is not replaced.
        let mine = dir.join("mine");
        fs::create_dir(&mine).unwrap();
        fs::write(mine.join("notes"), "precious").unwrap();
        let e = AtomicDir::create(&mine, "python", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not empty"), "{e}");
        assert_eq!(fs::read_to_string(mine.join("notes")).unwrap(), "precious");
        // A directory holding another format is replaced only when forced.
        let e = AtomicDir::create(&target, "rust", false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("holds a python rendering") && e.contains("--force"),
            "{e}"
        );
        assert!(target.join("keep.txt").is_file());
        let d = AtomicDir::create(&target, "rust", true).unwrap();
        fs::write(d.path().join("Cargo.toml"), "").unwrap();
        d.commit().unwrap();
        assert_eq!(marked_kind(&target).as_deref(), Some("rust"));
        AtomicDir::create(&target, "rust", false).unwrap();
    }

    #[test]
    fn inputs_are_not_outputs() {
        let dir = scratch("inputs");
        let model = dir.join("m.dot");
        fs::write(&model, "digraph {}").unwrap();
        let m = model.to_str().unwrap();
        fs::create_dir(dir.join("sub")).unwrap();
        let other = dir.join("sub").join("..").join("m.dot");
        let e = refuse_input_as_output("--out", other.to_str().unwrap(), &[m]).unwrap_err();
        assert!(e.to_string().contains("is the input file"), "{e}");
        refuse_input_as_output("--out", dir.join("n.dot").to_str().unwrap(), &[m]).unwrap();
        refuse_input_as_output("--out", "-", &[m]).unwrap();
        assert!(refuse_input_inside_dir("--out", &dir, &[m]).is_err());
        refuse_input_inside_dir("--out", &dir.join("x"), &[m]).unwrap();
    }
}
