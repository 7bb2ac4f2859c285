//! The committed `include/mancala.h` is exactly what the pinned cbindgen generates from this
//! crate, carries version macros equal to the crate version, and compiles on its own as C11
//! and as C++17. Its copy `crates/mancala-ffi/include/mancala.h` is the same file: the crate's
//! package (crates.io) holds only what is under the crate's folder, and `install.sh` installs
//! the header from there.
//!
//! Regenerate after changing the API: `MANCALA_BLESS=1 cargo test -p mancala-ffi --release
//! --test header`. The functions the build script generates (`build/front_ends.md`) are read
//! from its output, in place of the `include!` lines of their modules.

use std::path::{Path, PathBuf};
use std::process::Command;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn header_path() -> PathBuf {
    crate_dir().join("../../include/mancala.h")
}

/// The copy of the header inside the crate's folder, the one its package holds.
fn packaged_header_path() -> PathBuf {
    crate_dir().join("include/mancala.h")
}

/// The include line of a file the build script generates (`src/kalah.rs`, `src/bao.rs`).
const INCLUDE_PREFIX: &str = "include!(concat!(env!(\"OUT_DIR\"), \"/";

/// A copy of `src/` in which every `include!` of a file the build script wrote into `OUT_DIR`
/// is replaced by the file's text, as the compiler reads it: cbindgen does not expand macros
/// (that needs a nightly compiler), so it is handed the expanded text, and the header
/// declares the generated functions where their module has them. Returns the copy's folder,
/// a scratch folder in Cargo's folder for the files of integration tests that is removed when
/// dropped; cbindgen reads its `lib.rs`.
fn expanded_sources() -> tempfile::TempDir {
    let src = crate_dir().join("src");
    let copy = scratch("header-src");
    for entry in std::fs::read_dir(&src).expect("read src/") {
        let path = entry.expect("an entry of src/").path();
        assert!(path.is_file(), "src/ has only files: {}", path.display());
        let text = std::fs::read_to_string(&path).expect("a source file is UTF-8");
        let mut expanded = String::new();
        for line in text.lines() {
            match line
                .strip_prefix(INCLUDE_PREFIX)
                .and_then(|rest| rest.strip_suffix("\"));"))
            {
                Some(name) => {
                    let generated = Path::new(env!("OUT_DIR")).join(name);
                    expanded.push_str(
                        &std::fs::read_to_string(&generated)
                            .unwrap_or_else(|e| panic!("{}: {e}", generated.display())),
                    );
                }
                None => {
                    expanded.push_str(line);
                    expanded.push('\n');
                }
            }
        }
        std::fs::write(
            copy.path().join(path.file_name().expect("a file name")),
            expanded,
        )
        .expect("write the copy");
    }
    copy
}

/// A fresh, empty scratch folder `mancala-ffi-<name>-` and a random part, in Cargo's folder
/// for the files of integration tests; the guard removes it when dropped, when the test ends
/// passed or failed.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mancala-ffi-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("create a scratch folder")
}

fn generate() -> String {
    let dir = crate_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut out = Vec::new();
    let sources = expanded_sources();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(sources.path().join("lib.rs"))
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut out);
    String::from_utf8(out).expect("header is UTF-8")
}

#[test]
fn committed_header_is_up_to_date() {
    let fresh = generate();
    for path in [header_path(), packaged_header_path()] {
        if std::env::var_os("MANCALA_BLESS").is_some() {
            // Write beside and rename, so that the other tests never read a half-written file.
            let tmp = path.with_extension("h.tmp");
            std::fs::write(&tmp, &fresh).expect("write mancala.h.tmp");
            std::fs::rename(&tmp, &path).expect("replace mancala.h");
            continue;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != fresh {
            let first = committed
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(committed.lines().count().min(fresh.lines().count()));
            panic!(
                "{} is stale (first difference at line {}). Regenerate include/mancala.h and \
                 crates/mancala-ffi/include/mancala.h with \
                 `MANCALA_BLESS=1 cargo test -p mancala-ffi --release --test header` and commit \
                 them.",
                path.display(),
                first + 1
            );
        }
    }
}

fn define(header: &str, name: &str) -> String {
    let prefix = format!("#define {name} ");
    header
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("{name} missing from the header"))
        .trim()
        .to_string()
}

#[test]
fn version_macros_match_the_crate_version() {
    let header = std::fs::read_to_string(header_path()).expect("include/mancala.h");
    assert_eq!(
        define(&header, "MANCALA_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MAJOR")
    );
    assert_eq!(
        define(&header, "MANCALA_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    assert_eq!(
        define(&header, "MANCALA_VERSION_PATCH"),
        env!("CARGO_PKG_VERSION_PATCH")
    );
}

fn compile_alone(compiler: &str, args: &[&str], include: &Path) {
    let out = Command::new(compiler)
        .args(args)
        .arg("-fsyntax-only")
        .arg("-Wall")
        .arg("-Wextra")
        .arg("-Werror")
        .arg("-pedantic")
        .arg(include)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        out.status.success(),
        "{compiler} {args:?} rejects include/mancala.h:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A call of a deprecated function makes the C and C++ compilers warn (an error here, with
/// `-Werror`), a call of its replacement does not, and `MANCALA_NO_DEPRECATED` silences it.
#[test]
fn deprecated_calls_make_the_compilers_warn() {
    let scratch = scratch("deprecated");
    let dir = scratch.path();
    let include = header_path().parent().unwrap().to_path_buf();
    for (compiler, lang, std) in [("gcc", "c", "-std=c99"), ("g++", "c++", "-std=c++11")] {
        for (body, define, warns) in [
            ("mancala_egdb_free(NULL)", "", true),
            ("mancala_awari_db_free(NULL)", "", true),
            (
                "mancala_egdb_free(NULL)",
                "#define MANCALA_NO_DEPRECATED\n",
                false,
            ),
            ("mancala_db_free(NULL)", "", false),
        ] {
            let src = dir.join(format!("call.{lang}"));
            std::fs::write(
                &src,
                format!(
                    "{define}#include \"mancala.h\"\nint main(void) {{ return (int){body}; }}\n"
                ),
            )
            .unwrap();
            let out = Command::new(compiler)
                .args([
                    std,
                    "-fsyntax-only",
                    "-Werror=deprecated-declarations",
                    "-I",
                ])
                .arg(&include)
                .arg(&src)
                .output()
                .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                !out.status.success(),
                warns,
                "{compiler} {define}{body}:\n{stderr}"
            );
            if warns {
                assert!(stderr.contains("removed in 0.4.0"), "{stderr}");
            }
        }
    }
}

/// The oldest standards the header states it needs (its comment, "Language").
#[test]
fn header_compiles_alone_as_c99() {
    compile_alone("gcc", &["-std=c99", "-x", "c"], &header_path());
}

#[test]
fn header_compiles_alone_as_cpp11() {
    compile_alone("g++", &["-std=c++11", "-x", "c++"], &header_path());
}

#[test]
fn header_compiles_alone_as_c11() {
    compile_alone("gcc", &["-std=c11", "-x", "c"], &header_path());
}

#[test]
fn header_compiles_alone_as_cpp17() {
    compile_alone("g++", &["-std=c++17", "-x", "c++"], &header_path());
}

/// Every function declared in the header carries documentation that names its thread-safety
/// and the statuses it returns (cbindgen copies the Rust doc comments).
#[test]
fn every_function_documents_thread_safety_and_statuses() {
    let header = std::fs::read_to_string(header_path()).expect("include/mancala.h");
    let mut comment = String::new();
    let mut functions = 0;
    for line in header.lines() {
        if let Some(text) = line.strip_prefix("//") {
            comment.push_str(text);
            comment.push('\n');
            continue;
        }
        // A deprecated function: `MANCALA_DEPRECATED("use …; removed in 0.4.0") enum …`.
        let (note, line) = match line.strip_prefix("MANCALA_DEPRECATED(\"") {
            Some(rest) => {
                let (note, rest) = rest.split_once("\") ").expect("a closed note");
                (Some(note), rest)
            }
            None => (None, line),
        };
        if let Some(rest) = line.strip_prefix("enum MancalaStatus mancala_") {
            let name = rest.split('(').next().unwrap();
            functions += 1;
            if let Some(note) = note {
                assert!(
                    note.starts_with("use mancala_") && note.ends_with("; removed in 0.4.0"),
                    "mancala_{name}: the deprecation note names no replacement or release: {note}"
                );
            }
            assert!(
                comment.contains("Thread safety"),
                "mancala_{name}: no thread-safety note"
            );
            assert!(
                comment.contains("MANCALA_STATUS_OK") && comment.contains("MANCALA_STATUS_PANIC"),
                "mancala_{name}: statuses not documented"
            );
            assert!(
                comment.contains("# Safety"),
                "mancala_{name}: pointer contract not documented"
            );
        } else {
            assert!(
                !line.contains(" mancala_") || line.starts_with(' '),
                "a declaration that does not return MancalaStatus: {line}"
            );
        }
        comment.clear();
    }
    assert!(functions >= 20, "only {functions} functions found");
}
