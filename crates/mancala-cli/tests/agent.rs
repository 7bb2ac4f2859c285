//! Full Manchester games between two `mancala agent manchester` processes, run by a small
//! referee written here: it keeps its own board record, asks the player to move, checks the
//! answer strictly (`MOVE;<n>` or `SWAP`, the swap only as the second message of the game),
//! sends `CHANGE;<move>;<state>;<YOU|OPP|END>` to both players and `END` at the end. The
//! referee's record is checked against an independent replay with `KalahGame` (which tracks
//! the players across the swap).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahGame, KalahMove, KalahPosition, KalahRules, Player};
use mancala_core::Side;

struct Agent {
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    name: &'static str,
    /// Wall-clock time between the last message sent and each reply, summed.
    thinking: Duration,
    sent: Instant,
}

impl Agent {
    fn spawn(name: &'static str, extra: &[&str]) -> Agent {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args([
                "agent",
                "manchester",
                "--game-ms",
                "2000",
                "--level",
                "10",
                "--tt-mb",
                "8",
            ])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the agent");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Agent {
            child: Some(child),
            stdin,
            lines: rx,
            name,
            thinking: Duration::ZERO,
            sent: Instant::now(),
        }
    }

    fn send(&mut self, msg: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{msg}").unwrap_or_else(|e| panic!("{}: write {msg}: {e}", self.name));
        stdin.flush().unwrap();
        self.sent = Instant::now();
    }

    fn receive(&mut self) -> String {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("{}: no answer: {e}", self.name));
        self.thinking += self.sent.elapsed();
        line
    }

    /// Closes stdin and waits; returns (success, stderr).
    fn finish(mut self) -> (bool, String) {
        drop(self.stdin.take());
        let child = self.child.take().expect("running");
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
        }
    }
}

/// The referee's board, kept with plain arrays in protocol order (North's houses 1..7,
/// North's store, South's houses 1..7, South's store): its own sowing, so that the replay
/// check below is a check of two independent bookkeepings.
struct Board {
    /// [side][0..7 houses, 7 store], side 0 = South.
    rows: [[u32; 8]; 2],
    to_move: usize,
    first_move: bool,
    over: bool,
}

impl Board {
    fn new() -> Board {
        let row = [7, 7, 7, 7, 7, 7, 7, 0];
        Board {
            rows: [row, row],
            to_move: 0,
            first_move: true,
            over: false,
        }
    }

    fn state(&self) -> String {
        let n = self.rows[1].iter();
        let s = self.rows[0].iter();
        n.chain(s).map(u32::to_string).collect::<Vec<_>>().join(",")
    }

    /// Sows house `h` (1..7) of the side to move (docs/rules/kalah.md rules, Manchester options).
    fn sow(&mut self, h: usize) {
        let me = self.to_move;
        let mut seeds = std::mem::take(&mut self.rows[me][h - 1]);
        assert!(seeds > 0);
        // Cycle of 15 slots: own houses 0..6, own store 7, opponent houses 8..14.
        let mut i = h - 1;
        while seeds > 0 {
            i = (i + 1) % 15;
            if i < 8 {
                self.rows[me][i] += 1;
            } else {
                self.rows[1 - me][i - 8] += 1;
            }
            seeds -= 1;
        }
        let mut again = false;
        if i == 7 {
            again = !self.first_move;
        } else if i < 7 && self.rows[me][i] == 1 && self.rows[1 - me][6 - i] > 0 {
            let taken = self.rows[1 - me][6 - i] + 1;
            self.rows[1 - me][6 - i] = 0;
            self.rows[me][i] = 0;
            self.rows[me][7] += taken;
        }
        self.first_move = false;
        if !again {
            self.to_move = 1 - me;
        }
        let empty = |r: &[u32; 8]| r[..7].iter().all(|&x| x == 0);
        if empty(&self.rows[0]) || empty(&self.rows[1]) {
            for r in &mut self.rows {
                let left: u32 = r[..7].iter().sum();
                r[7] += left;
                r[..7].fill(0);
            }
            self.over = true;
        }
    }
}

struct Record {
    moves: Vec<KalahMove>,
    states: Vec<String>,
    swapped: bool,
    /// Final store difference of the player who started as South.
    first_player_score: i32,
}

/// Plays one game; `first` starts as South.
fn referee(first: &mut Agent, second: &mut Agent) -> Record {
    let mut board = Board::new();
    // Which agent (0 = first, 1 = second) plays each side: side_of_agent[a] = side index.
    let mut side_of_agent = [0usize, 1];
    let mut moves = Vec::new();
    let mut states = Vec::new();
    let mut swapped = false;
    first.send("START;South");
    second.send("START;North");
    let mut messages = 0;
    while !board.over {
        let a = if side_of_agent[0] == board.to_move {
            0
        } else {
            1
        };
        let agent = if a == 0 { &mut *first } else { &mut *second };
        let reply = agent.receive();
        messages += 1;
        let (mv, text) = if reply == "SWAP" {
            assert_eq!(messages, 2, "a swap only as the second message of the game");
            assert_eq!(a, 1, "only the second player may swap");
            side_of_agent.swap(0, 1);
            swapped = true;
            (KalahMove::Swap, "SWAP".to_string())
        } else {
            let n: usize = reply
                .strip_prefix("MOVE;")
                .and_then(|n| n.parse().ok())
                .filter(|n| (1..=7).contains(n))
                .unwrap_or_else(|| panic!("{}: bad reply {reply:?}", agent.name));
            assert!(
                board.rows[board.to_move][n - 1] > 0,
                "{}: house {n} is empty",
                agent.name
            );
            board.sow(n);
            (KalahMove::House(n as u8), n.to_string())
        };
        moves.push(mv);
        let state = board.state();
        states.push(state.clone());
        for (i, ag) in [&mut *first, &mut *second].into_iter().enumerate() {
            let turn = if board.over {
                "END"
            } else if side_of_agent[i] == board.to_move {
                "YOU"
            } else {
                "OPP"
            };
            ag.send(&format!("CHANGE;{text};{state};{turn}"));
        }
    }
    first.send("END");
    second.send("END");
    let first_side = side_of_agent[0];
    let rows = &board.rows;
    let first_player_score = rows[first_side][7] as i32 - rows[1 - first_side][7] as i32;
    Record {
        moves,
        states,
        swapped,
        first_player_score,
    }
}

/// Replays the record with the core and checks every state and the final score.
fn check_against_replay(r: &Record) {
    let start = KalahPosition::start(KalahRules::manchester());
    let game = KalahGame::replay(start, &r.moves).expect("every move legal");
    assert!(game.position().is_over());
    assert_eq!(game.swapped(), r.swapped);
    for (p, state) in game.positions()[1..].iter().zip(&r.states) {
        let slots = p.slots();
        let proto: Vec<String> = slots[8..16]
            .iter()
            .chain(&slots[..8])
            .map(u8::to_string)
            .collect();
        assert_eq!(&proto.join(","), state);
    }
    let o = game.position().outcome().unwrap();
    let first_on = game.side_of(Player::First);
    let score = if first_on == Side::South {
        o.score
    } else {
        -o.score
    };
    assert_eq!(score, r.first_player_score);
    // The swap, if any, is the second move of the game.
    for (i, mv) in r.moves.iter().enumerate() {
        if *mv == KalahMove::Swap {
            assert_eq!(i, 1);
        }
    }
}

fn play(first_args: &[&str], second_args: &[&str]) -> Record {
    let mut first = Agent::spawn("first", first_args);
    let mut second = Agent::spawn("second", second_args);
    let record = referee(&mut first, &mut second);
    for agent in [&first, &second] {
        // Each agent had 2000 ms for the game (--game-ms); allow for process start-up and
        // pipe latency on a loaded machine (six agent processes share the cores when the
        // tests run in parallel).
        assert!(
            agent.thinking < Duration::from_millis(6000),
            "{}: {:?}",
            agent.name,
            agent.thinking
        );
    }
    for agent in [first, second] {
        let name = agent.name;
        let (ok, err) = agent.finish();
        assert!(ok, "{name} failed: {err}");
        assert!(!err.contains("warning"), "{name}: {err}");
    }
    check_against_replay(&record);
    record
}

#[test]
fn full_game_with_the_second_player_deciding_on_the_swap() {
    let r = play(&["--seed", "1"], &["--seed", "2"]);
    // The second player's first message was its swap decision: SWAP or a house move.
    assert!(r.moves.len() > 2);
    println!(
        "swap decision: {}; {} moves; first player {:+}",
        r.moves[1],
        r.moves.len(),
        r.first_player_score
    );
}

#[test]
fn full_game_after_a_swap() {
    let r = play(&["--seed", "3"], &["--seed", "4", "--swap", "always"]);
    assert_eq!(r.moves[1], KalahMove::Swap);
    assert!(r.swapped);
}

#[test]
fn full_game_without_a_swap() {
    let r = play(&["--seed", "5"], &["--seed", "6", "--swap", "never"]);
    assert_ne!(r.moves[1], KalahMove::Swap);
    assert!(!r.swapped);
}

fn agent_with_input(input: &str) -> (bool, String, String) {
    agent_with_args_and_input(&["--game-ms", "300"], input)
}

fn agent_with_args_and_input(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["agent", "manchester"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn malformed_input_exits_non_zero_with_a_message() {
    for (input, needle) in [
        ("START;East\n", "malformed message `START;East`"),
        ("HELLO\n", "expected START, CHANGE or END"),
        (
            "START;North\nCHANGE;9;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n",
            "a house 1..7 or SWAP",
        ),
        (
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8;YOU\n",
            "16 counts",
        ),
        // Well-formed but wrong: the state after South's 1 is not this one.
        (
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,8,0,8,8,8,8,8,1;YOU\n",
            "does not match",
        ),
        ("START;North\n", "input ended before the game was over"),
    ] {
        let (ok, _, err) = agent_with_input(input);
        assert!(!ok, "{input:?} should fail");
        assert!(err.contains(needle), "{input:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A good opening: North answers South's first move.
    let (ok, out, err) =
        agent_with_input("START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\nEND\n");
    assert!(ok, "{err}");
    assert!(out == "SWAP\n" || out.starts_with("MOVE;"), "{out}");
}

#[test]
fn the_engine_must_report_the_agents_own_move() {
    // South: the agent moves first (level 5 is a depth-limited search without random weaker
    // moves, and the budget is far more than it needs, so its move is the same every run);
    // the engine then reports house 1 instead of the agent's move.
    let (ok, out, err) = agent_with_args_and_input(
        &["--game-ms", "600000", "--level", "5"],
        "START;South\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n",
    );
    let sent: u8 = out
        .trim_end()
        .strip_prefix("MOVE;")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out:?}"));
    assert_ne!(
        sent, 1,
        "the agent played 1 itself: the test needs another move"
    );
    assert!(!ok, "{err}");
    assert!(
        err.contains(&format!("this agent played {sent}, the engine reported 1")),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // North swaps, the engine reports house 7.
    let (ok, out, err) = agent_with_args_and_input(
        &["--game-ms", "300", "--swap", "always"],
        "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n\
         CHANGE;7;7,7,7,7,7,7,0,1,1,9,9,9,9,9,8,1;OPP\n",
    );
    assert_eq!(out, "SWAP\n");
    assert!(!ok, "{err}");
    assert!(
        err.contains("this agent played SWAP, the engine reported 7"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn leading_zeros_and_turn_words() {
    for (input, needle) in [
        (
            "START;North\nCHANGE;01;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n",
            "the move must be a house 1..7 or SWAP",
        ),
        (
            "START;North\nCHANGE;1;07,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n",
            "a state count must be a number 0..255",
        ),
        // The turn is named as the protocol names it, not `You`/`Opp`.
        (
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n",
            "the turn should be YOU, not OPP",
        ),
    ] {
        let (ok, _, err) = agent_with_input(input);
        assert!(!ok, "{input:?} should fail");
        assert!(err.contains(needle), "{input:?}: {err}");
        assert!(!err.contains("You") && !err.contains("Opp"), "{err}");
    }
}
