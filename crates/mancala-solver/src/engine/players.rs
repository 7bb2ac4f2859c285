//! [`Players`]: one [`LevelPlayer`] a game, made at the game's first search with shared
//! settings, for front ends that serve every game with one engine object (the C API's
//! `MancalaEngine`, the Python `Engine`).

use std::any::Any;
use std::sync::Arc;

use mancala_core::kalah::KalahPosition;
use mancala_core::{GameKind, GameRecord};

use super::{Choice, Engine, EngineError, Evaluate, Level, LevelPlayer, Limits};
use crate::Egdb;

/// The players of one engine object: a level, a seed, a table size in bytes and an optional
/// Kalah endgame database shared by all, and for each game searched so far its own
/// [`LevelPlayer`] (its transposition table kept between searches, so the consecutive moves
/// of a game reuse it).
pub struct Players {
    level: Level,
    seed: u64,
    tt_bytes: usize,
    db: Option<Arc<Egdb>>,
    games: Vec<(GameKind, Box<dyn Stored>)>,
}

/// What the set needs of a stored player whatever its game.
trait Stored: Send {
    fn as_any(&mut self) -> &mut dyn Any;
    fn clear(&mut self);
}

impl<G: Evaluate> Stored for LevelPlayer<G> {
    fn as_any(&mut self) -> &mut dyn Any {
        self
    }

    fn clear(&mut self) {
        self.engine_mut().clear();
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
            db: None,
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

    /// The player of game `G`, made at its first use with these settings (and the endgame
    /// database for the games whose positions it can serve: Kalah).
    pub fn player<G: Evaluate>(&mut self) -> &mut LevelPlayer<G> {
        let index = match self.games.iter().position(|(kind, _)| *kind == G::KIND) {
            Some(i) => i,
            None => {
                let engine = Engine::<G>::with_tt_bytes(self.tt_bytes);
                let player = LevelPlayer::with_engine(engine, self.level, self.seed);
                self.games.push((G::KIND, Box::new(player)));
                self.apply_database();
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
    /// when it is made.
    pub fn set_database(&mut self, db: Option<Arc<Egdb>>) {
        self.db = db;
        self.apply_database();
    }

    /// Gives the Kalah player, if one was made, the endgame database, unless it has it.
    fn apply_database(&mut self) {
        let db = self.db.clone();
        if let Some(p) = self.existing::<KalahPosition>() {
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
