//! [`Players`]: one [`LevelPlayer`] a game, made at the game's first search with shared
//! settings, for front ends that serve every game with one engine object (the C API's
//! `MancalaEngine`, the Python `Engine`).

use std::any::Any;
use std::sync::Arc;

use mancala_core::kalah::KalahPosition;
use mancala_core::{GameKind, GameRecord};

use super::{Choice, Engine, EngineError, Evaluate, Level, LevelPlayer, Limits};
use crate::Egdb;

/// The players of one engine object: a level, a seed, a table size in bytes, at most one
/// database a game ([`ExactGame::Database`](crate::ExactGame::Database)) and at most one
/// database a game as the evaluation ([`Engine::set_estimates`]), and for each game
/// searched so far its own [`LevelPlayer`] (its transposition table kept between searches,
/// so the consecutive moves of a game reuse it).
pub struct Players {
    level: Level,
    seed: u64,
    tt_bytes: usize,
    /// The database of each game that has one: an `Arc<G::Database>` under `G::KIND`.
    databases: Vec<(GameKind, Box<dyn Any + Send>)>,
    /// The database of each game whose values serve as its evaluation, stored the same way.
    estimates: Vec<(GameKind, Box<dyn Any + Send>)>,
    games: Vec<(GameKind, Box<dyn Stored>)>,
}

/// What the set needs of a stored player whatever its game.
trait Stored: Send {
    fn as_any(&mut self) -> &mut dyn Any;
    fn clear(&mut self);
    fn clear_database(&mut self);
    fn clear_estimates(&mut self);
}

impl<G: Evaluate> Stored for LevelPlayer<G> {
    fn as_any(&mut self) -> &mut dyn Any {
        self
    }

    fn clear(&mut self) {
        self.engine_mut().clear();
    }

    fn clear_database(&mut self) {
        if self.engine_mut().database().is_some() {
            self.engine_mut().set_database(None);
        }
    }

    fn clear_estimates(&mut self) {
        self.engine_mut().set_estimates(None);
    }
}

impl Players {
    /// Players at `level`, with weaker-move choices seeded by `seed` and a table of
    /// `tt_bytes` bytes a game (taken at the game's first search), without a database.
    #[must_use]
    pub fn new(level: Level, seed: u64, tt_bytes: usize) -> Players {
        Players {
            level,
            seed,
            tt_bytes,
            databases: Vec::new(),
            estimates: Vec::new(),
            games: Vec::new(),
        }
    }

    /// The level every player plays at.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The player of game `G`, if one was made.
    pub fn existing<G: Evaluate>(&mut self) -> Option<&mut LevelPlayer<G>> {
        self.games
            .iter_mut()
            .find(|(kind, _)| *kind == G::KIND)
            .and_then(|(_, p)| p.as_any().downcast_mut::<LevelPlayer<G>>())
    }

    /// The player of game `G`, made at its first use with these settings (and the game's
    /// databases, when they were set: [`Players::set_database_of`],
    /// [`Players::set_estimates_of`]).
    pub fn player<G: Evaluate>(&mut self) -> &mut LevelPlayer<G> {
        let index = match self.games.iter().position(|(kind, _)| *kind == G::KIND) {
            Some(i) => i,
            None => {
                let engine = Engine::<G>::with_tt_bytes(self.tt_bytes);
                let player = LevelPlayer::with_engine(engine, self.level, self.seed);
                self.games.push((G::KIND, Box::new(player)));
                self.apply_database::<G>();
                self.apply_estimates::<G>();
                self.games.len() - 1
            }
        };
        self.games[index]
            .1
            .as_any()
            .downcast_mut::<LevelPlayer<G>>()
            .expect("the player stored under a game's kind is of that game")
    }

    /// Chooses a move in `pos` within `limits` with the player of its game.
    ///
    /// # Errors
    /// As [`LevelPlayer::choose_within`].
    pub fn choose<G: Evaluate>(
        &mut self,
        pos: &G,
        limits: Limits,
    ) -> Result<Choice<G::Move>, EngineError> {
        self.player::<G>().choose_within(pos, limits)
    }

    /// Chooses a move in the current position of `game`, searched with its history
    /// ([`LevelPlayer::choose_game`]: Oware's repetitions and move limit), with the player of
    /// its game.
    ///
    /// # Errors
    /// As [`LevelPlayer::choose_within`].
    pub fn choose_game<G: Evaluate>(
        &mut self,
        game: &GameRecord<G>,
        limits: Limits,
    ) -> Result<Choice<G::Move>, EngineError> {
        self.player::<G>().choose_game(game, limits)
    }

    /// Sets (or with `None` removes) the Kalah endgame database: the Kalah player's, now or
    /// when it is made ([`Players::set_database_of`] for Kalah).
    pub fn set_database(&mut self, db: Option<Arc<Egdb>>) {
        self.set_database_of::<KalahPosition>(db);
    }

    /// Sets (or with `None` removes) the database of game `G`: its player's, now or when it
    /// is made. The databases of the other games stay as they are.
    pub fn set_database_of<G: Evaluate>(&mut self, db: Option<Arc<G::Database>>) {
        self.databases.retain(|(kind, _)| *kind != G::KIND);
        if let Some(db) = db {
            self.databases.push((G::KIND, Box::new(db)));
        }
        self.apply_database::<G>();
    }

    /// Removes the database of every game.
    pub fn clear_databases(&mut self) {
        self.databases.clear();
        for (_, p) in &mut self.games {
            p.clear_database();
        }
    }

    /// The database of game `G`, when one is set.
    #[must_use]
    pub fn database_of<G: Evaluate>(&self) -> Option<Arc<G::Database>> {
        self.databases
            .iter()
            .find(|(kind, _)| *kind == G::KIND)
            .and_then(|(_, db)| db.downcast_ref::<Arc<G::Database>>())
            .cloned()
    }

    /// Sets (or with `None` removes) the database of game `G` whose values serve as its
    /// evaluation ([`Engine::set_estimates`]: for Oware Abapa, the database of
    /// `oware+majority=off+cycle_score=split`): its player's, now or when it is made. The
    /// other games' stay as they are. Whether it serves the positions searched is checked at
    /// each search ([`EngineError::DatabaseMismatch`]).
    pub fn set_estimates_of<G: Evaluate>(&mut self, db: Option<Arc<G::Database>>) {
        self.estimates.retain(|(kind, _)| *kind != G::KIND);
        if let Some(db) = db {
            self.estimates.push((G::KIND, Box::new(db)));
        }
        self.apply_estimates::<G>();
    }

    /// Removes the evaluation database of every game ([`Players::set_estimates_of`]).
    pub fn clear_estimates(&mut self) {
        self.estimates.clear();
        for (_, p) in &mut self.games {
            p.clear_estimates();
        }
    }

    /// The evaluation database of game `G` ([`Players::set_estimates_of`]), when one is set.
    #[must_use]
    pub fn estimates_of<G: Evaluate>(&self) -> Option<Arc<G::Database>> {
        self.estimates
            .iter()
            .find(|(kind, _)| *kind == G::KIND)
            .and_then(|(_, db)| db.downcast_ref::<Arc<G::Database>>())
            .cloned()
    }

    /// Gives the player of `G`, if one was made, the game's evaluation database (or none).
    fn apply_estimates<G: Evaluate>(&mut self) {
        let db = self.estimates_of::<G>();
        if let Some(p) = self.existing::<G>() {
            p.engine_mut().set_estimates(db);
        }
    }

    /// Gives the player of `G`, if one was made, the game's database, unless it has it.
    fn apply_database<G: Evaluate>(&mut self) {
        let db = self.database_of::<G>();
        if let Some(p) = self.existing::<G>() {
            let engine = p.engine_mut();
            let same = match (engine.database(), &db) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (a, b) => a.is_none() && b.is_none(),
            };
            if !same {
                engine.set_database(db);
            }
        }
    }

    /// Forgets what every player learnt (tables, killer moves), e.g. before a new game.
    pub fn clear(&mut self) {
        for (_, p) in &mut self.games {
            p.clear();
        }
    }
}
