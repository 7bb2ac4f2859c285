//! Small measurements behind the costed plan for Kalah(6,6) (docs/kalah-6-6.md).
//!
//! ```sh
//! # Distinct leaves of the coordinator's tree, by depth:
//! cargo run --release -p mancala-mpi --example plan66 -- frontier "kalah(6,6)" 6
//! # Nodes and seconds of single-machine solves of random positions with S seeds left in
//! # the houses (random play from the start; SEED picks the games):
//! cargo run --release -p mancala-mpi --example plan66 -- sample "kalah(6,6)" 26 10 SEED egdb/
//! # The same positions, each solved exactly and then asked the two null windows at its
//! # value that a leaf of the distributed solve is asked (`Solver::solve_within`: at least
//! # v, at most v), each from an empty table; NODES caps each search (0: no cap):
//! cargo run --release -p mancala-mpi --example plan66 -- window "kalah(6,6)" 26 10 SEED egdb/ NODES
//! ```

use std::sync::Arc;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::{Egdb, SolveOptions, Solver};

// The coordinator's tree of `mancala-mpi solve`, compiled into this program from the
// command's own source (the command's modules are private); only its frontier is used here.
#[allow(dead_code)]
#[path = "../src/tree.rs"]
mod tree;
use tree::Tree;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: plan66 frontier RULES DEPTH | plan66 sample RULES S COUNT SEED [EGDB] | plan66 window RULES S COUNT SEED EGDB NODES";
    let rules: KalahRules = args.get(1).expect(usage).parse().expect("rules");
    match args.first().map(String::as_str) {
        Some("frontier") => {
            let depth: u32 = args.get(2).expect(usage).parse().expect("depth");
            let start = KalahPosition::start(rules);
            println!(
                "depth  tree nodes  distinct leaves  seeds in the leaves' houses (min, mean, max)"
            );
            for d in 1..=depth {
                let t = Tree::new(start, d);
                let s: Vec<u32> = t.leaves().iter().map(|l| l.pos.seeds_in_houses()).collect();
                let mean = f64::from(s.iter().sum::<u32>()) / s.len().max(1) as f64;
                println!(
                    "{d:>5} {:>11} {:>16}  {} {mean:.1} {}",
                    t.nodes(),
                    t.leaves().len(),
                    s.iter().min().unwrap_or(&0),
                    s.iter().max().unwrap_or(&0)
                );
            }
        }
        Some(mode @ ("sample" | "window")) => {
            let window = mode == "window";
            let s: u32 = args.get(2).expect(usage).parse().expect("S");
            let count: usize = args.get(3).expect(usage).parse().expect("COUNT");
            let mut rng: u64 = args.get(4).expect(usage).parse().expect("SEED");
            let mut solver = Solver::new().threads(1).tt_bytes(256 << 20);
            if let Some(dir) = args.get(5) {
                let found = Egdb::find_in(dir.as_ref(), &rules).expect("database");
                eprintln!("database {}", found.database.description());
                solver = solver.database(Arc::new(found.database));
            }
            if window {
                let cap: u64 = args.get(6).expect(usage).parse().expect("NODES");
                solver = solver.node_limit((cap > 0).then_some(cap));
                println!(
                    "position\tseeds_in_houses\tvalue\tnodes\tseconds\tat_least_nodes\tat_least_seconds\tat_most_nodes\tat_most_seconds"
                );
            } else {
                println!("position\tseeds_in_houses\tvalue\tnodes\tseconds");
            }
            let mut done = 0;
            while done < count {
                let p = random_position(rules, s, &mut rng);
                if p.is_over() {
                    continue;
                }
                done += 1;
                solver.clear_table();
                let sol = solver.solve(&p, SolveOptions::new()).expect("solve");
                let value = if sol.exact {
                    sol.value.to_string()
                } else {
                    // Stopped by the cap: the nodes are a lower bound of the solve's.
                    format!("{}..{}", sol.lower, sol.upper)
                };
                print!(
                    "{p}\t{}\t{value}\t{}\t{:.3}",
                    p.seeds_in_houses(),
                    sol.nodes,
                    sol.seconds
                );
                if window {
                    // The two questions whose answers make the value exact, as MTD(f)'s
                    // last two probes: at least v (window (v-1, v)) and at most v (window
                    // (v, v+1)); a leaf of the distributed solve is asked one such null
                    // window at a time. Each from an empty table, as a first ask.
                    let v = sol.value;
                    for (a, b) in [(v - 1, v), (v, v + 1)] {
                        if !sol.exact {
                            print!("\t-\t-");
                            continue;
                        }
                        solver.clear_table();
                        let w = solver
                            .solve_within(&p, a, b, SolveOptions::new())
                            .expect("solve_within");
                        let ok = w.settled && (w.lower >= b || w.upper <= a);
                        print!(
                            "\t{}{}\t{:.3}",
                            w.nodes,
                            if ok { "" } else { "+" },
                            w.seconds
                        );
                    }
                }
                println!();
            }
        }
        _ => eprintln!("{usage}"),
    }
}

/// Random play from the start of `rules` until at most `s` seeds are left in the houses
/// (or the game ends), the moves drawn by the generator `rng`.
fn random_position(rules: KalahRules, s: u32, rng: &mut u64) -> KalahPosition {
    let mut p = KalahPosition::start(rules);
    while !p.is_over() && p.seeds_in_houses() > s {
        let moves = p.legal_moves();
        *rng = rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[((*rng >> 33) % moves.len() as u64) as usize];
        p = p.play(mv).expect("legal");
    }
    p
}
