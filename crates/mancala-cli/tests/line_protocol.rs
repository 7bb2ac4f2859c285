//! `mancala agent line`: the plain line protocol (`docs/line-protocol.md`) end to end, one
//! reply line a request. Positions are traced by hand from the rules (`docs/rules/oware.md`).

mod common;

use common::{mancala_with_input, stderr, stdout};

fn session(rules: &str, input: &str) -> Vec<String> {
    let o = mancala_with_input(
        &[
            "agent",
            "line",
            "--rules",
            rules,
            "--time-ms",
            "0",
            "--nodes",
            "50000",
        ],
        input.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

/// X1 (South's 3 from the start: `4,4,0,5,5,5,0,5,4,4,4,4,4,0 N`), then North's 1 sows its
/// 5 seeds into N2..N6 (the last in North's own row: no capture).
#[test]
fn moves_then_play_then_go() {
    let replies = session("oware", "moves 3\nplay 1\n\ngo depth 2\n");
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert_eq!(replies[0], "ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N");
    assert_eq!(replies[1], "ok 4,4,0,5,5,5,0,0,5,5,5,5,5,0 S");
    let words: Vec<&str> = replies[2].split(' ').collect();
    assert_eq!(words.len(), 10, "{replies:?}");
    assert_eq!(
        (words[0], words[2], words[4], words[5], words[6], words[8]),
        ("bestmove", "score", "depth", "2", "nodes", "exact")
    );
    // South's houses 1, 2, 4, 5, 6 hold seeds; 3 is empty.
    assert!(["1", "2", "4", "5", "6"].contains(&words[1]), "{replies:?}");
}

/// The cycle of `crates/mancala-solver/tests/engine_oware_history.rs` (traced there): with
/// the history given by `position … moves …`, North's 3 repeats a position and wins by 2.
#[test]
fn the_search_sees_the_history() {
    let replies = session(
        "oware-openspiel(3,3)",
        "position 1,1,1,6,0,0,0,9 S moves 3 1 2 2 3 1 1\ngo depth 20\n",
    );
    assert_eq!(replies[0], "ok 0,1,0,6,0,1,1,9 N");
    assert!(
        replies[1].starts_with("bestmove 3 score 200 depth ")
            && replies[1].ends_with(" exact true"),
        "{replies:?}"
    );
}

/// Every refused request gets one `error …` line and changes nothing; `quit` answers `bye`
/// and ends the session (the lines after it are not read).
#[test]
fn errors_are_one_line_and_the_session_goes_on() {
    let replies = session(
        "oware",
        "frobnicate\nplay 9\nplay 3 3 3\ngo depth 121\ngo speed 3\nposition 1,2,3\nmoves x\n\
         play 3\nquit\nplay 1\n",
    );
    assert_eq!(replies.len(), 9, "{replies:?}");
    for r in &replies[..7] {
        assert!(r.starts_with("error "), "{replies:?}");
    }
    // `play 3 3 3` failed at its third move (South's house 3 is empty then) and played none.
    assert!(replies[2].contains("move 3"), "{replies:?}");
    assert_eq!(replies[7], "ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N");
    assert_eq!(replies[8], "bye");
    // 0 is no limit for depth as for time and nodes (docs/line-protocol.md).
    let replies = session("oware", "go depth 0 nodes 500\n");
    assert!(replies[0].starts_with("bestmove "), "{replies:?}");
    // Each budget once: a second `nodes` (in any case) is refused, not silently taken.
    let replies = session("oware", "go nodes 5 NODES 6\ngo time 5 depth 1 time 9\n");
    assert_eq!(replies[0], "error go: `NODES` given twice", "{replies:?}");
    assert_eq!(replies[1], "error go: `time` given twice", "{replies:?}");
}

/// Words are separated by spaces or tabs only (docs/line-protocol.md): a lone `\r` inside a
/// line is refused and nothing of the line is played (it split `play 9\rplay 1` into the
/// moves 9, `play` and 1); a `\r\n` line end and tabs keep working.
#[test]
fn a_carriage_return_inside_a_line_is_refused_not_a_separator() {
    let replies = session(
        "oware",
        "moves 3\r\nplay 9\rplay 1\nplay\t1 \r\ngo\u{0c}depth 2\n\r\nquit\r\n",
    );
    let why = "words are separated by spaces or tabs, and a line ends in \\n or \\r\\n";
    assert_eq!(
        replies,
        [
            "ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N".to_string(),
            format!("error the request holds U+000D (a carriage return) at byte 7: {why}"),
            // North's 1 as in `moves_then_play_then_go`: the refused line played nothing.
            "ok 4,4,0,5,5,5,0,0,5,5,5,5,5,0 S".to_string(),
            format!("error the request holds U+000C (a form feed) at byte 3: {why}"),
            "bye".to_string(),
        ]
    );
}

/// A `\r` as the input's last byte ends no line (no `\n` follows it): the request is
/// refused as one holding a lone `\r`, and nothing of it is played; the same request with a
/// `\r\n` line end is played.
#[test]
fn a_carriage_return_at_the_end_of_the_input_is_no_line_end() {
    let why = "words are separated by spaces or tabs, and a line ends in \\n or \\r\\n";
    assert_eq!(
        session("oware", "moves 3\r"),
        [format!(
            "error the request holds U+000D (a carriage return) at byte 8: {why}"
        )]
    );
    assert_eq!(
        session("oware", "moves 3\r\n"),
        ["ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N"]
    );
}

/// A request with nothing where a move list or nothing at all is due is refused as `play`
/// with no move is, and changes nothing: `quit` with words after it (the session goes on),
/// `moves` and `position start moves` with no move, an empty move between two commas.
#[test]
fn requests_with_missing_or_extra_words_are_errors() {
    let replies = session(
        "oware",
        "moves 3\nquit extra\nmoves 1,2,,3\nposition start moves\nmoves\nplay\nplay 1,\n         position start moves 3, 1\nquit\n",
    );
    assert_eq!(
        replies,
        [
            "ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N",
            "error quit: nothing may follow `quit`, got `extra`",
            "error moves: an empty move after move 2 (a comma with no move after it)",
            // The move list of a `position` request: labelled with the request first, as
            // `go: depth:` is.
            "error position: moves: give at least one move",
            "error moves: give at least one move",
            "error play: give at least one move",
            "error play: an empty move after move 1 (a comma with no move after it)",
            // X1 then North's 1 (as in `moves_then_play_then_go`): a comma and a space
            // together are one separator.
            "ok 4,4,0,5,5,5,0,0,5,5,5,5,5,0 S",
            "bye",
        ]
    );
}

/// An illegal or malformed move in the move list of a `position` request is refused with
/// the request named first (`position: moves: move 2: …`), as each request labels its own
/// errors (`moves: move 2: …` for the `moves` request, `play: …`).
#[test]
fn a_position_requests_move_list_is_labelled_with_the_request() {
    let replies = session(
        "oware",
        "position start moves 3 9
position 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S moves 3 x
position start moves 3,,1
moves 3 9
",
    );
    assert_eq!(
        replies,
        [
            "error position: moves: move 2: illegal move 9: house 9 does not exist: houses are numbered 1..=6",
            "error position: moves: move 2: malformed move `x`: expected a house number",
            "error position: moves: an empty move after move 1 (a comma with no move after it)",
            "error moves: move 2: illegal move 9: house 9 does not exist: houses are numbered 1..=6",
        ]
    );
}

/// A finished game has no move to search: a one-line error. X12 of the rules: South's 6
/// reaches 26 of 48 seeds and ends the game (`majority=stop`).
#[test]
fn a_finished_game_is_an_error() {
    let replies = session(
        "oware",
        "position 0,0,0,0,0,1,24,1,1,3,5,0,0,13 S moves 6\ngo\n",
    );
    assert_eq!(replies[0], "ok 0,0,0,0,0,0,26,0,1,3,5,0,0,13 -");
    assert!(
        replies[1].starts_with("error go: the game is over"),
        "{replies:?}"
    );
}

/// Any game: Kalah and Bao la Kete answer with their own moves (Oware: the tests above).
#[test]
fn kalah_and_bao() {
    let replies = session("standard", "position start\ngo depth 1\n");
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(replies[0].starts_with("ok "), "{replies:?}");
    assert!(replies[1].starts_with("bestmove "), "{replies:?}");
    let replies = session("bao-la-kete", "go depth 1\n");
    assert!(replies[0].starts_with("bestmove "), "{replies:?}");
}

/// `rules`: the rule set from now on, a new game at its start (Kalah(4,3)'s start: 3 seeds in
/// each of the 4 houses a side, empty stores); a malformed one changes nothing; a rule set of
/// another game (Oware's `awari`: 4 seeds in each of 6 houses) starts a game of that one,
/// whose moves are then Oware's (X1: South's 3 sows into S4..S6 and N1).
#[test]
fn rules_changes_the_rule_set_and_the_game() {
    let replies = session(
        "standard",
        "rules kalah(4,3)\nplay 1\nrules kalah(9,4)\nplay 2\nrules\nrules awari\nplay 3\nrules bao-la-kete\nRULES standard\nquit\n",
    );
    assert_eq!(replies.len(), 10, "{replies:?}");
    assert_eq!(replies[0], "ok 3,3,3,3,0,3,3,3,3,0 S");
    // Kalah(4,3): South's 1 sows S2, S3, S4.
    assert_eq!(replies[1], "ok 0,4,4,4,0,3,3,3,3,0 N");
    assert!(
        replies[2].starts_with("error rules kalah(9,4): "),
        "{}",
        replies[2]
    );
    // Unchanged: North's 2 from the game before, its 3 seeds into N3, N4 and the store: the
    // last in the store, North moves again.
    assert_eq!(replies[3], "ok 0,4,4,4,0,3,0,4,4,1 N");
    assert!(
        replies[4].starts_with("error rules: give a rule set"),
        "{}",
        replies[4]
    );
    assert_eq!(replies[5], "ok 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    assert_eq!(replies[6], "ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N");
    assert!(replies[7].starts_with("ok "), "{}", replies[7]);
    assert_eq!(replies[8], "ok 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    assert_eq!(replies[9], "bye");
}

/// A 50 MB request line (no newline for 50 MB) is answered with one error, read without being
/// kept: the agent's peak resident memory (VmHWM of /proc/PID/status, its engine's 16 MiB
/// table included) stays under 64 MiB, and the session goes on.
#[cfg(target_os = "linux")]
#[test]
fn a_50_mb_request_line_is_refused_in_little_memory() {
    use std::io::{BufRead, BufReader, Write};
    let mut agent = common::mancala_command()
        .args(["agent", "line", "--rules", "oware", "--time-ms", "0"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut input = agent.stdin.take().unwrap();
    let mut output = BufReader::new(agent.stdout.take().unwrap());
    let chunk = vec![b'x'; 1 << 16];
    for _ in 0..(50 << 20) / chunk.len() {
        input.write_all(&chunk).unwrap();
    }
    input.write_all(b"\n").unwrap();
    input.flush().unwrap();
    let mut reply = String::new();
    output.read_line(&mut reply).unwrap();
    assert!(
        reply.starts_with("error the request is longer than 1048576 bytes"),
        "{reply}"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", agent.id())).unwrap();
    let hwm_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    assert!(hwm_kb < 64 << 10, "peak resident memory {hwm_kb} kB");
    input.write_all(b"moves 3\nquit\n").unwrap();
    drop(input);
    let rest: Vec<String> = output.lines().map(Result::unwrap).collect();
    assert_eq!(rest, ["ok 4,4,0,5,5,5,0,5,4,4,4,4,4,0 N", "bye"]);
    assert!(agent.wait().unwrap().success());
}

/// `--eval-egdb FILE` with the Oware databases of N = 4: the Awari database's values are
/// exact under `awari` (the root, 4 seeds in the houses, is played by the database: `exact
/// true`), and those of the database of `grand_slam=none` under its own rule set; under
/// Abapa (`oware`, `oware+repetition=2`) the latter's are the evaluation (`exact false`),
/// while the Awari database (a grand slam forbidden) is refused there, at the start of the
/// session or at a `rules` request, naming the grand-slam rule; a file that is not there is
/// refused at the start of the session.
#[test]
fn an_oware_database_as_the_evaluation() {
    let dir = common::scratch("line-protocol", "eval-egdb");
    let out = dir.to_str().unwrap();
    for rules in ["awari", "oware+majority=off+cycle_score=split"] {
        let (ok, _, err) = common::mancala_text(&[
            "-q",
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            "4",
            "--out",
            out,
        ]);
        assert!(ok, "{err}");
    }
    let awari = dir.join("awari.n4.egdb");
    let awari = awari.to_str().unwrap();
    let abapa = dir.join("awari+grand_slam=none.n4.egdb");
    let abapa = abapa.to_str().unwrap();
    // South 1,0,0,0,0,1 against North 0,1,0,0,1,0: 4 seeds in the houses, 44 captured.
    let position = "position 1,0,0,0,0,1,22,0,1,0,0,1,0,22 S\ngo depth 3\n";
    for (file, rules, exact) in [
        (awari, "awari", "true"),
        (abapa, "oware+majority=off+cycle_score=split", "true"),
        (abapa, "oware", "false"),
        (abapa, "oware+repetition=2", "false"),
    ] {
        let o = mancala_with_input(
            &[
                "agent",
                "line",
                "--rules",
                rules,
                "--time-ms",
                "0",
                "--eval-egdb",
                file,
            ],
            position.as_bytes(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let replies: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        assert_eq!(
            replies[0], "ok 1,0,0,0,0,1,22,0,1,0,0,1,0,22 S",
            "{replies:?}"
        );
        assert!(replies[1].starts_with("bestmove "), "{replies:?}");
        assert!(
            replies[1].ends_with(&format!(" exact {exact}")),
            "{rules}: {replies:?}"
        );
    }
    // The Awari database under Abapa: refused at the start of the session.
    let o = mancala_with_input(
        &["agent", "line", "--rules", "oware", "--eval-egdb", awari],
        position.as_bytes(),
    );
    assert!(!o.status.success());
    let why = stderr(&o);
    assert!(
        why.contains("--eval-egdb") && why.contains("grand_slam=none"),
        "{why}"
    );
    // The database of `grand_slam=none` and a `rules awari` request: refused, the session
    // goes on under its rules.
    let o = mancala_with_input(
        &["agent", "line", "--rules", "oware", "--eval-egdb", abapa],
        b"rules awari\nrules oware+repetition=2\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let replies: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert!(
        replies[0].starts_with("error rules awari: --eval-egdb")
            && replies[0].contains("grand_slam=unless_only"),
        "{replies:?}"
    );
    assert_eq!(
        replies[1], "ok 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S",
        "{replies:?}"
    );
    let missing = dir.join("none.egdb");
    let o = mancala_with_input(
        &[
            "agent",
            "line",
            "--rules",
            "oware",
            "--eval-egdb",
            missing.to_str().unwrap(),
        ],
        b"go depth 1\n",
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--eval-egdb"), "{}", stderr(&o));
    // A session of another game reads the file at the start too: a missing file ends the
    // agent before its first reply.
    let o = mancala_with_input(
        &[
            "agent",
            "line",
            "--rules",
            "standard",
            "--eval-egdb",
            missing.to_str().unwrap(),
        ],
        b"rules oware\ngo depth 1\n",
    );
    assert!(!o.status.success());
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    assert!(stderr(&o).contains("--eval-egdb"), "{}", stderr(&o));
    // From a Kalah session, a `rules` request for an Oware rule set the file does not serve
    // is refused and the Kalah session goes on; one it serves moves the session to Oware.
    let o = mancala_with_input(
        &[
            "agent",
            "line",
            "--rules",
            "kalah(6,4)",
            "--eval-egdb",
            awari,
        ],
        b"rules oware\nrules awari\nposition 1,0,0,0,0,1,22,0,1,0,0,1,0,22 S\ngo depth 3\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let replies: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert!(
        replies[0].starts_with("error rules oware: --eval-egdb")
            && replies[0].contains("grand_slam=none"),
        "{replies:?}"
    );
    assert_eq!(
        replies[1], "ok 4,4,4,4,4,4,0,4,4,4,4,4,4,0 S",
        "{replies:?}"
    );
    assert!(
        replies[3].starts_with("bestmove ") && replies[3].ends_with(" exact true"),
        "{replies:?}"
    );
}

/// A session written as `> request` and `< reply` lines (the form of `docs/line-protocol.md`
/// and of `mancala agent line --help`): the requests, and the replies they are said to get.
fn written_session<'a>(lines: impl Iterator<Item = &'a str>) -> (String, Vec<String>) {
    let (mut requests, mut replies) = (String::new(), Vec::new());
    for line in lines {
        let line = line.trim();
        if let Some(request) = line.strip_prefix("> ") {
            requests.push_str(request);
            requests.push('\n');
        } else if let Some(reply) = line.strip_prefix("< ") {
            replies.push(reply.to_string());
        }
    }
    assert!(!replies.is_empty(), "no session found");
    (requests, replies)
}

/// The arguments of a written `mancala agent line …` command (without `mancala`).
fn written_command(line: &str) -> Vec<String> {
    let start = line
        .find("mancala agent line")
        .unwrap_or_else(|| panic!("no command in {line:?}"));
    let rest = &line[start + "mancala ".len()..];
    let end = rest.find('`').unwrap_or(rest.len());
    rest[..end].split_whitespace().map(str::to_string).collect()
}

/// Runs `args` with the written session's requests and compares every reply with the text.
fn check_written_session(what: &str, args: &[String], requests: &str, replies: &[String]) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = mancala_with_input(&args, requests.as_bytes());
    assert!(o.status.success(), "{what}: {}", stderr(&o));
    let got: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    assert_eq!(
        got,
        replies,
        "{what}: `mancala {}` with\n{requests}",
        args.join(" ")
    );
}

/// The section `title` of `docs/line-protocol.md` (to the next `## ` heading).
fn doc_section(doc: &str, title: &str) -> String {
    doc.split(&format!("\n## {title}\n"))
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .unwrap_or_else(|| panic!("no section {title:?} in docs/line-protocol.md"))
        .to_string()
}

/// The example session of `docs/line-protocol.md` ("Example"), run with the command the
/// section names: every reply is the one written (a node budget alone, so the same every
/// run); and the session of its `rules` section, with the default rule set. The requests,
/// replies and command are read from the file, so the text cannot drift from what the agent
/// answers.
#[test]
fn the_documented_example_session_gives_the_documented_replies() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/line-protocol.md");
    let doc = std::fs::read_to_string(path).expect("docs/line-protocol.md");
    let rules = doc_section(&doc, "The rule set: `rules`");
    let (requests, replies) = written_session(rules.lines());
    assert!(requests.starts_with("rules "), "{requests}");
    let args = ["agent", "line"].map(str::to_string);
    check_written_session("docs/line-protocol.md, `rules`", &args, &requests, &replies);
    let section = doc_section(&doc, "Example");
    let command = section
        .lines()
        .find(|l| l.contains("mancala agent line"))
        .expect("the example's command");
    let (requests, replies) = written_session(section.lines());
    assert!(requests.contains("go "), "{requests}");
    check_written_session(
        "docs/line-protocol.md",
        &written_command(command),
        &requests,
        &replies,
    );
}

/// The session of `mancala agent line --help` (read from the help the command prints), run
/// with the first of its examples: every reply is the one written.
#[test]
fn the_help_example_session_gives_the_written_replies() {
    let (ok, help, err) = common::mancala_text(&["agent", "line", "--help"]);
    assert!(ok, "{err}");
    let examples = help
        .split("\nExamples:\n")
        .nth(1)
        .expect("an Examples part in the help");
    let command = examples
        .lines()
        .find(|l| l.contains("mancala agent line"))
        .expect("an example command");
    let (requests, replies) = written_session(examples.lines());
    assert!(requests.contains("go "), "{requests}");
    check_written_session(
        "mancala agent line --help",
        &written_command(command),
        &requests,
        &replies,
    );
}

/// An agent refused its rule set ends before it reads a request: one megabyte of requests
/// waiting on its input (more than a pipe holds, so the writer is still writing when the
/// agent ends) changes neither its status (1) nor its one-line reason, and the requests are
/// not answered.
#[test]
fn a_refused_rule_set_ends_the_agent_before_its_input() {
    let requests = "moves 3\n".repeat(1 << 17);
    let o = mancala_with_input(
        &["agent", "line", "--rules", "nonsense"],
        requests.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mancala: error: --rules nonsense: malformed rule set `nonsense`"),
        "{err}"
    );
}

/// A file `--eval-egdb` cannot use is named once in the refusal, whatever the error: one
/// whose error names its file (another game's database, a missing file) and one whose error
/// does not (a checksum).
#[test]
fn an_unusable_eval_egdb_file_is_named_once() {
    let dir = common::scratch("line-protocol", "eval-egdb-once");
    let built = common::mancala(&[
        "egdb",
        "build",
        "--rules",
        "kalah(3,1)",
        "--max-seeds",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let built = common::mancala(&[
        "egdb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{}", stderr(&built));
    let kalah = dir.join("kalah3.k4.egdb");
    let mut bytes = std::fs::read(dir.join("awari.n4.egdb")).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let damaged = dir.join("damaged.egdb");
    std::fs::write(&damaged, &bytes).unwrap();
    for (file, why) in [
        (kalah, "a database of Kalah"),
        (dir.join("none.egdb"), "No such file"),
        (damaged, "checksum"),
    ] {
        let name = file.to_str().unwrap();
        let o = mancala_with_input(
            &["agent", "line", "--rules", "oware", "--eval-egdb", name],
            b"go depth 1\n",
        );
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(err.starts_with("mancala: error: --eval-egdb"), "{err}");
        assert_eq!(err.matches(name).count(), 1, "{err}");
        assert!(err.contains(why), "{err}");
    }
}
