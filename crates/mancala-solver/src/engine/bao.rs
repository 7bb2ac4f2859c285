//! The Bao la Kete evaluation (`docs/rules/bao-la-kete.md`; rule ids K-x.y).
//!
//! Bao is won or lost, never drawn (K-10.3): a finished game is worth ±[`WIN`] (shortened by
//! one unit a ply by the search, so faster wins score higher). The heuristic value of a
//! position, for the side to move, in hundredths of a seed ([`SEED`]), is the sum of:
//!
//! * **material** — `SEED` × (seeds on the mover's 16 pits and in its reserve − the same for
//!   the opponent). Seeds never leave the board (K-4.1); captures move them from the loser's
//!   front row to the captor's side, so material is the running count of captures;
//! * **seeds in the front row** — `SEED / 4` × (mover's front-row seeds − opponent's): only
//!   front-row seeds can capture and be captured (K-6.3), and an empty front row loses
//!   (K-10.1);
//! * **occupied front pits** — `SEED / 2` × (mover's occupied front pits − opponent's), and
//!   a further `3 · SEED` against a side with at most one occupied front pit, which is one
//!   capture away from losing (K-6.7, K-10.1);
//! * **captures threatened** — own front pit `Fi` faces the opponent's `f(9−i)` (K-3.4); when
//!   both are occupied either side may capture the other's pit (at once in the nemo stage,
//!   K-7.1; by a sowing that ends there in the mtaji stage, K-6.3). The mover strikes first:
//!   `SEED / 2` × the largest opponent pit facing an occupied mover pit, minus `SEED / 4` ×
//!   the largest mover pit facing an occupied opponent pit;
//! * **kuu standing** — `2 · SEED` for a side whose kuu still stands (K-9): it holds at least
//!   six seeds, gives the nemo-stage kuu choices (K-7.3 to K-7.5) and may not be emptied by
//!   an ordinary takata.
//!
//! The weights are set by hand, like the Kalah ones, and checked by the matches in
//! `BENCHMARKS.md` (playing engine).

use core::hash::{Hash, Hasher};

use mancala_core::bao::BaoPosition;
use mancala_core::Side;

use super::eval::{Evaluate, MixHasher, SEED, WIN};

/// The terms of one side: (material, front-row seeds, occupied front pits, front row).
fn side_terms(p: &BaoPosition, side: Side) -> (i32, i32, i32, [u8; 8]) {
    let layout = p.layout();
    let i = side.index();
    let front = layout.front[i];
    let front_seeds: i32 = front.iter().map(|&s| i32::from(s)).sum();
    let back_seeds: i32 = layout.back[i].iter().map(|&s| i32::from(s)).sum();
    let occupied = front.iter().filter(|&&s| s > 0).count() as i32;
    (
        front_seeds + back_seeds + i32::from(layout.reserve[i]),
        front_seeds,
        occupied,
        front,
    )
}

impl Evaluate for BaoPosition {
    /// Bao la Kete is won or lost (K-10.3): its scores are heuristic units or ±[`WIN`].
    const SCORED_IN_SEEDS: bool = false;

    fn evaluate(&self) -> i32 {
        let me = self.to_move();
        let (mat, front_seeds, occ, front) = side_terms(self, me);
        let (o_mat, o_front_seeds, o_occ, o_front) = side_terms(self, me.opponent());
        let mut v = SEED * (mat - o_mat);
        v += SEED / 4 * (front_seeds - o_front_seeds);
        v += SEED / 2 * (occ - o_occ);
        if occ <= 1 {
            v -= 3 * SEED;
        }
        if o_occ <= 1 {
            v += 3 * SEED;
        }
        let mut mover_best = 0;
        let mut opp_best = 0;
        for k in 0..8 {
            let (mine, theirs) = (i32::from(front[k]), i32::from(o_front[7 - k]));
            if mine > 0 && theirs > 0 {
                mover_best = mover_best.max(theirs);
                opp_best = opp_best.max(mine);
            }
        }
        v += SEED / 2 * mover_best - SEED / 4 * opp_best;
        if self.kuu_stands(me) {
            v += 2 * SEED;
        }
        if self.kuu_stands(me.opponent()) {
            v -= 2 * SEED;
        }
        v
    }

    fn final_value(&self, side: Side) -> i32 {
        match self.outcome().and_then(|o| o.winner) {
            Some(w) if w == side => WIN,
            Some(_) => -WIN,
            None => 0,
        }
    }

    fn hash_key(&self) -> u64 {
        let mut h = MixHasher(0x9e37_79b9_7f4a_7c15);
        self.hash(&mut h);
        h.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::bao::BaoRules;

    #[test]
    fn start_is_balanced() {
        // Symmetric start: every term cancels.
        let p = BaoPosition::start(BaoRules::LAMU);
        assert_eq!(p.evaluate(), 0);
    }

    #[test]
    fn terms_by_hand() {
        // South's nemo takata F7> from the start: a reserve seed into F7 (now 3), sown
        // clockwise into F8, B8, B7; B7 was empty, so the move ends (K-6.2). South: F5 6,
        // F6 2, F8 1, B8 1, B7 1, reserve 21 (32 seeds); North untouched: f5 6, f6 2, f7 2,
        // reserve 22 (32). North to move: material 0; front seeds 10 − 9 → +25; occupied
        // front pits 3 − 3 → 0; North's f5, f6, f7 face South's F4, F3, F2, all empty → no
        // threat; both kuus stand → 0. Total +25.
        let start = BaoPosition::start(BaoRules::LAMU);
        let p = start.play("F7>".parse().unwrap()).unwrap();
        let l = p.layout();
        assert_eq!(l.front[0], [0, 0, 0, 0, 6, 2, 0, 1]);
        assert_eq!(l.back[0], [0, 0, 0, 0, 0, 0, 1, 1]);
        assert_eq!(l.reserve, [21, 22]);
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(p.evaluate(), 25);
    }

    #[test]
    fn threats_and_a_fallen_kuu_by_hand() {
        // South to move (nemo stage, reserves 10 each), from South's view:
        //   South front F1..F8 = 0,2,0,0,6,0,0,0 (kuu stands), back all 0 → 8 + 10 = 18
        //   North front f1..f8 = 0,0,0,0,0,0,5,3, back b1 = 28 → 36 + 10 = 46; kuu fallen.
        // Material 18 − 46 = −28 → −2800. Front seeds 8 − 8 → 0. Occupied 2 − 2 → 0.
        // South's F2 (index 1) faces North's index 6 = f7 (5): a threat both ways: +50 × 5
        // − 25 × 2 = +200. South's F5 (index 4) faces f4 (index 3) = 0: none. Kuu: South's
        // stands, North's fallen → +200. Total −2800 + 200 + 200 = −2400.
        use mancala_core::bao::BaoLayout;
        let layout = BaoLayout {
            front: [[0, 2, 0, 0, 6, 0, 0, 0], [0, 0, 0, 0, 0, 0, 5, 3]],
            back: [[0; 8], [28, 0, 0, 0, 0, 0, 0, 0]],
            reserve: [10, 10],
            kuu: [true, false],
            to_move: Side::South,
            reserved: None,
            block_turns_left: 0,
        };
        let p = BaoPosition::new(BaoRules::LAMU, &layout).unwrap();
        assert_eq!(p.evaluate(), -2400);
    }

    #[test]
    fn hash_tells_positions_apart() {
        let start = BaoPosition::start(BaoRules::LAMU);
        let a = start.play("F7>".parse().unwrap()).unwrap();
        let b = start.play("F6<".parse().unwrap()).unwrap();
        assert_ne!(a.hash_key(), b.hash_key());
        assert_ne!(start.hash_key(), a.hash_key());
        assert_eq!(a.hash_key(), a.hash_key());
    }
}
