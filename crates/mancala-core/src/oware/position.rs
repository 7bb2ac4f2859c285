//! The bit-packed Oware position: its state, what can be read from it, legality checks,
//! `play` and the result (`docs/rules/oware.md`). Sowing, capture, grand slam and the end
//! rules after a move are in `sow.rs`, the legal-move rules in `legal.rs`, the notation in
//! [`super::notation`], unvalidated positions in [`super::layout`], the history rules in
//! [`super::history`].
//!
//! # Bit layout
//!
//! The houses of the two rows are kept **from the side to move's point of view** in two
//! `u64`s of eight 8-bit lanes each (lane k = bits 8k..8k+7):
//!
//! ```text
//!         lane:  7 … h              | h−1 … 0
//!   own:         (unused, always 0) | the mover's houses h … 1
//!   opp:         (unused, always 0) | the opponent's houses h … 1
//! ```
//!
//! Each player numbers his houses from his own left, so the sowing circuit (OW-1.3) seen
//! from either side is own lanes 0 … h−1, then opp lanes 0 … h−1, then own lane 0 again; the
//! mover's house i (own lane i − 1) faces the opponent's house h + 1 − i (opp lane h − i).
//! Passing the turn swaps `own` and `opp` (no data moves). Once the game is over `own` is
//! South's row.
//!
//! Next to the houses: the two captured counts (`stores`, indexed by [`Side::index`]), the
//! 8-byte [`OwareRules`], a state byte (bit 0: the side to move is North; bit 1: the game is
//! over) and the mask of legal moves of the side to move (bit i − 1 for house i, 0 once the
//! game is over), computed when the position is made so that move generation is a read. An
//! [`OwarePosition`] is 32 bytes (28 used).
//!
//! Every count is at most 255 because a position never holds more than 255 seeds (OW-8.1,
//! checked by [`OwareRules`] and by parsing), so lane-wise additions never carry from one lane
//! into the next.

use core::fmt;

use super::error::{IllegalMove, IllegalReason};
use super::moves::OwareMove;
use super::rules::{CycleScore, GrandSlam, Majority, OwareRules};
use super::tables::ones;
use crate::game::{MoveList, Outcome};
use crate::Side;

pub(super) const MOVER_IS_NORTH: u8 = 1;
pub(super) const GAME_OVER: u8 = 1 << 1;

/// Calls `$body` with `$H` a `const usize` equal to the board size `$h` (1..=8; anything
/// else is treated as 8, which a valid [`OwareRules`] never gives).
macro_rules! with_houses {
    ($h:expr, $H:ident => $body:expr) => {
        match $h {
            1 => {
                const $H: usize = 1;
                $body
            }
            2 => {
                const $H: usize = 2;
                $body
            }
            3 => {
                const $H: usize = 3;
                $body
            }
            4 => {
                const $H: usize = 4;
                $body
            }
            5 => {
                const $H: usize = 5;
                $body
            }
            6 => {
                const $H: usize = 6;
                $body
            }
            7 => {
                const $H: usize = 7;
                $body
            }
            _ => {
                const $H: usize = 8;
                $body
            }
        }
    };
}
pub(super) use with_houses;

/// An Oware position: the houses, both captured counts, the rules and whose move it is.
/// `Copy`, 32 bytes, never allocates, history-free (the repetition and move-limit rules are
/// applied by a game record through [`OwarePosition::history_rules`] and
/// [`OwarePosition::end_by`]). Build one with [`OwarePosition::start`],
/// [`OwarePosition::new`], [`OwarePosition::parse`] or from an [`super::OwareLayout`]; every
/// constructor validates, so a position always obeys its rules.
///
/// ```
/// use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
/// use mancala_core::Side;
///
/// let rules: OwareRules = "awari".parse()?;
/// // South's house 6 holds one seed, North's houses 1 and 6 hold 1 and 2 (the notation:
/// // S1..S6, South's captures, N1..N6, North's captures, the side to move).
/// let p = OwarePosition::parse(rules, "0,0,0,0,0,1,0,1,0,0,0,0,2,0 S")?;
/// assert_eq!(p.legal_moves().as_slice(), &[OwareMove(6)]);
/// // The seed lands in N1, which then holds 2: South captures them (OW-5.1).
/// let q = p.play(OwareMove(6))?;
/// assert_eq!(q.to_string(), "0,0,0,0,0,0,2,0,0,0,0,0,2,0 N");
/// assert_eq!((q.store(Side::South), q.house(Side::North, 6)), (2, Some(2)));
/// assert_eq!(q.side_to_move(), Some(Side::North));
/// // A house that is empty, or past the sixth, is not a move.
/// assert!(p.play(OwareMove(1)).is_err() && p.play(OwareMove(7)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OwarePosition {
    pub(super) own: u64,
    pub(super) opp: u64,
    pub(super) rules: OwareRules,
    pub(super) stores: [u8; 2],
    pub(super) state: u8,
    pub(super) moves: u8,
}

impl fmt::Debug for OwarePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OwarePosition({} | {})", self.rules, self)
    }
}

/// The count of lane `lane` (0..8) of `x`.
#[inline(always)]
pub(super) const fn byte(x: u64, lane: usize) -> u8 {
    (x >> (8 * (lane & 7))) as u8
}

/// The sum of the 8 lanes of `x`, which must total at most 255 (true of every row: at most
/// 255 seeds in all), so no byte of the product overflows.
#[inline(always)]
pub(super) const fn lane_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Whether the captured counts `stores` reach the majority of OW-6.1 in a game of `total`
/// seeds: one of them over half of the total, or both equal to half of it, rounded down.
#[inline(always)]
pub(super) const fn majority_of(stores: [u8; 2], total: u32) -> bool {
    let (a, b) = (stores[0] as u32, stores[1] as u32);
    2 * a > total || 2 * b > total || (a == total / 2 && b == total / 2)
}

/// Bit i set iff lane i of `x` is non-zero.
#[inline(always)]
pub(super) const fn nonzero_lanes(x: u64) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    // The high bit of each lane: set iff the lane is non-zero (its low seven bits plus 127
    // carry into it, or it was set already); no carry leaves a lane.
    let high = ((x & LOW7).wrapping_add(LOW7) | x) & !LOW7;
    ((high >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

impl OwarePosition {
    /// The start position (OW-1.2): s seeds in every house, empty stores, South to move; or,
    /// when South has no legal move there (only under `grand_slam=forbidden` on the smallest
    /// boards: `awari(1,1)+grand_slam=forbidden`, whose one move is a grand slam), the game
    /// already over by OW-6.3, each player taking the seeds of his row.
    #[must_use]
    pub fn start(rules: OwareRules) -> OwarePosition {
        let row = ones(rules.houses() as usize) * u64::from(rules.seeds());
        let mut pos = OwarePosition {
            own: row,
            opp: row,
            rules,
            stores: [0, 0],
            state: 0,
            moves: 0,
        };
        pos.moves = pos.compute_legal_mask();
        if pos.moves == 0 {
            return pos.finished_by_rows();
        }
        pos
    }

    /// The rules this position is played under.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> OwareRules {
        self.rules
    }

    #[inline(always)]
    pub(super) const fn h(&self) -> usize {
        self.rules.houses() as usize
    }

    /// The side to move, `None` once the game is over.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Option<Side> {
        if self.state & GAME_OVER != 0 {
            None
        } else if self.state & MOVER_IS_NORTH != 0 {
            Some(Side::North)
        } else {
            Some(Side::South)
        }
    }

    /// Whether the game is over (side `-`).
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.state & GAME_OVER != 0
    }

    /// `(south, north)`: each side's row, houses 1..h in lanes 0..h−1.
    #[inline(always)]
    pub(super) const fn rows(&self) -> (u64, u64) {
        if self.state & MOVER_IS_NORTH != 0 {
            (self.opp, self.own)
        } else {
            (self.own, self.opp)
        }
    }

    /// The houses in absolute order, as one number: lane k (bits 8k..8k+7) holds South's
    /// house k + 1 for k < h and North's house k − h + 1 for h ≤ k < 2h (the sowing circuit
    /// of OW-1.3, from S1); lanes 2h..16 are 0.
    #[must_use]
    pub const fn board_bits(&self) -> u128 {
        let (south, north) = self.rows();
        south as u128 | (north as u128) << (8 * self.h())
    }

    /// The houses seen from the side to move, as one number: the mover's houses 1..h in lanes
    /// 0..h−1, the opponent's in lanes h..2h−1 (the sowing circuit from the mover's house 1).
    /// Once the game is over, South's view. For searches and databases (OW-10.4 writes boards
    /// mover first).
    #[inline]
    #[must_use]
    pub const fn mover_relative(&self) -> u128 {
        self.own as u128 | (self.opp as u128) << (8 * self.h())
    }

    /// `side`'s row, houses 1..h in lanes 0..h−1.
    #[inline(always)]
    fn row(&self, side: Side) -> u64 {
        let (south, north) = self.rows();
        if side == Side::South {
            south
        } else {
            north
        }
    }

    /// Seeds in `side`'s house `house` (1-based, from that side's left), or `None` for a
    /// house number outside 1..=h.
    #[must_use]
    pub fn house(&self, side: Side, house: u8) -> Option<u8> {
        (1..=self.rules.houses())
            .contains(&house)
            .then(|| byte(self.row(side), house as usize - 1))
    }

    /// `side`'s houses 1..=h, seeds each.
    #[must_use]
    pub fn houses(&self, side: Side) -> MoveList<u8> {
        let row = self.row(side);
        (0..self.h()).map(|i| byte(row, i)).collect()
    }

    /// `side`'s captured count, the seeds in his store (OW-1.4).
    #[inline]
    #[must_use]
    pub const fn store(&self, side: Side) -> u8 {
        self.stores[side.index()]
    }

    /// All 2h + 2 counts in notation order (OW-9.1): `S1 … Sh, S-captured, N1 … Nh,
    /// N-captured`.
    #[must_use]
    pub fn counts(&self) -> MoveList<u8> {
        let mut out = self.houses(Side::South);
        out.push(self.stores[0]);
        out.extend(self.houses(Side::North));
        out.push(self.stores[1]);
        out
    }

    /// Seeds still in the houses of both rows.
    #[inline]
    #[must_use]
    pub const fn seeds_in_houses(&self) -> u32 {
        lane_sum(self.own) + lane_sum(self.opp)
    }

    /// The total T of the position (OW-1.2, OW-9.3): seeds in houses and stores together;
    /// it never changes in a game.
    #[inline]
    #[must_use]
    pub const fn total_seeds(&self) -> u32 {
        self.seeds_in_houses() + self.stores[0] as u32 + self.stores[1] as u32
    }

    /// Whether the majority of OW-6.1 is reached: a captured count over half of T, or both
    /// equal to ⌊T/2⌋. Checked whatever the `majority` option says.
    #[must_use]
    pub const fn majority_reached(&self) -> bool {
        majority_of(self.stores, self.total_seeds())
    }

    /// A bit mask of the legal moves (bit i − 1 for house i, OW-5); 0 once the game is over.
    #[inline]
    #[must_use]
    pub const fn legal_move_mask(&self) -> u8 {
        self.moves
    }

    /// Every legal move once, houses in increasing order (OW-5); empty once the game is
    /// over. Never allocates.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<OwareMove> {
        let mut list = MoveList::new();
        let mut mask = self.moves;
        while mask != 0 {
            list.push(OwareMove(mask.trailing_zeros() as u8 + 1));
            mask &= mask - 1;
        }
        list
    }

    /// Calls `f(move, child)` for every legal move and the position it leads to, in the order
    /// of [`OwarePosition::legal_moves`]. The board size is dispatched once, not once per
    /// move: the fastest way to expand a position (searches, perft).
    #[inline]
    pub fn for_each_child(&self, mut f: impl FnMut(OwareMove, OwarePosition)) {
        with_houses!(self.h(), H => {
            let mut mask = self.moves;
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                f(OwareMove(k as u8 + 1), self.sow_const::<H>(k));
                mask &= mask - 1;
            }
        });
    }

    /// Whether `mv` is legal here, and if not why (OW-5).
    ///
    /// # Errors
    /// The [`IllegalReason`] that [`OwarePosition::play`] would report.
    pub fn check(&self, mv: OwareMove) -> Result<(), IllegalReason> {
        let house = mv.house();
        if self.is_over() {
            return Err(IllegalReason::GameOver);
        }
        if house == 0 || house > self.rules.houses() {
            return Err(IllegalReason::NoSuchHouse {
                house,
                houses: self.rules.houses(),
            });
        }
        if self.moves & (1 << (house - 1)) != 0 {
            return Ok(());
        }
        if byte(self.own, house as usize - 1) == 0 {
            return Err(IllegalReason::EmptyHouse(house));
        }
        let opp_empty = self.opp == 0;
        Err(match self.rules.grand_slam() {
            GrandSlam::UnlessOnly => IllegalReason::Eradicates(house),
            GrandSlam::Forbidden if !opp_empty || self.feeds(house as usize - 1) => {
                IllegalReason::GrandSlam(house)
            }
            _ => IllegalReason::MustFeed(house),
        })
    }

    /// Whether sowing the mover's lane `k` puts a seed in the opponent's row (OW-2.5: from
    /// house i a move feeds iff n ≥ h − i + 1).
    #[inline(always)]
    pub(super) const fn feeds(&self, k: usize) -> bool {
        byte(self.own, k) as usize + k >= self.h()
    }

    /// Plays a legal move and returns the new position, with every end rule that depends on
    /// the position alone applied (OW-6.1, OW-6.3); `self` is left as it was. The history
    /// rules (OW-6.2, OW-6.4) are the game record's ([`OwarePosition::end_by`]).
    ///
    /// # Errors
    /// [`IllegalMove`] (with the reason and this unchanged position) when the game is over,
    /// the house does not exist or is empty, or OW-5 forbids it (must feed, forbidden grand
    /// slam, eradicating move under `unless_only`).
    pub fn play(&self, mv: OwareMove) -> Result<OwarePosition, IllegalMove> {
        match self.check(mv) {
            Ok(()) => Ok(self.play_unchecked(mv)),
            Err(reason) => Err(IllegalMove {
                reason,
                mv,
                position: *self,
            }),
        }
    }

    /// Plays `mv` without checking it: the fast path for searches that take their moves from
    /// [`OwarePosition::legal_moves`] or [`OwarePosition::legal_move_mask`].
    ///
    /// Contract: `mv` must be legal ([`OwarePosition::check`] is `Ok`). For any other move
    /// the result is some unspecified position that may break the rules (seeds may vanish);
    /// never undefined behaviour and never a panic in release builds. Debug builds assert
    /// legality.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, mv: OwareMove) -> OwarePosition {
        debug_assert!(self.check(mv).is_ok(), "illegal move {mv} on {self}");
        let k = usize::from(mv.house().wrapping_sub(1) & 7);
        with_houses!(self.h(), H => self.sow_const::<H>(k))
    }

    /// `side`'s final count in half seeds once the game is over (OW-6.5, OW-9.4): twice his
    /// captured count, plus, when the seeds left in houses are split (a `split` repetition
    /// end: seeds in houses unless `majority=stop` and the majority is reached), the seeds
    /// left (half of them each, in half seeds). `None` while the game goes on.
    #[must_use]
    pub fn final_half_seeds(&self, side: Side) -> Option<u32> {
        if !self.is_over() {
            return None;
        }
        let left = self.seeds_in_houses();
        let nobody = self.rules.majority() == Majority::Stop && self.majority_reached();
        let credited = if nobody { 0 } else { left };
        Some(2 * u32::from(self.stores[side.index()]) + credited)
    }

    /// The result once the game is over (OW-6.5): the winner (more seeds, store plus any
    /// credited split) and the score, South's final seeds minus North's. A split credits both
    /// players alike, so the score is the store difference, an integer. `None` while the game
    /// goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let score = i32::from(self.stores[0]) - i32::from(self.stores[1]);
        let winner = match score.signum() {
            1 => Some(Side::South),
            -1 => Some(Side::North),
            _ => None,
        };
        Some(Outcome { winner, score })
    }

    /// The legal-move mask of this position, from the board (OW-5); 0 when the game is over.
    pub(super) fn compute_legal_mask(&self) -> u8 {
        if self.is_over() {
            return 0;
        }
        with_houses!(self.h(), H => self.legal_mask_const::<H>())
    }

    /// The position as finished (side `-`), the houses turned to South's view, the seeds left
    /// where they are.
    pub(super) fn finished(mut self) -> OwarePosition {
        (self.own, self.opp) = self.rows();
        self.state = GAME_OVER;
        self.moves = 0;
        self
    }

    /// The position finished with each row's seeds added to its owner's store (OW-6.1
    /// `collect`, OW-6.2 `own_row`, OW-6.3, OW-6.4).
    pub(super) fn finished_by_rows(self) -> OwarePosition {
        let mut p = self.finished();
        // At most 255 seeds in all: a store never overflows (wrapping only after an illegal
        // `play_unchecked`, whose result is unspecified).
        p.stores[0] = p.stores[0].wrapping_add(lane_sum(p.own) as u8);
        p.stores[1] = p.stores[1].wrapping_add(lane_sum(p.opp) as u8);
        p.own = 0;
        p.opp = 0;
        p
    }

    /// The finished position of a repetition end (OW-6.2) by `cycle_score`.
    pub(super) fn finished_by_cycle(self) -> OwarePosition {
        match self.rules.cycle_score() {
            CycleScore::OwnRow => self.finished_by_rows(),
            CycleScore::Split => self.finished(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_32_bytes_and_thread_safe() {
        fn traits<T: Copy + Send + Sync + core::hash::Hash + 'static>() {}
        traits::<OwarePosition>();
        assert_eq!(core::mem::size_of::<OwarePosition>(), 32);
    }

    #[test]
    fn lane_helpers() {
        assert_eq!(lane_sum(0x0F0F_0F0F_0F0F_0F0F), 120);
        assert_eq!(nonzero_lanes(0x00_05_00_00_01_00_00_FF), 0b0100_1001);
        assert_eq!(nonzero_lanes(0x80_7F_01_00_00_00_00_00), 0b1110_0000);
        assert_eq!(nonzero_lanes(0), 0);
    }
}
