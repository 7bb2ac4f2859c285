//! Solves the start position of a Kalah rule set and prints value, nodes and times.
//!
//! ```text
//! cargo run --release -p mancala-solver --example solve_start -- \
//!     "kalah(6,4)+empty_capture" [--threads N] [--tt-mb M] [--egdb FILE | --build-egdb K]
//! ```
//!
//! With `--build-egdb K` the database is built in memory first and its build time is printed
//! apart from the solve time.

use std::sync::Arc;
use std::time::Instant;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules: KalahRules = args
        .first()
        .map_or("kalah(6,4)+empty_capture", String::as_str)
        .parse()
        .expect("rule set");
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let threads: usize = opt("--threads").map_or(2, |s| s.parse().expect("threads"));
    let tt_mb: usize = opt("--tt-mb").map_or(256, |s| s.parse().expect("tt-mb"));
    let mut solver = Solver::new().threads(threads).tt_bytes(tt_mb << 20);
    if let Some(path) = opt("--egdb") {
        let t = Instant::now();
        let db = Egdb::open_for(path, &rules).expect("database");
        println!(
            "egdb {} loaded+checked in {:.3} s",
            db.description(),
            t.elapsed().as_secs_f64()
        );
        solver = solver.database(Arc::new(db));
    } else if let Some(k) = opt("--build-egdb") {
        let t = Instant::now();
        let db = Egdb::build(&rules, k.parse().expect("K"), BuildOptions::new()).expect("build");
        println!(
            "egdb {} built in {:.3} s ({} entries)",
            db.description(),
            t.elapsed().as_secs_f64(),
            db.len()
        );
        solver = solver.database(Arc::new(db));
    }
    let s = solver
        .solve(&KalahPosition::start(rules), SolveOptions::new())
        .expect("solve");
    let pv: Vec<String> = s.pv.iter().map(ToString::to_string).collect();
    println!(
        "{rules}: value {:+} exact {} best {:?} nodes {} time {:.3} s ({:.2} Mnodes/s)\npv {}",
        s.value,
        s.exact,
        s.best_moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        s.nodes,
        s.seconds,
        s.nodes as f64 / s.seconds / 1e6,
        pv.join(" ")
    );
}
