//! [`Game`] for [`TogyzPosition`]: every method is the inherent one of the same name.

use super::{
    IllegalMove, MoveParseError, PositionError, RulesError, TogyzDrawing, TogyzMove, TogyzPosition,
    TogyzRules, NOTATION_MAX_BYTES,
};
use crate::game::{Game, GameKind, HistoryEnd, HistoryRules, MoveList, Outcome};
use crate::Side;

impl Game for TogyzPosition {
    type Rules = TogyzRules;
    type RulesError = RulesError;
    type Move = TogyzMove;
    type MoveParseError = MoveParseError;
    type Error = IllegalMove;
    type PositionError = PositionError;
    type Drawing = TogyzDrawing;

    const KIND: GameKind = GameKind::Togyz;
    const NOTATION_MAX_BYTES: usize = NOTATION_MAX_BYTES;

    fn start(rules: TogyzRules) -> TogyzPosition {
        TogyzPosition::start(rules)
    }

    fn rules(&self) -> TogyzRules {
        TogyzPosition::rules(self)
    }

    fn parse(rules: TogyzRules, text: &str) -> Result<TogyzPosition, PositionError> {
        TogyzPosition::parse(rules, text)
    }

    fn drawing(&self) -> TogyzDrawing {
        TogyzPosition::drawing(self)
    }

    fn side_to_move(&self) -> Option<Side> {
        TogyzPosition::side_to_move(self)
    }

    fn legal_moves(&self) -> MoveList<TogyzMove> {
        TogyzPosition::legal_moves(self)
    }

    fn play(&self, mv: TogyzMove) -> Result<TogyzPosition, IllegalMove> {
        TogyzPosition::play(self, mv)
    }

    fn play_unchecked(&self, mv: TogyzMove) -> TogyzPosition {
        TogyzPosition::play_unchecked(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        TogyzPosition::outcome(self)
    }

    fn is_over(&self) -> bool {
        TogyzPosition::is_over(self)
    }

    /// The kumalaks the mover's kazan gained: a capture, a new tuzdyk's 3, and what was sown
    /// into his tuzdyk (TK-3, TK-4). `None` when the move ended the game by an empty row or
    /// the move limit, whose allotment of the rows goes into the same kazans (TK-6.1).
    fn captured_seeds(&self, mv: TogyzMove, next: &TogyzPosition) -> Option<u32> {
        let _ = mv;
        let me = self.side_to_move()?;
        if next.is_over() && next.row_total(Side::South) + next.row_total(Side::North) == 0 {
            let before = self.row_total(Side::South) + self.row_total(Side::North);
            let won = next.kazans_total() - self.kazans_total();
            if won == before {
                return None;
            }
        }
        Some(u32::from(next.kazan(me)) - u32::from(self.kazan(me)))
    }

    /// A move that raised the kazans: kumalaks never leave a kazan, so no earlier position
    /// can recur (TK-10.2).
    fn is_irreversible(&self, next: &TogyzPosition) -> bool {
        next.kazans_total() != self.kazans_total()
    }

    /// `move_limit` (TK-6.4).
    fn history_rules(&self) -> HistoryRules {
        TogyzPosition::history_rules(self)
    }

    /// Each player adds his row to his kazan (TK-6.4).
    fn end_by(&self, end: HistoryEnd) -> TogyzPosition {
        TogyzPosition::end_by(self, end)
    }
}
