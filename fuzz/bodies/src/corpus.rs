//! Inputs of the Oware targets written from whole games, so that their committed corpora
//! start from games of every rule set, not from a few hand-written seeds alone. The example
//! `oware_corpus` of this crate writes them (`fuzz/README.md`, "Generated corpora").
//!
//! * `oware_notation` reads four text lines: a game's rule set, a position of it, the moves
//!   played from there and one more move ([`oware_notation_input`]).
//! * `oware_moves` reads its input through `arbitrary::Unstructured`. [`oware_moves_input`]
//!   writes the bytes its draws read back as the values wanted: a whole number of `lo..=hi`
//!   is its offset from `lo` in as many big-endian bytes as `hi − lo` needs (none when
//!   `lo == hi`), as `Unstructured::int_in_range` reads it; a `bool` is a byte's lowest bit;
//!   a legal move is "legal" (the ratio's byte 0) and its index among the legal moves, an
//!   illegal one the ratio's byte 3 and the house. [`crate::oware_moves_plan`] reads an input
//!   back with the body's own draws: the generator checks with it that every input plays the
//!   game it was written from (a change of the body's draws fails it, and the corpus is then
//!   written again).

use mancala_core::oware::{
    OptionValue, OwareMove, OwareOption, OwarePosition, OwareRuleSet, OwareRules, MAX_HOUSES,
    MAX_TOTAL_SEEDS,
};
use mancala_core::{GameRecord, Side};

/// A source of random choices: `below(n)` is a number in `0..n` (`n` ≥ 1).
pub trait Source {
    /// A number in `0..n`.
    fn below(&mut self, n: u32) -> u32;
}

impl<F: FnMut(u32) -> u32> Source for F {
    fn below(&mut self, n: u32) -> u32 {
        self(n) % n.max(1)
    }
}

/// A rule set drawn for a game: its head, board size and the options set on top of the
/// head's, applied in the order of [`OwareOption::ALL`] as `oware_moves` applies them.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// The named rule set the rules start from.
    pub head: OwareRuleSet,
    /// Houses a row, 1..=8.
    pub houses: u32,
    /// Seeds a house at the start.
    pub seeds: u32,
    /// The options given a value of their own.
    pub options: Vec<(OwareOption, OptionValue)>,
    /// The rules they make.
    pub rules: OwareRules,
}

/// Draws rules from `head`: its own size and options when `plain`, else a board of 1..=8
/// houses of 1..=6 seeds (2·h·s ≤ 255) and each option, one time in three, at a value of its
/// row of [`OwareOption::TABLE`] (a word, or a number: a move limit mostly below 300, so that
/// it is reached).
pub fn draw_rules(head: OwareRuleSet, plain: bool, src: &mut impl Source) -> Drawn {
    let own = head.rules();
    let (houses, seeds) = if plain {
        (u32::from(own.houses()), u32::from(own.seeds()))
    } else {
        let h = 1 + src.below(u32::from(MAX_HOUSES));
        let most = (MAX_TOTAL_SEEDS / (2 * h)).min(6);
        (h, 1 + src.below(most))
    };
    let mut rules = own
        .with_size(houses, seeds)
        .expect("at most 6 seeds a house of 8 houses");
    let mut options = Vec::new();
    for option in OwareOption::ALL {
        if plain || src.below(3) != 0 {
            continue;
        }
        let info = option.info();
        let value = match info.numbers {
            Some((lo, hi)) if info.words.is_empty() || src.below(2) == 0 => {
                let hi = if src.below(4) == 0 {
                    hi
                } else {
                    hi.min(lo + 299)
                };
                OptionValue::Number(lo + src.below(hi - lo + 1))
            }
            _ => OptionValue::Word(info.words[src.below(info.words.len() as u32) as usize]),
        };
        rules = rules
            .with_value(option, value)
            .expect("a value of the option's row");
        options.push((option, value));
    }
    Drawn {
        head,
        houses,
        seeds,
        options,
        rules,
    }
}

/// A move tried in a game of `oware_moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Try {
    /// A legal move, played.
    Legal(OwareMove),
    /// A house number the position refuses (0, past the row, an empty house, …).
    Illegal(u8),
}

/// A random game from `start`: each ply a legal move drawn uniformly, and one time in twelve
/// first a move the position refuses; the game record applies the history rules. At most
/// `max_tries` moves are tried (`oware_moves` tries at most 400).
pub fn random_game(
    start: OwarePosition,
    max_tries: usize,
    src: &mut impl Source,
) -> (Vec<Try>, GameRecord<OwarePosition>) {
    let mut game = GameRecord::from_position(start);
    let mut tries = Vec::new();
    while tries.len() < max_tries && !game.is_over() {
        let pos = *game.position();
        if src.below(12) == 0 {
            let h = pos.rules().houses();
            let house = match src.below(4) {
                0 => 0,
                1 => h + 1 + src.below(u32::from(u8::MAX - h)) as u8,
                _ => 1 + src.below(u32::from(h)) as u8,
            };
            if pos.play(OwareMove(house)).is_err() {
                tries.push(Try::Illegal(house));
                continue;
            }
        }
        let legal = pos.legal_moves();
        let mv = legal[src.below(legal.len() as u32) as usize];
        game.play(mv).expect("a legal move");
        tries.push(Try::Legal(mv));
    }
    (tries, game)
}

/// The bytes `Unstructured` reads back as the values written.
#[derive(Default)]
struct Bytes(Vec<u8>);

impl Bytes {
    /// `v` of `lo..=hi`, as `Unstructured::int_in_range` reads it.
    fn int(&mut self, lo: u64, hi: u64, v: u64) {
        assert!((lo..=hi).contains(&v), "{v} not in {lo}..={hi}");
        let delta = hi - lo;
        let mut n = 0;
        while n < 8 && (delta >> (8 * n)) > 0 {
            n += 1;
        }
        let offset = v - lo;
        for i in (0..n).rev() {
            self.0.push((offset >> (8 * i)) as u8);
        }
    }

    fn bool(&mut self, b: bool) {
        self.0.push(u8::from(b));
    }
}

/// The input of `oware_moves` that plays `tries` from `start` (`None`: the start position)
/// under `drawn`'s rules. The positions of a set-up start must hold at most 40 seeds a count
/// (the body's draws of a set-up position).
#[must_use]
pub fn oware_moves_input(drawn: &Drawn, start: Option<OwarePosition>, tries: &[Try]) -> Vec<u8> {
    let mut b = Bytes::default();
    let head = OwareRuleSet::ALL
        .iter()
        .position(|&h| h == drawn.head)
        .expect("a named head");
    b.int(0, OwareRuleSet::ALL.len() as u64 - 1, head as u64);
    b.int(1, u64::from(MAX_HOUSES), u64::from(drawn.houses));
    b.int(
        1,
        u64::from(MAX_TOTAL_SEEDS / (2 * drawn.houses)),
        u64::from(drawn.seeds),
    );
    for option in OwareOption::ALL {
        let Some(&(_, value)) = drawn.options.iter().find(|(o, _)| *o == option) else {
            b.bool(false);
            continue;
        };
        b.bool(true);
        let info = option.info();
        match value {
            OptionValue::Word(w) => {
                // `pick` 0 (options with words always have one): a word of the row.
                b.int(0, 2, 0);
                let i = info
                    .words
                    .iter()
                    .position(|x| *x == w)
                    .expect("a word of the row");
                b.int(0, info.words.len() as u64 - 1, i as u64);
            }
            OptionValue::Number(n) => {
                let (lo, hi) = info.numbers.expect("a number of the row");
                // `pick` 2: any number of the range (1 for an option of numbers only).
                b.int(0, 2, if info.words.is_empty() { 1 } else { 2 });
                b.int(u64::from(lo), u64::from(hi), u64::from(n));
            }
        }
    }
    let mut pos = match start {
        None => {
            b.bool(true);
            OwarePosition::start(drawn.rules)
        }
        Some(p) => {
            b.bool(false);
            let mut left = u64::from(MAX_TOTAL_SEEDS);
            for &c in p.counts().iter() {
                b.int(0, left.min(40), u64::from(c));
                left -= u64::from(c);
            }
            b.bool(p.side_to_move() == Some(Side::North));
            p
        }
    };
    let mut game = GameRecord::from_position(pos);
    for &t in tries {
        match t {
            Try::Legal(mv) => {
                let legal = pos.legal_moves();
                let i = legal.iter().position(|&m| m == mv).expect("a legal move");
                b.int(1, 4, 1);
                b.int(0, legal.len() as u64 - 1, i as u64);
                game.play(mv).expect("a legal move");
                pos = *game.position();
            }
            Try::Illegal(house) => {
                b.int(1, 4, 4);
                b.0.push(house);
            }
        }
    }
    b.0
}

/// Whether `input` (written by [`oware_moves_input`]) reads back, with the body's draws, as
/// `drawn`'s rules, the start `from` and the moves of `game`, and ends where `game` ends when
/// it is over. (Past the bytes written the body goes on with the first legal move at each
/// ply, as `Unstructured` reads an empty input: a game not over yet may go on there.)
#[must_use]
pub fn reads_back(
    input: &[u8],
    drawn: &Drawn,
    from: OwarePosition,
    game: &GameRecord<OwarePosition>,
) -> bool {
    let (rules, start, moves, end) = crate::oware_moves_plan(input);
    let played = game.moves();
    rules == drawn.rules
        && start == from
        && moves.get(..played.len()) == Some(played)
        && (!game.is_over() || (moves.len() == played.len() && end == *game.position()))
}

/// The input of `oware_notation`: the rule set, `position`, the moves `record` (space or
/// comma separated, as `comma` says) and `mv`, one a line.
#[must_use]
pub fn oware_notation_input(
    rules: OwareRules,
    position: &OwarePosition,
    record: &[OwareMove],
    comma: bool,
    mv: &str,
) -> Vec<u8> {
    let moves: Vec<String> = record.iter().map(ToString::to_string).collect();
    format!(
        "{rules}\n{position}\n{}\n{mv}",
        moves.join(if comma { "," } else { " " })
    )
    .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed stream of choices (a linear congruential sequence).
    fn stream(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut x = seed;
        move |n| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) % u64::from(n.max(1))) as u32
        }
    }

    /// Every input written reads back, with the body's draws, as the rules, start, moves and
    /// end it was written from; and the body accepts it.
    #[test]
    fn a_written_game_reads_back_as_itself() {
        for seed in 0..24u64 {
            let mut src = stream(seed);
            let head = OwareRuleSet::ALL[seed as usize % 3];
            let drawn = draw_rules(head, seed % 4 == 0, &mut src);
            let start = if seed % 5 == 1 {
                let (_, game) = random_game(OwarePosition::start(drawn.rules), 9, &mut src);
                let p = *game.position();
                (!p.is_over() && p.counts().iter().all(|&c| c <= 40)).then_some(p)
            } else {
                None
            };
            let from = start.unwrap_or(OwarePosition::start(drawn.rules));
            let (tries, game) = random_game(from, 380, &mut src);
            let input = oware_moves_input(&drawn, start, &tries);
            assert!(reads_back(&input, &drawn, from, &game), "seed {seed}");
            crate::oware_moves(&input);
        }
    }
}
