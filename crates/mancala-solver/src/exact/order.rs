//! Kalah move ordering shared by the exact search ([`super::search`]), its first-guess
//! estimate, and the engine's Kalah extra-turn hint ([`crate::engine::Evaluate::order_hint`]).
//!
//! After the transposition table's move (which each search puts first itself):
//!
//! 1. extra turns, the rightmost house first (sowing a house left of another extra-turn
//!    house would add a seed to it and spoil its extra turn), as in Irving, Donkers and
//!    Uiterwijk, "Solving Kalah" (2000);
//! 2. the other moves by immediate gain (seeds into the mover's store, captures and the
//!    final sweep included, minus the opponent's), the largest first, also as there;
//! 3. among moves of equal gain, the one that leaves the **fewest seeds in the opponent's
//!    row** first (this project's rule: seeds sown into the opponent's row are material the
//!    opponent moves next and can bank, and an opponent with few seeds has few captures and
//!    extra turns); then the rightmost house.
//!
//! Rule 3 replaces the generation order (leftmost first) the ties had before. Measured alone
//! (nodes of `mancala solve --threads 1 --tt-mb 64`, BENCHMARKS.md "Move ordering"), it
//! searches fewer nodes on every board tried, m = 4…7: Kalah(6,4) empty capture with a
//! 20-seed database 29.8 M → 17.8 M, standard 86.9 M → 33.0 M, Kalah(5,5) empty capture
//! without a database 225 M → 147 M. The reference's tie rule alone (rightmost first) is
//! better on m = 6 but worse on m = 4 and 5; a history heuristic, a two-ply threat estimate
//! and the history alone (without the gain first) were tried and dropped (same table).

use crate::board::Kind;

/// The ordering score of a Kalah move (higher is tried first): `kind` of the move, `house`
/// its 0-based house counted from the mover's left (m − 1 is next to the store), `gain` its
/// immediate store gain in seeds (mover minus opponent) and `given` the seeds in the
/// opponent's row after the move (0 when the game ends). Extra turns score 2^29 + `house`;
/// other moves `gain` · 2^16 − `given` · 2^8 + `house` (gains are at most 2 · 255 seeds and
/// `given` at most 255, so the order is lexicographic: gain, then fewer given, then house).
#[inline(always)]
pub(crate) fn kalah_order_score(kind: Kind, house: usize, gain: i32, given: u32) -> i32 {
    match kind {
        Kind::Extra => (1 << 29) + house as i32,
        Kind::Switch | Kind::Over => (gain << 16) - ((given.min(255) as i32) << 8) + house as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_turns_rightmost_first_then_gains_then_fewest_given() {
        let right = kalah_order_score(Kind::Extra, 5, 1, 0);
        let left = kalah_order_score(Kind::Extra, 0, 1, 0);
        let capture = kalah_order_score(Kind::Switch, 2, 9, 40);
        let pass = kalah_order_score(Kind::Switch, 0, 1, 30);
        let quiet_few = kalah_order_score(Kind::Switch, 0, 0, 20);
        let quiet_many_right = kalah_order_score(Kind::Switch, 5, 0, 21);
        let quiet_many_left = kalah_order_score(Kind::Switch, 4, 0, 21);
        assert!(right > left && left > capture && capture > pass);
        assert!(pass > quiet_few && quiet_few > quiet_many_right);
        assert!(quiet_many_right > quiet_many_left);
    }
}
