//! The solver's own mover-relative board and its move generator.
//!
//! # Layout
//!
//! The search never needs the stores (a value is a *future* store difference, see the crate
//! docs), so it keeps only the houses, always seen from the side to move:
//!
//! ```text
//!  lane: 15 … 2m+2 | 2m+1 | 2m … m+1          | m           | m−1 … 0
//!  slot:  unused    |  0   | opponent's houses | mover store | mover's houses 1..m
//!                                               (0 between moves)
//! ```
//!
//! With that orientation the mover's sowing cycle (own houses, own store, opponent's houses,
//! skipping the opponent's store) is exactly lanes `0..=2m`, so a sowing of s seeds from house
//! h is one masked add: `q·FULL + RANGE[h][r]` with `q = s / (2m+1)`, `r = s % (2m+1)`, the
//! same construction as the core's tables (`mancala-core`, `kalah/tables.rs`). After a move
//! that passes the turn, the two rows are exchanged so that the new mover is again in lanes
//! `0..m`. This generator is independent of the core's; the tests check both against each
//! other and against a plain minimax written on the core.
//!
//! The rank of the houses (the key of the transposition table and the index of the endgame
//! databases) is in `rank.rs`.

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;

/// Sum of the 16 lanes of `x`; every lane sum of a board is at most 255.
#[inline(always)]
pub(crate) fn lane_sum(x: u128) -> u32 {
    let s = |v: u64| (v.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    s(x as u64) + s((x >> 64) as u64)
}

/// Seeds in lane `i` (`i < 16`). Read as a byte of the board's little-endian bytes: a shift
/// of a `u128` by a variable distance takes several instructions, a byte load one.
#[inline(always)]
pub(crate) fn lane(b: u128, i: usize) -> u32 {
    u32::from(b.to_le_bytes()[i])
}

/// Mask of lanes `from..from + count`.
pub(crate) const fn lanes(from: usize, count: usize) -> u128 {
    if count == 0 {
        return 0;
    }
    let ones = if count >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * count)) - 1
    };
    ones << (8 * from)
}

/// What a move led to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The mover moves again (last seed in the own store); `board` is from the mover's view.
    Extra,
    /// The opponent moves; `board` is from the opponent's (the new mover's) view.
    Switch,
    /// The game is over; `gain` includes the final sweep.
    Over,
}

/// One child of a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Child {
    /// Houses of the child, oriented for its side to move (meaningless when `Over`).
    pub board: u128,
    /// Seeds the mover gained minus seeds the opponent gained with this move (incl. the sweep).
    pub gain: i32,
    /// Seeds still in houses after the move (0 when `Over`).
    pub seeds: u32,
    /// Extra turn, turn passes, or the game ended.
    pub kind: Kind,
}

/// The rule options that change values inside the search: those of the core's option table
/// marked `changes_database` (`KalahOption::TABLE`). The opening options (`pie_rule`,
/// `no_first_move_bonus`) only concern the first turns and are handled by the solver on the
/// core's positions. Built only through `From<KalahOptions>` (or `From<&KalahRules>`), so the
/// exact search and the database build read the options the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Flags {
    pub empty_capture: bool,
    pub end_when_no_move: bool,
    pub discard: bool,
}

impl From<KalahOptions> for Flags {
    fn from(options: KalahOptions) -> Flags {
        Flags {
            empty_capture: options.has(KalahOption::EmptyCapture),
            end_when_no_move: options.has(KalahOption::EndWhenNoMove),
            discard: options.has(KalahOption::DiscardRemaining),
        }
    }
}

impl From<&KalahRules> for Flags {
    fn from(rules: &KalahRules) -> Flags {
        Flags::from(rules.options())
    }
}

impl Flags {
    /// Whether a position is a finished game, given whether the row of the player to move
    /// (`mover_empty`) and the other row (`other_empty`) are empty: by default as soon as
    /// either row is empty; under `end_when_no_move` only when the player to move has no
    /// move (docs/rules/kalah.md, end of the game).
    #[inline(always)]
    pub(crate) fn finished(self, mover_empty: bool, other_empty: bool) -> bool {
        if self.end_when_no_move {
            mover_empty
        } else {
            mover_empty || other_empty
        }
    }

    /// Whether the game is over after a move, given whether the mover's row (`own_empty`) and
    /// the opponent's row (`opp_empty`) are empty and whether the mover moves again (`extra`):
    /// [`Flags::finished`] for the player who moves next.
    #[inline(always)]
    pub(crate) fn game_over(self, extra: bool, own_empty: bool, opp_empty: bool) -> bool {
        if extra {
            self.finished(own_empty, opp_empty)
        } else {
            self.finished(opp_empty, own_empty)
        }
    }
}

/// Move tables for m = `M` houses a row.
///
/// One of the three Kalah sowing kernels, each specialised for its caller: the core's
/// `KalahPosition::sow_unchecked` (two `u64` rows with the stores, `kalah/tables.rs`; the
/// rules' reference), this one (one `u128` of houses seen from the mover, no stores: the
/// exact search) and the database build's `egdb::build::sow::Sow` (two `u64` rows without
/// stores and without the flip). The three read the options through [`Flags`] or the core's
/// option table and build their per-(house, remainder) additions the same way; the tables are
/// not shared because their lane layouts differ. Tests play them against each other:
/// `board.rs` (this kernel against the core on every option set) and `egdb::build::sow`
/// (`Sow` against this kernel).
pub(crate) struct Geometry<const M: usize> {
    range: [[u128; 16]; M],
    last: [[u8; 16]; M],
    full: u128,
    /// The board without house h's lane: `!(0xFF << 8h)` (a table read instead of a shift of
    /// a `u128` by a variable distance).
    emptied: [u128; M],
    /// The board without the lanes of a capture ending in house h: h and the opposite house
    /// 2m − h.
    captured: [u128; M],
    pub flags: Flags,
}

impl<const M: usize> Geometry<M> {
    /// Cycle length 2m + 1.
    pub const L: usize = 2 * M + 1;
    /// Mask of the mover's houses.
    pub const OWN: u128 = lanes(0, M);
    /// Mask of the opponent's houses.
    pub const OPP: u128 = lanes(M + 1, M);

    /// The tables for these rule flags.
    pub(crate) fn new(flags: Flags) -> Self {
        let l = Self::L;
        let mut range = [[0u128; 16]; M];
        let mut last = [[0u8; 16]; M];
        for h in 0..M {
            let mut mask = 0u128;
            for r in 0..l {
                range[h][r] = mask;
                last[h][r] = ((h + r) % l) as u8;
                mask |= 1u128 << (8 * ((h + r + 1) % l));
            }
        }
        let emptied = std::array::from_fn(|h| !lanes(h, 1));
        let captured = std::array::from_fn(|h| !(lanes(h, 1) | lanes(2 * M - h, 1)));
        Geometry {
            range,
            last,
            full: lanes(0, l) / 0xFF,
            emptied,
            captured,
            flags,
        }
    }

    /// Exchanges the rows: the board as the opponent sees it.
    #[inline(always)]
    pub(crate) fn flip(b: u128) -> u128 {
        ((b >> (8 * (M + 1))) & Self::OWN) | ((b & Self::OWN) << (8 * (M + 1)))
    }

    /// Plays the mover's house `h` (0-based; must be non-empty) on board `b`, which holds `k`
    /// seeds in its houses. The child's seeds are `k` less the seeds that reached the
    /// mover's store (sown there or captured), which the gain counts: sowing skips the
    /// opponent's store, so no other seed leaves the houses before the game ends.
    #[inline(always)]
    pub(crate) fn play(&self, b: u128, k: u32, h: usize) -> Child {
        debug_assert_eq!(k, lane_sum(b), "the seeds of the board played");
        let s = lane(b, h) as usize;
        let l = Self::L;
        let (q, r) = if s < l { (0, s) } else { (s / l, s % l) };
        let mut nb = (b & self.emptied[h]) + self.range[h][r];
        if q != 0 {
            // Whole laps: one seed into every lane of the cycle each.
            nb += (q as u128) * self.full;
        }
        let last = self.last[h][r] as usize;
        let extra = last == M;
        if last < M && lane(nb, last) == 1 {
            // Last seed in an own house that was empty before it: a capture (docs/rules/kalah.md
            // rule 3, and the `empty_capture` option).
            let opp = 2 * M - last;
            let taken = lane(nb, opp);
            if taken != 0 || self.flags.empty_capture {
                nb &= self.captured[last];
                nb += u128::from(taken + 1) << (8 * M);
            }
        }
        let mut gain = lane(nb, M) as i32;
        nb &= !(0xFFu128 << (8 * M));
        let own = nb & Self::OWN;
        let opp = nb & Self::OPP;
        if self.flags.game_over(extra, own == 0, opp == 0) {
            if !self.flags.discard {
                gain += lane_sum(own) as i32 - lane_sum(opp) as i32;
            }
            return Child {
                board: 0,
                gain,
                seeds: 0,
                kind: Kind::Over,
            };
        }
        let seeds = k - gain as u32;
        if extra {
            Child {
                board: nb,
                gain,
                seeds,
                kind: Kind::Extra,
            }
        } else {
            Child {
                board: Self::flip(nb),
                gain,
                seeds,
                kind: Kind::Switch,
            }
        }
    }

    /// Bit h set for every non-empty house h of the mover.
    #[inline(always)]
    pub(crate) fn move_mask(b: u128) -> u32 {
        let mut x = (b & Self::OWN) as u64;
        x |= x >> 4;
        x |= x >> 2;
        x |= x >> 1;
        x &= 0x0101_0101_0101_0101;
        (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    }

    /// Whether `b` (mover to move) is a finished game under these rules (no entry needed).
    #[inline]
    pub(crate) fn is_terminal(&self, b: u128) -> bool {
        self.flags.finished(b & Self::OWN == 0, b & Self::OPP == 0)
    }

    /// The board of the composition `parts` (mover's houses then opponent's houses).
    #[cfg(test)]
    pub(crate) fn from_parts(parts: &[u8]) -> u128 {
        let mut b = 0u128;
        for (i, &c) in parts.iter().enumerate().take(2 * M) {
            let lane = if i < M { i } else { i + 1 };
            b |= u128::from(c) << (8 * lane);
        }
        b
    }
}

/// Whether `pos` is in the opening states whose values depend on more than the houses.
pub(crate) fn is_special(pos: &KalahPosition) -> bool {
    pos.is_first_move() || pos.swap_offered() || pos.in_opening_turn()
}

/// Store gain of `side` minus the other side's, from `pos` to `child`, seeds.
pub(crate) fn store_gain(pos: &KalahPosition, child: &KalahPosition, side: Side) -> i32 {
    let o = side.opponent();
    (i32::from(child.store(side)) - i32::from(pos.store(side)))
        - (i32::from(child.store(o)) - i32::from(pos.store(o)))
}

/// The mover-relative board (stores cleared) and the seeds in houses of a core position.
pub(crate) fn relative(pos: &KalahPosition, side: Side) -> (u128, u32) {
    let m = pos.rules().houses() as usize;
    let raw = pos.board_bits();
    let south = raw & lanes(0, m);
    let north = raw & lanes(m + 1, m);
    let b = match side {
        Side::South => south | north,
        Side::North => (north >> (8 * (m + 1))) | (south << (8 * (m + 1))),
    };
    (b, pos.seeds_in_houses())
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::KalahMove;

    /// The solver's kernel ([`Geometry::play`]) against the core's (`KalahPosition::play`, the
    /// rules' reference) on random positions of every m and every set of the options that
    /// act past the opening: the same child board, store gain (sweep included), seeds left
    /// and kind of turn.
    #[test]
    fn sowing_matches_the_core() {
        fn check<const M: usize>(options: KalahOptions, rng: &mut u64) {
            let rules = KalahRules::new(M as u32, 1, options).unwrap();
            let g = Geometry::<M>::new(Flags::from(&rules));
            let mut tried = 0;
            while tried < 300 {
                let mut slots = [0u8; 16];
                for (i, slot) in slots.iter_mut().enumerate().take(2 * M + 2) {
                    *rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    // Mostly small houses, sometimes more than a whole lap; stores small.
                    let big = (*rng >> 60) == 0;
                    let c = (*rng >> 33) % if big { 30 } else { 4 };
                    *slot = if i == M || i == 2 * M + 1 {
                        c as u8 % 3
                    } else {
                        c as u8
                    };
                }
                let side = if *rng >> 63 == 0 {
                    Side::South
                } else {
                    Side::North
                };
                let Ok(pos) = KalahPosition::new(rules, &slots[..2 * M + 2], Some(side), false)
                else {
                    continue;
                };
                tried += 1;
                let (b, k) = relative(&pos, side);
                for mv in pos.legal_moves() {
                    let KalahMove::House(h) = mv else { continue };
                    let child = pos.play(mv).unwrap();
                    let got = g.play(b, k, usize::from(h) - 1);
                    assert_eq!(got.gain, store_gain(&pos, &child, side), "{pos} {mv}");
                    match child.side_to_move() {
                        None => assert!(matches!(got.kind, Kind::Over), "{pos} {mv}"),
                        Some(next) => {
                            let kind_ok = if next == side {
                                matches!(got.kind, Kind::Extra)
                            } else {
                                matches!(got.kind, Kind::Switch)
                            };
                            assert!(kind_ok, "{pos} {mv}: {:?}", got.kind);
                            assert_eq!(got.board, relative(&child, next).0, "{pos} {mv}");
                            assert_eq!(got.seeds, child.seeds_in_houses(), "{pos} {mv}");
                        }
                    }
                }
            }
        }
        let mut rng = 0x5EED_u64;
        let relevant: Vec<KalahOption> = KalahOption::ALL
            .into_iter()
            .filter(|o| o.changes_database())
            .collect();
        for bits in 0..1u32 << relevant.len() {
            let chosen: Vec<KalahOption> = (0..relevant.len())
                .filter(|i| bits >> i & 1 != 0)
                .map(|i| relevant[i])
                .collect();
            let options = KalahOptions::of(&chosen);
            check::<1>(options, &mut rng);
            check::<2>(options, &mut rng);
            check::<3>(options, &mut rng);
            check::<4>(options, &mut rng);
            check::<5>(options, &mut rng);
            check::<6>(options, &mut rng);
            check::<7>(options, &mut rng);
        }
    }
}
