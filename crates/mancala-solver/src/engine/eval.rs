//! What the search needs from a game ([`Evaluate`]), and the Kalah evaluation.
//!
//! # Score units
//!
//! Scores are `i32` relative to the player to move. Kalah scores are in hundredths of a seed
//! ([`SEED`] = 100 units): a finished game is worth `SEED` × its final store difference, so
//! an exact Kalah score divided by [`SEED`] is the final store difference (mover minus
//! opponent) under best play. Games scored only by win or loss (Bao la Kete) use ±[`WIN`];
//! any score beyond ±[`DECISIVE`] is a forced win or loss and the search shortens it by one
//! unit a ply, so that a faster win scores higher.
//!
//! # Kalah evaluation
//!
//! From the mover's point of view, in score units:
//!
//! * **store difference** — `SEED` × (mover's store − opponent's store), the only term of a
//!   finished game;
//! * **seeds in the rows** — `SEED / 4` × (seeds in the mover's houses − seeds in the
//!   opponent's houses): at the end each row is swept to its owner (`docs/rules/kalah.md`, "End of
//!   the game"), so seeds on one's own side are worth something, though far less than stored
//!   ones. Left out under `discard_remaining`, where the sweep gives them to nobody;
//! * **extra-turn moves** — `2 · SEED / 5` for each mover's house whose seeds end exactly in
//!   the mover's store (house h holding m + 1 − h seeds): the mover has a free move in hand;
//! * **capture threat** — `SEED / 2` × the largest capture the mover can make with one
//!   sowing (the opposite house plus the capturing seed, or the capturing seed alone under
//!   `empty_capture`): a quiescence-like hint that the horizon falls in the middle of a
//!   capture.
//!
//! The terms are the classic Kalah heuristics (store difference, seeds on one's own side,
//! free moves, captures) surveyed in the Kalah agent literature; their weights were set by
//! hand and checked by the level matches in `BENCHMARKS.md`.

use core::hash::Hasher;

use mancala_core::kalah::{KalahMove, KalahOption, KalahPosition};
use mancala_core::Side;

use crate::board::{store_gain, Kind};
use crate::exact::{kalah_order_score, TieRule};
use crate::exact_values::ExactGame;

/// A small [`Hasher`] that folds bytes into 64-bit words through [`mix64`].
pub(crate) struct MixHasher(pub(crate) u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        mix64(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.0 = mix64(self.0 ^ u64::from_le_bytes(w)).wrapping_add(chunk.len() as u64);
        }
    }
}

/// Score units per seed of Kalah store difference.
pub const SEED: i32 = 100;
/// The score of a won game for games scored only by win or loss (Bao la Kete), before the
/// one-unit-per-ply shortening.
pub const WIN: i32 = 1_000_000;
/// Scores above `DECISIVE` (or below −`DECISIVE`) are forced wins (losses).
pub const DECISIVE: i32 = WIN - 10_000;

/// What [`crate::engine::Engine`] needs from a game position beyond
/// [`Game`](mancala_core::Game): the heuristic side of the search. The exact side (the
/// game's database, its exact root solve) is [`ExactGame`], a supertrait, so that the
/// engine's one database slot is typed by the game and no method here names a database.
///
/// Every value is relative to a player: [`Evaluate::evaluate`] to the player to move,
/// [`Evaluate::final_value`] to the player on a given side.
pub trait Evaluate: ExactGame {
    /// Whether the game's scores are seeds ([`SEED`] units a seed: Kalah, Oware), not only a
    /// win or a loss (Bao la Kete: `false`). Front ends show `score / SEED` in seeds only
    /// when it is.
    const SCORED_IN_SEEDS: bool = true;

    /// The heuristic value of a position whose game is not over, for the player to move, in
    /// score units (for Kalah, hundredths of a seed; see the module documentation). Must lie
    /// strictly between −[`DECISIVE`] and [`DECISIVE`].
    fn evaluate(&self) -> i32;

    /// The exact value of a finished game for the player on `side`, in score units (Kalah:
    /// [`SEED`] × final store difference; win/loss games: ±[`WIN`], 0 for a draw).
    fn final_value(&self, side: Side) -> i32;

    /// A 64-bit hash of everything the value of the position depends on (board, side to move
    /// or its mover-relative equivalent, rule state), for the transposition table.
    fn hash_key(&self) -> u64;

    /// A game-specific ordering hint for the legal move `mv`, which leads to `child`: moves
    /// are tried by table move, killer moves, then this hint (higher first), then the static
    /// value of the child. Default 0 (static value only). Kalah puts extra turns first,
    /// rightmost first, by the exact solver's ordering (`exact/order.rs`).
    fn order_hint(&self, mv: Self::Move, child: &Self) -> i32 {
        let _ = (mv, child);
        0
    }

    /// The score of a proven final margin of `margin` seeds for the player to move (a
    /// database value plus the seeds stored): on the scale of [`Evaluate::final_value`].
    /// Default `SEED × margin`; Oware adds its result bonus ([`crate::engine::oware`]).
    fn margin_score(margin: i32) -> i32 {
        SEED * margin
    }

    /// The score a search reports for its internal score `score` (in score units, for the
    /// player to move). Default: the same; Oware takes its result bonus off, so that a
    /// proven Oware score is again `SEED` × the final margin.
    fn reported_score(score: i32) -> i32 {
        score
    }
}

/// The splitmix64 finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): a cheap 64-bit mixer for hash keys.
#[inline]
#[must_use]
pub(crate) fn mix64(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[inline(always)]
fn lane(x: u64, k: usize) -> i32 {
    i32::from((x >> (8 * k)) as u8)
}

impl Evaluate for KalahPosition {
    fn evaluate(&self) -> i32 {
        let rules = self.rules();
        let m = rules.houses() as usize;
        let (own, opp) = self.mover_relative();
        let mut v = SEED * (lane(own, m) - lane(opp, m));
        let mut own_row = 0;
        let mut opp_row = 0;
        let mut free = 0;
        let mut capture = 0;
        let l = 2 * m + 1;
        let empty_capture = rules.has(KalahOption::EmptyCapture);
        for h in 0..m {
            let s = lane(own, h);
            own_row += s;
            opp_row += lane(opp, h);
            if s as usize == m - h {
                free += 1;
            }
            if s > 0 && (s as usize) < l {
                let last = h + s as usize;
                if last < m && lane(own, last) == 0 {
                    let facing = lane(opp, m - 1 - last);
                    if facing > 0 || empty_capture {
                        capture = capture.max(facing + 1);
                    }
                }
            }
        }
        if !rules.has(KalahOption::DiscardRemaining) {
            v += SEED / 4 * (own_row - opp_row);
        }
        v + 2 * SEED / 5 * free + SEED / 2 * capture
    }

    fn final_value(&self, side: Side) -> i32 {
        let d = SEED * self.store_difference();
        match side {
            Side::South => d,
            Side::North => -d,
        }
    }

    fn hash_key(&self) -> u64 {
        let k = self.key();
        let rules = self.rules();
        let stores = (self.mover_store_difference() as u32 & 0xFFFF) as u64;
        let extra = stores
            | u64::from(rules.houses()) << 16
            | u64::from(rules.seeds()) << 24
            | u64::from(rules.options().bits()) << 32;
        mix64(k as u64 ^ mix64((k >> 64) as u64 ^ mix64(extra)))
    }

    /// The exact solver's ordering score (`exact/order.rs`) of an extra-turn move (always
    /// positive: extra turns first, rightmost house first); 0 for the other moves, which the
    /// engine then orders by the static value of the child instead of the solver's immediate
    /// gain (so the solver's rule that tries captures of seven seeds or more before the extra
    /// turns does not apply here). Nodes
    /// of fixed-depth searches (4 MiB table; Kalah(6,4) start at depth 12, the middle-game
    /// bench position at depth 12, Kalah(7,7) start at depth 10): 93.0 k, 63.6 k, 218.9 k
    /// this way; 94.2 k, 74.1 k, 223.3 k with the solver's order for every move; 93.3 k,
    /// 65.9 k, 219.1 k with the static value alone.
    #[inline]
    fn order_hint(&self, mv: KalahMove, child: &Self) -> i32 {
        let (KalahMove::House(h), Some(side)) = (mv, self.side_to_move()) else {
            return 0;
        };
        let kind = match child.side_to_move() {
            None => Kind::Over,
            Some(s) if s == side => Kind::Extra,
            Some(_) => Kind::Switch,
        };
        let house = usize::from(h).saturating_sub(1);
        if kind == Kind::Extra {
            kalah_order_score(
                TieRule::FewestGiven,
                kind,
                house,
                store_gain(self, child, side),
                0,
                0,
            )
        } else {
            // The other moves are left to the static value of the child, which orders by
            // the immediate gain (it is in the store difference) and finer.
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::KalahRules;
    use mancala_core::Game;

    fn pos(rules: &str, text: &str) -> KalahPosition {
        KalahPosition::parse(rules.parse().unwrap(), text).unwrap()
    }

    #[test]
    fn start_terms_by_hand() {
        // Kalah(6,4) start: stores equal, rows equal; house 3 (lane 2) holds 4 = 6 − 2 seeds,
        // a free move; no empty house, so no capture.
        let p = KalahPosition::start(KalahRules::standard());
        assert_eq!(p.evaluate(), 40);
    }

    #[test]
    fn terms_of_a_hand_position() {
        // South to move: stores 20 vs 25, rows 1 vs 2. South's house 5 holds 1 seed (a free
        // move would need 6 + 1 − 5 = 2); it lands in the empty house 6, facing North's
        // house 1, which is empty: no capture under the standard rules.
        let p = pos("standard", "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S");
        assert_eq!(p.evaluate(), 100 * (20 - 25) + 25 * (1 - 2));
        // Under empty_capture the same sowing takes the capturing seed alone (1 seed).
        let p = pos(
            "kalah(6,4)+empty_capture",
            "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S",
        );
        assert_eq!(p.evaluate(), 100 * (20 - 25) + 25 * (1 - 2) + 50);
        // North to move there: mover-relative, North's house 6 (lane 5) holds 2 seeds, no
        // free move (needs 1); 2 seeds from house 6 go to the store and South's house 1.
        let p = pos("standard", "0,0,0,0,1,0,20,0,0,0,0,0,2,25 N");
        assert_eq!(p.evaluate(), 100 * (25 - 20) + 25);
    }

    #[test]
    fn capture_threat_and_free_move() {
        // Kalah(3,1): South houses 1,0,0, North 0,0,5. South's house 1 (1 seed) lands in the
        // empty house 2, facing North's house 2 (index m − 1 − 1 = 1: 0 seeds): no capture.
        // House 3 would need 1 seed for a free move: it is empty.
        let p = pos("kalah(3,2)", "1,0,0,0,0,0,5,0 S");
        assert_eq!(p.evaluate(), 25 * (1 - 5));
        // North houses 0,5,0 instead: the same sowing captures 5 + 1 seeds.
        let p = pos("kalah(3,2)", "1,0,0,0,0,5,0,0 S");
        assert_eq!(p.evaluate(), 25 * (1 - 5) + 50 * 6);
        // South houses 0,0,1: house 3 ends in the store, a free move.
        let p = pos("kalah(3,2)", "0,0,1,0,0,5,0,0 S");
        assert_eq!(p.evaluate(), 25 * (1 - 5) + 40);
    }

    #[test]
    fn final_values_and_swaps() {
        let over = pos("standard", "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
        assert_eq!(over.final_value(Side::South), 1200);
        assert_eq!(over.final_value(Side::North), -1200);
        let p = KalahPosition::start(KalahRules::manchester());
        assert!(p.swaps_players(KalahMove::Swap));
        assert!(!p.swaps_players(KalahMove::House(1)));
    }

    #[test]
    fn hash_separates_sides_stores_and_rules() {
        let a = pos("standard", "1,2,3,4,5,6,0,6,5,4,3,2,1,0 S");
        let b = pos("standard", "1,2,3,4,5,6,1,6,5,4,3,2,1,0 S");
        let c = pos("standard", "1,2,3,4,5,6,0,6,5,4,3,2,1,0 N");
        let d = pos("kalah(6,4)+empty_capture", "1,2,3,4,5,6,0,6,5,4,3,2,1,0 S");
        // The mirrored position with the other side to move and the same mover-relative
        // board has the same value and the same hash.
        let e = pos("standard", "6,5,4,3,2,1,0,1,2,3,4,5,6,0 N");
        let hashes = [a, b, c, d].map(|p| p.hash_key());
        for i in 0..4 {
            for j in i + 1..4 {
                assert_ne!(hashes[i], hashes[j], "{i} {j}");
            }
        }
        assert_eq!(a.hash_key(), e.hash_key());
        assert_eq!(a.evaluate(), e.evaluate());
    }
}
