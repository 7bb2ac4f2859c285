//! Small measurements behind the costed plan for Kalah(6,6) (docs/kalah-6-6.md).
//!
//! ```sh
//! # Distinct leaves of the coordinator's tree, by depth:
//! cargo run --release -p mancala-mpi --example plan66 -- frontier "kalah(6,6)" 6
//! # Nodes and seconds of single-machine solves of random positions with S seeds left in
//! # the houses (random play from the start; SEED picks the games):
//! cargo run --release -p mancala-mpi --example plan66 -- sample "kalah(6,6)" 26 10 SEED egdb/
//! ```

use std::sync::Arc;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_mpi::tree::Tree;
use mancala_solver::{Egdb, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: plan66 frontier RULES DEPTH | plan66 sample RULES S COUNT SEED [EGDB]";
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
        Some("sample") => {
            let s: u32 = args.get(2).expect(usage).parse().expect("S");
            let count: usize = args.get(3).expect(usage).parse().expect("COUNT");
            let mut rng: u64 = args.get(4).expect(usage).parse().expect("SEED");
            let mut solver = Solver::new().threads(1).tt_bytes(256 << 20);
            if let Some(dir) = args.get(5) {
                let found = Egdb::find_in(dir.as_ref(), &rules).expect("database");
                eprintln!("database {}", found.database.description());
                solver = solver.database(Arc::new(found.database));
            }
            println!("position\tseeds_in_houses\tvalue\tnodes\tseconds");
            let mut done = 0;
            while done < count {
                let mut p = KalahPosition::start(rules);
                while !p.is_over() && p.seeds_in_houses() > s {
                    let moves = p.legal_moves();
                    rng = rng
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let mv = moves[((rng >> 33) % moves.len() as u64) as usize];
                    p = p.play(mv).expect("legal");
                }
                if p.is_over() {
                    continue;
                }
                solver.clear_table();
                let sol = solver.solve(&p).expect("solve");
                println!(
                    "{p}\t{}\t{}\t{}\t{:.3}",
                    p.seeds_in_houses(),
                    sol.value,
                    sol.nodes,
                    sol.seconds
                );
                done += 1;
            }
        }
        _ => eprintln!("{usage}"),
    }
}
