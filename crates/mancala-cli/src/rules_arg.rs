//! The `--rules` and `--position` arguments shared by the subcommands. Every error about an
//! argument starts with the argument as the user typed it (`--rules kalah(9,4): …`,
//! `--position …: …`, `position …: …` for `show`'s positional), whatever the subcommand.

use mancala_core::kalah::KalahRules;
use mancala_core::oware::OwareRules;
use mancala_core::{with_game, AnyGame, Game, Rules};
use mancala_solver::engine::Evaluate;

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

/// Parses `--rules` for a command that only serves Kalah (`what` names it, e.g. "grade
/// is"): another game's rule set is refused naming its game ([`GameKind::name`]), not as a
/// malformed Kalah rule set (the Oware rule sets are for [`exact_rules`]).
///
/// [`GameKind::name`]: mancala_core::GameKind::name
pub fn kalah_only(text: &str, what: &str) -> Result<KalahRules, String> {
    match parse_rules(text)? {
        GameRules::Kalah(r) => Ok(r),
        other => Err(unserved(text, what, other.kind())),
    }
}

/// `--rules TEXT: WHAT for Kalah and the Awari rule sets only (GAME has no exact solver or
/// database here)`.
fn unserved(text: &str, what: &str, kind: mancala_core::GameKind) -> String {
    rules_error(text, mancala_solver::egdb::not_served(what, kind))
}

/// The rule set of a command that serves exact values (`solve`, `analyse`, `egdb`, `grade`),
/// parsed once: a Kalah rule set (the solver and the Kalah databases) or an Oware rule set
/// whose values the Oware databases hold.
#[derive(Clone, Copy, Debug)]
pub enum ExactRules {
    /// A Kalah rule set.
    Kalah(KalahRules),
    /// An Oware rule set one of the Oware databases holds (`majority=off`,
    /// `cycle_score=split`, no move limit, any grand-slam rule:
    /// `mancala_solver::awari::check_rules`).
    Oware(OwareRules),
}

/// Parses `--rules` for a command that serves exact values ([`ExactRules`]); `what` names
/// the command in a refusal ("solve and analyse are").
///
/// # Errors
/// `--rules TEXT: …` for a text no game accepts, for an Oware rule set whose values the
/// databases do not hold (the library's refusal naming the rules that differ), and for a
/// game without exact values here (named by [`GameKind::name`]).
///
/// [`GameKind::name`]: mancala_core::GameKind::name
pub fn exact_rules(text: &str, what: &str) -> Result<ExactRules, String> {
    match parse_rules(text)? {
        GameRules::Kalah(r) => Ok(ExactRules::Kalah(r)),
        GameRules::Oware(r) => match mancala_solver::awari::check_rules(&r) {
            Ok(()) => Ok(ExactRules::Oware(r)),
            Err(refused) => Err(rules_error(
                text,
                mancala_solver::awari::unserved(&refused, what),
            )),
        },
        other => Err(unserved(text, what, other.kind())),
    }
}

/// The move texts of a move list `text` (`what` names the argument or request in the
/// errors): separated by spaces, tabs or commas, with a move on each side of every comma;
/// none for a blank text. The same reading for `replay --moves` and the line protocol's
/// move lists.
///
/// # Errors
/// An empty move: two commas with nothing between, or a comma first or last.
pub fn move_texts<'a>(what: &str, text: &'a str) -> Result<Vec<&'a str>, String> {
    let mut moves = Vec::new();
    if text.trim().is_empty() {
        return Ok(moves);
    }
    for piece in text.split(',') {
        if piece.trim().is_empty() {
            return Err(if moves.is_empty() {
                format!("{what}: a comma before the first move")
            } else {
                format!(
                    "{what}: an empty move after move {} (a comma with no move after it)",
                    moves.len()
                )
            });
        }
        moves.extend(piece.split_whitespace());
    }
    Ok(moves)
}

/// `LABEL TEXT: why` for a position argument (the text cut to 80 characters).
pub fn position_error(label: &str, text: &str, why: impl std::fmt::Display) -> String {
    let shown: String = text.chars().take(80).collect();
    format!("{label} {shown}: {why}")
}

/// The start position of `rules`, or `position` parsed under them; a refused position is
/// reported as `LABEL TEXT: why` ([`position_error`]).
pub fn position_as<G: Game>(
    label: &str,
    rules: G::Rules,
    position: Option<&str>,
) -> Result<G, String> {
    match position {
        None => Ok(G::start(rules)),
        Some(p) => G::parse(rules, p).map_err(|e| position_error(label, p, e)),
    }
}

/// The game record of `rules` at its start position, or at `position` (labelled `label` in
/// messages), for the commands that need only the rules ([`AnyGame`]).
pub fn any_game(rules: GameRules, label: &str, position: Option<&str>) -> Result<AnyGame, String> {
    match position {
        None => Ok(AnyGame::new(rules)),
        Some(p) => AnyGame::parse(rules, p).map_err(|e| position_error(label, p, e)),
    }
}

/// A command that runs on a position of any game that the engine can search: written once,
/// generically, and given the typed start position by [`with_position`].
pub trait GameCommand {
    /// What the command returns.
    type Output;
    /// Runs the command from `start`, a position under `rules`.
    fn run<G: Evaluate>(self, rules: GameRules, start: G) -> Result<Self::Output, String>;
}

/// Parses `--position` (or takes the start position) under `rules` and runs `command` with
/// the typed position of the game the rules name ([`with_game!`] over [`AnyGame`], so that
/// every game of the library is served without being named here).
pub fn with_position<C: GameCommand>(
    rules: GameRules,
    position: Option<&str>,
    command: C,
) -> Result<C::Output, String> {
    let game = any_game(rules, "--position", position)?;
    with_game!(game, g => command.run(rules, *g.position()))
}
