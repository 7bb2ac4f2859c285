//! The Oware move on the packed position: sowing with the precomputed tables of `tables.rs`
//! (OW-2), the capture chain (OW-3), the grand slam by option (OW-4), and the end rules that
//! depend on the position alone, checked after every move in the order of OW-6 (majority,
//! then no legal move).

use super::position::{lane_sum, turn_board, OwarePosition, MOVER_IS_NORTH};
use super::rules::{GrandSlam, Majority};
use super::tables::{lanes, opp_lanes, TABLES};

/// Sows the seeds of the mover's lane `k` (`k < H`) on the mover-relative houses `x`
/// (OW-2.1–OW-2.3); returns the houses after the sowing and the lane of the last seed
/// (OW-2.4). Constant work whatever the seed count: two table look-ups, a multiply and two
/// adds. With `k ≥ H` or an empty house the result is unspecified but never a panic.
#[inline(always)]
pub(super) fn sow_lanes<const H: usize>(x: u128, k: usize) -> (u128, usize) {
    // The mover's lanes are 0..H ≤ 8: the origin is in the low word.
    let k = k & 7;
    let origin = (x as u64) & (0xFF << (8 * k));
    let n = (origin >> (8 * k)) as usize;
    let cycle = 2 * H - 1;
    let (q, r) = if n < cycle {
        (0, n)
    } else {
        (n / cycle, n % cycle)
    };
    let mut y = x - u128::from(origin);
    y += TABLES.add[H][k][r & 15];
    if q != 0 {
        y += q as u128 * TABLES.lap[H][k];
    }
    (y, TABLES.last[H][k][r & 15] as usize)
}

/// The lanes of the capture chain (OW-3.1, OW-3.2) on the houses `y` after a sowing whose
/// last seed fell in lane `last`: from `last` down while the lane is in the opponent's row
/// (lanes H..2H−1) and holds 2 or 3 seeds; 0 when the last house is in the mover's row or
/// holds another count (OW-3.4).
#[inline(always)]
pub(super) fn chain_lanes<const H: usize>(y: u128, last: usize) -> u128 {
    if last < H {
        return 0;
    }
    let bytes = y.to_le_bytes();
    let last = last & 15;
    let mut i = last;
    while bytes[i].wrapping_sub(2) <= 1 {
        if i == H {
            // The chain reached the opponent's house 1 and stops there.
            return LANES[last + 1] & !LANES[H];
        }
        i -= 1;
    }
    // Lanes i + 1 ..= last (none when i = last).
    LANES[last + 1] & !LANES[i + 1]
}

/// `LANES[n]`: 0xFF in each of the lanes 0..n, n in 0..=16.
static LANES: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut n = 0;
    while n <= 16 {
        t[n] = lanes(n);
        n += 1;
    }
    t
};

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
        let (mut y, last) = sow_lanes::<H>(self.houses, k);
        let mover = usize::from(self.state & MOVER_IS_NORTH);
        let mut stores = self.stores;
        let mut captured = 0;
        let chain = chain_lanes::<H>(y, last);
        if chain != 0 {
            let grand_slam = y & opp_lanes(H) & !chain == 0;
            let take = if grand_slam {
                match self.rules.grand_slam() {
                    GrandSlam::None => 0,
                    GrandSlam::LeaveLast => chain & !(0xFFu128 << (8 * H)),
                    GrandSlam::All | GrandSlam::Forbidden | GrandSlam::UnlessOnly => chain,
                }
            } else {
                chain
            };
            captured = lane_sum(y & take);
            y &= !take;
            // At most 255 seeds in all: a store never overflows.
            stores[mover] = stores[mover].wrapping_add(captured as u8);
        }
        let mut next = OwarePosition {
            houses: turn_board(y, H),
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

    /// Whether sowing the mover's lane `k` is a grand slam (OW-4.1): its capture chain is not
    /// empty and every opponent house outside it is empty after the sowing.
    #[inline(always)]
    pub(super) fn is_grand_slam_const<const H: usize>(&self, k: usize) -> bool {
        let (y, last) = sow_lanes::<H>(self.houses, k);
        let chain = chain_lanes::<H>(y, last);
        chain != 0 && y & opp_lanes(H) & !chain == 0
    }

    /// Whether sowing the mover's lane `k`, with a grand slam capturing its whole chain,
    /// leaves the opponent's row empty (an eradicating move, OW-5.3).
    #[inline(always)]
    pub(super) fn eradicates_const<const H: usize>(&self, k: usize) -> bool {
        let (y, last) = sow_lanes::<H>(self.houses, k);
        let chain = chain_lanes::<H>(y, last);
        y & opp_lanes(H) & !chain == 0
    }

    /// The mover's houses as a `u8` mask of non-empty houses (bit i − 1 for house i).
    #[inline(always)]
    pub(super) fn own_nonempty<const H: usize>(&self) -> u8 {
        super::position::nonzero_lanes(self.houses & lanes(H))
    }
}
