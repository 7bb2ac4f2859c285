//! The one exact-values API (`ExactValues`) of the Kalah endgame databases, the Awari
//! databases and the exact solver, each against an independent source: the brute-force
//! minimax of `mancala_reference::minimax` (Kalah), the brute force written from the rules
//! text in `tests/awari_ref` (Awari), and each move's value derived by hand from the values
//! of the positions it leads to; the refusal of a rule set names the rules that differ.

#[path = "awari_ref/mod.rs"]
mod awari_ref;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_reference::minimax::Brute;
use mancala_solver::awari::AwariDb;
use mancala_solver::{BuildOptions, Egdb, ExactError, ExactGame, ExactValues, Solver};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions of random games of `rules` with at most `max_seeds` seeds in the houses, past
/// the opening, game not over.
fn kalah_endgames(rules: KalahRules, max_seeds: u32, n: usize) -> Vec<KalahPosition> {
    let mut rng = StdRng::seed_from_u64(11);
    let mut out = Vec::new();
    while out.len() < n {
        let mut p = KalahPosition::start(rules);
        while !p.is_over() && p.seeds_in_houses() > max_seeds {
            let moves = p.legal_moves();
            p = p.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        if !p.is_over() && !p.is_first_move() && !p.swap_offered() && !p.in_opening_turn() {
            out.push(p);
        }
    }
    out
}

/// The endgame database and the solver give the brute force's value of every position and
/// of every move (a move's value: the seeds it stores, then the value of the position it
/// leaves, negated when the turn passes — computed here from the brute force's position
/// values, not from the sources); the final margin is the seeds stored plus the value.
#[test]
fn kalah_values_from_the_database_and_the_solver_agree_with_the_brute_force() {
    let rules: KalahRules = "kalah(4,2)".parse().unwrap();
    let db = Egdb::build(&rules, 9, BuildOptions::new()).unwrap();
    let solver = Solver::new().threads(1).tt_bytes(1 << 20);
    let mut brute = Brute::new();
    for p in kalah_endgames(rules, 9, 30) {
        let v = brute.value(&p);
        assert_eq!(db.value_of(&p), Ok(v), "{p}");
        assert_eq!(solver.value_of(&p), Ok(v), "{p}");
        let side = p.side_to_move().unwrap();
        let mover = |q: &KalahPosition| match side {
            Side::South => q.store_difference(),
            Side::North => -q.store_difference(),
        };
        let want: Vec<_> = p
            .legal_moves()
            .into_iter()
            .map(|m| {
                let q = p.play(m).unwrap();
                let gain = mover(&q) - mover(&p);
                let rest = match q.side_to_move() {
                    None => 0,
                    Some(s) if s == side => brute.value(&q),
                    Some(_) => -brute.value(&q),
                };
                (m, gain + rest)
            })
            .collect();
        assert_eq!(db.move_values_of(&p).unwrap(), want, "{p}");
        assert_eq!(solver.move_values_of(&p).unwrap(), want, "{p}");
        assert_eq!(p.stored_margin(), mover(&p), "{p}");
        assert_eq!(p.house_seeds(), p.seeds_in_houses());
    }
}

/// What the Kalah database does not hold is refused, each for its reason.
#[test]
fn kalah_refusals_are_typed() {
    let rules: KalahRules = "kalah(4,2)".parse().unwrap();
    let db = Egdb::build(&rules, 4, BuildOptions::new()).unwrap();
    // Sixteen seeds at the start: more than K = 4; and the first move is an opening.
    let start = KalahPosition::start(rules);
    assert_eq!(
        db.value_of(&start),
        Err(ExactError::NotHeld {
            seeds: 16,
            max_seeds: 4
        })
    );
    // Other rules: 5 houses a row and empty_capture, named as a rule-set text spells them.
    let other: KalahRules = "kalah(5,2)+empty_capture".parse().unwrap();
    let refused = db.check_rules(&other).unwrap_err();
    assert_eq!(
        refused.differences,
        vec!["5 houses a row", "+empty_capture"]
    );
    assert_eq!(
        refused.to_string(),
        "the endgame database kalah(4,·), K = 4 holds the values of kalah(4,·), not of kalah(5,2)+empty_capture, which has 5 houses a row, +empty_capture"
    );
    // Another number of seeds a house is served: it does not change a value.
    assert!(db.check_rules(&"kalah(4,5)".parse().unwrap()).is_ok());
}

/// The Oware position of the board `b` (mover first) with South to move when `south`, the
/// seeds not on the board split between the stores as `captured` and the rest.
fn awari_position(b: &awari_ref::Board, south: bool, captured: u32) -> OwarePosition {
    let row = |r: &[u8]| r.iter().map(u8::to_string).collect::<Vec<_>>().join(",");
    let (s_row, n_row) = if south {
        (&b[..6], &b[6..])
    } else {
        (&b[6..], &b[..6])
    };
    let rest = 48 - awari_ref::seeds(b) - captured;
    let side = if south { "S" } else { "N" };
    let text = format!("{},{captured},{},{rest} {side}", row(s_row), row(n_row));
    OwarePosition::parse(OwareRules::AWARI, &text).unwrap()
}

/// The Awari database takes an Oware position as it is (no board built by hand): its value
/// and each move's value are the reference's for the reference's boards (every 13th of each
/// level up to 7 seeds, either side to move, with seeds captured), the board read back
/// house by house from the position's own accessors; under a variant in the repetition rule
/// too.
#[test]
fn awari_values_of_oware_positions_are_the_reference_values() {
    let db = AwariDb::build(7, 1).unwrap();
    let reference = awari_ref::Reference::build(7);
    let variant: OwareRules = "awari+repetition=2".parse().unwrap();
    let mut checked = 0;
    for n in 1..=7 {
        for (i, b) in awari_ref::boards_of(n).iter().enumerate() {
            if i % 13 != 0 || awari_ref::moves(b).is_empty() {
                continue;
            }
            let p = awari_position(b, i % 2 == 0, (i % 17) as u32);
            let me = p.side_to_move().unwrap();
            let mut board = [0u8; 12];
            for h in 0..6u8 {
                board[usize::from(h)] = p.house(me, h + 1).unwrap();
                board[6 + usize::from(h)] = p.house(me.opponent(), h + 1).unwrap();
            }
            assert_eq!(&board, b, "{p}");
            assert_eq!(db.value_of(&p), Ok(reference.value(b)), "{p}");
            let want: Vec<(OwareMove, i32)> = awari_ref::moves(b)
                .iter()
                .map(|m| {
                    (
                        OwareMove(m.house as u8 + 1),
                        m.captured as i32 - reference.value(&m.child),
                    )
                })
                .collect();
            assert_eq!(db.move_values_of(&p).unwrap(), want, "{p}");
            assert_eq!(
                p.stored_margin(),
                i32::from(p.store(me)) - i32::from(p.store(me.opponent()))
            );
            let q = OwarePosition::parse(variant, &p.to_string()).unwrap();
            assert_eq!(db.value_of(&q), db.value_of(&p), "{q}");
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
}

/// Another Oware rule set is refused naming the rules that differ; more seeds than N is
/// `NotHeld`; a finished game is worth 0 and has no move.
#[test]
fn awari_refusals_name_what_differs() {
    let db = AwariDb::build(4, 1).unwrap();
    let refused = db.check_rules(&OwareRules::OWARE).unwrap_err();
    assert_eq!(
        refused.differences,
        vec!["grand_slam=none", "majority=stop", "cycle_score=own_row"]
    );
    assert!(
        refused.to_string().starts_with(
            "an Awari database holds the values of the Oware rule sets with 6 houses a side"
        ),
        "{refused}"
    );
    let p = OwarePosition::parse(OwareRules::OWARE, "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
    assert_eq!(db.value_of(&p), Err(ExactError::Rules(refused)));
    let start = OwarePosition::start(OwareRules::AWARI);
    assert_eq!(
        db.value_of(&start),
        Err(ExactError::NotHeld {
            seeds: 48,
            max_seeds: 4
        })
    );
    let over = OwarePosition::parse(OwareRules::AWARI, "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -").unwrap();
    assert_eq!(db.value_of(&over), Ok(0));
    assert_eq!(db.move_values_of(&over), Ok(Vec::new()));
}
