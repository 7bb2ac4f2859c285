//! Strength levels 1–10 and a player that plays at a level, reproducibly from a seed.
//!
//! | level | depth limit (plies) | chance of a weaker move |
//! |------:|--------------------:|------------------------:|
//! | 1     | 1                   | 50 %                    |
//! | 2     | 2                   | 30 %                    |
//! | 3     | 3                   | 15 %                    |
//! | 4     | 4                   | 5 %                     |
//! | 5     | 5                   | 0                       |
//! | 6     | 6                   | 0                       |
//! | 7     | 8                   | 0                       |
//! | 8     | 10                  | 0                       |
//! | 9     | 14                  | 0                       |
//! | 10    | none (time only)    | 0                       |
//!
//! Every level also obeys the caller's time budget. Exact play: an engine with an endgame
//! database ([`Engine::set_database`]) values the positions it holds exactly at every level;
//! the exact root solve is tried at level 10 only (levels 1–9 set a depth limit, which asks
//! for a depth-limited search). A "weaker move" is a legal move other
//! than the one the search chose, drawn uniformly; which moves are weakened is decided by a
//! [`StdRng`] seeded by the caller, so a game replays identically from the same seed (as long
//! as the searches themselves are not cut by the clock, which the depth limits of levels 1–9
//! make unlikely).

use core::fmt;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Engine, EngineError, Evaluate, History, Limits, SearchResult};
use mancala_core::GameRecord;

/// A strength level, 1 (weakest) to 10 (strongest). See the module table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

const DEPTHS: [u32; 9] = [1, 2, 3, 4, 5, 6, 8, 10, 14];
const WEAKER: [f64; 10] = [0.5, 0.3, 0.15, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];

impl Level {
    /// The weakest level, 1.
    pub const MIN: Level = Level(1);
    /// The strongest level, 10.
    pub const MAX: Level = Level(10);

    /// The level `level`.
    ///
    /// # Errors
    /// [`EngineError::Level`] outside 1..=10.
    pub fn new(level: u32) -> Result<Level, EngineError> {
        if (1..=10).contains(&level) {
            Ok(Level(level as u8))
        } else {
            Err(EngineError::Level(level))
        }
    }

    /// The level number, 1..=10.
    #[must_use]
    pub fn get(self) -> u32 {
        u32::from(self.0)
    }

    /// The depth limit in plies, `None` for level 10 (time only).
    #[must_use]
    pub fn max_depth(self) -> Option<u32> {
        DEPTHS.get(self.0 as usize - 1).copied()
    }

    /// The probability (0..1) of playing a weaker move than the search's choice.
    #[must_use]
    pub fn weaker_move_probability(self) -> f64 {
        WEAKER[self.0 as usize - 1]
    }

    /// The search limits of this level under a wall-clock budget `time`.
    #[must_use]
    pub fn limits(self, time: Duration) -> Limits {
        let limits = Limits::time(time);
        match self.max_depth() {
            Some(d) => limits.with_depth(d),
            None => limits,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A move chosen by a [`LevelPlayer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move to play (legal in the position given).
    pub mv: M,
    /// Whether `mv` is a deliberately weaker move than the search's best.
    pub weaker: bool,
    /// The search behind the choice (its `best_move` is the search's own choice).
    pub search: SearchResult<M>,
}

/// An engine playing at a fixed [`Level`], with its own seeded random generator for the
/// weaker moves of levels 1–4.
pub struct LevelPlayer<G: Evaluate> {
    engine: Engine<G>,
    level: Level,
    rng: StdRng,
}

impl<G: Evaluate> LevelPlayer<G> {
    /// A player at `level` with a default-size engine; `seed` fixes its weaker-move choices.
    #[must_use]
    pub fn new(level: Level, seed: u64) -> LevelPlayer<G> {
        LevelPlayer::with_engine(Engine::new(), level, seed)
    }

    /// A player at `level` using `engine` (e.g. one with a smaller table).
    #[must_use]
    pub fn with_engine(engine: Engine<G>, level: Level, seed: u64) -> LevelPlayer<G> {
        LevelPlayer {
            engine,
            level,
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The player's level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The engine, e.g. to clear it between games.
    pub fn engine_mut(&mut self) -> &mut Engine<G> {
        &mut self.engine
    }

    /// Chooses a move in `pos` within `time` (wall clock), at this player's level.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] when the game is over; [`EngineError::DatabaseMismatch`]
    /// when the engine's endgame database does not serve `pos` (another rule set). The other
    /// errors of [`Engine::search`] cannot occur here: the level's limits always hold a time
    /// budget and, for levels 1–9, a depth limit within 1..=[`super::MAX_DEPTH`].
    pub fn choose(&mut self, pos: &G, time: Duration) -> Result<Choice<G::Move>, EngineError> {
        self.choose_within(pos, self.level.limits(time))
    }

    /// Like [`LevelPlayer::choose`] with explicit limits (the level's depth limit is added
    /// when `limits` has none), e.g. with a cancel flag or a node budget.
    ///
    /// # Errors
    /// As [`Engine::search`]: [`EngineError::GameOver`], [`EngineError::NoLimit`] (`limits`
    /// sets nothing and the level has no depth limit: level 10),
    /// [`EngineError::Depth`] (a depth limit outside 1..=[`super::MAX_DEPTH`]),
    /// [`EngineError::DatabaseMismatch`].
    pub fn choose_within(
        &mut self,
        pos: &G,
        limits: Limits,
    ) -> Result<Choice<G::Move>, EngineError> {
        self.choose_among(pos, limits, &[])
    }

    /// Like [`LevelPlayer::choose_within`], choosing among `moves` only (all legal moves
    /// when empty; see [`Engine::search_moves`]). A weaker move is drawn from `moves` too.
    ///
    /// # Errors
    /// As [`Engine::search_moves`].
    pub fn choose_among(
        &mut self,
        pos: &G,
        limits: Limits,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, EngineError> {
        self.choose_in(pos, History::none(), limits, moves)
    }

    /// Like [`LevelPlayer::choose_within`] in the current position of `game`, searched with
    /// its history ([`Engine::search_game`]: Oware's repetitions, OW-6.2, and move limit,
    /// OW-6.4).
    ///
    /// # Errors
    /// As [`LevelPlayer::choose_within`].
    pub fn choose_game(
        &mut self,
        game: &GameRecord<G>,
        limits: Limits,
    ) -> Result<Choice<G::Move>, EngineError> {
        self.choose_in(game.position(), History::of(game), limits, &[])
    }

    /// The general form of the choices: `pos` after `history`
    /// ([`Engine::search_history`]), among `moves` (all legal moves when empty).
    ///
    /// # Errors
    /// As [`Engine::search_moves`].
    pub fn choose_in(
        &mut self,
        pos: &G,
        history: History<'_, G>,
        mut limits: Limits,
        moves: &[G::Move],
    ) -> Result<Choice<G::Move>, EngineError> {
        if limits.depth.is_none() {
            limits.depth = self.level.max_depth();
        }
        let search = self.engine.search_history(pos, history, &limits, moves)?;
        // One draw per move whatever the level, so the generator's stream depends only on
        // the number of moves chosen.
        let roll: f64 = self.rng.gen();
        let mut moves: Vec<G::Move> = if moves.is_empty() {
            pos.legal_moves().to_vec()
        } else {
            moves.to_vec()
        };
        let legal = pos.legal_moves();
        moves.retain(|m| legal.contains(m));
        moves.retain(|&m| m != search.best_move);
        moves.dedup();
        let mut mv = search.best_move;
        let mut weaker = false;
        if roll < self.level.weaker_move_probability() && !moves.is_empty() {
            mv = moves[self.rng.gen_range(0..moves.len())];
            weaker = true;
        }
        Ok(Choice { mv, weaker, search })
    }
}
