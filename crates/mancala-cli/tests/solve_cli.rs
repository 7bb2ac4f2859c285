//! `mancala solve`, `analyse` and `egdb` from the command line.

mod common;

use common::{mancala_command, mancala_text as mancala, scratch};

#[test]
fn solve_json_has_every_key() {
    let (ok, out, err) = mancala(&["solve", "--rules", "kalah(6,2)", "--json", "--tt-mb", "8"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    // Published: Kalah(6,2) standard capture is a first-player win by 6 (Rawlings 2015).
    assert_eq!(v["value"], 6);
    assert_eq!(v["score"], 6);
    assert_eq!(v["exact"], true);
    for key in ["best_moves", "pv", "nodes", "seconds"] {
        assert!(!v[key].is_null(), "missing {key}");
    }
}

/// A solve stopped by a limit has proven bounds but no value: `value` and `score` are null
/// (not a bound passed off as a value), at one thread and at two.
#[test]
fn stopped_solve_json_has_bounds_and_no_value() {
    for threads in ["1", "2"] {
        let (ok, out, err) = mancala(&[
            "solve",
            "--rules",
            "kalah(6,3)",
            "--json",
            "--tt-mb",
            "8",
            "--max-nodes",
            "2000",
            "--threads",
            threads,
        ]);
        assert!(ok, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["exact"], false, "{v}");
        assert!(v["value"].is_null() && v["score"].is_null(), "{v}");
        // Published: Kalah(6,3) is a first-player win by 2 (Rawlings 2015).
        let (lo, hi) = (v["lower"].as_i64().unwrap(), v["upper"].as_i64().unwrap());
        assert!(lo <= 2 && 2 <= hi, "{v}");
    }
}

#[test]
fn swap_that_ends_the_game_is_scored_with_the_sweep() {
    // Under end_when_no_move North may swap with an empty row; the swap is then the
    // only move and ends the game. `replay` (the rules engine) shows where it ends: the sweep
    // gives South's seed to South's store, the side the decider now holds, so the decider
    // finishes +1 ahead: value +1 (nothing stored before), score +1.
    let rules = "kalah(1,1)+pie_rule+end_when_no_move";
    let start = "1,0,0,0 N swap";
    let (ok, out, err) = mancala(&[
        "replay",
        "--rules",
        rules,
        "--position",
        start,
        "--moves",
        "swap",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().last(), Some("0,1,0,0 -"));
    let (ok, out, err) = mancala(&["solve", "--rules", rules, "--position", start, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["value"], 1);
    assert_eq!(v["score"], 1);
    assert_eq!(v["best_moves"], serde_json::json!(["swap"]));
    assert_eq!(v["pv"], serde_json::json!(["swap"]));
    // No house move: the best house move's value is absent (null), not a sentinel.
    assert_eq!(
        v["swap"],
        serde_json::json!({"swap_value": 1, "stay_value": null, "swap_is_better": true})
    );
    let (ok, out, err) = mancala(&["analyse", "--rules", rules, "--position", start, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["moves"][0]["move"], "swap");
    assert_eq!(v["moves"][0]["value"], 1);
    // The text output says so too.
    let (ok, out, err) = mancala(&["solve", "--rules", rules, "--position", start]);
    assert!(ok, "{err}");
    assert!(
        out.contains("swap        better (swap +1, no house move)"),
        "{out}"
    );
}

#[test]
fn analyse_lists_every_move_and_bad_input_fails_cleanly() {
    let (ok, out, _) = mancala(&[
        "analyse",
        "--rules",
        "kalah(6,1)+empty_capture",
        "--tt-mb",
        "8",
    ]);
    assert!(ok);
    assert_eq!(out.lines().filter(|l| l.starts_with("move")).count(), 6);
    let (ok, _, err) = mancala(&["solve", "--rules", "kalah(9,9)"]);
    assert!(!ok && err.contains("mancala:"));
    let (ok, _, err) = mancala(&["solve", "--rules", "standard", "--position", "1,2 S"]);
    assert!(!ok && err.contains("mancala:"));
}

#[test]
fn egdb_build_info_verify() {
    let scratch = scratch("solve-cli", "egdb");
    let dir = scratch.join("egdb");
    let d = dir.to_str().unwrap();
    let build_into = |out: &str| {
        mancala(&[
            "egdb",
            "build",
            "--rules",
            "kalah(4,3)",
            "--max-seeds",
            "8",
            "--out",
            out,
        ])
    };
    let (ok, out, err) = build_into(d);
    assert!(ok, "{err}");
    assert!(out.contains("built"));
    let file = dir.join("kalah4.k8.egdb");
    let f = file.to_str().unwrap();
    let (ok, out, _) = mancala(&["egdb", "info", f]);
    assert!(ok && out.contains("max seeds (K)   8"));
    // kalah(4,3) has no option: the line says so instead of being empty.
    assert!(out.lines().any(|l| l == "options         none"), "{out}");
    // `play --engine` names the database it took from the folder, on standard error.
    let mut play = mancala_command()
        .args(["play", "--rules", "kalah(4,3)", "--engine", "--egdb", d])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run mancala play");
    common::feed(&mut play, b"quit\n");
    let played = play.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&played.stderr);
    assert!(played.status.success(), "{err}");
    assert!(
        err.contains(&format!("endgame database {f} (kalah(4,·), K = 8)")),
        "{err}"
    );
    let (ok, out, _) = mancala(&["egdb", "verify", f]);
    assert!(ok && out.contains("OK"));
    // The solver finds and uses it, and says which file it took from the folder.
    let (ok, out, err) = mancala(&["solve", "--rules", "kalah(4,3)", "--egdb", d, "--json"]);
    assert!(ok, "{err}");
    let json = serde_json::from_str::<serde_json::Value>(out.trim()).unwrap();
    assert_eq!(json["exact"], true);
    assert_eq!(json["database"], f);
    let (ok, out, err) = mancala(&["solve", "--rules", "kalah(4,3)", "--egdb", d]);
    assert!(
        ok && out.contains(&format!("database    {f}")),
        "{out}{err}"
    );
    // A damaged file is refused, and the error names it.
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let (ok, _, err) = mancala(&["egdb", "verify", f]);
    assert!(!ok && err.contains("checksum"), "{err}");
    let (ok, _, err) = mancala(&["solve", "--rules", "kalah(4,3)", "--egdb", d]);
    assert!(!ok && err.contains("checksum") && err.contains(f), "{err}");
    // An --out that cannot be a folder (a file stands in the way) is refused before any
    // building: the message is the up-front check's (`--out …`), not the save's.
    let not_a_dir = dir.join("kalah4.k8.egdb").join("sub");
    let (ok, _, err) = build_into(not_a_dir.to_str().unwrap());
    assert!(
        !ok && err.contains(&format!("--out {}", not_a_dir.display())),
        "{err}"
    );
}

/// `--threads` above the processors this process may run on is said in one warning line
/// naming them (not under `--quiet`), and not refused: the value and the principal
/// variation are those of one thread.
#[test]
fn threads_above_the_processors_are_warned_about() {
    let cpus = std::thread::available_parallelism().unwrap().get();
    let many = (cpus + 1).to_string();
    let scratch = scratch("solve-cli", "threads");
    let dir = scratch.join("threads");
    let d = dir.to_str().unwrap().to_string();
    let one = mancala(&[
        "solve",
        "--rules",
        "kalah(4,1)",
        "--threads",
        "1",
        "--no-cache",
    ]);
    assert!(one.0 && one.2.is_empty(), "{}", one.2);
    let words = if cpus == 1 { "processor" } else { "processors" };
    let warning = format!(
        "mancala: warning: --threads {many} is more than the {cpus} {words} of this machine"
    );
    for args in [
        vec![
            "solve",
            "--rules",
            "kalah(4,1)",
            "--threads",
            &many,
            "--no-cache",
        ],
        vec![
            "egdb",
            "build",
            "--rules",
            "kalah(3,1)",
            "--max-seeds",
            "4",
            "--out",
            &d,
            "--threads",
            &many,
        ],
    ] {
        let (ok, out, err) = mancala(&args);
        assert!(ok, "{args:?}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with(&warning), "{args:?}: {err}");
        assert_eq!(err.matches("warning").count(), 1, "{args:?}: {err}");
        if args[0] == "solve" {
            let answer = |t: &str| -> Vec<String> {
                t.lines()
                    .filter(|l| l.starts_with("value") || l.starts_with("pv"))
                    .map(String::from)
                    .collect()
            };
            assert_eq!(answer(&out), answer(&one.1), "the same answer");
            assert_eq!(answer(&out).len(), 2, "{out}");
        }
        let mut quiet = vec!["--quiet"];
        quiet.extend(&args);
        let (ok, _, err) = mancala(&quiet);
        assert!(ok && !err.contains("warning"), "{quiet:?}: {err}");
    }
}

/// A wrong `--egdb` (a missing file, a file that is no database, a folder without one, a
/// database of other rules) is refused by `solve` and `analyse` whatever `--max-seconds`, 0
/// included (nothing is read then, but the path is still looked at), in the words of the
/// refusal without a limit; and by `bestmove` with a budget of 1 ms or 1 node.
#[test]
fn a_wrong_egdb_is_refused_whatever_the_budget() {
    let dir = scratch("solve-cli", "wrong-egdb");
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let not_db = dir.join("notes.txt");
    std::fs::write(&not_db, "not a database\n").unwrap();
    let missing = dir.join("no-such-file.egdb");
    let missing = missing.to_str().unwrap();
    // A database of other rules (empty capture, where the solves are of standard Kalah):
    // its header says so before its entries are read.
    let other = dir.join("other.egdb");
    let other = other.to_str().unwrap();
    let (ok, _, err) = mancala(&[
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)+empty_capture",
        "--max-seeds",
        "4",
        "--out",
        other,
    ]);
    assert!(ok, "{err}");
    let paths = [
        missing,
        empty.to_str().unwrap(),
        not_db.to_str().unwrap(),
        other,
    ];
    for path in paths {
        for cmd in ["solve", "analyse"] {
            let (ok, out, unlimited) = mancala(&[
                cmd,
                "--rules",
                "kalah(4,3)",
                "--threads",
                "1",
                "--egdb",
                path,
            ]);
            assert!(!ok && out.is_empty(), "{cmd} --egdb {path}: {out}");
            assert!(
                unlimited.starts_with("mancala: error: --egdb: ") && unlimited.lines().count() == 1,
                "{cmd} --egdb {path}: {unlimited}"
            );
            for seconds in ["0", "0.000001", "10"] {
                let (ok, out, err) = mancala(&[
                    cmd,
                    "--rules",
                    "kalah(4,3)",
                    "--threads",
                    "1",
                    "--max-seconds",
                    seconds,
                    "--egdb",
                    path,
                ]);
                assert!(
                    !ok && out.is_empty(),
                    "{cmd} --max-seconds {seconds} --egdb {path}: {out}"
                );
                assert_eq!(
                    err, unlimited,
                    "{cmd} --max-seconds {seconds} --egdb {path}"
                );
            }
        }
        for budget in [["--time-ms", "1"], ["--nodes", "1"]] {
            let (ok, out, err) = mancala(&[
                "bestmove",
                "--rules",
                "kalah(4,3)",
                budget[0],
                budget[1],
                "--egdb",
                path,
            ]);
            assert!(
                !ok && out.is_empty(),
                "bestmove {budget:?} --egdb {path}: {out}"
            );
            assert!(
                err.starts_with("mancala: error: --egdb: ") && err.lines().count() == 1,
                "bestmove {budget:?} --egdb {path}: {err}"
            );
        }
    }
    // A missing file is named with the system's reason.
    let (_, _, err) = mancala(&["solve", "--max-seconds", "0", "--egdb", missing]);
    assert_eq!(
        err,
        format!("mancala: error: --egdb: {missing}: No such file or directory (os error 2)\n")
    );
}

/// A position too large to solve exactly (Kalah(7,18): 252 seeds on 14 houses, C(266, 14)
/// keys, above 2^62) is refused in one line before any database is looked for: with an empty
/// cache folder and a time limit, no note that a database is missing (building one would
/// not help). The words are the solver's `SolveError::TooLarge`.
#[test]
fn a_position_too_large_is_refused_before_the_cache_is_looked_at() {
    let dir = scratch("solve-cli", "too-large");
    for cmd in ["solve", "analyse"] {
        for limit in [&["--max-seconds", "0.5"][..], &[]] {
            let out = mancala_command()
                .env_remove("MANCALA_NO_CACHE")
                .env("MANCALA_CACHE_DIR", &*dir)
                .args([cmd, "--rules", "kalah(7,18)"])
                .args(limit)
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{cmd} {limit:?}: {err}");
            assert!(out.stdout.is_empty(), "{cmd} {limit:?}");
            assert_eq!(
                err,
                "mancala: error: 252 seeds in the houses of a 7-house board are too many to solve exactly\n",
                "{cmd} {limit:?}"
            );
        }
    }
    assert_eq!(
        std::fs::read_dir(&*dir).unwrap().count(),
        0,
        "nothing cached"
    );
}
