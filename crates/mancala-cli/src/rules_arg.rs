//! The `--rules` and `--position` arguments shared by the subcommands.

use mancala_core::bao::{BaoPosition, BaoRules};
use mancala_core::kalah::{KalahPosition, KalahRules};

/// A game and its rules, as named by `--rules`.
#[derive(Clone, Copy, Debug)]
pub enum GameRules {
    /// Kalah(m, n) with options, in the rule-set notation of `docs/rules/kalah.md`.
    Kalah(KalahRules),
    /// Bao la Kete (`bao-la-kete`, Lamu defaults of `docs/rules/bao-la-kete.md`).
    Bao(BaoRules),
}

impl GameRules {
    /// Parses `--rules`: `bao-la-kete[…]` for Bao la Kete, otherwise a Kalah rule set
    /// (`standard`, `manchester`, `kalah(6,4)+…`).
    pub fn parse(text: &str) -> Result<GameRules, String> {
        if text.trim_start().starts_with("bao") {
            return text
                .parse::<BaoRules>()
                .map(GameRules::Bao)
                .map_err(|e| format!("--rules: {e}"));
        }
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

/// The Bao la Kete start position, or `--position` parsed under `rules`.
pub fn bao_position(rules: BaoRules, position: Option<&str>) -> Result<BaoPosition, String> {
    match position {
        None => Ok(BaoPosition::start(rules)),
        Some(p) => BaoPosition::parse(rules, p).map_err(|e| format!("--position: {e}")),
    }
}
