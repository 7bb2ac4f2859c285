//! [`Game`] for [`OwarePosition`]: every method is the inherent one of the same name, but
//! [`Game::captured_seeds`].

use super::{
    IllegalMove, MoveParseError, OwareDrawing, OwareMove, OwarePosition, OwareRules, PositionError,
    RulesError,
};
use crate::game::{Game, GameKind, HistoryEnd, HistoryRules, MoveList, Outcome};
use crate::Side;

impl Game for OwarePosition {
    type Rules = OwareRules;
    type RulesError = RulesError;
    type Move = OwareMove;
    type MoveParseError = MoveParseError;
    type Error = IllegalMove;
    type PositionError = PositionError;
    type Drawing = OwareDrawing;

    const KIND: GameKind = GameKind::Oware;
    const NOTATION_MAX_BYTES: usize = super::NOTATION_MAX_BYTES;

    fn start(rules: OwareRules) -> OwarePosition {
        OwarePosition::start(rules)
    }

    fn rules(&self) -> OwareRules {
        OwarePosition::rules(self)
    }

    fn parse(rules: OwareRules, text: &str) -> Result<OwarePosition, PositionError> {
        OwarePosition::parse(rules, text)
    }

    fn drawing(&self) -> OwareDrawing {
        OwarePosition::drawing(self)
    }

    fn side_to_move(&self) -> Option<Side> {
        OwarePosition::side_to_move(self)
    }

    fn legal_moves(&self) -> MoveList<OwareMove> {
        OwarePosition::legal_moves(self)
    }

    fn play(&self, mv: OwareMove) -> Result<OwarePosition, IllegalMove> {
        OwarePosition::play(self, mv)
    }

    fn play_unchecked(&self, mv: OwareMove) -> OwarePosition {
        OwarePosition::play_unchecked(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        OwarePosition::outcome(self)
    }

    fn is_over(&self) -> bool {
        OwarePosition::is_over(self)
    }

    /// The mover's captured count grows by the captures only (OW-3, OW-4); `None` for a move
    /// that ends the game, whose allotment of the seeds left (OW-6) also goes into the counts.
    fn captured_seeds(&self, _mv: OwareMove, next: &OwarePosition) -> Option<u32> {
        let side = self.side_to_move()?;
        if next.is_over() {
            return None;
        }
        u32::from(next.store(side)).checked_sub(u32::from(self.store(side)))
    }

    /// A capture (the captured counts grew): the seeds in the houses never increase (OW-2,
    /// OW-3), so no earlier position can recur (OW-6.2).
    fn is_irreversible(&self, next: &OwarePosition) -> bool {
        OwarePosition::captured_total(next) != OwarePosition::captured_total(self)
    }

    /// `repetition` (OW-6.2) and `move_limit` (OW-6.4) of the rule set.
    fn history_rules(&self) -> HistoryRules {
        OwarePosition::history_rules(self)
    }

    /// The seeds left allotted by `cycle_score` (a repetition) or by rows (the move limit).
    fn end_by(&self, end: HistoryEnd) -> OwarePosition {
        OwarePosition::end_by(self, end)
    }
}
