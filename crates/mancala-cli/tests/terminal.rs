//! The command in a terminal: progress on standard error for long work (`perft`, `bench`),
//! none with `--quiet`, and Ctrl-C during the engine's move in `play` clears the progress
//! line before the command ends.
//!
//! Each command runs under `script` (util-linux; Debian package `bsdutils`), which gives it a
//! pseudo-terminal as its standard input, output and error, as a user's terminal does, and
//! copies everything the command writes to the terminal into its own standard output; a
//! Ctrl-C typed into that terminal (the byte 0x03 written to `script`'s input) becomes a
//! SIGINT from the terminal's line discipline, as at a keyboard. Without `script` these tests
//! fail, naming the package, unless MANCALA_SKIP_MISSING_TOOLS is set (README, "Two
//! commands").

mod common;

use std::io::{Read, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::{mancala, text, without_cache};

/// Whether `script` is installed; a missing one fails the test (module docs).
fn require_script() -> bool {
    let have = Command::new("script")
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
        "script is not installed: install the package `bsdutils` (.ci/run does), or set \
         MANCALA_SKIP_MISSING_TOOLS=1 to skip the tests that need it"
    );
    eprintln!("script is not installed and MANCALA_SKIP_MISSING_TOOLS is set: skipping");
    false
}

/// `word` quoted for `sh`.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The `script` command running `mancala args` on a terminal of 120 columns (a terminal
/// `script` makes without one of its own has no size, and progress bars need a width).
fn in_terminal(args: &[&str]) -> Command {
    let mut line = format!(
        "stty cols 120 rows 40; exec {}",
        quoted(env!("CARGO_BIN_EXE_mancala"))
    );
    for a in args {
        line.push(' ');
        line.push_str(&quoted(a));
    }
    let mut cmd = Command::new("script");
    without_cache(&mut cmd)
        .args(["-q", "-e", "-c", &line, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm");
    cmd
}

/// Runs `mancala args` on a terminal to its end: everything it showed, and its status.
fn run_in_terminal(args: &[&str]) -> Output {
    in_terminal(args)
        .stdin(Stdio::null())
        .output()
        .expect("run script")
}

/// `perft` shows which depth it counts from the first depth on (Kalah(6,4) depth 10: about a
/// second, depth 11 five); the counts are the same as without a terminal; `--quiet` and a
/// pipe show nothing.
#[test]
fn perft_shows_progress_on_a_terminal() {
    if !require_script() {
        return;
    }
    let args = ["perft", "--rules", "standard", "--depth", "10"];
    let shown = run_in_terminal(&args);
    assert!(shown.status.success(), "{}", text(&shown.stdout));
    let screen = text(&shown.stdout);
    assert!(screen.contains("perft: counting depth"), "{screen:?}");
    let piped = mancala(&args);
    assert!(piped.status.success());
    assert_eq!(text(&piped.stderr), "");
    let counts = |s: &str| -> Vec<String> {
        s.lines()
            .filter_map(|l| l.split("perft ").nth(1))
            .filter(|l| l.contains(" nodes "))
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect()
    };
    let piped_counts = counts(&text(&piped.stdout));
    assert_eq!(piped_counts.len(), 10);
    assert_eq!(counts(&screen), piped_counts);
    let quiet = run_in_terminal(&["perft", "--quiet", "--rules", "standard", "--depth", "9"]);
    assert!(quiet.status.success());
    assert!(!text(&quiet.stdout).contains("counting"));
}

/// `bench` shows the set and position being solved with the solver's bounds and nodes, and
/// keeps its signature: the same total nodes as without a terminal.
#[test]
fn bench_shows_progress_and_keeps_its_signature() {
    if !require_script() {
        return;
    }
    let shown = run_in_terminal(&["bench", "--quick"]);
    let screen = text(&shown.stdout);
    assert!(shown.status.success(), "{screen}");
    assert!(screen.contains("bench: set "), "{screen:?}");
    let piped = mancala(&["bench", "--quick"]);
    assert!(piped.status.success(), "{}", text(&piped.stderr));
    assert_eq!(text(&piped.stderr), "");
    let signature = |s: &str| -> String {
        s.lines()
            .find_map(|l| l.split("signature ").nth(1))
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("no signature in {s:?}"))
            .to_string()
    };
    assert_eq!(signature(&screen), signature(&text(&piped.stdout)));
    let quiet = run_in_terminal(&["bench", "--quick", "--quiet"]);
    assert!(quiet.status.success());
    assert!(!text(&quiet.stdout).contains("bench: set "));
}

/// Ctrl-C while the engine thinks (its spinner drawn) ends `play` with the spinner line
/// cleared and the reason on standard error, status 130 (128 + SIGINT).
#[test]
fn ctrl_c_during_the_engines_move_clears_the_spinner() {
    if !require_script() {
        return;
    }
    let mut child = in_terminal(&[
        "play",
        "--engine",
        "--opponent-first",
        "--level",
        "10",
        "--time-ms",
        "20000",
    ])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("run script");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut screen = Vec::new();
    let start = Instant::now();
    while !text(&screen).contains("thinking") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no spinner: {:?}",
            text(&screen)
        );
        if let Ok(bytes) = rx.recv_timeout(Duration::from_millis(100)) {
            screen.extend(bytes);
        }
    }
    // Ctrl-C, as typed at the terminal.
    stdin.write_all(&[0x03]).unwrap();
    stdin.flush().unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    screen.extend(rx.try_iter().flatten());
    let screen = text(&screen);
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "the engine was not interrupted"
    );
    assert_eq!(status.code(), Some(130), "{screen:?}");
    assert!(screen.contains("mancala: interrupted"), "{screen:?}");
    // After the last time the spinner was drawn, its line is erased (`ESC [ 2K`, erase in
    // line, as indicatif clears a finished bar) before the message.
    let last_draw = screen.rfind("thinking").unwrap();
    let after = &screen[last_draw..];
    let erased = after.find("\x1b[2K").unwrap_or(usize::MAX);
    let message = after.find("mancala: interrupted").unwrap();
    assert!(
        erased < message,
        "the spinner line was not cleared: {screen:?}"
    );
}
