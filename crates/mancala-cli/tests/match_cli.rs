//! `mancala match`: the engine run as an external line-protocol program (`mancala agent
//! line`) plays the same games as the engine in this process at a node budget (no clock
//! decides a move when the node budget binds first), under Kalah and under Oware with a move
//! limit (whose history the program is sent as `position <start> moves …`: sent only the
//! position, it plays other moves near the limit); every game's record replays
//! to its result; random movers with a seed replay the same match; programs that crash,
//! answer an illegal move or hang past their time lose those games and the match goes on
//! (the test double is `crates/mancala-bench/tests/bots/kalah_bot.sh`, written from
//! docs/line-protocol.md); bad arguments are one-line errors; Ctrl-C prints the summary; the
//! CPU time of every answer is counted but a program's first after its start.

mod common;

use common::{mancala, stdout};
use mancala_core::kalah::KalahPosition;
use mancala_core::oware::OwarePosition;
use mancala_core::{parse_moves, Game, GameRecord};
use serde_json::Value;

fn bot_script() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mancala-bench/tests/bots/kalah_bot.sh"
    )
    .to_string()
}

/// `mancala match --json` with `args`: the JSON object.
fn play(args: &[&str]) -> Value {
    let mut all = vec!["match", "--json"];
    all.extend_from_slice(args);
    let out = mancala(&all);
    assert!(out.status.success(), "{}", common::stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("one JSON object")
}

fn results(v: &Value) -> &Vec<Value> {
    v["results"].as_array().unwrap()
}

/// Replays every game of `v` with the library from the start of `rules` and checks what the
/// match reported: the final position, the score (South − North, from the final position's
/// outcome), A's result from A's side, and the tally of wins, draws and losses.
fn check_records<G: Game>(v: &Value, rules: G::Rules) {
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for g in results(v) {
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let moves = parse_moves::<G>(&moves.join(" ")).unwrap();
        let record = GameRecord::replay(G::start(rules), &moves).unwrap();
        assert_eq!(g["final"], record.position().to_string());
        let a_sign = if g["a_side"] == "South" { 1 } else { -1 };
        let a_result = match (&g["forfeit"], record.position().outcome()) {
            (Value::Null, Some(o)) => {
                assert_eq!(g["score"], o.score);
                (a_sign * o.score).signum()
            }
            (Value::Null, None) => panic!("game {g} not over and no forfeit"),
            (f, _) if f["player"] == "A" => -1,
            _ => 1,
        };
        assert_eq!(g["a_result"], a_result, "{g}");
        match a_result {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
    }
    assert_eq!(
        (
            v["a_wins"].clone(),
            v["draws"].clone(),
            v["a_losses"].clone()
        ),
        (wins.into(), draws.into(), losses.into())
    );
    assert_eq!(v["games"], results(v).len());
}

#[test]
fn in_process_and_external_engines_play_the_same_games() {
    let exe = env!("CARGO_BIN_EXE_mancala");
    for rules in ["kalah(4,3)", "oware(4,3)+move_limit=12"] {
        let program = format!("cmd:{exe} agent line --level 7 --time-ms 0");
        // A (level 7, in this process or as a program) against B (level 5 in this process).
        let with_a = |a: &str| {
            let budget = "--nodes 2000 --time-ms 20000 --games 4 --opening 2 --b 5";
            let mut args: Vec<&str> = budget.split(' ').collect();
            args.extend_from_slice(&["--rules", rules]);
            args.extend_from_slice(&["--a", a]);
            play(&args)
        };
        let inside = with_a("7");
        let outside = with_a(&program);
        assert_eq!(results(&inside), results(&outside), "{rules}");
        assert_eq!(outside["forfeits"]["a"], 0);
        assert_eq!(inside["games"], 4);
        // The engines report their depths; the external one through its `bestmove` lines.
        assert!(outside["stats"]["a"]["mean_depth"].as_f64().unwrap() > 0.0);
        // CPU time: every answer of the engine in this process; of the program every answer
        // but the first after its start (no failure restarted it), on Linux.
        let count = |v: &Value, seat: &str, what: &str| v["stats"][seat][what].as_u64().unwrap();
        assert_eq!(
            count(&inside, "a", "cpu_moves"),
            count(&inside, "a", "moves")
        );
        assert_eq!(
            count(&inside, "b", "cpu_moves"),
            count(&inside, "b", "moves")
        );
        if cfg!(target_os = "linux") {
            assert_eq!(
                count(&outside, "a", "cpu_moves"),
                count(&outside, "a", "moves") - 1
            );
            assert!(outside["stats"]["a"]["mean_cpu_ms"].as_f64().unwrap() >= 0.0);
        }
        if rules.starts_with("kalah") {
            check_records::<KalahPosition>(&inside, rules.parse().unwrap());
        } else {
            check_records::<OwarePosition>(&inside, rules.parse().unwrap());
        }
        // Both games of a pair start with the same two random plies.
        for pair in results(&inside).chunks(2) {
            let opening = |g: &Value| g["moves"].as_array().unwrap()[..2].to_vec();
            assert_eq!(opening(&pair[0]), opening(&pair[1]));
            assert_eq!(
                (&pair[0]["a_first"], &pair[1]["a_first"]),
                (&true.into(), &false.into())
            );
        }
    }
}

#[test]
fn random_movers_with_a_seed_replay_the_same_match() {
    let args = [
        "--rules",
        "kalah(4,3)",
        "--games",
        "7",
        "--opening",
        "1",
        "--seed",
        "9",
        "--a",
        "random",
        "--b",
        "random",
    ];
    let first = play(&args);
    assert_eq!(first["games"], 7);
    check_records::<KalahPosition>(&first, "kalah(4,3)".parse().unwrap());
    assert_eq!(results(&first), results(&play(&args)));
    // A's score is its points over the games, inside its interval.
    let score = first["a_score"].as_f64().unwrap();
    let points = first["a_wins"].as_f64().unwrap() + first["draws"].as_f64().unwrap() / 2.0;
    assert_eq!(score, points / 7.0);
    let (lo, hi) = (
        first["a_interval"][0].as_f64().unwrap(),
        first["a_interval"][1].as_f64().unwrap(),
    );
    assert!(lo <= score && score <= hi);
}

/// The text summary says over how many moves a mean CPU time is taken when that is fewer than
/// the moves: a program that crashes (the bot's `crash` mode, when North is to move) is
/// started again, and its first answer after each start and its failed one are not counted;
/// the random mover in this process is counted at every move.
#[test]
fn the_summary_says_over_how_many_moves_the_cpu_time_is_taken() {
    let program = format!("cmd:sh {} crash", bot_script());
    let args = [
        "match",
        "--rules",
        "kalah(4,3)",
        "--games",
        "2",
        "--a",
        &program,
        "--b",
        "random",
    ];
    let out = mancala(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = stdout(&out);
    let line = |seat: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("{seat}: ")) && l.contains(" move"))
            .unwrap_or_else(|| panic!("no {seat} line in {text}"))
            .to_string()
    };
    if cfg!(target_os = "linux") {
        assert!(line("A").contains(" of the moves)"), "{text}");
    }
    assert!(line("B").contains("mean CPU time a move"), "{text}");
    assert!(!line("B").contains(" of the moves)"), "{text}");
}

/// The bot plays the first legal move, except (`crash`, `hang`, `flood`) when it is North to move,
/// or (`illegal`, `padded`) always: the games where it fails are lost by forfeit, the others are
/// played to their end by the program started again, with the first legal move each time.
#[test]
fn failing_programs_lose_their_games_and_the_match_goes_on() {
    let script = bot_script();
    // Only `hang` waits for its deadline: the others get one no loaded machine reaches, and
    // `hang` one of 3 s, so that its answers when South is to move come in time under load.
    for (mode, reason, time_ms, grace_ms) in [
        ("crash", "failed: the program ended", "10000", "10000"),
        ("illegal", "illegal move \"7\"", "10000", "10000"),
        // The program's own word, not the move it reads as (`7`).
        ("padded", "illegal move \"07\"", "10000", "10000"),
        ("hang", "timed out", "300", "2700"),
        // Blank lines without end are no answer: out of time all the same, with the
        // grader's memory bounded.
        ("flood", "timed out", "300", "2700"),
    ] {
        let program = format!("cmd:sh {script} {mode}");
        let v = play(&[
            "--rules",
            "kalah(4,3)",
            "--games",
            "4",
            "--time-ms",
            time_ms,
            "--grace-ms",
            grace_ms,
            "--a",
            &program,
            "--b",
            "random",
        ]);
        check_records::<KalahPosition>(&v, "kalah(4,3)".parse().unwrap());
        assert_eq!(v["games"], 4, "{mode}");
        for g in results(&v) {
            let fails = mode == "illegal" || mode == "padded" || g["a_side"] == "North";
            if fails {
                assert_eq!(g["forfeit"]["player"], "A", "{mode}: {g}");
                let why = g["forfeit"]["reason"].as_str().unwrap();
                assert!(why.starts_with(reason), "{mode}: {why}");
                // A program's last line on standard error says why it ended.
                if mode == "crash" {
                    assert!(
                        why.ends_with(
                            "; its standard error ended with \"kalah_bot: crash mode: North to move\""
                        ),
                        "{why}"
                    );
                }
                assert_eq!(g["a_result"], -1);
                continue;
            }
            assert_eq!(g["forfeit"], Value::Null, "{mode}: {g}");
            // Each of the bot's moves (South's) is the first legal move.
            let moves = parse_moves::<KalahPosition>(
                &g["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
            .unwrap();
            let mut p = KalahPosition::start("kalah(4,3)".parse().unwrap());
            for mv in moves {
                if p.side_to_move() == Some(mancala_core::Side::South) {
                    assert_eq!(mv, p.legal_moves()[0], "{mode}: {g}");
                }
                p = p.play(mv).unwrap();
            }
        }
        let expected = if mode == "illegal" || mode == "padded" {
            4
        } else {
            2
        };
        assert_eq!(v["forfeits"]["a"], expected, "{mode}");
    }
}

#[test]
fn a_game_line_says_when_a_s_side_comes_from_the_pie_rule_swap() {
    // A swaps as North at its first move in the second game of the pair and plays South from
    // then on; in the first game it is South from the start.
    // B plays the first legal house and never swaps.
    let program = format!("cmd:sh {} swap", bot_script());
    let other = format!("cmd:sh {} first", bot_script());
    let out = mancala(&[
        "match",
        "--rules",
        "kalah(4,3)+pie_rule",
        "--games",
        "2",
        "--a",
        &program,
        "--b",
        &other,
        "--time-ms",
        "1000",
        "-q",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("game 1: A South, "), "{text}");
    assert!(
        lines[1].starts_with("game 2: A South after the swap, "),
        "{text}"
    );
    // The second game's record holds the swap as A's first move.
    assert!(lines[1].contains(" swap"), "{text}");
}

#[test]
fn bad_arguments_are_one_line_errors() {
    for (args, says) in [
        (vec!["--a", "0", "--b", "random"], "--a 0: the level"),
        (vec!["--a", "5@0", "--b", "random"], "--a 5@0: a move needs"),
        (vec!["--a", "5", "--b", "cmd:"], "--b cmd:: no program"),
        (
            vec!["--a", "5", "--b", "cmd:x 'y"],
            "a quote ' is left open",
        ),
        (vec!["--a", "five", "--b", "random"], "expected `random`"),
        (
            vec!["--a", "5", "--b", "random", "--rules", "nope"],
            "--rules nope",
        ),
        (
            vec!["--a", "5", "--b", "cmd:/nonexistent/program"],
            "player B (/nonexistent/program): cannot start",
        ),
    ] {
        let mut all = vec!["match"];
        all.extend_from_slice(&args);
        let out = mancala(&all);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = common::stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(stdout(&out).is_empty());
    }
    // A value out of an option's range is a usage error (status 2), in clap's form.
    let out = mancala(&["match", "--a", "5", "--b", "random", "--time-ms", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "invalid value '0' for '--time-ms <TIME_MS>': 0 is out of range (1 to 86400000)"
        ),
        "{err}"
    );
}

/// Ctrl-C (SIGINT) in the middle of a long match: the summary of the games played so far,
/// and the status of a process stopped by SIGINT.
#[cfg(unix)]
#[test]
fn ctrl_c_prints_the_summary_so_far() {
    use std::io::{BufRead, BufReader};
    let mut child = common::mancala_command()
        .args([
            "match",
            "--rules",
            "kalah(4,3)",
            "--games",
            "1000000",
            "--a",
            "random",
            "--b",
            "random",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Standard output is read to its end by a thread of its own from the start: a pipe left
    // unread fills in a few milliseconds of random games, and the match (and its summary
    // after the signal) would then wait for the reader while the test waits for the match.
    let out = BufReader::new(child.stdout.take().unwrap());
    let (first_tx, first_rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in out.lines() {
            let line = line.unwrap();
            if lines.is_empty() {
                first_tx.send(line.clone()).unwrap();
            }
            lines.push(line);
        }
        lines
    });
    let line = first_rx.recv().expect("a first game");
    assert!(line.starts_with("game 1: "), "{line}");
    // SAFETY: kill(2) on the process this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGINT));
    let rest = reader.join().unwrap();
    let summary = rest
        .iter()
        .find(|l| l.starts_with("rules kalah(4,3), "))
        .expect("a summary");
    assert!(
        summary.contains("of 1000000 games (interrupted)"),
        "{summary}"
    );
    assert!(rest
        .iter()
        .any(|l| l.starts_with("A: ") && l.contains("score")));
}
