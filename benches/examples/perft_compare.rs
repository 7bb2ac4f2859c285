//! Runs one perft of the start of Kalah(6,4) with the packed board or the plain array
//! reference, for instruction counts under `valgrind --tool=callgrind` (repeatable on a busy
//! machine, unlike wall time):
//!
//! `cargo build --release -p mancala-benches --example perft_compare`
//! `valgrind --tool=callgrind target/release/examples/perft_compare packed 9`
//! `valgrind --tool=callgrind target/release/examples/perft_compare reference 9`

use mancala_core::kalah::{perft, KalahPosition, KalahRules};
use mancala_reference::kalah::{RefPos, RefRules};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "packed".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(9);
    let nodes = match which.as_str() {
        "packed" => perft(&KalahPosition::start(KalahRules::standard()), depth),
        "reference" => RefPos::start(RefRules {
            m: 6,
            n: 4,
            ..Default::default()
        })
        .perft(depth),
        other => {
            eprintln!("perft_compare: expected `packed` or `reference`, got `{other}`");
            std::process::exit(2);
        }
    };
    println!("{which} perft({depth}) = {nodes}");
}
