//! The history rules of Oware (OW-10.2): repetition (OW-6.2) and the move limit (OW-6.4).
//!
//! The position stays history-free: it says which history rules its rule set has
//! ([`OwarePosition::history_rules`]) and what the finished position is when one of them ends
//! the game here ([`OwarePosition::end_by`]); a game record counts the occurrences of each
//! position (the start or set-up position counts once, OW-9.3) and the plies, and calls
//! `end_by` when the position after a move has occurred `repetition` times or `move_limit`
//! plies have been played. Because the captured counts are part of the position, only
//! positions since the last capture can repeat.

use super::position::OwarePosition;
use crate::game::{HistoryEnd, HistoryRules};

impl OwarePosition {
    /// The history rules of this position's rule set (OW-10.2): `repetition` (2..=9 or
    /// `None`, OW-6.2) and `move_limit` (plies, 1..=65535 or `None`, OW-6.4).
    #[must_use]
    pub fn history_rules(&self) -> HistoryRules {
        HistoryRules {
            repetition: self.rules.repetition(),
            move_limit: self.rules.move_limit(),
        }
    }

    /// Both captured counts together, in seeds (OW-1.4). It only grows along a game (OW-3),
    /// so a position after a capture differs from every position before it (OW-6.2).
    #[must_use]
    pub fn captured_total(&self) -> u16 {
        u16::from(self.stores[0]) + u16::from(self.stores[1])
    }

    /// The finished position (side `-`) when a history rule ends the game at `self`:
    ///
    /// * [`HistoryEnd::Repetition`] (OW-6.2): under `cycle_score=own_row` each player takes
    ///   the seeds in his row; under `split` the seeds stay in the houses and half of them
    ///   are credited to each player ([`OwarePosition::final_half_seeds`], OW-9.4);
    /// * [`HistoryEnd::MoveLimit`] (OW-6.4): each player takes the seeds in his row.
    ///
    /// A position that is already over is returned as it is: the position-only end rules
    /// come first (OW-6: majority before repetition, no legal move before the move limit).
    #[must_use]
    pub fn end_by(&self, end: HistoryEnd) -> OwarePosition {
        if self.is_over() {
            return *self;
        }
        match end {
            HistoryEnd::Repetition => self.finished_by_cycle(),
            HistoryEnd::MoveLimit => self.finished_by_rows(),
        }
    }
}
