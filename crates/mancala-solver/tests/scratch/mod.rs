//! Scratch files of the integration tests: each in a folder of its own under Cargo's folder
//! for the files of integration tests (`CARGO_TARGET_TMPDIR`), removed with everything in it
//! when the guard is dropped, when the test ends, passed or failed.
#![allow(dead_code)]

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// The path of a file named `name` (not made) in a new empty folder of its own; the folder
/// goes when this is dropped.
pub struct File {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

/// A path `name` in a new empty scratch folder (the tests run in parallel: every call has a
/// folder of its own).
pub fn file(name: &str) -> File {
    let dir = tempfile::Builder::new()
        .prefix("mancala-solver-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    File {
        path: dir.path().join(name),
        _dir: dir,
    }
}

impl Deref for File {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for File {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}
