//! The test referee of `agent.rs`: a game under the rules and the message order of the
//! course's referee (module docs of `agent.rs`), with the players it seats (the agent process,
//! an in-process random player, a scripted one) and the checks of a game's record.

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::{GameRecord, Player};

type KalahGame = GameRecord<KalahPosition>;
use mancala_core::Side;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::mancala_command;

/// What the referee got when it waited for a reply.
pub enum Reply {
    /// A line, with its `\n`.
    Line(String),
    /// Nothing within the player's remaining clock.
    Timeout,
    /// The player's output ended.
    Eof,
}

/// A player as the referee sees it: lines in, lines out.
pub trait Seat {
    /// Sends one message (without its `\n`; the referee adds it).
    fn send(&mut self, msg: &str);
    /// Waits at most `timeout` for the player's next line.
    fn recv(&mut self, timeout: Duration) -> Reply;
}

/// A `mancala agent manchester` process.
pub struct AgentProcess {
    pub child: Option<Child>,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<Option<String>>,
    pub name: String,
}

impl AgentProcess {
    pub fn spawn(name: &str, args: &[&str]) -> AgentProcess {
        let mut child = mancala_command()
            .args(["agent", "manchester"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the agent");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        // Reads as the course's referee does: byte by byte up to and including `\n`; the
        // end of the output is reported once.
        std::thread::spawn(move || {
            let mut bytes = BufReader::new(stdout).bytes();
            loop {
                let mut line = Vec::new();
                loop {
                    match bytes.next() {
                        Some(Ok(b)) => {
                            line.push(b);
                            if b == b'\n' {
                                break;
                            }
                        }
                        _ => {
                            let _ = tx.send(None);
                            return;
                        }
                    }
                }
                if tx
                    .send(Some(String::from_utf8_lossy(&line).into_owned()))
                    .is_err()
                {
                    return;
                }
            }
        });
        AgentProcess {
            child: Some(child),
            stdin,
            lines: rx,
            name: name.to_string(),
        }
    }

    /// Closes stdin and waits; returns (success, stderr).
    pub fn finish(mut self) -> (bool, String) {
        drop(self.stdin.take());
        let child = self.child.take().expect("running");
        let out = child.wait_with_output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

impl Seat for AgentProcess {
    fn send(&mut self, msg: &str) {
        // A player that has exited cannot read: the referee ignores the failed write, as the
        // course's referee does for its END messages.
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{msg}").and_then(|()| stdin.flush());
        }
    }

    fn recv(&mut self, timeout: Duration) -> Reply {
        match self.lines.recv_timeout(timeout) {
            Ok(Some(line)) => Reply::Line(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Reply::Eof,
            Err(RecvTimeoutError::Timeout) => Reply::Timeout,
        }
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// An in-process player that moves uniformly at random among the non-empty houses of its
/// row, and swaps with probability `swap_chance` when offered. It follows the game from the
/// messages alone, as an agent written to the protocol description does: its side from
/// `START`, flipped by its own `SWAP` and by a `CHANGE;SWAP`; the board from each `<state>`.
pub struct RandomPlayer {
    pub rng: StdRng,
    pub swap_chance: f64,
    pub side: Side,
    pub replies: VecDeque<String>,
    pub received: usize,
}

impl RandomPlayer {
    pub fn new(seed: u64, swap_chance: f64) -> RandomPlayer {
        RandomPlayer {
            rng: StdRng::seed_from_u64(seed),
            swap_chance,
            side: Side::South,
            replies: VecDeque::new(),
            received: 0,
        }
    }

    pub fn house_move(&mut self, state: &[u32]) -> String {
        let row = if self.side == Side::North {
            &state[..7]
        } else {
            &state[8..15]
        };
        let houses: Vec<usize> = (1..=7).filter(|&h| row[h - 1] > 0).collect();
        format!("MOVE;{}", houses[self.rng.gen_range(0..houses.len())])
    }
}

impl Seat for RandomPlayer {
    fn send(&mut self, msg: &str) {
        self.received += 1;
        let f: Vec<&str> = msg.split(';').collect();
        match f[0] {
            "START" => {
                self.side = if f[1] == "North" {
                    Side::North
                } else {
                    Side::South
                };
                if self.side == Side::South {
                    // South's first move, from the start (seven seeds a house).
                    let mv = self.house_move(&[7; 16]);
                    self.replies.push_back(mv);
                }
            }
            "CHANGE" => {
                if f[1] == "SWAP" {
                    self.side = self.side.opponent();
                }
                let state: Vec<u32> = f[2].split(',').map(|x| x.parse().unwrap()).collect();
                if f[3] == "YOU" {
                    // Offered the swap: North reading its second message, South's first move.
                    let offered = self.side == Side::North && self.received == 2;
                    if offered && self.rng.gen::<f64>() < self.swap_chance {
                        self.side = self.side.opponent();
                        self.replies.push_back("SWAP".into());
                    } else {
                        let mv = self.house_move(&state);
                        self.replies.push_back(mv);
                    }
                }
            }
            _ => {}
        }
    }

    fn recv(&mut self, _timeout: Duration) -> Reply {
        match self.replies.pop_front() {
            Some(r) => Reply::Line(format!("{r}\n")),
            None => Reply::Timeout,
        }
    }
}

/// An in-process player that answers with fixed lines, in order, whatever it is sent.
/// `None` in the script: it stays silent (a timeout); after the script: its output ends.
pub struct Scripted {
    pub script: VecDeque<Option<&'static str>>,
}

impl Scripted {
    pub fn new(script: &[Option<&'static str>]) -> Scripted {
        Scripted {
            script: script.iter().copied().collect(),
        }
    }
}

impl Seat for Scripted {
    fn send(&mut self, _msg: &str) {}

    fn recv(&mut self, _timeout: Duration) -> Reply {
        match self.script.pop_front() {
            Some(Some(line)) => Reply::Line(line.to_string()),
            Some(None) => Reply::Timeout,
            None => Reply::Eof,
        }
    }
}

/// The referee's board in protocol terms, with plain arrays: `rows[0]` South, `rows[1]`
/// North, each houses 1..7 then the store.
pub struct Board {
    pub rows: [[u32; 8]; 2],
}

pub const SOUTH: usize = 0;
pub const NORTH: usize = 1;

impl Board {
    pub fn new() -> Board {
        let row = [7, 7, 7, 7, 7, 7, 7, 0];
        Board { rows: [row, row] }
    }

    /// The `<state>` field: North's houses and store, then South's.
    pub fn state(&self) -> String {
        let n = self.rows[NORTH].iter();
        let s = self.rows[SOUTH].iter();
        n.chain(s).map(u32::to_string).collect::<Vec<_>>().join(",")
    }

    pub fn row_empty(&self, side: usize) -> bool {
        self.rows[side][..7].iter().all(|&x| x == 0)
    }

    /// Sows house `h` (1..7, non-empty) of `side` (`docs/rules/kalah.md`: counter-clockwise, past the
    /// own store, skipping the opponent's; a capture of the opposite house when the last seed
    /// lands in an empty own house opposite a non-empty one; the game over when a row is
    /// empty, the other row's seeds then going to its owner's store). Returns whether the
    /// last seed landed in the mover's store.
    pub fn sow(&mut self, side: usize, h: usize) -> bool {
        let mut seeds = std::mem::take(&mut self.rows[side][h - 1]);
        // Cycle of 15 slots: own houses 0..6, own store 7, opponent houses 8..14.
        let mut i = h - 1;
        while seeds > 0 {
            i = (i + 1) % 15;
            if i < 8 {
                self.rows[side][i] += 1;
            } else {
                self.rows[1 - side][i - 8] += 1;
            }
            seeds -= 1;
        }
        if i < 7 && self.rows[side][i] == 1 && self.rows[1 - side][6 - i] > 0 {
            let taken = self.rows[1 - side][6 - i] + 1;
            self.rows[1 - side][6 - i] = 0;
            self.rows[side][i] = 0;
            self.rows[side][7] += taken;
        }
        if self.row_empty(SOUTH) || self.row_empty(NORTH) {
            for r in &mut self.rows {
                let left: u32 = r[..7].iter().sum();
                r[7] += left;
                r[..7].fill(0);
            }
        }
        i == 7
    }

    pub fn over(&self) -> bool {
        self.row_empty(SOUTH) && self.row_empty(NORTH)
    }
}

/// Why the referee ended a game early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abort {
    /// Not a move message, a swap at the wrong moment, a house below 1.
    Invalid,
    /// An empty house or a house above 7.
    Illegal,
    Timeout,
    /// The player's output ended.
    Disconnected,
}

/// Who sent or received a logged line: the referee's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Log {
    /// Referee to player (0 = the first player, 1 = the second).
    To(usize, String),
    /// Player to referee, the line without its `\n`.
    From(usize, String),
}

pub struct Record {
    pub moves: Vec<KalahMove>,
    pub states: Vec<String>,
    pub swapped: bool,
    /// `None` for a game that ended regularly.
    pub abort: Option<(usize, Abort)>,
    /// Final store difference of the first player (South at the start), when regular.
    pub first_player_score: i32,
    pub log: Vec<Log>,
    /// Each player's summed response time as the referee measured it.
    pub used: [Duration; 2],
    /// Each player's longest single reply.
    pub longest: [Duration; 2],
}

impl Record {
    /// The lines sent to player `p`, in order.
    pub fn to(&self, p: usize) -> Vec<&str> {
        self.log
            .iter()
            .filter_map(|l| match l {
                Log::To(q, m) if *q == p => Some(m.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// Plays one game under the course referee's rules; `players[0]` starts as South. Each
/// player's clock is `clock`.
pub fn referee(players: [&mut dyn Seat; 2], clock: Duration) -> Record {
    let [p0, p1] = players;
    let mut players: [&mut dyn Seat; 2] = [p0, p1];
    let mut board = Board::new();
    // seat[side] = the player on that side.
    let mut seat = [0usize, 1];
    let mut log = Vec::new();
    fn send(players: &mut [&mut dyn Seat; 2], log: &mut Vec<Log>, p: usize, msg: String) {
        players[p].send(&msg);
        log.push(Log::To(p, msg));
    }
    let mut moves = Vec::new();
    let mut states = Vec::new();
    let mut swapped = false;
    let mut used = [Duration::ZERO; 2];
    let mut longest = [Duration::ZERO; 2];
    let mut abort = None;
    send(&mut players, &mut log, seat[NORTH], "START;North".into());
    send(&mut players, &mut log, seat[SOUTH], "START;South".into());
    let (mut active, mut waiting) = (seat[SOUTH], seat[NORTH]);
    let mut timer = Instant::now();
    let mut move_count = 1;
    let mut over = false;
    while !over {
        let left = clock.saturating_sub(used[active]);
        let reply = players[active].recv(left);
        let took = timer.elapsed();
        used[active] += took;
        longest[active] = longest[active].max(took);
        let line = match reply {
            Reply::Line(l) if used[active] <= clock => l,
            Reply::Line(_) | Reply::Timeout => {
                abort = Some((active, Abort::Timeout));
                break;
            }
            Reply::Eof => {
                abort = Some((active, Abort::Disconnected));
                break;
            }
        };
        log_reply(&mut log, active, &line);
        if line == "SWAP\n" && move_count == 2 {
            seat.swap(0, 1);
            std::mem::swap(&mut active, &mut waiting);
            swapped = true;
            moves.push(KalahMove::Swap);
            states.push(board.state());
            let state = board.state();
            send(
                &mut players,
                &mut log,
                active,
                format!("CHANGE;SWAP;{state};YOU"),
            );
        } else {
            let Some(text) = line
                .strip_prefix("MOVE;")
                .and_then(|t| t.strip_suffix('\n'))
            else {
                abort = Some((active, Abort::Invalid));
                break;
            };
            let Ok(hole) = text.parse::<i32>() else {
                abort = Some((active, Abort::Invalid));
                break;
            };
            if hole < 1 {
                abort = Some((active, Abort::Invalid));
                break;
            }
            let side = if seat[SOUTH] == active { SOUTH } else { NORTH };
            if hole > 7 || board.rows[side][hole as usize - 1] == 0 {
                abort = Some((active, Abort::Illegal));
                break;
            }
            let extra = board.sow(side, hole as usize);
            // South's first move never earns an extra turn.
            let again = extra && move_count != 1;
            over = board.over();
            if !again {
                std::mem::swap(&mut active, &mut waiting);
            }
            moves.push(KalahMove::House(hole as u8));
            let state = board.state();
            states.push(state.clone());
            let (w, a) = if over { ("END", "END") } else { ("OPP", "YOU") };
            send(
                &mut players,
                &mut log,
                waiting,
                format!("CHANGE;{hole};{state};{w}"),
            );
            send(
                &mut players,
                &mut log,
                active,
                format!("CHANGE;{hole};{state};{a}"),
            );
        }
        timer = Instant::now();
        move_count += 1;
    }
    match abort {
        Some((p, Abort::Disconnected)) => send(&mut players, &mut log, 1 - p, "END".into()),
        _ => {
            send(&mut players, &mut log, seat[NORTH], "END".into());
            send(&mut players, &mut log, seat[SOUTH], "END".into());
        }
    }
    let first_side = if seat[SOUTH] == 0 { SOUTH } else { NORTH };
    let rows = &board.rows;
    Record {
        moves,
        states,
        swapped,
        abort,
        first_player_score: rows[first_side][7] as i32 - rows[1 - first_side][7] as i32,
        log,
        used,
        longest,
    }
}

pub fn log_reply(log: &mut Vec<Log>, p: usize, line: &str) {
    log.push(Log::From(p, line.trim_end_matches('\n').to_string()));
}

/// Replays a regular game's record with the core and checks every state and the score.
pub fn check_against_replay(r: &Record) {
    assert_eq!(r.abort, None, "the game was aborted");
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
    for (i, mv) in r.moves.iter().enumerate() {
        if *mv == KalahMove::Swap {
            assert_eq!(i, 1, "a swap only as the second move");
        }
    }
}

/// Checks the shape of a regular game's messages for player `p`: `START`, then `CHANGE`s,
/// the last with `END`, then `END`; a `CHANGE;SWAP` only for the player who did not swap.
pub fn check_messages(r: &Record, p: usize) {
    let to = r.to(p);
    assert!(to[0].starts_with("START;"));
    assert_eq!(to[to.len() - 1], "END");
    assert!(to[to.len() - 2].ends_with(";END"), "{:?}", to[to.len() - 2]);
    let swapped_here = r.log.contains(&Log::From(p, "SWAP".into()));
    let told = to.iter().filter(|m| m.starts_with("CHANGE;SWAP;")).count();
    if r.swapped && !swapped_here {
        assert_eq!(told, 1);
        // START;South, its first move reported (OPP), then the swap (YOU).
        assert!(to[2].starts_with("CHANGE;SWAP;") && to[2].ends_with(";YOU"));
    } else {
        assert_eq!(told, 0, "the swapper is never told of its own swap");
    }
}
