//! Togyz Kumalak has no exact values here yet: no database ([`NoDatabase`]), no exact solver.

use mancala_core::togyz::TogyzPosition;
use mancala_core::Side;

use super::ExactGame;
use crate::egdb::NoDatabase;

impl ExactGame for TogyzPosition {
    type Database = NoDatabase<TogyzPosition>;

    /// The kumalaks in both rows.
    fn house_seeds(&self) -> u32 {
        self.row_total(Side::South) + self.row_total(Side::North)
    }

    /// The mover's kazan minus the opponent's; South's minus North's once the game is over.
    fn stored_margin(&self) -> i32 {
        let me = self.side_to_move().unwrap_or(Side::South);
        i32::from(self.kazan(me)) - i32::from(self.kazan(me.opponent()))
    }
}
