//! The Togyz Kumalak evaluation (`docs/rules/togyz-kumalak.md`; rule ids TK-n.m), for every
//! Togyz Kumalak rule set.
//!
//! Scores are in hundredths of a kumalak ([`SEED`]) for the player to move. A finished game
//! is worth `SEED` × its final score (the mover's kazan minus the opponent's, TK-6.5). The
//! heuristic value of a position whose game goes on is the sum of:
//!
//! * **kazans** — `SEED` × (mover's kazan − opponent's): kumalaks never leave a kazan, so this
//!   is the running score;
//! * **tuzdyk** — for each side that owns one, `SEED` × (2 + kumalaks still in the houses /
//!   18), positive for the mover's: a tuzdyk feeds its owner's kazan with every kumalak
//!   sown into it for the rest of the game (TK-4.4), so it is worth more the more kumalaks
//!   are left to sow;
//! * **kumalaks in the rows** — `SEED / 8` × (kumalaks in the mover's houses − in the
//!   opponent's): when a player is left without a kumalak the other takes his own row
//!   (TK-6.1), and kumalaks at home are the moves a player has in hand;
//! * **exposed houses** — `SEED / 4` × (opponent's houses holding an odd count − mover's): one
//!   more kumalak makes an odd house even, which is what a capture takes (TK-3.1).
//!
//! The weights are set by hand, as those of the other games, and checked by the matches of
//! `BENCHMARKS.md`. The move limit is a history rule and not seen by this evaluation; the
//! search's depth and time limits bound every search, also in positions that can cycle
//! forever (TK-6.6).

use core::hash::{Hash, Hasher};

use mancala_core::togyz::TogyzPosition;
use mancala_core::Side;

use super::eval::{Evaluate, MixHasher, SEED};

/// The terms of one side: (kazan, kumalaks in its houses, houses with an odd count, whether
/// it owns a tuzdyk).
fn side_terms(p: &TogyzPosition, side: Side) -> (i32, i32, i32, bool) {
    let h = p.rules().houses();
    let odd = (1..=h).filter(|&i| p.house(side, i) % 2 == 1).count() as i32;
    (
        i32::from(p.kazan(side)),
        p.row_total(side) as i32,
        odd,
        p.tuzdyk(side).is_some(),
    )
}

impl Evaluate for TogyzPosition {
    fn evaluate(&self) -> i32 {
        let Some(me) = self.side_to_move() else {
            return 0;
        };
        let (kazan, row, odd, tuzdyk) = side_terms(self, me);
        let (o_kazan, o_row, o_odd, o_tuzdyk) = side_terms(self, me.opponent());
        let left = row + o_row;
        let tuzdyk_worth = SEED * 2 + SEED * left / 18;
        SEED * (kazan - o_kazan)
            + tuzdyk_worth * (i32::from(tuzdyk) - i32::from(o_tuzdyk))
            + SEED / 8 * (row - o_row)
            + SEED / 4 * (o_odd - odd)
    }

    fn final_value(&self, side: Side) -> i32 {
        let score = self.outcome().map_or(0, |o| o.score);
        match side {
            Side::South => SEED * score,
            Side::North => -SEED * score,
        }
    }

    fn hash_key(&self) -> u64 {
        let mut h = MixHasher(0x6a09_e667_f3bc_c909);
        self.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::togyz::{TogyzMove, TogyzRules};

    /// TK-12 X14: South's 8 captures 4 in N1, reaching 82 of 162: the game ends 82–69, so the
    /// finished position is worth +13 kumalaks to South.
    #[test]
    fn a_finished_game_is_worth_its_final_score() {
        let p = TogyzPosition::parse(
            TogyzRules::default(),
            "2,0,0,0,0,0,1,3,0,78,3,3,0,2,0,1,0,0,0,69 -,- S",
        )
        .unwrap();
        let end = p.play(TogyzMove(8)).unwrap();
        assert!(end.is_over());
        assert_eq!(end.final_value(Side::South), 13 * SEED);
        assert_eq!(end.final_value(Side::North), -13 * SEED);
    }

    /// The start is symmetric: every term is 0.
    #[test]
    fn the_start_is_even() {
        assert_eq!(TogyzPosition::start(TogyzRules::default()).evaluate(), 0);
    }

    /// A tuzdyk is worth more than the 3 kumalaks it took: X5's mover (South) made one; seen
    /// from North, to move next, the position is worse than the kazans alone say.
    #[test]
    fn a_tuzdyk_counts_beyond_its_kumalaks() {
        let p = TogyzPosition::parse(
            TogyzRules::default(),
            "5,4,6,3,2,8,7,1,6,40,6,3,5,2,7,1,4,9,3,40 -,- S",
        )
        .unwrap();
        let next = p.play(TogyzMove(6)).unwrap();
        assert_eq!(next.tuzdyk(Side::South), Some(4));
        let kazans =
            SEED * (i32::from(next.kazan(Side::North)) - i32::from(next.kazan(Side::South)));
        assert!(next.evaluate() < kazans - SEED, "{}", next.evaluate());
    }
}
