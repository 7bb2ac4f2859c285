//! # mancala-py: the Python package `mancala`
//!
//! The extension module `mancala._mancala`, built with [PyO3](https://pyo3.rs) and
//! [maturin](https://www.maturin.rs) (`pip install ./python`, or `maturin develop` in
//! `python/`), over the public APIs of `mancala-core` and `mancala-solver`. The Python
//! package `mancala` (the folder `python/mancala/`) re-exports it, defines the exception
//! classes (`mancala/errors.py`) and the result dataclasses (`mancala/results.py`) this module
//! returns, and adds the environments (`mancala/envs/`). The Python API is documented in
//! `docs/python.md`, and typed in `mancala/_mancala.pyi`.
//!
//! | module | Python names |
//! |---|---|
//! | [`game`] | `Game`: the base class of every game's class (`play`, `undo`, `legal_moves`, pickling, …), `game_class`, `GAME_KINDS` |
//! | [`kalah`] | `Kalah`: a Kalah(m, n) game (its `board`, stores, options, pie-rule swap) |
//! | [`bao`] | `Bao`: a Bao la Kete game (its `board`, reserves, kuus) |
//! | [`oware`] | `Oware`: an Oware or Awari game (its `board`, stores, final counts) |
//! | [`togyz`] | `Togyz`: a Togyz Kumalak or Bestemshe game (its `board`, kazans, tuzdyks) |
//! | [`side`] | `Side`: `SOUTH` or `NORTH` |
//! | [`database`] | `Database`: the database of exact values of any game (open, build, save, convert, values) |
//! | [`solver`] | `Solver` (the exact solver), `Egdb` (Kalah's kind of `Database`), `build_egdb` |
//! | [`engine`] | `Engine`: the anytime playing engine at a strength level |
//! | [`grade`] | `grade`, `generate_positions`: a player scored against exact move values |
//! | [`vector`] | `VectorGames`: N games stepped together in Rust, NumPy arrays in and out |
//! | [`playout`] | `random_playouts`: whole random games in Rust, many at a time |
//! | [`errors`] | how library errors become the exceptions of `mancala.errors` |
//! | [`int`] | whole-number arguments, their ranges checked with the argument's name |
//! | [`path`] | path arguments: `str`, `bytes` or `os.PathLike`, as Python's `open()` takes them |
//! | [`interrupt`] | the GIL released during long calls, and Ctrl-C (`KeyboardInterrupt`) stopping them |
//!
//! Nothing crosses into Python as a panic: every refusal of the library is a typed error
//! turned into an exception with the library's message, and every argument is checked
//! before it reaches the library (a house number that does not fit a byte, a negative time).

use pyo3::prelude::*;

pub mod awari;
pub mod bao;
pub mod database;
pub mod engine;
pub mod errors;
pub mod game;
pub mod grade;
pub mod int;
pub mod interrupt;
pub mod kalah;
pub mod oware;
pub mod path;
pub mod playout;
pub mod side;
pub mod solver;
pub mod togyz;
pub mod vector;

/// The module `mancala._mancala`: every class and function of the list above.
#[pymodule]
fn _mancala(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<side::Side>()?;
    m.add_class::<game::Game>()?;
    m.add_class::<kalah::Kalah>()?;
    m.add_class::<bao::Bao>()?;
    m.add_class::<oware::Oware>()?;
    m.add_class::<togyz::Togyz>()?;
    m.add_class::<solver::Solver>()?;
    m.add_class::<database::Database>()?;
    m.add_class::<solver::Egdb>()?;
    m.add_class::<awari::AwariDb>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<vector::VectorGames>()?;
    m.add_function(wrap_pyfunction!(solver::build_egdb, m)?)?;
    m.add_function(wrap_pyfunction!(grade::grade, m)?)?;
    m.add_function(wrap_pyfunction!(grade::generate_positions, m)?)?;
    m.add_function(wrap_pyfunction!(playout::random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(names_bao, m)?)?;
    m.add_function(wrap_pyfunction!(game_class, m)?)?;
    m.add_function(wrap_pyfunction!(bao::bao_moves, m)?)?;
    m.add(
        "GAME_KINDS",
        pyo3::types::PyTuple::new(m.py(), game_kinds())?,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// `GAME_KINDS`: every game of the library (`mancala_core::GameKind::ALL`), in its order, as
/// `(name, class name, default rule set)`: the game's name as `Game.kind` gives it, the name
/// of its class in `mancala`, and the rule set its class plays by default.
fn game_kinds() -> Vec<(&'static str, &'static str, String)> {
    mancala_core::GameKind::ALL
        .into_iter()
        .map(|kind| {
            (
                kind.name(),
                game::class_name(kind),
                mancala_core::Rules::default_of(kind).to_string(),
            )
        })
        .collect()
}

/// Deprecated since 0.3.0, goes in 0.4.0 (a `DeprecationWarning`): whether the rule-set text
/// `rules` names Bao la Kete (it starts with `bao`, in any case, after leading white space);
/// `game_class(rules) == "Bao"` says it, and `game_class` names the class of every game.
///
/// # Errors
/// Only when the warning is turned into an error (`-W error`).
#[pyfunction]
fn names_bao(py: Python<'_>, rules: &str) -> PyResult<bool> {
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        c"mancala.names_bao is deprecated since 0.3.0 and goes in 0.4.0: use mancala.game_class(rules) == \"Bao\"",
        1,
    )?;
    Ok(mancala_core::GameKind::of_rules(rules) == mancala_core::GameKind::Bao)
}

/// The name of the class that plays the rule-set text `rules` (`"Kalah"`, `"Bao"`, `"Oware"`), read
/// from its head as the library decides it (`mancala_core::GameKind::of_rules`); whether the
/// rest of the text is valid is the class's to say.
#[pyfunction]
fn game_class(rules: &str) -> &'static str {
    game::class_name(mancala_core::GameKind::of_rules(rules))
}
