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

/// A scratch folder of this test, named after `tag` (`common::scratch`: removed when the
/// guard is dropped).
fn temp_dir(tag: &str) -> common::Scratch {
    common::scratch("grade", tag)
}

/// A one-position Kalah(3,3) set, North to move (`P7` of mancala-bench's grade tests).
fn north_set(dir: &std::path::Path) -> String {
    let f = dir.join("set.txt");
    std::fs::write(&f, "# rules: kalah(3,3)\n1,0,0,8,0,1,1,7 N +3\n").unwrap();
    f.display().to_string()
}

fn bot_script() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../mancala-bench/tests/bots/kalah_bot.sh"
    )
    .to_string()
}

#[test]
fn arguments_are_checked_before_any_database_is_built() {
    // Values out of an option's range, or options that cannot go together: usage errors
    // (status 2), in clap's form, as `--bucket 0`.
    for (args, said) in [
        (
            vec!["--take", "0"],
            "invalid value '0' for '--take <TAKE>': 0 is out of range (1 or more",
        ),
        (
            vec!["--time-ms", "0"],
            "invalid value '0' for '--time-ms <TIME_MS>': 0 is out of range (1 to 86400000)",
        ),
        (vec!["--bucket", "0"], "--bucket"),
        (
            vec!["--generate", "--count", "0"],
            "invalid value '0' for '--count <COUNT>': 0 is out of range (1 to 100000)",
        ),
        (
            vec!["--generate", "--count", "100001"],
            "invalid value '100001' for '--count <COUNT>'",
        ),
        (
            vec!["--generate", "--min-seeds", "9", "--max-seeds", "4"],
            "--min-seeds 9 is more than --max-seeds 4",
        ),
    ] {
        let mut all = vec!["grade", "--level", "1"];
        all.extend(args);
        let out = mancala(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = common::stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(said), "{err}");
        assert!(err.contains("(see `mancala grade --help`)"), "{err}");
    }
    for (args, said) in [
        // The built-in set is standard Kalah(6,4): another --rules is refused, not ignored.
        (
            vec!["--rules", "togyz-kumalak"],
            "the built-in set is of the rule set standard",
        ),
        (
            vec!["--rules", "oware"],
            "the built-in set is of the rule set standard",
        ),
        (vec!["--rules", "garbage"], "--rules garbage"),
    ] {
        let mut all = vec!["grade", "--level", "1"];
        all.extend(args);
        let out = mancala(&all);
        assert!(!out.status.success());
        assert!(
            common::stderr(&out).contains(said),
            "{}",
            common::stderr(&out)
        );
    }
}

#[test]
fn a_program_that_cannot_start_is_one_error() {
    let out = mancala(&["grade", "--no-cache", "--", "/nonexistent/my-bot"]);
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("cannot start"), "{err}");
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_file_of_oware_rules_is_refused_as_not_kalah() {
    let dir = temp_dir("oware");
    let f = dir.join("set.txt");
    // Five houses a side: no Oware database comes near it.
    std::fs::write(
        &f,
        "# rules: oware(5,4)\n4,4,4,4,4,4,4,4,4,4,4,4,0,0 S +0\n",
    )
    .unwrap();
    let out = mancala(&["grade", "--level", "1", "--file", f.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert!(err.contains("for Kalah rule sets"), "{err}");
    assert!(!err.contains("malformed"), "{err}");
    // The rule set came from the file, not from a `--rules` that was not given.
    assert!(err.contains("`# rules:` line, oware(5,4)"), "{err}");
    assert!(!err.contains("--rules"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn games_text_lists_the_failures() {
    let dir = temp_dir("games");
    let set = north_set(&dir);
    let bot = bot_script();
    let out = mancala(&[
        "grade",
        "--no-cache",
        "--threads",
        "1",
        "--file",
        &set,
        "--games",
        "--",
        "sh",
        &bot,
        "illegal",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("failure at ply 0"), "{text}");
    assert!(text.contains("illegal move \"7\""), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The processes of `ids` still running: a /proc entry that is not a zombie, with a
/// command line of the test bot (`kalah_bot`) or of its children (`sleep 1003`), so that
/// an id reused by another process does not count.
#[cfg(target_os = "linux")]
fn running(ids: &[i32]) -> Vec<i32> {
    ids.iter()
        .copied()
        .filter(|id| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{id}/stat")) else {
                return false;
            };
            let state = stat[stat.rfind(')').unwrap() + 2..].chars().next();
            let cmdline = std::fs::read(format!("/proc/{id}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            state != Some('Z') && (cmdline.contains("kalah_bot") || cmdline.contains("1003"))
        })
        .collect()
}

/// The grader is sent `signal` while the bot hangs on the North position, ignoring SIGINT,
/// SIGTERM and SIGHUP and waiting for two children (one in a session of its own, `setsid`):
/// the bot and both children end all the same, within 10 s. Returns the grader's status.
#[cfg(target_os = "linux")]
fn signal_the_grader(signal: i32, tag: &str) -> std::process::ExitStatus {
    let dir = temp_dir(tag);
    let set = north_set(&dir);
    let pidfile = dir.join("pid");
    let mut grader = common::mancala_command()
        .args([
            "grade",
            "--no-cache",
            "--threads",
            "1",
            "--file",
            &set,
            "--time-ms",
            "60000",
            "--",
            "sh",
            &bot_script(),
            "hangkids",
            pidfile.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut text = String::new();
    for _ in 0..600 {
        if let Ok(t) = std::fs::read_to_string(&pidfile) {
            text = t;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(!text.is_empty(), "the bot never wrote its pid");
    let mut ids: Vec<i32> = std::fs::read_to_string(dir.join("pid.kids"))
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    ids.push(text.lines().next().unwrap().trim().parse().unwrap());
    assert_eq!(running(&ids), ids, "the bot and its children run");
    // SAFETY: kill(2) on the grader this test started.
    unsafe { libc::kill(grader.id() as i32, signal) };
    let status = grader.wait().unwrap();
    let start = std::time::Instant::now();
    while !running(&ids).is_empty() && start.elapsed() < std::time::Duration::from_secs(10) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left = running(&ids);
    for &id in &left {
        // SAFETY: clean up what the grader left (the test fails below).
        unsafe { libc::kill(id, libc::SIGKILL) };
    }
    assert_eq!(
        left,
        Vec::<i32>::new(),
        "left running after signal {signal}"
    );
    if let Some(mask) = text.lines().nth(1) {
        assert!(
            mask.trim_start_matches("SigBlk:")
                .trim()
                .chars()
                .all(|c| c == '0'),
            "the bot started with signals blocked: {mask}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
    status
}

/// SIGTERM: the grader stops the program and everything it started, and exits with
/// 128 + 15. The program starts with no signal blocked (the grader blocks them for its
/// signal thread).
#[cfg(target_os = "linux")]
#[test]
fn sigterm_kills_the_program_and_its_children() {
    let status = signal_the_grader(libc::SIGTERM, "sigterm");
    assert_eq!(status.code(), Some(128 + libc::SIGTERM));
}

/// SIGKILL: the grader can do nothing, yet the program and everything it started end.
#[cfg(target_os = "linux")]
#[test]
fn a_grader_killed_with_sigkill_leaves_nothing_running() {
    use std::os::unix::process::ExitStatusExt;
    let status = signal_the_grader(libc::SIGKILL, "sigkill");
    assert_eq!(status.signal(), Some(libc::SIGKILL));
}

/// The grader tells the program the set's rule set (`rules kalah(4,3)`): `mancala agent line`
/// started without `--rules` (so with `standard`, Kalah(6,4)) plays every position of a
/// Kalah(4,3) set; a program that refuses the request (`kalah_bot.sh` knows no `rules`) is
/// graded all the same, with its reason in the report and a warning.
#[test]
fn the_program_is_told_the_rule_set() {
    let exe = env!("CARGO_BIN_EXE_mancala");
    let v = grade(&["--", exe, "agent", "line", "--level", "3", "--time-ms", "0"]);
    assert_eq!(v["rules"], "kalah(4,3)");
    assert_eq!(v["rules_refused"], Value::Null);
    assert_eq!(v["failures"].as_array().unwrap().len(), 0, "{v}");
    let out = mancala(&[
        "grade",
        "--generate",
        "--rules",
        "kalah(4,3)",
        "--count",
        "3",
        "--min-seeds",
        "4",
        "--max-seeds",
        "8",
        "--no-cache",
        "--threads",
        "1",
        "--json",
        "--",
        "sh",
        &bot_script(),
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(
        v["rules_refused"]
            .as_str()
            .unwrap()
            .contains("unknown request `rules`"),
        "{v}"
    );
    assert_eq!(v["failures"].as_array().unwrap().len(), 0, "{v}");
    assert!(common::stderr(&out).contains("warning: the program refused `rules kalah(4,3)`"));
}

#[test]
fn a_file_that_is_a_pipe_is_read_once() {
    // `--file /dev/stdin` (or `<(…)`) can be read only once: the rule-set line and the
    // positions come from the same reading.
    let out = common::mancala_with_input(
        &["grade", "--level", "1", "--file", "/dev/stdin", "--json"],
        b"# rules: kalah(3,3)\n1,0,0,8,0,1,1,7 N +3\n",
    );
    assert!(out.status.success(), "{}", common::stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
    assert_eq!(v["positions"], 1);
    assert_eq!(v["rules"], "kalah(3,3)");
}

#[test]
fn rules_that_disagree_with_the_file_are_refused() {
    let dir = temp_dir("disagree");
    let f = north_set(&dir);
    let out = mancala(&[
        "grade",
        "--level",
        "1",
        "--rules",
        "kalah(4,3)",
        "--file",
        &f,
    ]);
    assert!(!out.status.success());
    let err = common::stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--rules kalah(4,3)") && err.contains("kalah(3,3)"),
        "{err}"
    );
    // The same rule set, written otherwise, is accepted.
    let out = mancala(&[
        "grade",
        "--level",
        "1",
        "--rules",
        "KALAH(3, 3)",
        "--file",
        &f,
        "--json",
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rules_line_of_a_kalah_file_is_read_in_every_form() {
    let dir = temp_dir("header");
    let f = dir.join("set.txt");
    for header in [
        "#rules: kalah(3,3)",
        "#  rules :  kalah(3,3)",
        "# Rules: Kalah(3,3)",
        "\u{feff}# rules: kalah(3,3)",
    ] {
        std::fs::write(&f, format!("{header}\n1,0,0,8,0,1,1,7 N +3\n")).unwrap();
        let out = mancala(&[
            "grade",
            "--level",
            "1",
            "--file",
            f.to_str().unwrap(),
            "--json",
        ]);
        assert!(out.status.success(), "{header:?}: {}", common::stderr(&out));
        let v: Value = serde_json::from_str(&stdout(&out)).expect("one JSON object");
        assert_eq!(v["rules"], "kalah(3,3)", "{header:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_value_of_the_file_that_is_not_the_exact_value_is_refused() {
    // P7 of mancala-bench's grade tests: North's best move, 3, is worth +3 (derived by hand
    // there); the file says +4.
    let dir = temp_dir("value");
    let f = dir.join("set.txt");
    std::fs::write(&f, "# rules: kalah(3,3)\n\n1,0,0,8,0,1,1,7 N +4\n").unwrap();
    for games in [false, true] {
        let mut args = vec!["grade", "--level", "1", "--file", f.to_str().unwrap()];
        if games {
            args.push("--games");
        }
        let out = mancala(&args);
        assert!(!out.status.success());
        let err = common::stderr(&out);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("line 3") && err.contains("+4") && err.contains("+3"),
            "{err}"
        );
        assert!(stdout(&out).is_empty());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
