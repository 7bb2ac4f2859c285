//! The Kalah move rules on the packed position: sowing (with the precomputed tables of
//! `tables.rs`), the extra turn, the capture, and the end of the game with its sweep
//! (`docs/rules/kalah.md`, "A move" and "End of the game").

use super::position::{
    byte, KalahPosition, FIRST_MOVE, GAME_OVER, OPENING_TURN, OWN_IS_NORTH, SWAP_OFFERED,
};
use super::rules::{KalahOption, KalahRules};
use super::tables::{lanes, TABLES};

impl KalahPosition {
    /// Sows the mover's house `h` (0-based, `h < m`, non-empty): every move but the swap.
    /// Constant work per move, whatever the seed count: three table look-ups and a few word
    /// operations (`tables.rs`). Same contract as [`KalahPosition::play_unchecked`].
    #[inline]
    #[must_use]
    pub fn sow_unchecked(&self, h: usize) -> KalahPosition {
        match self.m() {
            1 => self.sow_const::<1>(h),
            2 => self.sow_const::<2>(h),
            3 => self.sow_const::<3>(h),
            4 => self.sow_const::<4>(h),
            5 => self.sow_const::<5>(h),
            6 => self.sow_const::<6>(h),
            _ => self.sow_const::<7>(h),
        }
    }

    /// [`KalahPosition::sow_unchecked`] for a board of `M` houses a row, known at compile time
    /// so that every mask and divisor is a constant. `M` must equal `self.rules().houses()`.
    ///
    /// The reference Kalah sowing kernel. `mancala-solver` has two more, specialised for the
    /// exact search (`board::Geometry::play`, the houses in one `u128` seen from the mover)
    /// and the database build (`egdb::build::sow::Sow`); both are tested against this one.
    #[inline(always)]
    pub(super) fn sow_const<const M: usize>(&self, h: usize) -> KalahPosition {
        debug_assert_eq!(M, self.m());
        let h = h & 7;
        let seeds = byte(self.own, h) as usize;
        let l = 2 * M + 1;
        let (q, r) = if seeds < l {
            (0, seeds)
        } else {
            (seeds / l, seeds % l)
        };
        let mut own = self.own & !(0xFFu64 << (8 * h));
        let mut opp = self.opp;
        own += TABLES.own_add[M][h][r & 15];
        opp += TABLES.opp_add[M][h][r & 15];
        if q != 0 {
            let ones = super::tables::ones(M);
            own += q as u64 * (ones | (1 << (8 * M)));
            opp += q as u64 * ones;
        }
        let last = TABLES.last[M][h][r & 15] as usize;
        let mut state = self.state & !(FIRST_MOVE | SWAP_OFFERED);
        let mut again = false;
        if last == M {
            // Extra turn (rule 2), except South's very first move under no_first_move_bonus.
            again = self.state & FIRST_MOVE == 0 || !self.rules.has(KalahOption::NoFirstMoveBonus);
        } else if last < M && byte(own, last) == 1 {
            // The last seed fell into an own house that was empty before it (rule 3).
            let facing = M - 1 - last;
            let taken = byte(opp, facing);
            if taken != 0 || self.rules.has(KalahOption::EmptyCapture) {
                own &= !(0xFFu64 << (8 * last));
                opp &= !(0xFFu64 << (8 * facing));
                own += (u64::from(taken) + 1) << (8 * M);
            }
        }
        let next = if again {
            KalahPosition {
                own,
                opp,
                rules: self.rules,
                state,
            }
        } else {
            state ^= OWN_IS_NORTH;
            if state & OPENING_TURN != 0 {
                // South's complete first turn is over: North may swap once (pie_rule).
                state = (state & !OPENING_TURN) | SWAP_OFFERED;
            }
            KalahPosition {
                own: opp,
                opp: own,
                rules: self.rules,
                state,
            }
        };
        next.finish_turn_const::<M>()
    }

    /// Applies the end-of-game rule after a move (`docs/rules/kalah.md`, "End of the game" and the
    /// `end_when_no_move` / `discard_remaining` options) on a board of `M` houses a row.
    #[inline(always)]
    fn finish_turn_const<const M: usize>(self) -> KalahPosition {
        self.finish_turn_rows(lanes(M))
    }

    /// [`Self::finish_turn_const`] for the board size of the rules (after a swap).
    #[inline(always)]
    pub(super) fn finish_turn(self) -> KalahPosition {
        self.finish_turn_rows(lanes(self.m()))
    }

    /// The end-of-game rule, given the mask `row` of the house lanes of one half.
    #[inline(always)]
    fn finish_turn_rows(mut self, row: u64) -> KalahPosition {
        let own_row = self.own & row;
        let opp_row = self.opp & row;
        let ended = if self.rules.has(KalahOption::EndWhenNoMove) {
            own_row == 0 && self.state & SWAP_OFFERED == 0
        } else {
            own_row == 0 || opp_row == 0
        };
        if ended {
            self.end_game();
        }
        self
    }

    #[inline(always)]
    fn end_game(&mut self) {
        let (own, opp) = end_game_halves(self.own, self.opp, self.state, self.rules);
        self.own = own;
        self.opp = opp;
        self.state = GAME_OVER;
    }
}

/// The final sweep (`docs/rules/kalah.md`, "End of the game"): each row's seeds go to its owner's
/// store, or nowhere under `discard_remaining`; returns the `(own, opp)` halves re-oriented so that
/// `own` is South's. Kept out of line (games end once) and on scalars, so that the hot sowing
/// path keeps its position in registers.
#[cold]
#[inline(never)]
fn end_game_halves(mut own: u64, mut opp: u64, state: u8, rules: KalahRules) -> (u64, u64) {
    let m = rules.houses() as usize;
    let row = lanes(m);
    let own_row = own & row;
    let opp_row = opp & row;
    own &= !row;
    opp &= !row;
    if !rules.has(KalahOption::DiscardRemaining) {
        own += u64::from(lane_sum(own_row)) << (8 * m);
        opp += u64::from(lane_sum(opp_row)) << (8 * m);
    }
    if state & OWN_IS_NORTH != 0 {
        (opp, own)
    } else {
        (own, opp)
    }
}

/// Sum of the 8 lanes of `x`, which must total at most 255 (true of every board half), so
/// no byte of the product overflows.
#[inline(always)]
pub(super) fn lane_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}
