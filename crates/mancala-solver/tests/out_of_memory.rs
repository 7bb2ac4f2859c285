//! Tables beyond the machine's memory give a typed error, never an abort, and the solver and
//! the engine recover with a smaller table. The requests are 32 TiB (2^40 buckets of the
//! solver's table, 2^39 of the engine's), which the kernel refuses on any machine with less
//! memory and swap than that.

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::engine::{Engine, EngineError, Limits};
use mancala_solver::{OutOfMemory, SolveError, SolveOptions, Solver};

const HUGE: usize = 1 << 45;

#[test]
#[cfg_attr(miri, ignore = "allocation failure paths of a 32 TiB request")]
fn solver_table_beyond_memory_is_an_error_then_a_smaller_one_solves() {
    // The table never gets more buckets than there are keys: Kalah(6,4) has C(60, 12) ≈ 2^40.3
    // of them, enough for the whole 32 TiB.
    let big = KalahPosition::start(KalahRules::standard());
    let mut solver = Solver::new().threads(1).tt_bytes(HUGE);
    for _ in 0..2 {
        // A failed allocation (not a refusal) of the whole table, with the figure of what
        // was left where it can be read.
        assert!(matches!(
            solver.solve(&big, SolveOptions::new()).unwrap_err(),
            SolveError::OutOfMemory(OutOfMemory {
                bytes: HUGE,
                refused: false,
                ..
            })
        ));
    }
    // Published (Irving et al. 2000; Rawlings): Kalah(6,1) is a first-player win by 2.
    let small = KalahPosition::start("kalah(6,1)".parse::<KalahRules>().unwrap());
    let mut solver = solver.tt_bytes(1 << 20);
    assert_eq!(solver.solve(&small, SolveOptions::new()).unwrap().value, 2);
}

#[test]
#[cfg_attr(miri, ignore = "allocation failure paths of a 32 TiB request")]
fn engine_table_beyond_memory_is_an_error_every_time() {
    let start = KalahPosition::start(KalahRules::standard());
    let mut engine = Engine::<KalahPosition>::with_tt_bytes(HUGE);
    for _ in 0..2 {
        assert!(matches!(
            engine.search(&start, &Limits::depth(2)).unwrap_err(),
            // 2^39 buckets of 64 bytes.
            EngineError::OutOfMemory(OutOfMemory {
                bytes: HUGE,
                refused: false,
                ..
            })
        ));
    }
    let mut engine = Engine::<KalahPosition>::with_tt_bytes(1 << 20);
    let r = engine.search(&start, &Limits::depth(2)).unwrap();
    assert!(start.play(r.best_move).is_ok());
}
