//! Runs one perft from the start of an Oware rule set with the packed position or the plain
//! array reference, for instruction counts under `valgrind --tool=callgrind` (repeatable on a
//! busy machine, unlike wall time):
//!
//! `cargo build --release -p mancala-benches --example oware_perft_compare`
//! `valgrind --tool=callgrind target/release/examples/oware_perft_compare packed 8 oware`
//! `valgrind --tool=callgrind target/release/examples/oware_perft_compare reference 8 oware`

#[path = "../../crates/mancala-core/tests/oware_reference/mod.rs"]
mod oware_reference;

use mancala_core::oware::{perft, OwarePosition, OwareRules};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "packed".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(8);
    let rules: OwareRules = match args.next().unwrap_or_else(|| "oware".into()).parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("oware_perft_compare: {e}");
            std::process::exit(2);
        }
    };
    let nodes = match which.as_str() {
        "packed" => perft(&OwarePosition::start(rules), depth),
        "reference" => {
            let r = oware_reference::RefRules::of(rules);
            oware_reference::RefPos::start(&r).perft(&r, depth)
        }
        other => {
            eprintln!("oware_perft_compare: expected `packed` or `reference`, got `{other}`");
            std::process::exit(2);
        }
    };
    println!("{which} perft({depth}) of {rules} = {nodes}");
}
