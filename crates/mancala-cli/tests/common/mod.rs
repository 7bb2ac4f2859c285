//! What the command's tests share: the `mancala` binary run without the user's database
//! cache, its output as text, and scratch folders under the target folder.
// Each test file uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Sets the environment every test run of the command gets: no database cache
/// (`MANCALA_NO_CACHE=1`), and a cache folder of the tests' own, never the user's, for a
/// test that turns the cache back on (`env_remove("MANCALA_NO_CACHE")`).
pub fn without_cache(cmd: &mut Command) -> &mut Command {
    cmd.env("MANCALA_NO_CACHE", "1").env(
        "MANCALA_CACHE_DIR",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/mancala-cache-unused"),
    )
}

/// The `mancala` command these tests were built with, [`without_cache`].
pub fn mancala_command() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mancala"));
    without_cache(&mut cmd);
    cmd
}

/// Runs `mancala args` to its end: status and both outputs.
pub fn mancala(args: &[&str]) -> Output {
    mancala_command().args(args).output().expect("run mancala")
}

/// Runs `mancala args` to its end: whether it succeeded, standard output, standard error.
pub fn mancala_text(args: &[&str]) -> (bool, String, String) {
    let out = mancala(args);
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Runs `mancala args` with `input` on its standard input, to its end.
pub fn mancala_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = mancala_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mancala");
    feed(&mut child, input);
    child.wait_with_output().unwrap()
}

/// Writes `input` to `child`'s standard input and closes it. A program that ends before it
/// reads its input (one that refuses its arguments) closes its end of the pipe, and a write
/// after that fails with a broken pipe, as it does in a shell pipeline: not a failure of the
/// test, which goes on to read the program's status and outputs. Any other error panics.
pub fn feed(child: &mut Child, input: &[u8]) {
    let mut stdin = child.stdin.take().expect("standard input piped");
    match stdin.write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write to the program's standard input"),
    }
}

/// Bytes of an output as text (invalid UTF-8 replaced).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The standard output of `o` as text.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// The standard error of `o` as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// Builds the endgame database the README builds for its `bestmove … --egdb egdb/` example:
/// Kalah(6,·) (`--rules standard`), every position with at most 16 seeds in the houses, into
/// the folder `out`. Returns the file's path, `out/kalah6.k16.egdb`; a build that fails fails
/// the test with the command's standard error.
pub fn build_kalah6_k16(out: &Path) -> PathBuf {
    let o = mancala(&[
        "egdb",
        "build",
        "--rules",
        "standard",
        "--max-seeds",
        "16",
        "--out",
        out.to_str().expect("a UTF-8 folder"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    out.join("kalah6.k16.egdb")
}

/// A fresh, empty scratch folder `name` of the test file `group`, in Cargo's folder for the
/// files of integration tests (`CARGO_TARGET_TMPDIR`), with a random part of its own; it is
/// removed with everything in it when the guard is dropped, when the test ends, passed or
/// failed. The guard is the folder's path ([`Deref`](std::ops::Deref) to [`Path`]).
pub fn scratch(group: &str, name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{group}-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    Scratch(dir)
}

/// A scratch folder of [`scratch`]: removed when dropped.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// Whether the tool `program` runs (`program --version` succeeds). The test suite's tools
/// (README, "Two commands"): a missing one fails the test, naming the package `package` to
/// install, unless MANCALA_SKIP_MISSING_TOOLS is set; then `false`, with a note, and the test
/// skips what needs it.
#[allow(dead_code)]
pub fn require_tool(program: &str, package: &str) -> bool {
    let have = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if have {
        return true;
    }
    let skip =
        std::env::var_os("MANCALA_SKIP_MISSING_TOOLS").is_some_and(|v| !v.is_empty() && v != "0");
    assert!(
        skip,
        "{program} is not installed: install the package `{package}` (.ci/run does), or set \
         MANCALA_SKIP_MISSING_TOOLS=1 to skip the tests that need it"
    );
    eprintln!("{program} is not installed and MANCALA_SKIP_MISSING_TOOLS is set: skipping");
    false
}
