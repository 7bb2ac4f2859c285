//! Kalah move ordering shared by the exact search ([`crate::search`]) and the engine's Kalah
//! evaluation ([`crate::engine::Evaluate::order_hint`]).
//!
//! After the transposition table's move (which each search puts first itself): extra turns,
//! the rightmost house first (sowing a house left of another extra-turn house would add a
//! seed to it and spoil its extra turn), then the other moves by immediate gain (seeds into
//! the mover's store, captures included, minus the opponent's), the largest first. The order
//! follows Irving, Donkers and Uiterwijk, "Solving Kalah" (2000).

use crate::board::Kind;

/// The ordering score of a Kalah move (higher is tried first): `kind` of the move, `house`
/// its 0-based house counted from the mover's left (m − 1 is next to the store) and `gain`
/// its immediate store gain in seeds (mover minus opponent). Extra turns score
/// 1000 + `house`; other moves 10 × `gain` (gains are at most 2 · 255 seeds, far below).
#[inline(always)]
pub(crate) fn kalah_order_score(kind: Kind, house: usize, gain: i32) -> i32 {
    match kind {
        Kind::Extra => 1000 + house as i32,
        Kind::Switch | Kind::Over => 10 * gain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_turns_rightmost_first_then_gains() {
        let right = kalah_order_score(Kind::Extra, 5, 1);
        let left = kalah_order_score(Kind::Extra, 0, 1);
        let capture = kalah_order_score(Kind::Switch, 2, 9);
        let quiet = kalah_order_score(Kind::Switch, 3, 0);
        assert!(right > left && left > capture && capture > quiet);
    }
}
