//! Writes the generated part of the Oware targets' corpora (`fuzz/README.md`, "Generated
//! corpora"): for each named rule set (`oware`, `awari`, `oware-openspiel`) `--games` seeded
//! random games — a quarter under the rule set as named, the others on a board of 1..=8
//! houses with options of their own, one in five from a set-up position — each written as an
//! input of `oware_moves` (`<out>/oware_moves/game-<rule set>-<n>`, checked to play back the
//! same game through the target's own reading) and of `oware_notation`
//! (`<out>/oware_notation/game-<rule set>-<n>`: the rules, a position of the game, the moves
//! from there, one more move; a quarter with an illegal move at the end of the record).
//!
//! ```sh
//! cargo run -p mancala-fuzz-bodies --example oware_corpus -- fuzz/corpus 80 1
//! ```
//!
//! Arguments: the corpus folder, the games a rule set (default 80), the seed (default 1).
//! The same arguments write the same files.

use mancala_core::oware::{OwareMove, OwarePosition, OwareRuleSet};
use mancala_fuzz_bodies::corpus::{
    draw_rules, oware_moves_input, oware_notation_input, random_game, reads_back,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = std::path::PathBuf::from(
        args.first()
            .ok_or("usage: oware_corpus DIR [GAMES] [SEED]")?,
    );
    let games: u64 = args.get(1).map_or(Ok(80), |a| a.parse())?;
    let seed: u64 = args.get(2).map_or(Ok(1), |a| a.parse())?;
    let moves_dir = out.join("oware_moves");
    let notation_dir = out.join("oware_notation");
    std::fs::create_dir_all(&moves_dir)?;
    std::fs::create_dir_all(&notation_dir)?;
    let (mut moves_bytes, mut notation_bytes) = (0, 0);
    for (h, head) in OwareRuleSet::ALL.into_iter().enumerate() {
        let named = head.name();
        for i in 0..games {
            let mut rng =
                StdRng::seed_from_u64(seed.wrapping_mul(1_000_003) ^ ((h as u64) << 32 | i));
            let mut src = |n: u32| rng.gen_range(0..n.max(1));
            let drawn = draw_rules(head, i % 4 == 0, &mut src);
            // One game in five from a position set up by a few random moves (each count at
            // most 40 seeds, as the target's set-up positions are).
            let start = (i % 5 == 1)
                .then(|| {
                    let (_, g) = random_game(OwarePosition::start(drawn.rules), 12, &mut src);
                    let p = *g.position();
                    (!p.is_over() && p.counts().iter().all(|&c| c <= 40)).then_some(p)
                })
                .flatten();
            let from = start.unwrap_or(OwarePosition::start(drawn.rules));
            let (tries, game) = random_game(from, 380, &mut src);
            let input = oware_moves_input(&drawn, start, &tries);
            if !reads_back(&input, &drawn, from, &game) {
                return Err(format!(
                    "{named} game {i}: the input does not play back its game (the target's draws changed: update mancala_fuzz_bodies::corpus)"
                )
                .into());
            }
            let name = format!("game-{named}-{i:03}");
            std::fs::write(moves_dir.join(&name), &input)?;
            moves_bytes += input.len();

            // The notation target: a position of the game and the moves from there.
            let played = game.moves();
            let cut = src(played.len() as u32 + 1) as usize;
            let position = game.positions()[cut];
            let mut record: Vec<OwareMove> = played[cut..].to_vec();
            if src(4) == 0 {
                record.push(OwareMove(src(10) as u8));
            }
            let last = match game.position().legal_moves().first() {
                Some(m) if src(2) == 0 => m.to_string(),
                _ => ["0", "7", "x", "", "255", "3,"][src(6) as usize].to_string(),
            };
            let text = oware_notation_input(drawn.rules, &position, &record, src(2) == 0, &last);
            std::fs::write(notation_dir.join(&name), &text)?;
            notation_bytes += text.len();
        }
    }
    println!(
        "{} inputs of oware_moves ({moves_bytes} bytes) and {} of oware_notation ({notation_bytes} bytes) in {}",
        3 * games,
        3 * games,
        out.display()
    );
    Ok(())
}
