//! Every game of the library through the command: `show`, `perft`, `play` and `bestmove` on
//! each game of [`GameKind::ALL`], at its default rule set ([`Rules::default_of`]), checked
//! against the library's own answers. A game added to the library without its place in the
//! command fails here (the other front ends have their `every_game` tests too: the C API's
//! `crates/mancala-ffi/tests/every_game.rs`, Python's `python/tests/test_every_game.py`, the
//! fuzz targets' `fuzz/bodies/tests/replay.rs`, the documents' `tests/docs_copies.rs` of
//! `mancala-core`).

mod common;
use common::*;

use mancala_core::{AnyGame, GameKind, Rules};

/// The default rule set of every game, in notation, with its start position.
fn every_game() -> Vec<(GameKind, String, AnyGame)> {
    GameKind::ALL
        .into_iter()
        .map(|kind| {
            let rules = Rules::default_of(kind);
            (kind, rules.to_string(), AnyGame::new(rules))
        })
        .collect()
}

#[test]
fn every_game_is_shown() {
    for (kind, rules, start) in every_game() {
        let (ok, out, err) = mancala_text(&["show", "--rules", &rules]);
        assert!(ok, "{kind}: {err}");
        assert!(out.contains(&start.drawing_text()), "{kind}: {out}");
        assert!(out.contains(&start.position_text()), "{kind}: {out}");
    }
}

#[test]
fn every_game_counts_perft() {
    for (kind, rules, start) in every_game() {
        let (ok, out, err) = mancala_text(&["perft", "--rules", &rules, "--depth", "3", "--json"]);
        assert!(ok, "{kind}: {err}");
        let nodes: Vec<u64> = out
            .lines()
            .map(|line| {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                v["nodes"].as_u64().unwrap()
            })
            .collect();
        let expected: Vec<u64> = (1..=3).map(|d| start.perft(d)).collect();
        assert_eq!(nodes, expected, "{kind}");
        assert_eq!(nodes[0], start.legal_move_count() as u64, "{kind}");
    }
}

/// A person (South, the first player) plays the first legal move against the random mover,
/// then leaves.
#[test]
fn every_game_is_played() {
    for (kind, rules, start) in every_game() {
        let first = start.legal_moves_text()[0].clone();
        let mut after = start.clone();
        after.play_text(&first).unwrap();
        let o = mancala_with_input(
            &["play", "--rules", &rules, "--opponent", "random"],
            format!("{first}\nquit\n").as_bytes(),
        );
        assert!(o.status.success(), "{kind}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(&start.position_text()), "{kind}: {out}");
        assert!(out.contains(&after.position_text()), "{kind}: {out}");
    }
}

#[test]
fn every_game_gets_a_best_move() {
    for (kind, rules, start) in every_game() {
        let (ok, out, err) = mancala_text(&[
            "bestmove",
            "--rules",
            &rules,
            "--level",
            "1",
            "--time-ms",
            "0",
            "--json",
        ]);
        assert!(ok, "{kind}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let mv = v["move"].as_str().unwrap();
        assert!(
            start.legal_moves_text().iter().any(|m| m == mv),
            "{kind}: {mv} is not a legal move"
        );
    }
}

/// The command's help names every game.
#[test]
fn every_game_is_in_the_help() {
    let (ok, out, err) = mancala_text(&["--help"]);
    assert!(ok, "{err}");
    for (kind, _, _) in every_game() {
        assert!(out.contains(kind.name()), "{kind}: {out}");
    }
}
