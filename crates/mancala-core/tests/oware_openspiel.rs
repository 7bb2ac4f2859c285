//! `oware-openspiel` against OpenSpiel itself (OW-7.3, OW-11.4): every game of the fixture
//! `tests/data/oware_openspiel.txt` — random games of OpenSpiel's `oware` at (6,4), (1,4),
//! (2,2), (3,3), (4,3), (5,5) and (6,6), written by `tests/data/oware_openspiel.py` (the format
//! is described there) — is replayed under `oware-openspiel(h,s)`, and after every ply the
//! houses, both scores, the side to move (or the end), the legal moves and, at the end, the
//! returns must be OpenSpiel's.
//!
//! The repetition rule runs in a small local game record (occurrence counts, `end_by`).

use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
use mancala_core::HistoryEnd;
use mancala_core::Side;

/// The state line of the fixture for a position: each count as the character 48 + count, the
/// side (`S`, `N`, `-`) and the legal-move mask as the character 48 + mask.
fn state_line(p: &OwarePosition) -> String {
    let mut s: String = p.counts().iter().map(|&c| char::from(48 + c)).collect();
    s.push(match p.side_to_move() {
        Some(Side::South) => 'S',
        Some(Side::North) => 'N',
        None => '-',
    });
    s.push(char::from(48 + p.legal_move_mask()));
    s
}

/// What a game record does after a move (OW-6.2, OW-6.4): returns the position, ended by a
/// history rule when one applies, and whether the repetition rule ended it.
fn after_move(
    next: OwarePosition,
    seen: &mut Vec<OwarePosition>,
    plies: u32,
) -> (OwarePosition, bool) {
    if next.is_over() {
        return (next, false);
    }
    let history = next.history_rules();
    let n = 1 + seen.iter().filter(|q| **q == next).count();
    seen.push(next);
    if history.repetition.is_some_and(|r| n >= usize::from(r)) {
        return (next.end_by(HistoryEnd::Repetition), true);
    }
    if history.move_limit.is_some_and(|l| plies >= u32::from(l)) {
        return (next.end_by(HistoryEnd::MoveLimit), false);
    }
    (next, false)
}

#[test]
fn every_ply_of_the_openspiel_games() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/oware_openspiel.txt"
    );
    let text = std::fs::read_to_string(path).expect("the fixture");
    let mut lines = text.lines().filter(|l| !l.starts_with('#')).enumerate();
    let (mut games, mut plies_total, mut by_repetition) = (0, 0, 0);
    let mut sizes = std::collections::BTreeMap::new();
    while let Some((at, header)) = lines.next() {
        let f: Vec<&str> = header.split(' ').collect();
        assert_eq!(f[0], "game", "line {at}: {header}");
        let (h, s): (u32, u32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let moves = f.get(3).copied().unwrap_or("");
        let rules: OwareRules = format!("oware-openspiel({h},{s})").parse().unwrap();
        *sizes.entry((h, s)).or_insert(0) += 1;
        let mut pos = OwarePosition::start(rules);
        let mut seen = vec![pos];
        let (_, first) = lines.next().unwrap();
        assert_eq!(state_line(&pos), first, "game {games}, start");
        let mut repeated = false;
        for (ply, house) in moves.bytes().enumerate() {
            let mv = OwareMove(house - b'0');
            let next = pos
                .play(mv)
                .unwrap_or_else(|e| panic!("game {games} ply {}: {e}", ply + 1));
            (pos, repeated) = after_move(next, &mut seen, ply as u32 + 1);
            let (at, want) = lines.next().unwrap();
            assert_eq!(
                state_line(&pos),
                want,
                "game {games} ({h},{s}), ply {}, line {at}",
                ply + 1
            );
        }
        assert!(pos.is_over(), "game {games}: OpenSpiel's game is over");
        let (_, end) = lines.next().unwrap();
        let want = match pos.outcome().unwrap().winner {
            Some(Side::South) => "end 1 -1",
            Some(Side::North) => "end -1 1",
            None => "end 0 0",
        };
        assert_eq!(end, want, "game {games}");
        games += 1;
        plies_total += moves.len();
        by_repetition += usize::from(repeated);
    }
    // The fixture holds what its generator says (300 games at (6,4), 50 at each other size).
    assert_eq!(games, 600);
    assert_eq!(sizes[&(6, 4)], 300);
    assert_eq!(sizes.len(), 7);
    assert!(plies_total > 40_000, "{plies_total} plies");
    // Some games end by the first repetition (OW-7.3 a).
    assert!(by_repetition > 0);
    eprintln!("{games} games, {plies_total} plies, {by_repetition} ended by repetition");
}
