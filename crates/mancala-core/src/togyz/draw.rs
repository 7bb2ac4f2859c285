//! A text drawing of a Togyz Kumalak board.
//!
//! The board seen from South's chair (TK-1.3): North's houses on top, numbered from North's
//! left, so `N1` is on the right of the page; South's houses at the bottom, `S1` on the left;
//! sowing runs anticlockwise on the page. The kazans stand at the ends of the middle line,
//! North's on the left and South's on the right. A tuzdyk is drawn `X` in place of its count
//! (it is always empty). The last line says whose move it is, or how the game ended, then
//! which tuzdyks exist.
//!
//! ```text
//!         N9  N8  N7  N6  N5  N4  N3  N2  N1
//!          9   9   9   9   9   9   9   9   9
//!     0                                      0
//!          9   9   9   9   9   9   9   9   9
//!         S1  S2  S3  S4  S5  S6  S7  S8  S9
//! South to move
//! ```

use core::fmt;

use super::TogyzPosition;
use crate::Side;

/// Width of one house column: two spaces and a label or count right-aligned in 2..=3
/// characters.
const CELL: usize = 4;
/// The left margin before the first house column: a kazan of up to three digits and room.
const MARGIN: &str = "      ";

/// The drawing of a Togyz Kumalak position (module docs), made by
/// [`TogyzPosition::drawing`]; `Display` writes it without a trailing newline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TogyzDrawing(TogyzPosition);

impl TogyzPosition {
    /// The drawing of this position as text (the layout is in the docs of module
    /// [`draw`](crate::togyz::draw)). Never panics.
    #[must_use]
    pub fn drawing(&self) -> TogyzDrawing {
        TogyzDrawing(*self)
    }
}

impl fmt::Display for TogyzDrawing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        let h = p.rules().houses();
        let cell = |f: &mut fmt::Formatter<'_>, side: Side, i: u8| {
            if p.tuzdyk(side.opponent()) == Some(i) {
                write!(f, "{:>CELL$}", "X")
            } else {
                write!(f, "{:>CELL$}", p.house(side, i))
            }
        };
        f.write_str(MARGIN)?;
        for i in (1..=h).rev() {
            write!(f, "  N{i}")?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for i in (1..=h).rev() {
            cell(f, Side::North, i)?;
        }
        f.write_str("\n")?;
        write!(f, "  {:>3}", p.kazan(Side::North))?;
        write!(f, "{:w$}", "", w = CELL * usize::from(h) + 2)?;
        writeln!(f, "{}", p.kazan(Side::South))?;
        f.write_str(MARGIN)?;
        for i in 1..=h {
            cell(f, Side::South, i)?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for i in 1..=h {
            write!(f, "  S{i}")?;
        }
        f.write_str("\n")?;
        match (p.side_to_move(), p.outcome()) {
            (Some(side), _) => write!(f, "{side} to move")?,
            (None, Some(o)) => write!(
                f,
                "game over: {o}, {}–{}",
                p.kazan(Side::South),
                p.kazan(Side::North)
            )?,
            (None, None) => f.write_str("game over")?,
        }
        for owner in Side::ALL {
            if let Some(t) = p.tuzdyk(owner) {
                let row = owner.opponent().letter();
                write!(f, "; {owner}'s tuzdyk {row}{t}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::togyz::{TogyzPosition, TogyzRules};

    #[test]
    fn start_of_togyz_kumalak() {
        // Written out by hand from the module docs: a 6-character margin, 4 characters a
        // house; North's kazan right-aligned in the margin, 4·9 + 2 spaces, South's kazan.
        let want = [
            "        N9  N8  N7  N6  N5  N4  N3  N2  N1",
            "         9   9   9   9   9   9   9   9   9",
            &format!("    0{}0", " ".repeat(38)),
            "         9   9   9   9   9   9   9   9   9",
            "        S1  S2  S3  S4  S5  S6  S7  S8  S9",
            "South to move",
        ]
        .join("\n");
        let start = TogyzPosition::start(TogyzRules::default());
        assert_eq!(start.drawing().to_string(), want);
    }

    #[test]
    fn tuzdyks_are_marked() {
        // TK-12 X9's position: South owns N3, North owns S7.
        let p = TogyzPosition::parse(
            TogyzRules::default(),
            "1,0,0,0,12,2,0,3,1,60,2,5,0,4,1,6,0,2,3,60 3,7 S",
        )
        .unwrap();
        let text = p.drawing().to_string();
        let lines: Vec<&str> = text.lines().collect();
        // North's row, N9 … N1: 3 2 0 6 1 4 X 5 2.
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["3", "2", "0", "6", "1", "4", "X", "5", "2"]
        );
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["1", "0", "0", "0", "12", "2", "X", "3", "1"]
        );
        assert_eq!(
            lines[5],
            "South to move; South's tuzdyk N3; North's tuzdyk S7"
        );
    }
}
