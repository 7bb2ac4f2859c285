//! # mancala-reference
//!
//! Independent reference implementations, for tests, benches and fuzz targets only (not
//! published): plain, slow code written straight from the rules pages, sharing nothing with
//! the packed implementations of `mancala-core` and `mancala-solver` but the public types
//! they are compared through.
//!
//! * [`kalah`]: Kalah on a plain array, one loop iteration per seed sown
//!   (`docs/rules/kalah.md`), compared with the packed board on perft counts and random
//!   games;
//! * [`bao`]: the course of one Bao la Kete move seed by seed (`docs/rules/bao-la-kete.md`),
//!   compared with the packed implementation move by move;
//! * [`togyz`]: Togyz Kumalak on plain arrays, one loop iteration per kumalak sown
//!   (`docs/rules/togyz-kumalak.md`), compared with the packed position on perft counts and
//!   random games;
//! * [`minimax`]: an exhaustive minimax on the core's Kalah positions, compared with the
//!   exact solver's values.
#![forbid(unsafe_code)]

pub mod bao;
pub mod kalah;
pub mod minimax;
pub mod togyz;
