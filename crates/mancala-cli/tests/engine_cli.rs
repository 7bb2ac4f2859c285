//! `mancala bestmove` and `mancala play --engine` end to end.

mod common;

use std::process::Stdio;

use common::{mancala, mancala_command, scratch, stderr, stdout};

#[test]
fn bestmove_finds_the_capture_exactly() {
    // kalah(3,2), South [1,0,1], North [0,9,2]: house 1 captures 10 and wins by 11 (see the
    // hand analysis in crates/mancala-solver/tests/engine_kalah.rs).
    let o = mancala(&[
        "bestmove",
        "--rules",
        "kalah(3,2)",
        "--position",
        "1,0,1,0,0,9,2,0 S",
        "--time-ms",
        "2000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["move"], "1");
    assert_eq!(v["score"], 1100);
    assert_eq!(v["score_seeds"], 11.0);
    assert_eq!(v["exact"], true);
    assert_eq!(v["pv"][0], "1");
    assert_eq!(v["weaker"], false);
}

#[test]
fn bestmove_text_output_and_tiny_budget() {
    let o = mancala(&["bestmove", "--rules", "manchester", "--time-ms", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let first = out.lines().next().unwrap();
    let mv: u8 = first.strip_prefix("bestmove ").unwrap().parse().unwrap();
    assert!((1..=7).contains(&mv), "{out}");
    assert!(out.contains("estimate"), "{out}");
}

#[test]
fn bestmove_refuses_bad_input() {
    for (args, needle) in [
        (
            vec!["bestmove", "--time-ms", "10", "--level", "11"],
            "'--level <LEVEL>': 11 is out of range (1 to 10)",
        ),
        (
            vec![
                "bestmove",
                "--time-ms",
                "10",
                "--position",
                "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -",
            ],
            "the game is over",
        ),
        (
            vec!["bestmove", "--time-ms", "10", "--rules", "kalah(9,9)"],
            "--rules",
        ),
        (
            vec!["bestmove", "--time-ms", "10", "--position", "1,2 S"],
            "--position",
        ),
    ] {
        let o = mancala(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn play_against_the_engine_finishes() {
    // The person always plays their lowest non-empty house: lines of 1..6, each tried in
    // turn (refused moves are reported and the game goes on).
    let moves: String = (0..60).map(|_| "1\n2\n3\n4\n5\n6\n").collect::<String>() + "quit\n";
    let mut child = mancala_command()
        .args(["play", "--engine", "--level", "3", "--time-ms", "50"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::feed(&mut child, moves.as_bytes());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("player 2 (North) plays"), "{out}");
    assert!(out.contains("Result: "), "{out}");
}

#[test]
fn bestmove_bao_finds_the_winning_capture() {
    // docs/rules/bao-la-kete.md TC-14: F4 captures North's last front-row seeds and wins at once.
    let args = [
        "bestmove",
        "--rules",
        "bao-la-kete",
        "--position",
        "0,0,0,1,0,0,0,0/5,0,0,0,0,0,0,0/0,0,0,0,3,0,0,0/53,0,0,0,0,0,0,0 1,1 - S -",
        "--time-ms",
        "2000",
    ];
    let o = mancala(&[&args[..], &["--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["move"], "F4");
    assert_eq!(v["win_in"], 1);
    assert_eq!(v["score_seeds"], serde_json::Value::Null);
    assert_eq!(v["exact"], true);
    // The same win in text: one ply, singular.
    let o = mancala(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("score forced win in 1 ply, "),
        "{}",
        stdout(&o)
    );
    let o = mancala(&["bestmove", "--rules", "bao-la-kete", "--time-ms", "50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("bestmove F"), "{}", stdout(&o));
    // Bao la Kete is won or lost: a score short of a forced result is the heuristic's, never
    // said in seeds (text or JSON).
    let o = mancala(&[
        "bestmove",
        "--rules",
        "bao-la-kete",
        "--level",
        "3",
        "--time-ms",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("(the heuristic's estimate)") && !out.contains("seed"),
        "{out}"
    );
    let o = mancala(&[
        "bestmove",
        "--rules",
        "bao-la-kete",
        "--level",
        "3",
        "--time-ms",
        "0",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["win_in"], serde_json::Value::Null);
    assert_eq!(v["score_seeds"], serde_json::Value::Null);
    assert!(v["score"].is_i64());
}

#[test]
fn play_bao_against_the_engine_until_input_ends() {
    // The person types `help` and then nothing: the engine is the first player and moves,
    // then the game waits for the person; input ends and the game is left unfinished, which
    // is an error (status 1, one line on standard error).
    let mut child = mancala_command()
        .args([
            "play",
            "--rules",
            "bao-la-kete",
            "--engine",
            "--level",
            "2",
            "--time-ms",
            "20",
            "--opponent-first",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::feed(&mut child, b"help\n");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    // The engine (player 1, South) moved first.
    assert!(out.contains("player 1 (South) plays F"), "{out}");
    assert!(
        stderr(&o).contains("end of input before the end of the game"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bestmove_with_the_longest_time_budget_does_not_panic() {
    // A day, the longest budget: the level's depth limit ends the search.
    let o = mancala(&["bestmove", "--time-ms", "86400000", "--level", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("bestmove "), "{}", stdout(&o));
    // u64::MAX milliseconds is refused with the range, in words.
    let o = mancala(&[
        "bestmove",
        "--time-ms",
        "18446744073709551615",
        "--level",
        "3",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is out of range (0 to 86400000)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bestmove_and_play_with_an_endgame_database() {
    let scratch = scratch("engine-cli", "egdb");
    let dir = scratch.join("egdb");
    let d = dir.to_str().unwrap();
    let o = mancala(&[
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)",
        "--max-seeds",
        "8",
        "--out",
        d,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // 8 seeds in the houses: every position of the search is in the database, so a depth-2
    // search (level 2) is already exact; its move is one of the solver's best moves.
    let position = "2,0,1,1,10,0,1,2,1,6 S";
    let o = mancala(&[
        "bestmove",
        "--rules",
        "kalah(4,3)",
        "--position",
        position,
        "--time-ms",
        "5000",
        "--level",
        "2",
        "--egdb",
        d,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["exact"], true, "{v}");
    let o = mancala(&[
        "solve",
        "--rules",
        "kalah(4,3)",
        "--position",
        position,
        "--threads",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let best: Vec<String> = s["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    // (`search_move`: level 2 may play a deliberately weaker `move`.)
    assert!(
        best.contains(&v["search_move"].as_str().unwrap().to_string()),
        "{v} {s}"
    );
    assert_eq!(v["score"], s["score"].as_i64().unwrap() * 100, "{v} {s}");
    // Without a database the same depth-2 search is only an estimate.
    let o = mancala(&[
        "bestmove",
        "--rules",
        "kalah(4,3)",
        "--position",
        position,
        "--time-ms",
        "5000",
        "--level",
        "2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["exact"], false, "{v}");
    // Other rules, or Bao, with the folder: refused with the reason.
    let o = mancala(&[
        "bestmove",
        "--rules",
        "standard",
        "--time-ms",
        "10",
        "--egdb",
        d,
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--egdb"), "{}", stderr(&o));
    let o = mancala(&[
        "bestmove",
        "--rules",
        "bao-la-kete",
        "--time-ms",
        "10",
        "--egdb",
        d,
    ]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("Bao la Kete has no database of exact values"),
        "{}",
        stderr(&o)
    );
    // The engine at level 10 plays a whole game with it (exact root solves on this board).
    let moves: String = (0..40).map(|_| "1\n2\n3\n4\n").collect::<String>() + "quit\n";
    let mut child = mancala_command()
        .args([
            "play",
            "--rules",
            "kalah(4,3)",
            "--engine",
            "--level",
            "10",
            "--time-ms",
            "200",
            "--egdb",
            d,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    common::feed(&mut child, moves.as_bytes());
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Result: "), "{out}");
}

/// The README's `bestmove … --egdb egdb/` example, taken from the README itself and run
/// against a database built here as the README builds it (K = 16): the answer does not
/// depend on the clock (a node budget), so two runs give the same nodes; with the database
/// the result is exact and equals the exact solver's value of the position; with no
/// database at all it is an estimate. The nodes and depth the README's text gives for both
/// (read from its paragraph "What the database changes") are the ones printed.
#[test]
fn the_readme_bestmove_example_is_exact_with_the_database_every_run() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let start = readme
        .find("mancala bestmove --rules standard --position")
        .expect("the example in the README");
    // The command, its continuation line joined, without the comment.
    let mut line = String::new();
    for part in readme[start..].lines() {
        let (code, _) = part.split_once(" #").unwrap_or((part, ""));
        let code = code.trim();
        match code.strip_suffix('\\') {
            Some(head) => line.push_str(head),
            None => {
                line.push_str(code);
                break;
            }
        }
    }
    // Split as a shell does here: double-quoted words kept whole.
    let mut words: Vec<String> = Vec::new();
    let mut quoted = false;
    let mut word = String::new();
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    words.push(word);
    assert_eq!(words[0], "mancala", "{line}");
    assert!(words.contains(&"--nodes".to_string()), "{line}");
    let dir = scratch("engine-cli", "readme-egdb");
    common::build_kalah6_k16(&dir);
    let d = dir.to_str().unwrap();
    let with_db: Vec<&str> = words[1..]
        .iter()
        .map(|w| if w == "egdb/" { d } else { w.as_str() })
        .collect();
    let run = |args: &[&str]| -> serde_json::Value {
        let o = mancala(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let a = run(&with_db);
    let b = run(&with_db);
    assert_eq!(a["exact"], true, "{a}");
    assert_eq!(a["nodes"], b["nodes"], "{a} {b}");
    assert_eq!(a["move"], b["move"]);
    // The exact solver's value of the position (South to move), in the engine's units.
    let position = &words[words.iter().position(|w| w == "--position").unwrap() + 1];
    let s = run(&[
        "solve",
        "--rules",
        "standard",
        "--position",
        position,
        "--egdb",
        d,
        "--threads",
        "1",
        "--json",
    ]);
    assert_eq!(a["score"], s["score"].as_i64().unwrap() * 100, "{a} {s}");
    // No database at all: the same budget ends with an estimate.
    let without: Vec<&str> = with_db
        .iter()
        .map(|w| if *w == "--egdb" { "--no-cache" } else { w })
        .filter(|w| *w != d)
        .collect();
    let c = run(&without);
    assert_eq!(c["exact"], false, "{c}");
    // The figures of the README's text: "… after N nodes …" with the database, "`"exact":
    // false`, depth D, M nodes" without.
    let text = readme
        .split("\n\n")
        .find(|p| p.starts_with("What the database changes"))
        .expect("the README's paragraph on the example")
        .replace('\n', " ");
    let number = |s: &str| -> u64 {
        let digits: String = s.chars().filter(|c| *c != ',').collect();
        digits
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {s:?}"))
    };
    let exact_nodes = text
        .split(" after ")
        .nth(1)
        .and_then(|s| s.split(" nodes").next())
        .expect("\"after N nodes\" in the README");
    assert_eq!(a["nodes"], number(exact_nodes), "the README says: {text}");
    let score = format!("`\"score_seeds\": {}`", a["score_seeds"]);
    assert!(text.contains(&score), "{score}: the README says: {text}");
    let estimate = text
        .split("`\"exact\": false`, depth ")
        .nth(1)
        .expect("\"depth D, M nodes\" in the README");
    let (depth, rest) = estimate.split_once(", ").unwrap();
    let nodes = rest.split(" nodes").next().unwrap();
    assert_eq!(c["depth"], number(depth), "the README says: {text}");
    assert_eq!(c["nodes"], number(nodes), "the README says: {text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--moves` gives the engine the game's history: the `oware-openspiel(3,3)` cycle of
/// `crates/mancala-solver/tests/engine_oware_history.rs` (traced by hand there), where North's
/// house 3 repeats the position after ply 2 and ends the game at +2 seeds for North.
#[test]
fn bestmove_sees_the_history_of_the_moves() {
    let o = mancala(&[
        "bestmove",
        "--rules",
        "oware-openspiel(3,3)",
        "--position",
        "1,1,1,6,0,0,0,9 S",
        "--moves",
        "3 1 2 2 3 1 1",
        "--nodes",
        "200000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["position"], "0,1,0,6,0,1,1,9 N");
    assert_eq!(v["move"], "3");
    assert_eq!(v["score"], 200);
    assert_eq!(v["exact"], true);
    // A move the rules refuse is named with its index.
    let o = mancala(&[
        "bestmove", "--rules", "oware", "--moves", "3 3 3", "--nodes", "1000",
    ]);
    // South's house 3 is empty at the third move (X1, then North's 3 sows N4..N6 and S1).
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("--moves 3 3 3: move 3"),
        "{}",
        stderr(&o)
    );
}

/// The Oware databases of N = 6 of `awari` and of `grand_slam=none` (Abapa's neighbour,
/// `oware+majority=off+cycle_score=split`), built into a scratch folder: the folder (removed
/// when dropped) and their paths.
fn oware_databases(name: &str) -> (common::Scratch, std::path::PathBuf, std::path::PathBuf) {
    let dir = common::scratch("engine-cli", name);
    for rules in ["awari", "oware+majority=off+cycle_score=split"] {
        let (ok, _, err) = common::mancala_text(&[
            "-q",
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            "6",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
    }
    let (awari, abapa) = (
        dir.join("awari.n6.egdb"),
        dir.join("awari+grand_slam=none.n6.egdb"),
    );
    (dir, awari, abapa)
}

/// `bestmove --eval-egdb` under Abapa (`oware`) with the database of `grand_slam=none`: at
/// level 1 (depth 1) each South move is scored by the database's value of the board it
/// leaves, read here from the file through the library under the database's own rule set,
/// for North, negated: 100 × −(North's store lead + value); neither move captures (each sows
/// into South's own row), so no score is a decided result, and none is exact. The Awari
/// database is refused with the words of `agent line --eval-egdb`, a Kalah game and
/// `--egdb` beside it too.
#[test]
fn bestmove_takes_the_neighbour_database_as_its_evaluation() {
    use mancala_core::oware::{OwarePosition, OwareRules};
    use mancala_solver::awari::AwariDb;
    use mancala_solver::ExactValues;

    let (_dir, awari, abapa) = oware_databases("bestmove-eval");
    let (awari, abapa) = (awari.to_str().unwrap(), abapa.to_str().unwrap());
    let position = "0,0,0,1,1,0,22,1,1,1,0,0,0,21 S";
    let db = AwariDb::open(std::path::Path::new(abapa)).unwrap();
    let neighbour: OwareRules = "oware+majority=off+cycle_score=split".parse().unwrap();
    let p = OwarePosition::parse(OwareRules::OWARE, position).unwrap();
    let expected: Vec<(String, i64)> = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let child = p.play(m).unwrap();
            let same = OwarePosition::parse(neighbour, &child.to_string()).unwrap();
            let value = i64::from(db.value_of(&same).unwrap());
            (m.to_string(), -100 * ((21 - 22) + value))
        })
        .collect();
    assert_eq!(expected.len(), 2);
    let best = expected.iter().map(|e| e.1).max().unwrap();
    let o = mancala(&[
        "bestmove",
        "--rules",
        "oware",
        "--position",
        position,
        "--level",
        "1",
        "--time-ms",
        "0",
        "--eval-egdb",
        abapa,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["score"], best, "{v} {expected:?}");
    assert_eq!(v["exact"], false);
    let chosen = v["search_move"].as_str().unwrap();
    assert!(expected.contains(&(chosen.to_string(), best)), "{v}");

    // The Awari database under Abapa: refused as the agent refuses it.
    let o = mancala(&[
        "bestmove",
        "--rules",
        "oware",
        "--time-ms",
        "0",
        "--level",
        "1",
        "--eval-egdb",
        awari,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let agent = common::mancala_with_input(
        &["agent", "line", "--rules", "oware", "--eval-egdb", awari],
        b"quit\n",
    );
    assert!(!agent.status.success());
    assert_eq!(stderr(&o), stderr(&agent));
    assert!(stderr(&o).contains("grand_slam=none"), "{}", stderr(&o));
    // A Kalah game (`kalah(6,4)` is `standard`) reads no Oware database.
    let o = mancala(&[
        "bestmove",
        "--rules",
        "kalah(6,4)",
        "--time-ms",
        "0",
        "--level",
        "1",
        "--eval-egdb",
        abapa,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("an Oware database serves the Oware games, not standard (Kalah)"),
        "{}",
        stderr(&o)
    );
    // `--egdb` beside it: refused by the argument parser.
    let o = mancala(&[
        "bestmove",
        "--rules",
        "oware",
        "--time-ms",
        "0",
        "--level",
        "1",
        "--eval-egdb",
        abapa,
        "--egdb",
        abapa,
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// `play --engine --eval-egdb` under Abapa: the engine, the first player, plays the move
/// `bestmove` chooses with the same database at the same level (depth 5, no time limit),
/// which is not the move it chooses without it; `--eval-egdb` without the engine is refused.
#[test]
fn play_takes_the_neighbour_database_as_its_evaluation() {
    let (_dir, _, abapa) = oware_databases("play-eval");
    let abapa = abapa.to_str().unwrap();
    let position = "1,0,1,1,1,1,21,1,1,0,0,0,1,19 S";
    let bestmove = |eval: bool| {
        let mut args = vec![
            "bestmove",
            "--rules",
            "oware",
            "--position",
            position,
            "--level",
            "5",
            "--time-ms",
            "0",
            "--json",
        ];
        if eval {
            args.extend(["--eval-egdb", abapa]);
        }
        let o = mancala(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["move"].as_str().unwrap().to_string()
    };
    let (with, without) = (bestmove(true), bestmove(false));
    assert_ne!(with, without);
    let o = common::mancala_with_input(
        &[
            "play",
            "--rules",
            "oware",
            "--position",
            position,
            "--engine",
            "--level",
            "5",
            "--time-ms",
            "0",
            "--opponent-first",
            "--eval-egdb",
            abapa,
        ],
        b"quit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains(&format!("player 1 (South) plays {with}")),
        "{out}\n{}",
        stderr(&o)
    );
    let o = mancala(&["play", "--rules", "oware", "--eval-egdb", abapa]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--eval-egdb needs --engine"),
        "{}",
        stderr(&o)
    );
}

/// Without `--egdb` and with the cache off (these tests' `MANCALA_NO_CACHE=1`, and
/// `--no-cache`) there is no database to read, so `bestmove` never says one "is still being
/// read", however short the budget (a quarter of 1 ms is shorter than a thread takes to
/// answer on a loaded machine), and its standard error is empty.
#[test]
fn bestmove_without_a_database_waits_for_none() {
    for round in 0..10 {
        for extra in [&[][..], &["--no-cache"][..]] {
            let mut args = vec!["bestmove", "--time-ms", "1", "--level", "3"];
            args.extend_from_slice(extra);
            let o = mancala(&args);
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(stderr(&o), "", "round {round}, {args:?}");
        }
    }
}
