//! Bao la Kete: the notations (rule sets, positions, moves) and random move sequences checked
//! against the invariants and the seed-by-seed reference.

use arbitrary::Unstructured;
use mancala_core::bao::{
    BaoLayout, BaoMove, BaoOption, BaoPosition, BaoRules, Direction, Kichwa, KuuChoice, Pit,
    MAX_BLOCK_DURATION, TOTAL_SEEDS,
};
use mancala_core::Side;

/// Moves played at most per input by [`bao_moves`].
const MAX_PLIES: usize = 60;
/// Lap cap used when a rule set asks for more: a never-ending move is then found after at most
/// this many laps, which bounds the time one input can take (the cap itself is exercised).
const MAX_LAP_CAP: u32 = 2_000;

/// Target `bao_notation`: the input is three text lines, a rule set, a position and a move.
/// Each must parse without panicking; what parses must print back to a text that parses to
/// the same value. A parsed position (under the parsed rules, or the Lamu defaults when the
/// rules line does not parse) must hold the invariants (64 seeds, a standing kuu holds at
/// least 6) and every legal move must play and keep them; a parsed move must be refused
/// with the position unchanged exactly when it is not among the legal moves.
///
/// # Panics
/// When one of those properties fails.
pub fn bao_notation(data: &[u8]) {
    let l = crate::lines(data, 3);
    let (rules_text, pos_text, move_text) = (&l[0], &l[1], &l[2]);
    let rules = match rules_text.parse::<BaoRules>() {
        Ok(r) => {
            let printed = r.to_string();
            assert_eq!(printed.parse::<BaoRules>(), Ok(r), "rules `{rules_text}`");
            bounded(r)
        }
        Err(_) => BaoRules::LAMU,
    };
    let pos = match BaoPosition::parse(rules, pos_text) {
        Ok(p) => {
            let printed = p.to_string();
            assert_eq!(
                BaoPosition::parse(rules, &printed),
                Ok(p),
                "position `{pos_text}` printed as `{printed}`"
            );
            check_invariants(&p);
            for mv in p.legal_moves() {
                let q = p
                    .play(mv)
                    .unwrap_or_else(|e| panic!("{p}: listed move {mv} refused: {e}"));
                check_invariants(&q);
            }
            p
        }
        Err(_) => BaoPosition::start(rules),
    };
    if let Ok(mv) = move_text.parse::<BaoMove>() {
        assert_eq!(
            mv.to_string().parse::<BaoMove>(),
            Ok(mv),
            "move `{move_text}`"
        );
        check_move(&pos, mv, &pos.legal_moves().into_iter().collect::<Vec<_>>());
    }
}

/// `r` with its lap cap lowered to [`MAX_LAP_CAP`] (bounds the work of one input).
fn bounded(r: BaoRules) -> BaoRules {
    if r.lap_cap() > MAX_LAP_CAP {
        r.with_lap_cap(MAX_LAP_CAP).expect("a positive cap")
    } else {
        r
    }
}

/// 64 seeds, a standing kuu holds at least 6 (K-4.1, K-9, the Lamu six-seed rule), the block
/// state fits the rules, the notation round-trips.
fn check_invariants(p: &BaoPosition) {
    assert_eq!(p.total_seeds(), TOTAL_SEEDS, "K-4.1 in {p}");
    for side in Side::ALL {
        if p.kuu_stands(side) {
            assert!(p.seeds(side, Pit::KUU) >= 6, "K-9 in {p}");
        }
    }
    assert!(
        p.block_turns_left() < p.rules().block_duration(),
        "A8 in {p}"
    );
    if p.reserved().is_none() {
        assert_eq!(p.block_turns_left(), 0, "{p}");
    }
    let text = p.to_string();
    assert_eq!(BaoPosition::parse(p.rules(), &text), Ok(*p), "{text}");
    assert_eq!(BaoPosition::new(p.rules(), &p.layout()), Ok(*p), "{text}");
}

/// `mv` on `p`: played exactly when listed, with the turn passing and the invariants kept;
/// refused with `p` unchanged otherwise. Returns the position after it, if played.
fn check_move(p: &BaoPosition, mv: BaoMove, legal: &[BaoMove]) -> Option<BaoPosition> {
    let before = *p;
    match p.play(mv) {
        Ok(q) => {
            assert!(legal.contains(&mv), "{p}: unlisted {mv} played");
            check_invariants(&q);
            assert_ne!(q.to_move(), p.to_move(), "{p} {mv}: the turn did not pass");
            Some(q)
        }
        Err(e) => {
            assert!(!legal.contains(&mv), "{p}: listed {mv} refused: {e}");
            assert_eq!(
                (e.mv, e.position),
                (mv, before),
                "{p} {mv}: position changed"
            );
            assert_eq!(*p, before);
            None
        }
    }
}

/// Target `bao_moves`: arbitrary rules (every option; lap cap and setup from the input),
/// the start or an arbitrary valid position, then up to 60 (`MAX_PLIES`) moves, each a legal one
/// or an arbitrary one of the 432 syntactically possible moves. After every step: 64 seeds, a
/// standing kuu holds at least 6, the notation round-trips, the legal moves are exactly the
/// moves `play` accepts, the game is over exactly when there is none, a legal move gives the
/// board of the seed-by-seed reference, an illegal one is refused with the position
/// unchanged.
///
/// # Panics
/// When one of those properties fails.
pub fn bao_moves(data: &[u8]) {
    let mut u = Unstructured::new(data);
    // Running out of bytes just ends the game early.
    let _ = run_bao_moves(&mut u);
}

/// Rules with each option of the option table (`BaoOption::TABLE`, so that a new option is
/// drawn too) set in a quarter of the inputs, to a value drawn by the shape of the values the
/// notation takes for it ([`arbitrary_value`]).
pub(crate) fn arbitrary_rules(u: &mut Unstructured<'_>) -> arbitrary::Result<BaoRules> {
    let mut text = String::from(BaoRules::NAME);
    for (_, name) in BaoOption::TABLE {
        if u.ratio(1, 4)? {
            if let Some(value) = arbitrary_value(u, name)? {
                text.push_str(&format!("+{name}={value}"));
            }
        }
    }
    let rules: BaoRules = text
        .parse()
        .unwrap_or_else(|e| panic!("valid rule set `{text}` refused: {e}"));
    Ok(bounded(rules))
}

/// Whether the notation takes `value` for the option `name` (on the Lamu defaults).
fn accepts(name: &str, value: &str) -> bool {
    format!("{}+{name}={value}", BaoRules::NAME)
        .parse::<BaoRules>()
        .is_ok()
}

/// The word values [`arbitrary_value`] tries on every option: the sides' letters
/// ([`Side::letter`]), the safari rules, on/off.
fn words() -> Vec<String> {
    let mut w: Vec<String> = Side::ALL.iter().map(|s| s.letter().to_string()).collect();
    w.extend(["forced", "choice", "on", "off"].map(String::from));
    w
}

/// Whether the option `name` takes a value of a shape [`arbitrary_value`] draws from (a
/// setup, a number, a word of [`words`]).
#[cfg(test)]
fn known_shape(name: &str) -> bool {
    accepts(name, "6,2,2,22")
        || [MAX_LAP_CAP, 64, 8, 4, 1]
            .into_iter()
            .any(|n| accepts(name, &n.to_string()))
        || words().iter().any(|w| accepts(name, w))
}

/// A value for the option `name`, drawn by the shape of the values the notation takes for
/// it: a setup (any split of 32 seeds with a kuu of 6 or more), a number (1 up to the
/// largest of [`MAX_LAP_CAP`], 64, 8, 4 it takes), or one of the words it takes (sides, the
/// safari rules, on/off). For an option of none of these shapes (one added to the table
/// later) a short text from the input, kept when the notation takes it; `None` when it does
/// not (the test `every_option_has_a_known_shape` names such an option).
fn arbitrary_value(u: &mut Unstructured<'_>, name: &str) -> arbitrary::Result<Option<String>> {
    if accepts(name, "6,2,2,22") {
        let kuu = u.int_in_range(6..=32u8)?;
        let f6 = u.int_in_range(0..=32 - kuu)?;
        let f7 = u.int_in_range(0..=32 - kuu - f6)?;
        let reserve = 32 - kuu - f6 - f7;
        return Ok(Some(format!("{kuu},{f6},{f7},{reserve}")));
    }
    if let Some(max) = [MAX_LAP_CAP, 64, 8, 4, 1]
        .into_iter()
        .find(|n| accepts(name, &n.to_string()))
    {
        return Ok(Some(u.int_in_range(1..=max)?.to_string()));
    }
    let words: Vec<String> = words().into_iter().filter(|w| accepts(name, w)).collect();
    if words.is_empty() {
        let len = u.int_in_range(0..=12usize)?;
        let text: String = std::str::from_utf8(u.bytes(len)?)
            .unwrap_or("")
            .chars()
            .filter(|c| !matches!(c, '+' | '='))
            .collect();
        return Ok(accepts(name, &text).then_some(text));
    }
    Ok(Some(u.choose(&words)?.clone()))
}

fn arbitrary_position(u: &mut Unstructured<'_>, rules: BaoRules) -> arbitrary::Result<BaoPosition> {
    if u.ratio(1, 2)? {
        return Ok(BaoPosition::start(rules));
    }
    // 32 pits and 2 reserves; 64 seeds dropped one at a time.
    let mut slots = [0u8; 34];
    for _ in 0..TOTAL_SEEDS {
        slots[u.choose_index(34)?] += 1;
    }
    let mut layout = BaoLayout {
        front: [[0; 8]; 2],
        back: [[0; 8]; 2],
        reserve: [slots[32], slots[33]],
        kuu: [u.arbitrary()?, u.arbitrary()?],
        to_move: if u.arbitrary()? {
            Side::North
        } else {
            Side::South
        },
        reserved: None,
        block_turns_left: 0,
    };
    for s in 0..2 {
        layout.front[s].copy_from_slice(&slots[16 * s..16 * s + 8]);
        layout.back[s].copy_from_slice(&slots[16 * s + 8..16 * s + 16]);
    }
    if u.ratio(1, 4)? {
        let owner = if u.arbitrary()? {
            Side::North
        } else {
            Side::South
        };
        // A front pit 1..=8; turns left within the longest block the rules allow.
        layout.reserved = Some((owner, u.int_in_range(1..=8u8)?));
        layout.block_turns_left = u.int_in_range(0..=MAX_BLOCK_DURATION - 1)?;
    }
    Ok(BaoPosition::new(rules, &layout).unwrap_or_else(|_| BaoPosition::start(rules)))
}

fn arbitrary_move(u: &mut Unstructured<'_>) -> arbitrary::Result<BaoMove> {
    let pit = *u.choose(&Pit::ALL)?;
    let directions: Vec<Option<Direction>> = std::iter::once(None)
        .chain(Direction::ALL.map(Some))
        .collect();
    let direction = *u.choose(&directions)?;
    let kichwa = *u.choose(&[None, Some(Kichwa::Left), Some(Kichwa::Right)])?;
    let kuu = *u.choose(&[None, Some(KuuChoice::Stop), Some(KuuChoice::Safari)])?;
    Ok(BaoMove {
        pit,
        direction,
        kichwa,
        kuu,
    })
}

fn run_bao_moves(u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
    let rules = arbitrary_rules(u)?;
    let mut pos = arbitrary_position(u, rules)?;
    check_invariants(&pos);
    for _ in 0..MAX_PLIES {
        let legal: Vec<BaoMove> = pos.legal_moves().into_iter().collect();
        assert_eq!(pos.is_over(), legal.is_empty(), "{pos}");
        for &mv in &legal {
            assert_eq!(mv.to_string().parse::<BaoMove>(), Ok(mv));
        }
        let mv = if !legal.is_empty() && u.ratio(3, 4)? {
            legal[u.choose_index(legal.len())?]
        } else {
            arbitrary_move(u)?
        };
        if legal.contains(&mv) {
            if let Err(why) = mancala_reference::bao::agrees(&pos, mv) {
                panic!("packed vs reference: {why}");
            }
        }
        if let Some(next) = check_move(&pos, mv, &legal) {
            pos = next;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every option of the library's table takes a value of a shape the body draws, so that
    /// [`bao_moves`] sets every option; an option added with values of a new shape fails here
    /// (teach [`arbitrary_value`] its shape) instead of being left at its default unnoticed.
    #[test]
    fn every_option_has_a_known_shape() {
        for (_, name) in BaoOption::TABLE {
            assert!(known_shape(name), "option `{name}`: no value shape drawn");
        }
    }
}
