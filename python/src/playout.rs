//! `random_playouts`: many whole random games played in Rust in one call, so that Python
//! pays its call overhead once, not once a move.

use numpy::PyArray1;
use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use mancala_core::{with_game, AnyGame, Game, GameRecord, Rules};

use crate::errors::{from_error, Kind};
use crate::int::Int;
use crate::interrupt::pending_signal;

/// Games played between two looks for a pending signal (Ctrl-C).
const CHUNK: u64 = 256;

/// One random game from `start`, each move drawn uniformly from the legal moves, its
/// history rules applied by the record (played in `game`, whose memory is reused from game
/// to game): the final score, South minus North (seeds for Kalah and Oware, ±1 for Bao la
/// Kete), and the plies played.
fn playout<G: Game>(
    start: &GameRecord<G>,
    game: &mut GameRecord<G>,
    rng: &mut StdRng,
) -> (i32, u64) {
    game.copy_from(start);
    let mut plies = 0u64;
    loop {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            return (game.position().outcome().map_or(0, |o| o.score), plies);
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        if game.play(mv).is_err() {
            // Never for a legal move; ends the game rather than looping.
            return (game.position().outcome().map_or(0, |o| o.score), plies);
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
/// Ctrl-C stops it (`KeyboardInterrupt`). Raises `RulesError`, `NotationError`,
/// `MemoryError` when `n` scores (8 bytes each) cannot be had.
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
    let scores = with_game!(start, g => run(py, n, seed, g))?;
    Ok(PyArray1::from_vec(py, scores))
}

/// The scores of `n` playouts from `start`, without the GIL, looking for a signal every
/// [`CHUNK`] games.
fn run<G: Game>(py: Python<'_>, n: u64, seed: u64, start: GameRecord<G>) -> PyResult<Vec<i64>> {
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
            scores.push(i64::from(playout(&start, &mut game, &mut rng).0));
        }
        Ok(scores)
    })
}
