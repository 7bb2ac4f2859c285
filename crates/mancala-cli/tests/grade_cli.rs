//! `mancala grade`: the engine graded in this process and the same engine run as an
//! external line-protocol program (`mancala agent line`) give the same moves and grades at
//! a node budget (the engine searches deterministically at a node budget: no clock decides
//! a move when the node budget binds first), on a small generated Kalah(4,3) set; and the
//! report's shape (`--json`).

mod common;

use common::{mancala, stdout};
use serde_json::Value;

fn grade(extra: &[&str]) -> Value {
    let mut args = vec![
        "grade",
        "--generate",
        "--rules",
        "kalah(4,3)",
        "--count",
        "12",
        "--min-seeds",
        "4",
        "--max-seeds",
        "12",
        "--no-cache",
        "--threads",
        "1",
        "--tt-mb",
        "16",
        "--nodes",
        "3000",
        "--time-ms",
        "20000",
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = mancala(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON object")
}

#[test]
fn in_process_and_external_engines_grade_the_same() {
    let exe = env!("CARGO_BIN_EXE_mancala");
    for level in ["5", "9"] {
        let inside = grade(&["--level", level]);
        let outside = grade(&[
            "--",
            exe,
            "agent",
            "line",
            "--rules",
            "kalah(4,3)",
            "--level",
            level,
            "--time-ms",
            "0",
        ]);
        let moves = |v: &Value| -> Vec<Value> {
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].clone())
                .collect()
        };
        assert_eq!(moves(&inside), moves(&outside), "level {level}");
        assert_eq!(inside["mean_loss"], outside["mean_loss"]);
        assert_eq!(inside["positions"], 12);
        assert_eq!(outside["failures"].as_array().unwrap().len(), 0);
        // Each loss is the best value minus the chosen move's value.
        for m in inside["moves"].as_array().unwrap() {
            let chosen = m["move"].as_str().unwrap();
            let values = m["values"].as_array().unwrap();
            let best = values.iter().map(|v| v[1].as_i64().unwrap()).max().unwrap();
            let mine = values
                .iter()
                .find(|v| v[0] == chosen)
                .map(|v| v[1].as_i64().unwrap())
                .unwrap();
            assert_eq!(m["loss"].as_i64().unwrap(), best - mine);
        }
    }
}

#[test]
fn a_player_is_required_once() {
    let out = mancala(&["grade", "--take", "1", "--no-cache"]);
    assert!(!out.status.success());
    assert!(common::stderr(&out).contains("no player"));
}

#[test]
fn whole_games_against_the_solver() {
    // The solver plays perfectly, so each game's result is the opening's value minus the
    // seeds the player gave away; every loss is at least 0.
    let v = grade(&["--level", "2", "--games", "--take", "3"]);
    assert_eq!(v["games"], 3);
    let mut given = 0;
    for g in v["results"].as_array().unwrap() {
        let value = g["value"].as_i64().unwrap();
        let away = g["given_away"].as_i64().unwrap();
        assert_eq!(g["result"].as_i64().unwrap(), value - away, "{g}");
        let losses: i64 = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["loss"].as_i64().unwrap())
            .inspect(|&l| assert!(l >= 0))
            .sum();
        assert_eq!(losses, away);
        given += away;
    }
    assert_eq!(v["given_away"].as_i64().unwrap(), given);
}
