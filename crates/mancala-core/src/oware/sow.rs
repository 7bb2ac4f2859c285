//! The Oware move on the packed position: sowing with the precomputed tables of `tables.rs`
//! (OW-2), the capture chain (OW-3), the grand slam by option (OW-4), and the end rules that
//! depend on the position alone, checked after every move in the order of OW-6 (majority,
//! then no legal move).

use super::position::{byte, lane_sum, majority_of, nonzero_lanes, OwarePosition, MOVER_IS_NORTH};
use super::rules::{GrandSlam, Majority};
use super::tables::{sowing_row, SOWINGS};

/// Sows the seeds of the mover's lane `k` (`k < H`) on the mover-relative rows `own`, `opp`
/// (OW-2.1–OW-2.3); returns both rows after the sowing and its last house (OW-2.4).
/// Constant work whatever the seed count: one [`SOWINGS`] entry and two adds. With `k ≥ H`
/// or an empty house the result is unspecified but never a panic.
#[inline(always)]
pub(super) fn sow_lanes<const H: usize>(own: u64, opp: u64, k: usize) -> (u64, u64, LastHouse) {
    let k = k & 7;
    let n = byte(own, k) as usize;
    let s = &SOWINGS[(sowing_row(H) + k) * 256 + n];
    let last = LastHouse {
        fe: s.last_fe,
        two: s.last_two,
    };
    (own.wrapping_add(s.own), opp.wrapping_add(s.opp), last)
}

/// The last house of a sowing, as the masks of [`crate::oware::tables::Sowing`]: `fe` 0xFE
/// in the opponent's lane of the last seed (0 when it fell in the mover's row), `two` 0x02
/// in that lane (1 when it fell in the mover's row).
#[derive(Clone, Copy)]
pub(super) struct LastHouse {
    fe: u64,
    two: u64,
}

impl LastHouse {
    /// Whether the opponent's row `opp` after the sowing has a capture chain: the last seed
    /// fell in it and that house holds 2 or 3 (OW-3.1). Two word operations.
    #[inline(always)]
    fn captures(self, opp: u64) -> bool {
        opp & self.fe == self.two
    }

    /// The opponent's lanes 0 up to that of the last seed (only when it fell in his row).
    #[inline(always)]
    fn upto(self) -> u64 {
        self.fe | self.fe.wrapping_sub(1)
    }

    /// The capture chain of the opponent's row `opp` after the sowing (see
    /// [`chain_lanes`]); 0 when there is none.
    #[inline(always)]
    fn chain(self, opp: u64) -> u64 {
        if self.captures(opp) {
            chain_lanes(opp, self.upto())
        } else {
            0
        }
    }
}

/// The lanes of the opponent's row in the capture chain (OW-3.1, OW-3.2) after a sowing whose
/// last seed fell in the opponent's lane `top`, `upto` being his lanes 0..=top (0 when the
/// last seed fell in the mover's row): from lane `top` down while the house holds 2 or 3
/// seeds, never past his house 1 (lane 0); 0 when the last house is in the mover's row or
/// holds another count (OW-3.4).
///
/// Without a branch on the counts (whether the last seed fell in the opponent's row, and on
/// how many seeds, is a coin toss for the branch predictor): the lanes that stop a chain
/// (neither 2 nor 3 seeds) are found all at once, and the chain is the lanes above the
/// highest stopping lane at or below the last house.
#[inline(always)]
pub(super) fn chain_lanes(opp: u64, upto: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A lane of `odd` is 0 iff it holds 2 or 3.
    let odd = (opp ^ 0x0202_0202_0202_0202) & 0xFEFE_FEFE_FEFE_FEFE;
    // The high bit of each lane that holds anything but 2 or 3.
    let stops = ((odd & LOW7).wrapping_add(LOW7) | odd) & HIGH;
    // Lanes 0..=i, i the highest stopping lane at or below `top` (none: 0).
    let below = u64::MAX
        .checked_shr((stops & upto).leading_zeros())
        .unwrap_or(0);
    upto & !below
}

/// A move played by [`OwarePosition::leaf_const`], seen from the side that played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Leaf {
    /// The mover's row after the move.
    pub(super) own: u64,
    /// The opponent's row after the move.
    pub(super) opp: u64,
    /// The captured counts after the move, South's in the low byte.
    pub(super) stores: u16,
    /// Whether the move reached the majority of OW-6.1 (`majority` not `off`): the game is
    /// over.
    pub(super) majority: bool,
}

impl OwarePosition {
    /// Plays the mover's lane `k` (house k + 1, `k < H`) on a board of `H` houses a side,
    /// known at compile time so that every mask and divisor is a constant. `H` must equal
    /// `self.rules().houses()`. Same contract as [`OwarePosition::play_unchecked`].
    ///
    /// The move (OW-2, OW-3, OW-4): sow; if the last house is the opponent's and holds 2 or
    /// 3, the chain is captured, unless it is a grand slam (every other opponent house empty,
    /// OW-4.1), which captures nothing under `none`, all but the opponent's house 1 under
    /// `leave_last`, and the whole chain otherwise (`all`, `unless_only`; under `forbidden`
    /// the move is illegal). Then the turn passes (OW-3.5) and the end rules apply.
    #[inline(always)]
    pub(super) fn sow_const<const H: usize>(&self, k: usize) -> OwarePosition {
        debug_assert_eq!(H, self.h());
        let (own, opp, last) = sow_lanes::<H>(self.own, self.opp, k);
        let (opp, captured) = self.capture(opp, last);
        let stores = self.bank(captured).to_le_bytes();
        // The turn passes: the opponent's row becomes the mover's.
        let mut next = OwarePosition {
            own: opp,
            opp: own,
            rules: self.rules,
            stores,
            state: self.state ^ MOVER_IS_NORTH,
            moves: 0,
        };
        // OW-6.1: the majority can only be reached by a capture (a playable position has not
        // reached it, and the total never changes).
        if captured != 0 && self.rules.majority() != Majority::Off && next.majority_reached() {
            return match self.rules.majority() {
                Majority::Collect => next.finished_by_rows(),
                _ => next.finished(),
            };
        }
        // OW-6.3: no legal move for the side to move now.
        next.moves = next.legal_mask_const::<H>();
        if next.moves == 0 {
            return next.finished_by_rows();
        }
        next
    }

    /// The capture after a sowing, `opp` the opponent's row after it and `last` its last
    /// house (OW-3, OW-4): the chain is taken, unless it is a grand slam (every other
    /// opponent house empty, OW-4.1), which takes nothing under `none`, all but the
    /// opponent's house 1 under `leave_last`, and the whole chain otherwise. Returns the
    /// opponent's row after the capture and the seeds taken. The chain is worked out only
    /// when the last house holds 2 or 3.
    #[inline(always)]
    fn capture(&self, mut opp: u64, last: LastHouse) -> (u64, u32) {
        let mut captured = 0;
        if last.captures(opp) {
            // Not empty: the last house is in it.
            let chain = chain_lanes(opp, last.upto());
            let grand_slam = opp & !chain == 0;
            let take = if grand_slam {
                match self.rules.grand_slam() {
                    GrandSlam::None => 0,
                    GrandSlam::LeaveLast => chain & !0xFF,
                    GrandSlam::All | GrandSlam::Forbidden | GrandSlam::UnlessOnly => chain,
                }
            } else {
                chain
            };
            captured = lane_sum(opp & take);
            opp &= !take;
        }
        (opp, captured)
    }

    /// The captured counts after the mover captures `captured` seeds, South's in the low
    /// byte. At most 255 seeds in all: a store never overflows (the mover's count is added
    /// as one 16-bit word, so that the stores stay in a register).
    #[inline(always)]
    fn bank(&self, captured: u32) -> u16 {
        let shift = 8 * u32::from(self.state & MOVER_IS_NORTH);
        u16::from_le_bytes(self.stores).wrapping_add((captured as u16) << shift)
    }

    /// The last ply of perft: the mover's lane `k` played as [`OwarePosition::sow_const`]
    /// plays it (sowing, capture, grand slam, stores, and the majority of OW-6.1 checked
    /// after a capture, `total` being [`OwarePosition::total_seeds`]), without what only a
    /// position that is played on needs: the next side's legal moves (and with them the end
    /// of OW-6.3 when there are none) and a finished position's final form. That is the
    /// work a plain-array perft does at its leaves, which never generates a leaf's moves.
    #[inline(always)]
    pub(super) fn leaf_const<const H: usize>(&self, k: usize, total: u32) -> Leaf {
        debug_assert_eq!(H, self.h());
        let (own, opp, last) = sow_lanes::<H>(self.own, self.opp, k);
        let (opp, captured) = self.capture(opp, last);
        let stores = self.bank(captured);
        // Only the mover's count changed, and a playable position has not reached the
        // majority (OW-6.1): it is reached only if the mover now has at least half of the
        // total, rounded down, which is rare, so the full test is mostly skipped.
        let mover_store = u32::from(stores >> (8 * (self.state & MOVER_IS_NORTH))) & 0xFF;
        let majority = captured != 0
            && self.rules.majority() != Majority::Off
            && mover_store >= total / 2
            && majority_of(stores.to_le_bytes(), total);
        Leaf {
            own,
            opp,
            stores,
            majority,
        }
    }

    /// Whether sowing the mover's lane `k` is a grand slam (OW-4.1): its capture chain is not
    /// empty and every opponent house outside it is empty after the sowing.
    #[inline(always)]
    pub(super) fn is_grand_slam_const<const H: usize>(&self, k: usize) -> bool {
        let (_, opp, last) = sow_lanes::<H>(self.own, self.opp, k);
        let chain = last.chain(opp);
        chain != 0 && opp & !chain == 0
    }

    /// Whether sowing the mover's lane `k`, with a grand slam capturing its whole chain,
    /// leaves the opponent's row empty (an eradicating move, OW-5.3).
    #[inline(always)]
    pub(super) fn eradicates_const<const H: usize>(&self, k: usize) -> bool {
        let (_, opp, last) = sow_lanes::<H>(self.own, self.opp, k);
        opp & !last.chain(opp) == 0
    }

    /// The mover's non-empty houses as a mask (bit i − 1 for house i).
    #[inline(always)]
    pub(super) fn own_nonempty(&self) -> u8 {
        nonzero_lanes(self.own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oware::position::with_houses;
    use crate::oware::tables::lanes;

    /// The chain walked house by house, as OW-3.1 and OW-3.2 say: from the last house down
    /// the opponent's row while it holds 2 or 3 seeds.
    fn walked_chain(h: usize, opp: &[u8], last: usize) -> u64 {
        let mut chain = 0u64;
        if last >= h {
            let mut lane = last - h;
            while opp[lane] == 2 || opp[lane] == 3 {
                chain |= 0xFF << (8 * lane);
                if lane == 0 {
                    break;
                }
                lane -= 1;
            }
        }
        chain
    }

    fn chain_of(h: usize, opp: u64, last: usize) -> u64 {
        chain_lanes(opp, if last < h { 0 } else { lanes(last - h + 1) })
    }

    /// Every move of every position of random games under rule sets that cover every
    /// `grand_slam` and `majority` value and board sizes 1 to 8: the leaf sowing of perft is
    /// `sow_const`'s move up to the next side's legal moves and the finished form.
    #[test]
    fn leaf_const_plays_the_move_of_sow_const() {
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        let mut next_random = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let (mut moves, mut captures, mut majorities) = (0usize, 0usize, 0usize);
        for name in [
            "oware",
            "awari",
            "oware-openspiel",
            "oware+grand_slam=forbidden",
            "oware+grand_slam=all+majority=collect",
            "oware+grand_slam=leave_last",
            "oware+grand_slam=unless_only+majority=off",
            "awari(1,4)",
            "awari(3,2)",
            "oware(4,3)+grand_slam=all",
            "oware(5,5)+majority=collect",
            "oware(7,2)+grand_slam=leave_last",
            "oware(8,3)+grand_slam=unless_only",
        ] {
            let rules: crate::oware::OwareRules = name.parse().unwrap();
            for _ in 0..200 {
                let mut pos = OwarePosition::start(rules);
                // Perft applies no repetition end: a game may cycle, so at most 300 plies.
                for _ in 0..300 {
                    if pos.is_over() {
                        break;
                    }
                    let total = pos.total_seeds();
                    let mut mask = pos.moves;
                    while mask != 0 {
                        let k = mask.trailing_zeros() as usize;
                        mask &= mask - 1;
                        let (leaf, child) = with_houses!(pos.h(), H => (
                            pos.leaf_const::<H>(k, total),
                            pos.sow_const::<H>(k),
                        ));
                        let mut after = OwarePosition {
                            own: leaf.opp,
                            opp: leaf.own,
                            stores: leaf.stores.to_le_bytes(),
                            state: pos.state ^ MOVER_IS_NORTH,
                            moves: 0,
                            rules,
                        };
                        moves += 1;
                        captures += usize::from(leaf.stores.to_le_bytes() != pos.stores);
                        let expected = if leaf.majority {
                            majorities += 1;
                            match rules.majority() {
                                Majority::Collect => after.finished_by_rows(),
                                _ => after.finished(),
                            }
                        } else {
                            after.moves = after.compute_legal_mask();
                            if after.moves == 0 {
                                after.finished_by_rows()
                            } else {
                                after
                            }
                        };
                        assert_eq!(child, expected, "{name}: house {} of {pos}", k + 1);
                    }
                    let pick = next_random() % u64::from(pos.moves.count_ones());
                    let mut mask = pos.moves;
                    for _ in 0..pick {
                        mask &= mask - 1;
                    }
                    pos = pos
                        .play_unchecked(crate::oware::OwareMove(mask.trailing_zeros() as u8 + 1));
                }
            }
        }
        // The games reach what the leaf sowing does besides sowing.
        assert!(moves > 100_000 && captures > 10_000 && majorities > 1_000);
    }

    /// Every row of counts 0..=4 on every board size, every last house.
    #[test]
    fn chain_lanes_match_a_house_by_house_walk() {
        for h in 1..=8usize {
            for code in 0..5usize.pow(h as u32) {
                let mut opp = [0u8; 8];
                let mut c = code;
                for lane in opp.iter_mut().take(h) {
                    *lane = (c % 5) as u8;
                    c /= 5;
                }
                let packed = u64::from_le_bytes(opp);
                for last in 0..2 * h {
                    assert_eq!(
                        chain_of(h, packed, last),
                        walked_chain(h, &opp, last),
                        "h{h} {opp:?} last {last}"
                    );
                }
            }
        }
    }
}
