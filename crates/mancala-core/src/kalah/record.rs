//! Game records: a start position and the list of moves played from it, with the players'
//! sides tracked through a pie-rule swap (`docs/notation.md`, "Kalah moves and game records").

use thiserror::Error;

use super::error::{IllegalMove, MoveParseError};
use super::moves::KalahMove;
use super::position::KalahPosition;
use super::rules::KalahRules;
use crate::Side;

/// The two players of a game, by turn order: the first player starts as South.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who started the game as South.
    First,
    /// The player who started the game as North.
    Second,
}

/// Why a game record could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// A move text that is neither a house number nor `swap`; `index` is 1-based.
    #[error("move {index}: {source}")]
    Parse {
        /// 1-based index of the move in the record.
        index: usize,
        /// The parse error.
        source: MoveParseError,
    },
    /// A move that is not legal where it was played; `index` is 1-based.
    #[error("move {index}: {source}")]
    Illegal {
        /// 1-based index of the move in the record.
        index: usize,
        /// The refused move and its reason.
        source: IllegalMove,
    },
}

/// Parses a game record: moves separated by commas and/or white space, each a house number or
/// `swap` (`3,6,1,swap`). Whether each move is legal is checked by [`KalahGame::replay`].
///
/// # Errors
/// [`RecordError::Parse`] naming the first malformed move.
pub fn parse_moves(text: &str) -> Result<Vec<KalahMove>, RecordError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            t.parse::<KalahMove>().map_err(|source| RecordError::Parse {
                index: i + 1,
                source,
            })
        })
        .collect()
}

/// A game in progress: every position from the start, the moves between them, and which
/// player holds which side (they change places at a pie-rule swap).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KalahGame {
    positions: Vec<KalahPosition>,
    moves: Vec<KalahMove>,
    swapped: bool,
}

impl KalahGame {
    /// A new game from the start position of `rules`.
    #[must_use]
    pub fn new(rules: KalahRules) -> KalahGame {
        KalahGame::from_position(KalahPosition::start(rules))
    }

    /// A game that starts at `start` (any valid position).
    #[must_use]
    pub fn from_position(start: KalahPosition) -> KalahGame {
        KalahGame {
            positions: vec![start],
            moves: Vec::new(),
            swapped: false,
        }
    }

    /// Replays `moves` from `start`.
    ///
    /// # Errors
    /// [`RecordError::Illegal`] naming the first illegal move (1-based).
    pub fn replay(start: KalahPosition, moves: &[KalahMove]) -> Result<KalahGame, RecordError> {
        let mut game = KalahGame::from_position(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|source| RecordError::Illegal {
                index: i + 1,
                source,
            })?;
        }
        Ok(game)
    }

    /// Plays `mv` on the current position.
    ///
    /// # Errors
    /// [`IllegalMove`] when `mv` is not legal; the game is unchanged.
    pub fn play(&mut self, mv: KalahMove) -> Result<&KalahPosition, IllegalMove> {
        let next = self.position().play(mv)?;
        if mv == KalahMove::Swap {
            self.swapped = !self.swapped;
        }
        self.positions.push(next);
        self.moves.push(mv);
        Ok(self.position())
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        match self.moves.pop() {
            Some(mv) => {
                self.positions.pop();
                if mv == KalahMove::Swap {
                    self.swapped = !self.swapped;
                }
                true
            }
            None => false,
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &KalahPosition {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// Every position from the start, the current one last (one more than [`Self::moves`]).
    #[must_use]
    pub fn positions(&self) -> &[KalahPosition] {
        &self.positions
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[KalahMove] {
        &self.moves
    }

    /// Which side `player` plays now (the first player is South until a swap).
    #[must_use]
    pub fn side_of(&self, player: Player) -> Side {
        match (player, self.swapped) {
            (Player::First, false) | (Player::Second, true) => Side::South,
            _ => Side::North,
        }
    }

    /// Which player plays `side` now.
    #[must_use]
    pub fn player_on(&self, side: Side) -> Player {
        if self.side_of(Player::First) == side {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Whether a swap has been played.
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.swapped
    }
}
