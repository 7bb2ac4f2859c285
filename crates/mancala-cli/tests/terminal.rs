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
    common::require_tool("script", "bsdutils")
}

/// `word` quoted for `sh`.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The `script` command running `mancala args` on a terminal of 120 columns (a terminal
/// `script` makes without one of its own has no size, and progress bars need a width).
fn in_terminal(args: &[&str]) -> Command {
    in_terminal_of(120, args)
}

/// The same on a terminal of `columns` columns.
fn in_terminal_of(columns: usize, args: &[&str]) -> Command {
    let mut line = format!(
        "stty cols {columns} rows 40; exec {}",
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

/// Reading a cached database (checking it whole takes seconds for a large one) shows a
/// spinner naming the file on a terminal; a pipe shows nothing. The database is a small one
/// built into a cache folder of the test's own first.
#[test]
fn reading_a_cached_database_shows_a_spinner_on_a_terminal() {
    if !require_script() {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let with_cache = |cmd: &mut Command| {
        cmd.env_remove("MANCALA_NO_CACHE")
            .env("MANCALA_CACHE_DIR", cache.path());
    };
    let mut build = common::mancala_command();
    with_cache(&mut build);
    let built = build
        .args(["egdb", "build", "--rules", "kalah(4,3)", "--cache"])
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", text(&built.stderr));
    let args = ["solve", "--rules", "kalah(4,3)"];
    let mut shown = in_terminal(&args);
    with_cache(&mut shown);
    let shown = shown.stdin(Stdio::null()).output().unwrap();
    let screen = text(&shown.stdout);
    assert!(shown.status.success(), "{screen}");
    assert!(screen.contains("reading the cached database"), "{screen:?}");
    let mut piped = common::mancala_command();
    with_cache(&mut piped);
    let piped = piped.args(args).output().unwrap();
    assert!(piped.status.success(), "{}", text(&piped.stderr));
    assert!(
        !text(&piped.stderr).contains("reading"),
        "{}",
        text(&piped.stderr)
    );
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

/// Runs `cmd` (a command in a terminal), waits until the terminal shows `shown`, types
/// Ctrl-C, and returns the exit status and everything the terminal showed. Fails if `shown`
/// does not come within a minute or the command does not end within 15 s of the Ctrl-C.
fn ctrl_c_once_shown(mut cmd: Command, shown: &str) -> (Option<i32>, String) {
    let mut child = cmd
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
    while !text(&screen).contains(shown) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{shown:?} never shown: {:?}",
            text(&screen)
        );
        if let Ok(bytes) = rx.recv_timeout(Duration::from_millis(100)) {
            screen.extend(bytes);
        }
    }
    // Ctrl-C, as typed at the terminal.
    let typed = Instant::now();
    stdin.write_all(&[0x03]).unwrap();
    stdin.flush().unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    screen.extend(rx.try_iter().flatten());
    assert!(
        typed.elapsed() < Duration::from_secs(15),
        "the command was not interrupted"
    );
    (status.code(), text(&screen))
}

/// After the last time `drawn` was drawn, its line is erased (`ESC [ 2K`, erase in line, as
/// indicatif clears a finished bar) before the interruption's message.
fn assert_cleared_before_the_message(screen: &str, drawn: &str) {
    let last_draw = screen.rfind(drawn).unwrap();
    let after = &screen[last_draw..];
    let erased = after.find("\x1b[2K").unwrap_or(usize::MAX);
    let message = after.find("mancala: interrupted").unwrap();
    assert!(
        erased < message,
        "the progress line was not cleared: {screen:?}"
    );
}

/// The pieces of text the terminal showed between its control sequences and line breaks:
/// what each draw put on one row.
fn drawn_pieces(screen: &str) -> Vec<String> {
    let mut pieces = vec![String::new()];
    let mut chars = screen.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                // A control sequence: ESC [ parameters final byte (or ESC and one byte).
                if chars.next_if_eq(&'[').is_some() {
                    for d in chars.by_ref() {
                        if ('@'..='~').contains(&d) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
                pieces.push(String::new());
            }
            '\r' | '\n' => pieces.push(String::new()),
            c => pieces.last_mut().unwrap().push(c),
        }
    }
    pieces.retain(|p| !p.is_empty());
    pieces
}

/// Ctrl-C while the engine thinks (its spinner drawn) ends `play` with the spinner line
/// cleared and the reason on standard error, status 130 (128 + SIGINT).
#[test]
fn ctrl_c_during_the_engines_move_clears_the_spinner() {
    if !require_script() {
        return;
    }
    let cmd = in_terminal(&[
        "play",
        "--engine",
        "--opponent-first",
        "--level",
        "10",
        "--time-ms",
        "20000",
    ]);
    let (status, screen) = ctrl_c_once_shown(cmd, "thinking");
    assert_eq!(status, Some(130), "{screen:?}");
    assert!(screen.contains("mancala: interrupted"), "{screen:?}");
    assert_cleared_before_the_message(&screen, "thinking");
}

/// On a narrow terminal (60 columns) the solve's progress line, which carries bounds, nodes,
/// a rate and the database, is cut (and padded) to leave three columns free, so that the
/// `^C` the terminal echoes after it stays on its row and Ctrl-C clears the whole line.
#[test]
fn the_solve_line_fits_a_narrow_terminal_and_ctrl_c_clears_it() {
    if !require_script() {
        return;
    }
    // A small database in a folder with a long path (K = 8 for m = 6 builds in a blink).
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("a-folder-with-a-rather-long-name-for-the-databases-of-this-test");
    let _ = std::fs::remove_dir_all(&dir);
    let built = common::mancala_command()
        .args([
            "egdb",
            "build",
            "--rules",
            "kalah(6,6)",
            "--max-seeds",
            "8",
            "--quiet",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", text(&built.stderr));
    let dir_text = dir.display().to_string();
    let cmd = in_terminal_of(
        60,
        &[
            "solve",
            "--rules",
            "kalah(6,6)",
            "--threads",
            "1",
            "--egdb",
            &dir_text,
        ],
    );
    let (status, screen) = ctrl_c_once_shown(cmd, "value in");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status, Some(130), "{screen:?}");
    assert!(
        !screen.contains("a-folder-with"),
        "the path was drawn: {screen:?}"
    );
    let lines: Vec<String> = drawn_pieces(&screen)
        .into_iter()
        .filter(|p| p.contains("value in"))
        .collect();
    assert!(!lines.is_empty(), "{screen:?}");
    for line in &lines {
        // Each draw (padded by indicatif) without the `^C` the terminal echoed after it:
        // three columns stay free, so the echo stays on the row.
        for drawn in line.split("^C") {
            assert!(
                drawn.chars().count() <= 57,
                "a progress line of {} columns on a 60-column terminal: {line:?}",
                drawn.chars().count()
            );
        }
    }
    assert_cleared_before_the_message(&screen, "value in");
}
