//! Solver benches: small configurations (nodes/s, time), 1 vs 2 threads, lock-free vs exact
//! table, database build rate. The big solves (Kalah(6,4), Kalah(6,5)) run from the example
//! `mancala-solver/examples/solve_start.rs`; see BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver, TableKind};

fn solve(rules: &str, threads: usize, table: TableKind, expected: i32) {
    let rules: KalahRules = rules.parse().unwrap();
    let mut solver = Solver::new()
        .threads(threads)
        .table(table)
        .tt_bytes(16 << 20);
    let s = solver
        .solve(&KalahPosition::start(rules), SolveOptions::new())
        .unwrap();
    // A fast wrong answer must not pass as a speed-up.
    assert_eq!(s.value, expected);
    black_box(s);
}

fn small_solves(c: &mut Criterion) {
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    // Published values (Irving et al. 2000; Rawlings 2015).
    for (rules, value) in [
        ("kalah(6,2)+empty_capture", 10),
        ("kalah(6,2)", 6),
        ("kalah(6,3)+empty_capture", 2),
    ] {
        for threads in [1, 2] {
            g.bench_function(format!("{rules} lock-free {threads}t"), |b| {
                b.iter(|| solve(rules, threads, TableKind::LockFree, value));
            });
        }
        g.bench_function(format!("{rules} dashmap 1t"), |b| {
            b.iter(|| solve(rules, 1, TableKind::Exact, value));
        });
    }
    g.finish();
}

fn database_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("egdb");
    g.sample_size(10);
    let rules: KalahRules = "kalah(6,4)+empty_capture".parse().unwrap();
    for k in [10u32, 12] {
        let n = Egdb::build(&rules, k, BuildOptions::new()).unwrap().len() as u64;
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("build m=6 K={k}"), |b| {
            b.iter(|| {
                let db = Egdb::build(&rules, k, BuildOptions::new()).unwrap();
                assert_eq!(db.len() as u64, n);
                black_box(db);
            });
        });
    }
    g.finish();
}

criterion_group!(benches, small_solves, database_build);
criterion_main!(benches);
