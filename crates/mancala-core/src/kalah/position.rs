//! The bit-packed Kalah position and its rules: sowing, extra turns, captures, the end of the
//! game, the pie-rule swap (`docs/rules/kalah.md`).
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

use thiserror::Error;

use super::rules::{KalahOption, KalahRules};
use super::tables::{lanes, TABLES};
use crate::game::{Game, MoveList, Outcome};
use crate::Side;

const OWN_IS_NORTH: u8 = 1;
const GAME_OVER: u8 = 1 << 1;
const SWAP_OFFERED: u8 = 1 << 2;
const FIRST_MOVE: u8 = 1 << 3;
const OPENING_TURN: u8 = 1 << 4;

/// One Kalah move: a house number 1..=m counted from the mover's left, or the pie-rule swap.
///
/// Notation: the house number (`3`) or `swap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KalahMove {
    /// Sow the seeds of the mover's house with this number (1-based, 1..=m).
    House(u8),
    /// The pie-rule swap (`docs/rules/kalah.md`, option `pie_rule`): the players exchange sides;
    /// the board and the side to move stay as they are.
    Swap,
}

impl fmt::Display for KalahMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KalahMove::House(h) => write!(f, "{h}"),
            KalahMove::Swap => f.write_str("swap"),
        }
    }
}

/// Why a move text could not be read (see [`KalahMove`]'s notation).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed move `{}`: expected a house number or `swap`", crate::Shortened(.0))]
pub struct MoveParseError(pub String);

impl core::str::FromStr for KalahMove {
    type Err = MoveParseError;

    /// Parses `swap` or a house number 1..=255 (whether the house exists on the board is
    /// checked when the move is played). Surrounding white space is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("swap") {
            return Ok(KalahMove::Swap);
        }
        if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveParseError(t.to_string()));
        }
        t.parse::<u8>()
            .map(KalahMove::House)
            .map_err(|_| MoveParseError(t.to_string()))
    }
}

/// Why a move was refused by [`KalahPosition::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalReason {
    /// The game is over: no move is legal.
    #[error("the game is over")]
    GameOver,
    /// The house number is not in 1..=m.
    #[error("house {house} does not exist: houses are numbered 1..={houses}")]
    NoSuchHouse {
        /// The number given.
        house: u8,
        /// m, the houses per row.
        houses: u8,
    },
    /// The house holds no seed.
    #[error("house {0} is empty")]
    EmptyHouse(u8),
    /// A swap outside the one moment the pie rule offers it.
    #[error("a swap is allowed only as North's first action, under the pie rule")]
    SwapNotOffered,
}

/// An illegal move: the reason, the move, and the position it was tried on (unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMove {
    /// Why the move is illegal.
    pub reason: IllegalReason,
    /// The refused move.
    pub mv: KalahMove,
    /// The position the move was tried on, as it was.
    pub position: KalahPosition,
}

/// Why a position could not be built or parsed. Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The text does not have the `<counts> <side> [swap]` shape.
    #[error("malformed position `{}`: expected `<2m+2 comma-separated counts> <S|N|-> [swap]`", crate::Shortened(.0))]
    Syntax(String),
    /// Not 2m + 2 slot counts for this board.
    #[error("a kalah({houses},·) position has {expected} slots (2m+2), got {got}")]
    SlotCount {
        /// m.
        houses: u8,
        /// 2m + 2.
        expected: usize,
        /// Counts given.
        got: usize,
    },
    /// A slot count that is not a number 0..=255.
    #[error(
        "slot {slot}: `{}` is not a seed count 0..=255",
        crate::Shortened(text)
    )]
    BadCount {
        /// 1-based slot number in notation order.
        slot: usize,
        /// The text found.
        text: String,
    },
    /// More than 255 seeds on the board.
    #[error("the position holds {0} seeds; at most 255 fit the board")]
    TooManySeeds(u32),
    /// A finished game (`-`) with seeds still in houses (the final sweep empties them).
    #[error("a finished position (`-`) must have every house empty after the final sweep")]
    SeedsAfterEnd,
    /// A game that should already have ended under these rules.
    #[error("this position cannot be reached with {side} to move: {why}")]
    ShouldHaveEnded {
        /// The side said to move.
        side: Side,
        /// Which end rule ends it.
        why: &'static str,
    },
    /// A `swap` token where the pie rule cannot offer one.
    #[error("`swap` is only offered under {} with North to move", KalahOption::PieRule.name())]
    SwapNotPossible,
}

/// A Kalah position: the board, its rules and whose move it is. `Copy`, 24 bytes, never
/// allocates. Build one with [`KalahPosition::start`], [`KalahPosition::new`] or
/// [`KalahPosition::parse`]; every constructor validates, so a position always obeys its rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KalahPosition {
    own: u64,
    opp: u64,
    rules: KalahRules,
    state: u8,
}

impl fmt::Debug for KalahPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KalahPosition({} | {})", self.rules, self)
    }
}

#[inline(always)]
fn byte(x: u64, lane: usize) -> u8 {
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

    /// Builds a position from its 2m + 2 slot counts in notation order
    /// (`S1 … Sm, S-store, N1 … Nm, N-store`), the side to move (`None` = game over) and
    /// whether a pie-rule swap is on offer.
    ///
    /// A position equal to the start setup (n in every house, empty stores, South to move)
    /// is taken as the start of the game: South's first move and opening turn (which matter
    /// under `no_first_move_bonus` and `pie_rule`). Notation cannot say that South is in the
    /// middle of an opening turn after an extra turn, so such a position, built here, no
    /// longer offers the swap; replay the game from the start to keep that state exactly.
    ///
    /// # Errors
    /// [`PositionError::SlotCount`], [`PositionError::TooManySeeds`] (over 255 seeds),
    /// [`PositionError::SeedsAfterEnd`], [`PositionError::ShouldHaveEnded`] (a row is empty
    /// where the end rule would have ended the game), [`PositionError::SwapNotPossible`].
    pub fn new(
        rules: KalahRules,
        slots: &[u8],
        to_move: Option<Side>,
        swap_offered: bool,
    ) -> Result<KalahPosition, PositionError> {
        let m = rules.houses() as usize;
        if slots.len() != 2 * m + 2 {
            return Err(PositionError::SlotCount {
                houses: rules.houses(),
                expected: 2 * m + 2,
                got: slots.len(),
            });
        }
        let total: u32 = slots.iter().map(|&s| u32::from(s)).sum();
        if total > super::rules::MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds(total));
        }
        let pack = |part: &[u8]| {
            part.iter()
                .enumerate()
                .fold(0u64, |b, (i, &s)| b | (u64::from(s) << (8 * i)))
        };
        let south = pack(&slots[..=m]);
        let north = pack(&slots[m + 1..]);
        let row = lanes(m);
        let south_empty = south & row == 0;
        let north_empty = north & row == 0;
        let mut pos = KalahPosition {
            own: south,
            opp: north,
            rules,
            state: 0,
        };
        match to_move {
            None => {
                if swap_offered {
                    return Err(PositionError::SwapNotPossible);
                }
                if !(south_empty && north_empty) {
                    return Err(PositionError::SeedsAfterEnd);
                }
                pos.state = GAME_OVER;
            }
            Some(side) => {
                if swap_offered && !(rules.has(KalahOption::PieRule) && side == Side::North) {
                    return Err(PositionError::SwapNotPossible);
                }
                let mover_empty = if side == Side::South {
                    south_empty
                } else {
                    north_empty
                };
                if rules.has(KalahOption::EndWhenNoMove) {
                    if mover_empty && !swap_offered {
                        return Err(PositionError::ShouldHaveEnded {
                            side,
                            why: "the game ends as soon as the side to move has no seed to sow",
                        });
                    }
                } else if south_empty || north_empty {
                    return Err(PositionError::ShouldHaveEnded {
                        side,
                        why: "the game ends as soon as a row is empty",
                    });
                }
                if side == Side::North {
                    pos = KalahPosition {
                        own: north,
                        opp: south,
                        rules,
                        state: OWN_IS_NORTH,
                    };
                }
                if swap_offered {
                    pos.state |= SWAP_OFFERED;
                }
                let start = KalahPosition::start(rules);
                if side == Side::South && pos.own == start.own && pos.opp == start.opp {
                    pos.state = start.state;
                }
            }
        }
        Ok(pos)
    }

    /// Parses the position notation of `docs/notation.md` ("Kalah positions"): `<2m+2
    /// comma-separated counts> <S|N|->` and, when a pie-rule swap is on offer, a trailing ` swap`.
    /// Never panics.
    ///
    /// # Errors
    /// [`PositionError::Syntax`] for the wrong shape, [`PositionError::BadCount`] for a count
    /// that is not 0..=255, and every error of [`KalahPosition::new`].
    pub fn parse(rules: KalahRules, text: &str) -> Result<KalahPosition, PositionError> {
        let syntax = || PositionError::Syntax(text.chars().take(200).collect());
        let mut fields = text.split_whitespace();
        let counts = fields.next().ok_or_else(syntax)?;
        let side = fields.next().ok_or_else(syntax)?;
        let swap = match fields.next() {
            None => false,
            Some("swap") => true,
            Some(_) => return Err(syntax()),
        };
        if fields.next().is_some() {
            return Err(syntax());
        }
        let to_move = match side {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            "-" => None,
            _ => return Err(syntax()),
        };
        let mut slots = [0u8; 16];
        let mut count = 0usize;
        for (i, t) in counts.split(',').enumerate() {
            let ok = !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
            let v = if ok { t.parse::<u8>().ok() } else { None };
            let v = v.ok_or_else(|| PositionError::BadCount {
                slot: i + 1,
                text: t.chars().take(20).collect(),
            })?;
            if i < 16 {
                slots[i] = v;
            }
            count = i + 1;
        }
        if count != 2 * rules.houses() as usize + 2 {
            return Err(PositionError::SlotCount {
                houses: rules.houses(),
                expected: 2 * rules.houses() as usize + 2,
                got: count,
            });
        }
        KalahPosition::new(rules, &slots[..count], to_move, swap)
    }

    /// The rules this position is played under.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> KalahRules {
        self.rules
    }

    #[inline(always)]
    fn m(&self) -> usize {
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
    /// and the database build (`egdb::build::Sow`); both are tested against this one.
    #[inline(always)]
    fn sow_const<const M: usize>(&self, h: usize) -> KalahPosition {
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
    fn finish_turn(self) -> KalahPosition {
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
fn lane_sum(x: u64) -> u32 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

impl fmt::Display for KalahPosition {
    /// The position notation of `docs/notation.md` ("Kalah positions"): counts, side (`S`, `N`,
    /// `-`), and ` swap` when offered.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.slots().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        match self.side_to_move() {
            Some(s) => write!(f, " {}", s.letter())?,
            None => f.write_str(" -")?,
        }
        if self.swap_offered() {
            f.write_str(" swap")?;
        }
        Ok(())
    }
}

impl Game for KalahPosition {
    type Move = KalahMove;
    type Error = IllegalMove;

    fn side_to_move(&self) -> Option<Side> {
        KalahPosition::side_to_move(self)
    }

    fn legal_moves(&self) -> MoveList<KalahMove> {
        KalahPosition::legal_moves(self)
    }

    fn play(&self, mv: KalahMove) -> Result<Self, IllegalMove> {
        KalahPosition::play(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        KalahPosition::outcome(self)
    }
}

/// Counts the sowing sequences of exactly `depth` plies from `pos` (an extra turn is its own
/// ply, a swap is a ply) that do not reach a finished game before ply `depth`
/// (`perft(pos, 0) == 1`). Every counted ply is played, the last one included.
///
/// Returns the number of leaf sequences. From the start of Kalah(6,4): perft(1) = 6,
/// perft(2) = 35.
#[must_use]
pub fn perft(pos: &KalahPosition, depth: u32) -> u64 {
    match pos.m() {
        1 => perft_const::<1>(pos, depth),
        2 => perft_const::<2>(pos, depth),
        3 => perft_const::<3>(pos, depth),
        4 => perft_const::<4>(pos, depth),
        5 => perft_const::<5>(pos, depth),
        6 => perft_const::<6>(pos, depth),
        _ => perft_const::<7>(pos, depth),
    }
}

fn perft_const<const M: usize>(pos: &KalahPosition, depth: u32) -> u64 {
    perft_inner::<M>(pos.own, pos.opp, pos.state, pos.rules, depth)
}

/// The perft recursion on the position's parts, so that children travel in registers.
fn perft_inner<const M: usize>(
    own: u64,
    opp: u64,
    state: u8,
    rules: KalahRules,
    depth: u32,
) -> u64 {
    let pos = KalahPosition {
        own,
        opp,
        rules,
        state,
    };
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let mut total = 0;
    let mut mask = pos.house_move_mask();
    if depth == 1 {
        // The last ply is played too: every child is computed in full and folded into a
        // checksum that the optimiser cannot see through.
        let mut check = 0u64;
        while mask != 0 {
            let child = pos.sow_const::<M>(mask.trailing_zeros() as usize);
            check ^= child.own.wrapping_add(child.opp) ^ u64::from(child.state);
            total += 1;
            mask &= mask - 1;
        }
        if pos.swap_offered() {
            let child = pos.swap_unchecked();
            check ^= child.own.wrapping_add(child.opp) ^ u64::from(child.state);
            total += 1;
        }
        core::hint::black_box(check);
        return total;
    }
    while mask != 0 {
        let c = pos.sow_const::<M>(mask.trailing_zeros() as usize);
        total += perft_inner::<M>(c.own, c.opp, c.state, rules, depth - 1);
        mask &= mask - 1;
    }
    if pos.swap_offered() {
        let c = pos.swap_unchecked();
        total += perft_inner::<M>(c.own, c.opp, c.state, rules, depth - 1);
    }
    total
}
