//! The Oware evaluation (`docs/rules/oware.md`; rule ids OW-n.m), for every Oware rule set.
//!
//! # Scores
//!
//! Scores are in hundredths of a seed ([`SEED`]) for the player to move, and rank the
//! **result** first: a game is won by the larger final count (OW-6.5), so a finished game is
//! worth `SEED` × its final score (the mover's seeds minus the opponent's: captured counts
//! plus the allotment of the seeds left, OW-6.5, where an even split of a cycle cancels out)
//! plus [`RESULT`] for a win and minus it for a loss. Every won game thus scores above every
//! heuristic value and every drawn or lost game, and among won games the larger margin
//! scores higher. The same holds for the exact values of a database (a proven margin:
//! [`Evaluate::margin_score`]). The engine reports a proven score with the bonus taken off
//! ([`Evaluate::reported_score`]): `SEED` × the final margin, as before.
//!
//! # Evaluation
//!
//! The heuristic value of a position whose game goes on estimates the final margin: the
//! captured seeds (`SEED` × (mover's store − opponent's store): captured seeds never return,
//! OW-3), plus, on boards of six houses a side, an estimate of the mover's future captures
//! minus the opponent's (the value the `awari` databases hold exactly, OW-10.3) from these
//! terms of the board, weighted by [`FITTED`]:
//!
//! * the seeds in each house of each row (a seed in the mover's house 1 is worth most to
//!   him: it stays home longest);
//! * the houses of 1 or 2 seeds of each side (what a capture takes, OW-3.1);
//! * the largest capture the mover can make with one sowing, and the one the opponent could
//!   make were it his turn;
//! * the empty houses of each side (mobility and feeding, OW-5);
//! * the seeds each side's sowings would drop in the other row (seeds given away);
//! * the largest house of each side, and whether it laps (a store of seeds for a capture).
//!
//! The weights are fitted to the exact values of Abapa's neighbour database (see [`FITTED`]
//! for how to refit).
//! On other board sizes the terms are the hand-set ones: a quarter of a seed a seed in the
//! row, half a seed a house of 1 or 2. The value is kept within ±[`RESULT`]. History rules
//! (repetition, move limit) are not part of a position and not seen by this evaluation: the
//! search scores their ends exactly (`engine/search`).

use mancala_core::oware::OwarePosition;
use mancala_core::Side;

use core::hash::{Hash, Hasher};

use super::eval::{Evaluate, MixHasher, SEED};

/// The terms of one side: (store, seeds in its houses, houses holding 1 or 2 seeds).
fn side_terms(p: &OwarePosition, side: Side) -> (i32, i32, i32) {
    let houses = p.houses(side);
    let seeds: i32 = houses.iter().map(|&s| i32::from(s)).sum();
    let exposed = houses.iter().filter(|&&s| s == 1 || s == 2).count() as i32;
    (i32::from(p.store(side)), seeds, exposed)
}

/// The bonus of a won game, in score units: more than any margin (at most 255 seeds,
/// OW-8.1) and any heuristic value, far below the forced wins of win/loss games
/// ([`crate::engine::DECISIVE`]).
pub const RESULT: i32 = 300 * SEED;

/// The fitted weights of the six-house evaluation, in score units (hundredths of a seed):
/// the seeds in each of the mover's houses 1..6, in each of the opponent's houses 1..6, the
/// mover's and the opponent's houses of 1 or 2 seeds, the mover's largest capture of one
/// sowing, the opponent's (had he the move), the mover's and the opponent's empty houses,
/// the seeds the mover's sowings would drop in the opponent's row (every house sown once,
/// summed) and the opponent's in the mover's, the mover's and the opponent's largest house,
/// and whether that house laps (12 seeds or more, 1 or 0) for the mover and the opponent.
///
/// Fitted by least squares to the exact values of the Oware database of `grand_slam=none`
/// (`oware+majority=off+cycle_score=split`, Abapa's neighbour: `docs/oware-databases.md`)
/// at 18 to 24 seeds, 150,000 boards a level: on a disjoint sample of as many boards, RMSE
/// 3.01 seeds and R² 0.64, where the 18 weights fitted before to the `awari` databases at
/// 16 to 20 seeds (without the reaching seeds, largest houses and laps) reach 3.32 seeds and
/// 0.57, the same 18 terms refitted 3.29 and 0.58, and the hand-set weights 4.85 and 0.08.
/// To refit: `mancala egdb build --rules "oware+majority=off+cycle_score=split" --max-seeds
/// 24 --out egdb/`, then `cargo run --release -p mancala-solver --example oware_eval_fit --
/// egdb/awari+grand_slam=none.n24.egdb --from 18 --samples 150000` prints them (the
/// `units` of the fit with the candidates).
pub const FITTED: [i32; 24] = [
    67, 63, 64, 63, 71, 88, -69, -71, -71, -66, -68, -77, -10, 0, 131, -31, -89, 96, -98, 80, -13,
    31, 120, -105,
];

/// The seeds the sowings of the player whose six houses come first in `h` would drop in the
/// opponent's row, each house sown once from this board and the drops summed: a full lap (11
/// seeds, the emptied house skipped, OW-2.3) drops 6 there, the rest one a house from the
/// next house on.
fn reach(h: &[u8; 12]) -> i32 {
    let mut seeds = 0;
    for (i, &s) in h[..6].iter().enumerate() {
        let (laps, rest) = (usize::from(s) / 11, usize::from(s) % 11);
        let partial = ((i + rest).min(11) + 1).saturating_sub((i + 1).max(6));
        seeds += 6 * laps + partial;
    }
    seeds as i32
}

/// The six houses of each row, the mover's first.
fn rows6(p: &OwarePosition, me: Side) -> [u8; 12] {
    let mut h = [0u8; 12];
    for (i, s) in p
        .houses(me)
        .iter()
        .chain(p.houses(me.opponent()).iter())
        .enumerate()
    {
        h[i] = *s;
    }
    h
}

/// The largest capture of one sowing by the player whose six houses come first in `h`
/// (the opponent's six after them): a sowing of at most 11 seeds (no lap) ending in the
/// opponent's row takes the chain of houses of 2 or 3 seeds back from its last house
/// (OW-3.1). Grand-slam rules are not looked at.
fn best_capture(h: &[u8; 12]) -> i32 {
    let mut best = 0;
    for i in 0..6 {
        let s = usize::from(h[i]);
        if s == 0 || i + s < 6 || i + s > 11 {
            continue;
        }
        let mut last = i + s;
        let mut got = 0;
        while last >= 6 {
            let c = i32::from(h[last]) + 1;
            if c == 2 || c == 3 {
                got += c;
                last -= 1;
            } else {
                break;
            }
        }
        best = best.max(got);
    }
    best
}

impl Evaluate for OwarePosition {
    fn evaluate(&self) -> i32 {
        let Some(me) = self.side_to_move() else {
            return 0;
        };
        let (store, seeds, exposed) = side_terms(self, me);
        let (o_store, o_seeds, o_exposed) = side_terms(self, me.opponent());
        let stores = SEED * (store - o_store);
        if self.rules().houses() != 6 {
            return stores + SEED / 4 * (seeds - o_seeds) + SEED / 2 * (o_exposed - exposed);
        }
        let h = rows6(self, me);
        let mut v = stores;
        for i in 0..12 {
            v += FITTED[i] * i32::from(h[i]);
        }
        let mut flipped = [0u8; 12];
        flipped[..6].copy_from_slice(&h[6..]);
        flipped[6..].copy_from_slice(&h[..6]);
        let empty = |r: &[u8]| r.iter().filter(|&&s| s == 0).count() as i32;
        let largest = |r: &[u8]| i32::from(r.iter().copied().max().unwrap_or(0));
        let (big, o_big) = (largest(&h[..6]), largest(&h[6..]));
        v += FITTED[12] * exposed
            + FITTED[13] * o_exposed
            + FITTED[14] * best_capture(&h)
            + FITTED[15] * best_capture(&flipped)
            + FITTED[16] * empty(&h[..6])
            + FITTED[17] * empty(&h[6..])
            + FITTED[18] * reach(&h)
            + FITTED[19] * reach(&flipped)
            + FITTED[20] * big
            + FITTED[21] * o_big
            + FITTED[22] * i32::from(big >= 12)
            + FITTED[23] * i32::from(o_big >= 12);
        v.clamp(-RESULT, RESULT)
    }

    fn final_value(&self, side: Side) -> i32 {
        let score = self.outcome().map_or(0, |o| o.score);
        let v = Self::margin_score(score);
        match side {
            Side::South => v,
            Side::North => -v,
        }
    }

    fn margin_score(margin: i32) -> i32 {
        SEED * margin + RESULT * margin.signum()
    }

    fn reported_score(score: i32) -> i32 {
        if score > RESULT {
            score - RESULT
        } else if score < -RESULT {
            score + RESULT
        } else {
            score
        }
    }

    fn hash_key(&self) -> u64 {
        let mut h = MixHasher(0x2545_f491_4f6c_dd1d);
        self.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::oware::OwareRules;

    /// X12 of the rules (majority, oware): South's move 6 captures 2 (N1 = 1 + 1), reaching
    /// 26 of 48: the game ends, 26–13, so the finished position is worth +13 seeds to South.
    #[test]
    fn a_finished_game_is_worth_its_final_score() {
        let p = OwarePosition::parse(OwareRules::OWARE, "0,0,0,0,0,1,24,1,1,3,5,0,0,13 S").unwrap();
        let end = p.play(mancala_core::oware::OwareMove(6)).unwrap();
        assert!(end.is_over());
        // A win: the result bonus and the margin.
        assert_eq!(end.final_value(Side::South), RESULT + 13 * SEED);
        assert_eq!(end.final_value(Side::North), -RESULT - 13 * SEED);
        assert_eq!(OwarePosition::reported_score(RESULT + 13 * SEED), 13 * SEED);
        assert_eq!(
            OwarePosition::reported_score(-RESULT - 13 * SEED),
            -13 * SEED
        );
    }

    /// The start: four seeds in every house, no house of 1 or 2, no capture of one sowing
    /// (every sowing that reaches the other row ends in a house of 4), no empty house, equal
    /// stores, largest houses of 4 (no lap). Each row's sowings drop in the other row
    /// 0 + 0 + 1 + 2 + 3 + 4 = 10 seeds (house 3's four seeds reach houses 4, 5, 6 and the
    /// other row's house 1, and so on).
    #[test]
    fn the_start_by_hand() {
        let seeds = 4 * (67 + 63 + 64 + 63 + 71 + 88) + 4 * (-69 - 71 - 71 - 66 - 68 - 77);
        let by_hand = seeds + 10 * -98 + 10 * 80 + 4 * -13 + 4 * 31;
        assert_eq!(by_hand, -132);
        assert_eq!(OwarePosition::start(OwareRules::OWARE).evaluate(), by_hand);
    }

    /// The capture term: South 0,0,0,0,2,1 against North 1,0,0,0,0,0, South to move.
    #[test]
    fn a_capture_of_one_sowing_by_hand() {
        // South to move: S5 (2 seeds) ends in N1 (1 + 1 = 2): a capture of 2. S6 (1 seed)
        // ends in N1 too: 2 as well. North, had he the move: N1 (1 seed) ends in N2: his row.
        let p = OwarePosition::parse(OwareRules::OWARE, "0,0,0,0,2,1,20,1,0,0,0,0,0,24 S").unwrap();
        let seeds = 2 * 71 + 88 - 69;
        // North's house of 1 weighs 0.
        let exposed = 2 * -10;
        let capture = 2 * 131;
        let empty = 4 * -89 + 5 * 96;
        // S5 drops one seed in North's row (N1), S6 one (N1); N1's seed stays in his row.
        let reaching = 2 * -98;
        // Largest houses: South's 2, North's 1, neither laps.
        let largest = 2 * -13 + 31;
        assert_eq!(
            p.evaluate(),
            100 * (20 - 24) + seeds + exposed + capture + empty + reaching + largest
        );
    }

    /// The seeds reaching the other row, with a lap: house 1 of 12 seeds sows houses 2..12
    /// (11 seeds, its own house skipped, six of them in the other row) and then house 2;
    /// house 6 of 5 seeds sows the other row's houses 1..5; house 3 of 1 seed sows house 4.
    #[test]
    fn seeds_reaching_the_other_row_by_hand() {
        let h = [12, 0, 1, 0, 0, 5, 0, 0, 0, 0, 0, 0];
        assert_eq!(reach(&h), 6 + 5);
        let flipped = [0, 0, 0, 0, 0, 0, 12, 0, 1, 0, 0, 5];
        assert_eq!(reach(&flipped), 0);
    }
}
