//! The bit-packed Kalah position and its rules: sowing, extra turns, captures, the end of the
//! game, the pie-rule swap (`../shared/rules/kalah.md`).
//!
//! # Bit layout
//!
//! The 2m + 2 slots live in 8-bit lanes of one `u128`, in the counter-clockwise order of the
//! position notation (lane k = bits 8k..8k+7):
//!
//! ```text
//!  lane: 15 … 2m+2 | 2m+1    | 2m … m+1   | m       | m−1 … 0
//!  slot: (unused,0) | N store | N_m … N_1  | S store | S_m … S_1
//! ```
//!
//! Every seed count is at most 255 because a board never holds more than 255 seeds
//! (2·m·n ≤ 255, checked by [`KalahRules::new`] and by parsing), so adding seeds lane-wise can
//! never carry from one lane into the next. North's house i (lane m + i) faces South's house
//! m + 1 − i (lane m − i), so the lane opposite lane k is 2m − k for every house.
//!
//! A [`KalahPosition`] is 32 bytes: the `u128` board (16 bytes, 16-byte aligned), the
//! 3-byte [`KalahRules`] and one state byte (side to move, game over, swap offered, first
//! move, South's opening turn), padded to the `u128` alignment.

use core::fmt;

use thiserror::Error;

use super::rules::{KalahOption, KalahRules};
use super::tables::{lanes_mask, own_base, TABLES};
use crate::game::{Game, MoveList, Outcome};
use crate::Side;

const NORTH_TO_MOVE: u8 = 1;
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
    /// The pie-rule swap (`kalah.md`, option `pie_rule`): the players exchange sides; the
    /// board and the side to move stay as they are.
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
#[error("malformed move `{0}`: expected a house number or `swap`")]
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
    #[error("malformed position `{0}`: expected `<2m+2 comma-separated counts> <S|N|-> [swap]`")]
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
    #[error("slot {slot}: `{text}` is not a seed count 0..=255")]
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
    #[error("`swap` is only offered under pie_rule with North to move")]
    SwapNotPossible,
}

/// A Kalah position: the board, its rules and whose move it is. `Copy`, 32 bytes, never
/// allocates. Build one with [`KalahPosition::start`], [`KalahPosition::new`] or
/// [`KalahPosition::parse`]; every constructor validates, so a position always obeys its rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct KalahPosition {
    board: u128,
    rules: KalahRules,
    state: u8,
}

impl fmt::Debug for KalahPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KalahPosition({} | {})", self.rules, self)
    }
}

impl KalahPosition {
    /// The start position: n seeds in every house, empty stores, South to move.
    #[must_use]
    pub fn start(rules: KalahRules) -> KalahPosition {
        let m = rules.houses() as usize;
        let n = u128::from(rules.seeds());
        let ones = lanes_mask(0, m) / 0xFF; // one in each of lanes 0..m
        let board = n * (ones | (ones << (8 * (m + 1))));
        let mut state = FIRST_MOVE;
        if rules.has(KalahOption::PieRule) {
            state |= OPENING_TURN;
        }
        KalahPosition {
            board,
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
        let board = slots
            .iter()
            .enumerate()
            .fold(0u128, |b, (i, &s)| b | (u128::from(s) << (8 * i)));
        let mut pos = KalahPosition {
            board,
            rules,
            state: 0,
        };
        let south_empty = pos.row_bits(Side::South) == 0;
        let north_empty = pos.row_bits(Side::North) == 0;
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
                if rules.has(KalahOption::EndWhenNoMove) {
                    if pos.row_bits(side) == 0 && !swap_offered {
                        return Err(PositionError::ShouldHaveEnded {
                            side,
                            why: "end_when_no_move: the side to move has no seed to sow",
                        });
                    }
                } else if south_empty || north_empty {
                    return Err(PositionError::ShouldHaveEnded {
                        side,
                        why: "the game ends as soon as a row is empty",
                    });
                }
                if side == Side::North {
                    pos.state |= NORTH_TO_MOVE;
                }
                if swap_offered {
                    pos.state |= SWAP_OFFERED;
                }
                let start = KalahPosition::start(rules);
                if pos.board == start.board && side == Side::South {
                    pos.state = start.state;
                }
            }
        }
        Ok(pos)
    }

    /// Parses the position notation of `kalah.md`: `<2m+2 comma-separated counts> <S|N|->`
    /// and, when a pie-rule swap is on offer, a trailing ` swap`. Never panics.
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

    /// The raw packed board (layout in the module docs).
    #[inline]
    #[must_use]
    pub const fn board_bits(&self) -> u128 {
        self.board
    }

    #[inline(always)]
    fn m(&self) -> usize {
        self.rules.houses() as usize
    }

    #[inline(always)]
    fn lane(&self, lane: usize) -> u8 {
        (self.board >> (8 * lane)) as u8
    }

    /// The packed lanes of `side`'s houses (zero iff the row is empty).
    #[inline(always)]
    fn row_bits(&self, side: Side) -> u128 {
        let m = self.m();
        self.board & lanes_mask(own_base(m, side), m)
    }

    /// The side to move, `None` once the game is over.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Option<Side> {
        if self.state & GAME_OVER != 0 {
            None
        } else if self.state & NORTH_TO_MOVE != 0 {
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

    /// Seeds in `side`'s house `house` (1-based, from that side's left), or `None` for a house
    /// number outside 1..=m.
    #[must_use]
    pub fn house(&self, side: Side, house: u8) -> Option<u8> {
        let m = self.m();
        (1..=m as u8)
            .contains(&house)
            .then(|| self.lane(own_base(m, side) + house as usize - 1))
    }

    /// Seeds in `side`'s store.
    #[inline]
    #[must_use]
    pub fn store(&self, side: Side) -> u8 {
        let m = self.m();
        self.lane(own_base(m, side) + m)
    }

    /// `side`'s houses 1..=m, seeds each.
    #[must_use]
    pub fn houses(&self, side: Side) -> MoveList<u8> {
        let m = self.m();
        let base = own_base(m, side);
        (0..m).map(|i| self.lane(base + i)).collect()
    }

    /// All 2m + 2 slot counts in notation order.
    #[must_use]
    pub fn slots(&self) -> MoveList<u8> {
        (0..2 * self.m() + 2).map(|i| self.lane(i)).collect()
    }

    /// Seeds still in the houses of both rows (not in a store).
    #[must_use]
    pub fn seeds_in_houses(&self) -> u32 {
        let b = self.row_bits(Side::South) | self.row_bits(Side::North);
        lane_sum(b)
    }

    /// Seeds on the board, houses and stores.
    #[must_use]
    pub fn total_seeds(&self) -> u32 {
        lane_sum(self.board)
    }

    /// Store difference so far, South minus North, in seeds.
    #[must_use]
    pub fn store_difference(&self) -> i32 {
        i32::from(self.store(Side::South)) - i32::from(self.store(Side::North))
    }

    /// A store-independent key: the house lanes and the side to move (bit 127), plus the swap
    /// and opening flags. Two positions with equal keys have the same future under the same
    /// rules, whatever their stores hold; used by transposition tables and databases.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u128 {
        let m = self.m();
        let houses = self.board & (lanes_mask(0, m) | lanes_mask(m + 1, m));
        houses | (u128::from(self.state) << 120)
    }

    /// A bit mask of the mover's non-empty houses (bit h − 1 for house h); 0 when the game is
    /// over. The fast way to enumerate house moves.
    #[inline]
    #[must_use]
    pub fn house_move_mask(&self) -> u8 {
        if self.is_over() {
            return 0;
        }
        let m = self.m();
        let side = if self.state & NORTH_TO_MOVE != 0 {
            Side::North
        } else {
            Side::South
        };
        let row = self.row_bits(side) >> (8 * own_base(m, side));
        // Fold each non-zero lane into its low bit, then gather the low bits.
        let mut x = row as u64;
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
            KalahMove::Swap => {
                // The players change sides; board and side to move stay (kalah.md, pie_rule).
                let mut next = *self;
                next.state &= !(SWAP_OFFERED | OPENING_TURN | FIRST_MOVE);
                next.finish_turn()
            }
        }
    }

    /// Sows the mover's house `h` (0-based, `h < m`, non-empty): the whole of a move except
    /// the swap. Constant work per move: two table look-ups and a few word operations.
    #[inline]
    #[must_use]
    pub fn sow_unchecked(&self, h: usize) -> KalahPosition {
        let m = self.m();
        let side = if self.state & NORTH_TO_MOVE != 0 {
            Side::North
        } else {
            Side::South
        };
        let s_idx = side.index();
        let base = own_base(m, side);
        let origin = base + h;
        let seeds = self.lane(origin) as usize;
        let l = 2 * m + 1;
        let (q, r) = if seeds < l {
            (0, seeds)
        } else {
            (seeds / l, seeds % l)
        };
        let mut board = self.board & !(0xFFu128 << (8 * origin));
        board += (q as u128) * TABLES.full[m][s_idx] + TABLES.range[m][s_idx][h][r];
        let last = TABLES.last[m][s_idx][h][r] as usize;

        let mut next = KalahPosition {
            board,
            rules: self.rules,
            state: self.state,
        };
        let mut again = false;
        if last == m {
            // Extra turn (rule 2), except South's very first move under no_first_move_bonus.
            again =
                !(self.state & FIRST_MOVE != 0 && self.rules.has(KalahOption::NoFirstMoveBonus));
        } else if last < m {
            let lane = base + last;
            if (board >> (8 * lane)) as u8 == 1 {
                // The last seed fell into an own house that was empty before it (rule 3).
                let opp = 2 * m - lane;
                let taken = (board >> (8 * opp)) as u8;
                if taken != 0 || self.rules.has(KalahOption::EmptyCapture) {
                    board &= !((0xFFu128 << (8 * lane)) | (0xFFu128 << (8 * opp)));
                    board += (u128::from(taken) + 1) << (8 * (base + m));
                    next.board = board;
                }
            }
        }
        next.state &= !(FIRST_MOVE | SWAP_OFFERED);
        if !again {
            next.state ^= NORTH_TO_MOVE;
            if next.state & OPENING_TURN != 0 {
                // South's complete first turn is over: North may swap once (pie_rule).
                next.state = (next.state & !OPENING_TURN) | SWAP_OFFERED;
            }
        }
        next.finish_turn()
    }

    /// Applies the end-of-game rule after a move (`kalah.md`, "End of the game" and the
    /// `end_when_no_move` / `discard_remaining` options).
    #[inline(always)]
    fn finish_turn(mut self) -> KalahPosition {
        let m = self.m();
        let south = self.board & lanes_mask(0, m);
        let north = self.board & lanes_mask(m + 1, m);
        let ended = if self.rules.has(KalahOption::EndWhenNoMove) {
            let mover_row = if self.state & NORTH_TO_MOVE != 0 {
                north
            } else {
                south
            };
            mover_row == 0 && self.state & SWAP_OFFERED == 0
        } else {
            south == 0 || north == 0
        };
        if ended {
            self.board &= !(lanes_mask(0, m) | lanes_mask(m + 1, m));
            if !self.rules.has(KalahOption::DiscardRemaining) {
                // Sweep: the seeds of each row go to that row's owner.
                self.board += u128::from(lane_sum(south)) << (8 * m);
                self.board += u128::from(lane_sum(north)) << (8 * (2 * m + 1));
            }
            self.state = GAME_OVER;
        }
        self
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

/// Sum of the 16 lanes of `x`, which must total at most 255 (true of every board).
#[inline(always)]
fn lane_sum(x: u128) -> u32 {
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let s = |v: u64| (v.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    // Each half sums to at most 255, so no byte of the products overflows.
    s(lo) + s(hi)
}

impl fmt::Display for KalahPosition {
    /// The position notation of `kalah.md`: counts, side (`S`, `N`, `-`), and ` swap` when
    /// offered.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = 2 * self.m() + 2;
        for i in 0..n {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}", self.lane(i))?;
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
/// From the start of Kalah(6,4): perft(1) = 6, perft(2) = 35.
#[must_use]
pub fn perft(pos: &KalahPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let mut total = 0;
    let mut mask = pos.house_move_mask();
    if depth == 1 {
        while mask != 0 {
            let child = pos.sow_unchecked(mask.trailing_zeros() as usize);
            // The last ply is played too; its result only has to exist.
            total += u64::from(core::hint::black_box(child).state != 0xFF);
            mask &= mask - 1;
        }
        if pos.swap_offered() {
            total += u64::from(pos.play_unchecked(KalahMove::Swap).state != 0xFF);
        }
        return total;
    }
    while mask != 0 {
        total += perft(
            &pos.sow_unchecked(mask.trailing_zeros() as usize),
            depth - 1,
        );
        mask &= mask - 1;
    }
    if pos.swap_offered() {
        total += perft(&pos.play_unchecked(KalahMove::Swap), depth - 1);
    }
    total
}

/// Additions used by the exact solver (`mancala-solver`), kept apart so that they merge
/// cleanly with the rest of this file.
impl KalahPosition {
    /// Whether South is still inside the opening turn of a `pie_rule` game (after South's
    /// first move gave an extra turn, before North is offered the swap). Such positions, like
    /// [`KalahPosition::is_first_move`] and [`KalahPosition::swap_offered`] ones, have a
    /// future that depends on more than the houses and the side to move.
    #[inline]
    #[must_use]
    pub const fn is_opening_turn(&self) -> bool {
        self.state & OPENING_TURN != 0
    }
}
