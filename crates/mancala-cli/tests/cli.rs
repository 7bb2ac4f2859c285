//! The `mancala` command end to end: outputs of show, replay and perft, and one-line errors
//! with a non-zero exit status for every kind of bad input.

mod common;

use std::process::{Output, Stdio};

use mancala_reference::kalah::{RefPos, RefRules};

use common::{mancala, mancala_command, mancala_with_input, stderr, stdout};

/// Asserts a refused input: non-zero status, one line on stderr containing `needle`.
fn assert_refused(o: &Output, needle: &str) {
    assert!(!o.status.success(), "should fail: {}", stdout(o));
    let err = stderr(o);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "{err:?} should mention {needle:?}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn perft_depth_9_matches_the_reference() {
    let o = mancala(&["perft", "--rules", "standard", "--depth", "9"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let start = RefPos::start(RefRules {
        m: 6,
        n: 4,
        ..Default::default()
    });
    let lines: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 9);
    for (d, line) in (1..=9).zip(&lines) {
        let count: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert_eq!(count, start.perft(d), "depth {d}: {line}");
    }
}

#[test]
fn perft_json() {
    let o = mancala(&["perft", "--depth", "2", "--json"]);
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["depth"], 1);
    assert_eq!(lines[0]["nodes"], 6);
    assert_eq!(lines[1]["nodes"], 35);
}

/// `--history` applies Oware's repetition rule: on the cycling position of OW-11.4 the count
/// of depth 7 is 5, not 6 (`docs/rules/oware.md`; the core's `tests/perft_history.rs` checks
/// it against a counter of its own); from the start both are OW-11.4's 5,219 at depth 5.
#[test]
fn perft_history_applies_the_repetition_rule() {
    let nodes = |args: &[&str]| -> Vec<u64> {
        let o = mancala(args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["nodes"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    let cycling = [
        "perft",
        "--rules",
        "oware-openspiel(3,3)",
        "--position",
        "1,1,1,6,0,0,0,9 S",
        "--depth",
        "7",
        "--json",
    ];
    assert_eq!(nodes(&cycling)[6], 6);
    assert_eq!(nodes(&[&cycling[..], &["--history"]].concat())[6], 5);
    for extra in [&[][..], &["--history"]] {
        let start = [
            &["perft", "--rules", "oware", "--depth", "5", "--json"][..],
            extra,
        ]
        .concat();
        assert_eq!(nodes(&start)[4], 5_219);
    }
}

#[test]
fn replay_prints_every_position() {
    // docs/rules/kalah.md: start, South plays 3 (extra turn), then 1: S2..S5 (the last seed in S5).
    let o = mancala(&[
        "replay",
        "--rules",
        "kalah(6,4)+pie_rule",
        "--moves",
        "3,1,swap",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S\n\
         4,4,0,5,5,5,1,4,4,4,4,4,4,0 S\n\
         0,5,1,6,6,5,1,4,4,4,4,4,4,0 N swap\n\
         0,5,1,6,6,5,1,4,4,4,4,4,4,0 N\n"
    );
    let o = mancala(&[
        "replay",
        "--rules",
        "kalah(6,4)+empty_capture",
        "--position",
        "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S",
        "--moves",
        "5",
    ]);
    assert_eq!(
        stdout(&o),
        "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S\n0,0,0,0,0,0,21,0,0,0,0,0,0,27 -\n"
    );
}

#[test]
fn bad_input_gets_a_one_line_reason() {
    assert_refused(
        &mancala(&["replay", "--rules", "kalah(6,4)+bogus", "--moves", "1"]),
        "unknown rule option `bogus`",
    );
    assert_refused(
        &mancala(&["replay", "--moves", "0"]),
        "house 0 does not exist",
    );
    assert_refused(
        &mancala(&["replay", "--moves", "9"]),
        "house 9 does not exist",
    );
    // After 3 (extra turn) house 3 is empty.
    assert_refused(&mancala(&["replay", "--moves", "3,3"]), "house 3 is empty");
    assert_refused(
        &mancala(&["replay", "--moves", "3,x"]),
        "malformed move `x`",
    );
    assert_refused(
        &mancala(&["replay", "--moves", "swap"]),
        "swap is allowed only",
    );
    assert_refused(
        &mancala(&["replay", "--position", "4,4,4 S", "--moves", "1"]),
        "has 14 slots",
    );
    assert_refused(
        &mancala(&[
            "perft",
            "--position",
            "4,4,4,4,4,4,0,4,4,4,4,4,4,0 Q",
            "--depth",
            "1",
        ]),
        "malformed position",
    );
    assert_refused(&mancala(&["show", "1,2,3"]), "position");
    assert_refused(
        &mancala(&["perft", "--rules", "kalah(9,4)", "--depth", "1"]),
        "houses per row must be 1..=7",
    );
    // The same message for every depth out of range, negative ones included.
    assert_refused(
        &mancala(&["perft", "--depth", "1000"]),
        "1000 is out of range (1 to 40)",
    );
    assert_refused(
        &mancala(&["perft", "--depth", "0"]),
        "0 is out of range (1 to 40)",
    );
    assert_refused(
        &mancala(&["perft", "--depth", "99999999999"]),
        "is out of range (1 to 40)",
    );
    // Command-line syntax errors are one line too (exit status 2).
    assert_refused(&mancala(&["frobnicate"]), "unrecognized subcommand");
    // A negative number is the option's value, refused by the option's own check (not
    // clap's "unexpected argument '-1'"), and the hint names the subcommand's help.
    assert_refused(
        &mancala(&["perft", "--depth", "-1"]),
        "-1 is out of range (1 to 40)",
    );
    assert_refused(
        &mancala(&["solve", "--max-seconds", "-1"]),
        "invalid value '-1' for '--max-seconds",
    );
    assert_refused(
        &mancala(&["solve", "--max-seconds", "-1"]),
        "(see `mancala solve --help`)",
    );
    assert_refused(
        &mancala(&["bestmove", "--time-ms", "-5"]),
        "invalid value '-5' for '--time-ms",
    );
    assert_refused(
        &mancala(&["solve", "--rules", "kalah(4,2)", "--max-seconds", "nan"]),
        "--max-seconds",
    );
    assert_refused(
        &mancala(&["solve", "--rules", "kalah(4,2)", "--tt-mb", "0"]),
        "'--tt-mb <TT_MB>': 0 is out of range (1 to 1048576)",
    );
    assert_refused(
        &mancala(&["solve", "--rules", "kalah(4,2)", "--threads", "1025"]),
        "'--threads <THREADS>': 1025 is out of range (0 to 1024)",
    );
}

#[test]
fn show_draws_the_board() {
    let o = mancala(&["show", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("South to move"));
    assert!(out.trim_end().ends_with("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"));
}

#[test]
fn play_refuses_bad_moves_and_goes_on() {
    // Kalah(1,1): South's only move sows into the store, the row empties, the game ends and
    // North sweeps its seed: a 1-1 draw. Bad inputs first.
    let o = mancala_with_input(
        &["play", "--rules", "kalah(1,1)"],
        "0\nfoo\nswap\n1\n".as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("refused: illegal move 0: house 0 does not exist"),
        "{out}"
    );
    assert!(out.contains("refused: malformed move `foo`"), "{out}");
    assert!(
        out.contains("refused: illegal move swap: a swap is allowed only"),
        "{out}"
    );
    assert!(out.contains("0,1,0,1 -"), "{out}");
    assert!(out.contains("Result: a draw."), "{out}");
}

/// The board labels the houses S1..S6 and N1..N6: a label of the side to move's row is a
/// move (X1 of the Oware rules, South's 3, then North's 1: 5 seeds into N2..N6), a label of
/// the other row is refused with its reason.
#[test]
fn play_takes_the_house_labels_it_prints() {
    let o = mancala_with_input(&["play", "--rules", "oware"], b"S3\nS1\nn1\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("        S1  S2  S3  S4  S5  S6"), "{out}");
    assert!(out.contains("4,4,0,5,5,5,0,5,4,4,4,4,4,0 N"), "{out}");
    assert!(
        out.contains("refused: `S1` is a house of South's row, and North is to move"),
        "{out}"
    );
    assert!(out.contains("4,4,0,5,5,5,0,0,5,5,5,5,5,0 S"), "{out}");
}

#[test]
fn play_refuses_a_line_that_is_not_utf8_and_goes_on() {
    let o = mancala_with_input(&["play", "--rules", "kalah(1,1)"], b"\xff\xfe1\n1\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("refused: malformed move: the line is not valid UTF-8"),
        "{out}"
    );
    assert!(out.contains("0,1,0,1 -"), "{out}");
    assert!(out.contains("Result: a draw."), "{out}");
}

#[test]
fn play_checks_level_and_egdb_whoever_the_opponent_is() {
    for args in [
        &["play", "--level", "0"][..],
        &["play", "--level", "11"],
        &["play", "--opponent", "random", "--level", "0"],
        &["play", "--opponent", "human", "--level", "11"],
    ] {
        let o = mancala(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("--level"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    for args in [
        &["play", "--egdb", "no-such-file"][..],
        &["play", "--opponent", "random", "--egdb", "no-such-file"],
    ] {
        let o = mancala(args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("--egdb needs --engine"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn play_against_the_random_mover_finishes() {
    // The person types the houses in turn (the empty ones refused) and leaves with `quit`
    // if the game has not ended by then.
    let moves = "1\n2\n3\n4\n5\n6\n".repeat(60) + "quit\n";
    let o = mancala_with_input(
        &["play", "--opponent", "random", "--seed", "3"],
        moves.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("player 2 (North) plays"));
}

#[test]
fn bao_la_kete_from_the_command_line() {
    // At the start no capture exists: South's occupied front pits F5, F6, F7 face North's
    // empty f4, f3, f2 (K-3.4). A nemo takata puts the seed into a non-empty front pit other
    // than the kuu (K-7.2) and sows either way: F6 and F7, two directions each.
    let o = mancala(&["perft", "--rules", "bao-la-kete", "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(" 4 nodes"), "{}", stdout(&o));
    let start = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -";
    let o = mancala(&["show", start]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).trim_end().ends_with(start));
    // The seed may not go into the kuu while F6 and F7 are occupied (K-7.2).
    assert_refused(
        &mancala(&["replay", "--rules", "bao-la-kete", "--moves", "F5>"]),
        "K-7.2",
    );
    assert_refused(
        &mancala(&["replay", "--rules", "bao-la-kete", "--moves", "F9"]),
        "malformed move",
    );
    assert_refused(
        &mancala(&["perft", "--rules", "bao-la-kete+x", "--depth", "1"]),
        "--rules",
    );
    let o = mancala_with_input(
        &["play", "--rules", "bao-la-kete", "--opponent", "random"],
        "B1\nF6>\nquit\n".as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("refused: illegal move B1"),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("player 2 (North) plays"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_closed_pipe_or_a_full_disk_is_not_a_panic() {
    let out = std::fs::OpenOptions::new().write(true).open("/dev/full");
    if let Ok(full) = out {
        let o = mancala_command()
            .args(["perft", "--depth", "3"])
            .stdout(full)
            .output()
            .unwrap();
        assert_refused(&o, "writing standard output");
    }
    let mut child = mancala_command()
        .args(["perft", "--depth", "12"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
}

/// `--help`, `--version`, `help solve` and the completion script that cannot be written to
/// standard output (a full disk: /dev/full) are refused as every other write is, in one
/// line naming the OS error, with status 1 (not status 0 and nothing said).
#[test]
fn help_and_version_that_cannot_be_written_are_refused() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let lines: [&[&str]; 6] = [
        &["--help"],
        &["solve", "--help"],
        &["--version"],
        &["solve", "--version"],
        &["help", "solve"],
        &["completions", "fish"],
    ];
    for args in lines {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = mancala_command().args(args).stdout(full).output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o).trim_end(),
            "mancala: error: writing standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}

/// Help and version beyond the file-size limit (`ulimit -f`, 1 KiB here, less than any of
/// these texts) are refused in one line, status 1, as any other write beyond it: the
/// limit's signal (SIGXFSZ, whose default action kills without a word, status 153) is
/// ignored before the command line is parsed.
#[cfg(unix)]
#[test]
fn help_beyond_the_file_size_limit_is_refused_in_one_line() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let lines: [&[&str]; 3] = [&["--help"], &["help", "solve"], &["solve", "--help"]];
    for args in lines {
        let file = std::fs::File::create(dir.path().join("help.txt")).unwrap();
        let mut cmd = mancala_command();
        cmd.args(args).stdout(file);
        // SAFETY: `setrlimit` and `signal` are async-signal-safe; the closure allocates
        // nothing and touches no lock.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 1024,
                    rlim_max: 1024,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o).trim_end(),
            "mancala: error: writing standard output: File too large (os error 27)",
            "{args:?}"
        );
    }
}

/// Oware through every command that takes `--rules`: the start drawn, X1 replayed (3 sows
/// S4, S5, S6 and N1), perft of OW-11.4, a legal engine move, a game played to the end.
#[test]
fn oware_through_the_commands() {
    let shown = mancala(&["show", "--rules", "oware"]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(stdout(&shown).ends_with("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S\n"));
    let replayed = mancala(&["replay", "--rules", "oware", "--moves", "3"]);
    assert_eq!(
        stdout(&replayed),
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S\n4,4,0,5,5,5,0,5,4,4,4,4,4,0 N\n"
    );
    let perft = mancala(&["perft", "--rules", "awari", "--depth", "5", "--json"]);
    let last = stdout(&perft).lines().last().unwrap().to_string();
    assert!(last.contains("\"nodes\":5219"), "{last}");
    let best = mancala(&["bestmove", "--rules", "oware-openspiel", "--nodes", "2000"]);
    assert!(best.status.success(), "{}", stderr(&best));
    let mv: u8 = stdout(&best)
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("bestmove "))
        .and_then(|m| m.parse().ok())
        .expect("a house number");
    assert!((1..=6).contains(&mv));
    // Two random movers to the end of the game: the board is redrawn until a result.
    let played = mancala_with_input(
        &["play", "--rules", "oware(3,2)", "--opponent", "random"],
        "1\n2\n3\n".repeat(200).as_bytes(),
    );
    assert!(played.status.success(), "{}", stderr(&played));
    let out = stdout(&played);
    assert!(out.contains("Result: "), "{out}");
}

/// `play` says what a move did beyond the redrawn board — an extra turn, the seeds captured
/// (values traced by hand from the rules) — and how the game ended; input that ends before
/// the game does is an error, `quit` is not.
#[test]
fn play_says_what_a_move_did_and_how_the_game_ended() {
    // Kalah(6,4) start, house 3: its 4 seeds end in the store, an extra turn (docs/rules/kalah.md).
    let o = mancala_with_input(&["play"], b"3\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("extra turn: player 1 (South) moves again"),
        "{}",
        stdout(&o)
    );
    // South's single seed in house 1 falls into the empty house 2, facing North's house 5
    // with 7 seeds: the 7 and the capturing seed go to South's store.
    let o = mancala_with_input(
        &["play", "--position", "1,0,4,4,4,4,0,4,4,4,4,7,4,0 S"],
        b"1\nquit\n",
    );
    assert!(stdout(&o).contains("captures 7 seeds\n"), "{}", stdout(&o));
    assert!(!stdout(&o).contains("extra turn"), "{}", stdout(&o));
    // Oware: South's last seed (house 6) makes North's house 1 three: captured (OW-5).
    let o = mancala_with_input(
        &[
            "play",
            "--rules",
            "oware",
            "--position",
            "0,0,0,0,0,1,10,2,4,4,4,4,4,15 S",
        ],
        b"6\nquit\n",
    );
    assert!(stdout(&o).contains("captures 3 seeds\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains(",13,"), "{}", stdout(&o));
    // Togyz Kumalak counts kumalaks: South's house 2 holds 2, the first back into house 2,
    // the last into North's house 1 (1 -> 2): even, captured (TK-2.2, TK-3.1).
    let o = mancala_with_input(
        &[
            "play",
            "--rules",
            "togyz-kumalak(2,2)",
            "--position",
            "0,2,0,1,3,0 -,- S",
        ],
        b"2\nquit\n",
    );
    assert!(
        stdout(&o).contains("captures 2 kumalaks\n"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("seed"), "{}", stdout(&o));
    // Kalah(1,2): South sows 2 seeds from its one house, the store and North's house; the
    // row is empty, the game ends and North sweeps 3: North wins 3 to 1.
    let o = mancala_with_input(&["play", "--rules", "kalah(1,2)"], b"1\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Result: player 2 (North) wins by 2 seeds.\n"),
        "{}",
        stdout(&o)
    );
    // Input that ends mid-game: status 1 and one line on standard error.
    let o = mancala_with_input(&["play"], b"3\n");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(
        stderr(&o).trim(),
        "mancala: error: end of input before the end of the game (type `quit` to leave a game)"
    );
}

/// `show --position P` as every other command takes it, and the positional form alike;
/// giving both is refused.
#[test]
fn show_takes_the_position_as_an_option_too() {
    let p = "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S";
    let by_option = mancala(&["show", "--position", p]);
    let positional = mancala(&["show", p]);
    assert!(by_option.status.success(), "{}", stderr(&by_option));
    assert_eq!(stdout(&by_option), stdout(&positional));
    assert!(!mancala(&["show", p, "--position", p]).status.success());
}

/// `show` reads a Togyz Kumalak board's size off the position, as it reads a Kalah board's:
/// a 5-house position without `--rules` is drawn as under `togyz-kumalak(5,5)`, whose start
/// it is; a count of counts that makes no board is refused, naming the counts.
#[test]
fn show_reads_the_togyz_board_size_off_the_position() {
    let p = "5,5,5,5,5,0,5,5,5,5,5,0 -,- S";
    let inferred = mancala(&["show", p]);
    assert!(inferred.status.success(), "{}", stderr(&inferred));
    let given = mancala(&["show", "--rules", "togyz-kumalak(5,5)"]);
    assert!(given.status.success(), "{}", stderr(&given));
    assert_eq!(stdout(&inferred), stdout(&given));
    assert!(
        stdout(&inferred).trim_end().ends_with(p),
        "{}",
        stdout(&inferred)
    );
    // One count (a first field without a comma) in the singular.
    for (position, said) in [
        ("1,2,3 -,- S", "3 counts do not make a Togyz Kumalak board"),
        ("1 -,- S", "1 count does not make a Togyz Kumalak board"),
    ] {
        let o = mancala(&["show", position]);
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
    }
}

/// A Kalah position offering the pie-rule swap (`… N swap`, three fields as a Togyz Kumalak
/// position has) is drawn without `--rules`, as under kalah(m,4)+pie_rule, where it was read
/// as a Togyz Kumalak position and refused as one.
#[test]
fn show_reads_a_kalah_swap_position_without_rules() {
    let p = "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N swap";
    let inferred = mancala(&["show", p]);
    assert!(inferred.status.success(), "{}", stderr(&inferred));
    let given = mancala(&["show", "--rules", "kalah(6,4)+pie_rule", p]);
    assert!(given.status.success(), "{}", stderr(&given));
    assert_eq!(stdout(&inferred), stdout(&given));
    assert!(
        stdout(&inferred).contains("North to move (may swap)"),
        "{}",
        stdout(&inferred)
    );
    // A swap South is not offered: Kalah's own refusal, not Togyz Kumalak's.
    assert_refused(
        &mancala(&["show", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S swap"]),
        "`swap` is only offered under pie_rule with North to move",
    );
}

/// `bestmove --nodes N` needs no time budget; level 10 with neither budget is refused as the
/// C API refuses it, and so is `--time-ms 0` alone.
#[test]
fn bestmove_budgets() {
    let o = mancala(&["bestmove", "--nodes", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("bestmove "));
    // Level 10 without a budget is a usage error (status 2), as a value out of range is.
    for args in [
        &["bestmove", "--time-ms", "0"][..],
        &["bestmove", "--nodes", "0"],
        &["bestmove", "--time-ms", "0", "--nodes", "0"],
    ] {
        let o = mancala(args);
        assert_refused(&o, "needs a budget");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("(see `mancala bestmove --help`)"));
    }
    let o = mancala(&["play", "--engine", "--time-ms", "0"]);
    assert_refused(&o, "--time-ms 0: level 10 needs a time budget above 0");
    assert_eq!(o.status.code(), Some(2));
    let o = mancala(&["bestmove"]);
    assert_eq!(o.status.code(), Some(2));
    let o = mancala(&["bestmove", "--time-ms", "0", "--level", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The words bash completes for the command line `words` (the last one being completed),
/// with the script of `mancala completions bash` loaded into a real bash.
#[cfg(unix)]
fn bash_completes(script: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let prev = if cword > 0 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}' && COMP_WORDS=({}) && COMP_CWORD={cword} && _mancala mancala '{}' '{prev}' \
         && printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        quoted.join(" "),
        words[cword],
    );
    let o = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "bash: {}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

/// `mancala completions bash` is a script a real bash loads, completing every subcommand the
/// top-level help lists and the options of a nested one; an unknown shell is refused.
#[cfg(unix)]
#[test]
fn bash_completes_every_subcommand_from_the_script() {
    let o = mancala(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mancala.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    // The subcommands as `mancala --help` lists them (the lines under `Commands:`).
    let help = stdout(&mancala(&["--help"]));
    let names: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&n| n != "help")
        .collect();
    assert!(
        names.contains(&"completions") && names.len() >= 12,
        "{names:?}"
    );
    for name in names {
        let got = bash_completes(&script, &["mancala", &name[..3]]);
        assert!(got.iter().any(|w| w == name), "{name}: {got:?}");
    }
    let got = bash_completes(&script, &["mancala", "egdb", "build", "--max"]);
    assert_eq!(got, ["--max-seeds"]);
    // `--encoding` offers the encodings, not file names, in both commands that take it.
    for sub in ["build", "convert"] {
        let mut got = bash_completes(&script, &["mancala", "egdb", sub, "--encoding", ""]);
        got.sort();
        assert_eq!(got, ENCODINGS, "{sub}");
        let got = bash_completes(&script, &["mancala", "egdb", sub, "--encoding", "pa"]);
        assert_eq!(got, ["packed"], "{sub}");
    }
    let o = mancala(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert_refused(&o, "invalid value 'tcsh'");
}

/// Each install line of `mancala completions --help` (`… mancala completions SHELL > FILE`)
/// works as given in a fresh home, where the shell's folder does not exist yet: run by `sh`
/// with HOME there, it exits 0 and leaves the shell's script in FILE.
#[cfg(unix)]
#[test]
fn the_completions_install_lines_work_in_a_fresh_home() {
    let help = stdout(&mancala(&["completions", "--help"]));
    let lines: Vec<&str> = help
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("mancala completions ") && l.contains(" > "))
        .collect();
    assert_eq!(lines.len(), 3, "{help}");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_mancala"));
    for line in lines {
        let home = common::scratch("cli", "completions-home");
        let file = line.rsplit(" > ").next().unwrap();
        let shell = line
            .split("mancala completions ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let mut path = std::env::var("PATH").unwrap_or_default();
        path.insert_str(0, &format!("{}:", bin.parent().unwrap().display()));
        let o = std::process::Command::new("sh")
            .args(["-c", line])
            .env("HOME", &*home)
            .env("PATH", path)
            .output()
            .unwrap();
        assert!(o.status.success(), "{line}: {}", stderr(&o));
        let written = home.join(file.strip_prefix("~/").unwrap());
        let want = stdout(&mancala(&["completions", shell]));
        assert_eq!(std::fs::read_to_string(&written).unwrap(), want, "{line}");
    }
}

/// The shells `mancala completions` takes, as its help names them.
const SHELLS: [&str; 5] = ["bash", "elvish", "fish", "powershell", "zsh"];

/// The database encodings `--encoding` takes, in name order.
const ENCODINGS: [&str; 3] = ["byte", "compact", "packed"];

/// `--encoding` takes the encodings' names as before and refuses any other in the library's
/// words, with clap's status for a bad argument.
#[test]
fn encoding_values_and_their_refusal() {
    for sub in ["build", "convert"] {
        let mut args = vec!["egdb", sub, "--encoding", "Packed"];
        if sub == "convert" {
            args.push("some.egdb");
        }
        let o = mancala(&args);
        assert_eq!(o.status.code(), Some(2), "{sub}");
        // clap's refusal of a value not in the list, as `mancala-mpi egdb build` says it.
        assert_refused(
            &o,
            "invalid value 'Packed' for '--encoding <ENCODING>' [possible values: byte, packed, compact]; tip: a similar value exists: 'packed'",
        );
    }
}

/// Whether `fish` can be run; a missing one fails the test unless
/// MANCALA_SKIP_MISSING_TOOLS is set ([`common::require_tool`]).
#[cfg(unix)]
fn have_fish() -> bool {
    common::require_tool("fish", "fish")
}

/// The candidates a real fish offers for the command line `line` (completing its last word),
/// with the script of `mancala completions fish` loaded: `complete -C` prints one a line,
/// with its description after a tab, which is dropped here.
#[cfg(unix)]
fn fish_completes(script: &std::path::Path, line: &str) -> Vec<String> {
    let o = std::process::Command::new("fish")
        .args(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]"])
        .arg(script)
        .arg(line)
        .output()
        .expect("fish runs");
    assert!(o.status.success(), "fish: {}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

/// `mancala completions fish` offers the five shells after `mancala completions` in a real
/// fish (clap_complete's fish generator leaves positional arguments out; the command adds
/// them), and still completes subcommands and options.
#[cfg(unix)]
#[test]
fn fish_completes_the_shells_from_the_script() {
    let o = mancala(&["completions", "fish"]);
    assert!(o.status.success(), "{}", stderr(&o));
    if !have_fish() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("mancala.fish");
    std::fs::write(&script, &o.stdout).unwrap();
    let mut got = fish_completes(&script, "mancala completions ");
    got.sort();
    assert_eq!(got, SHELLS);
    assert_eq!(
        fish_completes(&script, "mancala --quiet completions f"),
        ["fish"]
    );
    assert!(fish_completes(&script, "mancala completions zsh ")
        .iter()
        .all(|w| !SHELLS.contains(&w.as_str())));
    assert_eq!(fish_completes(&script, "mancala bestm"), ["bestmove"]);
    assert_eq!(
        fish_completes(&script, "mancala egdb build --max"),
        ["--max-seeds"]
    );
    // `--encoding` offers the encodings, not file names.
    for sub in ["build", "convert"] {
        let mut got = fish_completes(&script, &format!("mancala egdb {sub} --encoding "));
        got.sort();
        assert_eq!(got, ENCODINGS, "{sub}");
    }
    // `mancala help` offers the subcommands (the names `mancala --help` lists), not files,
    // until one is given.
    let help = stdout(&mancala(&["--help"]));
    let mut names: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    names.sort_unstable();
    let mut got = fish_completes(&script, "mancala help ");
    got.sort();
    assert_eq!(got, names);
    assert_eq!(fish_completes(&script, "mancala help eg"), ["egdb"]);
    assert_eq!(fish_completes(&script, "mancala --quiet help eg"), ["egdb"]);
    assert_eq!(fish_completes(&script, "mancala egdb help ver"), ["verify"]);
    // A global flag is passed over wherever the command takes it: after a group's name too
    // (`mancala egdb -q help verify` is `mancala egdb help verify`).
    assert_eq!(
        fish_completes(&script, "mancala egdb --quiet help ver"),
        ["verify"]
    );
    assert_eq!(
        fish_completes(&script, "mancala -q egdb -q build --max"),
        ["--max-seeds"]
    );
    // After `help` only the rest of a subcommand's path: a group's subcommands (the names
    // `mancala egdb --help` lists), and nothing at all (no files, no names again) once the
    // path names a command.
    let listed = |args: &[&str]| -> Vec<String> {
        let mut names: Vec<String> = stdout(&mancala(args))
            .lines()
            .skip_while(|l| !l.starts_with("Commands:"))
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect();
        names.sort_unstable();
        names
    };
    // A group's names include `help` (clap takes `mancala help egdb help`), after `mancala
    // help egdb` as after `mancala egdb help`.
    for group in ["egdb", "agent"] {
        let names = listed(&[group, "--help"]);
        assert!(names.iter().any(|n| n == "help"), "{group}: {names:?}");
        for line in [
            format!("mancala help {group} "),
            format!("mancala {group} help "),
            format!("mancala {group} -q help "),
            format!("mancala --quiet {group} --quiet help "),
        ] {
            let mut got = fish_completes(&script, &line);
            got.sort();
            assert_eq!(got, names, "{line:?}");
        }
    }
    for full in [
        "mancala help help ",
        "mancala help show ",
        "mancala help egdb build ",
        "mancala help agent line ",
        "mancala help completions ",
        "mancala help show play ",
        "mancala help egdb help ",
        "mancala help agent help ",
        // A group's own `help` takes one path too: clap refuses `mancala egdb help build
        // convert` and `mancala egdb help help build`.
        "mancala egdb help build ",
        "mancala egdb help help ",
        "mancala agent help line ",
        "mancala agent help help ",
        "mancala --quiet egdb help verify ",
        "mancala egdb -q help verify ",
    ] {
        assert_eq!(
            fish_completes(&script, full),
            Vec::<String>::new(),
            "{full:?}"
        );
    }
}
