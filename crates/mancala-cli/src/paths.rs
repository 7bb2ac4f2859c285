//! Folders the command writes into (`egdb build --out`, the cache folder): a file standing
//! where a folder should be is named in words, instead of the system's bare "File exists" or
//! "Not a directory".

use std::path::{Path, PathBuf};

/// The first of `dir` and its ancestors that exists and is not a folder (a file, or a link to
/// one), or `None`.
pub fn file_in_the_way(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_dir()))
        .map(Path::to_path_buf)
}

/// Why the folder `dir` cannot be created or written, for a message about `dir`: `it is a
/// file, not a folder`, or `<ancestor> is a file, not a folder`, when a file stands in the
/// way, else the system's error `e`.
pub fn folder_error(dir: &Path, e: &std::io::Error) -> String {
    match file_in_the_way(dir) {
        Some(f) if f == dir => "it is a file, not a folder".to_string(),
        Some(f) => format!("{} is a file, not a folder", f.display()),
        None => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_the_way_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("some-file");
        std::fs::write(&file, b"x").unwrap();
        let e = std::io::Error::from_raw_os_error(17);
        assert_eq!(folder_error(&file, &e), "it is a file, not a folder");
        assert_eq!(
            folder_error(&file.join("sub/deeper"), &e),
            format!("{} is a file, not a folder", file.display())
        );
        assert_eq!(file_in_the_way(dir.path()), None);
        assert_eq!(folder_error(dir.path(), &e), e.to_string());
    }
}
