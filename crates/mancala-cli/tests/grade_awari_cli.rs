//! `mancala grade --rules awari`: Oware positions of the rule set `awari` graded against an
//! Awari database (built in memory, N = 8). Every move value of the report equals the
//! independent reference of the solver's tests (`mancala-solver/tests/awari_ref`, a brute
//! force written from the rules text): the seeds the move captures minus the reference value
//! of the board it leaves. `mancala agent line` started without `--rules` (so with Kalah's
//! `standard`) learns the rule set from the grader's `rules awari` request and grades as the
//! engine in this process. `--rules oware` (Abapa) is graded with the values of its
//! neighbour without the majority end and with cycles split, the report saying so, on
//! positions the Abapa game has not finished; Oware rule sets no database comes near and
//! `--games` are refused in one line.

mod common;

#[path = "../../mancala-solver/tests/awari_ref/mod.rs"]
mod awari_ref;

use awari_ref::{moves, Board, Reference};
use common::{mancala, stderr, stdout};
use serde_json::Value;

/// N of the test database.
const N: u32 = 8;

/// `mancala grade --file f --no-cache --level 1 --json` (level 1 answers at once): the JSON
/// report, the command's success asserted (with the file's text in the message).
fn grade_file(f: &std::path::Path) -> Value {
    let out = mancala(&[
        "grade",
        "--file",
        f.to_str().unwrap(),
        "--no-cache",
        "--level",
        "1",
        "--json",
    ]);
    let text = std::fs::read_to_string(f).unwrap_or_default();
    assert!(out.status.success(), "{text:?}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn grade(extra: &[&str]) -> Value {
    let mut args = vec![
        "grade",
        "--generate",
        "--rules",
        "awari",
        "--count",
        "25",
        "--min-seeds",
        "2",
        "--max-seeds",
        "8",
        "--no-cache",
        "--threads",
        "1",
        "--nodes",
        "2000",
        "--time-ms",
        "20000",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = mancala(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON object")
}

/// The board of an Oware position text mover first (`S1..S6,S,N1..N6,N side`).
fn board_of(position: &str) -> Board {
    let (counts, side) = position.split_once(' ').unwrap();
    let c: Vec<u8> = counts.split(',').map(|x| x.parse().unwrap()).collect();
    let (south, north) = (&c[0..6], &c[7..13]);
    let (own, opp) = if side == "S" {
        (south, north)
    } else {
        (north, south)
    };
    let mut b = [0u8; 12];
    b[..6].copy_from_slice(own);
    b[6..].copy_from_slice(opp);
    b
}

#[test]
fn an_awari_set_is_graded_with_the_reference_values() {
    let reference = Reference::build(N);
    let exe = env!("CARGO_BIN_EXE_mancala");
    let inside = grade(&["--level", "4"]);
    // The agent is started with no rule set: it is told `rules awari` by the grader.
    let outside = grade(&["--", exe, "agent", "line", "--level", "4", "--time-ms", "0"]);
    assert_eq!(inside["rules"], "awari");
    assert_eq!(outside["rules_refused"], Value::Null);
    assert_eq!(outside["failures"].as_array().unwrap().len(), 0);
    let moves_of = |v: &Value| -> Vec<Value> {
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].clone())
            .collect()
    };
    assert_eq!(moves_of(&inside), moves_of(&outside));
    assert_eq!(inside["positions"], 25);
    let mut checked = 0;
    for m in inside["moves"].as_array().unwrap() {
        let position = m["position"].as_str().unwrap();
        let board = board_of(position);
        assert!(awari_ref::seeds(&board) <= N, "{position}");
        assert_eq!(
            m["seeds"].as_u64().unwrap(),
            u64::from(awari_ref::seeds(&board))
        );
        // Each value: the seeds the move captures minus the reference value of the board
        // it leaves to the opponent (OW-10.3).
        let expected: Vec<(String, i64)> = moves(&board)
            .iter()
            .map(|mv| {
                let v = mv.captured as i32 - reference.value(&mv.child);
                ((mv.house + 1).to_string(), i64::from(v))
            })
            .collect();
        let got: Vec<(String, i64)> = m["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| (v[0].as_str().unwrap().to_string(), v[1].as_i64().unwrap()))
            .collect();
        assert_eq!(got, expected, "{position}");
        let best = expected.iter().map(|e| e.1).max().unwrap();
        let chosen = m["move"].as_str().unwrap();
        let mine = expected.iter().find(|e| e.0 == chosen).unwrap().1;
        assert_eq!(m["loss"].as_i64().unwrap(), best - mine, "{position}");
        checked += 1;
    }
    assert_eq!(checked, 25);
}

#[test]
fn a_file_of_awari_positions() {
    let dir = common::scratch("grade-awari", "file");
    let f = dir.join("set.txt");
    // OW-11.3's grand slam, South's only move, worth +2 (docs/awari.md), and the same board
    // with North to move.
    std::fs::write(
        &f,
        "# rules: awari\n0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\n1,0,0,0,0,0,23,0,0,0,0,0,1,23 N +2\n",
    )
    .unwrap();
    let v = grade_file(&f);
    assert_eq!(v["positions"], 2);
    assert_eq!(v["optimal"], 1.0);
    for m in v["moves"].as_array().unwrap() {
        assert_eq!(m["best"], 2, "{m}");
        assert_eq!(m["values"].as_array().unwrap().len(), 1, "{m}");
    }
    assert!(
        v["database"].as_str().unwrap().contains("levels 0..=2"),
        "{v}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_oware_rule_sets_and_games_are_refused() {
    let out = mancala(&[
        "grade",
        "--generate",
        "--rules",
        "oware(5,4)",
        "--level",
        "1",
        "--no-cache",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("no database holds the values of oware(5,4)")
            && err.contains("5 houses")
            && err.contains("; tip: grade is for Kalah rule sets and the Oware rule sets"),
        "{err}"
    );
    let out = mancala(&[
        "grade",
        "--generate",
        "--rules",
        "awari",
        "--max-seeds",
        "6",
        "--level",
        "1",
        "--no-cache",
        "--games",
    ]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--games"), "{}", stderr(&out));
}

#[test]
fn a_given_database_too_small_for_the_set_is_named() {
    let dir = common::scratch("grade-awari", "small-egdb");
    let out = mancala(&[
        "egdb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "2",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let f = dir.join("set.txt");
    // 3 seeds in the houses (48 in all): more than the database's N = 2.
    std::fs::write(&f, "# rules: awari\n0,0,0,0,1,1,23,1,0,0,0,0,0,22 S\n").unwrap();
    let out = mancala(&[
        "grade",
        "--file",
        f.to_str().unwrap(),
        "--egdb",
        dir.to_str().unwrap(),
        "--level",
        "1",
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // A given file cannot grow: it holds fewer seeds than the position, and --max-seeds
    // (which would not change it) is not offered as the remedy.
    assert!(err.contains("holds boards of at most 2 seeds"), "{err}");
    assert!(!err.contains("builds a database that holds it"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The caveat of a report graded with the values of Abapa's neighbour.
const CAVEAT: &str = "the values are those of awari+grand_slam=none (no majority end, cycles split evenly), not of oware";

/// `--rules oware`: every generated position is one Abapa has not finished (no store above
/// 24, not 24–24, a side to move), and every move's value is the one `solve` gives under
/// `oware+majority=off+cycle_score=split` (the database of `grand_slam=none`, checked
/// against a brute force in the solver's tests), not the `awari` one.
#[test]
fn an_abapa_set_is_graded_with_the_neighbours_values_and_a_caveat() {
    let dir = common::scratch("grade-awari", "abapa");
    let out = mancala(&[
        "grade",
        "--generate",
        "--rules",
        "oware",
        "--count",
        "25",
        "--min-seeds",
        "2",
        "--max-seeds",
        "8",
        "--no-cache",
        "--threads",
        "1",
        "--nodes",
        "2000",
        "--level",
        "4",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["rules"], "oware");
    assert!(v["caveat"].as_str().unwrap().starts_with(CAVEAT), "{v}");
    assert_eq!(v["positions"], 25);
    let egdb = dir.to_str().unwrap();
    let built = mancala(&[
        "egdb",
        "build",
        "--rules",
        "oware+majority=off+cycle_score=split",
        "--max-seeds",
        "8",
        "--out",
        egdb,
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    for m in v["moves"].as_array().unwrap() {
        let position = m["position"].as_str().unwrap();
        let (counts, side) = position.split_once(' ').unwrap();
        assert!(side == "S" || side == "N", "{position}");
        let c: Vec<u32> = counts.split(',').map(|x| x.parse().unwrap()).collect();
        assert!(
            c[6] <= 24 && c[13] <= 24 && (c[6], c[13]) != (24, 24),
            "{position}"
        );
        let solved = mancala(&[
            "solve",
            "--rules",
            "oware+majority=off+cycle_score=split",
            "--egdb",
            egdb,
            "--position",
            position,
            "--json",
        ]);
        assert!(solved.status.success(), "{}", stderr(&solved));
        let s: Value = serde_json::from_str(&stdout(&solved)).unwrap();
        let want: Vec<(String, i64)> = s["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["move"].as_str().unwrap().to_string(),
                    x["value"].as_i64().unwrap(),
                )
            })
            .collect();
        let got: Vec<(String, i64)> = m["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| (x[0].as_str().unwrap().to_string(), x[1].as_i64().unwrap()))
            .collect();
        assert_eq!(got, want, "{position}");
    }
    // OW-11.3's two-seed board in an Abapa file: its one move is worth −2 under the
    // neighbour (+2 under `awari`).
    let f = dir.join("set.txt");
    std::fs::write(&f, "# rules: oware\n0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\n").unwrap();
    let v = grade_file(&f);
    assert_eq!(v["positions"], 1);
    assert_eq!(v["moves"][0]["best"], -2, "{v}");
    assert!(v["caveat"].as_str().unwrap().starts_with(CAVEAT), "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rules_line_is_read_alike_for_oware_and_kalah() {
    // The header forms a Kalah file accepts are the forms an Oware file accepts: spaces
    // around `#`, `rules` and `:`, `Rules` in any case, a byte-order mark before the line.
    let dir = common::scratch("grade-awari", "header");
    let f = dir.join("set.txt");
    for header in [
        "#rules: awari",
        "#  rules :  awari",
        "# Rules: Awari",
        "\u{feff}# rules: awari",
    ] {
        // OW-11.3's grand slam, South's only move, worth +2 (docs/awari.md).
        std::fs::write(&f, format!("{header}\n0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\n")).unwrap();
        let v = grade_file(&f);
        assert_eq!(v["rules"], "awari", "{header:?}");
        assert_eq!(v["moves"][0]["best"], 2, "{header:?}");
    }
    // A header without its colon is no header: the message names the `# rules:` line.
    std::fs::write(&f, "# rules awari\n0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\n").unwrap();
    let out = mancala(&["grade", "--file", f.to_str().unwrap(), "--level", "1"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("line 2") && err.contains("`# rules: …` line"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    // An empty header names no rule set: said so, not as a rule set of no text.
    std::fs::write(&f, "# rules:\n0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\n").unwrap();
    let out = mancala(&["grade", "--file", f.to_str().unwrap(), "--level", "1"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("its `# rules:` line names no rule set: expected `standard`"),
        "{err}"
    );
    assert!(!err.contains("``") && !err.contains(", :"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
