//! Bao la Kete has no exact values here: no database ([`NoDatabase`]), no exact solver.

use mancala_core::bao::BaoPosition;

use super::ExactGame;
use crate::egdb::NoDatabase;

impl ExactGame for BaoPosition {
    type Database = NoDatabase<BaoPosition>;

    /// Every seed of the game is on the board or in a reserve: 64.
    fn house_seeds(&self) -> u32 {
        self.total_seeds()
    }

    /// Bao la Kete stores no seeds: a game is won or lost.
    fn stored_margin(&self) -> i32 {
        0
    }
}
