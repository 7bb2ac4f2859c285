//! The Togyz Kumalak position notation (TK-9): `counts tuzdyks side`, for example the start
//! `9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0 -,- S`.
//!
//! The counts are South's houses 1 … h, South's kazan, North's houses 1 … h, North's kazan;
//! the tuzdyks field names, South's then North's, the number of the house in the opponent's
//! row each owns, or `-`; the side is `S`, `N` or `-` (the game is over).

use core::fmt;

use super::error::PositionError;
use super::position::{TogyzLayout, TogyzPosition};
use super::rules::TogyzRules;
use crate::Side;

/// The longest position text of any rule set, in bytes: 20 counts of at most 255 kumalaks in
/// all (`max_count_digits`) with their 19 commas, a space, two tuzdyks (one digit each) and
/// their comma, a space and the side letter.
pub const NOTATION_MAX_BYTES: usize = crate::max_count_digits(20, 255, 255) as usize + 19 + 6;

impl fmt::Display for TogyzPosition {
    /// The position notation (TK-9).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.rules().houses();
        for side in Side::ALL {
            for i in 1..=h {
                write!(f, "{},", self.house(side, i))?;
            }
            write!(f, "{}", self.kazan(side))?;
            f.write_str(if side == Side::South { "," } else { " " })?;
        }
        for side in Side::ALL {
            match self.tuzdyk(side) {
                Some(t) => write!(f, "{t}")?,
                None => f.write_str("-")?,
            }
            f.write_str(if side == Side::South { "," } else { " " })?;
        }
        match self.side_to_move() {
            Some(side) => write!(f, "{}", side.letter()),
            None => f.write_str("-"),
        }
    }
}

impl TogyzPosition {
    /// Parses the position notation (TK-9) under `rules`: white space of any amount between
    /// the three fields and around the text, `s`/`n` read as `S`/`N`. Never panics.
    ///
    /// # Errors
    /// [`PositionError::Syntax`] for a text without the three fields,
    /// [`PositionError::CountNumber`], [`PositionError::BadCount`],
    /// [`PositionError::BadTuzdyk`], and every refusal of [`TogyzPosition::from_layout`].
    pub fn parse(rules: TogyzRules, text: &str) -> Result<TogyzPosition, PositionError> {
        let syntax = || PositionError::Syntax(text.trim().chars().take(200).collect());
        let mut fields = text.split_whitespace();
        let (Some(counts), Some(tuzdyks), Some(side), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(syntax());
        };
        let side_to_move = match side {
            "-" => None,
            _ => {
                let mut chars = side.chars();
                match (chars.next().and_then(Side::from_letter), chars.next()) {
                    (Some(side), None) => Some(side),
                    _ => return Err(syntax()),
                }
            }
        };
        let h = usize::from(rules.houses());
        let counts: Vec<&str> = counts.split(',').collect();
        if counts.len() != 2 * h + 2 {
            return Err(PositionError::CountNumber {
                houses: h as u8,
                expected: 2 * h + 2,
                got: counts.len(),
            });
        }
        let mut layout = TogyzLayout {
            side_to_move,
            ..TogyzLayout::default()
        };
        for (slot, text) in counts.iter().enumerate() {
            let count = crate::byte_number(text).ok_or_else(|| PositionError::BadCount {
                slot: slot + 1,
                text: text.chars().take(20).collect(),
            })?;
            let (side, i) = (slot / (h + 1), slot % (h + 1));
            if i == h {
                layout.kazans[side] = count;
            } else {
                layout.houses[side][i] = count;
            }
        }
        let (south, north) = tuzdyks.split_once(',').ok_or_else(syntax)?;
        for (side, text) in Side::ALL.into_iter().zip([south, north]) {
            layout.tuzdyks[side.index()] = match text {
                "-" => None,
                _ => match crate::byte_number(text) {
                    Some(t) if (1..=h as u8).contains(&t) => Some(t),
                    _ => {
                        return Err(PositionError::BadTuzdyk {
                            side,
                            text: text.chars().take(20).collect(),
                            houses: h as u8,
                        })
                    }
                },
            };
        }
        TogyzPosition::from_layout(rules, &layout)
    }
}
