//! Path arguments: what Python's own `open()` takes.

use std::path::PathBuf;

use pyo3::prelude::*;

/// A file-system path argument: a `str`, a `bytes` or an `os.PathLike` giving either, as
/// Python's `open()` takes them (`os.fsdecode`: bytes are decoded with the file-system
/// encoding and its error handler, so every byte of a file name is kept). Anything else is a
/// `TypeError` naming the accepted types.
pub struct FsPath(pub PathBuf);

impl<'a, 'py> FromPyObject<'a, 'py> for FsPath {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<FsPath> {
        // A `str` or a path object giving one: PyO3 reads it as `open()` does.
        if let Ok(path) = obj.extract::<PathBuf>() {
            return Ok(FsPath(path));
        }
        // `bytes` (or a path object giving bytes): decoded as `open()` decodes it;
        // `os.fsdecode` raises "expected str, bytes or os.PathLike object, not int" for
        // anything else.
        let decoded = obj
            .py()
            .import("os")?
            .call_method1("fsdecode", (obj.as_any(),))?;
        Ok(FsPath(decoded.extract::<PathBuf>()?))
    }
}
