//! What a move did that a redrawn board does not say at a glance, for `mancala play`: the
//! seeds it captured and an extra turn; and how the game ended when a history rule
//! (Oware's repetition rule or move limit) ended it.

use std::any::Any;

use mancala_core::bao::{BaoPosition, Pit};
use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::oware::OwarePosition;
use mancala_core::{Game, HistoryEnd, Side};

/// The opponent's seeds the mover took with `mv` from `before` to `after`, or `None` when
/// it cannot be told apart from the end-of-game sweep or allotment (a move that ends a Kalah
/// or Oware game) or the move sows nothing (the pie-rule swap).
///
/// Kalah (`docs/rules/kalah.md`): the mover's store gains the seeds sown into it and the
/// captured ones (the opposite house's seeds and the capturing seed itself); the seeds sown
/// into the store follow from the house and its count alone (one a lap of 2m + 1 slots, the
/// opponent's store skipped). Oware: the captured count grows by the captures only (OW-5).
/// Bao la Kete: sowing never reaches the opponent's rows, so what they and the opponent's
/// reserve lose is what was captured.
pub fn captured<G: Game>(before: &G, mv: G::Move, after: &G) -> Option<u32> {
    let side = before.side_to_move()?;
    let (b, a, m): (&dyn Any, &dyn Any, &dyn Any) = (before, after, &mv);
    if let (Some(b), Some(a), Some(&KalahMove::House(h))) = (
        b.downcast_ref::<KalahPosition>(),
        a.downcast_ref::<KalahPosition>(),
        m.downcast_ref::<KalahMove>(),
    ) {
        if a.is_over() {
            return None;
        }
        let houses = u32::try_from(b.houses(side).len()).ok()?;
        let seeds = u32::from(b.house(side, h)?);
        let to_store = houses - u32::from(h) + 1;
        let sown = if seeds >= to_store {
            1 + (seeds - to_store) / (2 * houses + 1)
        } else {
            0
        };
        let gain = u32::from(a.store(side)).checked_sub(u32::from(b.store(side)))?;
        // A capture also banks the capturing seed, which was the mover's own.
        return Some(gain.saturating_sub(sown).saturating_sub(1));
    }
    if let (Some(b), Some(a)) = (
        b.downcast_ref::<OwarePosition>(),
        a.downcast_ref::<OwarePosition>(),
    ) {
        if a.is_over() {
            return None;
        }
        return u32::from(a.store(side)).checked_sub(u32::from(b.store(side)));
    }
    if let (Some(b), Some(a)) = (
        b.downcast_ref::<BaoPosition>(),
        a.downcast_ref::<BaoPosition>(),
    ) {
        let held = |p: &BaoPosition| -> u32 {
            let opponent = side.opponent();
            (0..16u8)
                .filter_map(Pit::from_index)
                .map(|pit| u32::from(p.seeds(opponent, pit)))
                .sum::<u32>()
                + u32::from(p.reserve(opponent))
        };
        return held(b).checked_sub(held(a));
    }
    None
}

/// The lines `play` prints after `mv` took `before` to `after`: the seeds captured, and an
/// extra turn (the same side to move again after a move that is not a pie-rule swap);
/// `player` names a side as the game's player (`player 1 (South)`).
pub fn after_move<G: Game>(
    before: &G,
    mv: G::Move,
    after: &G,
    player: impl Fn(Side) -> String,
) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(n) = captured(before, mv, after).filter(|&n| n > 0) {
        let plural = if n == 1 { "" } else { "s" };
        lines.push(format!("captures {n} seed{plural}"));
    }
    if let (Some(s), Some(t)) = (before.side_to_move(), after.side_to_move()) {
        if s == t && !before.swaps_players(mv) {
            lines.push(format!("extra turn: {} moves again", player(t)));
        }
    }
    lines
}

/// Why a history rule ended the game, as `play` says it before the result.
pub fn history_end(end: HistoryEnd, repetition: Option<u8>, move_limit: Option<u16>) -> String {
    match end {
        HistoryEnd::Repetition => format!(
            "the position has occurred {} times: the game ends by the cycle rule",
            repetition.unwrap_or(0)
        ),
        HistoryEnd::MoveLimit => format!(
            "{} moves have been played: the game ends by the move limit",
            move_limit.unwrap_or(0)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::KalahRules;

    fn kalah(rules: &str, text: &str) -> KalahPosition {
        let rules: KalahRules = rules.parse().unwrap();
        KalahPosition::parse(rules, text).unwrap()
    }

    #[test]
    fn kalah_capture_and_extra_turn_by_hand() {
        // Kalah(6,4) start, South sows house 3 (4 seeds): houses 4, 5, 6 and the store, the
        // last seed in the store: an extra turn, nothing captured.
        let start = KalahPosition::start(KalahRules::default());
        let after = start.play(KalahMove::House(3)).unwrap();
        assert_eq!(captured(&start, KalahMove::House(3), &after), Some(0));
        let lines = after_move(&start, KalahMove::House(3), &after, |s| s.to_string());
        assert_eq!(lines, ["extra turn: South moves again"]);
        // South's house 1 holds 1 seed and house 2 is empty; North's house opposite South's
        // house 2 (North's house 5) holds 7: sowing house 1 drops its seed into the empty
        // house 2, which captures the 7 and the capturing seed (store 0 → 8).
        let before = kalah("standard", "1,0,4,4,4,4,0,4,4,4,4,7,4,0 S");
        let after = before.play(KalahMove::House(1)).unwrap();
        assert_eq!(after.store(Side::South), 8);
        assert_eq!(captured(&before, KalahMove::House(1), &after), Some(7));
        let lines = after_move(&before, KalahMove::House(1), &after, |s| s.to_string());
        assert_eq!(lines, ["captures 7 seeds"]);
    }
}
