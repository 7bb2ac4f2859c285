//! The small trait that both games implement, so that generic code (perft, random play,
//! searches) can drive either of them.

use core::fmt;

use smallvec::SmallVec;

use crate::Side;

/// A list of moves, inline up to 16 entries (Kalah never has more than 8 legal moves, so
/// generating Kalah moves never allocates).
pub type MoveList<M> = SmallVec<[M; 16]>;

/// How a finished game ended, from the board's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// Final score, South minus North, in seeds (Kalah: store difference after the final
    /// sweep). Games scored only by win/loss (Bao la Kete) report +1 for a South win and −1
    /// for a North win.
    pub score: i32,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({:+})", self.score),
            None => write!(f, "draw ({:+})", self.score),
        }
    }
}

/// The rules-independent face of a game position.
///
/// Positions are small `Copy` values; [`Game::play`] returns a new position and never
/// allocates for Kalah.
pub trait Game: Copy + Eq + fmt::Debug + fmt::Display {
    /// A fully decided move of the game.
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
    /// The error `play` returns for a move that is not legal here.
    type Error: std::error::Error;

    /// The side to move, or `None` once the game is over.
    fn side_to_move(&self) -> Option<Side>;

    /// Every legal move once, in a deterministic order; empty once the game is over.
    fn legal_moves(&self) -> MoveList<Self::Move>;

    /// Plays `mv`, returning the new position; an illegal move is an error and `self` is
    /// unchanged (it is `Copy`, so the caller still holds it).
    ///
    /// # Errors
    /// The game's move error when `mv` is not one of [`Game::legal_moves`].
    fn play(&self, mv: Self::Move) -> Result<Self, Self::Error>;

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.side_to_move().is_none()
    }
}

/// Counts the move sequences of exactly `depth` plies from `pos` that do not reach a
/// finished game before their last ply (a finished game counts as a leaf only at the last
/// ply). Every counted ply is actually played. `perft(pos, 0) == 1`.
///
/// Returns a count of leaf nodes (move sequences). This generic version goes through
/// [`Game::legal_moves`] and [`Game::play`]; Kalah has a faster dedicated
/// [`crate::kalah::perft`].
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        let mut n = 0;
        for &mv in &moves {
            if pos.play(mv).is_ok() {
                n += 1;
            }
        }
        return n;
    }
    moves
        .iter()
        .filter_map(|&mv| pos.play(mv).ok())
        .map(|child| perft(&child, depth - 1))
        .sum()
}
