//! The Oware databases of the rule sets other than `awari` on the command line:
//! `egdb build --rules "oware+majority=off+cycle_score=split"` (Abapa's grand slam and
//! must-feed rule, no majority end, cycles split), `egdb info` of its file, `solve` and
//! `analyse` answering from it, and files of two rule sets side by side in a folder and in
//! the cache, each serving its own rule set only. The values asserted are OW-11.3's: the
//! board `0,0,0,0,0,1,23,1,0,0,0,0,0,23 S` is worth +2 to South under `awari` (the grand
//! slam, his only move, captures North's house 1 and leaves North without a move) and −2
//! under `grand_slam=none` (the grand slam captures nothing and North, unable to feed South,
//! keeps his two seeds).

mod common;

use std::path::Path;
use std::process::{Output, Stdio};

use common::{mancala_text, scratch, stderr, stdout};

const NEIGHBOUR: &str = "oware+majority=off+cycle_score=split";
const TWO: &str = "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S";

/// `mancala ARGS` with the cache folder `cache` (and the cache on).
fn cached(cache: &Path, args: &[&str]) -> Output {
    common::mancala_command()
        .env_remove("MANCALA_NO_CACHE")
        .env("MANCALA_CACHE_DIR", cache)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mancala")
}

#[test]
fn the_abapa_neighbour_builds_and_answers_beside_awari() {
    let dir = scratch("oware-dbs-cli", "files");
    let out = dir.to_str().unwrap();
    let (ok, built, err) = mancala_text(&[
        "egdb",
        "build",
        "--rules",
        NEIGHBOUR,
        "--max-seeds",
        "6",
        "--out",
        out,
    ]);
    assert!(ok, "{err}");
    assert!(
        built.starts_with("built awari+grand_slam=none, levels 0..=6"),
        "{built}"
    );
    let file = dir.join("awari+grand_slam=none.n6.egdb");
    assert!(file.is_file());
    let (ok, info, err) = mancala_text(&["egdb", "info", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        info.contains("built with      awari+grand_slam=none (Oware databases, grand_slam=none)"),
        "{info}"
    );
    let (ok, _, err) = mancala_text(&["egdb", "verify", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    // The Awari file beside it.
    let (ok, _, err) = mancala_text(&[
        "egdb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "6",
        "--out",
        out,
    ]);
    assert!(ok, "{err}");
    assert!(dir.join("awari.n6.egdb").is_file());
    // Each rule set finds its own file in the folder.
    for (rules, want) in [(NEIGHBOUR, "value       -2"), ("awari", "value       +2")] {
        let (ok, o, err) =
            mancala_text(&["solve", "--rules", rules, "--egdb", out, "--position", TWO]);
        assert!(ok, "{rules}: {err}");
        assert!(o.contains(want), "{rules}: {o}");
    }
    let (ok, o, err) = mancala_text(&[
        "analyse",
        "--rules",
        NEIGHBOUR,
        "--egdb",
        out,
        "--position",
        TWO,
    ]);
    assert!(ok, "{err}");
    assert!(o.contains("move    6  -2"), "{o}");
    // A rule set no file of the folder serves: both files are passed over, each named with
    // its rule set and its N, the Oware databases' word for the most seeds (never K).
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari+grand_slam=all",
        "--egdb",
        out,
        "--position",
        TWO,
    ]);
    assert!(!ok);
    for file in ["awari", "awari+grand_slam=none"] {
        assert!(
            err.contains(&format!(
                "built for {file} (N = 6), which does not serve awari+grand_slam=all"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("K ="), "{err}");
    // A file of one rule set given for the other is refused, naming both.
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--egdb",
        file.to_str().unwrap(),
        "--position",
        TWO,
    ]);
    assert!(!ok);
    assert!(
        err.contains("awari+grand_slam=none") && err.contains("not for awari"),
        "{err}"
    );
    // A rule set no database holds is refused with the rules that differ.
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "oware",
        "--egdb",
        out,
        "--position",
        TWO,
    ]);
    assert!(!ok);
    assert!(err.contains("majority=stop"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_cache_keeps_each_rule_set_in_its_own_file() {
    let cache = scratch("oware-dbs-cli", "cache");
    let ask = |rules: &str| {
        cached(
            &cache,
            &[
                "solve",
                "--rules",
                rules,
                "--max-seeds",
                "4",
                "--position",
                TWO,
            ],
        )
    };
    let first = ask(NEIGHBOUR);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stdout(&first).contains("value       -2"),
        "{}",
        stdout(&first)
    );
    assert!(cache.join("awari+grand_slam=none.n4.egdb").is_file());
    assert!(!cache.join("awari.n4.egdb").exists());
    // The build is announced by the database's own rule set, not as the Awari database.
    assert!(
        stderr(&first).contains("the Oware database of awari+grand_slam=none"),
        "{}",
        stderr(&first)
    );
    assert!(
        !stderr(&first).contains("Awari database"),
        "{}",
        stderr(&first)
    );
    // Awari does not take the neighbour's file: its own is built beside it.
    let awari = ask("awari");
    assert!(awari.status.success(), "{}", stderr(&awari));
    assert!(
        stdout(&awari).contains("value       +2"),
        "{}",
        stdout(&awari)
    );
    assert!(cache.join("awari.n4.egdb").is_file());
    assert!(
        stderr(&awari).contains("building the Awari database"),
        "{}",
        stderr(&awari)
    );
    // Both reused.
    for (rules, want) in [(NEIGHBOUR, "value       -2"), ("awari", "value       +2")] {
        let again = ask(rules);
        assert!(again.status.success());
        assert!(!stderr(&again).contains("building"), "{}", stderr(&again));
        assert!(stdout(&again).contains(want), "{}", stdout(&again));
    }
    std::fs::remove_dir_all(&cache).unwrap();
}

/// `bestmove --egdb DIR` under an Oware rule set with no file in DIR that serves it: the
/// message names the rule set asked for, the database that holds its values and the name
/// `egdb build` gives its file (N the most seeds), and the file passed over; a rule set no
/// database holds is said to be one. Never "endgame database", the Kalah databases' name.
#[test]
fn bestmove_names_the_oware_database_file_it_looked_for() {
    let dir = scratch("oware-dbs-cli", "bestmove-miss");
    let out = dir.to_str().unwrap();
    let (ok, _, err) = mancala_text(&[
        "egdb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "2",
        "--out",
        out,
    ]);
    assert!(ok, "{err}");
    let ask = |rules: &str| {
        let (ok, o, err) = mancala_text(&[
            "bestmove", "--rules", rules, "--egdb", out, "--nodes", "100",
        ]);
        assert!(!ok && o.is_empty(), "{rules}: {o}");
        assert_eq!(err.lines().count(), 1, "{rules}: {err}");
        assert!(!err.contains("endgame database"), "{rules}: {err}");
        err
    };
    // `oware+majority=off+cycle_score=split` is written `awari+grand_slam=none`.
    let err = ask(NEIGHBOUR);
    assert!(
        err.starts_with("mancala: error: --egdb: no Oware database for awari+grand_slam=none in "),
        "{err}"
    );
    assert!(
        err.contains(
            ": looked for the Oware database of awari+grand_slam=none, a file awari+grand_slam=none.n<N>.egdb (N the most seeds in the houses; `mancala egdb build --rules awari+grand_slam=none --max-seeds N --out "
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "awari.n2.egdb: built for awari (N = 2), which does not serve awari+grand_slam=none"
        ),
        "{err}"
    );
    // A rule set no database holds.
    let err = ask("oware");
    assert!(
        err.contains(": no Oware database holds the values of oware, which has majority=stop"),
        "{err}"
    );
    assert!(!err.contains("looked for"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
