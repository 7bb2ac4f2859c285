//! The bit-packed Togyz Kumalak position: its state, legal moves, `play` with sowing,
//! capture, tuzdyks and the ends of the game, and the result (`docs/rules/togyz-kumalak.md`).
//!
//! # Bit layout
//!
//! Each row is a `u128` of sixteen 8-bit lanes, of which the first h (at most 9) are used;
//! lane k (bits 8k..8k+7) is the owner's house k + 1, counted from his left:
//!
//! ```text
//!   lane:      15 … h              | h−1 … 0
//!   rows[S]:   (unused, always 0)  | South's houses h … 1
//!   rows[N]:   (unused, always 0)  | North's houses h … 1
//! ```
//!
//! Nine houses of up to 255 kumalaks do not fit the eight lanes of a `u64` (Kalah's and
//! Oware's rows); a `u128` holds them with room, and every lane-wise operation below is one
//! or two 128-bit additions. Seen from the mover, the sowing circuit (TK-1.3) is his lanes
//! 0 … h−1, then the opponent's lanes 0 … h−1, then his lane 0 again, so a sowing is a
//! number of whole laps (one add of the all-ones mask to both rows) and a remainder that
//! covers at most three runs of consecutive lanes (one masked add each). Every count stays at
//! most 255 because a position never holds more than 255 kumalaks (TK-8.1), so no add carries
//! from one lane into the next.
//!
//! Beside the rows: both kazans, both tuzdyks (the number of the opponent's house each
//! player owns, 0 for none), the rules, and the state (the side to move, or over).

use core::fmt;

use super::error::{IllegalMove, IllegalReason, PositionEnd, PositionError};
use super::moves::TogyzMove;
use super::rules::TogyzRules;
use crate::game::{HistoryEnd, HistoryRules, MoveList, Outcome};
use crate::Side;

/// `ONES[k]`: a 1 in each of lanes 0..k.
const ONES: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut k = 1;
    while k <= 16 {
        t[k] = t[k - 1] | 1 << (8 * (k - 1));
        k += 1;
    }
    t
};

/// The count of lane `lane` of `row`.
#[inline(always)]
const fn lane(row: u128, lane: usize) -> u8 {
    (row >> (8 * lane)) as u8
}

/// The sum of the lanes of `row` (at most 255 in every position, so the product's top lane
/// holds it exactly).
#[inline(always)]
const fn lane_sum(row: u128) -> u32 {
    (row.wrapping_mul(ONES[16]) >> 120) as u32
}

const OVER: u8 = 2;

/// A Togyz Kumalak position: the houses, both kazans, both tuzdyks, the rules and whose move
/// it is. `Copy`, never allocates, history-free (the move limit is applied by a game record,
/// [`crate::GameRecord`]). Every constructor validates ([`TogyzPosition::start`],
/// [`TogyzPosition::from_layout`], [`TogyzPosition::parse`]), so a position always obeys its
/// rules.
///
/// ```
/// use mancala_core::togyz::{TogyzMove, TogyzPosition, TogyzRules};
/// let start = TogyzPosition::start(TogyzRules::default());
/// let next = start.play(TogyzMove(9)).unwrap(); // TK-12, X1
/// assert_eq!(next.to_string(), "9,9,9,9,9,9,9,9,1,10,10,10,10,10,10,10,10,0,9,0 -,- N");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TogyzPosition {
    rows: [u128; 2],
    rules: TogyzRules,
    kazans: [u8; 2],
    /// The opponent's house number each side owns as his tuzdyk, 0 for none.
    tuzdyks: [u8; 2],
    /// 0: South to move, 1: North to move, [`OVER`]: the game is over.
    state: u8,
}

impl fmt::Debug for TogyzPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TogyzPosition({} | {})", self.rules, self)
    }
}

/// A Togyz Kumalak position as plain data, not yet checked against any rules: what
/// [`TogyzPosition::from_layout`] validates and [`TogyzPosition::layout`] returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TogyzLayout {
    /// The houses of each side, indexed by [`Side::index`], house i at index i − 1 (only the
    /// first h are used).
    pub houses: [[u8; 9]; 2],
    /// The kazans, indexed by [`Side::index`].
    pub kazans: [u8; 2],
    /// The tuzdyk each side owns: the number of a house in the opponent's row, or `None`.
    pub tuzdyks: [Option<u8>; 2],
    /// The side to move, or `None` for a finished game.
    pub side_to_move: Option<Side>,
}

impl TogyzPosition {
    /// The start position (TK-1.2): s kumalaks in every house, empty kazans, no tuzdyk, South
    /// to move.
    #[must_use]
    pub fn start(rules: TogyzRules) -> TogyzPosition {
        let row = ONES[usize::from(rules.houses())] * u128::from(rules.kumalaks());
        TogyzPosition {
            rows: [row, row],
            rules,
            kazans: [0; 2],
            tuzdyks: [0; 2],
            state: 0,
        }
    }

    /// Checks `layout` against `rules` and builds the position (TK-9.2, TK-9.3).
    ///
    /// # Errors
    /// [`PositionError::TooManyKumalaks`], [`PositionError::BeyondBoard`],
    /// [`PositionError::BadTuzdyk`] (a tuzdyk number outside 1..=h), the tuzdyk refusals
    /// ([`PositionError::TuzdykOff`], [`PositionError::TuzdykOnLast`],
    /// [`PositionError::TuzdykSameNumber`], [`PositionError::TuzdykNotEmpty`]),
    /// [`PositionError::AlreadyOver`] and [`PositionError::KumalaksAfterEnd`].
    pub fn from_layout(rules: TogyzRules, layout: &TogyzLayout) -> Result<Self, PositionError> {
        let h = rules.houses();
        let total: u32 = layout
            .houses
            .iter()
            .flatten()
            .chain(&layout.kazans)
            .map(|&c| u32::from(c))
            .sum();
        if total > 255 {
            return Err(PositionError::TooManyKumalaks(total));
        }
        let mut rows = [0u128; 2];
        for side in Side::ALL {
            for (i, &count) in layout.houses[side.index()].iter().enumerate() {
                if i >= usize::from(h) && count > 0 {
                    return Err(PositionError::BeyondBoard {
                        side,
                        house: i as u8 + 1,
                        houses: h,
                    });
                }
                rows[side.index()] |= u128::from(count) << (8 * i);
            }
        }
        let mut tuzdyks = [0u8; 2];
        for owner in Side::ALL {
            let Some(t) = layout.tuzdyks[owner.index()] else {
                continue;
            };
            if t == 0 || t > h {
                return Err(PositionError::BadTuzdyk {
                    side: owner,
                    text: t.to_string(),
                    houses: h,
                });
            }
            if !rules.tuzdyk() {
                return Err(PositionError::TuzdykOff(owner));
            }
            if t == h && !rules.tuzdyk_last_allowed() {
                return Err(PositionError::TuzdykOnLast(owner));
            }
            let row = owner.opponent();
            if lane(rows[row.index()], usize::from(t - 1)) != 0 {
                return Err(PositionError::TuzdykNotEmpty {
                    owner,
                    side: row,
                    house: t,
                });
            }
            tuzdyks[owner.index()] = t;
        }
        if tuzdyks[0] != 0 && tuzdyks[0] == tuzdyks[1] {
            return Err(PositionError::TuzdykSameNumber(tuzdyks[0]));
        }
        let position = TogyzPosition {
            rows,
            rules,
            kazans: layout.kazans,
            tuzdyks,
            state: layout.side_to_move.map_or(OVER, |s| s.index() as u8),
        };
        match layout.side_to_move {
            Some(side) => {
                if let Some(end) = position.end_on_turn(side) {
                    return Err(PositionError::AlreadyOver { side, end });
                }
            }
            None => {
                // Kumalaks left in houses at the end only when a majority ended the game,
                // which only `majority=stop` does.
                if rows != [0, 0] && !(rules.majority_stops() && position.majority_reached()) {
                    return Err(PositionError::KumalaksAfterEnd);
                }
            }
        }
        Ok(position)
    }

    /// The position as plain data.
    #[must_use]
    pub fn layout(&self) -> TogyzLayout {
        let mut houses = [[0u8; 9]; 2];
        for side in Side::ALL {
            for (i, count) in houses[side.index()].iter_mut().enumerate() {
                *count = lane(self.rows[side.index()], i);
            }
        }
        TogyzLayout {
            houses,
            kazans: self.kazans,
            tuzdyks: self.tuzdyks.map(|t| (t != 0).then_some(t)),
            side_to_move: self.side_to_move(),
        }
    }

    /// The rules this position is played under.
    #[inline]
    #[must_use]
    pub const fn rules(&self) -> TogyzRules {
        self.rules
    }

    /// The side to move, or `None` once the game is over.
    #[inline]
    #[must_use]
    pub const fn side_to_move(&self) -> Option<Side> {
        match self.state {
            0 => Some(Side::South),
            1 => Some(Side::North),
            _ => None,
        }
    }

    /// Whether the game is over.
    #[inline]
    #[must_use]
    pub const fn is_over(&self) -> bool {
        self.state == OVER
    }

    /// The kumalaks in `side`'s house `house` (1..=h; 0 for any other number).
    #[must_use]
    pub fn house(&self, side: Side, house: u8) -> u8 {
        if house == 0 || house > self.rules.houses() {
            0
        } else {
            lane(self.rows[side.index()], usize::from(house - 1))
        }
    }

    /// The kumalaks in `side`'s kazan.
    #[inline]
    #[must_use]
    pub const fn kazan(&self, side: Side) -> u8 {
        self.kazans[side.index()]
    }

    /// The tuzdyk `side` owns: the number of a house in the opponent's row, or `None`.
    #[inline]
    #[must_use]
    pub const fn tuzdyk(&self, side: Side) -> Option<u8> {
        match self.tuzdyks[side.index()] {
            0 => None,
            t => Some(t),
        }
    }

    /// The kumalaks in `side`'s houses.
    #[inline]
    #[must_use]
    pub const fn row_total(&self, side: Side) -> u32 {
        lane_sum(self.rows[side.index()])
    }

    /// The position's total T: every kumalak in houses and kazans (TK-1.2, TK-9.4).
    #[must_use]
    pub const fn total(&self) -> u32 {
        self.row_total(Side::South)
            + self.row_total(Side::North)
            + self.kazans[0] as u32
            + self.kazans[1] as u32
    }

    /// Whether a kazan holds more than half of T, or both exactly half (TK-6.2).
    fn majority_reached(&self) -> bool {
        let t = self.total();
        let [s, n] = self.kazans.map(u32::from);
        2 * s > t || 2 * n > t || (2 * s == t && 2 * n == t)
    }

    /// The position-only rule that ends the game with `side` to move, if any (TK-6.1, TK-6.2).
    fn end_on_turn(&self, side: Side) -> Option<PositionEnd> {
        if self.rows[side.index()] == 0 {
            Some(PositionEnd::EmptyRow)
        } else if self.rules.empty_row_after_move() && self.rows[side.opponent().index()] == 0 {
            Some(PositionEnd::EmptyRowAfterMove)
        } else if self.rules.majority_stops() && self.majority_reached() {
            Some(PositionEnd::Majority)
        } else {
            None
        }
    }

    /// Every legal move (TK-5): the mover's non-empty houses, in house order; empty once the
    /// game is over.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<TogyzMove> {
        let mut moves = MoveList::new();
        if let Some(side) = self.side_to_move() {
            let row = self.rows[side.index()];
            for i in 0..self.rules.houses() {
                if lane(row, usize::from(i)) != 0 {
                    moves.push(TogyzMove(i + 1));
                }
            }
        }
        moves
    }

    /// Plays `mv`: sows the house (TK-2), captures or makes a tuzdyk (TK-3, TK-4), and applies
    /// the position-only ends of the game (TK-6.1, TK-6.2). The move limit is a history rule
    /// ([`crate::GameRecord`]).
    ///
    /// # Errors
    /// [`IllegalMove`] with [`IllegalReason::GameOver`], [`IllegalReason::NoSuchHouse`] or
    /// [`IllegalReason::EmptyHouse`]; `self` is unchanged.
    pub fn play(&self, mv: TogyzMove) -> Result<TogyzPosition, IllegalMove> {
        let illegal = |reason| IllegalMove {
            reason,
            mv,
            position: *self,
        };
        let Some(side) = self.side_to_move() else {
            return Err(illegal(IllegalReason::GameOver));
        };
        let h = self.rules.houses();
        if mv.0 == 0 || mv.0 > h {
            return Err(illegal(IllegalReason::NoSuchHouse {
                house: mv.0,
                houses: h,
            }));
        }
        if self.house(side, mv.0) == 0 {
            return Err(illegal(IllegalReason::EmptyHouse(mv.0)));
        }
        Ok(self.play_unchecked(mv))
    }

    /// Plays a legal move without checking it. Contract: `mv` is one of
    /// [`TogyzPosition::legal_moves`]; otherwise the result is an unspecified position or a
    /// panic, never undefined behaviour.
    #[must_use]
    pub fn play_unchecked(&self, mv: TogyzMove) -> TogyzPosition {
        debug_assert!(
            self.legal_moves().contains(&mv),
            "illegal move {mv} on {self}"
        );
        let mover = usize::from(self.state & 1);
        let other = mover ^ 1;
        let h = usize::from(self.rules.houses());
        let circuit = 2 * h;
        let origin = usize::from(mv.0) - 1;
        let mut own = self.rows[mover];
        let mut opp = self.rows[other];
        let mut kazans = self.kazans;
        let mut tuzdyks = self.tuzdyks;

        // TK-2.1 - TK-2.4: lift the house; the first kumalak goes back into it (a lone one
        // goes on to the next house), the others into the following houses, laps included.
        let n = usize::from(lane(own, origin));
        own &= !(0xff << (8 * origin));
        let (first, count) = if n == 1 { (origin + 1, 1) } else { (origin, n) };
        let laps = (count / circuit) as u128;
        own += laps * ONES[h];
        opp += laps * ONES[h];
        let (mut p, mut left) = (first % circuit, count % circuit);
        while left > 0 {
            let (row, at) = if p < h {
                (&mut own, p)
            } else {
                (&mut opp, p - h)
            };
            let run = left.min(h - at);
            *row += ONES[at + run] - ONES[at];
            left -= run;
            p = (p + run) % circuit;
        }
        // TK-2.6, TK-4.4: kumalaks sown into a tuzdyk go to its owner's kazan.
        let mine = usize::from(tuzdyks[mover]);
        if mine != 0 {
            let v = lane(opp, mine - 1);
            opp &= !(0xff << (8 * (mine - 1)));
            kazans[mover] += v;
        }
        let theirs = usize::from(tuzdyks[other]);
        if theirs != 0 {
            let v = lane(own, theirs - 1);
            own &= !(0xff << (8 * (theirs - 1)));
            kazans[other] += v;
        }
        // TK-2.5, TK-3, TK-4.1: the last house, in the opponent's row and not a tuzdyk.
        let last = (first + count - 1) % circuit;
        if last >= h && last - h + 1 != mine {
            let at = last - h;
            let v = lane(opp, at);
            let tuzdyk = v == 3
                && self.rules.tuzdyk()
                && mine == 0
                && (at + 1 < h || self.rules.tuzdyk_last_allowed())
                && at + 1 != theirs;
            if v.is_multiple_of(2) || tuzdyk {
                opp &= !(0xff << (8 * at));
                kazans[mover] += v;
                if tuzdyk {
                    tuzdyks[mover] = at as u8 + 1;
                }
            }
        }
        let mut rows = [0; 2];
        rows[mover] = own;
        rows[other] = opp;
        let mut next = TogyzPosition {
            rows,
            rules: self.rules,
            kazans,
            tuzdyks,
            state: other as u8,
        };
        // TK-6.1 first (TK-6.3): each player adds his row; then TK-6.2.
        match next.end_on_turn(if other == 0 { Side::South } else { Side::North }) {
            Some(PositionEnd::Majority) => next.state = OVER,
            Some(_) => next = next.collect_rows(),
            None => {}
        }
        next
    }

    /// The game over, each player having added the kumalaks of his row to his kazan (TK-6.1,
    /// TK-6.4).
    fn collect_rows(&self) -> TogyzPosition {
        let mut kazans = self.kazans;
        for side in Side::ALL {
            kazans[side.index()] += self.row_total(side) as u8;
        }
        TogyzPosition {
            rows: [0; 2],
            kazans,
            state: OVER,
            ..*self
        }
    }

    /// The result once the game is over (TK-6.5): the winner has more kumalaks in his kazan;
    /// the score is South's kazan minus North's. `None` while the game goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over()
            .then(|| Outcome::from_score(i32::from(self.kazans[0]) - i32::from(self.kazans[1])))
    }

    /// The history rules of these rules: only the move limit (TK-10.2).
    #[must_use]
    pub fn history_rules(&self) -> HistoryRules {
        HistoryRules {
            repetition: None,
            move_limit: self.rules.move_limit(),
        }
    }

    /// The finished position when a history rule ends the game here: each player adds his row
    /// to his kazan (TK-6.4). A finished position is returned unchanged.
    #[must_use]
    pub fn end_by(&self, end: HistoryEnd) -> TogyzPosition {
        let _ = end;
        if self.is_over() {
            *self
        } else {
            self.collect_rows()
        }
    }

    /// Kumalaks in both kazans together; they never decrease, so a move that raises them
    /// cannot be undone (TK-10.2).
    #[must_use]
    pub const fn kazans_total(&self) -> u32 {
        self.kazans[0] as u32 + self.kazans[1] as u32
    }
}

/// Counts the move sequences of exactly `depth` plies from `position` that do not reach a
/// finished game before their last ply (TK-11.1); `perft(p, 0) == 1`. The move limit is not
/// applied.
#[must_use]
pub fn perft(position: &TogyzPosition, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => position.legal_moves().len() as u64,
        _ => position
            .legal_moves()
            .iter()
            .map(|&mv| perft(&position.play_unchecked(mv), depth - 1))
            .sum(),
    }
}
