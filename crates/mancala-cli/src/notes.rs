//! What a move did that a redrawn board does not say at a glance, for `mancala play`: the
//! seeds it captured and an extra turn; and how the game ended when a history rule
//! (Oware's repetition rule or move limit) ended it.

use mancala_core::{Game, GameKind, HistoryEnd, Side};

/// `n` of the game's counters in words: `1 seed`, `7 seeds`; in Togyz Kumalak, whose
/// counters are kumalaks (`docs/rules/togyz-kumalak.md`), `1 kumalak`, `7 kumalaks`.
pub fn counters<G: Game>(n: u32) -> String {
    let (one, many) = match G::KIND {
        GameKind::Togyz => ("kumalak", "kumalaks"),
        _ => ("seed", "seeds"),
    };
    mancala_core::words::count(n, one, many)
}

/// The lines `play` prints after `mv` took `before` to `after`: the seeds (kumalaks)
/// captured (each game's [`Game::captured_seeds`], in [`counters`]), and an extra turn (the same side to move again after a
/// move that is not a pie-rule swap); `player` names a side as the game's player
/// (`player 1 (South)`).
pub fn after_move<G: Game>(
    before: &G,
    mv: G::Move,
    after: &G,
    player: impl Fn(Side) -> String,
) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(n) = before.captured_seeds(mv, after).filter(|&n| n > 0) {
        lines.push(format!("captures {}", counters::<G>(n)));
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
        HistoryEnd::MoveLimit => {
            let n = move_limit.unwrap_or(0);
            let played = mancala_core::words::noun(n, "has", "have");
            format!(
                "{} {played} been played: the game ends by the move limit",
                mancala_core::words::count(n, "move", "moves")
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};

    #[test]
    fn kalah_capture_and_extra_turn_by_hand() {
        // Kalah(6,4) start, South sows house 3 (4 seeds): houses 4, 5, 6 and the store, the
        // last seed in the store: an extra turn, nothing captured.
        let start = KalahPosition::start(KalahRules::default());
        let after = start.play(KalahMove::House(3)).unwrap();
        let lines = after_move(&start, KalahMove::House(3), &after, |s| s.to_string());
        assert_eq!(lines, ["extra turn: South moves again"]);
        // South's house 1 holds 1 seed and house 2 is empty; North's house opposite South's
        // house 2 (North's house 5) holds 7: sowing house 1 drops its seed into the empty
        // house 2, which captures the 7 and the capturing seed (store 0 → 8).
        let rules: KalahRules = "standard".parse().unwrap();
        let before = KalahPosition::parse(rules, "1,0,4,4,4,4,0,4,4,4,4,7,4,0 S").unwrap();
        let after = before.play(KalahMove::House(1)).unwrap();
        assert_eq!(after.store(Side::South), 8);
        let lines = after_move(&before, KalahMove::House(1), &after, |s| s.to_string());
        assert_eq!(lines, ["captures 7 seeds"]);
    }

    #[test]
    fn togyz_counters_are_kumalaks() {
        use mancala_core::oware::OwarePosition;
        use mancala_core::togyz::TogyzPosition;
        assert_eq!(counters::<TogyzPosition>(1), "1 kumalak");
        assert_eq!(counters::<TogyzPosition>(10), "10 kumalaks");
        assert_eq!(counters::<OwarePosition>(1), "1 seed");
        assert_eq!(counters::<KalahPosition>(2), "2 seeds");
    }
}
