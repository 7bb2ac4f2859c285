//! The command line's messages: a missing argument is named, every
//! subcommand prefixes an argument's error the same way, Kalah-only commands say so, `show`
//! counts slots, rule names are case-insensitive, a limited solve says what stopped it and
//! what it proved, and `show` without a position draws the start. Progress never reaches a
//! standard error that is not a terminal.

mod common;

use std::process::Output;

use common::{mancala, mancala_command, text};

/// A refused command: non-zero status, one line on standard error containing `needle`.
fn refused(args: &[&str], needle: &str) {
    let o = mancala(args);
    let err = text(&o.stderr);
    assert!(
        !o.status.success(),
        "{args:?} should fail: {}",
        text(&o.stdout)
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "{args:?}: one line: {err}"
    );
    assert!(
        err.contains(needle),
        "{args:?}: {err:?} should contain {needle:?}"
    );
}

#[test]
fn a_missing_required_argument_is_named() {
    refused(&["bestmove"], "--time-ms");
    refused(&["perft"], "--depth");
    refused(&["egdb", "build", "--rules", "standard"], "--max-seeds");
    refused(&["replay"], "--moves");
}

/// A number outside an option's range, negative ones included, is refused with the real
/// range (not the type's `0..=4294967295`), one message for every value.
#[test]
fn a_number_out_of_range_is_refused_with_the_real_range() {
    let out = concat!(env!("CARGO_TARGET_TMPDIR"), "/never-made");
    // `egdb build` with `opt v` and, unless that is the option tried, `--max-seeds 2`.
    let build = |opt: &'static str, v: &'static str| {
        let mut args = vec!["egdb", "build", "--rules", "standard", "--out", out, opt, v];
        if opt != "--max-seeds" {
            args.extend(["--max-seeds", "2"]);
        }
        args
    };
    for (args, needle) in [
        (
            build("--max-seeds", "-1"),
            "'--max-seeds <MAX_SEEDS>': -1 is out of range (0 to 127)",
        ),
        (
            build("--max-seeds", "128"),
            "'--max-seeds <MAX_SEEDS>': 128 is out of range (0 to 127)",
        ),
        (
            build("--threads", "-1"),
            "'--threads <THREADS>': -1 is out of range (0 to 1024)",
        ),
        (
            build("--threads", "1025"),
            "'--threads <THREADS>': 1025 is out of range (0 to 1024)",
        ),
        (
            vec!["bench", "--threads", "-1"],
            "-1 is out of range (1 to 1024)",
        ),
        (
            vec!["bench", "--threads", "0"],
            "0 is out of range (1 to 1024)",
        ),
        (
            vec!["bench", "--tt-mb", "-1"],
            "-1 is out of range (1 to 1048576)",
        ),
        (
            vec!["bestmove", "--time-ms", "1", "--level", "-1"],
            "-1 is out of range (1 to 10)",
        ),
        (
            vec!["bestmove", "--time-ms", "1", "--tt-mb", "-1"],
            "-1 is out of range (1 to 4096)",
        ),
        (
            vec!["bestmove", "--time-ms", "1", "--tt-mb", "5000"],
            "5000 is out of range (1 to 4096)",
        ),
        (
            vec!["play", "--level", "-1"],
            "-1 is out of range (1 to 10)",
        ),
        (vec!["play", "--level", "0"], "0 is out of range (1 to 10)"),
        (
            vec!["agent", "manchester", "--level", "11"],
            "11 is out of range (1 to 10)",
        ),
        (
            vec!["agent", "manchester", "--tt-mb", "-1"],
            "-1 is out of range (1 to 4096)",
        ),
        (
            vec!["egdb", "build", "--threads", "99999999999999999999999"],
            "99999999999999999999999 is out of range (0 to 1024)",
        ),
        (
            vec!["bestmove", "--time-ms", "-1"],
            "'--time-ms <TIME_MS>': -1 is out of range (0 to 86400000)",
        ),
        // A time of more than a day is refused with the range in words, not the type's.
        (
            vec!["grade", "--level", "3", "--time-ms", "86400001"],
            "'--time-ms <TIME_MS>': 86400001 is out of range (1 to 86400000)",
        ),
        (
            vec!["agent", "line", "--time-ms", "18446744073709551615"],
            "18446744073709551615 is out of range (0 to 86400000)",
        ),
        (
            vec!["bestmove", "--time-ms", "1", "--nodes", "-5"],
            "-5 is out of range (0 or more, below 2^64)",
        ),
        (
            vec!["play", "--time-ms", "1.5"],
            "'--time-ms <TIME_MS>': not a whole number (0 to 86400000)",
        ),
        (
            vec!["agent", "manchester", "--game-ms", "-1"],
            "-1 is out of range (0 to 86400000)",
        ),
    ] {
        refused(&args, needle);
    }
}

/// `solve`'s numbers: the same real ranges, and `--max-seconds` says its limit (a huge one
/// made the solve panic on its deadline).
#[test]
fn solve_refuses_numbers_with_their_real_range() {
    for (args, needle) in [
        (
            vec!["solve", "--threads", "-1"],
            "-1 is out of range (0 to 1024)",
        ),
        (
            vec!["solve", "--tt-mb", "0"],
            "0 is out of range (1 to 1048576)",
        ),
        (
            vec!["solve", "--max-nodes", "-1"],
            "-1 is out of range (0 or more, below 2^64)",
        ),
        (
            vec!["solve", "--max-seconds", "1e30"],
            "'--max-seconds <MAX_SECONDS>': expected a number of seconds from 0 to 1e9",
        ),
        (
            vec!["solve", "--rules", "kalah(3,2)", "--max-seconds", "1e19"],
            "from 0 to 1e9",
        ),
        (vec!["solve", "--max-seconds", "-1"], "from 0 to 1e9"),
        (vec!["solve", "--max-seconds", "NaN"], "from 0 to 1e9"),
    ] {
        refused(&args, needle);
    }
    let o = mancala(&["solve", "--rules", "kalah(3,2)", "--max-seconds", "1e9"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// An error in a subcommand of a subcommand names that one's help.
#[test]
fn an_error_names_the_help_of_the_deepest_subcommand() {
    refused(
        &["egdb", "build", "--rules", "standard", "--max-seeds", "2"],
        "(see `mancala egdb build --help`)",
    );
    refused(
        &["agent", "manchester", "--level", "0"],
        "(see `mancala agent manchester --help`)",
    );
    refused(&["egdb", "verify"], "(see `mancala egdb verify --help`)");
    refused(&["perft", "--depth", "0"], "(see `mancala perft --help`)");
}

/// A file where a folder should be is named as such, not by the system's bare text: `egdb
/// build --out` (the file itself, or one above it) and the cache folder; a socket or a FIFO
/// as what it is.
#[test]
fn a_file_in_the_way_of_a_folder_is_named() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("file-in-the-way");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("some-file");
    std::fs::write(&file, b"not a folder\n").unwrap();
    let f = file.to_str().unwrap();
    let build = |out: &str| {
        mancala(&[
            "egdb",
            "build",
            "--rules",
            "kalah(2,1)",
            "--max-seeds",
            "2",
            "--out",
            out,
        ])
    };
    let o = build(f);
    assert!(!o.status.success());
    assert_eq!(
        text(&o.stderr),
        format!("mancala: error: --out {f}: it is a file, not a folder\n")
    );
    let sub = format!("{f}/sub");
    let o = build(&sub);
    assert!(!o.status.success());
    assert_eq!(
        text(&o.stderr),
        format!("mancala: error: --out {sub}: {f} is a file, not a folder\n")
    );
    // A socket (as a FIFO or a device) is no file: named for what it is.
    #[cfg(unix)]
    {
        let sock = dir.join("sock");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        let s = sock.to_str().unwrap();
        let o = build(s);
        assert!(!o.status.success());
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {s}: it is a FIFO, socket or device, not a folder\n")
        );
        let sub = format!("{s}/sub");
        let o = build(&sub);
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {sub}: {s} is a FIFO, socket or device, not a folder\n")
        );
        // A symbolic link to itself: the system says only "File exists".
        let looped = dir.join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        let l = looped.to_str().unwrap();
        let nowhere = "a symbolic link that leads nowhere (a loop, or a missing target)";
        let o = build(l);
        assert!(!o.status.success());
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {l}: it is {nowhere}, not a folder\n")
        );
        let sub = format!("{l}/sub");
        let o = build(&sub);
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {sub}: {l} is {nowhere}, not a folder\n")
        );
        // A file named below it: the path as given, the link named (as `mancala-mpi` says).
        let below = format!("{l}/x.egdb");
        let o = build(&below);
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {below}: {l} is {nowhere}, not a folder\n")
        );
        // A trailing slash changes nothing.
        let slashed = format!("{l}/");
        let o = build(&slashed);
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --out {slashed}: it is {nowhere}, not a folder\n")
        );
    }
    // The cache folder: a warning naming what stands in the way, and the solve goes on
    // without a database.
    let solve_with_cache = |cache: &str| {
        let o = mancala_command()
            .env_remove("MANCALA_NO_CACHE")
            .env("MANCALA_CACHE_DIR", cache)
            .args(["solve", "--rules", "kalah(2,1)"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let warning = |why: String| {
        format!(
            "mancala: warning: cannot use the endgame database cache ({why}); \
             going on without a database\n"
        )
    };
    let cache = format!("{f}/cache");
    assert_eq!(
        solve_with_cache(f),
        warning(format!("{f}: it is a file, not a folder"))
    );
    assert_eq!(
        solve_with_cache(&cache),
        warning(format!("{cache}: {f} is a file, not a folder"))
    );
    // A FIFO is no file: the cache's warning names it for what it is (it said "a file").
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let p = fifo.to_str().unwrap();
        assert_eq!(
            solve_with_cache(p),
            warning(format!("{p}: it is a FIFO, socket or device, not a folder"))
        );
        let cache = format!("{p}/cache");
        assert_eq!(
            solve_with_cache(&cache),
            warning(format!(
                "{cache}: {p} is a FIFO, socket or device, not a folder"
            ))
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A path of 100,000 characters (under the system's 128 KiB limit on one argument) that no
/// file has: each command says so in one short line, the path cut to its first 30 and last
/// 29 characters and its length, as rule sets and positions are cut to 60 characters (a
/// path is shown whole up to 256 characters).
#[test]
fn a_long_path_is_cut_in_messages() {
    let path = format!("/tmp/{}/x.egdb", "a".repeat(100_000));
    let cut = format!(
        "/tmp/{}…{}/x.egdb ({} characters)",
        "a".repeat(25),
        "a".repeat(22),
        path.len()
    );
    for args in [
        vec!["egdb", "info", &path],
        vec!["egdb", "verify", &path],
        vec!["egdb", "convert", &path, "--encoding", "packed"],
        vec!["solve", "--egdb", &path],
        vec!["solve", "--rules", "awari", "--egdb", &path],
        vec![
            "egdb",
            "build",
            "--rules",
            "kalah(3,3)",
            "--max-seeds",
            "4",
            "--out",
            &path,
        ],
        vec![
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "4",
            "--out",
            &path,
        ],
        vec!["bench", "--egdb", &path],
        vec!["grade", "--file", &path, "--level", "3"],
    ] {
        let o = mancala(&args);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{}", &args[..2].join(" "));
        // The path, or its folder (the path without `/x.egdb`).
        let folder = format!("…{} ({} characters)", "a".repeat(29), path.len() - 7);
        assert!(
            err.len() < 400 && (err.contains(&cut) || err.contains(&folder)),
            "{}: {err}",
            &args[..2].join(" ")
        );
    }
}

#[test]
fn every_subcommand_names_a_bad_rules_argument_the_same_way() {
    let bad = "kalah(9,4)";
    for args in [
        vec!["show", "--rules", bad],
        vec!["play", "--rules", bad],
        vec!["replay", "--rules", bad, "--moves", "1"],
        vec!["perft", "--rules", bad, "--depth", "1"],
        vec!["solve", "--rules", bad],
        vec!["analyse", "--rules", bad],
        vec!["bestmove", "--rules", bad, "--time-ms", "10"],
        vec![
            "egdb",
            "build",
            "--rules",
            bad,
            "--max-seeds",
            "1",
            "--out",
            "/nonexistent",
        ],
    ] {
        refused(&args, "mancala: error: --rules kalah(9,4): ");
    }
}

/// A mistyped rule-set name gets every game's forms and the name meant; a bad option value
/// lists the values the option accepts, for every game; clap's tip is set off from its
/// message.
#[test]
fn a_mistyped_name_or_value_says_what_was_meant() {
    refused(
        &["show", "--rules", "standrad"],
        "; did you mean `standard`?",
    );
    refused(&["show", "--rules", "owar"], "; did you mean `oware`?");
    refused(
        &["show", "--rules", "xyzzy"],
        "`bao-la-kete[+name=value…]` (Bao la Kete)",
    );
    refused(
        &["show", "--rules", "bao-la-kete+safari=maybe"],
        "bad value `maybe` for rule option `safari` (accepted: forced, choice)",
    );
    refused(
        &["show", "--rules", "bao-la-kete+kuu_lap_exempt=yes"],
        "(accepted: on, off)",
    );
    refused(
        &["show", "--rules", "oware+grand_slam=maybe"],
        "(accepted: none, all, forbidden, leave_last, unless_only)",
    );
    refused(
        &["solve", "--rulez", "standard"],
        "unexpected argument '--rulez' found; tip: a similar argument exists: '--rules'",
    );
}

#[test]
fn every_subcommand_names_a_bad_position_the_same_way() {
    let bad = "4,4,4 S";
    for args in [
        vec!["play", "--position", bad],
        vec!["replay", "--position", bad, "--moves", "1"],
        vec!["perft", "--position", bad, "--depth", "1"],
        vec!["solve", "--position", bad],
        vec!["analyse", "--position", bad],
        vec!["bestmove", "--position", bad, "--time-ms", "10"],
    ] {
        refused(&args, "mancala: error: --position 4,4,4 S: ");
    }
    // `show` takes the position as its positional argument, named without `--`.
    refused(
        &["show", "--rules", "standard", bad],
        "mancala: error: position 4,4,4 S: ",
    );
}

#[test]
fn kalah_only_commands_refuse_bao_as_such() {
    for args in [
        vec!["solve", "--rules", "bao-la-kete"],
        vec!["analyse", "--rules", "bao-la-kete"],
        vec!["solve", "--rules", "togyz-kumalak"],
        vec![
            "egdb",
            "build",
            "--rules",
            "bao-la-kete",
            "--max-seeds",
            "1",
            "--out",
            "/x",
        ],
    ] {
        refused(&args, "for Kalah and the Awari rule sets only");
    }
}

#[test]
fn show_counts_the_slots_of_a_board_that_cannot_be() {
    // 5 slots: no Kalah board has an odd number (2m + 2).
    refused(
        &["show", "4,4,4,4,4 S"],
        "5 slots do not make a Kalah board",
    );
    refused(&["show", "4,4 S"], "2 slots do not make a Kalah board");
    // One number: one slot, in the singular.
    refused(&["show", "4 S"], "1 slot does not make a Kalah board");
    // 18 slots: m = 8, more than 7 houses a side.
    refused(
        &["show", "1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,0 S"],
        "18 slots do not make a Kalah board",
    );
}

/// A position of Togyz Kumalak's shape (three fields: houses and kazans, tuzdyks, side) is
/// shown as Togyz Kumalak without `--rules`, the same as with it.
#[test]
fn show_reads_a_togyz_position_without_rules() {
    let p = "9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0 -,- S";
    let plain = mancala(&["show", p]);
    let ruled = mancala(&["show", "--rules", "togyz-kumalak", p]);
    assert!(plain.status.success(), "{}", text(&plain.stderr));
    assert_eq!(text(&plain.stdout), text(&ruled.stdout));
    assert_eq!(text(&plain.stdout).lines().last(), Some(p));
}

#[test]
fn rule_names_are_case_insensitive_as_moves_are() {
    let upper = mancala(&[
        "perft",
        "--rules",
        "KALAH(6,4)+EMPTY_CAPTURE",
        "--depth",
        "3",
    ]);
    let lower = mancala(&[
        "perft",
        "--rules",
        "kalah(6,4)+empty_capture",
        "--depth",
        "3",
    ]);
    assert!(upper.status.success(), "{}", text(&upper.stderr));
    let counts = |o: &Output| -> Vec<String> {
        text(&o.stdout)
            .lines()
            .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(counts(&upper), counts(&lower));
    let bao = mancala(&["perft", "--rules", "Bao-La-Kete", "--depth", "1"]);
    assert!(bao.status.success(), "{}", text(&bao.stderr));
    // Every keyword, in any case (docs/notation.md, "Letter case"): option values, side
    // letters, `swap`; printed back in the canonical case.
    for (args, canonical) in [
        (
            vec!["show", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 s"],
            "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S",
        ),
        (
            vec![
                "show",
                "--rules",
                "kalah(6,4)+pie_rule",
                "0,5,5,5,5,4,0,4,4,4,4,4,4,0 n SWAP",
            ],
            "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N swap",
        ),
        (
            vec!["show", "--rules", "bao-la-kete+safari=CHOICE"],
            "22,22 SN S -",
        ),
    ] {
        let o = mancala(&args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains(canonical),
            "{args:?}: {}",
            text(&o.stdout)
        );
    }
    let o = mancala(&[
        "replay",
        "--rules",
        "BAO-LA-KETE+Safari=Choice",
        "--moves",
        "f6>,F7<",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The command's own words as well: `--opponent RANDOM`, and `QUIT` typed in a game.
    let mut child = mancala_command()
        .args(["play", "--opponent", "RANDOM"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    common::feed(&mut child, b"QUIT\n");
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !text(&o.stdout).contains("end of input"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn a_limited_solve_says_what_stopped_it_and_what_it_proved() {
    let o = mancala(&[
        "solve",
        "--rules",
        "standard",
        "--max-nodes",
        "20000",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let line = out.lines().find(|l| l.starts_with("value")).unwrap();
    assert!(line.contains("not proven"), "{line}");
    assert!(
        line.contains("ran out of nodes: --max-nodes 20000"),
        "{line}"
    );
    assert!(line.contains("proven so far: between"), "{line}");
    let o = mancala(&[
        "solve",
        "--rules",
        "standard",
        "--max-seconds",
        "0.2",
        "--threads",
        "1",
    ]);
    let out = text(&o.stdout);
    let line = out.lines().find(|l| l.starts_with("value")).unwrap();
    assert!(
        line.contains("ran out of time: --max-seconds 0.2"),
        "{line}"
    );
    // A tiny limit is echoed as it was written, not as 1e-300 written out in 300 digits.
    let o = mancala(&[
        "solve",
        "--rules",
        "kalah(4,3)",
        "--no-cache",
        "--max-seconds",
        "1e-300",
        "--threads",
        "1",
    ]);
    let out = text(&o.stdout);
    let line = out.lines().find(|l| l.starts_with("value")).unwrap();
    assert!(
        line.contains("ran out of time: --max-seconds 1e-300 reached"),
        "{line}"
    );
}

/// `analyse` stopped before any move is proven says so ("no move proven", not "not every
/// move proven … the others"), and every bound it prints lies in the game's range: a move's
/// value in Kalah(6,4) is a difference of shares of the 48 seeds, so within −48..=+48 (the
/// driver's search window is one wider on each side, which was printed as ±49).
#[test]
fn analyse_stopped_early_prints_bounds_inside_the_game() {
    let o = mancala(&[
        "analyse",
        "--rules",
        "kalah(6,4)+empty_capture",
        "--no-cache",
        "--max-nodes",
        "10",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let note = out.lines().find(|l| l.starts_with("note")).unwrap();
    assert!(note.contains("no move proven"), "{note}");
    let mut moves = 0;
    for line in out.lines().filter(|l| l.starts_with("move")) {
        moves += 1;
        let bounds = line.split_whitespace().nth(2).unwrap();
        let (lo, hi) = bounds.split_once("..=").unwrap();
        let (lo, hi): (i32, i32) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert!(
            (-48..=48).contains(&lo) && (-48..=48).contains(&hi) && lo <= hi,
            "{line}"
        );
    }
    assert_eq!(moves, 6, "{out}");
    // The node limit holds for the whole analysis, not for each move: the solver looks at
    // its limits every 2048 nodes (`Solver::node_limit`), so one look after the limit is
    // passed stops it; per move it was six times that.
    let nodes: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("nodes"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(nodes <= 10 + 2 * 2048, "{nodes} nodes for --max-nodes 10");
}

/// `--max-nodes` stops the first guess of MTD(f) too (a depth-10 estimate of ~10⁵ nodes on
/// Kalah(6,4) that ran to the end before); `analyse --json` gives a move's value only when
/// it is proven; `analyse` and `solve` of a finished game say that it is over.
#[test]
fn limits_stop_the_first_guess_and_unproven_values_are_null() {
    let o = mancala(&["solve", "--max-nodes", "1", "--threads", "1", "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // One look at the limits in the guess and one in the first probe, each within 2048
    // nodes (`Solver::node_limit`); the guess alone was ~65,000 nodes before.
    assert!(v["nodes"].as_u64().unwrap() < 10_000, "{v}");
    assert!(v["value"].is_null(), "{v}");
    let o = mancala(&[
        "analyse",
        "--rules",
        "kalah(6,3)",
        "--max-nodes",
        "3000",
        "--threads",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["value"].is_null(), m["exact"] == false, "{m}");
    }
    // South's store 14, North's 10, no seed left: over, South won by 4.
    let over = [
        "--rules",
        "kalah(4,3)",
        "--position",
        "0,0,0,0,14,0,0,0,0,10 -",
    ];
    let o = mancala(&[&["analyse"][..], &over].concat());
    let out = text(&o.stdout);
    assert!(out.contains("the game is over: no move to value"), "{out}");
    assert!(!out.contains("limit"), "{out}");
    let o = mancala(&[&["solve"][..], &over].concat());
    let out = text(&o.stdout);
    assert!(out.contains("score       +4 (the game is over"), "{out}");
    assert!(out.contains("best moves  none"), "{out}");
}

#[test]
fn show_without_a_position_draws_the_start() {
    let o = mancala(&["show"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Kalah(6,4): four seeds in each of the twelve houses, empty stores, South to move.
    assert!(
        text(&o.stdout).ends_with("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S\n"),
        "{}",
        text(&o.stdout)
    );
    let o = mancala(&["show", "--rules", "kalah(3,2)"]);
    assert!(
        text(&o.stdout).ends_with("2,2,2,0,2,2,2,0 S\n"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn no_progress_reaches_a_standard_error_that_is_not_a_terminal() {
    for args in [
        vec!["solve", "--rules", "kalah(4,3)", "--threads", "1"],
        vec!["analyse", "--rules", "kalah(3,3)", "--threads", "1"],
        vec!["perft", "--rules", "kalah(3,2)", "--depth", "12"],
    ] {
        let o = mancala(&args);
        assert!(o.status.success(), "{args:?}");
        assert_eq!(text(&o.stderr), "", "{args:?}");
    }
    // `--quiet` is accepted by every subcommand (a global option).
    let o = mancala(&["solve", "--quiet", "--rules", "kalah(3,2)"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
}

/// A bad clock in the environment is quoted shortened (60 characters, then `…`), on one line
/// (found by the review: a 100 KB value was echoed whole).
#[test]
fn a_long_bad_agent_clock_variable_is_quoted_shortened() {
    let long = "x".repeat(100_000);
    let o = mancala_command()
        .args(["agent", "manchester"])
        .env("MANCALA_AGENT_GAME_MS", &long)
        .output()
        .expect("run mancala");
    let err = text(&o.stderr);
    assert!(!o.status.success());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(&format!("'{}…'", "x".repeat(60))), "{err}");
    assert!(err.len() < 200, "{} bytes", err.len());
}

/// The agent's game clock takes at most one day (86,400,000 ms), as every other time option
/// of the command, from the flag and from the variable alike: a longer one gave each search a
/// time limit it never reached, and the agent did not answer `START` (found by a review:
/// `--game-ms 18446744073709551615` gave no `MOVE` in a minute).
#[test]
fn the_agent_s_game_clock_is_at_most_one_day() {
    let day: u64 = 24 * 60 * 60 * 1000;
    let o = mancala(&["agent", "manchester", "--game-ms", &(day + 1).to_string()]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains(&format!("{} is out of range (0 to {day})", day + 1)),
        "{err}"
    );
    let o = mancala_command()
        .args(["agent", "manchester"])
        .env("MANCALA_AGENT_GAME_MS", u64::MAX.to_string())
        .output()
        .expect("run mancala");
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("{} is out of range (0 to {day}", u64::MAX)),
        "{err}"
    );
}

/// The agent's clock variable is read as its flag: a refused value gets the flag's reason
/// (`-1` was "not a whole number" from the variable and "out of range" from the flag), and
/// an empty variable counts as unset (it was refused), so the agent plays on its default
/// clock and ends at the referee's `END`. The exit status follows the command's rule (1 for
/// a refused input, 2 for a malformed command line): 2 for the flag, 1 for the variable, as
/// for a cache folder from `MANCALA_CACHE_DIR` that `egdb build --cache` cannot use.
#[test]
fn the_agent_s_clock_variable_is_read_as_its_flag() {
    let agent = |env: Option<&str>, args: &[&str]| {
        let mut c = mancala_command();
        c.args(["agent", "manchester"]).args(args);
        if let Some(v) = env {
            c.env("MANCALA_AGENT_GAME_MS", v);
        }
        let mut child = c
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run mancala");
        // A refused clock ends the command before it reads: the pipe may be closed.
        let _ = std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"END\n");
        child.wait_with_output().unwrap()
    };
    // An 86-digit value is shown by its first 60 digits and `…`, in both parts of both
    // messages (the flag's message once echoed all 86).
    let huge = "9".repeat(86);
    let shown = format!("{}…", "9".repeat(60));
    let huge_why = format!("{shown} is out of range (0 to 86400000)");
    for (value, shown, why) in [
        ("-1", "-1", "-1 is out of range (0 to 86400000)"),
        (
            "86400001",
            "86400001",
            "86400001 is out of range (0 to 86400000)",
        ),
        ("abc", "abc", "not a whole number (0 to 86400000)"),
        ("1.5", "1.5", "not a whole number (0 to 86400000)"),
        (huge.as_str(), shown.as_str(), huge_why.as_str()),
    ] {
        // The flag and the variable word the refusal alike: the value, the name, the why.
        let flag = agent(None, &["--game-ms", value]);
        assert_eq!(flag.status.code(), Some(2), "--game-ms {value}");
        let flag_err = text(&flag.stderr);
        assert!(
            flag_err.contains(&format!(
                "mancala: error: invalid value '{shown}' for '--game-ms <GAME_MS>': {why} (see"
            )),
            "{flag_err}"
        );
        let var = agent(Some(value), &[]);
        assert_eq!(var.status.code(), Some(1), "MANCALA_AGENT_GAME_MS={value}");
        assert_eq!(
            text(&var.stderr).trim_end(),
            format!("mancala: error: invalid value '{shown}' for 'MANCALA_AGENT_GAME_MS': {why}")
        );
        assert!(!flag_err.contains(&"9".repeat(61)), "{flag_err}");
    }
    for env in [None, Some(""), Some("60000")] {
        let o = agent(env, &[]);
        assert!(o.status.success(), "{env:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{env:?}");
    }
    // The other variable's refused input: a file where the cache folder should be.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("agent-clock-status");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder\n").unwrap();
    let o = mancala_command()
        .env_remove("MANCALA_NO_CACHE")
        .env("MANCALA_CACHE_DIR", &file)
        .args(["egdb", "build", "--rules", "kalah(2,1)", "--cache"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `replay --moves` reads a move list as the line protocol does: an empty move between two
/// commas, or a comma first or last, is refused (naming where) before anything is printed,
/// for every game; spaces and single commas separate moves alike.
#[test]
fn replay_refuses_an_empty_move_between_commas() {
    for rules in ["standard", "oware", "togyz-kumalak"] {
        let o = mancala(&["replay", "--rules", rules, "--moves", "1,,2"]);
        assert!(!o.status.success(), "{rules}");
        assert!(text(&o.stdout).is_empty(), "{rules}: {}", text(&o.stdout));
        assert_eq!(
            text(&o.stderr).trim_end(),
            "mancala: error: --moves: an empty move after move 1 (a comma with no move after it)"
        );
        refused(
            &["replay", "--rules", rules, "--moves", ",1"],
            "--moves: a comma before the first move",
        );
        refused(
            &["replay", "--rules", rules, "--moves", "1 2,"],
            "--moves: an empty move after move 2",
        );
    }
    // "1 2, 3" is three moves: the start and three positions.
    let o = mancala(&["replay", "--moves", "1 2, 3"]);
    assert!(o.status.success());
    assert_eq!(text(&o.stdout).lines().count(), 4);
}
