//! The `--rules` and `--position` arguments shared by the subcommands. Every error about an
//! argument starts with the argument as the user typed it (`--rules kalah(9,4): …`,
//! `--position …: …`, `position …: …` for `show`'s positional), whatever the subcommand.

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

/// `--rules TEXT: why` (the text cut to 60 characters).
fn rules_error(text: &str, why: impl std::fmt::Display) -> String {
    let shown: String = text.chars().take(60).collect();
    format!("--rules {shown}: {why}")
}

impl GameRules {
    /// Parses `--rules`: `bao-la-kete[…]` (any case) for Bao la Kete, otherwise a Kalah rule
    /// set (`standard`, `manchester`, `kalah(6,4)+…`).
    pub fn parse(text: &str) -> Result<GameRules, String> {
        let t = text.trim_start();
        if t.get(..3).is_some_and(|h| h.eq_ignore_ascii_case("bao")) {
            return text
                .parse::<BaoRules>()
                .map(GameRules::Bao)
                .map_err(|e| rules_error(text, e));
        }
        text.parse::<KalahRules>()
            .map(GameRules::Kalah)
            .map_err(|e| rules_error(text, e))
    }
}

/// Parses `--rules` for a command that only serves Kalah (`what` names it, e.g. "solve
/// is"): a Bao la Kete rule set is refused as such, not as a malformed Kalah rule set.
pub fn kalah_only(text: &str, what: &str) -> Result<KalahRules, String> {
    match GameRules::parse(text)? {
        GameRules::Kalah(r) => Ok(r),
        GameRules::Bao(_) => Err(rules_error(
            text,
            format!("{what} for Kalah rule sets only (Bao la Kete has no exact solver or endgame database)"),
        )),
    }
}

/// `LABEL TEXT: why` for a position argument (the text cut to 80 characters).
pub fn position_error(label: &str, text: &str, why: impl std::fmt::Display) -> String {
    let shown: String = text.chars().take(80).collect();
    format!("{label} {shown}: {why}")
}

/// The Kalah start position, or `--position` parsed under `rules`.
pub fn kalah_position(rules: KalahRules, position: Option<&str>) -> Result<KalahPosition, String> {
    kalah_position_as("--position", rules, position)
}

/// [`kalah_position`] for an argument named `label`.
pub fn kalah_position_as(
    label: &str,
    rules: KalahRules,
    position: Option<&str>,
) -> Result<KalahPosition, String> {
    match position {
        None => Ok(KalahPosition::start(rules)),
        Some(p) => KalahPosition::parse(rules, p).map_err(|e| position_error(label, p, e)),
    }
}

/// The Bao la Kete start position, or `--position` parsed under `rules`.
pub fn bao_position(rules: BaoRules, position: Option<&str>) -> Result<BaoPosition, String> {
    bao_position_as("--position", rules, position)
}

/// [`bao_position`] for an argument named `label`.
pub fn bao_position_as(
    label: &str,
    rules: BaoRules,
    position: Option<&str>,
) -> Result<BaoPosition, String> {
    match position {
        None => Ok(BaoPosition::start(rules)),
        Some(p) => BaoPosition::parse(rules, p).map_err(|e| position_error(label, p, e)),
    }
}
