//! `GameRecord::play_unchecked` against `GameRecord::play`: for legal moves the unchecked
//! play must leave exactly the record the checked one leaves (positions, moves, swaps and
//! the history rules' ends), in every game, under rule sets with a pie rule, a repetition
//! rule and a move limit.

use mancala_core::bao::BaoPosition;
use mancala_core::kalah::KalahPosition;
use mancala_core::oware::OwarePosition;
use mancala_core::togyz::TogyzPosition;
use mancala_core::{Game, GameRecord, HistoryEnd};
use proptest::prelude::*;

/// Plays the moves `picks` choose (each an index into the legal moves, wrapped) both ways
/// from the start of `rules`, comparing the records after every move; stops at the end.
fn same_records<G: Game>(rules: &str, picks: &[usize]) -> Result<(), TestCaseError>
where
    G::Rules: core::str::FromStr,
{
    let rules = rules
        .parse::<G::Rules>()
        .map_err(|_| TestCaseError::fail(format!("rules {rules}")))?;
    let mut checked = GameRecord::<G>::new(rules);
    let mut fast = checked.clone();
    for &pick in picks {
        let legal = checked.position().legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[pick % legal.len()];
        let expected = *checked
            .play(mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(*fast.play_unchecked(mv), expected);
        prop_assert_eq!(&fast, &checked);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn kalah_with_and_without_the_pie_rule(picks in prop::collection::vec(0usize..16, 0..120)) {
        same_records::<KalahPosition>("kalah(6,4)", &picks)?;
        same_records::<KalahPosition>("kalah(4,3)+pie_rule", &picks)?;
    }

    #[test]
    fn oware_under_its_history_rules(picks in prop::collection::vec(0usize..16, 0..200)) {
        same_records::<OwarePosition>("oware", &picks)?;
        same_records::<OwarePosition>("oware-openspiel", &picks)?;
        same_records::<OwarePosition>("oware+move_limit=30", &picks)?;
    }

    #[test]
    fn bao_and_togyz(picks in prop::collection::vec(0usize..64, 0..80)) {
        same_records::<BaoPosition>("bao-la-kete", &picks)?;
        same_records::<TogyzPosition>("togyz-kumalak", &picks)?;
    }
}

/// Under a move limit of 30 the thirtieth move ends the game whichever way it is played
/// (the rule is the record's, not the position's): the first legal move each time.
#[test]
fn the_move_limit_ends_an_unchecked_game_at_its_move() {
    let mut game = GameRecord::<OwarePosition>::new("oware+move_limit=30".parse().unwrap());
    for ply in 1..=30 {
        assert!(!game.is_over(), "over before move {ply}");
        let mv = game.position().legal_moves()[0];
        game.play_unchecked(mv);
    }
    assert!(game.is_over());
    assert_eq!(game.ended_by(), Some(HistoryEnd::MoveLimit));
    assert_eq!(game.plies(), 30);
}
