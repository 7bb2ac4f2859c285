//! `mancala agent manchester`: a game-playing agent speaking the University of Manchester
//! Kalah(7,7) engine–agent protocol on standard input and output (`kalah.md`, named rule set
//! `manchester`; issue 7).
//!
//! Messages from the game engine, one a line:
//!
//! * `START;South` or `START;North` — the side this agent plays; South moves first;
//! * `CHANGE;<move>;<state>;<turn>` — a move was played (by either player): `<move>` is a
//!   house number 1..7 or `SWAP`; `<state>` is 16 comma-separated counts: North's houses
//!   1..7, North's store, South's houses 1..7, South's store; `<turn>` is `YOU` (this agent
//!   moves next), `OPP` (the opponent does) or `END` (the game is over);
//! * `END` — the game is over.
//!
//! Replies: `MOVE;<n>` (sow house n, 1..7, counted from the mover's left) or `SWAP`.
//!
//! Rules: Kalah(7,7), South's first move never earns an extra turn, the swap is allowed only
//! as the second message of the game (North's first action), after a swap the players change
//! sides and the board is not mirrored, and the game ends as soon as either row is empty.
//! This is exactly the core's `manchester` rule set, which the agent replays every move on;
//! the agent checks each message's state and turn against its own replay.
//!
//! Strictness: a message that does not have exactly this shape (no extra spaces, upper-case
//! keywords, numbers in plain decimal without leading zeros — `0`, `7`, `12`, never `07` —
//! of at most three digits; a line may end in `\n` or `\r\n`), a move that is not legal, a
//! `CHANGE` after this agent's `MOVE;<n>` or `SWAP` that does not report exactly that move, a
//! state or turn that does not match the replay, or input that ends before the game does, is
//! reported on standard error (in the protocol's words: `YOU`, `OPP`, `END`) and the agent
//! exits with a non-zero status. A state mismatch in the final
//! `CHANGE…;END` is only a warning (engines differ in whether they show the final sweep).
//!
//! Time: the agent has `--game-ms` milliseconds for the whole game (default one hour, as in
//! the competition; the variable `MANCALA_AGENT_GAME_MS` sets it when the flag is absent).
//! Each move gets the remaining time divided by an estimate of the agent's moves still to
//! come (a quarter of the seeds left in the houses, between 6 and 40), less a 5 % reserve.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::engine::{Engine, Level, LevelPlayer};
use thiserror::Error;

/// Arguments of `mancala agent`.
#[derive(Debug, Args)]
pub struct AgentArgs {
    #[command(subcommand)]
    protocol: Protocol,
}

#[derive(Debug, Subcommand)]
enum Protocol {
    /// The University of Manchester Kalah(7,7) engine–agent protocol on stdin/stdout.
    Manchester(ManchesterArgs),
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
    /// Time for the whole game in milliseconds (default 3600000, one hour; or the variable
    /// MANCALA_AGENT_GAME_MS).
    #[arg(long)]
    game_ms: Option<u64>,
    /// Strength level 1..=10.
    #[arg(long, default_value_t = 10)]
    level: u32,
    /// Swap decision when offered.
    #[arg(long, value_enum, default_value_t = SwapPolicy::Auto)]
    swap: SwapPolicy,
    /// Seed of the weaker-move choices of levels 1..=4.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition-table size in MiB (1..=4096).
    #[arg(long, default_value_t = 64)]
    tt_mb: usize,
}

/// The move field of a `CHANGE` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeMove {
    /// A house number, 1..=7.
    House(u8),
    /// `SWAP`.
    Swap,
}

/// The turn field of a `CHANGE` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// `YOU`: this agent moves next.
    You,
    /// `OPP`: the opponent moves next.
    Opp,
    /// `END`: the game is over.
    End,
}

impl std::fmt::Display for Turn {
    /// The protocol word: `YOU`, `OPP` or `END`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Turn::You => "YOU",
            Turn::Opp => "OPP",
            Turn::End => "END",
        })
    }
}

/// A move in the protocol's words: the house number or `SWAP`.
fn protocol_move(mv: KalahMove) -> String {
    match mv {
        KalahMove::House(h) => h.to_string(),
        KalahMove::Swap => "SWAP".to_string(),
    }
}

/// A message from the game engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// `START;South|North`.
    Start(Side),
    /// `CHANGE;<move>;<state>;<turn>`; `state` in protocol order (North's houses 1..7,
    /// North's store, South's houses 1..7, South's store).
    Change {
        /// The move played.
        mv: ChangeMove,
        /// The board after it.
        state: [u8; 16],
        /// Who moves next.
        turn: Turn,
    },
    /// `END`.
    End,
}

/// Why a message or the game went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProtocolError {
    /// The line does not have the shape of any engine message.
    #[error("malformed message `{line}`: {why}")]
    Malformed {
        /// The line (at most 200 characters).
        line: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A well-formed message that does not fit the game so far.
    #[error("unexpected message `{line}`: {why}")]
    Unexpected {
        /// The line.
        line: String,
        /// Why it does not fit.
        why: String,
    },
    /// Standard input ended before the game did.
    #[error("input ended before the game was over")]
    Eof,
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
}

fn malformed(line: &str, why: &'static str) -> ProtocolError {
    ProtocolError::Malformed {
        line: line.chars().take(200).collect(),
        why,
    }
}

/// A count field: 1 to 3 ASCII digits without a leading zero (`0` itself is fine), value
/// 0..=255.
fn parse_count(t: &str) -> Option<u8> {
    if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if t.len() > 1 && t.starts_with('0') {
        return None;
    }
    t.parse().ok()
}

/// Parses one line (without its line ending) strictly.
///
/// # Errors
/// [`ProtocolError::Malformed`] naming what is wrong.
pub fn parse_message(line: &str) -> Result<Message, ProtocolError> {
    let fields: Vec<&str> = line.split(';').collect();
    match fields[0] {
        "START" => {
            if fields.len() != 2 {
                return Err(malformed(line, "START takes one field: South or North"));
            }
            match fields[1] {
                "South" => Ok(Message::Start(Side::South)),
                "North" => Ok(Message::Start(Side::North)),
                _ => Err(malformed(line, "the side must be `South` or `North`")),
            }
        }
        "END" => {
            if fields.len() != 1 {
                return Err(malformed(line, "END takes no field"));
            }
            Ok(Message::End)
        }
        "CHANGE" => {
            if fields.len() != 4 {
                return Err(malformed(
                    line,
                    "CHANGE takes three fields: move, state, turn",
                ));
            }
            let mv = match fields[1] {
                "SWAP" => ChangeMove::Swap,
                t => match parse_count(t) {
                    Some(h @ 1..=7) => ChangeMove::House(h),
                    _ => return Err(malformed(line, "the move must be a house 1..7 or SWAP")),
                },
            };
            let counts: Vec<&str> = fields[2].split(',').collect();
            if counts.len() != 16 {
                return Err(malformed(line, "the state must hold 16 counts"));
            }
            let mut state = [0u8; 16];
            let mut total = 0u32;
            for (slot, t) in state.iter_mut().zip(&counts) {
                *slot = parse_count(t)
                    .ok_or_else(|| malformed(line, "a state count must be a number 0..255"))?;
                total += u32::from(*slot);
            }
            if total != KalahRules::manchester().total_seeds() {
                return Err(malformed(line, "the state must hold 98 seeds"));
            }
            let turn = match fields[3] {
                "YOU" => Turn::You,
                "OPP" => Turn::Opp,
                "END" => Turn::End,
                _ => return Err(malformed(line, "the turn must be YOU, OPP or END")),
            };
            Ok(Message::Change { mv, state, turn })
        }
        _ => Err(malformed(line, "expected START, CHANGE or END")),
    }
}

/// The protocol state of a position: North's houses 1..7, North's store, South's houses
/// 1..7, South's store.
#[must_use]
pub fn protocol_state(p: &KalahPosition) -> [u8; 16] {
    let slots = p.slots();
    let mut s = [0u8; 16];
    s[..8].copy_from_slice(&slots[8..16]);
    s[8..].copy_from_slice(&slots[..8]);
    s
}

/// The agent's view of a game: the replayed position, its side, and its clock.
pub struct Agent {
    pos: KalahPosition,
    side: Option<Side>,
    player: LevelPlayer<KalahPosition>,
    swap: SwapPolicy,
    remaining: Duration,
    /// The move this agent sent and the engine has not reported back yet.
    sent: Option<KalahMove>,
}

impl Agent {
    /// A new agent before `START`, with `game_time` for the whole game.
    #[must_use]
    pub fn new(
        level: Level,
        seed: u64,
        swap: SwapPolicy,
        game_time: Duration,
        tt_bytes: usize,
    ) -> Agent {
        Agent {
            pos: KalahPosition::start(KalahRules::manchester()),
            side: None,
            player: LevelPlayer::with_engine(Engine::with_tt_bytes(tt_bytes), level, seed),
            swap,
            remaining: game_time,
            sent: None,
        }
    }

    /// Handles one message; returns the reply to send, if any, and whether the game is over.
    ///
    /// # Errors
    /// [`ProtocolError`] for a message that does not fit the game.
    pub fn handle(
        &mut self,
        line: &str,
        msg: Message,
    ) -> Result<(Option<String>, bool), ProtocolError> {
        let unexpected = |why: String| ProtocolError::Unexpected {
            line: line.chars().take(200).collect(),
            why,
        };
        match msg {
            Message::End => Ok((None, true)),
            Message::Start(side) => {
                if self.side.is_some() {
                    return Err(unexpected("START after the game has started".into()));
                }
                self.side = Some(side);
                if side == Side::South {
                    Ok((Some(self.reply()?), false))
                } else {
                    Ok((None, false))
                }
            }
            Message::Change { mv, state, turn } => {
                let Some(my_side) = self.side else {
                    return Err(unexpected("CHANGE before START".into()));
                };
                let kmv = match mv {
                    ChangeMove::House(h) => KalahMove::House(h),
                    ChangeMove::Swap => KalahMove::Swap,
                };
                if let Some(sent) = self.sent.take() {
                    if sent != kmv {
                        return Err(unexpected(format!(
                            "this agent played {}, the engine reported {}",
                            protocol_move(sent),
                            protocol_move(kmv)
                        )));
                    }
                }
                let next = self
                    .pos
                    .play(kmv)
                    .map_err(|e| unexpected(format!("{} in {}", e, self.pos)))?;
                let side = if kmv == KalahMove::Swap {
                    my_side.opponent()
                } else {
                    my_side
                };
                self.side = Some(side);
                self.pos = next;
                let over = next.is_over();
                if protocol_state(&next) != state {
                    let why = format!("the state does not match the game replayed here ({})", next);
                    if turn == Turn::End && over {
                        eprintln!("mancala agent: warning: {why}");
                    } else {
                        return Err(unexpected(why));
                    }
                }
                let expected = match next.side_to_move() {
                    None => Turn::End,
                    Some(s) if s == side => Turn::You,
                    Some(_) => Turn::Opp,
                };
                if turn != expected {
                    return Err(unexpected(format!(
                        "the turn should be {expected}, not {turn}"
                    )));
                }
                match turn {
                    Turn::You => Ok((Some(self.reply()?), false)),
                    Turn::Opp => Ok((None, false)),
                    Turn::End => Ok((None, true)),
                }
            }
        }
    }

    /// Chooses a move on the agent's clock and formats it.
    fn reply(&mut self) -> Result<String, ProtocolError> {
        let t = Instant::now();
        let mv = if self.pos.swap_offered() && self.swap != SwapPolicy::Auto {
            if self.swap == SwapPolicy::Always {
                KalahMove::Swap
            } else {
                self.choose(false)?
            }
        } else {
            self.choose(true)?
        };
        self.remaining = self.remaining.saturating_sub(t.elapsed());
        self.sent = Some(mv);
        Ok(match mv {
            KalahMove::House(h) => format!("MOVE;{h}"),
            KalahMove::Swap => "SWAP".to_string(),
        })
    }

    fn budget(&self) -> Duration {
        let moves_left = (self.pos.seeds_in_houses() / 4).clamp(6, 40);
        self.remaining.mul_f64(0.95) / moves_left
    }

    fn choose(&mut self, allow_swap: bool) -> Result<KalahMove, ProtocolError> {
        let budget = self.budget();
        let limits = self.player.level().limits(budget);
        let houses: Vec<KalahMove> = if allow_swap {
            Vec::new()
        } else {
            let mut m = self.pos.legal_moves().to_vec();
            m.retain(|&m| m != KalahMove::Swap);
            m
        };
        let c = self
            .player
            .choose_among(&self.pos, limits, &houses)
            .map_err(|e| ProtocolError::Io(format!("no move to choose: {e}")))?;
        Ok(c.mv)
    }
}

/// Runs the agent on standard input and output until the game ends.
pub fn run(args: &AgentArgs) -> Result<(), String> {
    let Protocol::Manchester(a) = &args.protocol;
    let level = Level::new(a.level).map_err(|e| format!("--level {}: {e}", a.level))?;
    let game_ms = match a.game_ms {
        Some(ms) => ms,
        None => match std::env::var("MANCALA_AGENT_GAME_MS") {
            Ok(v) => v
                .parse()
                .map_err(|_| format!("MANCALA_AGENT_GAME_MS: `{v}` is not a number"))?,
            Err(_) => 3_600_000,
        },
    };
    if !(1..=4096).contains(&a.tt_mb) {
        return Err(format!("--tt-mb {}: expected 1..=4096", a.tt_mb));
    }
    let mut agent = Agent::new(
        level,
        a.seed,
        a.swap,
        Duration::from_millis(game_ms),
        a.tt_mb << 20,
    );
    serve(&mut agent, io::stdin().lock(), io::stdout().lock()).map_err(|e| e.to_string())
}

/// The message loop: reads lines, answers, stops at the end of the game.
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
        let line = line.strip_suffix('\r').unwrap_or(&line);
        let msg = parse_message(line)?;
        if over && msg != Message::End {
            return Err(ProtocolError::Unexpected {
                line: line.chars().take(200).collect(),
                why: "the game is over; only END may follow".into(),
            });
        }
        let (reply, done) = agent.handle(line, msg)?;
        if let Some(r) = reply {
            writeln!(output, "{r}")
                .and_then(|()| output.flush())
                .map_err(|e| ProtocolError::Io(format!("writing standard output: {e}")))?;
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

    const START_STATE: &str = "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0";

    #[test]
    fn good_messages() {
        assert_eq!(
            parse_message("START;South"),
            Ok(Message::Start(Side::South))
        );
        assert_eq!(
            parse_message("START;North"),
            Ok(Message::Start(Side::North))
        );
        assert_eq!(parse_message("END"), Ok(Message::End));
        // South plays 1 from the start: S1 empty, S2..S7 get 8, the 7th seed goes into
        // South's store (no extra turn on the first move); North's row is untouched.
        let m = parse_message("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU").unwrap();
        assert_eq!(
            m,
            Message::Change {
                mv: ChangeMove::House(1),
                state: [7, 7, 7, 7, 7, 7, 7, 0, 0, 8, 8, 8, 8, 8, 8, 1],
                turn: Turn::You
            }
        );
        let m = parse_message(&format!("CHANGE;SWAP;{START_STATE};OPP")).unwrap();
        assert!(matches!(
            m,
            Message::Change {
                mv: ChangeMove::Swap,
                turn: Turn::Opp,
                ..
            }
        ));
    }

    #[test]
    fn malformed_messages() {
        let bad = [
            "",
            "START",
            "START;East",
            "START;south",
            "start;South",
            "START;South;",
            " START;South",
            "START;South ",
            "END;",
            "MOVE;3",
            "SWAP",
            "CHANGE;0;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU",
            "CHANGE;8;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU",
            "CHANGE;swap;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU",
            "CHANGE;+1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0,0;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,1;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,-0;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7, 0;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;you",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU;",
            "CHANGE;1;7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0;YOU ",
            // Leading zeros: the protocol's engine never sends them.
            "CHANGE;01;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;1;07,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,00,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,001;YOU",
        ];
        for line in bad {
            assert!(
                matches!(parse_message(line), Err(ProtocolError::Malformed { .. })),
                "{line:?} should be refused"
            );
        }
    }

    #[test]
    fn state_order() {
        // Notation `S1..S7,Ss,N1..N7,Ns`; protocol North first.
        let p = KalahPosition::parse(
            KalahRules::manchester(),
            "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,0 N",
        );
        // 105 seeds: not a position of a manchester game, but it shows the order.
        let p = p.unwrap();
        assert_eq!(
            protocol_state(&p),
            [9, 10, 11, 12, 13, 14, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
        );
    }

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

    #[test]
    fn north_answers_the_first_move_and_may_swap() {
        let mut a = Agent::new(
            Level::new(3).unwrap(),
            1,
            SwapPolicy::Always,
            Duration::from_millis(500),
            1 << 20,
        );
        let input = "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n\
                     CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP\nEND\n";
        let (r, out) = run_lines(&mut a, input);
        assert_eq!(r, Ok(()));
        assert_eq!(out, "SWAP\n");
        // The agent now plays South.
        assert_eq!(a.side, Some(Side::South));
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
        // The agent (North, always swapping) sends SWAP; the engine reports house 7 instead.
        let mut a = Agent::new(
            Level::new(3).unwrap(),
            1,
            SwapPolicy::Always,
            Duration::from_millis(500),
            1 << 20,
        );
        let input = "START;North\nCHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU\n\
                     CHANGE;7;7,7,7,7,7,7,0,1,1,9,9,9,9,9,8,1;YOU\n";
        let (r, out) = run_lines(&mut a, input);
        assert_eq!(out, "SWAP\n");
        let Err(ProtocolError::Unexpected { why, .. }) = r else {
            panic!("{r:?}")
        };
        assert_eq!(why, "this agent played SWAP, the engine reported 7");
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
