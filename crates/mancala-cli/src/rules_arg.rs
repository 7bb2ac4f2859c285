//! The `--rules` and `--position` arguments shared by the subcommands. Every error about an
//! argument starts with the argument as the user typed it (`--rules kalah(9,4): …`,
//! `--position …: …`, `position …: …` for `show`'s positional), whatever the subcommand.

use mancala_core::bao::{BaoPosition, BaoRules};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::Rules;

/// A game and its rules, as named by `--rules`: the core's game-neutral [`Rules`] (Kalah
/// with options, or Bao la Kete), which also decides which game a text names.
pub use mancala_core::Rules as GameRules;

/// `--rules TEXT: why` (the text cut to 60 characters).
fn rules_error(text: &str, why: impl std::fmt::Display) -> String {
    let shown: String = text.chars().take(60).collect();
    format!("--rules {shown}: {why}")
}

/// Parses `--rules`: `bao-la-kete[…]` (any case) for Bao la Kete, otherwise a Kalah rule
/// set (`standard`, `manchester`, `kalah(6,4)+…`); [`Rules`]'s `FromStr`.
pub fn parse_rules(text: &str) -> Result<GameRules, String> {
    text.parse::<Rules>().map_err(|e| rules_error(text, e))
}

/// Parses `--rules` for a command that only serves Kalah (`what` names it, e.g. "solve
/// is"): a Bao la Kete rule set is refused as such, not as a malformed Kalah rule set.
pub fn kalah_only(text: &str, what: &str) -> Result<KalahRules, String> {
    match parse_rules(text)? {
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
