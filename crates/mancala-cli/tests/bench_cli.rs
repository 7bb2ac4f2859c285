//! `mancala bench` from the command line: the quick suite's values, a signature that two runs
//! agree on, a wrong value failing the run, databases reported per set.

mod common;

use common::{mancala_command, mancala_text as mancala, scratch};

fn json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = mancala(args);
    assert!(ok, "{args:?}: {err}");
    serde_json::from_str(out.trim()).unwrap()
}

/// A fresh folder `scratch("bench-cli", name)` holding `positions.txt` with `text`: the
/// folder and the file.
fn positions_file(name: &str, text: &str) -> (common::Scratch, std::path::PathBuf) {
    let dir = scratch("bench-cli", name);
    let file = dir.join("positions.txt");
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

#[test]
fn quick_suite_checks_values_and_has_a_repeatable_signature() {
    let a = json(&["bench", "--quick", "--json"]);
    let b = json(&["bench", "--quick", "--json"]);
    assert_eq!(a["selection"], "quick");
    assert_eq!(a["correct"], a["positions"]);
    let names: Vec<_> = a["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["kalah63-ec", "midgame64-quick"]);
    assert!(a["signature"].as_u64().unwrap() > 0);
    assert_eq!(a["signature"], a["nodes"]);
    assert_eq!(a["signature"], b["signature"]);
    assert_eq!(a["ok"], true);
    assert!(a["failure"].is_null(), "{a}");
    assert!(a["no_signature"].is_null(), "{a}");
    // Two threads: same values, no signature.
    let c = json(&[
        "bench",
        "--set",
        "midgame64-quick",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(c["correct"], c["positions"]);
    assert!(c["signature"].is_null());
    assert_eq!(c["ok"], true);
    assert!(
        c["no_signature"]
            .as_str()
            .unwrap()
            .ends_with("this run: 2 threads, 64 MiB table"),
        "{c}"
    );
}

#[test]
fn text_table_names_every_set_and_the_signature() {
    let (ok, out, err) = mancala(&["bench", "--set", "midgame64-quick"]);
    assert!(ok, "{err}");
    assert!(out.contains("midgame64-quick"), "{out}");
    assert!(out.contains("20/20 ok"), "{out}");
    assert!(out.contains("signature "), "{out}");
    assert!(out.contains("--threads 1 --tt-mb 64, no --egdb"), "{out}");
}

#[test]
fn a_wrong_value_fails_the_run() {
    // Kalah(6,1): a first-player win by 2 (Irving et al. 2000); the file claims +3.
    let (dir, file) = positions_file(
        "wrong",
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +3\n",
    );
    let f = file.to_str().unwrap();
    let (ok, out, err) = mancala(&["bench", "--file", f]);
    assert!(!ok);
    assert!(out.contains("0/1 WRONG"), "{out}");
    assert!(err.contains("expected +3, got +2"), "{err}");
    assert!(err.contains("1 of 1 values wrong"), "{err}");
    // A failed run has no signature, and says why in its place.
    assert!(!out.lines().any(|l| l.starts_with("signature")), "{out}");
    assert!(
        out.contains("no signature: the run failed (1 of 1 values wrong)"),
        "{out}"
    );
    let (ok, out, err) = mancala(&["bench", "--set", "kalah63-ec", "--file", f, "--json"]);
    assert!(!ok);
    assert!(err.contains("1 of 2 values wrong"), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["signature"].is_null(), "{v}");
    assert_eq!(v["ok"], false);
    assert_eq!(v["failure"], "1 of 2 values wrong");
    assert_eq!(v["no_signature"], "the run failed (1 of 2 values wrong)");
    assert_eq!(v["correct"], 1);
    assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
    // The right value passes.
    std::fs::write(
        &file,
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n",
    )
    .unwrap();
    let (ok, out, err) = mancala(&["bench", "--file", f]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l.starts_with("signature ")), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--threads` above the processors this process may run on is said in one warning line
/// naming them, as by `solve` and `egdb build` (not under `--quiet`), and not refused.
#[test]
fn threads_above_the_processors_are_warned_about() {
    let cpus = std::thread::available_parallelism().unwrap().get();
    let many = (cpus + 1).to_string();
    let words = if cpus == 1 { "processor" } else { "processors" };
    let warning = format!(
        "mancala: warning: --threads {many} is more than the {cpus} {words} of this machine"
    );
    // Kalah(6,1): a first-player win by 2 (Irving et al. 2000).
    let (_dir, file) = positions_file(
        "threads",
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n",
    );
    let f = file.to_str().unwrap();
    let (ok, _, err) = mancala(&["bench", "--file", f, "--threads", &many]);
    assert!(ok, "{err}");
    assert!(
        err.lines().next().unwrap_or("").starts_with(&warning),
        "{err}"
    );
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    let (ok, _, err) = mancala(&["--quiet", "bench", "--file", f, "--threads", &many]);
    assert!(ok && !err.contains("warning"), "{err}");
    // No more threads than processors: nothing said.
    let (ok, _, err) = mancala(&["bench", "--file", f, "--threads", "1"]);
    assert!(ok && !err.contains("warning"), "{err}");
}

#[test]
fn bad_options_fail_with_one_line() {
    for args in [
        &["bench", "--set", "kalah99"][..],
        &["bench", "--set", "kalah63", "--threads", "0"],
        &["bench", "--file", "/nonexistent/positions.txt"],
        &["bench", "--set", "kalah63", "--egdb", "/nonexistent/egdb"],
        &["bench", "--quick", "--set", "kalah63"],
    ] {
        let (ok, _, err) = mancala(args);
        assert!(!ok, "{args:?}");
        assert!(err.starts_with("mancala: error:"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let (ok, out, _) = mancala(&["bench", "--list"]);
    assert!(ok);
    assert!(out.contains("midgame64"));
}

/// A positions file of another game's rule set is refused naming that game, in one line:
/// the file's sets are Kalah positions (the message said the rule set was malformed and
/// listed it among the forms expected).
#[test]
fn a_file_of_another_games_rule_set_names_the_game() {
    let (dir, file) = positions_file(
        "oware-file",
        "# rules: oware\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 S 0\n",
    );
    let (ok, out, err) = mancala(&["bench", "--file", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.trim_end().ends_with(
            "line 1: the `# rules:` line: `oware` names an Oware rule set, not a Kalah one \
             (expected `standard`, `manchester` or `kalah(m,n)[+option…]`)"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file whose `# rules:` line names an Oware rule set with a misspelt option: Oware's own
/// reason (it said the text named an Oware rule set, not a Kalah one).
#[test]
fn a_file_of_another_games_bad_rule_set_gives_that_games_reason() {
    let (dir, file) = positions_file(
        "oware-bad-file",
        "# rules: awari+grand_slam=nonee\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 S 0\n",
    );
    let (ok, out, err) = mancala(&["bench", "--file", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 1: the `# rules:` line: bad value `nonee` for rule option `grand_slam`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn each_set_reports_the_database_it_used() {
    let dir = scratch("bench-cli", "egdb");
    let d = dir.to_str().unwrap();
    let (ok, _, err) = mancala(&[
        "egdb",
        "build",
        "--rules",
        "standard",
        "--max-seeds",
        "8",
        "--out",
        d,
    ]);
    assert!(ok, "{err}");
    // Kalah(6,1) with empty capture: a first-player win by 2 (Irving et al. 2000).
    let file = dir.join("ec.txt");
    std::fs::write(
        &file,
        "# rules: kalah(6,1)+empty_capture\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    // The table: the file's set has none, and a warning on standard error says why.
    let (ok, out, err) = mancala(&[
        "bench",
        "--set",
        "midgame64-quick",
        "--file",
        f,
        "--egdb",
        d,
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains(&format!(
            "warning: set file:{f} without an endgame database"
        )),
        "{err}"
    );
    assert!(
        err.contains("does not serve kalah(6,1)+empty_capture"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(out.contains("a database for 1 of 2 sets"), "{out}");
    assert!(!out.contains("\nsignature "), "{out}");
    let v = json(&[
        "bench",
        "--set",
        "midgame64-quick",
        "--file",
        f,
        "--egdb",
        d,
        "--json",
    ]);
    assert_eq!(v["correct"], v["positions"]);
    assert!(v["signature"].is_null());
    for s in v["sets"].as_array().unwrap() {
        // The standard-capture database serves the mid-game positions, not the
        // empty-capture rules of the file.
        let db = &s["database"];
        if s["name"] == format!("file:{f}") {
            assert!(db.is_null(), "{s}");
        } else {
            assert!(db.as_str().unwrap().ends_with(".egdb"), "{s}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generator_options_need_generate() {
    for args in [
        &["bench", "--quick", "--rules", "kalah(4,3)"][..],
        &["bench", "--set", "kalah63", "--seed", "3"],
        &["bench", "--count", "5"],
        &["bench", "--min-seeds", "2"],
        &["bench", "--max-seeds", "9"],
    ] {
        let (ok, out, err) = mancala(args);
        assert!(!ok, "{args:?}: ran: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.starts_with("mancala: error:"), "{args:?}: {err}");
        assert!(err.contains("--generate"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // --generate prints a file and runs nothing: the options of a run are refused with it.
    for (args, named) in [
        (&["bench", "--generate", "--quick"][..], "--quick"),
        (&["bench", "--generate", "--set", "kalah63"], "--set"),
        (&["bench", "--generate", "--json"], "--json"),
        (&["bench", "--generate", "--list"], "--list"),
    ] {
        let (ok, out, err) = mancala(args);
        assert!(!ok, "{args:?}: ran: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(named), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn generate_refuses_a_count_out_of_range() {
    // Once a panic on capacity overflow (exit 101) and an abort of a failed allocation
    // (exit 134): now a usage error (a value out of the option's range), exit 2, one line
    // in clap's form, nothing on standard output.
    for count in ["0", "100001", "1000000000000", "18446744073709551615"] {
        let out = mancala_command()
            .args(["bench", "--generate", "--count", count])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{count}: {err}");
        assert!(out.stdout.is_empty(), "{count}");
        assert_eq!(err.lines().count(), 1, "{count}: {err}");
        assert!(
            err.starts_with(&format!(
                "mancala: error: invalid value '{count}' for '--count <COUNT>': {count} is out of range (1 to 100000)"
            )),
            "{count}: {err}"
        );
        assert!(
            err.ends_with("(see `mancala bench --help`)\n"),
            "{count}: {err}"
        );
    }
}

#[test]
fn generate_stops_when_the_seed_range_runs_out() {
    // Both once looped for ever: no position with one seed left in the houses is still on
    // (the side to move without it has none), and Kalah(2,2) has at most 630 positions with
    // 1..=3 seeds in the houses (35 ways for the houses, 9 for the stores, 2 sides to move).
    for (args, found) in [
        (
            &["--min-seeds", "1", "--max-seeds", "1", "--count", "1"][..],
            "mancala: error: 0 of 1 positions found under standard with 1..=1 seeds",
        ),
        (
            &[
                "--rules",
                "kalah(2,2)",
                "--min-seeds",
                "1",
                "--max-seeds",
                "3",
                "--count",
                "1000",
            ],
            " of 1000 positions found under kalah(2,2) with 1..=3 seeds",
        ),
    ] {
        let mut all = vec!["bench", "--generate"];
        all.extend_from_slice(args);
        let out = mancala_command().args(&all).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{all:?}: {err}");
        assert!(out.stdout.is_empty(), "{all:?}");
        assert_eq!(err.lines().count(), 1, "{all:?}: {err}");
        assert!(err.contains(found), "{all:?}: {err}");
        assert!(
            err.contains("the last 1000 random walks found no new one"),
            "{err}"
        );
    }
}

#[test]
fn generate_with_its_defaults_gives_the_mid_game_file_again() {
    // The shipped file was generated with the defaults and 240 positions; the walks do not
    // depend on the count, so the first positions of a shorter run are the file's first.
    let file = include_str!("../../mancala-bench/data/kalah64-midgame-v1.txt");
    let expected: Vec<&str> = file
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    let (ok, out, err) = mancala(&["bench", "--generate", "--count", "3"]);
    assert!(ok, "{err}");
    let got: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(got, expected);
    // The first line names the file format (the committed file's first line too).
    assert_eq!(out.lines().next(), file.lines().next());
    assert_eq!(
        out.lines().next(),
        Some("# mancala bench positions file, format version 1")
    );
    assert!(
        out.contains(
            "# generated by: mancala bench --generate --rules standard --seed 1 --count 3 \
             --min-seeds 8 --max-seeds 30\n"
        ),
        "{out}"
    );
    // Every generator option given: the header names them.
    let (ok, out, err) = mancala(&[
        "bench",
        "--generate",
        "--rules",
        "kalah(4,2)",
        "--seed",
        "3",
        "--count",
        "2",
        "--min-seeds",
        "2",
        "--max-seeds",
        "5",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("# rules: kalah(4,2)\n"), "{out}");
    assert!(
        out.contains(
            "# generated by: mancala bench --generate --rules 'kalah(4,2)' --seed 3 --count 2 \
             --min-seeds 2 --max-seeds 5\n"
        ),
        "{out}"
    );
    assert_eq!(out.lines().filter(|l| !l.starts_with('#')).count(), 2);
}

#[test]
fn generate_header_counts_one_walk_in_the_singular() {
    // With the defaults the first walk already ends in a position kept (a game still on).
    let (ok, out, err) = mancala(&["bench", "--generate", "--count", "1"]);
    assert!(ok, "{err}");
    assert!(out.contains("; 1 walk, plies of random play"), "{out}");
    let (ok, out, err) = mancala(&["bench", "--generate", "--count", "3"]);
    assert!(ok, "{err}");
    assert!(out.contains(" walks, plies of random play"), "{out}");
}

#[test]
fn broken_databases_are_named_and_never_used() {
    let dir = scratch("bench-cli", "broken");
    let good = dir.join("good");
    let (ok, _, err) = mancala(&[
        "egdb",
        "build",
        "--rules",
        "standard",
        "--max-seeds",
        "8",
        "--out",
        good.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let built = std::fs::read_dir(&good)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let bytes = std::fs::read(&built).unwrap();
    // A folder of broken files only: a file that is no database, one cut in half.
    let broken = dir.join("broken");
    std::fs::create_dir(&broken).unwrap();
    let junk = broken.join("junk.egdb");
    std::fs::write(&junk, "not a database, just text").unwrap();
    let cut = broken.join("cut.egdb");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let (b, j, c) = (
        broken.to_str().unwrap(),
        junk.to_str().unwrap(),
        cut.to_str().unwrap(),
    );
    for json in [false, true] {
        let mut args = vec![
            "bench",
            "--set",
            "midgame64-quick",
            "--egdb",
            b,
            "--verbose",
        ];
        if json {
            args.push("--json");
        }
        let (ok, out, err) = mancala(&args);
        assert!(!ok, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        let last = err.lines().last().unwrap();
        assert!(last.starts_with("mancala: error: --egdb: "), "{err}");
        assert!(
            last.contains(&format!("skipped {j}: not a mancala endgame database")),
            "{err}"
        );
        assert!(
            last.contains(&format!("skipped {c}: database file truncated")),
            "{err}"
        );
    }
    // One file named on the command line: its name once, and no table before the error.
    for (file, why) in [(j, "not a mancala endgame database"), (c, "truncated")] {
        let (ok, out, err) = mancala(&["bench", "--set", "midgame64-quick", "--egdb", file]);
        assert!(!ok);
        assert!(out.is_empty(), "{out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(err.matches(file).count(), 1, "{err}");
        assert!(err.contains(why), "{err}");
    }
    // The good file beside them: it is used, and --verbose names the others.
    std::fs::copy(&built, broken.join("kalah6.k8.egdb")).unwrap();
    let (ok, out, err) = mancala(&[
        "bench",
        "--set",
        "midgame64-quick",
        "--egdb",
        b,
        "--verbose",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("kalah6.k8.egdb"), "{out}");
    assert!(err.contains(&format!("skipped {j}")), "{err}");
    assert!(err.contains(&format!("skipped {c}")), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_with_two_rules_lines_is_refused() {
    // Once accepted, every position labelled with the last rules (the standard start then
    // under kalah(6,3)+empty_capture).
    let (dir, file) = positions_file(
        "two-rules",
        "# rules: standard\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n\
         # rules: kalah(6,3)+empty_capture\n3,3,3,3,3,3,0,3,3,3,3,3,3,0 S +2\n",
    );
    let f = file.to_str().unwrap();
    let out = mancala_command()
        .args(["bench", "--file", f])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(
        err,
        format!(
            "mancala: error: {f}: line 3: a second `# rules: …` line (a file has one, on line 1 \
             here)\n"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_takes_no_other_option() {
    // Once each was ignored: `--list --json` printed the text list, `--list --set nosuch` no
    // error. Now a malformed command line (exit 2), one line naming the two options.
    for (args, other) in [
        (&["bench", "--list", "--json"][..], "--json"),
        (&["bench", "--list", "--set", "nosuch"], "--set"),
        (&["bench", "--list", "--quick"], "--quick"),
        (&["bench", "--list", "--file", "f.txt"], "--file"),
        (&["bench", "--list", "--egdb", "/nonexistent"], "--egdb"),
        (&["bench", "--list", "--threads", "2"], "--threads"),
        (&["bench", "--list", "--tt-mb", "8"], "--tt-mb"),
        (&["bench", "--list", "--verbose"], "--verbose"),
        (&["bench", "--list", "--rules", "standard"], "--generate"),
    ] {
        let out = mancala_command().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(other), "{args:?}: {err}");
    }
    let (ok, out, err) = mancala(&["bench", "--list"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("suite version 2\n"), "{out}");
}

#[test]
fn verbose_json_has_every_position() {
    // Once --verbose with --json printed no per-position line and the JSON had none either.
    // Kalah(6,1): +2 for the player to move (Irving et al. 2000), South or North by symmetry;
    // the second line claims +3, so the run fails and the JSON says which position.
    let (dir, file) = positions_file(
        "verbose-json",
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 N +3\n",
    );
    let f = file.to_str().unwrap();
    let (ok, out, _) = mancala(&["bench", "--file", f, "--json", "--verbose"]);
    assert!(!ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["ok"], false);
    let results = v["sets"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{v}");
    for (r, side, expected) in [(&results[0], 'S', 2), (&results[1], 'N', 3)] {
        assert_eq!(r["position"], format!("1,1,1,1,1,1,0,1,1,1,1,1,1,0 {side}"));
        assert_eq!(r["expected"], expected);
        assert_eq!(r["value"], 2);
        assert!(r["nodes"].as_u64().unwrap() > 0, "{r}");
        assert!(r["seconds"].as_f64().unwrap() >= 0.0, "{r}");
    }
    let nodes: u64 = results.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["sets"][0]["nodes"], nodes);
    // Without --verbose, no per-position array.
    let (ok, out, _) = mancala(&["bench", "--file", f, "--json"]);
    assert!(!ok);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert!(v["sets"][0].get("results").is_none(), "{v}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_named_like_a_set_is_labelled_as_a_file() {
    // A file called `midgame64-quick` once gave the label of the set of that name.
    let dir = scratch("bench-cli", "file-label");
    std::fs::write(
        dir.join("midgame64-quick"),
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n",
    )
    .unwrap();
    let out = mancala_command()
        .current_dir(&dir)
        .args(["bench", "--file", "midgame64-quick"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.starts_with("mancala bench: suite version 2, file:midgame64-quick; "),
        "{text}"
    );
    assert!(text.contains("\nfile:midgame64-quick "), "{text}");
    assert!(
        text.contains("(suite version 2, file:midgame64-quick; --threads 1"),
        "{text}"
    );
    let out = mancala_command()
        .current_dir(&dir)
        .args([
            "bench",
            "--set",
            "kalah63",
            "--file",
            "midgame64-quick",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["selection"], "kalah63 file:midgame64-quick");
    assert_eq!(v["sets"][1]["name"], "file:midgame64-quick");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_names_the_exit_codes_and_no_stale_version() {
    let (ok, out, err) = mancala(&["bench", "--help"]);
    assert!(ok, "{err}");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!flat.contains("suite version 1"), "{out}");
    for said in [
        "Exit status: 0 when every value was checked; 1 for a refused input",
        "\"ok\": false",
        "2 for a malformed command line",
        "(130 for Ctrl-C)",
    ] {
        assert!(flat.contains(said), "{said}: {out}");
    }
    // The codes as they are: a refused input 1, a malformed command line 2.
    let code = |args: &[&str]| mancala_command().args(args).output().unwrap().status.code();
    assert_eq!(code(&["bench", "--set", "nosuch"]), Some(1));
    assert_eq!(code(&["bench", "--nosuch"]), Some(2));
}

#[test]
fn quick_with_a_file_is_refused() {
    // A file that runs on its own: with --quick, the file alone ran and --quick was ignored.
    let (dir, file) = positions_file(
        "quick-file",
        "# rules: kalah(6,1)\n1,1,1,1,1,1,0,1,1,1,1,1,1,0 S +2\n",
    );
    let f = file.to_str().unwrap();
    let (ok, _, err) = mancala(&["bench", "--file", f]);
    assert!(ok, "{err}");
    let (ok, out, err) = mancala(&["bench", "--quick", "--file", f]);
    assert!(!ok, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("'--quick' cannot be used with '--file"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
