//! A text drawing of an Oware board.
//!
//! The layout is the board seen from South's chair (OW-1.3): North's houses on top, numbered
//! from North's left, so `N1` is on the right of the page; South's houses at the bottom, `S1`
//! on the left; sowing runs anticlockwise on the page. The captured counts stand at the ends
//! of the middle line, North's on the left and South's on the right (each player's store on
//! his right). The last line says whose move it is, or how the game ended with each player's
//! final count (a split's half seeds written `½`).
//!
//! ```text
//!         N6  N5  N4  N3  N2  N1
//!          4   4   4   4   4   4
//!     0                          0
//!          4   4   4   4   4   4
//!         S1  S2  S3  S4  S5  S6
//! South to move
//! ```

use core::fmt;

use super::OwarePosition;
use crate::Side;

/// Width of one house column in characters: two spaces and a label or count right-aligned
/// in 2..=3 characters (a house holds at most 255 seeds, three digits).
const CELL: usize = 4;
/// The left margin before the first house column: a store of up to three digits and room.
const MARGIN: &str = "      ";

/// The drawing of an Oware position (module docs); made by [`OwarePosition::drawing`].
/// `Display` writes it without a trailing newline: 5 board lines and a status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwareDrawing(OwarePosition);

impl OwarePosition {
    /// The drawing of this position as text, `position.drawing().to_string()`; the layout is
    /// in the docs of module [`draw`](crate::oware::draw). Never panics.
    #[must_use]
    pub fn drawing(&self) -> OwareDrawing {
        OwareDrawing(*self)
    }
}

/// A count of half seeds written in seeds, `23½` for 47.
struct HalfSeeds(u32);

impl fmt::Display for HalfSeeds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 / 2)?;
        if self.0 % 2 == 1 {
            f.write_str("½")?;
        }
        Ok(())
    }
}

impl fmt::Display for OwareDrawing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        let h = p.rules().houses();
        let north = p.houses(Side::North);
        let south = p.houses(Side::South);
        f.write_str(MARGIN)?;
        for i in (1..=h).rev() {
            write!(f, "  N{i}")?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for c in north.iter().rev() {
            write!(f, "{c:>CELL$}")?;
        }
        f.write_str("\n")?;
        write!(f, "  {:>3}", p.store(Side::North))?;
        write!(f, "{:w$}", "", w = CELL * usize::from(h) + 2)?;
        writeln!(f, "{}", p.store(Side::South))?;
        f.write_str(MARGIN)?;
        for c in south.iter() {
            write!(f, "{c:>CELL$}")?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for i in 1..=h {
            write!(f, "  S{i}")?;
        }
        f.write_str("\n")?;
        match (
            p.side_to_move(),
            p.outcome(),
            p.final_half_seeds(Side::South),
            p.final_half_seeds(Side::North),
        ) {
            (Some(side), ..) => write!(f, "{side} to move"),
            (None, Some(o), Some(s), Some(n)) => {
                write!(f, "game over: {o}, {}–{}", HalfSeeds(s), HalfSeeds(n))
            }
            _ => f.write_str("game over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::oware::{OwarePosition, OwareRules};

    #[test]
    fn start_of_oware() {
        // Written out by hand from the layout of the module docs: a 6-character margin,
        // 4 characters a house; the store line is North's store right-aligned in the margin,
        // 4·6 + 2 spaces, South's store.
        let want = [
            "        N6  N5  N4  N3  N2  N1",
            "         4   4   4   4   4   4",
            &format!("    0{}0", " ".repeat(26)),
            "         4   4   4   4   4   4",
            "        S1  S2  S3  S4  S5  S6",
            "South to move",
        ]
        .join("\n");
        let start = OwarePosition::start(OwareRules::default());
        assert_eq!(start.drawing().to_string(), want);
    }

    #[test]
    fn every_count_is_under_its_label() {
        // S1..S6 = 1..6, S-captured 20, N1..N6 = 7..12, N-captured 18, North to move.
        let p = OwarePosition::parse(
            OwareRules::default().with_majority(crate::oware::Majority::Off),
            "1,2,3,4,5,6,20,7,8,9,10,11,12,18 N",
        )
        .unwrap();
        let text = p.drawing().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6);
        let column = |line: &str, label: &str| line.find(label).unwrap() + label.len();
        for i in 1..=6u8 {
            let end = column(lines[0], &format!("N{i}"));
            let count = (6 + i).to_string();
            assert_eq!(&lines[1][end - count.len()..end], count, "N{i}");
            let end = column(lines[4], &format!("S{i}"));
            let count = i.to_string();
            assert_eq!(&lines[3][end - count.len()..end], count, "S{i}");
        }
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["18", "20"]
        );
        assert_eq!(lines[5], "North to move");
    }

    #[test]
    fn status_line_of_a_split() {
        // OW-12 X15's end: 3 seeds left, split: 22 + 1½ against 23 + 1½.
        let p = OwarePosition::parse(OwareRules::AWARI, "0,1,0,0,1,0,22,0,0,0,0,1,0,23 -").unwrap();
        let text = p.drawing().to_string();
        assert_eq!(
            text.lines().last(),
            Some("game over: North wins (-1), 23½–24½")
        );
    }
}
