//! The mover-first Oware board of the endgame databases and its move rules under each
//! grand-slam rule: sowing that skips the origin house, the capture chain of 2s and 3s, the
//! grand slam and the legality of OW-5 (OW-2, OW-3, OW-4.2, OW-5, OW-6.3).
//!
//! # Layout
//!
//! A board is seen from the player to move (OW-10.4): the mover's houses 1..6, then the
//! opponent's houses 1..6, counter-clockwise, which is the sowing order. The kernel keeps the
//! two rows as two words of six 8-bit lanes, house i (0-based) of a row in byte i:
//!
//! ```text
//!  byte:   7   6  | 5    4    3    2    1    0
//!  row:    0   0  | h6   h5   h4   h3   h2   h1       (mover's row, then opponent's row)
//! ```
//!
//! Every count fits a lane: a board holds at most [`MAX_SEEDS`] = 48 seeds, and a lane sum
//! (the seeds of a row, the prefix sums of the ranking) never carries into the next lane.
//!
//! # Sowing and capture
//!
//! s seeds from house i go to the 11 other houses in the order i+1, i+2, … (mod 12), the
//! origin skipped (OW-2.3): with q = s / 11 and r = s % 11 every other house receives q seeds
//! and the r houses after the origin one more, so a move is two masked adds from a table of
//! (house, r). The last seed lands r houses after the origin (11 when r = 0). If that house is
//! the opponent's and now holds 2 or 3 seeds, it and the houses before it in the opponent's
//! row that hold 2 or 3 (a run without a gap, down to the opponent's house 1) are captured
//! (OW-3.1, OW-3.2); the run is found with one SWAR comparison of the six lanes.
//!
//! # The grand-slam rules
//!
//! A **grand slam** (OW-4.1) is a move whose chain takes every seed of the opponent's row:
//! it captures something and leaves that row empty. What it does is the rule set's
//! `grand_slam` option (OW-4.2), a compile-time parameter of the move generator here (one
//! copy of the kernels per rule, chosen once per build or lookup, never per move):
//!
//! * `unless_only` (the `awari` rules): a move is **eradicating** (OW-5.3) when the opponent's
//!   row is empty after it (a grand slam, or a move that does not feed an empty opponent).
//!   The non-eradicating moves are the legal ones when there is one; otherwise every move is
//!   legal, a grand slam captures its whole chain, and the opponent is left without a move:
//!   each player takes the seeds of his own row (OW-6.3), which gives the mover every seed
//!   left. So such a position is worth `+n` to the mover, whichever move he plays.
//! * `none`, `all`, `forbidden`, `leave_last`: the mover must feed an opponent whose row is
//!   empty (OW-5.1); a grand slam captures nothing (`none`), its whole chain (`all`: the
//!   opponent is then left without a move, and the board after it, of a lower level, is worth
//!   minus its seeds to him), is illegal (`forbidden`), or captures its chain but the
//!   opponent's house 1 (`leave_last`). A mover without a legal move while he has seeds (no
//!   move feeds, or under `forbidden` every move left is a grand slam) ends the game: each
//!   player takes the seeds of his own row (OW-6.3), worth the mover's row minus the
//!   opponent's.
//!
//! Under every rule a board whose mover has no seed is worth `−n` (OW-5.4, OW-6.3).

use std::fmt;
use std::str::FromStr;

use mancala_core::oware::GrandSlam;

use super::AwariError;

/// The most seeds a board of the Oware databases holds (the 48 seeds of the game).
pub const MAX_SEEDS: u32 = 48;

/// Houses a row.
pub(crate) const H: usize = 6;
/// One seed in each of the six lanes of a row.
pub(crate) const ONES: u64 = 0x0000_0101_0101_0101;
/// Bit 7 of each of the six lanes.
pub(crate) const HIGH: u64 = 0x0000_8080_8080_8080;
/// Bits 0..=6 of each of the six lanes.
const LOW7: u64 = 0x0000_7F7F_7F7F_7F7F;

/// The seeds of a row (six lanes, each sum below 256).
#[inline(always)]
pub(crate) fn row_sum(row: u64) -> u32 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// Bit 7 of every lane of `x` (six lanes) that is zero, nothing else.
#[inline(always)]
pub(crate) fn zero_lanes(x: u64) -> u64 {
    !(((x & LOW7) + LOW7) | x) & HIGH
}

/// Whether the row has an empty house.
#[inline(always)]
pub(crate) fn has_empty(row: u64) -> bool {
    zero_lanes(row) != 0
}

/// The seeds of house `i` (0-based) of a row.
#[inline(always)]
pub(crate) fn lane(row: u64, i: usize) -> u32 {
    ((row >> (8 * i)) & 0xFF) as u32
}

/// Per origin house i and remainder r < 11: the lanes that the r seeds after the origin
/// reach in the mover's row and in the opponent's row, and the house of the last seed
/// (0..=5 the mover's, 6..=11 the opponent's; for r = 0 the house before the origin, where
/// the last seed of a multiple of 11 lands).
struct SowTable {
    own: [[u64; 11]; H],
    opp: [[u64; 11]; H],
    last: [[u8; 11]; H],
}

const fn sow_table() -> SowTable {
    let mut t = SowTable {
        own: [[0; 11]; H],
        opp: [[0; 11]; H],
        last: [[0; 11]; H],
    };
    let mut i = 0;
    while i < H {
        let mut r = 0;
        while r < 11 {
            let mut d = 1;
            while d <= r {
                let cell = (i + d) % 12;
                if cell < H {
                    t.own[i][r] += 1 << (8 * cell);
                } else {
                    t.opp[i][r] += 1 << (8 * (cell - H));
                }
                d += 1;
            }
            let d_last = if r == 0 { 11 } else { r };
            t.last[i][r] = ((i + d_last) % 12) as u8;
            r += 1;
        }
        i += 1;
    }
    t
}

static SOW: SowTable = sow_table();

/// The result of one move on the two rows: the child seen from its mover (the old
/// opponent), and the seeds captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Child {
    /// The child's mover's row: the opponent's row after sowing and capture.
    pub mover: u64,
    /// The child's opponent's row: the mover's row after sowing (house `i` empty).
    pub opp: u64,
    /// Seeds captured (0 when the last seed makes no capture, OW-3.4).
    pub captured: u32,
}

impl Child {
    /// Whether the move is eradicating: the opponent's row is empty after it (OW-5.3).
    #[inline(always)]
    pub(crate) fn eradicating(self) -> bool {
        self.mover == 0
    }
}

/// The code of `grand_slam=none` as a compile-time rule parameter (`G` of [`play_g`],
/// [`classify_g`] and the build's kernels).
pub(crate) const GS_NONE: u8 = GrandSlam::None as u8;
/// The code of `grand_slam=all`.
pub(crate) const GS_ALL: u8 = GrandSlam::All as u8;
/// The code of `grand_slam=forbidden`.
pub(crate) const GS_FORBIDDEN: u8 = GrandSlam::Forbidden as u8;
/// The code of `grand_slam=leave_last`.
pub(crate) const GS_LEAVE_LAST: u8 = GrandSlam::LeaveLast as u8;
/// The code of `grand_slam=unless_only` (the `awari` rules).
pub(crate) const GS_UNLESS_ONLY: u8 = GrandSlam::UnlessOnly as u8;

/// Evaluates `$body` with the constant `$G` (a `u8`) set to the code of the grand-slam rule
/// `$g`: the one run-time choice of a monomorphised kernel.
macro_rules! with_grand_slam {
    ($g:expr, $G:ident => $body:expr) => {
        match $g {
            mancala_core::oware::GrandSlam::None => {
                const $G: u8 = $crate::awari::board::GS_NONE;
                $body
            }
            mancala_core::oware::GrandSlam::All => {
                const $G: u8 = $crate::awari::board::GS_ALL;
                $body
            }
            mancala_core::oware::GrandSlam::Forbidden => {
                const $G: u8 = $crate::awari::board::GS_FORBIDDEN;
                $body
            }
            mancala_core::oware::GrandSlam::LeaveLast => {
                const $G: u8 = $crate::awari::board::GS_LEAVE_LAST;
                $body
            }
            mancala_core::oware::GrandSlam::UnlessOnly => {
                const $G: u8 = $crate::awari::board::GS_UNLESS_ONLY;
                $body
            }
        }
    };
}
pub(crate) use with_grand_slam;

/// Plays house `i` (0-based, non-empty) of the rows (`own`, `opp`) under the grand-slam rule
/// of code `G`: the chain of 2s and 3s is captured, except that a grand slam captures nothing
/// under `none` and leaves the opponent's house 1 under `leave_last` (under `forbidden` a
/// grand slam is illegal: the caller applies the legality, OW-5).
#[inline(always)]
pub(crate) fn play_g<const G: u8>(own: u64, opp: u64, i: usize) -> Child {
    let s = lane(own, i) as usize;
    debug_assert!(s > 0 && i < H);
    let (q, r) = (s / 11, s % 11);
    let qs = q as u64 * ONES;
    let own = (own & !(0xFF << (8 * i))) + qs - ((q as u64) << (8 * i)) + SOW.own[i][r];
    let opp = opp + qs + SOW.opp[i][r];
    let last = SOW.last[i][r] as usize;
    if last < H {
        return Child {
            mover: opp,
            opp: own,
            captured: 0,
        };
    }
    let (after, captured) = capture(opp, last - H);
    if (G == GS_NONE || G == GS_LEAVE_LAST) && captured != 0 && after == 0 {
        // A grand slam (OW-4.1).
        let kept = if G == GS_NONE { opp } else { opp & 0xFF };
        return Child {
            mover: kept,
            opp: own,
            captured: captured - row_sum(kept),
        };
    }
    Child {
        mover: after,
        opp: own,
        captured,
    }
}

/// The capture chain ending at lane `l` of the opponent's row (OW-3.1, OW-3.2): the row
/// after it and the seeds taken.
#[inline(always)]
fn capture(opp: u64, l: usize) -> (u64, u32) {
    // Lanes holding 2 or 3: (v & !1) == 2.
    let is23 = zero_lanes((opp & 0x0000_FEFE_FEFE_FEFE) ^ 0x0000_0202_0202_0202);
    let le = (1u64 << (8 * l + 8)) - 1;
    let stop = !is23 & HIGH & le;
    if stop & (0x80 << (8 * l)) != 0 {
        return (opp, 0);
    }
    let mask = if stop == 0 {
        le
    } else {
        let k = (63 - stop.leading_zeros()) / 8;
        le & !((1u64 << (8 * k + 8)) - 1)
    };
    (opp & !mask, row_sum(opp & mask))
}

/// The value of the mover's moves, or what decides the position without them: the
/// position's class under OW-5 and OW-6.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// The mover has no seed: the opponent takes every seed, value `−n` (OW-5.4, OW-6.3).
    Terminal,
    /// `unless_only`: every move of the mover is eradicating: each is legal, and any leaves
    /// the opponent without a move and gives the mover every seed, value `+n` (OW-5.3,
    /// OW-6.3).
    AllEradicating,
    /// The other rules: the mover has seeds but no legal move (none feeds an empty opponent,
    /// OW-5.1, or under `forbidden` every move left is a grand slam): each player takes the
    /// seeds of his own row, value the mover's row minus the opponent's (OW-6.3).
    NoMove,
    /// The legal moves (bits of this mask, house i in bit i).
    Moves(u8),
}

/// The fixed value of a class without moves on the rows (`own`, `opp`) of `n` seeds, `None`
/// for [`Class::Moves`].
#[inline(always)]
pub(crate) fn fixed_value(class: Class, n: u32, own: u64, opp: u64) -> Option<i32> {
    match class {
        Class::Terminal => Some(-(n as i32)),
        Class::AllEradicating => Some(n as i32),
        Class::NoMove => Some(row_sum(own) as i32 - row_sum(opp) as i32),
        Class::Moves(_) => None,
    }
}

/// The class of the position (`own`, `opp`) under the grand-slam rule of code `G` and, in
/// `children`, every move's child (entry i for house i; entries of empty houses are left as
/// they were).
#[inline(always)]
pub(crate) fn classify_g<const G: u8>(own: u64, opp: u64, children: &mut [Child; H]) -> Class {
    if own == 0 {
        return Class::Terminal;
    }
    let mut legal = 0u8;
    if G == GS_UNLESS_ONLY {
        for (i, child) in children.iter_mut().enumerate() {
            if lane(own, i) != 0 {
                *child = play_g::<G>(own, opp, i);
                legal |= u8::from(!child.eradicating()) << i;
            }
        }
        return if legal == 0 {
            Class::AllEradicating
        } else {
            Class::Moves(legal)
        };
    }
    for (i, child) in children.iter_mut().enumerate() {
        if lane(own, i) != 0 {
            *child = play_g::<G>(own, opp, i);
            // OW-5.1: an empty opponent must be fed (from house i + 1, 6 − i seeds reach
            // his row, OW-2.5); OW-5.2: under `forbidden` no grand slam.
            let feeds = opp != 0 || lane(own, i) as usize + i >= H;
            let slam = G == GS_FORBIDDEN && child.captured != 0 && child.mover == 0;
            legal |= u8::from(feeds && !slam) << i;
        }
    }
    if legal == 0 {
        Class::NoMove
    } else {
        Class::Moves(legal)
    }
}

/// A board of the Oware endgame databases: twelve houses seen from the player to move
/// (the mover's houses 1..6, then the opponent's houses 1..6, counter-clockwise), at most
/// [`MAX_SEEDS`] seeds in all. Stores and captured counts play no part in a value (OW-10.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AwariBoard {
    houses: [u8; 12],
}

/// One legal move of a board: the house, the seeds it captures and the board after it, seen
/// from the next mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AwariMove {
    /// The house played, 1..=6 from the mover's left (OW-1.3).
    pub house: u8,
    /// Seeds captured by the move (what a grand slam captures is the rule's, OW-4.2).
    pub captured: u32,
    /// The board after the move, from the point of view of the next mover (the houses of the
    /// player who just moved come second).
    pub child: AwariBoard,
}

impl AwariBoard {
    /// The board with these houses (the mover's houses 1..6, then the opponent's 1..6), or
    /// [`AwariError::TooManySeeds`] when they hold more than [`MAX_SEEDS`] seeds.
    pub fn new(houses: [u8; 12]) -> Result<AwariBoard, AwariError> {
        let seeds: u32 = houses.iter().map(|&c| u32::from(c)).sum();
        if seeds > MAX_SEEDS {
            return Err(AwariError::TooManySeeds {
                seeds,
                max: MAX_SEEDS,
            });
        }
        Ok(AwariBoard { houses })
    }

    /// The twelve houses, the mover's first.
    #[must_use]
    pub fn houses(&self) -> [u8; 12] {
        self.houses
    }

    /// The seeds on the board (its level n).
    #[must_use]
    pub fn seeds(&self) -> u32 {
        self.houses.iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether the mover has no seed, so no move: the game is over and the opponent takes
    /// every seed (OW-5.4, OW-6.3).
    #[must_use]
    pub fn is_terminal(&self) -> bool {
        self.houses[..H].iter().all(|&c| c == 0)
    }

    /// Whether the board belongs to the databases' index: the player who has just moved has
    /// an empty house (OW-11.1). Every board a move produces does.
    #[must_use]
    pub fn is_indexed(&self) -> bool {
        self.houses[H..].contains(&0)
    }

    /// The two rows as lanes (mover, opponent).
    #[inline]
    pub(crate) fn rows(&self) -> (u64, u64) {
        let mut own = 0u64;
        let mut opp = 0u64;
        for i in 0..H {
            own |= u64::from(self.houses[i]) << (8 * i);
            opp |= u64::from(self.houses[H + i]) << (8 * i);
        }
        (own, opp)
    }

    /// The board of two rows (at most [`MAX_SEEDS`] seeds, not checked).
    #[inline]
    pub(crate) fn from_rows(own: u64, opp: u64) -> AwariBoard {
        let mut houses = [0u8; 12];
        for i in 0..H {
            houses[i] = lane(own, i) as u8;
            houses[H + i] = lane(opp, i) as u8;
        }
        AwariBoard { houses }
    }

    /// The legal moves under `grand_slam=unless_only` (OW-5.3, the `awari` rules), by house:
    /// empty when the mover has no seed ([`AwariBoard::moves_under`]).
    #[must_use]
    pub fn moves(&self) -> Vec<AwariMove> {
        self.moves_under(GrandSlam::UnlessOnly)
    }

    /// The legal moves under the grand-slam rule `grand_slam` (OW-4.2, OW-5: must feed an
    /// empty opponent unless `unless_only`; `forbidden` takes out the grand slams), by house,
    /// with the seeds each captures (a grand slam captures nothing under `none`, all but the
    /// opponent's house 1 under `leave_last`): empty when the mover has no legal move (no
    /// seed, or OW-6.3's other cases).
    #[must_use]
    pub fn moves_under(&self, grand_slam: GrandSlam) -> Vec<AwariMove> {
        let (own, opp) = self.rows();
        let mut children = [Child {
            mover: 0,
            opp: 0,
            captured: 0,
        }; H];
        let class = with_grand_slam!(grand_slam, G => classify_g::<G>(own, opp, &mut children));
        let legal = match class {
            Class::Terminal | Class::NoMove => 0,
            Class::AllEradicating => (0..H).fold(0u8, |m, i| m | u8::from(lane(own, i) != 0) << i),
            Class::Moves(mask) => mask,
        };
        (0..H)
            .filter(|&i| legal & (1 << i) != 0)
            .map(|i| AwariMove {
                house: i as u8 + 1,
                captured: children[i].captured,
                child: AwariBoard::from_rows(children[i].mover, children[i].opp),
            })
            .collect()
    }

    /// Plays house `house` (1..=6) under `grand_slam=unless_only`: the move, or
    /// [`AwariError::IllegalMove`] when the house does not exist, is empty, or is eradicating
    /// while a non-eradicating move exists ([`AwariBoard::play_under`]).
    pub fn play(&self, house: u8) -> Result<AwariMove, AwariError> {
        self.play_under(GrandSlam::UnlessOnly, house)
    }

    /// Plays house `house` (1..=6) under the grand-slam rule `grand_slam`: the move, or
    /// [`AwariError::IllegalMove`] when it is not among [`AwariBoard::moves_under`] (no such
    /// house, empty, or illegal by OW-5).
    pub fn play_under(&self, grand_slam: GrandSlam, house: u8) -> Result<AwariMove, AwariError> {
        self.moves_under(grand_slam)
            .into_iter()
            .find(|m| m.house == house)
            .ok_or(AwariError::IllegalMove { house })
    }
}

impl fmt::Display for AwariBoard {
    /// The twelve counts separated by spaces, the mover's houses first (the notation of
    /// Romein and Bal's database lookup: `1 1 1 1 1 2 4 2 3 0 0 0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.houses.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for AwariBoard {
    type Err = AwariError;

    /// Twelve counts (decimal, 0..=48) separated by white space and/or commas, the mover's
    /// houses first. Errors: [`AwariError::Parse`] for a malformed text,
    /// [`AwariError::TooManySeeds`] above [`MAX_SEEDS`] seeds in all.
    fn from_str(s: &str) -> Result<AwariBoard, AwariError> {
        let mut houses = [0u8; 12];
        let mut k = 0;
        for part in s
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            if k == 12 {
                return Err(AwariError::Parse("more than 12 counts".into()));
            }
            houses[k] = match part.parse::<u8>() {
                Ok(c) if u32::from(c) <= MAX_SEEDS => c,
                _ => return Err(AwariError::Parse(format!("bad count {part:?}"))),
            };
            k += 1;
        }
        if k != 12 {
            return Err(AwariError::Parse(format!("{k} counts, 12 expected")));
        }
        AwariBoard::new(houses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(s: &str) -> AwariBoard {
        s.parse().unwrap()
    }

    /// OW-12 X2: 12 seeds from house 6, the lap skips the origin; the last seed makes 2 in
    /// N1 and is captured (1 + 1).
    #[test]
    fn lap_skips_origin() {
        let m = b("0 0 0 0 0 12 0 0 0 0 0 0").play(6).unwrap();
        assert_eq!(m.captured, 2);
        assert_eq!(m.child, b("0 1 1 1 1 1 1 1 1 1 1 0"));
    }

    /// OW-12 X3: 16 seeds, second lap, five houses captured (2+2+2+2+... as traced in X3:
    /// N1..N5 get 2 each except those already holding seeds).
    #[test]
    fn second_lap_captures_five() {
        // South 0,0,0,0,0,16 ; North 0,1,0,1,0,5 -> after: North 0,0,0,0,0,6 captured 12.
        let m = b("0 0 0 0 0 16 0 1 0 1 0 5").play(6).unwrap();
        assert_eq!(m.captured, 12);
        assert_eq!(m.child, b("0 0 0 0 0 6 1 1 1 1 1 0"));
    }

    /// OW-12 X4: the chain stops at a house of 4.
    #[test]
    fn chain_stops_at_four() {
        let m = b("0 0 0 0 3 1 3 1 2 1 0 0").play(5).unwrap();
        assert_eq!(m.captured, 2);
        assert_eq!(m.child, b("4 0 2 1 0 0 0 0 0 0 0 2"));
    }

    /// OW-12 X7d: a grand slam is illegal while another move exists (awari).
    #[test]
    fn grand_slam_illegal_with_alternative() {
        let board = b("0 0 0 0 1 2 1 2 0 0 0 0");
        let houses: Vec<u8> = board.moves().iter().map(|m| m.house).collect();
        assert_eq!(houses, vec![5]);
        assert_eq!(board.play(6), Err(AwariError::IllegalMove { house: 6 }));
    }

    /// OW-12 X8: the grand slam is the only move; it captures the chain (2 + 3).
    #[test]
    fn only_grand_slam_captures() {
        let m = b("0 0 0 0 0 2 1 2 0 0 0 0").play(6).unwrap();
        assert_eq!(m.captured, 5);
        assert_eq!(m.child, b("0 0 0 0 0 0 0 0 0 0 0 0"));
    }

    /// OW-12 X11: no move feeds, so every move is legal.
    #[test]
    fn no_feeding_move_all_legal() {
        let board = b("1 1 0 0 0 0 0 0 0 0 0 0");
        let houses: Vec<u8> = board.moves().iter().map(|m| m.house).collect();
        assert_eq!(houses, vec![1, 2]);
    }

    /// The grand slam of OW-12 X8 (South's house 6 sows 2 into North's houses 1 and 2, which
    /// then hold 2 and 3) under each rule: captures nothing (`none`), all (`all`, and
    /// `unless_only` as the only move), all but house 1 (`leave_last`), illegal
    /// (`forbidden`: no legal move is left, OW-6.3).
    #[test]
    fn grand_slam_by_rule() {
        let board = b("0 0 0 0 0 2 1 2 0 0 0 0");
        let captured = |g| board.play_under(g, 6).map(|m| (m.captured, m.child));
        assert_eq!(
            captured(GrandSlam::None),
            Ok((0, b("2 3 0 0 0 0 0 0 0 0 0 0")))
        );
        assert_eq!(
            captured(GrandSlam::All),
            Ok((5, b("0 0 0 0 0 0 0 0 0 0 0 0")))
        );
        assert_eq!(
            captured(GrandSlam::LeaveLast),
            Ok((3, b("2 0 0 0 0 0 0 0 0 0 0 0")))
        );
        assert_eq!(
            captured(GrandSlam::Forbidden),
            Err(AwariError::IllegalMove { house: 6 })
        );
        assert!(board.moves_under(GrandSlam::Forbidden).is_empty());
    }

    /// OW-5.1: an empty opponent must be fed under every rule but `unless_only`; a mover
    /// who cannot feed has no legal move.
    #[test]
    fn must_feed() {
        let board = b("0 0 0 1 0 1 0 0 0 0 0 0");
        for g in [
            GrandSlam::None,
            GrandSlam::All,
            GrandSlam::LeaveLast,
            GrandSlam::Forbidden,
        ] {
            let houses: Vec<u8> = board.moves_under(g).iter().map(|m| m.house).collect();
            assert_eq!(houses, vec![6], "{g:?}");
            assert!(
                b("1 1 0 0 0 0 0 0 0 0 0 0").moves_under(g).is_empty(),
                "{g:?}"
            );
        }
    }

    #[test]
    fn parse_errors() {
        assert!(matches!(
            "1 2 3".parse::<AwariBoard>(),
            Err(AwariError::Parse(_))
        ));
        assert!(matches!(
            "9 9 9 9 9 9 0 0 0 0 0 0".parse::<AwariBoard>(),
            Err(AwariError::TooManySeeds { seeds: 54, .. })
        ));
        assert!(matches!(
            "1 1 1 1 1 1 1 1 1 1 1 x".parse::<AwariBoard>(),
            Err(AwariError::Parse(_))
        ));
    }
}
