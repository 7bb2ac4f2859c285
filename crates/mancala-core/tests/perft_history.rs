//! `GameRecord::perft`, the count with the history rules applied, against a counter written
//! here from `docs/rules/oware.md` OW-7.3 (`oware-openspiel`: the boards seen since the last
//! capture, the start board among them, are kept; a move whose board — houses, scores, side
//! to move — is already among them ends the game; a capture clears them). Where lines cycle
//! the two counts are below the plain perft's, which applies no history rule.

use mancala_core::game::perft;
use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_core::{GameRecord, Side};

/// Sequences of `depth` plies from `pos` under OW-7.3's repetition rule; `seen` holds the
/// boards since the last capture, `pos` included.
fn reference(pos: &OwarePosition, seen: &mut Vec<OwarePosition>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let taken =
        |p: &OwarePosition| u32::from(p.store(Side::South)) + u32::from(p.store(Side::North));
    let mut n = 0;
    for &mv in moves.iter() {
        let next = pos.play(mv).unwrap();
        if next.is_over() {
            continue;
        }
        if taken(&next) > taken(pos) {
            let mut fresh = vec![next];
            n += reference(&next, &mut fresh, depth - 1);
        } else if !seen.contains(&next) {
            seen.push(next);
            n += reference(&next, seen, depth - 1);
            seen.pop();
        }
    }
    n
}

fn counts(
    rules: &str,
    position: &str,
    depths: std::ops::RangeInclusive<u32>,
) -> Vec<(u64, u64, u64)> {
    let rules: OwareRules = rules.parse().unwrap();
    let start = OwarePosition::parse(rules, position).unwrap();
    let record = GameRecord::from_position(start);
    depths
        .map(|d| {
            (
                record.perft(d),
                reference(&start, &mut vec![start], d),
                perft(&start, d),
            )
        })
        .collect()
}

/// A three-house position where South must feed North (the position of the solver's
/// `tests/engine_oware_history.rs`): lines repeat a board from the seventh ply on, and the
/// history count leaves them out.
#[test]
fn a_cycling_position_counts_fewer_lines_with_the_history_rules() {
    let got = counts("oware-openspiel(3,3)", "1,1,1,6,0,0,0,9 S", 1..=12);
    for (d, &(history, reference, plain)) in got.iter().enumerate() {
        assert_eq!(history, reference, "depth {}", d + 1);
        assert!(history <= plain, "depth {}", d + 1);
    }
    // Depths 1-6 agree; from 7 on the cycles are cut.
    assert!(got[..6].iter().all(|c| c.0 == c.2));
    assert!(got[6..].iter().all(|c| c.0 < c.2), "{got:?}");
}

/// From the start no line of 6 plies repeats a board: the three counts are one.
#[test]
fn from_the_start_the_counts_agree() {
    let got = counts("oware-openspiel", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S", 1..=6);
    for (d, c) in got.iter().enumerate() {
        assert_eq!((c.0, c.1), (c.2, c.2), "depth {}", d + 1);
    }
    assert_eq!(got[4].0, 5_219); // OW-11.4
}
