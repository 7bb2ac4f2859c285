//! A database of exact values of any game behind one trait object, [`AnyDatabase`]: what the
//! C API's database handle and Python's `Database` hold, so that a front end serves every
//! game's database (`ExactGame::Database`) with one type and no per-game code.
//!
//! It is implemented once, generically, for the database of every game with an engine
//! ([`Evaluate`]); [`any_database`] makes one and [`database_of`] gives the typed database
//! back. Its lookups take an [`AnyGame`] and refuse a game of another kind with
//! [`LookupError::OtherGame`].

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use mancala_core::{with_game, AnyGame, GameKind, GameRecord};
use thiserror::Error;

use super::{Evaluate, Players};
use crate::egdb::{Database, EgdbError, Encoding};
use crate::exact_values::{ExactError, ExactValues};

/// Why [`AnyDatabase::value`] or [`AnyDatabase::move_values`] gave no value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LookupError {
    /// The game is of another kind than the database's.
    #[error("a database of {} holds {} positions, not those of {} game", .database.name(), .database.name(), .game.with_article())]
    OtherGame {
        /// The database's game.
        database: GameKind,
        /// The game asked about.
        game: GameKind,
    },
    /// The database refused the position: rules whose values it does not hold
    /// ([`ExactError::Rules`], naming the rules that differ), or a failure of its source
    /// ([`ExactError::Solve`], [`ExactError::NotExact`]). A position it merely does not hold
    /// (more seeds than its K or N, an opening) is not an error: the lookup gives `None`.
    #[error(transparent)]
    Refused(ExactError),
}

/// A database of exact values of one game, its game erased: everything the front ends ask
/// of a database whatever its game. Made by [`any_database`]; every method takes `&self` and
/// may be called from several threads at once.
pub trait AnyDatabase: Send + Sync {
    /// The game whose values it holds.
    fn kind(&self) -> GameKind;
    /// Its largest number of seeds in the houses: K (Kalah) or N (Oware).
    fn max_seeds(&self) -> u32;
    /// How its entries are held.
    fn encoding(&self) -> Encoding;
    /// Bits an entry takes: 8, or the packed width; 8 for a compact database, whose codes
    /// have no fixed width ([`AnyDatabase::average_bits`] gives what they take).
    fn bits_per_entry(&self) -> u32;
    /// Bits an entry takes ([`Database::average_bits`]): the fixed width of a one-byte or
    /// packed database, or for a compact one the payload's bits over the entries.
    fn average_bits(&self) -> f64 {
        f64::from(self.bits_per_entry())
    }
    /// Memory its entries take, bytes.
    fn memory_bytes(&self) -> u64;
    /// Its entries (positions or boards).
    fn entries(&self) -> u64;
    /// What it serves, in words, for messages (`Database::describe`).
    fn describe(&self) -> String;
    /// Writes it to `path` crash-safely, over nothing or over a file that holds this same
    /// database only: a file holding another database, or no database, is left as it is
    /// ([`AnyDatabase::save_checked`] without `overwrite`).
    ///
    /// # Errors
    /// The [`EgdbError`] of the save: [`EgdbError::Occupied`] for a file in the way, naming
    /// it and what it holds; [`EgdbError::Io`] (on failure the file at `path`, if any, is as
    /// it was, and no partial file is left).
    fn save(&self, path: &Path) -> Result<(), EgdbError> {
        self.save_checked(path, false)
    }
    /// Writes it to `path` crash-safely ([`Database::save_checked`]): unless `overwrite`,
    /// only over nothing or over a file that holds this same database; with `overwrite`,
    /// over any regular file.
    ///
    /// # Errors
    /// [`EgdbError::Occupied`] (unless `overwrite`: a file holding another database or no
    /// database, named with what it holds), [`EgdbError::Io`] (on failure the file at
    /// `path`, if any, is as it was, and no partial file is left).
    fn save_checked(&self, path: &Path, overwrite: bool) -> Result<(), EgdbError>;
    /// The same database in `encoding` ([`Database::convert`]).
    ///
    /// # Errors
    /// The [`EgdbError`] of the conversion (an encoding its values do not fit).
    fn convert(&self, encoding: Encoding) -> Result<Arc<dyn AnyDatabase>, EgdbError>;
    /// The value of the current position of `game` for the player to move (seeds,
    /// `ExactValues::value_of`); `None` when the game is over or the database does not hold
    /// the position (more seeds in the houses than its K or N, an opening).
    ///
    /// # Errors
    /// [`LookupError::OtherGame`]; [`LookupError::Refused`] for rules whose values it does
    /// not hold.
    fn value(&self, game: &AnyGame) -> Result<Option<i32>, LookupError>;
    /// The value of each legal move of `game` (seeds, for the player who makes it), in the
    /// order of `Game::legal_moves`; `None` as for [`AnyDatabase::value`].
    ///
    /// # Errors
    /// As [`AnyDatabase::value`].
    fn move_values(&self, game: &AnyGame) -> Result<Option<Vec<i32>>, LookupError>;
    /// Gives the database to the engine's player of its game
    /// ([`Players::set_database_of`]).
    fn give_to(&self, players: &mut Players);
    /// Gives the database to the engine's player of its game as its evaluation
    /// ([`Players::set_estimates_of`], [`Engine::set_estimates`](super::Engine::set_estimates)).
    fn give_estimates_to(&self, players: &mut Players);
    /// Itself as [`Any`], for [`database_of`].
    fn as_any(&self) -> &dyn Any;
}

/// The database of game `G`, shared.
struct DatabaseOf<G: Evaluate>(Arc<G::Database>);

/// The database `db` of game `G` as an [`AnyDatabase`].
pub fn any_database<G: Evaluate>(db: Arc<G::Database>) -> Arc<dyn AnyDatabase> {
    Arc::new(DatabaseOf::<G>(db))
}

/// The database of game `G` that `db` holds; `None` when it is the database of another game.
pub fn database_of<G: Evaluate>(db: &dyn AnyDatabase) -> Option<Arc<G::Database>> {
    db.as_any()
        .downcast_ref::<DatabaseOf<G>>()
        .map(|d| Arc::clone(&d.0))
}

/// The record of game `G` in `game`, or [`LookupError::OtherGame`].
///
/// # Errors
/// [`LookupError::OtherGame`] for a game of another kind than `G`.
pub fn record_of<G: Evaluate>(game: &AnyGame) -> Result<&GameRecord<G>, LookupError> {
    with_game!(game, g => (g as &dyn Any).downcast_ref::<GameRecord<G>>()).ok_or(
        LookupError::OtherGame {
            database: G::KIND,
            game: game.kind(),
        },
    )
}

/// Whether `e` says only that the database does not hold the position.
fn not_held(e: &ExactError) -> bool {
    matches!(e, ExactError::NotHeld { .. } | ExactError::Opening)
}

/// The value of `pos` from `db` for the player to move: `None` when the game is over or the
/// database does not hold the position (more seeds in the houses than its K or N, an
/// opening).
///
/// # Errors
/// [`LookupError::Refused`] for rules whose values `db` does not hold (naming the rules that
/// differ) or a failure of its source.
pub fn value_in<G: Evaluate>(db: &G::Database, pos: &G) -> Result<Option<i32>, LookupError> {
    db.check_rules(&pos.rules())
        .map_err(|m| LookupError::Refused(ExactError::Rules(m)))?;
    if pos.is_over() {
        return Ok(None);
    }
    match db.value_of(pos) {
        Ok(v) => Ok(Some(v)),
        Err(e) if not_held(&e) => Ok(None),
        Err(e) => Err(LookupError::Refused(e)),
    }
}

/// The value of each legal move of `pos` from `db`, in the order of `Game::legal_moves`:
/// `None` as for [`value_in`].
///
/// # Errors
/// As [`value_in`].
pub fn move_values_in<G: Evaluate>(
    db: &G::Database,
    pos: &G,
) -> Result<Option<Vec<i32>>, LookupError> {
    if value_in::<G>(db, pos)?.is_none() {
        return Ok(None);
    }
    let values = match db.move_values_of(pos) {
        Ok(v) => v,
        Err(e) if not_held(&e) => return Ok(None),
        Err(e) => return Err(LookupError::Refused(e)),
    };
    let moves = pos.legal_moves();
    let mut out = vec![0; moves.len()];
    for (mv, v) in values {
        if let Some(i) = moves.iter().position(|&m| m == mv) {
            out[i] = v;
        }
    }
    Ok(Some(out))
}

impl<G: Evaluate> AnyDatabase for DatabaseOf<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }
    fn max_seeds(&self) -> u32 {
        self.0.max_seeds()
    }
    fn encoding(&self) -> Encoding {
        self.0.encoding()
    }
    fn bits_per_entry(&self) -> u32 {
        self.0.bits_per_entry()
    }
    fn average_bits(&self) -> f64 {
        self.0.average_bits()
    }
    fn memory_bytes(&self) -> u64 {
        self.0.bytes() as u64
    }
    fn entries(&self) -> u64 {
        self.0.entry_count()
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn save_checked(&self, path: &Path, overwrite: bool) -> Result<(), EgdbError> {
        self.0.save_checked(path, overwrite).map(|_report| ())
    }
    fn convert(&self, encoding: Encoding) -> Result<Arc<dyn AnyDatabase>, EgdbError> {
        Ok(any_database::<G>(Arc::new(self.0.convert(encoding)?)))
    }
    fn value(&self, game: &AnyGame) -> Result<Option<i32>, LookupError> {
        value_in::<G>(&self.0, record_of::<G>(game)?.position())
    }
    fn move_values(&self, game: &AnyGame) -> Result<Option<Vec<i32>>, LookupError> {
        move_values_in::<G>(&self.0, record_of::<G>(game)?.position())
    }
    fn give_to(&self, players: &mut Players) {
        players.set_database_of::<G>(Some(Arc::clone(&self.0)));
    }
    fn give_estimates_to(&self, players: &mut Players) {
        players.set_estimates_of::<G>(Some(Arc::clone(&self.0)));
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::KalahPosition;
    use mancala_core::oware::OwarePosition;
    use mancala_core::Rules;

    #[test]
    fn a_database_serves_its_game_and_refuses_another_by_name() {
        let db = crate::awari::AwariDb::build_until(2, 1, |_| true).unwrap();
        let any = any_database::<OwarePosition>(Arc::new(db));
        assert_eq!(any.kind(), GameKind::Oware);
        assert!(database_of::<OwarePosition>(&*any).is_some());
        assert!(database_of::<KalahPosition>(&*any).is_none());
        // OW-11.3's two-seed board under awari: its only move, a grand slam capturing both
        // seeds, is worth +2 (docs/awari.md).
        let rules: Rules = "awari".parse().unwrap();
        let game = AnyGame::parse(rules, "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
        assert_eq!(any.value(&game), Ok(Some(2)));
        assert_eq!(any.move_values(&game), Ok(Some(vec![2])));
        let kalah = AnyGame::new(Rules::default_of(GameKind::Kalah));
        let e = any.value(&kalah).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a database of Oware holds Oware positions, not those of a Kalah game"
        );
        // Abapa's rules: refused, naming what differs.
        let abapa =
            AnyGame::parse("oware".parse().unwrap(), "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
        assert!(matches!(
            any.value(&abapa),
            Err(LookupError::Refused(ExactError::Rules(_)))
        ));
    }
}
