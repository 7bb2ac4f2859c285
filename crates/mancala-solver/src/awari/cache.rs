//! The Awari databases in a cache folder ([`Cache`], the generic cache of every game's
//! database: [`Cache::read_or_build`] with [`AwariDb`]): built the first time they are asked
//! for, saved, and read back completely checked every later time; a file that is damaged,
//! truncated, of another format version, game or N is rebuilt, never trusted; a larger N of
//! the cache serves instead of a smaller one being built beside it.
//!
//! # The default N ([`DEFAULT_MAX_SEEDS`])
//!
//! The build of levels 0..=N, measured with `cargo run --release -p mancala-solver --example
//! awari_build -- N` on the project's 2-core machine while other builds ran (load average
//! 11): N = 16 (29,775,109 boards) 13.8 s of wall time, 7.9 s of CPU; N = 18 (83,789,069
//! boards) 55.5 s of wall time, 25.0 s of CPU, 118 MB resident; N = 20 (216,135,140 boards)
//! 82.2 s of CPU, 164.7 s of wall time at load 5–8 (`docs/awari.md`). On two free cores N = 18
//! takes about 13 s and N = 20 about 41 s; on a loaded machine N = 20 passes two minutes. The
//! default is N = 18: a first use stays under a minute even on a busy 2-core machine, and the
//! file takes 84 MB.

/// The N of the Awari database a cache builds when none is asked for (module docs).
pub const DEFAULT_MAX_SEEDS: u32 = 18;
