//! `mancala agent manchester`: a game-playing agent for the University of Manchester
//! COMP34120 Kalah(7,7) game engine (the referee `ManKalah.jar`), speaking its engine–agent
//! protocol on standard input and output (`docs/rules/kalah.md`, named rule set
//! `manchester`).
//!
//! # The protocol
//!
//! The messages, their order as the referee sends them and the checks of an agent's side of
//! a game are in the crate [`mancala_manchester`] (its documentation writes the protocol
//! down, with its sources); this module adds the move choice and the clock.
//!
//! # What this agent does
//!
//! It replays every move on the core's `manchester` rule set (Kalah(7,7), no extra turn on
//! South's first move, the pie-rule swap as North's first action, the board not mirrored by
//! the swap, the game over as soon as either row is empty) and checks each message against
//! that replay (`mancala_manchester`'s [`Session`]). When it sends `SWAP` it applies the swap itself at once (its side flips, the
//! board stays) and takes the next `CHANGE` as the opponent's move.
//!
//! Strictness: a message that does not have exactly the shape above (no extra spaces,
//! upper-case keywords, numbers in plain decimal without leading zeros — `0`, `7`, `12`,
//! never `07` — of at most three digits; a line may end in `\n` or `\r\n`) or that the
//! referee would never send at that moment — a `CHANGE` after this agent's `MOVE;<n>` that
//! does not report exactly that house, a `CHANGE;SWAP` after this agent swapped itself, a
//! move that is not legal, a state or turn that does not match the replay, a second
//! `START`, anything but `END` after `…;END` — or input that ends before the game does, is
//! reported on standard error (in the protocol's words: `YOU`, `OPP`, `END`) and the agent
//! exits with a non-zero status. A state mismatch in the final `CHANGE…;END` is only a
//! warning. An `END` at any moment (the referee aborted the game) ends the agent with
//! status 0.
//!
//! # Time
//!
//! The agent has `--game-ms` milliseconds for the whole game (default one hour, as in the
//! course's engine; the variable `MANCALA_AGENT_GAME_MS` sets it when the flag is absent,
//! read as the flag and refused with the flag's reasons, an empty one counting as unset; a
//! refused flag exits with status 2, a malformed command line, a refused variable with
//! status 1, a refused input, as a cache folder from `MANCALA_CACHE_DIR` that cannot be used
//! does) and keeps its own account of the referee's clock ([`GameClock`]). Each reply is charged from
//! the moment its `YOU` line (or `START;South`) was read to the moment the reply was written,
//! and then with the time the pipes took, which the referee counts too: measured as the round
//! trip from the writing of a `MOVE` to the reading of the referee's report of it (for a
//! `SWAP`, which is not reported back, the current estimate). A move's search gets the time
//! left after a reserve of [`RESERVE`] of the clock, divided by an estimate of the agent's
//! moves still to come (a quarter of the seeds left in the houses, between 6 and 40), less the
//! largest time of a reply outside its search measured so far and the estimated round trip
//! (a running mean of the measured ones). A watchdog stops the search at a hard limit of
//! twice that budget, never more than a quarter of the time left outside the reserve,
//! whatever the search is doing.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_manchester::{parse_message, Message, ProtocolError, Session, Step};
use mancala_solver::engine::{Engine, Level, LevelPlayer, Limits};

/// The protocol and the referee command, shown by `mancala agent --help` and
/// `mancala agent manchester --help` (the module documentation has the full protocol).
const AGENT_HELP: &str = "\
The Manchester protocol (COMP34120 Kalah(7,7) game engine), one line a message:
  referee -> agent:  START;North|South
                     CHANGE;<house 1..7 | SWAP>;<N1..N7,N-store,S1..S7,S-store>;YOU|OPP|END
                     END
  agent -> referee:  MOVE;<house 1..7>   or   SWAP
South moves first. After each house move both players get the CHANGE (YOU: you move next). The
swap is North's first action only; the referee tells the other player (CHANGE;SWAP;...;YOU)
and not the swapper, whose next line is the opponent's move from North. The game ends with
CHANGE;...;END then END; an illegal move, a malformed reply or a timeout ends it with END only.

Examples:
  mancala agent manchester --game-ms 3600000
  mancala agent manchester --swap auto

Under the course's referee (the first agent plays South):
  java -jar ManKalah.jar \"mancala agent manchester --game-ms 3600000\" \"java -jar MKRefAgent.jar\"
  java -jar ManKalah.jar \"java -jar MKRefAgent.jar\" \"mancala agent manchester --swap auto\"
Give --game-ms the referee's clock for a game (its engine: one hour). The agent exits 0 after
END, non-zero with a one-line reason on standard error for input the referee would never send.";

/// Arguments of `mancala agent`.
#[derive(Debug, Args)]
#[command(after_help = AGENT_HELP)]
pub struct AgentArgs {
    #[command(subcommand)]
    protocol: Protocol,
}

#[derive(Debug, Subcommand)]
enum Protocol {
    /// The University of Manchester Kalah(7,7) engine–agent protocol on stdin/stdout.
    #[command(after_help = AGENT_HELP)]
    Manchester(ManchesterArgs),
    /// A plain line protocol for bot programs, any game and rule set: a position or the
    /// moves played in, the engine's best move out, one reply a line
    /// (`docs/line-protocol.md`).
    #[command(after_help = crate::line::LINE_HELP)]
    Line(crate::line::LineArgs),
}

/// When the agent swaps, if offered the choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SwapPolicy {
    /// As the search decides (the swap is one more legal move).
    Auto,
    /// Always swap (for testing).
    Always,
    /// Never swap.
    Never,
}

/// Arguments of `mancala agent manchester`.
#[derive(Debug, Args)]
pub struct ManchesterArgs {
    /// Time for the whole game in milliseconds, as the referee counts it, at most 86400000
    /// (one day; default 3600000, one hour; or the variable MANCALA_AGENT_GAME_MS, read as this
    /// flag, an empty one as unset). The agent plans with 80 % of it; 0 answers every move at
    /// once, from the search's first iteration. A bad value exits with status 2 from the flag
    /// (a malformed command line), 1 from the variable (a refused input, as a bad
    /// MANCALA_CACHE_DIR).
    #[arg(long, value_parser = crate::ranges::time_ms())]
    game_ms: Option<u64>,
    /// Strength level 1..=10.
    #[arg(long, default_value_t = 10, value_parser = crate::ranges::level())]
    level: u32,
    /// Swap decision when offered.
    #[arg(long, value_enum, ignore_case = true, default_value_t = SwapPolicy::Auto)]
    swap: SwapPolicy,
    /// Seed of the weaker-move choices of levels 1..=4.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Transposition-table size in MiB (1..=4096).
    #[arg(long, default_value_t = 64, value_parser = crate::ranges::engine_tt_mb())]
    tt_mb: usize,
}

/// The share of the game clock the agent never plans to use (0.2: a fifth), kept for what
/// its own account cannot see: the referee's side of the pipes and a loaded machine.
pub const RESERVE: f64 = 0.2;

/// The estimate of a reply's round trip through the pipes before any has been measured
/// (a line written to a pipe reaches a waiting reader within microseconds on an idle
/// machine; 2 ms allows for a scheduler delay).
pub const LATENCY: Duration = Duration::from_millis(2);

/// The agent's account of the referee's clock for one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The whole game's time.
    game: Duration,
    /// Time charged so far: every reply from the reading of its cue to its writing, and its
    /// round trip.
    used: Duration,
    /// The largest time of a reply outside its search measured so far (parsing, replay,
    /// the watchdog's thread, writing).
    overhead: Duration,
    /// The estimated round trip of a reply: [`LATENCY`] at first, then a running mean (each
    /// new measure weighs a quarter) of the measured ones.
    latency: Duration,
}

/// The budget of one move: the search's own time limit and the watchdog's hard limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBudget {
    /// The search's time limit (it starts no new iteration after half of it).
    pub soft: Duration,
    /// The watchdog's limit: the search is cancelled when it runs this long.
    pub hard: Duration,
}

impl GameClock {
    /// A clock of `game` for the whole game, nothing used.
    #[must_use]
    pub fn new(game: Duration) -> GameClock {
        GameClock {
            game,
            used: Duration::ZERO,
            overhead: Duration::ZERO,
            latency: LATENCY,
        }
    }

    /// Time the agent may still plan with: the clock less [`RESERVE`] of it, less what is
    /// used, less `spent` (time already spent on the current reply).
    fn plannable(&self, spent: Duration) -> Duration {
        self.game
            .mul_f64(1.0 - RESERVE)
            .saturating_sub(self.used)
            .saturating_sub(spent)
    }

    /// The budget of a move when `moves_left` replies (at least 1) are still expected and
    /// `spent` has already gone on this one: the plannable time divided among the moves,
    /// less the largest measured overhead and the estimated round trip; the hard limit twice
    /// that, at most a quarter of the plannable time (and never below the soft limit).
    #[must_use]
    pub fn budget(&self, moves_left: u32, spent: Duration) -> MoveBudget {
        let plan = self.plannable(spent);
        let soft = (plan / moves_left.max(1))
            .saturating_sub(self.overhead)
            .saturating_sub(self.latency);
        let hard = (soft * 2).min(plan / 4).max(soft);
        MoveBudget { soft, hard }
    }

    /// Charges one reply: `reply` from the reading of its cue to its writing, of which
    /// `search` went on the search; updates the overhead.
    pub fn charge(&mut self, reply: Duration, search: Duration) {
        self.used += reply;
        self.overhead = self.overhead.max(reply.saturating_sub(search));
    }

    /// Charges a measured round trip `rtt` (a `MOVE` written to its report read) and
    /// updates the estimate: three quarters the old one, a quarter `rtt`.
    pub fn charge_round_trip(&mut self, rtt: Duration) {
        self.used += rtt;
        self.latency = (self.latency * 3 + rtt) / 4;
    }

    /// Charges the estimated round trip of a reply that is not reported back (a `SWAP`).
    pub fn charge_unmeasured_round_trip(&mut self) {
        self.used += self.latency;
    }
}

/// The table the agent searches with while its full table is being set up (1 MiB).
const SMALL_TABLE_BYTES: usize = 1 << 20;

/// The agent's view of a game: the protocol session (the replayed position, its side), its
/// player and its clock.
pub struct Agent {
    session: Session,
    player: LevelPlayer<KalahPosition>,
    swap: SwapPolicy,
    clock: GameClock,
    /// Search time of the last reply, for [`GameClock::charge`].
    last_search: Duration,
    /// When the last `MOVE` was written, until its report is read.
    written: Option<Instant>,
    /// The engine with the full table, being set up on a thread of its own until it is
    /// handed over (then `None`).
    full_table: Option<mpsc::Receiver<Engine<KalahPosition>>>,
}

impl Agent {
    /// A new agent before `START`, with `game_time` for the whole game and a transposition
    /// table of `tt_bytes` bytes. The full table is allocated and its pages touched (a
    /// one-ply search of the start) on a thread of its own, while the agent already reads
    /// its input: the course's referee starts the game clock 500 ms after it starts the
    /// agent, and on a loaded machine the setup of a 64 MiB table took longer than that.
    /// Until the table is ready the agent searches with a 1 MiB one.
    #[must_use]
    pub fn new(
        level: Level,
        seed: u64,
        swap: SwapPolicy,
        game_time: Duration,
        tt_bytes: usize,
    ) -> Agent {
        let session = Session::new();
        let start = *session.position();
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("mancala-agent-table".into())
            .spawn(move || {
                let mut engine = Engine::with_tt_bytes(tt_bytes);
                // A failed allocation shows again, as an error, at the first real search.
                let _ = engine.search(&start, &Limits::depth(1));
                // The agent may have ended first: nothing to hand over then.
                let _ = tx.send(engine);
            });
        let (engine, full_table) = match spawned {
            Ok(_) => (
                Engine::with_tt_bytes(SMALL_TABLE_BYTES.min(tt_bytes)),
                Some(rx),
            ),
            // No thread: the full table now, as before.
            Err(_) => {
                let mut engine = Engine::with_tt_bytes(tt_bytes);
                let _ = engine.search(&start, &Limits::depth(1));
                (engine, None)
            }
        };
        Agent {
            session,
            player: LevelPlayer::with_engine(engine, level, seed),
            swap,
            clock: GameClock::new(game_time),
            last_search: Duration::ZERO,
            written: None,
            full_table,
        }
    }

    /// Takes the engine with the full table over once its setup has finished (never waits).
    fn take_full_table(&mut self) {
        let Some(rx) = &self.full_table else { return };
        match rx.try_recv() {
            Ok(engine) => {
                *self.player.engine_mut() = engine;
                self.full_table = None;
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => self.full_table = None,
        }
    }

    /// Handles one message, read at `received`; returns the reply to send, if any, and
    /// whether the game is over. A reply's search is budgeted from `received`; the caller
    /// charges the reply with [`Agent::replied`] once it is written.
    ///
    /// # Errors
    /// [`ProtocolError::Unexpected`] for a message the referee would not send at this moment
    /// (the documentation of `mancala_manchester`); [`ProtocolError::Io`] if the engine
    /// finds no move.
    pub fn handle_at(
        &mut self,
        line: &str,
        msg: Message,
        received: Instant,
    ) -> Result<(Option<String>, bool), ProtocolError> {
        if matches!(msg, Message::Change { .. }) && !self.session.is_over() {
            if let Some(w) = self.written.take() {
                self.clock
                    .charge_round_trip(received.saturating_duration_since(w));
            }
        }
        let r = self.session.handle(line, msg)?;
        if let Some(why) = r.warning {
            eprintln!("mancala agent: warning: {why}");
        }
        match r.step {
            Step::Reply => Ok((Some(self.reply(received)?), false)),
            Step::Wait => Ok((None, false)),
            Step::GameOver | Step::End => Ok((None, true)),
        }
    }

    /// Charges the reply to the message read at `received`, now written, to the clock; a
    /// `SWAP` also with the estimated round trip (it is never reported back).
    pub fn replied(&mut self, received: Instant) {
        self.clock.charge(received.elapsed(), self.last_search);
        if self.session.sent().is_some() {
            // A house move: the referee's report of it times the round trip.
            self.written = Some(Instant::now());
        } else {
            self.clock.charge_unmeasured_round_trip();
        }
    }

    /// Chooses a move on the agent's clock and formats it. A swap is applied by the session
    /// at once: the referee never reports it back to this agent.
    fn reply(&mut self, received: Instant) -> Result<String, ProtocolError> {
        let t = Instant::now();
        let mv = if self.session.position().swap_offered() && self.swap != SwapPolicy::Auto {
            if self.swap == SwapPolicy::Always {
                KalahMove::Swap
            } else {
                self.choose(false, received)?
            }
        } else {
            self.choose(true, received)?
        };
        self.last_search = t.elapsed();
        Ok(self.session.send(mv)?.to_string())
    }

    /// The budget of the next move (see [`GameClock::budget`]).
    fn budget(&self, received: Instant) -> MoveBudget {
        let moves_left = (self.session.position().seeds_in_houses() / 4).clamp(6, 40);
        self.clock.budget(moves_left, received.elapsed())
    }

    fn choose(&mut self, allow_swap: bool, received: Instant) -> Result<KalahMove, ProtocolError> {
        self.take_full_table();
        let budget = self.budget(received);
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = self
            .player
            .level()
            .limits(budget.soft)
            .with_cancel(Arc::clone(&cancel));
        let houses: Vec<KalahMove> = if allow_swap {
            Vec::new()
        } else {
            let mut m = self.session.position().legal_moves().to_vec();
            m.retain(|&m| m != KalahMove::Swap);
            m
        };
        // The watchdog: cancels the search at the hard limit unless told first that it is
        // over (the sender dropped).
        let (done, watch) = mpsc::channel::<()>();
        let hard = budget.hard;
        let watchdog = std::thread::spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = watch.recv_timeout(hard) {
                cancel.store(true, Ordering::Relaxed);
            }
        });
        let c = self
            .player
            .choose_among(self.session.position(), limits, &houses);
        drop(done);
        let _ = watchdog.join();
        let c = c.map_err(|e| ProtocolError::Io(format!("no move to choose: {e}")))?;
        Ok(c.mv)
    }
}

/// Runs the agent on standard input and output until the game ends.
pub fn run(args: &AgentArgs) -> Result<(), String> {
    let a = match &args.protocol {
        Protocol::Manchester(a) => a,
        Protocol::Line(l) => return crate::line::run(l),
    };
    let level = Level::new(a.level).map_err(|e| format!("--level {}: {e}", a.level))?;
    let game_ms = match a.game_ms {
        Some(ms) => ms,
        // The variable is read as the flag is, with the same reasons for a refusal (the
        // flag's range: a longer clock would give each search a time limit it never reaches,
        // a whole solve of the board). Empty, it is unset, as most programs take one.
        None => match std::env::var_os("MANCALA_AGENT_GAME_MS") {
            Some(v) if !v.is_empty() => {
                let v = v.to_string_lossy();
                crate::ranges::time_ms().read(&v).map_err(|why| {
                    crate::ranges::invalid_value(&v, "MANCALA_AGENT_GAME_MS", &why)
                })?
            }
            _ => 3_600_000,
        },
    };
    let mut agent = Agent::new(
        level,
        a.seed,
        a.swap,
        Duration::from_millis(game_ms),
        a.tt_mb << 20,
    );
    serve(&mut agent, io::stdin().lock(), io::stdout().lock()).map_err(|e| e.to_string())
}

/// The message loop: reads lines, answers, charges each reply to the agent's clock, stops
/// at the end of the game (`END`).
///
/// # Errors
/// The first [`ProtocolError`].
pub fn serve(
    agent: &mut Agent,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), ProtocolError> {
    let mut over = false;
    for line in input.lines() {
        let line = line.map_err(|e| ProtocolError::Io(format!("reading standard input: {e}")))?;
        let received = Instant::now();
        let line = line.strip_suffix('\r').unwrap_or(&line);
        let msg = parse_message(line)?;
        // After `CHANGE…;END` the session refuses anything but `END`.
        let (reply, done) = agent.handle_at(line, msg, received)?;
        if let Some(r) = reply {
            writeln!(output, "{r}")
                .and_then(|()| output.flush())
                .map_err(|e| ProtocolError::Io(format!("writing standard output: {e}")))?;
            agent.replied(received);
        }
        if msg == Message::End {
            return Ok(());
        }
        over = done;
    }
    if over {
        Ok(())
    } else {
        Err(ProtocolError::Eof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::Side;

    const START_STATE: &str = "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0";

    fn agent() -> Agent {
        Agent::new(
            Level::new(3).unwrap(),
            1,
            SwapPolicy::Auto,
            Duration::from_millis(500),
            1 << 20,
        )
    }

    fn run_lines(agent: &mut Agent, input: &str) -> (Result<(), ProtocolError>, String) {
        let mut out = Vec::new();
        let r = serve(agent, input.as_bytes(), &mut out);
        (r, String::from_utf8(out).unwrap())
    }

    #[test]
    fn south_moves_first_and_north_waits() {
        let (r, out) = run_lines(&mut agent(), "START;South\n");
        assert_eq!(r, Err(ProtocolError::Eof));
        let mv: u8 = out.trim().strip_prefix("MOVE;").unwrap().parse().unwrap();
        assert!((1..=7).contains(&mv));
        let (r, out) = run_lines(&mut agent(), "START;North\nEND\n");
        assert_eq!((r, out.as_str()), (Ok(()), ""));
    }

    fn always_swapping() -> Agent {
        Agent::new(
            Level::new(3).unwrap(),
            1,
            SwapPolicy::Always,
            Duration::from_millis(500),
            1 << 20,
        )
    }

    #[test]
    fn north_swaps_and_the_next_message_is_the_opponents_move() {
        // The referee does not report the swap to the swapper (module documentation): the
        // next line is the opponent's house 1 from its new North seat. Worked by hand: North
        // house 1 holds 7 seeds, one each into N2..N7 (7 -> 8) and the last into North's
        // store, an extra turn for the opponent (OPP); then its house 2 (8 seeds): N3..N7
        // (8 -> 9), North's store (2), S1 (0 -> 1), S2 (8 -> 9), the turn passes to South,
        // now this agent (YOU).
        let mut a = always_swapping();
        let input = "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n\
                     CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP\n\
                     CHANGE;2;0,0,9,9,9,9,9,2,1,9,8,8,8,8,8,1;YOU\nEND\n";
        let (r, out) = run_lines(&mut a, input);
        assert_eq!(r, Ok(()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert_eq!(lines[0], "SWAP");
        let h: u8 = lines[1].strip_prefix("MOVE;").unwrap().parse().unwrap();
        // South's houses after those moves: 1,9,8,8,8,8,8, none empty.
        assert!((1..=7).contains(&h));
        // The agent now plays South and waits for its move to be reported.
        assert_eq!(a.session.side(), Some(Side::South));
        assert_eq!(a.session.sent(), Some(KalahMove::House(h)));
    }

    #[test]
    fn a_swap_reported_to_the_swapper_is_refused() {
        let mut a = always_swapping();
        let input = "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n\
                     CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\nEND\n";
        let (r, out) = run_lines(&mut a, input);
        assert_eq!(out, "SWAP\n");
        let Err(ProtocolError::Unexpected { why, .. }) = r else {
            panic!("{r:?}")
        };
        assert!(why.contains("this agent swapped itself"), "{why}");
    }

    #[test]
    fn south_is_told_of_the_opponents_swap() {
        // South (level 5: no random weaker move) moves; North swaps; South, now North, moves
        // next (CHANGE;SWAP;…;YOU with the board unchanged).
        let mut a = Agent::new(
            Level::new(5).unwrap(),
            1,
            SwapPolicy::Auto,
            Duration::from_secs(600),
            1 << 20,
        );
        let mut out = Vec::new();
        let r = serve(&mut a, "START;South\n".as_bytes(), &mut out);
        assert_eq!(r, Err(ProtocolError::Eof));
        let out = String::from_utf8(out).unwrap();
        let h: u8 = out.trim().strip_prefix("MOVE;").unwrap().parse().unwrap();
        // South's first move from the start, by hand: house h empties, its 7 seeds go one
        // each into the houses after it, South's store, then North's houses from 1.
        let mut south = [7u8; 7];
        let mut north = [7u8; 7];
        south[h as usize - 1] = 0;
        let mut left = 7;
        for s in south.iter_mut().skip(h as usize) {
            *s += 1;
            left -= 1;
        }
        left -= 1; // the store
        for n in north.iter_mut().take(left) {
            *n += 1;
        }
        let row = |r: [u8; 7]| r.map(|x| x.to_string()).join(",");
        let state = format!("{},0,{},1", row(north), row(south));
        let (r, _) = run_lines(&mut a, &format!("CHANGE;{h};{state};OPP\n"));
        assert_eq!(r, Err(ProtocolError::Eof));
        let (r, out) = run_lines(&mut a, &format!("CHANGE;SWAP;{state};YOU\n"));
        assert_eq!(r, Err(ProtocolError::Eof));
        assert!(out.starts_with("MOVE;"), "{out}");
        assert_eq!(a.session.side(), Some(Side::North));
    }

    #[test]
    fn inconsistent_messages_are_refused() {
        // A wrong state after a legal move.
        let (r, _) = run_lines(
            &mut agent(),
            "START;North\nCHANGE;1;8,7,7,7,7,7,6,0,0,8,8,8,8,8,8,1;YOU\n",
        );
        assert!(matches!(r, Err(ProtocolError::Unexpected { .. })), "{r:?}");
        // The wrong turn: after South's first move North (this agent) is to move.
        let (r, _) = run_lines(
            &mut agent(),
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n",
        );
        assert!(matches!(r, Err(ProtocolError::Unexpected { .. })), "{r:?}");
        // CHANGE before START, a second START, a swap by South.
        let (r, _) = run_lines(&mut agent(), &format!("CHANGE;1;{START_STATE};YOU\n"));
        assert!(matches!(r, Err(ProtocolError::Unexpected { .. })));
        let (r, _) = run_lines(&mut agent(), "START;North\nSTART;North\n");
        assert!(matches!(r, Err(ProtocolError::Unexpected { .. })));
        let (r, _) = run_lines(
            &mut agent(),
            &format!("START;North\nCHANGE;SWAP;{START_STATE};YOU\n"),
        );
        assert!(matches!(r, Err(ProtocolError::Unexpected { .. })));
        // Input that ends mid-game.
        let (r, _) = run_lines(&mut agent(), "START;North\n");
        assert_eq!(r, Err(ProtocolError::Eof));
    }

    #[test]
    fn the_engine_must_report_the_move_this_agent_sent() {
        // The agent (North) answers South's 1 with a house move; the referee reports house
        // 7 of South instead (another move than the agent's, whatever it chose).
        let mut a = Agent::new(
            Level::new(3).unwrap(),
            1,
            SwapPolicy::Never,
            Duration::from_millis(500),
            1 << 20,
        );
        let (r, out) = run_lines(
            &mut a,
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n",
        );
        assert_eq!(r, Err(ProtocolError::Eof));
        let h: u8 = out.trim().strip_prefix("MOVE;").unwrap().parse().unwrap();
        let other = if h == 7 { 6 } else { 7 };
        let (r, _) = run_lines(
            &mut a,
            &format!("CHANGE;{other};7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n"),
        );
        let Err(ProtocolError::Unexpected { why, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(
            why,
            format!("this agent played {h}, the engine reported {other}")
        );
    }

    #[test]
    fn the_clock_keeps_its_reserve() {
        let ms = Duration::from_millis;
        let mut c = GameClock::new(ms(10_000));
        // 8000 ms plannable (a fifth in reserve), 20 moves: 400 ms each less the first
        // round-trip estimate (2 ms), hard twice that.
        let b = c.budget(20, Duration::ZERO);
        assert_eq!((b.soft, b.hard), (ms(398), ms(796)));
        // A reply of 450 ms whose search took 400 ms: overhead 50 ms; its round trip 10 ms:
        // 460 ms used, estimate (3 * 2 + 10) / 4 = 4 ms. 7540 ms plannable, 10 moves:
        // 754 - 50 - 4 = 700 ms, hard 1400 ms (under a quarter of 7540).
        c.charge(ms(450), ms(400));
        c.charge_round_trip(ms(10));
        assert_eq!((c.used, c.overhead, c.latency), (ms(460), ms(50), ms(4)));
        let b = c.budget(10, Duration::ZERO);
        assert_eq!((b.soft, b.hard), (ms(700), ms(1400)));
        // A long search, all of it search: 7950 ms used, 50 ms plannable, 1 move: 50 - 54,
        // nothing (the search's first iteration only, which always completes).
        c.charge(ms(7490), ms(7490));
        assert_eq!(c.overhead, ms(50));
        let b = c.budget(1, Duration::ZERO);
        assert_eq!((b.soft, b.hard), (Duration::ZERO, Duration::ZERO));
        // A swap is charged with the estimate: 7954 ms.
        c.charge_unmeasured_round_trip();
        assert_eq!(c.used, ms(7954));
        // Past the plannable time: nothing.
        c.charge(ms(100), ms(100));
        let b = c.budget(6, Duration::ZERO);
        assert_eq!((b.soft, b.hard), (Duration::ZERO, Duration::ZERO));
    }

    #[test]
    fn the_turn_is_named_in_protocol_words() {
        let (r, _) = run_lines(
            &mut agent(),
            "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\n",
        );
        let Err(ProtocolError::Unexpected { why, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(why, "the turn should be YOU, not OPP");
    }
}
