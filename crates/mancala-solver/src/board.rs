//! The solver's own mover-relative board, its move generator and the combinatorial ranking.
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
//! # Ranking (combinatorial number system)
//!
//! The houses, read as the 2m parts `c_0 … c_{2m−1}` (the mover's houses 1..m, then the
//! opponent's houses 1..m), sum to k seeds. With the "bars" `p_i = c_0 + … + c_i + i`
//! (strictly increasing) the rank is `Σ_{i<2m} C(p_i, i+1)`: the colex rank of the 2m-subset
//! `{p_i}` of the naturals. Its last term `C(k+2m−1, 2m)` counts the positions with fewer than
//! k seeds, so ranks of the positions with exactly k seeds fill
//! `[C(k+2m−1, 2m), C(k+2m, 2m))` and the positions with at most K seeds fill
//! `[0, C(K+2m, 2m))` without gaps. The rank does not depend on K: one number indexes the
//! endgame database and keys the transposition table.

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;

/// Largest `n` of the binomial table: 255 seeds plus 2·7 parts, rounded up.
pub(crate) const BINOM_N: usize = 272;
/// Largest `k` of the binomial table + 1.
pub(crate) const BINOM_K: usize = 16;

const fn binom_table() -> [[u64; BINOM_N]; BINOM_K] {
    let mut t = [[0u64; BINOM_N]; BINOM_K];
    let mut n = 0;
    while n < BINOM_N {
        t[0][n] = 1;
        let mut k = 1;
        while k < BINOM_K {
            if n > 0 {
                // Saturating: callers check that the ranks they use fit (`rank_space`).
                t[k][n] = t[k - 1][n - 1].saturating_add(t[k][n - 1]);
            }
            k += 1;
        }
        n += 1;
    }
    t
}

/// `BINOM[k][n] = C(n, k)`, saturated at `u64::MAX`.
pub(crate) static BINOM: [[u64; BINOM_N]; BINOM_K] = binom_table();

/// `C(n, k)` as a `u128` (exact for every n < 272, k < 16), for size checks.
#[must_use]
pub(crate) fn binom_exact(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
    }
    r
}

/// The number of positions with at most `seeds` seeds in the 2m houses: `C(seeds + 2m, 2m)`,
/// `None` when it does not fit a `u64` below 2^62 (ranks must stay small enough for the tables).
#[must_use]
pub(crate) fn rank_space(m: usize, seeds: u32) -> Option<u64> {
    let c = binom_exact(u64::from(seeds) + 2 * m as u64, 2 * m as u64);
    if c < (1u128 << 62) {
        Some(c as u64)
    } else {
        None
    }
}

/// Sum of the 16 lanes of `x`; every lane sum of a board is at most 255.
#[inline(always)]
pub(crate) fn lane_sum(x: u128) -> u32 {
    let s = |v: u64| (v.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    s(x as u64) + s((x >> 64) as u64)
}

/// Seeds in lane `i`.
#[inline(always)]
pub(crate) fn lane(b: u128, i: usize) -> u32 {
    ((b >> (8 * i)) & 0xFF) as u32
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
/// exact search) and the database build's `egdb::build::Sow` (two `u64` rows without stores
/// and without the flip). The three read the options through [`Flags`] or the core's option
/// table and build their per-(house, remainder) additions the same way; the tables are not
/// shared because their lane layouts differ. Tests play them against each other:
/// `exact::solver` (this kernel against the core on every option set) and `egdb::build`
/// (`Sow` against this kernel).
pub(crate) struct Geometry<const M: usize> {
    range: [[u128; 16]; M],
    last: [[u8; 16]; M],
    full: u128,
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
        Geometry {
            range,
            last,
            full: lanes(0, l) / 0xFF,
            flags,
        }
    }

    /// Exchanges the rows: the board as the opponent sees it.
    #[inline(always)]
    pub(crate) fn flip(b: u128) -> u128 {
        ((b >> (8 * (M + 1))) & Self::OWN) | ((b & Self::OWN) << (8 * (M + 1)))
    }

    /// Plays the mover's house `h` (0-based; must be non-empty) on board `b`.
    #[inline(always)]
    pub(crate) fn play(&self, b: u128, h: usize) -> Child {
        let s = lane(b, h) as usize;
        let l = Self::L;
        let (q, r) = if s < l { (0, s) } else { (s / l, s % l) };
        let mut nb = (b & !(0xFFu128 << (8 * h))) + (q as u128) * self.full + self.range[h][r];
        let last = self.last[h][r] as usize;
        let extra = last == M;
        if last < M && lane(nb, last) == 1 {
            // Last seed in an own house that was empty before it: a capture (docs/rules/kalah.md
            // rule 3, and the `empty_capture` option).
            let opp = 2 * M - last;
            let taken = lane(nb, opp);
            if taken != 0 || self.flags.empty_capture {
                nb &= !((0xFFu128 << (8 * last)) | (0xFFu128 << (8 * opp)));
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
        let seeds = lane_sum(nb);
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

    /// The rank of the houses of `b` (module docs). Only valid when the seeds in houses are
    /// within a checked `rank_space`.
    #[inline(always)]
    pub(crate) fn rank(b: u128) -> u64 {
        // Prefix sums of the bytes by one multiplication each (every prefix sum is at most
        // 255, so no byte carries into the next).
        const ONES: u64 = 0x0101_0101_0101_0101;
        let row = if M == 8 {
            u64::MAX
        } else {
            (1u64 << (8 * M)) - 1
        };
        let own = (b as u64) & row;
        let ps = own.wrapping_mul(ONES);
        let total_own = (ps >> (8 * (M - 1))) & 0xFF;
        let opp = ((b >> (8 * (M + 1))) as u64) & row;
        let ps2 = opp
            .wrapping_mul(ONES)
            .wrapping_add(total_own.wrapping_mul(ONES));
        let mut r = 0u64;
        for i in 0..M {
            let p = ((ps >> (8 * i)) & 0xFF) as usize;
            r = r.wrapping_add(BINOM[i + 1][p + i]);
        }
        for i in 0..M {
            let p = ((ps2 >> (8 * i)) & 0xFF) as usize;
            r = r.wrapping_add(BINOM[M + i + 1][p + M + i]);
        }
        r
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

/// The rank of a mover-relative board of `m` houses a row (the generic-free form of
/// [`Geometry::rank`]).
pub(crate) fn rank_dyn(m: usize, b: u128) -> u64 {
    let mut r = 0u64;
    let mut p = 0usize;
    for i in 0..2 * m {
        let lane = if i < m { i } else { i + 1 };
        p += ((b >> (8 * lane)) & 0xFF) as usize;
        r = r.wrapping_add(BINOM[i + 1][p + i]);
    }
    r
}

/// Unranks: the 2m parts of the composition of exactly `k` seeds whose rank within its layer
/// is `r` (0-based, `r < C(k+2m−1, 2m−1)`).
pub(crate) fn unrank_layer(m: usize, k: u32, mut r: u64, parts: &mut [u8]) {
    let d = 2 * m;
    // Bars p_0 < … < p_{d−2} in 0..k+d−1, colex rank Σ C(p_i, i+1).
    let mut bars = [0usize; 16];
    let mut hi = k as usize + d - 1;
    for i in (0..d - 1).rev() {
        // Largest p < hi with C(p, i+1) <= r.
        let mut p = hi - 1;
        while BINOM[i + 1][p] > r {
            p -= 1;
        }
        bars[i] = p;
        r -= BINOM[i + 1][p];
        hi = p;
    }
    let mut prev: isize = -1;
    for i in 0..d - 1 {
        parts[i] = (bars[i] as isize - prev - 1) as u8;
        prev = bars[i] as isize;
    }
    parts[d - 1] = (k as isize + d as isize - 2 - prev) as u8;
}

/// The next composition of the same sum in colex rank order (rank + 1); `false` after the last.
#[cfg(test)]
pub(crate) fn next_parts(parts: &mut [u8]) -> bool {
    let d = parts.len();
    let mut j = 1;
    while j < d && parts[j] == 0 {
        j += 1;
    }
    if j == d {
        return false;
    }
    let t = parts[0];
    parts[0] = 0;
    parts[j - 1] = t + 1;
    parts[j] -= 1;
    true
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
                let (b, _) = relative(&pos, side);
                for mv in pos.legal_moves() {
                    let KalahMove::House(h) = mv else { continue };
                    let child = pos.play(mv).unwrap();
                    let got = g.play(b, usize::from(h) - 1);
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

    #[test]
    fn ranks_are_dense_and_successor_matches() {
        // m = 2: 4 parts; every composition of k ≤ 6 seeds gets a distinct rank in order.
        let mut expected = 0u64;
        for k in 0..=6u32 {
            let count = binom_exact(u64::from(k) + 3, 3) as u64;
            let mut parts = [0u8; 4];
            unrank_layer(2, k, 0, &mut parts);
            for i in 0..count {
                let mut p2 = [0u8; 4];
                unrank_layer(2, k, i, &mut p2);
                assert_eq!(parts, p2);
                assert_eq!(parts.iter().map(|&c| u32::from(c)).sum::<u32>(), k);
                assert_eq!(
                    Geometry::<2>::rank(Geometry::<2>::from_parts(&parts)),
                    expected
                );
                expected += 1;
                let more = next_parts(&mut parts);
                assert_eq!(more, i + 1 < count);
            }
        }
        assert_eq!(expected, binom_exact(6 + 4, 4) as u64);
    }

    #[test]
    fn rank_space_limits() {
        assert_eq!(rank_space(6, 20), Some(225_792_840));
        assert!(rank_space(7, 98).is_some());
        assert!(rank_space(7, 255).is_none());
    }
}
