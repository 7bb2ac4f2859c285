//! `random_playouts`: many whole random games played in Rust in one call, so that Python
//! pays its call overhead once, not once a move.

use numpy::PyArray1;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use mancala_core::{with_game, AnyGame, Game, GameRecord, Rules};

use crate::errors::{from_error, Kind};
use crate::int::Int;
use crate::interrupt::pending_signal;

/// Games played between two looks for a pending signal (Ctrl-C).
const CHUNK: u64 = 256;

/// Plies of one game between two looks for a pending signal (Ctrl-C), for a game that goes
/// on and on.
const PLY_CHUNK: u64 = 1 << 16;

/// The most plies a random game may last: far above the longest game under a move limit
/// (65,535 plies, the largest `move_limit`), so only a game that can go on forever reaches it
/// (an Oware rule set with neither a repetition rule nor a move limit, such as
/// `oware+repetition=off`, where a lone seed a side circles without end). Its history then
/// takes some tens of MB, not the whole memory.
const MAX_PLIES: u64 = 1_000_000;

/// Why a playout stopped before its game ended.
enum Stop {
    /// A signal handler raised (Ctrl-C: `KeyboardInterrupt`).
    Signal(PyErr),
    /// The game was still on after [`MAX_PLIES`] plies.
    Endless,
}

/// One random game from `start`, each move drawn uniformly from the legal moves, its
/// history rules applied by the record (played in `game`, whose memory is reused from game
/// to game): the final score, South minus North (seeds for Kalah and Oware, ±1 for Bao la
/// Kete), and the plies played. Looks for a pending signal every [`PLY_CHUNK`] plies and
/// gives up after [`MAX_PLIES`].
fn playout<G: Game>(
    start: &GameRecord<G>,
    game: &mut GameRecord<G>,
    rng: &mut StdRng,
) -> Result<(i32, u64), Stop> {
    game.copy_from(start);
    let mut plies = 0u64;
    loop {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return Ok((game.position().outcome().map_or(0, |o| o.score), plies));
        }
        if plies == MAX_PLIES {
            return Err(Stop::Endless);
        }
        if plies % PLY_CHUNK == PLY_CHUNK - 1 {
            if let Some(e) = pending_signal() {
                return Err(Stop::Signal(e));
            }
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        if game.play(mv).is_err() {
            // Never for a legal move; ends the game rather than looping.
            return Ok((game.position().outcome().map_or(0, |o| o.score), plies));
        }
        plies += 1;
    }
}

/// Plays `n` random games of `rules` (a rule-set text of any game, `"standard"` by default)
/// from the start, or from `position` (notation), each move drawn uniformly among the legal
/// moves with a generator seeded by `seed` (the same seed gives the same games), the rules
/// that depend on the history (Oware's repetition rule and move limit) applied, and returns
/// the final scores as a NumPy array of `int64`, shape `(n,)`: South minus North in seeds for
/// Kalah and Oware, +1 (South won) or −1 for Bao la Kete. The GIL is released meanwhile;
/// Ctrl-C stops it (`KeyboardInterrupt`), within a game too. Raises `RulesError`,
/// `NotationError`, `MemoryError` when `n` scores (8 bytes each) cannot be had, and
/// `ValueError` naming the rule set when a game has not ended after 1,000,000 plies
/// (rules under which play can go on forever, such as `oware+repetition=off`).
#[pyfunction]
#[pyo3(signature = (n, seed = Int::of(0), rules = "standard", position = None),
       text_signature = "(n, seed=0, rules='standard', position=None)")]
pub fn random_playouts<'py>(
    py: Python<'py>,
    n: Int,
    seed: Int,
    rules: &str,
    position: Option<&str>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let n = n.u64("n")?;
    let seed = seed.u64("seed")?;
    let rules: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
    let start = match position {
        None => AnyGame::new(rules),
        Some(t) => AnyGame::parse(rules, t).map_err(|e| from_error(py, Kind::Notation, e))?,
    };
    let scores = with_game!(start, g => run(py, n, seed, &rules, g))?;
    Ok(PyArray1::from_vec(py, scores))
}

/// The scores of `n` playouts from `start` under `rules`, without the GIL, looking for a
/// signal every [`CHUNK`] games (and within a long game).
fn run<G: Game>(
    py: Python<'_>,
    n: u64,
    seed: u64,
    rules: &Rules,
    start: GameRecord<G>,
) -> PyResult<Vec<i64>> {
    py.detach(|| {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = start.clone();
        let mut scores: Vec<i64> = Vec::new();
        let wanted = usize::try_from(n)
            .map_err(|_| PyMemoryError::new_err(format!("{n} scores do not fit in memory")))?;
        scores
            .try_reserve_exact(wanted)
            .map_err(|_| PyMemoryError::new_err(format!("{n} scores do not fit in memory")))?;
        for i in 0..n {
            if i % CHUNK == CHUNK - 1 {
                if let Some(e) = pending_signal() {
                    return Err(e);
                }
            }
            match playout(&start, &mut game, &mut rng) {
                Ok((score, _)) => scores.push(i64::from(score)),
                Err(Stop::Signal(e)) => return Err(e),
                Err(Stop::Endless) => {
                    return Err(PyValueError::new_err(format!(
                        "random game {} of {n} under {rules} has not ended after {MAX_PLIES} \
                         plies: under these rules play can go on forever; give the rule set a \
                         move limit (`+move_limit=N`) or a repetition rule",
                        i + 1
                    )))
                }
            }
        }
        Ok(scores)
    })
}
