//! Oware: the notations (rule sets, positions, moves, game records) and random move sequences
//! checked against the plain array reference (`crates/mancala-core/tests/oware_reference`).

use arbitrary::Unstructured;
use mancala_core::oware::{
    parse_moves, perft, GrandSlam, IllegalReason, OptionValue, OwareMove, OwareOption,
    OwarePosition, OwareRuleSet, OwareRules, MAX_HOUSES, MAX_TOTAL_SEEDS,
};
use mancala_core::{GameRecord, HistoryEnd, Side};

use crate::oware_reference::{RefGame, RefPos, RefRules};

type OwareGame = GameRecord<OwarePosition>;
type RecordError = mancala_core::RecordError<OwarePosition>;

/// Moves played at most per input by [`oware_moves`].
const MAX_PLIES: usize = 400;
/// Moves of a record replayed at most per input by [`oware_notation`].
const MAX_RECORD: usize = 400;

/// Target `oware_notation`: the input is four text lines, a rule set, a position, a game
/// record and a move (OW-8, OW-9). Each must parse without panicking; whatever parses must
/// print back to a text that parses to the same value; a parsed rule set has 1..=8 houses, at
/// least one seed a house and at most 255 seeds (OW-8.1); a parsed position has at most 255
/// seeds, is over exactly when it has no legal move, unpacks and packs back to itself, and
/// every listed move plays (the same through `play_unchecked` and `for_each_child`); a record
/// replays as a `GameRecord` up to its first illegal move, the one the error names, with the
/// history rules (OW-6.2, OW-6.4) applied as a plain game loop applies them. When the
/// rule-set line does not parse, the position is read under a named rule set with the
/// houses of its count number and one seed a house, so positions still get exercised.
///
/// # Panics
/// When one of those properties fails.
pub fn oware_notation(data: &[u8]) {
    let l = crate::lines(data, 4);
    let (rules_text, pos_text, record_text, move_text) = (&l[0], &l[1], &l[2], &l[3]);

    let rules = match rules_text.parse::<OwareRules>() {
        Ok(r) => {
            let printed = r.to_string();
            assert_eq!(printed.parse::<OwareRules>(), Ok(r), "rules `{rules_text}`");
            assert!(
                (1..=MAX_HOUSES).contains(&r.houses()) && r.seeds() >= 1,
                "{r}"
            );
            assert!(r.total_seeds() <= MAX_TOTAL_SEEDS, "{r}");
            assert_eq!(
                r.total_seeds(),
                2 * u32::from(r.houses()) * u32::from(r.seeds())
            );
            r
        }
        Err(_) => {
            let counts = pos_text.split_whitespace().next().unwrap_or("");
            let slots = counts.split(',').count() as u32;
            let h = (slots.saturating_sub(2) / 2).clamp(1, u32::from(MAX_HOUSES));
            let head = OwareRuleSet::ALL[rules_text.len() % OwareRuleSet::ALL.len()];
            head.rules()
                .with_size(h, 1)
                .expect("h = 1..=8 houses of one seed are valid")
        }
    };

    let start = match OwarePosition::parse(rules, pos_text) {
        Ok(p) => {
            let printed = p.to_string();
            assert_eq!(
                OwarePosition::parse(rules, &printed),
                Ok(p),
                "position `{pos_text}` printed as `{printed}`"
            );
            assert_eq!(OwarePosition::try_from(p.layout()), Ok(p), "{p}");
            assert!(p.total_seeds() <= MAX_TOTAL_SEEDS, "{p}");
            assert_eq!(p.is_over(), p.legal_moves().is_empty(), "{p}");
            check_children(&p);
            p
        }
        Err(_) => OwarePosition::start(rules),
    };

    match parse_moves(record_text) {
        Ok(moves) => {
            let printed: Vec<String> = moves.iter().map(ToString::to_string).collect();
            assert_eq!(
                parse_moves(&printed.join(",")),
                Ok(moves.clone()),
                "record `{record_text}`"
            );
            let moves = &moves[..moves.len().min(MAX_RECORD)];
            check_replay(start, moves);
        }
        Err(e) => {
            let bad = record_text
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .nth(e.index - 1)
                .expect("the error names an existing move");
            assert!(bad.parse::<OwareMove>().is_err(), "`{bad}` does parse");
        }
    }

    if let Ok(mv) = move_text.parse::<OwareMove>() {
        assert_eq!(
            mv.to_string().parse::<OwareMove>(),
            Ok(mv),
            "move `{move_text}`"
        );
    }
}

/// Every listed move plays, through `play`, `play_unchecked` and `for_each_child` alike, and
/// conserves the seeds (OW-1.2); `for_each_child` lists exactly the legal moves, in order.
fn check_children(p: &OwarePosition) {
    let legal: Vec<OwareMove> = p.legal_moves().into_iter().collect();
    let mut children = Vec::new();
    p.for_each_child(|mv, child| children.push((mv, child)));
    assert_eq!(children.len(), legal.len(), "{p}");
    for (&mv, &(cmv, child)) in legal.iter().zip(&children) {
        assert_eq!(mv, cmv, "{p}");
        let next = p
            .play(mv)
            .unwrap_or_else(|e| panic!("{p}: listed {mv}: {e}"));
        assert_eq!(p.check(mv), Ok(()));
        assert_eq!(next, child, "{p} {mv}");
        assert_eq!(p.play_unchecked(mv), next, "{p} {mv}");
        assert_eq!(next.total_seeds(), p.total_seeds(), "{p} {mv}");
    }
}

/// Plays legal `mv` on `pos` the way a game loop applies the history rules (OW-6.2, OW-6.4),
/// written apart from `GameRecord`: the position after the move, unless already over, is
/// counted among `seen`; at the `repetition`-th occurrence or the `move_limit`-th ply
/// `end_by` finishes it.
fn play_in_game(
    pos: &OwarePosition,
    mv: OwareMove,
    seen: &mut Vec<OwarePosition>,
    plies: &mut u32,
) -> OwarePosition {
    let next = pos.play(mv).expect("a legal move");
    *plies += 1;
    if next.is_over() {
        return next;
    }
    let rules = next.history_rules();
    let occurrences = 1 + seen.iter().filter(|q| **q == next).count();
    seen.push(next);
    if rules
        .repetition
        .is_some_and(|n| occurrences >= usize::from(n))
    {
        return next.end_by(HistoryEnd::Repetition);
    }
    if rules.move_limit.is_some_and(|n| *plies >= u32::from(n)) {
        return next.end_by(HistoryEnd::MoveLimit);
    }
    next
}

/// What an input of [`oware_moves`] stands for, read with the body's own draws and without
/// its checks: the rules, the position the game starts from, the legal moves played (the
/// illegal ones tried are left out) and the position reached, the history rules applied as
/// the body applies them. For the corpus generator (`crate::corpus`), which checks with it
/// that an input it wrote plays the game it was written from.
#[must_use]
pub fn oware_moves_plan(data: &[u8]) -> (OwareRules, OwarePosition, Vec<OwareMove>, OwarePosition) {
    let mut u = Unstructured::new(data);
    let Ok(rules) = arbitrary_rules(&mut u) else {
        let rules = OwareRules::default();
        let start = OwarePosition::start(rules);
        return (rules, start, Vec::new(), start);
    };
    let start = arbitrary_start(&mut u, rules).unwrap_or_else(|_| OwarePosition::start(rules));
    let mut pos = start;
    let mut seen = vec![start];
    let mut plies = 0;
    let mut played = Vec::new();
    let _ = (|| -> arbitrary::Result<()> {
        for _ in 0..MAX_PLIES {
            let legal: Vec<OwareMove> = pos.legal_moves().into_iter().collect();
            let mv = if !legal.is_empty() && u.ratio(3, 4)? {
                legal[u.choose_index(legal.len())?]
            } else {
                OwareMove(u.arbitrary()?)
            };
            if pos.play(mv).is_ok() {
                pos = play_in_game(&pos, mv, &mut seen, &mut plies);
                played.push(mv);
            }
            if pos.is_over() {
                break;
            }
        }
        Ok(())
    })();
    (rules, start, played, pos)
}

/// `GameRecord::replay` against playing the moves one by one in a plain game loop.
fn check_replay(start: OwarePosition, moves: &[OwareMove]) {
    let mut pos = start;
    let mut seen = vec![start];
    let mut plies = 0;
    let mut first_illegal = None;
    for (i, &mv) in moves.iter().enumerate() {
        match pos.play(mv) {
            Ok(_) => pos = play_in_game(&pos, mv, &mut seen, &mut plies),
            Err(e) => {
                first_illegal = Some((i + 1, e));
                break;
            }
        }
    }
    match (OwareGame::replay(start, moves), first_illegal) {
        (Ok(game), None) => {
            assert_eq!(*game.position(), pos);
            assert_eq!(game.moves(), moves);
            assert_eq!(game.positions().len(), moves.len() + 1);
            assert_eq!(game.is_over(), pos.is_over());
        }
        (Err(RecordError::Illegal { index, source }), Some((i, e))) => {
            assert_eq!((index, source), (i, e));
        }
        (got, expected) => panic!("replay gave {got:?}, playing one by one {expected:?}"),
    }
}

/// One value of `option` from its row of [`OwareOption::TABLE`]: one of its words, a number
/// near the low end of its range (where short games reach it), or any number of its range.
fn arbitrary_value(
    u: &mut Unstructured<'_>,
    option: OwareOption,
) -> arbitrary::Result<OptionValue> {
    let info = option.info();
    let pick = u.int_in_range(0..=2u8)?;
    // An option of numbers only (no word) draws a number every time.
    let pick = if info.words.is_empty() {
        1 + pick % 2
    } else {
        pick
    };
    Ok(match (info.numbers, pick) {
        (Some((lo, hi)), 1) => OptionValue::Number(u.int_in_range(lo..=hi.min(lo + 30))?),
        (Some((lo, hi)), 2) => OptionValue::Number(u.int_in_range(lo..=hi)?),
        _ => OptionValue::Word(u.choose(info.words)?),
    })
}

/// Arbitrary rules: a named head, a board size (h = 1..=8, s with 2·h·s ≤ 255, OW-8.1) and,
/// for each option of [`OwareOption::TABLE`], the head's value or any value the table allows.
pub(crate) fn arbitrary_rules(u: &mut Unstructured<'_>) -> arbitrary::Result<OwareRules> {
    let head = OwareRuleSet::ALL[u.choose_index(OwareRuleSet::ALL.len())?];
    let h = u.int_in_range(1..=u32::from(MAX_HOUSES))?;
    let s = u.int_in_range(1..=MAX_TOTAL_SEEDS / (2 * h))?;
    let mut rules = head.rules().with_size(h, s).expect("2hs <= 255");
    for option in OwareOption::ALL {
        if u.arbitrary::<bool>()? {
            let value = arbitrary_value(u, option)?;
            rules = rules
                .with_value(option, value)
                .unwrap_or_else(|e| panic!("{option:?} = {value} is in the table: {e}"));
            assert_eq!(rules.value(option), value, "{rules}");
        }
    }
    Ok(rules)
}

/// The start, or (half of the time) an arbitrary set-up position: 2h + 2 counts of at most
/// 255 seeds in all and a side to move (OW-9.3); the start when the rules refuse it.
fn arbitrary_start(
    u: &mut Unstructured<'_>,
    rules: OwareRules,
) -> arbitrary::Result<OwarePosition> {
    if u.arbitrary::<bool>()? {
        return Ok(OwarePosition::start(rules));
    }
    let n = 2 * usize::from(rules.houses()) + 2;
    let mut counts = [0u8; 2 * MAX_HOUSES as usize + 2];
    let mut left = MAX_TOTAL_SEEDS;
    for c in counts.iter_mut().take(n) {
        let k = u.int_in_range(0..=left.min(40))?;
        *c = k as u8;
        left -= k;
    }
    let side = if u.arbitrary::<bool>()? {
        Side::North
    } else {
        Side::South
    };
    Ok(OwarePosition::new(rules, &counts[..n], Some(side))
        .unwrap_or_else(|_| OwarePosition::start(rules)))
}

/// The packed position equals the reference's: houses, stores, side to move, over.
fn check_against_reference(p: &OwarePosition, r: &RefPos) {
    let h = usize::from(p.rules().houses());
    let layout = p.layout();
    assert_eq!(
        layout.houses[0][..h],
        r.board[..h],
        "{p} vs {}",
        r.notation()
    );
    assert_eq!(
        layout.houses[1][..h],
        r.board[h..2 * h],
        "{p} vs {}",
        r.notation()
    );
    assert_eq!(layout.stores, r.stores, "{p} vs {}", r.notation());
    assert_eq!(p.is_over(), r.over, "{p} vs {}", r.notation());
    if !r.over {
        let side = if r.to_move == 0 {
            Side::South
        } else {
            Side::North
        };
        assert_eq!(p.side_to_move(), Some(side), "{p} vs {}", r.notation());
    }
}

/// Target `oware_moves`: arbitrary rules (every head, h = 1..=8, any s with 2·h·s ≤ 255, every
/// option at any value of its [`OwareOption::TABLE`] row), the start or an arbitrary set-up
/// position, then up to 400 (`MAX_PLIES`) moves, each a legal move or an arbitrary house
/// 0..=255, played in a game loop that applies the history rules. After every step: the
/// packed position equals the plain reference's (houses, stores, side, over) and so do the
/// legal moves; the game is over exactly when no move is legal (OW-6.3); the seeds are
/// conserved (OW-1.2); every legal move plays, also through `play_unchecked` and
/// `for_each_child`; an illegal move is refused with the right
/// [`IllegalReason`] (OW-5) and the position unchanged. At the end the final counts equal the
/// reference's, the notation round-trips, the moves replay as a `GameRecord` to the same
/// position, and perft to depth 2 agrees with the reference.
///
/// # Panics
/// When one of those properties fails.
pub fn oware_moves(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // Running out of bytes just ends the game early.
    let _ = run_oware_moves(&mut u);
}

fn run_oware_moves(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let rules = arbitrary_rules(u)?;
    let start = arbitrary_start(u, rules)?;
    let rr = RefRules::of(rules);
    let layout = start.layout();
    let h = usize::from(rules.houses());
    let mut counts = Vec::with_capacity(2 * h + 2);
    for side in 0..2 {
        counts.extend_from_slice(&layout.houses[side][..h]);
        counts.push(layout.stores[side]);
    }
    let to_move = start.side_to_move().map(Side::index);
    let mut reference = RefGame::new(rr, RefPos::from_counts(h, &counts, to_move));
    let total = start.total_seeds();
    let mut pos = start;
    let mut seen = vec![start];
    let mut plies = 0;
    let mut played = Vec::new();
    let result = (|| {
        for _ in 0..MAX_PLIES {
            check_against_reference(&pos, &reference.pos);
            assert_eq!(pos.total_seeds(), total, "{pos}");
            let legal: Vec<OwareMove> = pos.legal_moves().into_iter().collect();
            // OW-6.3: a side with no legal move ends the game.
            assert_eq!(pos.is_over(), legal.is_empty(), "{pos}");
            let houses: Vec<usize> = legal.iter().map(|m| usize::from(m.house())).collect();
            assert_eq!(houses, reference.pos.moves(&rr), "{pos}");
            check_children(&pos);
            let mv = if !legal.is_empty() && u.ratio(3, 4)? {
                legal[u.choose_index(legal.len())?]
            } else {
                OwareMove(u.arbitrary()?)
            };
            match pos.play(mv) {
                Ok(_) => {
                    assert!(legal.contains(&mv), "{pos}: unlisted {mv} played");
                    pos = play_in_game(&pos, mv, &mut seen, &mut plies);
                    reference.play(usize::from(mv.house()));
                    played.push(mv);
                }
                Err(e) => {
                    assert!(!legal.contains(&mv), "{pos}: listed {mv} refused: {e}");
                    assert_eq!(
                        (e.mv, e.position),
                        (mv, pos),
                        "the error changed the position"
                    );
                    assert_eq!(pos.check(mv), Err(e.reason));
                    let house = mv.house();
                    let empty = (1..=rules.houses()).contains(&house)
                        && pos.house(pos.side_to_move().unwrap_or(Side::South), house) == Some(0);
                    let ok = match e.reason {
                        IllegalReason::GameOver => pos.is_over(),
                        IllegalReason::NoSuchHouse { house: g, houses } => {
                            !pos.is_over()
                                && g == house
                                && houses == rules.houses()
                                && (house == 0 || house > rules.houses())
                        }
                        IllegalReason::EmptyHouse(g) => !pos.is_over() && g == house && empty,
                        // OW-5: a move that would not feed an opponent with no seeds, or a
                        // forbidden grand slam, or (under `unless_only`) an eradicating move.
                        IllegalReason::MustFeed(g) => {
                            g == house && !empty && rules.grand_slam() != GrandSlam::UnlessOnly
                        }
                        IllegalReason::GrandSlam(g) => {
                            g == house && !empty && rules.grand_slam() == GrandSlam::Forbidden
                        }
                        IllegalReason::Eradicates(g) => {
                            g == house && !empty && rules.grand_slam() == GrandSlam::UnlessOnly
                        }
                    };
                    assert!(ok, "{pos} {mv}: {:?}", e.reason);
                }
            }
            if pos.is_over() {
                break;
            }
        }
        Ok(())
    })();
    check_against_reference(&pos, &reference.pos);
    let finals = [Side::South, Side::North].map(|s| pos.final_half_seeds(s));
    match reference.pos.final_half(&rr) {
        None => assert_eq!(finals, [None, None], "{pos}"),
        Some([s, n]) => assert_eq!(finals, [Some(s), Some(n)], "{pos}"),
    }
    assert_eq!(OwarePosition::parse(rules, &pos.to_string()), Ok(pos));
    let game = OwareGame::replay(start, &played).expect("the moves played replay");
    assert_eq!(*game.position(), pos);
    if !pos.is_over() {
        assert_eq!(perft(&pos, 2), reference.pos.perft(&rr, 2), "{pos}");
    }
    result
}
