//! The `--rules` and `--position` arguments shared by the subcommands.

use mancala_core::kalah::{KalahPosition, KalahRules};

/// A game and its rules, as named by `--rules`.
#[derive(Clone, Copy, Debug)]
pub enum GameRules {
    /// Kalah(m, n) with options, in the rule-set notation of `kalah.md`.
    Kalah(KalahRules),
}

impl GameRules {
    /// Parses `--rules`: a Kalah rule set (`standard`, `manchester`, `kalah(6,4)+…`).
    pub fn parse(text: &str) -> Result<GameRules, String> {
        text.parse::<KalahRules>()
            .map(GameRules::Kalah)
            .map_err(|e| format!("--rules: {e}"))
    }
}

/// The Kalah start position, or `--position` parsed under `rules`.
pub fn kalah_position(rules: KalahRules, position: Option<&str>) -> Result<KalahPosition, String> {
    match position {
        None => Ok(KalahPosition::start(rules)),
        Some(p) => KalahPosition::parse(rules, p).map_err(|e| format!("--position: {e}")),
    }
}
