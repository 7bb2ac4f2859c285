//! Kalah move ordering shared by the exact search ([`super::search`]), its first-guess
//! estimate, and the engine's Kalah extra-turn hint ([`crate::engine::Evaluate::order_hint`]).
//!
//! After the transposition table's move (which each search puts first itself):
//!
//! 1. moves that pass the turn with an immediate gain of at least [`BIG_CAPTURE`] seeds
//!    (seeds into the mover's store, captures and the final sweep included, minus the
//!    opponent's): the largest first;
//! 2. extra turns, the rightmost house first (sowing a house left of another extra-turn
//!    house would add a seed to it and spoil its extra turn), as in Irving, Donkers and
//!    Uiterwijk, "Solving Kalah" (2000), where the extra turns come before every other move;
//! 3. the other moves by immediate gain, the largest first, also as there;
//! 4. among moves of equal gain, by one of two tie rules ([`TieRule`]), chosen once per solve
//!    from the root position:
//!    * [`TieRule::FewestGiven`]: the move that leaves the **fewest seeds in the opponent's
//!      row** first (seeds sown into the opponent's row are material the opponent moves next
//!      and can bank), then the rightmost house;
//!    * [`TieRule::NearStore`]: the move that leaves the opponent the **fewest houses holding
//!      exactly the seeds of an extra turn** first (each is a reply that keeps the opponent
//!      on the move, so a proof must refute the whole chain behind it), then the house nearest
//!      the store unless another gives at least two seeds fewer per house of distance.
//!
//! The second rule wins on boards whose houses hold on average 0.4·m to 0.7·m seeds (a
//! typical sowing stops short of the store), the first on the boards with more seeds a house
//! and the two smallest below (this project's measurements, docs/performance-history.md "Move ordering":
//! Kalah(6,4) empty capture with a 20-seed database 17.8 M → 9.2 M nodes, standard 33.0 M →
//! 23.2 M, Kalah(7,3) empty capture 40.9 M → 12.6 M, while Kalah(5,4) empty capture needs
//! 2.0 M nodes under the second rule against 1.0 M under the first). The rule is chosen at the
//! root and kept for the whole tree: the order near the root decides which subtrees must be
//! proven, and mixing the rules along a path (choosing per node by its own density) searched
//! more nodes than either rule alone. Before both rules, ties were broken by generation order
//! (leftmost first): Kalah(6,4) empty capture 29.8 M, standard 86.9 M. The reference's tie
//! rule alone (rightmost first) is between the two; a history heuristic, a two-ply threat
//! estimate, ordering by a shallow search of each child and the history alone (without the
//! gain first) were tried and dropped (same section).

use crate::board::Kind;

/// Moves that pass the turn and gain at least this many seeds at once (a large capture) are
/// tried before the extra turns (rule 1 of the module docs). An extra turn banks one seed and
/// keeps the move; a capture of seven or more is worth more than that almost always, and the
/// refutation it gives is cheaper to prove. Chosen from the thresholds 2, 3, 5, 6, 7, 8, 9
/// and 13 on 19 start positions of m = 4…7 (docs/performance-history.md, "Move ordering"): with
/// 7, no board searches more than 0.03 % more nodes than with the extra turns first;
/// Kalah(5,4) and (4,6) and the empty-capture Kalah(5,4) and (5,5) search 10–15 % fewer, and
/// Kalah(6,4) empty capture with a 20-seed database 4 % fewer. 6 or fewer searches more on
/// Kalah(6,3) empty capture; 8 or more gives back most of the gain on Kalah(5,4).
pub(crate) const BIG_CAPTURE: i32 = 7;

/// How the moves of equal immediate gain that pass the turn are ordered (rule 3 of the
/// module docs), chosen once per solve from the root position ([`TieRule::for_root`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TieRule {
    /// The fewest seeds in the opponent's row first, then the rightmost house.
    #[default]
    FewestGiven,
    /// The fewest opponent houses that hold exactly the seeds of an extra turn first, then
    /// by `2 · house − given` (the house nearest the store, unless another gives at least two
    /// seeds fewer per house further from it).
    NearStore,
}

impl TieRule {
    /// The rule for a solve whose root has `seeds` seeds in the houses of an m-house board:
    /// [`TieRule::NearStore`] when the houses hold on average between 0.4·m and 0.7·m seeds
    /// (`0.8·m² ≤ seeds ≤ 1.4·m²`: a typical sowing stops short of the store), otherwise
    /// [`TieRule::FewestGiven`]. Measured on every start position of m = 4…7 that solves in
    /// minutes (docs/performance-history.md, "Move ordering"): in that band the second rule searches
    /// 0.3–0.7× the nodes of the first (Kalah(6,4) empty capture with a 20-seed database
    /// 17.8 M → 9.2 M), outside it 1.1–2× more.
    pub(crate) fn for_root(m: usize, seeds: u32) -> TieRule {
        let (s, mm) = (u64::from(seeds) * 10, (m * m) as u64);
        if (8 * mm..=14 * mm).contains(&s) {
            TieRule::NearStore
        } else {
            TieRule::FewestGiven
        }
    }
}

/// The ordering score of a Kalah move (higher is tried first) under tie rule `rule`: `kind`
/// of the move, `house` its 0-based house counted from the mover's left (m − 1 is next to
/// the store), `gain` its immediate store gain in seeds (mover minus opponent), `given` the
/// seeds in the opponent's row after the move and `opp_extra` the opponent's houses that then
/// hold exactly the seeds of an extra turn (both 0 when the game ends; `opp_extra` is read
/// only by [`TieRule::NearStore`]). Other moves score `gain` · 2^17 plus a tie key:
/// `house − given · 2^8` ([`TieRule::FewestGiven`]) or `2 · house − given − opp_extra · 2^12`
/// ([`TieRule::NearStore`]); extra turns score ([`BIG_CAPTURE`] − 1) · 2^17 + 2^16 + `house`.
/// A house is at most 7, `given` at most 255 and `opp_extra` at most 7, so every tie key lies
/// in [−65,280, 14] ⊂ (−2^16, 2^16 − 2^8): the gain always comes first, and the extra turns
/// fall between every move of gain [`BIG_CAPTURE`] − 1 and every move of gain
/// [`BIG_CAPTURE`]. Gains are at most 2 · 255 seeds, so no score overflows.
#[inline(always)]
pub(crate) fn kalah_order_score(
    rule: TieRule,
    kind: Kind,
    house: usize,
    gain: i32,
    given: u32,
    opp_extra: u32,
) -> i32 {
    let (h, given) = (house as i32, given.min(255) as i32);
    match kind {
        Kind::Extra => ((BIG_CAPTURE - 1) << 17) + (1 << 16) + h,
        Kind::Switch | Kind::Over => {
            let tie = match rule {
                TieRule::FewestGiven => h - (given << 8),
                TieRule::NearStore => 2 * h - given - ((opp_extra.min(7) as i32) << 12),
            };
            (gain << 17) + tie
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_captures_then_extra_turns_rightmost_first_then_gains_then_fewest_given() {
        let f = |kind, house, gain, given| {
            kalah_order_score(TieRule::FewestGiven, kind, house, gain, given, 0)
        };
        // A capture of seven seeds, even giving the opponent every seed of its row and from
        // the leftmost house, before the best-placed extra turn.
        let big = f(Kind::Switch, 0, 7, 255);
        let right = f(Kind::Extra, 7, 1, 0);
        let left = f(Kind::Extra, 0, 1, 0);
        // A capture of six, even giving nothing from the rightmost house, after the worst one.
        let capture = f(Kind::Switch, 7, 6, 0);
        let pass = f(Kind::Switch, 0, 1, 30);
        let quiet_few = f(Kind::Switch, 0, 0, 20);
        let quiet_many_right = f(Kind::Switch, 5, 0, 21);
        let quiet_many_left = f(Kind::Switch, 4, 0, 21);
        assert!(big > right && right > left && left > capture && capture > pass);
        assert!(pass > quiet_few && quiet_few > quiet_many_right);
        assert!(quiet_many_right > quiet_many_left);
    }

    #[test]
    fn near_store_orders_gain_then_opponent_extra_turns_then_house_and_given() {
        let f = |house, gain, given, opp_extra| {
            kalah_order_score(
                TieRule::NearStore,
                Kind::Switch,
                house,
                gain,
                given,
                opp_extra,
            )
        };
        // The gain first, whatever the tie key (the largest key against the smallest).
        assert!(f(0, 1, 255, 7) > f(5, 0, 0, 0));
        // Then the fewest opponent extra-turn houses, whatever the house and the seeds given.
        assert!(f(0, 0, 255, 0) > f(5, 0, 0, 1));
        // Then 2 · house − given: the house nearer the store unless it gives two seeds more per
        // house of distance.
        assert!(f(5, 0, 10, 0) > f(4, 0, 9, 0));
        assert!(f(4, 0, 8, 0) > f(5, 0, 11, 0));
        // Extra turns come after the captures of seven seeds or more and before the moves
        // of six or less under both rules, whatever their tie keys.
        let extra = kalah_order_score(TieRule::NearStore, Kind::Extra, 0, 1, 0, 0);
        let extra_right = kalah_order_score(TieRule::NearStore, Kind::Extra, 7, 1, 0, 0);
        assert!(f(0, 7, 255, 7) > extra_right);
        assert!(extra > f(7, 6, 0, 0));
    }

    #[test]
    fn the_rule_follows_the_roots_seeds_per_house() {
        // The band 0.8·m² ≤ seeds ≤ 1.4·m², derived here from the seeds a house holds on
        // average (seeds / 2m) between 0.4·m and 0.7·m, checked at its edges for m = 4…7.
        for m in 4..=7usize {
            for seeds in 0..=200u32 {
                let per_house = f64::from(seeds) / (2 * m) as f64;
                let inside =
                    per_house >= 0.4 * m as f64 - 1e-9 && per_house <= 0.7 * m as f64 + 1e-9;
                let want = if inside {
                    TieRule::NearStore
                } else {
                    TieRule::FewestGiven
                };
                assert_eq!(TieRule::for_root(m, seeds), want, "m = {m}, {seeds} seeds");
            }
        }
    }
}
