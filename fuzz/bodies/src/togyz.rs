//! Togyz Kumalak: the notations (rule sets, positions, moves, game records) and random move
//! sequences checked against the plain array reference (`mancala-reference`'s `togyz`).

use arbitrary::Unstructured;
use mancala_core::togyz::{
    perft, IllegalReason, TogyzLayout, TogyzMove, TogyzOption, TogyzPosition, TogyzRuleSet,
    TogyzRules, MAX_HOUSES, MAX_TOTAL_KUMALAKS,
};
use mancala_core::{parse_moves, GameRecord, HistoryEnd, Side};
use mancala_reference::togyz::Board;

type TogyzGame = GameRecord<TogyzPosition>;

/// Moves played at most per input by [`togyz_moves`] and replayed by [`togyz_notation`].
const MAX_PLIES: usize = 400;

/// Target `togyz_notation`: four text lines, a rule set, a position, a game record and a move
/// (TK-8, TK-9). Each must parse without panicking; whatever parses prints back to a text
/// that parses to the same value; a parsed rule set has 1..=9 houses and at most 255
/// kumalaks (TK-8.1); a parsed position has at most 255 kumalaks, is over exactly when it has
/// no legal move, and its layout builds it back; a record replays as a `GameRecord` as a plain
/// game loop plays it (the move limit applied after the ply that reaches it), up to its first
/// illegal move, the one the error names. When the rule-set line does not parse, the
/// position is read under a named rule set with the houses of its count number.
///
/// # Panics
/// When one of those properties fails.
pub fn togyz_notation(data: &[u8]) {
    let l = crate::lines(data, 4);
    let (rules_text, pos_text, record_text, move_text) = (&l[0], &l[1], &l[2], &l[3]);
    let rules = match rules_text.parse::<TogyzRules>() {
        Ok(r) => {
            assert_eq!(r.to_string().parse::<TogyzRules>(), Ok(r), "`{rules_text}`");
            assert!(
                (1..=MAX_HOUSES).contains(&r.houses()) && r.kumalaks() >= 1,
                "{r}"
            );
            assert!(r.total_kumalaks() <= MAX_TOTAL_KUMALAKS, "{r}");
            r
        }
        Err(_) => {
            let counts = pos_text.split_whitespace().next().unwrap_or("");
            let slots = counts.split(',').count() as u32;
            let h = (slots.saturating_sub(2) / 2).clamp(1, u32::from(MAX_HOUSES));
            let head = TogyzRuleSet::ALL[rules_text.len() % TogyzRuleSet::ALL.len()];
            head.rules()
                .with_size(h, 1)
                .expect("h = 1..=9 houses of one kumalak")
        }
    };
    let start = match TogyzPosition::parse(rules, pos_text) {
        Ok(p) => {
            let printed = p.to_string();
            assert_eq!(TogyzPosition::parse(rules, &printed), Ok(p), "`{pos_text}`");
            assert_eq!(TogyzPosition::from_layout(rules, &p.layout()), Ok(p), "{p}");
            assert!(p.total() <= MAX_TOTAL_KUMALAKS, "{p}");
            assert_eq!(p.is_over(), p.legal_moves().is_empty(), "{p}");
            p
        }
        Err(_) => TogyzPosition::start(rules),
    };
    match parse_moves::<TogyzPosition>(record_text) {
        Ok(moves) => {
            let moves = &moves[..moves.len().min(MAX_PLIES)];
            // The moves played one by one in a plain game loop, with the move limit (TK-6.4)
            // applied as a game record applies it: after the ply that reaches it.
            let mut pos = start;
            let mut plies = 0u32;
            let mut first_illegal = None;
            for (i, &mv) in moves.iter().enumerate() {
                match pos.play(mv) {
                    Ok(next) => {
                        plies += 1;
                        pos = next;
                        if !pos.is_over()
                            && rules.move_limit().is_some_and(|n| plies >= u32::from(n))
                        {
                            pos = pos.end_by(HistoryEnd::MoveLimit);
                        }
                    }
                    Err(e) => {
                        first_illegal = Some(i + 1);
                        assert_eq!(e.position, pos);
                        break;
                    }
                }
            }
            match (TogyzGame::replay(start, moves), first_illegal) {
                (Ok(game), None) => assert_eq!(*game.position(), pos),
                (Err(mancala_core::RecordError::Illegal { index, .. }), Some(i)) => {
                    assert_eq!(index, i)
                }
                (got, want) => panic!("replay gave {got:?}, playing one by one {want:?}"),
            }
        }
        Err(e) => assert!(e.to_string().starts_with("move "), "{e}"),
    }
    if let Ok(mv) = move_text.parse::<TogyzMove>() {
        assert_eq!(mv.to_string().parse::<TogyzMove>(), Ok(mv), "`{move_text}`");
    }
}

/// Arbitrary rules: a named head, a board size (h = 1..=9, s with 2·h·s ≤ 255) and each
/// word option at any value of its row of [`TogyzOption::TABLE`] (no move limit: the body
/// plays whole games without a record).
pub(crate) fn arbitrary_rules(u: &mut Unstructured<'_>) -> arbitrary::Result<TogyzRules> {
    let head = TogyzRuleSet::ALL[u.choose_index(TogyzRuleSet::ALL.len())?];
    let h = u.int_in_range(1..=u32::from(MAX_HOUSES))?;
    let s = u.int_in_range(1..=MAX_TOTAL_KUMALAKS / (2 * h))?;
    let mut rules = head.rules().with_size(h, s).expect("2hs <= 255");
    for option in &TogyzOption::ALL[..4] {
        if u.arbitrary::<bool>()? {
            let word = u.choose(option.info().words)?;
            rules = rules
                .with_option(*option, word)
                .expect("a word of the table");
        }
    }
    Ok(rules)
}

/// Target `togyz_moves`: arbitrary rules, the start, then up to 400 moves, each a legal move
/// or an arbitrary house 0..=255. After every step: the packed position equals the plain
/// reference's (its notation), and so do the legal moves; the game is over exactly when no
/// move is legal; T is kept, tuzdyk houses hold 0 and the two never share a number (TK-11.3);
/// an illegal move is refused with the right [`IllegalReason`] and the position unchanged. At
/// the end perft to depth 2 agrees with the reference.
///
/// # Panics
/// When one of those properties fails.
pub fn togyz_moves(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let _ = run_togyz_moves(&mut u);
}

fn run_togyz_moves(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let rules = arbitrary_rules(u)?;
    let mut pos = TogyzPosition::start(rules);
    let mut reference = Board::start(rules);
    let total = rules.total_kumalaks();
    let result = (|| {
        for _ in 0..MAX_PLIES {
            assert_eq!(pos.to_string(), reference.notation());
            assert_eq!(pos.total(), total, "{pos}");
            let layout: TogyzLayout = pos.layout();
            for owner in Side::ALL {
                if let Some(t) = layout.tuzdyks[owner.index()] {
                    assert_eq!(pos.house(owner.opponent(), t), 0, "{pos}");
                }
            }
            assert!(layout.tuzdyks[0].is_none() || layout.tuzdyks[0] != layout.tuzdyks[1]);
            let legal: Vec<TogyzMove> = pos.legal_moves().into_iter().collect();
            assert_eq!(pos.is_over(), legal.is_empty(), "{pos}");
            let houses: Vec<usize> = legal.iter().map(|m| usize::from(m.house())).collect();
            assert_eq!(houses, reference.moves(), "{pos}");
            let mv = if !legal.is_empty() && u.ratio(3, 4)? {
                legal[u.choose_index(legal.len())?]
            } else {
                TogyzMove(u.arbitrary()?)
            };
            match pos.play(mv) {
                Ok(next) => {
                    assert!(legal.contains(&mv), "{pos}: unlisted {mv} played");
                    reference.play(usize::from(mv.house()));
                    pos = next;
                }
                Err(e) => {
                    assert!(!legal.contains(&mv), "{pos}: listed {mv} refused: {e}");
                    assert_eq!((e.mv, e.position), (mv, pos));
                    let ok = match e.reason {
                        IllegalReason::GameOver => pos.is_over(),
                        IllegalReason::NoSuchHouse { house, houses } => {
                            house == mv.house() && houses == rules.houses()
                        }
                        IllegalReason::EmptyHouse(house) => {
                            let side = pos.side_to_move().unwrap_or(Side::South);
                            house == mv.house() && pos.house(side, house) == 0
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
    assert_eq!(pos.to_string(), reference.notation());
    if !pos.is_over() {
        assert_eq!(perft(&pos, 2), reference.perft(2), "{pos}");
    }
    result
}
