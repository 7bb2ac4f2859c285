//! Kalah: the notations (rule sets, positions, moves, game records) and random move sequences
//! checked against the plain array reference.

use arbitrary::Unstructured;
use mancala_core::kalah::{
    perft, IllegalReason, KalahMove, KalahOption, KalahOptions, KalahPosition, KalahRules,
    MAX_HOUSES, MAX_TOTAL_SEEDS,
};
use mancala_core::{GameRecord, Side};

type KalahGame = GameRecord<KalahPosition>;
type RecordError = mancala_core::RecordError<KalahPosition>;

fn parse_moves(text: &str) -> Result<Vec<KalahMove>, RecordError> {
    mancala_core::parse_moves::<KalahPosition>(text)
}

use mancala_reference::kalah::{RefPos, RefRules};

/// Moves played at most per input by [`kalah_moves`] (a game of Kalah(7,18) is far shorter).
const MAX_PLIES: usize = 400;
/// Moves of a record replayed at most per input by [`kalah_notation`].
const MAX_RECORD: usize = 400;

/// Target `kalah_notation`: the input is four text lines, a rule set, a position, a game
/// record and a move. Each must parse without panicking; whatever parses must print back to
/// a text that parses to the same value; a parsed position must be playable (every listed
/// move plays); a record must replay up to its first illegal move, which must be the one the
/// error names. When the rule-set line does not parse, the position is read under the rules
/// of its slot count (Kalah(m,1), options from the line's length) so positions still get
/// exercised.
///
/// # Panics
/// When one of those properties fails.
pub fn kalah_notation(data: &[u8]) {
    let l = crate::lines(data, 4);
    let (rules_text, pos_text, record_text, move_text) = (&l[0], &l[1], &l[2], &l[3]);

    let rules = match rules_text.parse::<KalahRules>() {
        Ok(r) => {
            let printed = r.to_string();
            assert_eq!(printed.parse::<KalahRules>(), Ok(r), "rules `{rules_text}`");
            assert!(
                (1..=MAX_HOUSES).contains(&r.houses()) && r.seeds() >= 1,
                "{r}"
            );
            assert!(
                2 * u32::from(r.houses()) * u32::from(r.seeds()) <= MAX_TOTAL_SEEDS,
                "{r}"
            );
            r
        }
        Err(_) => {
            let counts = pos_text.split_whitespace().next().unwrap_or("");
            let slots = counts.split(',').count() as u32;
            let m = (slots.saturating_sub(2) / 2).clamp(1, u32::from(MAX_HOUSES));
            let bits = (rules_text.len() % (1 << KalahOption::TABLE.len())) as u8;
            let options = KalahOptions::from_bits(bits).expect("a bit a row of the option table");
            KalahRules::new(m, 1, options).expect("kalah(m,1) is valid for m = 1..=MAX_HOUSES")
        }
    };

    let start = match KalahPosition::parse(rules, pos_text) {
        Ok(p) => {
            let printed = p.to_string();
            assert_eq!(
                KalahPosition::parse(rules, &printed),
                Ok(p),
                "position `{pos_text}` printed as `{printed}`"
            );
            assert!(p.total_seeds() <= MAX_TOTAL_SEEDS, "{p}");
            assert_eq!(p.is_over(), p.legal_moves().is_empty(), "{p}");
            for mv in p.legal_moves() {
                assert!(p.play(mv).is_ok(), "{p}: listed move {mv} refused");
            }
            p
        }
        Err(_) => KalahPosition::start(rules),
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
        Err(RecordError::Parse { index, source: _ }) => {
            let bad = record_text
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
                .nth(index - 1)
                .expect("the error names an existing move");
            assert!(bad.parse::<KalahMove>().is_err(), "`{bad}` does parse");
        }
        Err(e @ RecordError::Illegal { .. }) => panic!("parse_moves judged legality: {e}"),
    }

    if let Ok(mv) = move_text.parse::<KalahMove>() {
        assert_eq!(
            mv.to_string().parse::<KalahMove>(),
            Ok(mv),
            "move `{move_text}`"
        );
    }
}

/// `GameRecord::replay` against playing the moves one by one.
fn check_replay(start: KalahPosition, moves: &[KalahMove]) {
    let mut pos = start;
    let mut first_illegal = None;
    for (i, &mv) in moves.iter().enumerate() {
        match pos.play(mv) {
            Ok(next) => pos = next,
            Err(e) => {
                first_illegal = Some((i + 1, e));
                break;
            }
        }
    }
    match (KalahGame::replay(start, moves), first_illegal) {
        (Ok(game), None) => {
            assert_eq!(*game.position(), pos);
            assert_eq!(game.moves(), moves);
            assert_eq!(game.positions().len(), moves.len() + 1);
            let swaps = moves.iter().filter(|&&m| m == KalahMove::Swap).count();
            assert_eq!(game.swapped(), swaps % 2 == 1);
        }
        (Err(RecordError::Illegal { index, source }), Some((i, e))) => {
            assert_eq!((index, source), (i, e));
        }
        (got, expected) => panic!("replay gave {got:?}, playing one by one {expected:?}"),
    }
}

/// The reference position for a library position (flags read from it).
fn reference_of(p: &KalahPosition) -> RefPos {
    let rules = RefRules::of(p.rules());
    let mut slots = [0u8; 16];
    for (i, &c) in p.slots().iter().enumerate() {
        slots[i] = c;
    }
    RefPos {
        rules,
        slots,
        to_move: match p.side_to_move() {
            Some(Side::North) => 1,
            _ => 0,
        },
        over: p.is_over(),
        swap_offered: p.swap_offered(),
        first_move: p.is_first_move(),
        opening: p.in_opening_turn(),
    }
}

fn ref_move(mv: KalahMove) -> usize {
    match mv {
        KalahMove::House(h) => usize::from(h),
        KalahMove::Swap => 0,
    }
}

/// Target `kalah_moves`: arbitrary rules (m = 1..=7, any n with 2mn ≤ 255, any options), a
/// start or an arbitrary valid position, then up to 400 (`MAX_PLIES`) moves, each either a legal
/// move or an arbitrary one (house 0..=255 or `swap`). After every step: the packed board
/// equals the plain reference (board, side, flags), the legal moves agree with the
/// reference's, seeds are conserved (only `discard_remaining` loses seeds, at the end), every
/// legal move plays (also through `play_unchecked` and `for_each_child`, with the same
/// result) and every illegal move is refused with the right reason and the position
/// unchanged; the notation round-trips. At the end the game replays as a record and perft to
/// depth 2 agrees with the reference.
///
/// # Panics
/// When one of those properties fails.
pub fn kalah_moves(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // Running out of bytes just ends the game early.
    let _ = run_kalah_moves(&mut u);
}

fn arbitrary_position(
    u: &mut Unstructured<'_>,
    rules: KalahRules,
) -> arbitrary::Result<KalahPosition> {
    if u.arbitrary::<bool>()? {
        return Ok(KalahPosition::start(rules));
    }
    let m = usize::from(rules.houses());
    let mut slots = [0u8; 2 * MAX_HOUSES as usize + 2];
    let mut left = MAX_TOTAL_SEEDS;
    for s in slots.iter_mut().take(2 * m + 2) {
        let c = u.int_in_range(0..=left.min(40))?;
        *s = c as u8;
        left -= c;
    }
    let side = match u.int_in_range(0..=2u8)? {
        0 => Some(Side::South),
        1 => Some(Side::North),
        _ => None,
    };
    let swap = u.ratio(1, 4)?;
    Ok(KalahPosition::new(rules, &slots[..2 * m + 2], side, swap)
        .unwrap_or_else(|_| KalahPosition::start(rules)))
}

fn run_kalah_moves(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let m = u.int_in_range(1..=u32::from(MAX_HOUSES))?;
    let n = u.int_in_range(1..=MAX_TOTAL_SEEDS / (2 * m))?;
    // Any subset of the options of the option table (bit i: `KalahOption::ALL[i]`, the
    // table's row i).
    let every = ((1u16 << KalahOption::TABLE.len()) - 1) as u8;
    let options = KalahOptions::from_bits(u.int_in_range(0..=every)?)
        .expect("a bit a row of the option table");
    let rules = KalahRules::new(m, n, options).expect("2mn <= MAX_TOTAL_SEEDS");
    let start = arbitrary_position(u, rules)?;
    let discard = rules.has(KalahOption::DiscardRemaining);
    let total = start.total_seeds();
    let mut pos = start;
    let mut reference = reference_of(&pos);
    let mut played = Vec::new();
    let result = (|| {
        for ply in 0..MAX_PLIES {
            check_position(&pos, &reference, total, discard, ply == 0);
            let legal: Vec<KalahMove> = pos.legal_moves().into_iter().collect();
            let mv = if !legal.is_empty() && u.ratio(3, 4)? {
                legal[u.choose_index(legal.len())?]
            } else if u.ratio(1, 8)? {
                KalahMove::Swap
            } else {
                KalahMove::House(u.arbitrary()?)
            };
            match pos.play(mv) {
                Ok(next) => {
                    assert!(legal.contains(&mv), "{pos}: unlisted {mv} played");
                    assert_eq!(pos.check(mv), Ok(()));
                    assert_eq!(pos.play_unchecked(mv), next, "{pos} {mv}");
                    reference = reference.play(ref_move(mv));
                    pos = next;
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
                    let expected = match mv {
                        _ if pos.is_over() => IllegalReason::GameOver,
                        KalahMove::Swap => IllegalReason::SwapNotOffered,
                        KalahMove::House(h) if h == 0 || h > rules.houses() => {
                            IllegalReason::NoSuchHouse {
                                house: h,
                                houses: rules.houses(),
                            }
                        }
                        KalahMove::House(h) => IllegalReason::EmptyHouse(h),
                    };
                    assert_eq!(e.reason, expected, "{pos} {mv}");
                }
            }
        }
        Ok(())
    })();
    check_position(&pos, &reference, total, discard, true);
    let game = KalahGame::replay(start, &played).expect("the moves played replay");
    assert_eq!(*game.position(), pos);
    assert_eq!(perft(&pos, 2), reference.perft(2), "perft 2 of {pos}");
    result
}

/// One position against its reference and the invariants (the board compared slot by slot;
/// the notation only when `notation`, it allocates).
fn check_position(
    pos: &KalahPosition,
    reference: &RefPos,
    total: u32,
    discard: bool,
    notation: bool,
) {
    let slots = pos.slots();
    let m = usize::from(pos.rules().houses());
    let side = pos.side_to_move().map(|s| s.index());
    let expected_side = (!reference.over).then_some(reference.to_move);
    if slots[..] != reference.slots[..2 * m + 2] || side != expected_side {
        panic!("packed {pos} vs reference {}", reference.notation());
    }
    assert_eq!(
        (
            pos.is_over(),
            pos.swap_offered(),
            pos.is_first_move(),
            pos.in_opening_turn()
        ),
        (
            reference.over,
            reference.swap_offered,
            reference.first_move,
            reference.opening
        ),
        "flags of {pos}"
    );
    if pos.is_over() && discard {
        assert!(pos.total_seeds() <= total, "{pos}: seeds appeared");
    } else {
        assert_eq!(pos.total_seeds(), total, "{pos}: seeds not conserved");
    }
    let mut legal: Vec<KalahMove> = pos.legal_moves().into_iter().collect();
    let mut expected: Vec<KalahMove> = reference
        .moves()
        .into_iter()
        .map(|h| {
            if h == 0 {
                KalahMove::Swap
            } else {
                KalahMove::House(h as u8)
            }
        })
        .collect();
    legal.sort();
    expected.sort();
    assert_eq!(legal, expected, "legal moves of {pos}");
    assert_eq!(pos.is_over(), legal.is_empty(), "{pos}");
    let mut children = Vec::new();
    pos.for_each_child(|mv, child| children.push((mv, child)));
    assert_eq!(children.len(), legal.len(), "children of {pos}");
    for (mv, child) in children {
        assert_eq!(pos.play(mv), Ok(child), "{pos}: child {mv}");
    }
    if notation {
        let text = pos.to_string();
        assert_eq!(text, reference.notation(), "packed vs reference");
        let again = KalahPosition::parse(pos.rules(), &text).expect("printed positions parse");
        assert_eq!(again.to_string(), text);
    }
}

/// A valid Kalah rule set: one of the named sets, or `kalah(m,n)` within [`KalahRules::new`]'s
/// bounds with any subset of [`KalahOption::TABLE`] (so an option added to the table is
/// offered without an edit here).
pub(crate) fn arbitrary_rules(u: &mut Unstructured<'_>) -> arbitrary::Result<KalahRules> {
    let named = [KalahRules::standard(), KalahRules::manchester()];
    if u.ratio(1, 4)? {
        Ok(*u.choose(&named)?)
    } else {
        let m = u.int_in_range(1..=u32::from(MAX_HOUSES))?;
        let n = u.int_in_range(1..=MAX_TOTAL_SEEDS / (2 * m))?;
        let every = (1u16 << KalahOption::TABLE.len()) - 1;
        let bits = u8::try_from(u.int_in_range(0..=every)?).expect("options fit a byte");
        let options = KalahOptions::from_bits(bits).expect("a bit a row of the table");
        Ok(KalahRules::new(m, n, options).expect("2mn within the bound"))
    }
}
