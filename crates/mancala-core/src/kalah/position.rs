//! The bit-packed Kalah position: its state, what can be read from it, its legal moves and
//! the pie-rule swap (`docs/rules/kalah.md`). The sowing, extra turn, capture and end rule
//! are in `sow.rs`, the notation in [`super::notation`], unvalidated positions in
//! [`super::layout`], perft in `perft.rs`, the errors in [`super::error`].
//!
//! # Bit layout
//!
//! The board is kept **from the mover's point of view** in two `u64`s of 8-bit lanes (lane k =
//! bits 8k..8k+7):
//!
//! ```text
//!        lane:  7        | m          | m−1 … 0
//!  own:        (unused)  | mover store | mover houses m … 1
//!  opp:        (unused)  | opp. store  | opponent houses m … 1   (each side numbers its own
//!                                                                   houses from its left)
//! ```
//!
//! The mover's house k (0-based lane k) faces the opponent's house m + 1 − (k + 1), lane
//! m − 1 − k. Passing the turn swaps `own` and `opp` (no data moves); a state bit says whether
//! `own` is North's. After the game ends the board is kept with `own` = South.
//!
//! Every seed count is at most 255 because a board never holds more than 255 seeds
//! (2·m·n ≤ 255, checked by [`KalahRules::new`] and by parsing), so adding seeds lane-wise can
//! never carry from one lane into the next.
//!
//! A [`KalahPosition`] is 24 bytes: `own` and `opp` (8 bytes each), the 3-byte
//! [`KalahRules`] and one state byte (whose row is `own`, game over, swap offered, first move,
//! South's opening turn), padded to 8-byte alignment.

use core::fmt;

use super::rules::{KalahOption, KalahRules};
use super::sow::lane_sum;
use super::tables::lanes;
use crate::game::{Game, GameKind, MoveList, Outcome};
use crate::Side;

use super::error::{IllegalMove, IllegalReason, MoveParseError};
use super::moves::KalahMove;

pub(super) const OWN_IS_NORTH: u8 = 1;
pub(super) const GAME_OVER: u8 = 1 << 1;
pub(super) const SWAP_OFFERED: u8 = 1 << 2;
pub(super) const FIRST_MOVE: u8 = 1 << 3;
pub(super) const OPENING_TURN: u8 = 1 << 4;

/// A Kalah position: the board, its rules and whose move it is. `Copy`, 24 bytes, never
/// allocates. Build one with [`KalahPosition::start`], [`KalahPosition::new`] or
/// [`KalahPosition::parse`]; every constructor validates, so a position always obeys its rules.
///
/// ```
/// use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
/// use mancala_core::Side;
///
/// let start = KalahPosition::start("standard".parse::<KalahRules>()?);
/// assert_eq!(start.legal_moves().len(), 6);
/// // South's 1: its 4 seeds go into S2..S5; North moves next.
/// let p = start.play(KalahMove::House(1))?;
/// assert_eq!(p.to_string(), "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N");
/// assert_eq!(p.side_to_move(), Some(Side::North));
/// assert_eq!((p.house(Side::South, 1), p.store(Side::South)), (Some(0), 0));
/// // The same position read back from its notation.
/// assert_eq!(KalahPosition::parse(start.rules(), &p.to_string())?, p);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KalahPosition {
    pub(super) own: u64,
    pub(super) opp: u64,
    pub(super) rules: KalahRules,
    pub(super) state: u8,
}

impl fmt::Debug for KalahPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KalahPosition({} | {})", self.rules, self)
    }
}

#[inline(always)]
pub(super) fn byte(x: u64, lane: usize) -> u8 {
    (x >> (8 * lane)) as u8
}

impl KalahPosition {
    /// The start position: n seeds in every house, empty stores, South to move.
    #[must_use]
    pub fn start(rules: KalahRules) -> KalahPosition {
        let m = rules.houses() as usize;
        let row = super::tables::ones(m) * u64::from(rules.seeds());
        let mut state = FIRST_MOVE;
        if rules.has(KalahOption::PieRule) {
            state |= OPENING_TURN;
        }
        KalahPosition {
            own: row,
            opp: row,
            rules,
            state,
        }
    }

    /// The rules this position is played under.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> KalahRules {
        self.rules
    }

    #[inline(always)]
    pub(super) fn m(&self) -> usize {
        self.rules.houses() as usize
    }

    /// `(south, north)` halves of the board: each side's houses 1..m in lanes 0..m−1 and its
    /// store in lane m.
    #[inline]
    fn halves(&self) -> (u64, u64) {
        if self.state & OWN_IS_NORTH != 0 {
            (self.opp, self.own)
        } else {
            (self.own, self.opp)
        }
    }

    /// The packed board in absolute notation order: lane k (bits 8k..8k+7) holds slot k + 1 of
    /// the notation (`S1 … Sm, S-store, N1 … Nm, N-store`).
    #[must_use]
    pub fn board_bits(&self) -> u128 {
        let m = self.m();
        let (south, north) = self.halves();
        u128::from(south) | (u128::from(north) << (8 * (m + 1)))
    }

    /// The mover-relative board `(own, opp)`: the side to move's houses 1..m in lanes 0..m−1
    /// and its store in lane m, and the same for the opponent (layout in the module docs).
    /// After the end of the game `own` is South's. For searches and databases.
    #[inline]
    #[must_use]
    pub const fn mover_relative(&self) -> (u64, u64) {
        (self.own, self.opp)
    }

    /// The side to move, `None` once the game is over.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Option<Side> {
        if self.state & GAME_OVER != 0 {
            None
        } else if self.state & OWN_IS_NORTH != 0 {
            Some(Side::North)
        } else {
            Some(Side::South)
        }
    }

    /// Whether the game is over.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.state & GAME_OVER != 0
    }

    /// Whether the side to move (North) may play the pie-rule swap now.
    #[inline]
    #[must_use]
    pub const fn swap_offered(&self) -> bool {
        self.state & SWAP_OFFERED != 0
    }

    /// Whether this is South's very first move of the game (`no_first_move_bonus` applies).
    #[inline]
    #[must_use]
    pub const fn is_first_move(&self) -> bool {
        self.state & FIRST_MOVE != 0
    }

    /// Whether South is still in the first turn of the game under `pie_rule` (the swap will
    /// be offered to North when this turn ends).
    #[inline]
    #[must_use]
    pub const fn in_opening_turn(&self) -> bool {
        self.state & OPENING_TURN != 0
    }

    fn half(&self, side: Side) -> u64 {
        let (south, north) = self.halves();
        match side {
            Side::South => south,
            Side::North => north,
        }
    }

    /// Seeds in `side`'s house `house` (1-based, from that side's left), or `None` for a house
    /// number outside 1..=m.
    #[must_use]
    pub fn house(&self, side: Side, house: u8) -> Option<u8> {
        (1..=self.rules.houses())
            .contains(&house)
            .then(|| byte(self.half(side), house as usize - 1))
    }

    /// Seeds in `side`'s store.
    #[inline]
    #[must_use]
    pub fn store(&self, side: Side) -> u8 {
        byte(self.half(side), self.m())
    }

    /// `side`'s houses 1..=m, seeds each.
    #[must_use]
    pub fn houses(&self, side: Side) -> MoveList<u8> {
        let h = self.half(side);
        (0..self.m()).map(|i| byte(h, i)).collect()
    }

    /// All 2m + 2 slot counts in notation order.
    #[must_use]
    pub fn slots(&self) -> MoveList<u8> {
        let m = self.m();
        let (south, north) = self.halves();
        (0..=m)
            .map(|i| byte(south, i))
            .chain((0..=m).map(|i| byte(north, i)))
            .collect()
    }

    /// Seeds still in the houses of both rows (not in a store).
    #[must_use]
    pub fn seeds_in_houses(&self) -> u32 {
        let row = lanes(self.m());
        lane_sum(self.own & row) + lane_sum(self.opp & row)
    }

    /// Seeds on the board, houses and stores.
    #[must_use]
    pub fn total_seeds(&self) -> u32 {
        lane_sum(self.own) + lane_sum(self.opp)
    }

    /// Store difference so far, South minus North, in seeds.
    #[must_use]
    pub fn store_difference(&self) -> i32 {
        i32::from(self.store(Side::South)) - i32::from(self.store(Side::North))
    }

    /// Store difference so far from the side to move's point of view (mover minus opponent),
    /// in seeds; South's view once the game is over.
    #[inline]
    #[must_use]
    pub fn mover_store_difference(&self) -> i32 {
        let m = self.m();
        i32::from(byte(self.own, m)) - i32::from(byte(self.opp, m))
    }

    /// A store-independent, mover-relative key: the mover's house lanes in bits 0..56, the
    /// opponent's in bits 64..120, and the opening-state flags (swap offered, first move,
    /// opening turn) in bits 120..128. The absolute side is left out: Kalah treats both sides
    /// alike, so two positions with equal keys under the same rules have the same future
    /// store difference from the mover's view, whatever their stores hold. Used by
    /// transposition tables and databases.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u128 {
        let row = lanes(self.m());
        u128::from(self.own & row)
            | (u128::from(self.opp & row) << 64)
            | (u128::from(self.state & (SWAP_OFFERED | FIRST_MOVE | OPENING_TURN)) << 120)
    }

    /// A bit mask of the mover's non-empty houses (bit h − 1 for house h); 0 when the game is
    /// over. The fast way to enumerate house moves.
    #[inline]
    #[must_use]
    pub fn house_move_mask(&self) -> u8 {
        if self.is_over() {
            return 0;
        }
        let mut x = self.own & lanes(self.m());
        // Fold each non-zero lane into its low bit, then gather the low bits.
        x |= x >> 4;
        x |= x >> 2;
        x |= x >> 1;
        x &= 0x0101_0101_0101_0101;
        (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    }

    /// Every legal move once: the mover's non-empty houses in increasing order, then `Swap`
    /// when the pie rule offers it. Empty once the game is over. Never allocates.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<KalahMove> {
        let mut list = MoveList::new();
        let mut mask = self.house_move_mask();
        while mask != 0 {
            list.push(KalahMove::House(mask.trailing_zeros() as u8 + 1));
            mask &= mask - 1;
        }
        if self.swap_offered() && !self.is_over() {
            list.push(KalahMove::Swap);
        }
        list
    }

    /// Calls `f(move, child)` for every legal move and the position it leads to, in the order
    /// of [`KalahPosition::legal_moves`]. The board size is dispatched once, not once per
    /// move, so this is the fastest way to expand a position (searches, perft).
    #[inline]
    pub fn for_each_child(&self, mut f: impl FnMut(KalahMove, KalahPosition)) {
        match self.m() {
            1 => self.children_const::<1>(&mut f),
            2 => self.children_const::<2>(&mut f),
            3 => self.children_const::<3>(&mut f),
            4 => self.children_const::<4>(&mut f),
            5 => self.children_const::<5>(&mut f),
            6 => self.children_const::<6>(&mut f),
            _ => self.children_const::<7>(&mut f),
        }
    }

    #[inline(always)]
    fn children_const<const M: usize>(&self, f: &mut impl FnMut(KalahMove, KalahPosition)) {
        let mut mask = self.house_move_mask();
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            f(KalahMove::House(h as u8 + 1), self.sow_const::<M>(h));
            mask &= mask - 1;
        }
        if self.swap_offered() && !self.is_over() {
            f(KalahMove::Swap, self.swap_unchecked());
        }
    }

    /// Whether `mv` is legal here, and if not why.
    ///
    /// # Errors
    /// The [`IllegalReason`] that `play` would report.
    pub fn check(&self, mv: KalahMove) -> Result<(), IllegalReason> {
        if self.is_over() {
            return Err(IllegalReason::GameOver);
        }
        match mv {
            KalahMove::Swap if self.swap_offered() => Ok(()),
            KalahMove::Swap => Err(IllegalReason::SwapNotOffered),
            KalahMove::House(h) if h == 0 || h > self.rules.houses() => {
                Err(IllegalReason::NoSuchHouse {
                    house: h,
                    houses: self.rules.houses(),
                })
            }
            KalahMove::House(h) => {
                if self.house_move_mask() & (1 << (h - 1)) == 0 {
                    Err(IllegalReason::EmptyHouse(h))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Plays a legal move and returns the new position; `self` is left as it was.
    ///
    /// # Errors
    /// [`IllegalMove`] (with the reason and this unchanged position) when the game is over,
    /// the house does not exist or is empty, or a swap is not on offer.
    pub fn play(&self, mv: KalahMove) -> Result<KalahPosition, IllegalMove> {
        match self.check(mv) {
            Ok(()) => Ok(self.play_unchecked(mv)),
            Err(reason) => Err(IllegalMove {
                reason,
                mv,
                position: *self,
            }),
        }
    }

    /// Plays `mv` without checking it: the fast path for searches that generate their own
    /// legal moves.
    ///
    /// Contract: `mv` must be legal ([`KalahPosition::check`] is `Ok`). Otherwise the result is
    /// an unspecified position (possibly one that breaks the rules) or a panic; never undefined
    /// behaviour. Debug builds assert legality.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, mv: KalahMove) -> KalahPosition {
        debug_assert!(self.check(mv).is_ok(), "illegal move {mv} on {self}");
        match mv {
            KalahMove::House(h) => self.sow_unchecked(h.wrapping_sub(1) as usize),
            KalahMove::Swap => self.swap_unchecked(),
        }
    }

    /// The pie-rule swap: the players change sides; board and side to move stay
    /// (`docs/rules/kalah.md`, `pie_rule`). Same contract as [`KalahPosition::play_unchecked`].
    #[must_use]
    pub fn swap_unchecked(&self) -> KalahPosition {
        let mut next = *self;
        next.state &= !(SWAP_OFFERED | OPENING_TURN | FIRST_MOVE);
        next.finish_turn()
    }

    /// The result once the game is over: winner (more seeds in store) and final store
    /// difference, South minus North, in seeds. `None` while the game goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let score = self.store_difference();
        let winner = match score.signum() {
            1 => Some(Side::South),
            -1 => Some(Side::North),
            _ => None,
        };
        Some(Outcome { winner, score })
    }

    /// Whether playing house move `mv` (from this position) gives the mover another move.
    /// `false` for a swap, an illegal move, or a move that ends the game.
    #[must_use]
    pub fn is_extra_turn(&self, mv: KalahMove) -> bool {
        match self.play(mv) {
            Ok(next) if mv != KalahMove::Swap => next.side_to_move() == self.side_to_move(),
            _ => false,
        }
    }
}

impl Game for KalahPosition {
    type Rules = KalahRules;
    type RulesError = super::RulesError;
    type Move = KalahMove;
    type MoveParseError = MoveParseError;
    type Error = IllegalMove;
    type PositionError = super::PositionError;
    type Drawing = super::KalahDrawing;

    const KIND: GameKind = GameKind::Kalah;
    const NOTATION_MAX_BYTES: usize = super::NOTATION_MAX_BYTES;

    fn start(rules: KalahRules) -> KalahPosition {
        KalahPosition::start(rules)
    }

    fn rules(&self) -> KalahRules {
        KalahPosition::rules(self)
    }

    fn parse(rules: KalahRules, text: &str) -> Result<KalahPosition, super::PositionError> {
        KalahPosition::parse(rules, text)
    }

    fn drawing(&self) -> super::KalahDrawing {
        KalahPosition::drawing(self)
    }

    fn side_to_move(&self) -> Option<Side> {
        KalahPosition::side_to_move(self)
    }

    fn legal_moves(&self) -> MoveList<KalahMove> {
        KalahPosition::legal_moves(self)
    }

    fn play(&self, mv: KalahMove) -> Result<Self, IllegalMove> {
        KalahPosition::play(self, mv)
    }

    fn play_unchecked(&self, mv: KalahMove) -> Self {
        KalahPosition::play_unchecked(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        KalahPosition::outcome(self)
    }

    fn is_over(&self) -> bool {
        KalahPosition::is_over(self)
    }

    /// The pie-rule swap exchanges the players; the side to move stays.
    fn swaps_players(&self, mv: KalahMove) -> bool {
        mv == KalahMove::Swap
    }

    /// The mover's store gains the seeds sown into it and the captured ones: the opposite
    /// house's seeds and the capturing seed, which was the mover's own
    /// (`docs/rules/kalah.md`). The seeds sown into the store follow from the house and its
    /// count alone: one a lap of 2m + 1 slots (the opponent's store skipped) once the sowing
    /// reaches it. `None` for the swap and for a move that ends the game (the sweep also goes
    /// into the stores).
    fn captured_seeds(&self, mv: KalahMove, next: &KalahPosition) -> Option<u32> {
        let KalahMove::House(h) = mv else {
            return None;
        };
        let side = self.side_to_move()?;
        if next.is_over() {
            return None;
        }
        let houses = u32::from(self.rules().houses());
        let seeds = u32::from(self.house(side, h)?);
        let to_store = (houses + 1).checked_sub(u32::from(h))?;
        let sown = if seeds >= to_store {
            1 + (seeds - to_store) / (2 * houses + 1)
        } else {
            0
        };
        let gain = u32::from(next.store(side)).checked_sub(u32::from(self.store(side)))?;
        Some(gain.saturating_sub(sown).saturating_sub(1))
    }
}
