//! `VectorGames`: N games of one rule set stepped together in Rust, for batched
//! reinforcement learning. Actions go in and observations, rewards, terminations,
//! truncations and action masks come out as NumPy arrays, with the encoding of
//! `mancala/envs/_codec.py` (so a model fits the single and the batched environments alike).
//! Each game's encoding is one [`VecGame`] implementation, in the game's own file (`kalah.rs`,
//! …); the batch dispatches on the game with `with_game!`, so a game without one does not
//! compile.

use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1,
    ToNpyDims, PY_ARRAY_API,
};
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mancala_core::{with_game, AnyGame, Game, GameRecord, MoveList, Rules, Side};
use mancala_solver::engine::{EngineError, Evaluate, Level, Limits, Players};

use crate::errors::{from_error, Kind};
use crate::game::{wrap, PyGame};
use crate::int::{shown, Int};
use crate::interrupt;

/// A game's observation and action encoding, as `mancala/envs/_codec.py` defines it.
pub trait VecGame: PyGame + Evaluate + Send + Sync {
    /// Every move of the game in action order (the action space), for the start `start`.
    fn all_moves(start: &Self) -> Vec<Self::Move>;
    /// The observation's length.
    fn observation_size(start: &Self) -> usize;
    /// The largest value of an observation.
    fn high(start: &Self) -> i64;
    /// Writes the observation of `record` seen from `side` into `out`: every one of its
    /// `observation_size` values (`out` is a row of a NumPy array made without clearing it,
    /// so a value left unwritten would reach Python as whatever the memory held).
    fn observe(record: &GameRecord<Self>, side: Side, out: &mut [MaybeUninit<i64>]);
    /// The action of `mv` in `moves` (the action space of [`VecGame::all_moves`]): its
    /// index, found by a search unless the game knows it directly.
    fn action_index(moves: &[Self::Move], mv: Self::Move) -> Option<usize> {
        moves.iter().position(|m| *m == mv)
    }
    /// Replaces `out` by the actions of `position`'s legal moves, in the order of
    /// [`Game::legal_moves`] (`moves`: the action space of [`VecGame::all_moves`]). A game
    /// that reads its legal moves straight off its position overrides it; the result must
    /// stay the same.
    ///
    /// # Errors
    /// [`NoRoom`] when `out` must grow (more than its 16 inline actions: some positions of
    /// Bao la Kete) and the memory cannot be had; `out` is then empty. (The list of legal
    /// moves the game gives, freed at once, is the core's, which allocates it as `Vec` does,
    /// aborting when a few hundred bytes cannot be had.)
    fn legal_actions(
        position: &Self,
        moves: &[Self::Move],
        out: &mut Actions,
    ) -> Result<(), NoRoom> {
        out.clear();
        let legal = position.legal_moves();
        out.try_reserve(legal.len()).map_err(|_| NoRoom)?;
        for mv in legal {
            if let Some(a) = Self::action_index(moves, mv).and_then(|a| u16::try_from(a).ok()) {
                out.push(a);
            }
        }
        Ok(())
    }
    /// The reward for `side` under `reward = "margin"`: `side`'s store minus the opponent's
    /// in seeds (Kalah, Oware: captured seeds; Togyz Kumalak: kazans), the final one once the
    /// game is over (the outcome's score seen from `side`) and the one so far at a truncation;
    /// `None` for a game without a margin (Bao la Kete), which refuses `reward = "margin"`.
    fn margin(_record: &GameRecord<Self>, _side: Side) -> Option<f64> {
        None
    }
}

/// The legal actions of a position, in the order of its legal moves (Bao la Kete's 432
/// actions fit a `u16`).
pub type Actions = MoveList<u16>;

/// Copies `slots` (South's half then North's, each `half` long) into `out` seen from `side`:
/// `side`'s half first (two copies, no index arithmetic a value); writes `slots.len()`
/// values (fewer when `out` is shorter).
pub(crate) fn rotated(slots: &[u8], half: usize, side: Side, out: &mut [MaybeUninit<i64>]) {
    let (first, second) = match side {
        Side::South => slots.split_at(half),
        Side::North => {
            let (s, n) = slots.split_at(half);
            (n, s)
        }
    };
    for (o, &v) in out.iter_mut().zip(first.iter().chain(second)) {
        o.write(i64::from(v));
    }
}

/// Who plays the side the agent does not: a random mover, the engine at a level, or nobody
/// (self-play: the caller gives the action of whichever player is to move).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opponent {
    Random,
    Engine(Level),
    SelfPlay,
}

/// The games that have a store margin (`reward = "margin"`), for the message of one that
/// has not.
pub const MARGIN_GAMES: &str = "Kalah, Oware, Togyz Kumalak";

/// The engine's table for a batch, in bytes (one table serves every game in turn).
const ENGINE_TT_BYTES: usize = 4 << 20;

/// The settings every game of a batch shares.
#[derive(Clone, Copy)]
struct Settings {
    opponent: Opponent,
    agent_first: Option<bool>,
    margin: bool,
    illegal_reward: f64,
    max_moves: Option<u64>,
    /// The engine's time a move (`None`: no time limit, the level's depth only).
    engine_time: Option<Duration>,
    /// The engine's seed (its weaker moves at levels 1-4).
    seed: u64,
}

/// One game of a batch.
#[derive(Clone)]
struct Slot<G: Game> {
    game: GameRecord<G>,
    rng: StdRng,
    agent_first: bool,
    first_side: Side,
    moves: u64,
    done: bool,
    /// The agent's legal actions as the last observation gave them (its mask), in the
    /// order of the legal moves: those of the current position, or none when the agent is
    /// not to move (the step plays an action among them without checking its move again).
    legal: Actions,
}

impl<G: Game> Slot<G> {
    /// A copy of this slot, or [`NoRoom`] when its memory (the game's record, a spilled
    /// legal-action list) cannot be had.
    fn try_clone(&self) -> Result<Slot<G>, NoRoom> {
        let mut legal = Actions::new();
        legal.try_reserve(self.legal.len()).map_err(|_| NoRoom)?;
        legal.extend_from_slice(&self.legal);
        Ok(Slot {
            game: self.game.try_clone().map_err(|_| NoRoom)?,
            rng: self.rng.clone(),
            agent_first: self.agent_first,
            first_side: self.first_side,
            moves: self.moves,
            done: self.done,
            legal,
        })
    }

    /// Makes this slot a copy of `other`, reusing its memory, or returns [`NoRoom`] when
    /// more is needed and cannot be had (this slot then holds its old game).
    fn try_copy_from(&mut self, other: &Slot<G>) -> Result<(), NoRoom> {
        self.legal
            .try_reserve(other.legal.len().saturating_sub(self.legal.len()))
            .map_err(|_| NoRoom)?;
        self.game.try_copy_from(&other.game).map_err(|_| NoRoom)?;
        self.rng.clone_from(&other.rng);
        self.agent_first = other.agent_first;
        self.first_side = other.first_side;
        self.moves = other.moves;
        self.done = other.done;
        self.legal.clone_from(&other.legal);
        Ok(())
    }
}

/// A memory allocation of a batch failed (the allocator refused it): the call that met it
/// raises `MemoryError` instead of the process aborting.
#[derive(Debug, Clone, Copy)]
pub struct NoRoom;

/// What stopped a step or a reset before its end: memory one game needed while it played.
#[derive(Debug, Clone, Copy)]
enum Shortage {
    /// A game's record could not grow for a move (more moves in one step than the room
    /// [`Batch::reserve`] made: a chain of Kalah extra turns), or its list of legal actions
    /// for the mask (over 16 actions: Bao la Kete).
    Game,
    /// The engine opponent's transposition table ([`ENGINE_TT_BYTES`]) could not be had.
    Table,
}

impl From<NoRoom> for Shortage {
    fn from(_: NoRoom) -> Shortage {
        Shortage::Game
    }
}

/// Makes room in `game`'s record for one more move when `played` moves of the step or reset
/// under way are already in it, so that playing it does not allocate (an allocation that
/// fails there aborts the process): nothing to do while the room [`Batch::reserve`] made
/// before the step lasts ([`STEP_ROOM`] moves), else a fallible allocation.
///
/// # Errors
/// [`Shortage::Game`] when the record must grow and cannot.
#[inline]
fn room_for_a_move<G: Game>(game: &mut GameRecord<G>, played: u64) -> Result<(), Shortage> {
    if played < STEP_ROOM as u64 {
        return Ok(());
    }
    game.try_reserve(1).map_err(|_| Shortage::Game)
}

/// The plies of room [`Batch::reserve`] makes in each game's record before a step or a
/// reset: the agent's move and the opponent's replies of most steps (more plies, as a long
/// chain of Kalah extra turns, grow the record as they are played).
const STEP_ROOM: usize = 8;

/// What every game of a batch of game `G` shares: the start, the action space, the
/// settings and the engine.
struct Shared<G: VecGame> {
    start: GameRecord<G>,
    moves: Vec<G::Move>,
    obs: usize,
    settings: Settings,
    /// The engine of an `Engine` opponent.
    engine: Option<Mutex<Players>>,
    /// Set (by Ctrl-C, [`interrupt::run`]) to stop the step or reset under way: the engine's
    /// search stops within a few thousand nodes and no further game is stepped.
    cancel: Arc<AtomicBool>,
}

/// N games of game `G` and what they share.
struct Batch<G: VecGame> {
    shared: Shared<G>,
    slots: Vec<Slot<G>>,
    /// The generator of [`Batch::sample`], apart from the games' own.
    sampler: fastrand::Rng,
    /// The games and the sampler as they were before the step or reset under way
    /// ([`Batch::save`]), put back when Ctrl-C stops it ([`Batch::restore`]).
    saved: Vec<Slot<G>>,
    saved_sampler: fastrand::Rng,
}

/// The engine of a batch whose opponent is the engine (`None` for another opponent): a new
/// one at the settings' level and seed, with an empty table of [`ENGINE_TT_BYTES`].
fn opponent_engine(settings: &Settings) -> Option<Mutex<Players>> {
    match settings.opponent {
        Opponent::Engine(level) => Some(Mutex::new(Players::new(
            level,
            settings.seed,
            ENGINE_TT_BYTES,
        ))),
        _ => None,
    }
}

/// The seed of [`Batch::sample`]'s generator for the batch seed `seed` (a stream apart
/// from the games' `seed + i`).
fn sampler_seed(seed: u64) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5a4d_504c_4552_5321
}

/// What one step writes: row-major observations and masks, and one value a game of each.
/// The observations and rewards are uninitialised when given and the step writes every one
/// of them; the masks, terminations and truncations are all zeros when given and the step
/// writes only what is not 0.
struct Out<'a> {
    obs: &'a mut [MaybeUninit<i64>],
    mask: &'a mut [i8],
    reward: &'a mut [MaybeUninit<f64>],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

/// One game's part of [`Out`]: its observation row, its mask row, its reward, termination
/// and truncation.
struct Row<'a> {
    obs: &'a mut [MaybeUninit<i64>],
    mask: &'a mut [i8],
    reward: &'a mut MaybeUninit<f64>,
    terminated: &'a mut bool,
    truncated: &'a mut bool,
}

impl Out<'_> {
    /// Each game's [`Row`], in order (`obs` values and `actions` mask entries a row).
    fn rows(&mut self, obs: usize, actions: usize) -> impl Iterator<Item = Row<'_>> {
        self.obs
            .chunks_exact_mut(obs.max(1))
            .zip(self.mask.chunks_exact_mut(actions.max(1)))
            .zip(self.reward.iter_mut())
            .zip(self.terminated.iter_mut().zip(self.truncated.iter_mut()))
            .map(|(((obs, mask), reward), (terminated, truncated))| Row {
                obs,
                mask,
                reward,
                terminated,
                truncated,
            })
    }
}

impl<G: VecGame> Shared<G> {
    /// The side the agent of `slot` plays now (the side to move in self-play).
    fn agent_side(&self, slot: &Slot<G>) -> Side {
        if self.settings.opponent == Opponent::SelfPlay {
            return slot
                .game
                .position()
                .side_to_move()
                .unwrap_or(slot.first_side);
        }
        let swapped = slot.game.swapped();
        if slot.agent_first != swapped {
            slot.first_side
        } else {
            slot.first_side.opponent()
        }
    }

    /// Whether Ctrl-C has asked the step or reset under way to stop.
    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    fn truncated(&self, slot: &Slot<G>) -> bool {
        self.settings.max_moves.is_some_and(|m| slot.moves >= m)
    }

    /// Plays the random opponent's moves in `slot` until the agent is to move, the game
    /// ends or the move limit is reached (`start`: the game's move count when the step or
    /// reset under way began, for [`room_for_a_move`]).
    ///
    /// # Errors
    /// [`Shortage`] when the record cannot grow for a move or the engine's table cannot be
    /// had (the game then holds the moves played so far).
    fn play_opponent(&self, slot: &mut Slot<G>, start: u64) -> Result<(), Shortage> {
        if self.settings.opponent == Opponent::SelfPlay {
            return Ok(());
        }
        loop {
            let agent = self.agent_side(slot);
            if slot.game.is_over()
                || slot.game.position().side_to_move() == Some(agent)
                || self.truncated(slot)
            {
                return Ok(());
            }
            room_for_a_move(&mut slot.game, slot.moves - start)?;
            match &self.engine {
                Some(engine) => {
                    let mut players = engine.lock().unwrap_or_else(|e| e.into_inner());
                    let limits = Limits {
                        time: self.settings.engine_time,
                        ..Limits::default()
                    }
                    .with_cancel(Arc::clone(&self.cancel));
                    let mv = match players.choose_game(&slot.game, limits) {
                        Ok(choice) => choice.mv,
                        Err(EngineError::OutOfMemory(_)) => return Err(Shortage::Table),
                        Err(_) => return Ok(()), // only for a finished game
                    };
                    if self.cancelled() {
                        // A search stopped by Ctrl-C: its move is not played (the batch is
                        // put back as it was before the step).
                        return Ok(());
                    }
                    if slot.game.play(mv).is_err() {
                        return Ok(()); // never for the engine's move
                    }
                }
                None => {
                    // Drawn from the legal moves of a game that goes on: legal.
                    let legal = slot.game.position().legal_moves();
                    slot.game
                        .play_unchecked(legal[slot.rng.gen_range(0..legal.len())]);
                }
            }
            slot.moves += 1;
        }
    }

    /// Starts the game of `slot` anew and plays the opponent's first moves.
    ///
    /// # Errors
    /// As [`Shared::play_opponent`].
    fn reset_slot(&self, slot: &mut Slot<G>) -> Result<(), Shortage> {
        slot.game.copy_from(&self.start);
        slot.agent_first = match self.settings.agent_first {
            Some(f) => f,
            None => slot.rng.gen_bool(0.5),
        };
        slot.moves = 0;
        self.play_opponent(slot, 0)?;
        slot.done = slot.game.is_over() || self.truncated(slot);
        Ok(())
    }

    /// The reward of `slot` for `side` after a step: the final reward once the game is over;
    /// at a truncation (`truncated`) the store margin so far under `reward = "margin"`, else
    /// 0; 0 while the game goes on.
    fn final_reward(&self, slot: &Slot<G>, side: Side, truncated: bool) -> f64 {
        let Some(outcome) = slot.game.position().outcome() else {
            if truncated && self.settings.margin {
                return G::margin(&slot.game, side).unwrap_or(0.0);
            }
            return 0.0;
        };
        if self.settings.margin {
            if let Some(m) = G::margin(&slot.game, side) {
                return m;
            }
        }
        match outcome.winner {
            None => 0.0,
            Some(w) if w == side => 1.0,
            Some(_) => -1.0,
        }
    }

    /// Writes `slot`'s observation (all of it) and mask into its row (the mask row all zeros
    /// before), and keeps its legal actions for the next step.
    ///
    /// # Errors
    /// [`Shortage::Game`] when the list of legal actions cannot grow
    /// ([`VecGame::legal_actions`]).
    fn write(&self, slot: &mut Slot<G>, row: &mut Row<'_>) -> Result<(), Shortage> {
        let side = self.agent_side(slot);
        G::observe(&slot.game, side, row.obs);
        let position = slot.game.position();
        if !slot.done && position.side_to_move() == Some(side) {
            G::legal_actions(position, &self.moves, &mut slot.legal)?;
        } else {
            slot.legal.clear();
        }
        for &k in &slot.legal {
            if let Some(m) = row.mask.get_mut(usize::from(k)) {
                *m = 1;
            }
        }
        Ok(())
    }

    /// One step of the game of `slot` with `action`, written into `row` (its observation and
    /// reward always): a finished game is reset (its action ignored, reward 0); another
    /// plays its action, then the opponent's moves.
    ///
    /// # Errors
    /// [`Shortage`] when a move, the mask or the engine needs memory that cannot be had
    /// (the game and its row are then part-way through the step).
    fn step(&self, slot: &mut Slot<G>, action: i64, row: &mut Row<'_>) -> Result<(), Shortage> {
        if slot.done {
            self.reset_slot(slot)?;
            row.reward.write(0.0);
            return self.write(slot, row);
        }
        // The action must be one of the mask's, the legal actions of the current position
        // (`write` keeps them): then its move is legal, and is played without a second check.
        let legal = usize::try_from(action)
            .ok()
            .filter(|&a| a < self.moves.len() && slot.legal.contains(&(a as u16)));
        let Some(a) = legal else {
            row.reward.write(self.settings.illegal_reward);
            *row.terminated = true;
            slot.done = true;
            return self.write(slot, row);
        };
        // In self-play the reward goes to the player who moved.
        let mover = self.agent_side(slot);
        let mover_first = slot.game.player_on(mover);
        // The step's first move: in the room made before the step.
        let start = slot.moves;
        slot.game.play_unchecked(self.moves[a]);
        slot.moves += 1;
        if self.settings.opponent != Opponent::SelfPlay {
            self.play_opponent(slot, start)?;
        }
        let side = if self.settings.opponent == Opponent::SelfPlay {
            slot.game.side_of(mover_first)
        } else {
            self.agent_side(slot)
        };
        let terminated = slot.game.is_over();
        let truncated = !terminated && self.truncated(slot);
        row.reward.write(self.final_reward(slot, side, truncated));
        *row.terminated = terminated;
        *row.truncated = truncated;
        slot.done = terminated || truncated;
        self.write(slot, row)
    }
}

impl<G: VecGame> Batch<G> {
    /// `n` games from `start`, game `i` seeded `seed + i`, stopped by `cancel` (see
    /// [`Shared::cancel`]). `MemoryError` when the games' slots (`n` times a slot's size,
    /// hundreds of bytes) cannot be had: with the largest `num_envs`, 2^24, several GiB,
    /// which aborted the process when the allocation failed.
    fn new(
        start: GameRecord<G>,
        n: usize,
        seed: u64,
        settings: Settings,
        cancel: Arc<AtomicBool>,
    ) -> PyResult<Batch<G>> {
        let moves = G::all_moves(start.position());
        let obs = G::observation_size(start.position());
        let first_side = start.position().side_to_move().unwrap_or(Side::South);
        let mut slots = Vec::new();
        let no_room = || {
            // A slot and its record's start position (the record's own heap memory).
            let game = std::mem::size_of::<Slot<G>>() + std::mem::size_of::<G>();
            PyMemoryError::new_err(format!(
                "{n} games of {} do not fit in memory ({} for their slots)",
                start.position().rules(),
                mancala_solver::readable_bytes(n.saturating_mul(game) as u64)
            ))
        };
        slots.try_reserve_exact(n).map_err(|_| no_room())?;
        for i in 0..n {
            slots.push(Slot {
                game: start.try_clone().map_err(|_| no_room())?,
                rng: StdRng::seed_from_u64(seed.wrapping_add(i as u64)),
                agent_first: true,
                first_side,
                moves: 0,
                done: true,
                legal: Actions::new(),
            });
        }
        let engine = opponent_engine(&settings);
        Ok(Batch {
            shared: Shared {
                start,
                moves,
                obs,
                settings,
                engine,
                cancel,
            },
            slots,
            sampler: fastrand::Rng::with_seed(sampler_seed(seed)),
            saved: Vec::new(),
            saved_sampler: fastrand::Rng::with_seed(sampler_seed(seed)),
        })
    }

    /// Keeps a copy of the games and the sampler, for [`Batch::restore`]: the games' records
    /// are copied into the copies kept from the last time, reusing their memory.
    ///
    /// # Errors
    /// [`NoRoom`] when the copies' memory cannot be had; the games are untouched, and the
    /// copy is made again (all of it) by the next call.
    fn save(&mut self) -> Result<(), NoRoom> {
        if self.saved.len() == self.slots.len() {
            for (kept, slot) in self.saved.iter_mut().zip(&self.slots) {
                if let Err(e) = kept.try_copy_from(slot) {
                    self.saved.clear();
                    return Err(e);
                }
            }
        } else {
            self.saved.clear();
            let mut saved = Vec::new();
            saved
                .try_reserve_exact(self.slots.len())
                .map_err(|_| NoRoom)?;
            for slot in &self.slots {
                saved.push(slot.try_clone()?);
            }
            self.saved = saved;
        }
        self.saved_sampler = self.sampler.clone();
        Ok(())
    }

    /// Makes room for [`STEP_ROOM`] more plies in each game's record, so that a step or a
    /// reset, which runs without the GIL and cannot raise, does not allocate for the moves
    /// it plays (only a longer chain of moves in one game does).
    ///
    /// # Errors
    /// [`NoRoom`] when the memory cannot be had; the games are unchanged (some may have
    /// more room).
    fn reserve(&mut self) -> Result<(), NoRoom> {
        for slot in &mut self.slots {
            slot.game.try_reserve(STEP_ROOM).map_err(|_| NoRoom)?;
        }
        Ok(())
    }

    /// A copy of the batch that shares nothing with it, stopped by `cancel`: the same games,
    /// generators and settings. An engine opponent's copy starts with an empty table and
    /// its draws of weaker moves (levels 1-4) from the seed, as a new batch's does.
    ///
    /// # Errors
    /// [`NoRoom`] when the copy's memory cannot be had (nothing is kept).
    fn try_clone(&self, cancel: Arc<AtomicBool>) -> Result<Batch<G>, NoRoom> {
        let settings = self.shared.settings;
        let engine = opponent_engine(&settings);
        let mut moves = Vec::new();
        moves
            .try_reserve_exact(self.shared.moves.len())
            .map_err(|_| NoRoom)?;
        moves.extend_from_slice(&self.shared.moves);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(self.slots.len())
            .map_err(|_| NoRoom)?;
        for slot in &self.slots {
            slots.push(slot.try_clone()?);
        }
        Ok(Batch {
            shared: Shared {
                start: self.shared.start.try_clone().map_err(|_| NoRoom)?,
                moves,
                obs: self.shared.obs,
                settings,
                engine,
                cancel,
            },
            slots,
            sampler: self.sampler.clone(),
            saved: Vec::new(),
            saved_sampler: self.saved_sampler.clone(),
        })
    }

    /// Puts back the games and the sampler that [`Batch::save`] kept.
    fn restore(&mut self) {
        std::mem::swap(&mut self.slots, &mut self.saved);
        self.sampler = self.saved_sampler.clone();
    }

    /// One step of every game ([`Shared::step`]) into `out` (as [`Out`] says).
    ///
    /// # Errors
    /// The [`Shortage`] of the first game that met one: the games before it are stepped,
    /// it is part-way through its step, the games after it untouched.
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Shortage> {
        let shared = &self.shared;
        let rows = out.rows(shared.obs, shared.moves.len());
        for ((slot, &action), mut row) in self.slots.iter_mut().zip(actions).zip(rows) {
            if shared.cancelled() {
                return Ok(()); // Ctrl-C: the batch is put back as it was
            }
            shared.step(slot, action, &mut row)?;
        }
        Ok(())
    }

    /// A legal action of each game drawn uniformly from the moves of its last observation's
    /// mask (0 for a game without one: finished, to be reset by the next step), written into
    /// every element of `out` (one a game, uninitialised when given).
    fn sample(&mut self, out: &mut [MaybeUninit<i64>]) {
        for (slot, o) in self.slots.iter().zip(out.iter_mut()) {
            o.write(match slot.legal.len() {
                0 => 0,
                n => i64::from(slot.legal[self.sampler.usize(..n)]),
            });
        }
    }

    /// Starts every game anew into `out` (as [`Out`] says; rewards 0).
    ///
    /// # Errors
    /// As [`Batch::step`].
    fn reset(&mut self, seed: Option<u64>, out: &mut Out<'_>) -> Result<(), Shortage> {
        if let Some(s) = seed {
            self.sampler = fastrand::Rng::with_seed(sampler_seed(s));
        }
        let shared = &self.shared;
        let rows = out.rows(shared.obs, shared.moves.len());
        for (i, (slot, mut row)) in self.slots.iter_mut().zip(rows).enumerate() {
            if shared.cancelled() {
                return Ok(()); // Ctrl-C: the batch is put back as it was
            }
            if let Some(s) = seed {
                slot.rng = StdRng::seed_from_u64(s.wrapping_add(i as u64));
            }
            shared.reset_slot(slot)?;
            row.reward.write(0.0);
            shared.write(slot, &mut row)?;
        }
        Ok(())
    }
}

/// A batch of any game, its type erased.
trait AnyBatch: Send + Sync {
    fn actions(&self) -> usize;
    fn observation_size(&self) -> usize;
    fn high(&self) -> i64;
    fn len(&self) -> usize;
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Shortage>;
    fn reset(&mut self, seed: Option<u64>, out: &mut Out<'_>) -> Result<(), Shortage>;
    fn sample(&mut self, out: &mut [MaybeUninit<i64>]);
    /// A copy of game `i`'s record; [`NoRoom`] when its memory cannot be had.
    fn game(&self, i: usize) -> Result<AnyGame, NoRoom>;
    fn agent_side(&self, i: usize) -> Side;
    /// Whether the game has a store margin (`reward = "margin"`).
    fn has_margin(&self) -> bool;
    /// The engine's time budget of a step or a reset of the batch: zero without an engine,
    /// the engine's time a move times the games, `Duration::MAX` when the engine has no time
    /// limit. A budget, not a bound: in Kalah an extra turn gives the engine another move in
    /// the same step.
    fn engine_time_budget(&self) -> Duration;
    /// [`Batch::save`].
    fn save(&mut self) -> Result<(), NoRoom>;
    /// [`Batch::reserve`].
    fn reserve(&mut self) -> Result<(), NoRoom>;
    /// [`Batch::try_clone`].
    fn try_clone(&self, cancel: Arc<AtomicBool>) -> Result<Box<dyn AnyBatch>, NoRoom>;
    /// [`Batch::restore`].
    fn restore(&mut self);
}

impl<G: VecGame> AnyBatch for Batch<G>
where
    Batch<G>: Send + Sync,
{
    fn actions(&self) -> usize {
        self.shared.moves.len()
    }
    fn observation_size(&self) -> usize {
        self.shared.obs
    }
    fn high(&self) -> i64 {
        G::high(self.shared.start.position())
    }
    fn len(&self) -> usize {
        self.slots.len()
    }
    fn step(&mut self, actions: &[i64], out: &mut Out<'_>) -> Result<(), Shortage> {
        Batch::step(self, actions, out)
    }
    fn reset(&mut self, seed: Option<u64>, out: &mut Out<'_>) -> Result<(), Shortage> {
        Batch::reset(self, seed, out)
    }
    fn sample(&mut self, out: &mut [MaybeUninit<i64>]) {
        Batch::sample(self, out);
    }
    fn game(&self, i: usize) -> Result<AnyGame, NoRoom> {
        self.slots[i]
            .game
            .try_clone()
            .map(G::ANY)
            .map_err(|_| NoRoom)
    }
    fn agent_side(&self, i: usize) -> Side {
        self.shared.agent_side(&self.slots[i])
    }
    fn has_margin(&self) -> bool {
        G::margin(&self.shared.start, Side::South).is_some()
    }
    fn engine_time_budget(&self) -> Duration {
        match (&self.shared.engine, self.shared.settings.engine_time) {
            (None, _) => Duration::ZERO,
            (Some(_), None) => Duration::MAX,
            (Some(_), Some(t)) => u32::try_from(self.slots.len())
                .ok()
                .and_then(|n| t.checked_mul(n))
                .unwrap_or(Duration::MAX),
        }
    }
    fn save(&mut self) -> Result<(), NoRoom> {
        Batch::save(self)
    }
    fn reserve(&mut self) -> Result<(), NoRoom> {
        Batch::reserve(self)
    }
    fn try_clone(&self, cancel: Arc<AtomicBool>) -> Result<Box<dyn AnyBatch>, NoRoom> {
        Ok(Box::new(Batch::try_clone(self, cancel)?))
    }
    fn restore(&mut self) {
        Batch::restore(self);
    }
}

/// What `reset` and `step` return: observations `(N, obs)` `int64`, rewards `(N,)`
/// `float64`, terminations and truncations `(N,)` `bool`, masks `(N, A)` `int8`.
type StepArrays<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray2<i8>>,
);

/// What `step_one` returns: the observation `(obs,)` `int64`, the reward, termination and
/// truncation, the mask `(A,)` `int8`.
type OneStep<'py> = (
    Bound<'py, PyArray1<i64>>,
    f64,
    bool,
    bool,
    Bound<'py, PyArray1<i8>>,
);

/// The `opponent` argument of `VectorGames`: `"random"`, an engine level 1..10 (an integer),
/// or `None` (self-play).
pub enum OpponentArg {
    /// `"random"`.
    Random,
    /// An engine level, its range not yet checked.
    Level(Int),
    /// `None`.
    SelfPlay,
}

/// The `illegal_reward` argument, checked when it is read: a finite real number (an `int`, a
/// `float`, a NumPy integer or float: whatever `numbers.Real` holds, a bool excepted) as an
/// `f64`, or the error to raise for it, which `VectorGames` raises. The vector environment
/// (`mancala.envs.MancalaVectorEnv`) passes its argument here as given; `MancalaEnv`, which
/// plays its engine and function opponents without a `VectorGames`, checks it the same way
/// in Python (`mancala.envs._codec.checked_illegal_reward`).
///
/// # Errors (held, raised by `VectorGames`)
/// `TypeError` "illegal_reward must be a number, not True" for a bool (Python's or NumPy's;
/// it was taken as 1.0 or 0.0) or anything else that is no real number; `ValueError`
/// "illegal_reward must be finite, not nan" for NaN, ±inf or an integer too large for a
/// float (it would be the reward of an illegal move); `TypeError` "illegal_reward must be a
/// number float() takes, not R() (float() raised TypeError)" for a `numbers.Real` whose
/// `float()` raises (other than `OverflowError`). The value is shown as [`shown`] gives it:
/// `10**5000` as "an integer of at least 5000 digits", never written out. The messages are
/// those of `MancalaEnv`'s check, without the "argument 'illegal_reward':" that PyO3 puts
/// before a `TypeError` of extraction (the error is held until `VectorGames` raises it).
struct Reward(PyResult<f64>);

impl Reward {
    /// `obj` checked as the `illegal_reward` argument (see [`Reward`]).
    fn check(obj: &Borrowed<'_, '_, PyAny>) -> PyResult<f64> {
        let py = obj.py();
        let real = py.import("numbers")?.getattr("Real")?;
        if obj.is_instance_of::<pyo3::types::PyBool>() || !obj.is_instance(&real)? {
            return Err(PyTypeError::new_err(format!(
                "illegal_reward must be a number, not {}",
                shown(obj)
            )));
        }
        // A real number that is no finite float: NaN, ±inf, or an integer beyond the floats
        // (`float(10**400)` raises OverflowError).
        match obj.extract::<f64>() {
            Ok(value) if value.is_finite() => Ok(value),
            Err(e) if !e.is_instance_of::<pyo3::exceptions::PyOverflowError>(py) => {
                // A `numbers.Real` whose `float()` raises: no number to reward with.
                Err(PyTypeError::new_err(format!(
                    "illegal_reward must be a number float() takes, not {} (float() raised {})",
                    shown(obj),
                    e.get_type(py)
                        .name()
                        .map_or_else(|_| "?".to_string(), |n| n.to_string())
                )))
            }
            _ => Err(PyValueError::new_err(format!(
                "illegal_reward must be finite, not {}",
                shown(obj)
            ))),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Reward {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Reward> {
        Ok(Reward(Reward::check(&obj)))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for OpponentArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<OpponentArg> {
        if obj.is_none() {
            return Ok(OpponentArg::SelfPlay);
        }
        if let Ok(s) = obj.extract::<String>() {
            if s == "random" {
                return Ok(OpponentArg::Random);
            }
        } else if !obj.is_instance_of::<pyo3::types::PyBool>() {
            if let Ok(level) = obj.extract::<Int>() {
                return Ok(OpponentArg::Level(level));
            }
        }
        Err(PyValueError::new_err(format!(
            "opponent must be \"random\", an engine level 1..10 or None, not {}",
            shown(&obj)
        )))
    }
}

/// A new C-contiguous NumPy array of `dims`: zeros when `zeroed`, else uninitialised (as
/// `PyArray::new`), made through NumPy's C API as `PyArray::new` and `PyArray::zeros` make
/// theirs, but with NumPy's error returned instead of a panic: `MemoryError` (NumPy's,
/// "Unable to allocate 1.00 GiB for an array with shape …") when the array does not fit.
///
/// # Safety
/// An uninitialised array (`zeroed` false) must be written in full before Python reads it
/// (its elements are plain numbers, which NumPy may drop as they are).
///
/// # Errors
/// The exception NumPy raised (`MemoryError`, `ValueError` for a shape too large).
unsafe fn new_array<'py, T: Element, D: ToNpyDims>(
    py: Python<'py>,
    dims: impl numpy::ndarray::IntoDimension<Dim = D>,
    zeroed: bool,
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let mut dims = dims.into_dimension();
    // SAFETY: NumPy's own constructors, called as the `numpy` crate calls them: each takes
    // the dtype's reference (`into_dtype_ptr`) and reads `dims` only during the call; a
    // null result is an error NumPy has set, taken by `from_owned_ptr_or_err`.
    unsafe {
        let ptr = if zeroed {
            PY_ARRAY_API.PyArray_Zeros(
                py,
                dims.ndim_cint(),
                dims.as_dims_ptr(),
                T::get_dtype(py).into_dtype_ptr(),
                0,
            )
        } else {
            PY_ARRAY_API.PyArray_NewFromDescr(
                py,
                PY_ARRAY_API.get_type_object(py, numpy::npyffi::NpyTypes::PyArray_Type),
                T::get_dtype(py).into_dtype_ptr(),
                dims.ndim_cint(),
                dims.as_dims_ptr(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                std::ptr::null_mut(),
            )
        };
        Ok(Bound::from_owned_ptr_or_err(py, ptr)?.cast_into_unchecked())
    }
}

/// The elements of the C-contiguous array `arr`, possibly uninitialised, as a mutable slice.
///
/// # Safety
/// `arr` must be C-contiguous and no other view of its data may be used while the slice
/// lives (as for NumPy's own `as_slice_mut`, whose pattern this follows).
#[allow(clippy::mut_from_ref)]
unsafe fn uninit_slice<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    arr: &'a Bound<'_, numpy::PyArray<T, D>>,
) -> &'a mut [MaybeUninit<T>] {
    // SAFETY: the caller's contract; `MaybeUninit<T>` has `T`'s layout and any bytes are a
    // valid `MaybeUninit<T>`.
    unsafe {
        std::slice::from_raw_parts_mut(
            arr.data().cast::<MaybeUninit<T>>(),
            numpy::PyUntypedArrayMethods::len(arr),
        )
    }
}

/// The `MemoryError` of a step or a reset of `n` games stopped by `e`, one line: the batch
/// was put back as before the call (`restored`, against an engine) or must be reset.
fn shortage(e: Shortage, n: usize, restored: bool) -> PyErr {
    let what = match e {
        Shortage::Game => format!(
            "no memory left for the moves or legal actions of a game while the {n} games were played"
        ),
        Shortage::Table => format!(
            "no memory left for the engine's transposition table ({}) while the {n} games were played",
            mancala_solver::readable_bytes(ENGINE_TT_BYTES as u64)
        ),
    };
    let state = if restored {
        "the games are as before the call"
    } else {
        "the games must be started anew with reset()"
    };
    PyMemoryError::new_err(format!("{what}: {state}"))
}

/// A step or a reset whose engine budget is at most this (the engine's time a move times the
/// games, [`AnyBatch::engine_time_budget`]) runs without the Ctrl-C watcher of
/// [`interrupt::run`], whose helper thread costs about 40 µs a call, twenty times a step of
/// one game against level 1: a Ctrl-C that comes meanwhile is handled when the call ends, and
/// the call is undone as a watched one is.
const WATCH_FROM: Duration = Duration::from_millis(250);

/// `num_envs` games of one rule set stepped together in Rust, the GIL released while they
/// step. Observations, actions and masks are those of `mancala.envs` (`docs/python.md`).
///
/// `VectorGames(rules="standard", num_envs=1, seed=0, opponent="random", agent_first=True,
/// reward="win", illegal_reward=-1.0, max_moves=None, opponent_time_ms=100)`:
///
/// * `opponent`: `"random"` (the other side plays a legal move drawn uniformly, inside the
///   step), an engine level 1..10 (the engine plays it inside the step, with one 4 MiB table
///   for the batch; its weaker moves at levels 1-4 are drawn from `seed`; another level is
///   an `EngineError`, as `Engine(level=…)` raises), or `None` for
///   self-play (each step plays the action of whichever player is to move, the observation
///   and the mask are that player's, and the reward goes to the player who moved).
/// * `opponent_time_ms`: the engine's time a move in milliseconds, 0..=86400000 (one day,
///   the `mancala` command's limit; `ValueError` beyond). Levels 1-9 are depth-limited and
///   usually finish far sooner. 0 is no time limit, as for `Engine.search`: levels 1-9 then
///   search to their depth however long it takes, and level 10 refuses it (`ValueError`).
///   Level 9 (14 plies) with no limit takes well under a second a move in Kalah, Oware and
///   Bao la Kete, but seconds in Togyz Kumalak (measured: 0.7-8.5 s of CPU a move), and a
///   step waits for every game's moves (16 Togyz Kumalak games: minutes).
/// * `agent_first`: `True` the agent is the first player, `False` the second, `None` drawn
///   at each reset (ignored in self-play).
/// * `reward`: `"win"` (+1, −1, 0 at the end; 0 at a truncation) or `"margin"` (the
///   player's store minus the opponent's in seeds, Kalah, Oware and Togyz Kumalak: the final
///   one at the end, the one so far at a truncation; Bao la Kete has none and refuses it).
/// * `illegal_reward`: the reward of an action that is not legal (a finite number: a bool
///   or another object is a `TypeError`, NaN or ±inf a `ValueError`); it ends that game.
/// * `max_moves`: truncate a game after this many plies (moves of both players, the
///   opponent's included).
///
/// Each game has its own random generator, seeded `seed + i`. A finished game is reset by
/// the next `step` (its action is ignored, its reward 0): Gymnasium's "next step" autoreset.
/// Raises `RulesError` for a bad rule set, `ValueError` for a bad argument (and for
/// `reward="margin"` with a game without a margin).
///
/// Out of memory, a call raises `MemoryError` with a one-line message, never aborts: the
/// batch's games or a call's arrays, the room for its moves or the copy kept against Ctrl-C
/// leave the batch as before the call. The memory a game needs while it is played (a record
/// grown for more than 8 moves in one step, a Bao la Kete mask over 16 legal moves, the
/// engine opponent's table) leaves it as before the call against an engine; against the
/// random opponent or in self-play, where no copy is kept, the games must be started anew
/// with `reset()` (`step` and `sample_actions` raise `RuntimeError` until then).
///
/// Against an engine, Ctrl-C stops a `step`, `step_one` or `reset` (within a tenth of a
/// second and the few thousand nodes the search takes to stop) with `KeyboardInterrupt`,
/// and the call then did not happen for any game: every game, its mask and the generators
/// of the games and of `sample_actions` are as they were before it (a first `reset` stopped
/// so leaves the batch not reset). Only the engine's table and its draws of weaker moves
/// (levels 1-4) have moved on, so the same call again may play other engine moves. A call
/// whose engine budget is at most 250 ms (the time a move times the games, as with one game
/// at the default 100 ms) is not watched while it runs: Ctrl-C then takes effect when it
/// ends (later than the budget when the engine moves more than once in a step, as with
/// Kalah's extra turns), and the call is undone all the same.
#[pyclass(module = "mancala")]
pub struct VectorGames {
    batch: Box<dyn AnyBatch>,
    /// Whether `reset` has been called (`step` and `sample_actions` refuse to run before).
    started: bool,
    /// The batch's cancel flag ([`Shared::cancel`]), set by Ctrl-C.
    cancel: Arc<AtomicBool>,
}

impl VectorGames {
    /// A copy of the batch ([`Batch::try_clone`]), with its own cancel flag.
    ///
    /// # Errors
    /// `MemoryError` when the copy does not fit in memory.
    fn copied(&self) -> PyResult<VectorGames> {
        let cancel = Arc::new(AtomicBool::new(false));
        let batch = self.batch.try_clone(Arc::clone(&cancel)).map_err(|_| {
            PyMemoryError::new_err(format!(
                "no memory left for a copy of the {} games",
                self.batch.len()
            ))
        })?;
        Ok(VectorGames {
            batch,
            started: self.started,
            cancel,
        })
    }

    /// The game index `i` when it lies in `0..num_envs`.
    ///
    /// # Errors
    /// `IndexError` naming `i`, the range and the value.
    fn index(&self, i: &Int) -> PyResult<usize> {
        let n = self.batch.len();
        i.get::<usize>("i", 0, n as i128 - 1, "").map_err(|_| {
            pyo3::exceptions::PyIndexError::new_err(format!(
                "game index i must be in 0..{n}, got {}",
                i.text()
            ))
        })
    }

    /// Runs `f` (a step or a reset) on the batch without the GIL. With an engine opponent
    /// whose moves may take longer than [`WATCH_FROM`] in all (minutes without a time
    /// limit), Ctrl-C stops it ([`interrupt::run`]): the games and the
    /// sampler are then put back as they were before `f` ran, and the signal handler's
    /// exception (`KeyboardInterrupt`) is returned.
    ///
    /// # Errors
    /// The signal handler's exception; `RuntimeError` when the helper thread of
    /// [`interrupt::run`] cannot start or `f` panicked (the batch put back as well);
    /// `MemoryError` before `f` runs when the room for the moves it plays
    /// ([`Batch::reserve`]) or the copy of the games kept against Ctrl-C cannot be had (the
    /// games unchanged); `MemoryError` when `f` stopped for a [`Shortage`] ([`shortage`]):
    /// against an engine the games are put back as they were, else the batch is marked not
    /// reset (`step` refuses to run until `reset` starts every game anew).
    fn exec(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn AnyBatch) -> Result<(), Shortage> + Send,
    ) -> PyResult<()> {
        let batch = &mut *self.batch;
        let n = batch.len();
        batch.reserve().map_err(|_| {
            PyMemoryError::new_err(format!(
                "no memory left for the moves of the {n} games (their records could not grow)"
            ))
        })?;
        let budget = batch.engine_time_budget();
        if budget.is_zero() {
            // A random opponent or self-play: a step takes microseconds a game. No copy of
            // the games is kept (it would cost as much as the step): a game that could not get
            // the memory of its moves leaves the batch part-way through the step, to be reset.
            let stepped = py.detach(|| f(batch));
            return stepped.map_err(|e| {
                self.started = false;
                shortage(e, n, false)
            });
        }
        self.cancel.store(false, Ordering::SeqCst);
        batch.save().map_err(|_| {
            PyMemoryError::new_err(format!(
                "no memory left for the copy of the {n} games that Ctrl-C would put back"
            ))
        })?;
        let done = if budget <= WATCH_FROM {
            // A short budget: on this thread, without the watcher's helper thread, which
            // costs more than such a step; a signal that came meanwhile is handled at its end,
            // and the call is then undone as a watched one is.
            let stepped = py.detach(|| f(batch));
            py.check_signals()
                .and_then(|()| stepped.map_err(|e| shortage(e, n, true)))
        } else {
            interrupt::run(py, &self.cancel, || f(batch))
                .and_then(|stepped| stepped.map_err(|e| shortage(e, n, true)))
        };
        if done.is_err() {
            self.batch.restore();
        }
        done
    }

    /// Runs `f` on the batch as [`VectorGames::exec`] does, and returns its output as NumPy
    /// arrays.
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        f: impl FnOnce(&mut dyn AnyBatch, &mut Out<'_>) -> Result<(), Shortage> + Send,
    ) -> PyResult<StepArrays<'py>> {
        let (n, obs, a) = (
            self.batch.len(),
            self.batch.observation_size(),
            self.batch.actions(),
        );
        // The arrays are filled in place: no copy, no array made twice. The observations and
        // rewards, which the batch writes in full, are made without clearing them (most of a
        // step's bytes); the masks, terminations and truncations, of which it writes only
        // what is not 0, are made zeros.
        // SAFETY: `PyArray::new` makes an uninitialised array of a plain number type, which
        // NumPy may drop as it is; its elements are only ever reached through the
        // `MaybeUninit` views below until the batch has written every one of them.
        let (obs_arr, reward) = unsafe {
            (
                new_array::<i64, _>(py, [n, obs], false)?,
                new_array::<f64, _>(py, [n], false)?,
            )
        };
        // SAFETY: arrays of zeros.
        let (mask_arr, terminated, truncated) = unsafe {
            (
                new_array::<i8, _>(py, [n, a], true)?,
                new_array::<bool, _>(py, [n], true)?,
                new_array::<bool, _>(py, [n], true)?,
            )
        };
        // SAFETY: the five arrays were made just above, C-contiguous, and nothing else holds
        // them (Python sees them only once they are returned): each slice is the only view of
        // its array's data while the batch writes it. The two uninitialised ones are seen as
        // `MaybeUninit` (valid for any bytes), over their whole `len()` elements from their
        // data pointer (non-null and aligned, as NumPy allocates).
        let mut out = unsafe {
            Out {
                obs: uninit_slice(&obs_arr),
                mask: mask_arr.as_slice_mut()?,
                reward: uninit_slice(&reward),
                terminated: terminated.as_slice_mut()?,
                truncated: truncated.as_slice_mut()?,
            }
        };
        self.exec(py, |batch| f(batch, &mut out))?;
        Ok((obs_arr, reward, terminated, truncated, mask_arr))
    }
}

#[pymethods]
impl VectorGames {
    #[new]
    #[pyo3(signature = (rules = "standard", num_envs = Int::of(1), seed = Int::of(0),
        opponent = OpponentArg::Random, agent_first = Some(true), reward = "win",
        illegal_reward = Reward(Ok(-1.0)), max_moves = None, opponent_time_ms = Int::of(100)),
        text_signature = "(rules='standard', num_envs=1, seed=0, opponent='random', agent_first=True, reward='win', illegal_reward=-1.0, max_moves=None, opponent_time_ms=100)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        rules: &str,
        num_envs: Int,
        seed: Int,
        opponent: OpponentArg,
        agent_first: Option<bool>,
        reward: &str,
        illegal_reward: Reward,
        max_moves: Option<Int>,
        opponent_time_ms: Int,
    ) -> PyResult<VectorGames> {
        let n = num_envs.get::<usize>("num_envs", 1, 1 << 24, "")?;
        let seed = seed.u64("seed")?;
        let opponent = match opponent {
            OpponentArg::Random => Opponent::Random,
            OpponentArg::SelfPlay => Opponent::SelfPlay,
            // Out of 1..=10: `EngineError`, as `Engine(level=…)` raises it.
            OpponentArg::Level(level) => {
                Opponent::Engine(crate::engine::checked_level(py, &level)?)
            }
        };
        let time_ms = crate::engine::time_ms(&opponent_time_ms, "opponent_time_ms")?;
        // 0 is no time limit, as for `Engine.search`; level 10 needs a budget.
        let engine_time = match opponent {
            Opponent::Engine(level) => {
                crate::engine::budget(level.get(), time_ms, 0, "opponent_time_ms")?.time
            }
            _ => None,
        };
        let margin = match reward {
            "win" => false,
            "margin" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "reward must be \"win\" or \"margin\", not {other:?}"
                )))
            }
        };
        let max_moves = match max_moves {
            None => None,
            Some(m) => Some(m.get::<u64>("max_moves", 1, i128::from(u64::MAX), "")?),
        };
        let Reward(illegal_reward) = illegal_reward;
        let illegal_reward = illegal_reward?;
        let rules: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
        let settings = Settings {
            opponent,
            agent_first,
            margin,
            illegal_reward,
            max_moves,
            engine_time,
            seed,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let batch: Box<dyn AnyBatch> = with_game!(AnyGame::new(rules), g => {
            Box::new(Batch::new(g, n, seed, settings, Arc::clone(&cancel))?)
        });
        if margin && !batch.has_margin() {
            return Err(PyValueError::new_err(format!(
                "reward=\"margin\" needs a game with stores ({MARGIN_GAMES}); {} has no margin: use reward=\"win\"",
                rules
            )));
        }
        Ok(VectorGames {
            batch,
            started: false,
            cancel,
        })
    }

    /// A batch is not pickled: `TypeError` saying to make one in the other process (with the
    /// same arguments and `reset(seed=…)`, it plays the same games); `copy.deepcopy` copies
    /// it in the same process.
    ///
    /// # Errors
    /// Always `TypeError`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::errors::not_picklable(
            "VectorGames",
            "make a VectorGames in the other process (copy.deepcopy copies one here)",
        ))
    }

    /// `copy.copy`: as `copy.deepcopy` (a batch shares nothing with its copy).
    ///
    /// # Errors
    /// As `__deepcopy__`.
    fn __copy__(&self) -> PyResult<VectorGames> {
        self.copied()
    }

    /// `copy.deepcopy`: a batch of the same games, in the same state (positions, records,
    /// random generators, whether `reset` was called), that steps apart from this one.
    /// Against an engine, the copy's engine starts with an empty table and its draws of
    /// weaker moves (levels 1-4) from the seed, so it may play other moves than this
    /// batch's engine would.
    ///
    /// # Errors
    /// `MemoryError` when the copy does not fit in memory.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<VectorGames> {
        self.copied()
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    /// The number of actions (the action space `Discrete(A)`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.batch.actions()
    }

    /// The observation's length.
    #[getter]
    fn observation_size(&self) -> usize {
        self.batch.observation_size()
    }

    /// The largest value an observation holds.
    #[getter]
    fn high(&self) -> i64 {
        self.batch.high()
    }

    /// Starts every game anew (the opponent moves first where it is the first player),
    /// reseeding game `i` with `seed + i` when `seed` is given. Returns `(observations,
    /// rewards, terminations, truncations, masks)` as `step` does (rewards 0). Against an
    /// engine, Ctrl-C stops it with `KeyboardInterrupt`, the batch left as before the call.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<Int>) -> PyResult<StepArrays<'py>> {
        let seed = seed.map(|s| s.u64("seed")).transpose()?;
        let arrays = self.run(py, |b, out| b.reset(seed, out))?;
        self.started = true;
        Ok(arrays)
    }

    /// Plays one action in every game (`actions`: integers, shape `(N,)`; an action that is
    /// not legal ends its game with `illegal_reward`), the opponents' replies, and resets the
    /// games that had finished. Returns `(observations (N, obs) int64, rewards (N,) float64,
    /// terminations (N,) bool, truncations (N,) bool, masks (N, A) int8)`. Raises
    /// `RuntimeError` when `reset` has never been called (or not since a `MemoryError` that
    /// left games part-way), `ValueError` when `actions` has not
    /// N entries, `TypeError` when it is not integers. Against an engine, Ctrl-C stops it
    /// with `KeyboardInterrupt`, and the step did not happen for any game (the class's
    /// docs).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<StepArrays<'py>> {
        if !self.started {
            return Err(PyRuntimeError::new_err(
                "VectorGames.step() called before reset(): call reset() first",
            ));
        }
        // An int64 array (what `sample_actions` and `argmax` give) is read as it is; anything
        // else goes through NumPy's conversion first.
        let arr: PyReadonlyArray1<'py, i64> = match actions.extract() {
            Ok(a) => a,
            Err(_) => {
                let np = py.import("numpy")?;
                let arr = np.call_method1("asarray", (actions,))?;
                // Integers only: a float (1.5) or a bool is no action, as in the single env.
                let kind: String = arr.getattr("dtype")?.getattr("kind")?.extract()?;
                if kind != "i" && kind != "u" {
                    return Err(PyTypeError::new_err(format!(
                        "actions must be integers, not an array of {}",
                        arr.getattr("dtype")?.str()?
                    )));
                }
                arr.call_method1("astype", ("int64",))?
                    .extract()
                    .map_err(|_| PyValueError::new_err("actions must be a one-dimensional array"))?
            }
        };
        let len = arr.as_array().len();
        let mut acts = Vec::new();
        acts.try_reserve_exact(len)
            .map_err(|_| PyMemoryError::new_err(format!("no memory left to copy {len} actions")))?;
        match arr.as_slice() {
            Ok(s) => acts.extend_from_slice(s),
            Err(_) => acts.extend(arr.as_array().iter().copied()),
        }
        if acts.len() != self.batch.len() {
            return Err(PyValueError::new_err(format!(
                "expected {} actions, got {}",
                self.batch.len(),
                acts.len()
            )));
        }
        self.run(py, move |b, out| b.step(&acts, out))
    }

    /// A legal action of each game, drawn uniformly from the mask of the last observation
    /// (shape `(N,)`, `int64`; 0 for a finished game, whose action the next `step` ignores),
    /// from the batch's own generator (seeded from `seed` and by `reset(seed=…)`, apart from
    /// the games' generators, so that drawing does not change the opponents' moves): the
    /// random agent of a benchmark or of exploration, without drawing in NumPy. Raises
    /// `RuntimeError` when `reset` has never been called (there is no mask to draw from).
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        if !self.started {
            return Err(PyRuntimeError::new_err(
                "VectorGames.sample_actions() called before reset(): call reset() first",
            ));
        }
        // Made without clearing it: the draw writes each of its values (one a game).
        // SAFETY: `PyArray::new` makes an uninitialised array of a plain number type, which
        // NumPy may drop as it is; it is reached only through the `MaybeUninit` view below
        // until every value is written.
        let actions = unsafe { new_array::<i64, _>(py, [self.batch.len()], false)? };
        let batch = &mut *self.batch;
        // SAFETY: the array was made just above, contiguous, and nothing else holds it.
        let out = unsafe { uninit_slice(&actions) };
        py.detach(|| batch.sample(out));
        Ok(actions)
    }

    /// One step of a batch of one game, for a single-agent environment (`MancalaEnv`):
    /// plays `action` (an integer; one that is not legal, −1 included, ends the game with
    /// `illegal_reward`) and the opponent's replies, or resets the game if it had finished.
    /// Returns `(observation (obs,) int64, reward float, terminated bool, truncated bool,
    /// mask (A,) int8)`: the row of `step` as Python scalars and one-dimensional arrays,
    /// without the batch's arrays of one row. Raises `RuntimeError` when `reset` has never
    /// been called, `ValueError` when the batch holds more than one game or `action` lies
    /// beyond 64 bits, `TypeError` when `action` is a bool or not an integer (as `step`);
    /// Ctrl-C against an engine as `step`.
    fn step_one<'py>(&mut self, py: Python<'py>, action: Int) -> PyResult<OneStep<'py>> {
        let action = action.get::<i64>("action", i128::from(i64::MIN), i128::from(i64::MAX), "")?;
        if !self.started {
            return Err(PyRuntimeError::new_err(
                "VectorGames.step_one() called before reset(): call reset() first",
            ));
        }
        if self.batch.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "step_one() steps a batch of one game, this one holds {}",
                self.batch.len()
            )));
        }
        let (obs, a) = (self.batch.observation_size(), self.batch.actions());
        // As in `run`: the observation, written in full, is made without clearing it.
        // SAFETY: `PyArray::new` makes an uninitialised array of a plain number type, reached
        // only through the `MaybeUninit` view below until the batch has written all of it.
        let obs_arr = unsafe { new_array::<i64, _>(py, [obs], false)? };
        // SAFETY: an array of zeros.
        let mask_arr = unsafe { new_array::<i8, _>(py, [a], true)? };
        let mut reward = MaybeUninit::<f64>::uninit();
        let (mut terminated, mut truncated) = (false, false);
        // SAFETY: the two arrays were made just above, contiguous, and nothing else holds
        // them while the batch writes them.
        let mut out = unsafe {
            Out {
                obs: uninit_slice(&obs_arr),
                mask: mask_arr.as_slice_mut()?,
                reward: core::slice::from_mut(&mut reward),
                terminated: core::slice::from_mut(&mut terminated),
                truncated: core::slice::from_mut(&mut truncated),
            }
        };
        self.exec(py, |batch| batch.step(&[action], &mut out))?;
        // SAFETY: a step that was not stopped (`exec` returned) writes every game's reward.
        let reward = unsafe { reward.assume_init() };
        Ok((obs_arr, reward, terminated, truncated, mask_arr))
    }

    /// A copy of game `i` (a `Kalah`, `Bao`, `Oware`, … object). Raises `IndexError` naming
    /// `i` for an index outside `0..num_envs` (a negative one included), `TypeError` for a
    /// bool or a non-integer, `MemoryError` when the copy's memory cannot be had.
    fn game(&self, py: Python<'_>, i: Int) -> PyResult<Py<PyAny>> {
        let i = self.index(&i)?;
        let game = self.batch.game(i).map_err(|_| {
            PyMemoryError::new_err(format!("no memory left for a copy of game {i}"))
        })?;
        wrap(py, game)
    }

    /// The side the agent of game `i` plays now (the side to move in self-play). Raises
    /// `IndexError` naming `i` for an index outside `0..num_envs` (a negative one
    /// included), `TypeError` for a bool or a non-integer.
    fn agent_side(&self, i: Int) -> PyResult<crate::side::Side> {
        let i = self.index(&i)?;
        Ok(self.batch.agent_side(i).into())
    }
}
