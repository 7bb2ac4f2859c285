//! Position and move notation of Bao la Kete (`docs/notation.md`, "Bao la Kete").
//!
//! # Positions
//!
//! ```text
//! 0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -
//! ```
//!
//! Five fields separated by white space:
//! 1. four rows separated by `/`, each eight counts separated by `,` and listed from the
//!    row owner's left: South front `F1..F8`, South back `B1..B8`, North front `f1..f8`,
//!    North back `b1..b8` (K-3.2);
//! 2. the reserves `south,north`;
//! 3. the kuus still standing: `SN`, `S`, `N` or `-`;
//! 4. the side to move, `S` or `N` (in a finished game, the side that lost);
//! 5. the pit reserved by hizi zetu, `-` or a front pit written with its owner's letter case:
//!    `F1..F8` for South's, `f1..f8` for North's (decision 10).
//!
//!    **Extension for a longer block** (rules option `block_duration` > 1, K-8.4, A8): when
//!    blocked turns of the owner are still to come after the current turn
//!    ([`BaoPosition::block_turns_left`] `n` ≥ 1), the pit is followed by `:n`, e.g. `f4:2`
//!    (North's f4 is reserved; after the current turn, two more of North's turns are
//!    blocked). `n` = 0 is never written, so under the default `block_duration=1` (where it
//!    is always 0) the notation is exactly the one above. `:0` is refused, so that every
//!    position has one text.
//!
//! The rules are not part of the text: [`BaoPosition::parse`] takes them, `FromStr` uses the
//! Lamu defaults.
//!
//! # Moves
//!
//! ```text
//! move      = pit [direction] [kichwa] [kuu-choice]
//! pit       = ("F" | "B") digit 1–8           the mover's own pit (K-3.2), any case
//! direction = ">" clockwise | "<" anticlockwise   (K-3.6)
//! kichwa    = "L" | "R"                       first central capture of a nemo move (K-6.4)
//! kuu-choice= "+" safari | "." stop           capturing lap ending in the kuu (K-7.5, K-8.3b)
//! ```
//!
//! Examples: `F6>` (sow F6 clockwise), `F3L+` (nemo capture at F3, captured seeds from the
//! left kichwa, safari at the kuu), `F4` (a nemo capture with no choice, e.g. one that wins at
//! once, decision 9). Printing then parsing gives the same move; parsing never panics.

use core::fmt;
use core::str::FromStr;

use super::error::{MoveParseError, PositionError};
use super::moves::{BaoMove, Direction, Kichwa, KuuChoice, Pit};
use super::position::{BaoLayout, BaoPosition};
use super::rules::BaoRules;
use crate::Side;

impl fmt::Display for Pit {
    /// `F1..F8` or `B1..B8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = if self.is_front() { 'F' } else { 'B' };
        write!(f, "{row}{}", self.number())
    }
}

impl fmt::Display for BaoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pit)?;
        if let Some(d) = self.direction {
            write!(f, "{}", d.symbol())?;
        }
        if let Some(k) = self.kichwa {
            write!(f, "{}", k.letter())?;
        }
        if let Some(c) = self.kuu {
            write!(f, "{}", c.symbol())?;
        }
        Ok(())
    }
}

impl FromStr for BaoMove {
    type Err = MoveParseError;

    /// Parses the move grammar of the module docs; surrounding white space is ignored, and
    /// the letters (`F`, `B`, `L`, `R`) are read in any ASCII case (`f6>` is `F6>`: a move's
    /// pit is always the mover's own). `Display` writes them in upper case.
    ///
    /// # Errors
    /// [`MoveParseError`] for any text outside the grammar.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let err = || MoveParseError(t.chars().take(100).collect());
        let b = t.as_bytes();
        if b.len() < 2 || b.len() > 5 {
            return Err(err());
        }
        let k = match b[1] {
            d @ b'1'..=b'8' => d - b'0',
            _ => return Err(err()),
        };
        // The row letter and the kichwa in any ASCII case (`docs/notation.md`, "Letter
        // case"): a move's pit is always the mover's own, so `f6>` can only mean `F6>`.
        let pit = match b[0] {
            b'F' | b'f' => Pit::front(k),
            b'B' | b'b' => Pit::back(k),
            _ => None,
        }
        .ok_or_else(err)?;
        let mut mv = BaoMove {
            pit,
            direction: None,
            kichwa: None,
            kuu: None,
        };
        let mut rest = &b[2..];
        if let Some((&c, r)) = rest.split_first() {
            let d = match c {
                b'>' => Some(Direction::Clockwise),
                b'<' => Some(Direction::Anticlockwise),
                _ => None,
            };
            if d.is_some() {
                mv.direction = d;
                rest = r;
            }
        }
        if let Some((&c, r)) = rest.split_first() {
            let k = match c {
                b'L' | b'l' => Some(Kichwa::Left),
                b'R' | b'r' => Some(Kichwa::Right),
                _ => None,
            };
            if k.is_some() {
                mv.kichwa = k;
                rest = r;
            }
        }
        if let Some((&c, r)) = rest.split_first() {
            let k = match c {
                b'+' => Some(KuuChoice::Safari),
                b'.' => Some(KuuChoice::Stop),
                _ => None,
            };
            if k.is_some() {
                mv.kuu = k;
                rest = r;
            }
        }
        if rest.is_empty() {
            Ok(mv)
        } else {
            Err(err())
        }
    }
}

/// The longest position notation of any Bao la Kete position this library accepts, in bytes
/// (UTF-8, no NUL): 83, e.g. six counts of 10 (two of them standing kuus), both kuus standing
/// (`SN`) and a reserved pit with 7 blocked turns to come (`f2:7`, under
/// `block_duration=8`). Under the Lamu default rules (no `:n`) it is 81.
///
/// Derived from the grammar (module docs) and the limits of [`BaoPosition::new`]: 34 counts
/// (32 pits, 2 reserves) summing to [`TOTAL_SEEDS`] (64), so at most 6 of them with two
/// digits: 40 digits; 28 commas within the rows, 3 `/`, the comma between the reserves, 4
/// spaces between the fields, the kuus (`SN`, 2 bytes), the side (1 byte) and the reserved
/// pit (`f8`, 2 bytes, and `:n`, 2 more, when [`MAX_BLOCK_DURATION`] allows `n` ≥ 1).
///
/// [`TOTAL_SEEDS`]: super::rules::TOTAL_SEEDS
/// [`MAX_BLOCK_DURATION`]: super::rules::MAX_BLOCK_DURATION
pub const NOTATION_MAX_BYTES: usize = {
    let digits = crate::max_count_digits(34, super::rules::TOTAL_SEEDS, 64);
    let blocked = if super::rules::MAX_BLOCK_DURATION > 1 {
        2
    } else {
        0
    };
    (digits + 28 + 3 + 1 + 4 + 2 + 1 + 2 + blocked) as usize
};

fn write_row(f: &mut fmt::Formatter<'_>, row: &[u8; 8]) -> fmt::Result {
    for (i, v) in row.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        write!(f, "{v}")?;
    }
    Ok(())
}

impl fmt::Display for BaoPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = self.layout();
        write_row(f, &l.front[0])?;
        f.write_str("/")?;
        write_row(f, &l.back[0])?;
        f.write_str("/")?;
        write_row(f, &l.front[1])?;
        f.write_str("/")?;
        write_row(f, &l.back[1])?;
        write!(f, " {},{} ", l.reserve[0], l.reserve[1])?;
        f.write_str(match l.kuu {
            [true, true] => "SN",
            [true, false] => "S",
            [false, true] => "N",
            [false, false] => "-",
        })?;
        write!(f, " {} ", l.to_move.letter())?;
        match l.reserved {
            None => f.write_str("-")?,
            Some((Side::South, k)) => write!(f, "F{k}")?,
            Some((Side::North, k)) => write!(f, "f{k}")?,
        }
        if l.block_turns_left > 0 {
            write!(f, ":{}", l.block_turns_left)?;
        }
        Ok(())
    }
}

fn parse_count(t: &str) -> Result<u8, PositionError> {
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::BadCount(t.chars().take(20).collect()));
    }
    match t.parse::<u8>() {
        Ok(v) if v <= 64 => Ok(v),
        _ => Err(PositionError::BadCount(t.to_string())),
    }
}

fn parse_row(t: &str, syntax: &dyn Fn() -> PositionError) -> Result<[u8; 8], PositionError> {
    let mut row = [0u8; 8];
    let mut n = 0;
    for part in t.split(',') {
        if n == 8 {
            return Err(syntax());
        }
        row[n] = parse_count(part)?;
        n += 1;
    }
    if n != 8 {
        return Err(syntax());
    }
    Ok(row)
}

impl BaoPosition {
    /// Parses the position notation (module docs) under `rules`. The kuus and the side to
    /// move are read in any ASCII case (`sn s`); the reserved pit is read as written, its
    /// letter case naming its owner (`F4` South's, `f4` North's). Never panics.
    ///
    /// # Errors
    /// [`PositionError::Syntax`] for the wrong shape, [`PositionError::BadCount`] for a count
    /// that is not 0..=64, and every error of [`BaoPosition::new`].
    pub fn parse(rules: BaoRules, text: &str) -> Result<BaoPosition, PositionError> {
        let syntax = || PositionError::Syntax(text.chars().take(200).collect());
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(syntax());
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != 4 {
            return Err(syntax());
        }
        let mut r = [[0u8; 8]; 4];
        for (slot, row) in r.iter_mut().zip(&rows) {
            *slot = parse_row(row, &syntax)?;
        }
        let (rs, rn) = fields[1].split_once(',').ok_or_else(syntax)?;
        let reserve = [parse_count(rs)?, parse_count(rn)?];
        // The kuus and the side in any ASCII case (`sn`, `n`); the reserved pit's letter case
        // is its owner, so that field alone is read as written.
        let kuu = match fields[2].to_ascii_uppercase().as_str() {
            "SN" => [true, true],
            "S" => [true, false],
            "N" => [false, true],
            "-" => [false, false],
            _ => return Err(syntax()),
        };
        let to_move = match fields[3] {
            "S" | "s" => Side::South,
            "N" | "n" => Side::North,
            _ => return Err(syntax()),
        };
        // `F4`, `f4`, or with blocked turns to come `f4:2` (1..=7, never `:0`).
        let (reserved, block_turns_left) = match fields[4].as_bytes() {
            b"-" => (None, 0),
            [row @ (b'F' | b'f'), d @ b'1'..=b'8', rest @ ..] => {
                let owner = if *row == b'F' {
                    Side::South
                } else {
                    Side::North
                };
                let left = match rest {
                    [] => 0,
                    [b':', n @ b'1'..=b'7'] => n - b'0',
                    _ => return Err(syntax()),
                };
                (Some((owner, d - b'0')), left)
            }
            _ => return Err(syntax()),
        };
        BaoPosition::new(
            rules,
            &BaoLayout {
                front: [r[0], r[2]],
                back: [r[1], r[3]],
                reserve,
                kuu,
                to_move,
                reserved,
                block_turns_left,
            },
        )
    }
}

impl FromStr for BaoPosition {
    type Err = PositionError;

    /// [`BaoPosition::parse`] under the Lamu default rules ([`BaoRules::LAMU`]).
    ///
    /// # Errors
    /// As [`BaoPosition::parse`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BaoPosition::parse(BaoRules::LAMU, s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip() {
        for t in ["F1>", "B8<", "F3L+", "F3R.", "F4", "F2>+", "B1>.", "F6R"] {
            let m: BaoMove = t.parse().unwrap();
            assert_eq!(m.to_string(), t);
        }
        for m in BaoMove::all_raw() {
            assert_eq!(m.to_string().parse::<BaoMove>(), Ok(m));
        }
    }

    #[test]
    fn bad_moves_are_refused() {
        for t in [
            "", "F", "F0", "F9", "g4>", "G1", "F1>>", "F1+L", "F1L>", "F1 >", "F12", "F1>L+x",
        ] {
            assert!(t.parse::<BaoMove>().is_err(), "{t}");
        }
        // Letters in any case (docs/notation.md, "Letter case"): a move's pit is the mover's.
        assert_eq!("f4>".parse::<BaoMove>(), "F4>".parse::<BaoMove>());
    }

    #[test]
    fn longest_notation_is_produced_and_not_exceeded() {
        // Six tens (F5 and f5 are standing kuus), four ones, every other count 0; North's f2
        // reserved with 7 blocked turns to come (South's reserve empty, as K-8.4 needs).
        let rules = BaoRules::LAMU.with_block_duration(8).unwrap();
        let text =
            "0,0,0,0,10,10,1,1/10,0,0,0,0,0,0,0/0,0,0,0,10,10,1,1/10,0,0,0,0,0,0,0 0,0 SN S f2:7";
        let p = BaoPosition::parse(rules, text).unwrap();
        assert_eq!(p.to_string(), text);
        assert_eq!(text.len(), NOTATION_MAX_BYTES);
        // The Lamu default rules: no `:n`, two bytes less.
        let lamu = text.replace("f2:7", "f2");
        let p = BaoPosition::parse(BaoRules::LAMU, &lamu).unwrap();
        assert_eq!(p.to_string().len(), NOTATION_MAX_BYTES - 2);
        // A seventh two-digit count needs 70 seeds: one more seed is refused.
        let over = text.replacen("1,1/", "10,1/", 1);
        assert!(BaoPosition::parse(rules, &over).is_err());
    }

    #[test]
    fn start_position_text() {
        let text = "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -";
        let p: BaoPosition = text.parse().unwrap();
        assert_eq!(p, BaoPosition::start(BaoRules::LAMU));
        assert_eq!(p.to_string(), text);
    }
}
