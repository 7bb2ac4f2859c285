//! The Oware evaluation (`docs/rules/oware.md`; rule ids OW-n.m), for every Oware rule set.
//!
//! Scores are in hundredths of a seed ([`SEED`]) for the player to move. A finished game is
//! worth `SEED` × its final score (the mover's seeds minus the opponent's: captured counts
//! plus the allotment of the seeds left, OW-6.5, where an even split of a cycle cancels out).
//! The heuristic value of a position whose game goes on is the sum of:
//!
//! * **captured seeds** — `SEED` × (mover's store − opponent's store): captured seeds never
//!   return (OW-3), so this is the running score;
//! * **seeds in the rows** — `SEED / 4` × (seeds in the mover's houses − seeds in the
//!   opponent's): at the ends by no legal move, repetition (own rows) and the move limit each
//!   player takes the seeds of his row (OW-6.2, OW-6.3, OW-6.4), and seeds at home keep the
//!   mover able to feed; left out where they count for nobody (`majority=stop` reached, which
//!   ends the game) or are split (`cycle_score=split` does not change this term: the split
//!   applies to endless play only);
//! * **exposed houses** — `SEED / 2` × (opponent's houses holding 1 or 2 seeds − mover's):
//!   a house of 1 or 2 becomes 2 or 3 with one more seed and is what a capture takes (OW-3.1).
//!
//! The weights are set by hand, as those of Kalah and Bao la Kete, and checked by the matches
//! of `BENCHMARKS.md`. History rules (repetition, move limit) are not part of a position and
//! not seen by this evaluation.

use mancala_core::oware::OwarePosition;
use mancala_core::Side;

use core::hash::{Hash, Hasher};

use super::eval::{Evaluate, MixHasher, SEED};

/// The terms of one side: (store, seeds in its houses, houses holding 1 or 2 seeds).
fn side_terms(p: &OwarePosition, side: Side) -> (i32, i32, i32) {
    let houses = p.houses(side);
    let seeds: i32 = houses.iter().map(|&s| i32::from(s)).sum();
    let exposed = houses.iter().filter(|&&s| s == 1 || s == 2).count() as i32;
    (i32::from(p.store(side)), seeds, exposed)
}

impl Evaluate for OwarePosition {
    fn evaluate(&self) -> i32 {
        let Some(me) = self.side_to_move() else {
            return 0;
        };
        let (store, seeds, exposed) = side_terms(self, me);
        let (o_store, o_seeds, o_exposed) = side_terms(self, me.opponent());
        SEED * (store - o_store) + SEED / 4 * (seeds - o_seeds) + SEED / 2 * (o_exposed - exposed)
    }

    fn final_value(&self, side: Side) -> i32 {
        let score = self.outcome().map_or(0, |o| o.score);
        match side {
            Side::South => SEED * score,
            Side::North => -SEED * score,
        }
    }

    fn hash_key(&self) -> u64 {
        let mut h = MixHasher(0x2545_f491_4f6c_dd1d);
        self.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::oware::OwareRules;

    /// X12 of the rules (majority, oware): South's move 6 captures 2 (N1 = 1 + 1), reaching
    /// 26 of 48: the game ends, 26–13, so the finished position is worth +13 seeds to South.
    #[test]
    fn a_finished_game_is_worth_its_final_score() {
        let p = OwarePosition::parse(OwareRules::OWARE, "0,0,0,0,0,1,24,1,1,3,5,0,0,13 S").unwrap();
        let end = p.play(mancala_core::oware::OwareMove(6)).unwrap();
        assert!(end.is_over());
        assert_eq!(end.final_value(Side::South), 13 * SEED);
        assert_eq!(end.final_value(Side::North), -13 * SEED);
    }

    /// The start is symmetric: every term is 0.
    #[test]
    fn the_start_is_even() {
        assert_eq!(OwarePosition::start(OwareRules::OWARE).evaluate(), 0);
    }
}
