//! Scratch directories for the unit tests (integration tests use Cargo's `CARGO_TARGET_TMPDIR`,
//! which unit tests do not get): one per name and process under the system's temporary
//! directory, emptied when made and removed when the test ends, whether it passes or fails, so
//! test runs leave nothing behind.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A directory that exists for as long as the value lives.
pub(crate) struct Scratch(PathBuf);

impl Scratch {
    /// A fresh, empty directory `ncomplete-NAME-PID`.
    pub(crate) fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("ncomplete-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the system's temporary directory is writable");
        Scratch(dir)
    }
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::Scratch;

    #[test]
    fn a_scratch_directory_is_empty_when_made_and_gone_when_dropped() {
        let stale = std::env::temp_dir().join(format!(
            "ncomplete-scratch-self-test-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&stale).unwrap();
        std::fs::write(stale.join("left over"), "x").unwrap();
        {
            let dir = Scratch::new("scratch-self-test");
            assert_eq!(*dir, *stale);
            assert_eq!(std::fs::read_dir(&*dir).unwrap().count(), 0);
            std::fs::write(dir.join("f"), "x").unwrap();
        }
        assert!(!stale.exists());
    }
}
