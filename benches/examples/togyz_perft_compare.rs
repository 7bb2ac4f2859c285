//! Runs one perft from the start of a Togyz Kumalak rule set with the packed position or the
//! plain array reference, to time the two as whole processes side by side (CPU time) or to
//! count their instructions under `valgrind --tool=callgrind`:
//!
//! `cargo build --release -p mancala-benches --example togyz_perft_compare`
//! `target/release/examples/togyz_perft_compare packed 6 togyz-kumalak`
//! `target/release/examples/togyz_perft_compare reference 6 togyz-kumalak`

use mancala_core::togyz::{perft, TogyzPosition, TogyzRules};
use mancala_reference::togyz::Board;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "packed".into());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let rules: TogyzRules = match args
        .next()
        .unwrap_or_else(|| "togyz-kumalak".into())
        .parse()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("togyz_perft_compare: {e}");
            std::process::exit(2);
        }
    };
    let nodes = match which.as_str() {
        "packed" => perft(&TogyzPosition::start(rules), depth),
        "reference" => Board::start(rules).perft(depth),
        other => {
            eprintln!("togyz_perft_compare: expected `packed` or `reference`, got `{other}`");
            std::process::exit(2);
        }
    };
    println!("{which} perft({depth}) of {rules} = {nodes}");
}
