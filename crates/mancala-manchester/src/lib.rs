//! # mancala-manchester
//!
//! The University of Manchester COMP34120 Kalah(7,7) engine–agent protocol (the referee
//! `ManKalah.jar`; [`docs/rules/kalah.md`](mancala_core::docs::kalah_rules), named rule set `manchester`): the messages' parser
//! and printer and the state machine of an agent's side of a game ([`Session`]), for any Rust
//! program that plays under that referee. The `mancala agent manchester` command is one: it
//! adds the move choice (the solver crate's engine) and its time policy.
//!
//! It needs nothing but the rules it replays (`mancala-core`): which move to send is the
//! caller's business.
//!
//! # The protocol as the referee speaks it
//!
//! Sources: the course's protocol description (`doc/protocol.txt` of the course's game engine,
//! kept in public course-agent repositories such as `crisbodnar/KalahAI`), the referee's
//! engine classes as published with those repositories (the order in which it sends), and
//! its observable behaviour in 82 games against the course's reference agent and students'
//! agents. A message is one line ended by `\n`, without spaces, case-sensitive.
//!
//! ```text
//! referee -> agent   START;<side>                   <side>  = North | South
//!                    CHANGE;<move>;<state>;<turn>   <move>  = 1..7 | SWAP
//!                                                   <state> = N1..N7,N-store,S1..S7,S-store
//!                                                   <turn>  = YOU | OPP | END
//!                    END
//! agent -> referee   MOVE;<house>                   <house> = 1..7, from the mover's left
//!                    SWAP
//! ```
//!
//! `<state>` is the board after the move, always North's row and store first, whoever reads
//! it; `<turn>` says who moves next: `YOU` the reader, `OPP` the other player, `END` nobody
//! (the game is over).
//!
//! Order of the messages:
//!
//! 1. `START;North` to the second player, then `START;South` to the first. South moves first.
//! 2. After a house move the referee sends `CHANGE;<house>;<state>;<turn>` to **both**
//!    players: first to the one who does not move next (`OPP`), then to the one who does
//!    (`YOU`). After an extra turn (the last seed in the mover's store) the mover reads `YOU`
//!    and the other `OPP`. South's first move never earns an extra turn.
//! 3. The swap (pie rule): allowed only as North's first action, the second reply of the
//!    game. The players exchange seats; the board stays as it is and North (now the player
//!    who moved first) moves next. The referee sends `CHANGE;SWAP;<state>;YOU` to that
//!    player **only**. The swapper is told nothing about its own swap: the next line it
//!    reads is the opponent's first move from its new North seat,
//!    `CHANGE;<house>;<state>;OPP` (an extra turn) or `…;YOU`.
//! 4. A move that empties either row ends the game: each player's remaining seeds go to
//!    their own store, and the final `CHANGE;<house>;<state>;END` (to both) shows the board
//!    after that sweep. Then `END` to both.
//! 5. An abort: an illegal move (an empty house, a house above 7), a malformed reply (neither
//!    `MOVE;<number>` nor `SWAP`, a `SWAP` at any other moment, a house below 1) or a player
//!    out of time ends the game at once: both players get `END` only (no `CHANGE…;END`), and
//!    the offender loses. If a player's output ends (it exited), only the other gets `END`.
//! 6. The clock: the referee times each reply from the moment it has sent the player's last
//!    message to the moment the reply's line has arrived, and sums those times over the game
//!    (one hour in the course's engine). A line that has not arrived when the sum reaches the
//!    clock loses the game.
//!
//! A short game, as the player who swaps sees it (`<-` its replies):
//!
//! ```text
//! START;North
//! CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU
//! <- SWAP
//! CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP      the opponent, now North, sowed house 1
//! CHANGE;2;0,0,9,9,9,9,9,2,1,9,8,8,8,8,8,1;YOU      and then house 2
//! <- MOVE;…
//! ```
//!
//! # What the session checks
//!
//! [`Session`] replays every move on the core's `manchester` rule set (Kalah(7,7), no extra
//! turn on South's first move, the pie-rule swap as North's first action, the board not
//! mirrored by the swap, the game over as soon as either row is empty) and checks each
//! message against that replay. When the agent sends `SWAP` ([`Session::send`]) the session
//! applies the swap at once (its side flips, the board stays) and takes the next `CHANGE` as
//! the opponent's move.
//!
//! Strictness: a message that does not have exactly the shape above (no extra spaces,
//! upper-case keywords, numbers in plain decimal without leading zeros — `0`, `7`, `12`,
//! never `07` — of at most three digits) or that the referee would never send at that
//! moment — a `CHANGE` after the agent's `MOVE;<n>` that does not report exactly that house,
//! a `CHANGE;SWAP` after the agent swapped itself, a move that is not legal, a state or turn
//! that does not match the replay, a second `START`, anything but `END` after `…;END` — is
//! refused with a [`ProtocolError`] (in the protocol's words: `YOU`, `OPP`, `END`). A state
//! mismatch in the final `CHANGE…;END` is only a warning ([`Received::warning`]). An `END`
//! at any moment (the referee aborted the game) ends the game ([`Step::End`]).
//!
//! ```
//! use mancala_manchester::{AgentMessage, Session, Step};
//! use mancala_core::kalah::KalahMove;
//!
//! let mut s = Session::new();
//! assert_eq!(s.receive("START;South").unwrap().step, Step::Reply);
//! assert_eq!(s.send(KalahMove::House(1)).unwrap(), AgentMessage::Move(1));
//! // South's house 1: S2..S7 get 8, the last seed in South's store (no extra turn on the
//! // first move); North moves next.
//! let r = s.receive("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP").unwrap();
//! assert_eq!(r.step, Step::Wait);
//! assert_eq!(AgentMessage::Move(3).to_string(), "MOVE;3");
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

use core::fmt;

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::Side;
use thiserror::Error;

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

impl fmt::Display for Turn {
    /// The protocol word: `YOU`, `OPP` or `END`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Turn::You => "YOU",
            Turn::Opp => "OPP",
            Turn::End => "END",
        })
    }
}

/// A move in the protocol's words: the house number or `SWAP`.
#[must_use]
pub fn protocol_move(mv: KalahMove) -> String {
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
    #[error("malformed message `{}`: {why}", Shown(line))]
    Malformed {
        /// The line (at most 200 characters).
        line: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A well-formed message that does not fit the game so far.
    #[error("unexpected message `{}`: {why}", Shown(line))]
    Unexpected {
        /// The line.
        line: String,
        /// Why it does not fit.
        why: String,
    },
    /// The agent's input ended before the game did.
    #[error("input ended before the game was over")]
    Eof,
    /// [`Session::send`] was given a move that is not legal in the replayed game, or given
    /// one when no reply is due.
    #[error("cannot send {mv}: {why}")]
    CannotSend {
        /// The move, in the protocol's words.
        mv: String,
        /// Why not.
        why: String,
    },
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
}

/// A line as a message shows it: every control character escaped as Rust writes it in a
/// string (`\0`, `\t`, `\u{1b}`), so that the message stays one line of printable text
/// whatever the referee sent (the error keeps the line itself).
struct Shown<'a>(&'a str);

impl std::fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
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

/// A protocol state as the referee writes it: the 16 counts separated by commas.
struct StateText<'a>(&'a [u8; 16]);

impl fmt::Display for StateText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
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

impl fmt::Display for ChangeMove {
    /// The protocol's move field: the house number or `SWAP`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChangeMove::House(h) => write!(f, "{h}"),
            ChangeMove::Swap => f.write_str("SWAP"),
        }
    }
}

impl fmt::Display for Message {
    /// The message as the referee sends it, without the line ending; [`parse_message`]
    /// reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Start(Side::South) => f.write_str("START;South"),
            Message::Start(Side::North) => f.write_str("START;North"),
            Message::Change { mv, state, turn } => {
                write!(f, "CHANGE;{mv};")?;
                for (i, c) in state.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{c}")?;
                }
                write!(f, ";{turn}")
            }
            Message::End => f.write_str("END"),
        }
    }
}

/// A message from the agent to the referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentMessage {
    /// `MOVE;<house>`, house 1..=7 from the mover's left.
    Move(u8),
    /// `SWAP`.
    Swap,
}

impl fmt::Display for AgentMessage {
    /// `MOVE;<house>` or `SWAP`, without the line ending.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentMessage::Move(h) => write!(f, "MOVE;{h}"),
            AgentMessage::Swap => f.write_str("SWAP"),
        }
    }
}

/// What the agent does after a message (the `step` field of [`Received`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The agent moves: choose a legal move of [`Session::position`] and [`Session::send`] it.
    Reply,
    /// The opponent moves: read the next message.
    Wait,
    /// The game is over (`CHANGE…;END`); only `END` may follow.
    GameOver,
    /// `END`: the referee ended the game (normally or by an abort); stop.
    End,
}

/// The outcome of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Received {
    /// What to do next.
    pub step: Step,
    /// A harmless disagreement to report (the final state differs from the replay's).
    pub warning: Option<String>,
}

impl Received {
    fn step(step: Step) -> Received {
        Received {
            step,
            warning: None,
        }
    }
}

/// The agent's side of one game under the protocol: the replayed position, the agent's
/// side (which a swap changes), the move it sent and the referee has not reported yet, and
/// whether the game is over. See the module docs for what it checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pos: KalahPosition,
    side: Option<Side>,
    /// The house move the agent sent and the referee has not reported back yet.
    sent: Option<KalahMove>,
    /// Whether the agent played the swap itself (the referee never reports it back).
    swapped: bool,
    /// Whether a reply is due.
    due: bool,
    /// Whether `CHANGE…;END` was read.
    over: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A session before `START`, at the start of a `manchester` game.
    #[must_use]
    pub fn new() -> Session {
        Session {
            pos: KalahPosition::start(KalahRules::manchester()),
            side: None,
            sent: None,
            swapped: false,
            due: false,
            over: false,
        }
    }

    /// The replayed position (the agent's [`Session::send`] applied, for a swap).
    #[must_use]
    pub fn position(&self) -> &KalahPosition {
        &self.pos
    }

    /// The side the agent plays now (`None` before `START`).
    #[must_use]
    pub fn side(&self) -> Option<Side> {
        self.side
    }

    /// The house move sent and not reported back yet.
    #[must_use]
    pub fn sent(&self) -> Option<KalahMove> {
        self.sent
    }

    /// Whether `CHANGE…;END` has been read (only `END` may follow).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Reads one line (without its `\n`; a trailing `\r` is the caller's to strip): parses
    /// it ([`parse_message`]) and takes it ([`Session::handle`]).
    ///
    /// # Errors
    /// [`ProtocolError::Malformed`], [`ProtocolError::Unexpected`].
    pub fn receive(&mut self, line: &str) -> Result<Received, ProtocolError> {
        let msg = parse_message(line)?;
        self.handle(line, msg)
    }

    /// Takes one parsed message (`line` is its text, for error messages) and says what to do
    /// next.
    ///
    /// # Errors
    /// [`ProtocolError::Unexpected`] for a message the referee would not send at this moment
    /// (module documentation).
    pub fn handle(&mut self, line: &str, msg: Message) -> Result<Received, ProtocolError> {
        let unexpected = |why: String| ProtocolError::Unexpected {
            line: line.chars().take(200).collect(),
            why,
        };
        if self.over && msg != Message::End {
            return Err(unexpected("the game is over; only END may follow".into()));
        }
        let received = self.take(msg, &unexpected)?;
        self.due = received.step == Step::Reply;
        self.over = matches!(received.step, Step::GameOver | Step::End);
        Ok(received)
    }

    fn take(
        &mut self,
        msg: Message,
        unexpected: &dyn Fn(String) -> ProtocolError,
    ) -> Result<Received, ProtocolError> {
        match msg {
            Message::End => Ok(Received::step(Step::End)),
            Message::Start(side) => {
                if self.side.is_some() {
                    return Err(unexpected("START after the game has started".into()));
                }
                self.side = Some(side);
                Ok(Received::step(if side == Side::South {
                    Step::Reply
                } else {
                    Step::Wait
                }))
            }
            Message::Change { mv, state, turn } => {
                let Some(my_side) = self.side else {
                    return Err(unexpected("CHANGE before START".into()));
                };
                let kmv = match mv {
                    ChangeMove::House(h) => KalahMove::House(h),
                    ChangeMove::Swap => KalahMove::Swap,
                };
                if kmv == KalahMove::Swap && self.swapped {
                    return Err(unexpected(
                        "this agent swapped itself, and the referee reports a swap only to \
                         the other player"
                            .into(),
                    ));
                }
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
                let mut warning = None;
                let replayed = protocol_state(&next);
                if replayed != state {
                    // In the protocol's order, as the referee wrote the state it sent.
                    let why = format!(
                        "the state does not match the game replayed here, which has {} \
                         (North's houses 1..7 and store, then South's, as in the protocol)",
                        StateText(&replayed)
                    );
                    if turn == Turn::End && over {
                        warning = Some(why);
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
                let step = match turn {
                    Turn::You => Step::Reply,
                    Turn::Opp => Step::Wait,
                    Turn::End => Step::GameOver,
                };
                Ok(Received { step, warning })
            }
        }
    }

    /// Records the agent's reply `mv` (legal in [`Session::position`], when a reply is due)
    /// and gives the message to write. A swap is applied at once (the agent's side flips, the
    /// board stays): the referee never reports it back to the swapper.
    ///
    /// # Errors
    /// [`ProtocolError::CannotSend`] when no reply is due or `mv` is not legal.
    pub fn send(&mut self, mv: KalahMove) -> Result<AgentMessage, ProtocolError> {
        let refuse = |why: String| ProtocolError::CannotSend {
            mv: protocol_move(mv),
            why,
        };
        if !self.due {
            return Err(refuse("no reply is due".into()));
        }
        let next = self.pos.play(mv).map_err(|e| refuse(e.to_string()))?;
        self.due = false;
        Ok(match mv {
            KalahMove::House(h) => {
                self.sent = Some(mv);
                AgentMessage::Move(h)
            }
            KalahMove::Swap => {
                self.pos = next;
                self.side = self.side.map(Side::opponent);
                self.swapped = true;
                AgentMessage::Swap
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_STATE: &str = "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0";

    /// A state that differs from the replay is reported in the protocol's order, North
    /// first, as the referee writes it (not in this library's South-first slot order).
    #[test]
    fn a_state_mismatch_is_shown_in_the_protocols_order() {
        let mut s = Session::new();
        s.receive("START;North").unwrap();
        // South's house 1 from the start, as in `good_messages`, with one count wrong.
        let e = s
            .receive("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,9,0;YOU")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("which has 7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1 (North's houses 1..7 and store, then South's"),
            "{e}"
        );
    }

    /// A control character the referee sent is escaped in the message (one line of
    /// printable text), and the error keeps the line as it came.
    #[test]
    fn control_characters_of_a_bad_line_are_escaped_in_its_message() {
        let e = parse_message("START;South\0").unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains("`START;South\\0`"), "{shown}");
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(matches!(e, ProtocolError::Malformed { ref line, .. } if line == "START;South\0"));
        let mut s = Session::new();
        s.receive("START;North").unwrap();
        let e = s.receive("START;\u{1b}South").unwrap_err().to_string();
        assert!(!e.chars().any(char::is_control), "{e:?}");
        let mut s = Session::new();
        let e = s.receive("END\t").unwrap_err().to_string();
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }

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

    #[test]
    fn printed_messages_read_back() {
        let msgs = [
            "START;South",
            "START;North",
            "END",
            "CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
            "CHANGE;7;0,0,0,0,0,0,0,50,0,0,0,0,0,0,0,48;END",
        ];
        for line in msgs {
            assert_eq!(parse_message(line).unwrap().to_string(), line);
        }
        assert_eq!(AgentMessage::Move(7).to_string(), "MOVE;7");
        assert_eq!(AgentMessage::Swap.to_string(), "SWAP");
    }

    #[test]
    fn the_session_follows_a_swap_and_refuses_bad_sends() {
        // The game of the module docs, as the swapper sees it (moves worked by hand there).
        let mut s = Session::new();
        assert_eq!(s.receive("START;North").unwrap().step, Step::Wait);
        assert!(matches!(
            s.send(KalahMove::House(1)),
            Err(ProtocolError::CannotSend { .. })
        ));
        let r = s
            .receive("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")
            .unwrap();
        assert_eq!(r.step, Step::Reply);
        assert_eq!(s.send(KalahMove::Swap).unwrap(), AgentMessage::Swap);
        assert_eq!(s.side(), Some(Side::South));
        let r = s
            .receive("CHANGE;1;0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1;OPP")
            .unwrap();
        assert_eq!(r.step, Step::Wait);
        let r = s
            .receive("CHANGE;2;0,0,9,9,9,9,9,2,1,9,8,8,8,8,8,1;YOU")
            .unwrap();
        assert_eq!(r.step, Step::Reply);
        // South's house 1 holds 1 seed; a swap is no longer offered.
        assert!(matches!(
            s.send(KalahMove::Swap),
            Err(ProtocolError::CannotSend { .. })
        ));
        assert_eq!(s.send(KalahMove::House(1)).unwrap(), AgentMessage::Move(1));
        assert_eq!(s.sent(), Some(KalahMove::House(1)));
        assert_eq!(s.receive("END").unwrap().step, Step::End);
    }
}

/// The README's example, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
