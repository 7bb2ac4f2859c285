//! A text drawing of a Kalah board, as `mancala show` prints it and `mancala_kalah_draw`
//! writes it for C callers.
//!
//! The layout is the board seen from South's chair (`docs/rules/kalah.md`, "Board and names"): North's
//! houses on top, numbered from North's left, so `N1` is on the right of the page; the
//! stores at the ends, North's on the left and South's on the right (each player's store is
//! on their right); South's houses at the bottom, `S1` on the left. Sowing runs
//! anticlockwise on the page. The last line says whose move it is, or how the game ended.
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

use super::KalahPosition;
use crate::Side;

/// Width of one house column in characters: two spaces and a label or count right-aligned
/// in 2..=3 characters (a house holds at most 255 seeds, three digits).
const CELL: usize = 4;
/// The left margin before the first house column: a store of up to three digits and room.
const MARGIN: &str = "      ";

/// The drawing of a Kalah position (module docs); made by [`KalahPosition::drawing`].
/// `Display` writes it without a trailing newline: 5 board lines and a status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahDrawing(KalahPosition);

impl KalahPosition {
    /// The drawing of this position as text, `position.drawing().to_string()`; the layout
    /// is in the docs of module [`draw`](crate::kalah::draw). Never panics.
    #[must_use]
    pub fn drawing(&self) -> KalahDrawing {
        KalahDrawing(*self)
    }
}

impl fmt::Display for KalahDrawing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        let m = p.rules().houses();
        let north = p.houses(Side::North);
        let south = p.houses(Side::South);
        f.write_str(MARGIN)?;
        for h in (1..=m).rev() {
            write!(f, "  N{h}")?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for h in (0..usize::from(m)).rev() {
            write!(f, "{:>CELL$}", north[h])?;
        }
        f.write_str("\n")?;
        write!(f, "  {:>3}", p.store(Side::North))?;
        write!(f, "{:w$}", "", w = CELL * usize::from(m) + 2)?;
        writeln!(f, "{}", p.store(Side::South))?;
        f.write_str(MARGIN)?;
        for v in south.iter() {
            write!(f, "{v:>CELL$}")?;
        }
        f.write_str("\n")?;
        f.write_str(MARGIN)?;
        for h in 1..=m {
            write!(f, "  S{h}")?;
        }
        f.write_str("\n")?;
        match (p.side_to_move(), p.outcome()) {
            (Some(side), _) if p.swap_offered() => write!(f, "{side} to move (may swap)"),
            (Some(side), _) => write!(f, "{side} to move"),
            // As Oware's: the outcome, then South's and North's final counts.
            (None, Some(o)) => write!(
                f,
                "game over: {o}, {}–{}",
                p.store(Side::South),
                p.store(Side::North)
            ),
            (None, None) => f.write_str("game over"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::kalah::{KalahPosition, KalahRules};

    fn standard(text: &str) -> KalahPosition {
        KalahPosition::parse(KalahRules::standard(), text).unwrap()
    }

    #[test]
    fn start_of_standard_kalah() {
        // Written out by hand from the layout of the module docs: a 6-character margin,
        // 4 characters a house; the store line is North's store right-aligned in the margin,
        // 4·6 + 2 spaces, South's store (no trailing spaces).
        let want = [
            "        N6  N5  N4  N3  N2  N1",
            "         4   4   4   4   4   4",
            &format!("    0{}0", " ".repeat(26)),
            "         4   4   4   4   4   4",
            "        S1  S2  S3  S4  S5  S6",
            "South to move",
        ]
        .join("\n");
        let start = KalahPosition::start(KalahRules::standard());
        assert_eq!(start.drawing().to_string(), want);
    }

    #[test]
    fn every_count_is_under_its_label() {
        // Distinct counts: S1..S6 = 1..6, S-store 20, N1..N6 = 7..12, N-store 18 (96 seeds is
        // more than 48, but any total up to 255 is a position).
        let p = standard("1,2,3,4,5,6,20,7,8,9,10,11,12,18 N");
        let text = p.drawing().to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6);
        let column = |line: &str, label: &str| line.find(label).unwrap() + label.len();
        for h in 1..=6u8 {
            let n_label = format!("N{h}");
            let end = column(lines[0], &n_label);
            let count = (6 + h).to_string();
            assert_eq!(&lines[1][end - count.len()..end], count, "N{h}");
            let s_label = format!("S{h}");
            let end = column(lines[4], &s_label);
            let count = h.to_string();
            assert_eq!(&lines[3][end - count.len()..end], count, "S{h}");
        }
        // North's store on the left, South's on the right.
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["18", "20"]
        );
        assert_eq!(lines[5], "North to move");
    }

    #[test]
    fn status_line_after_the_end_and_with_the_swap() {
        let over = standard("0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
        let text = over.drawing().to_string();
        assert_eq!(
            text.lines().last(),
            Some("game over: South wins (+12), 30–18")
        );
        let pie: KalahRules = "kalah(6,4)+pie_rule".parse().unwrap();
        let p = KalahPosition::parse(pie, "4,4,0,5,5,5,1,5,4,4,4,4,4,0 N swap").unwrap();
        assert_eq!(
            p.drawing().to_string().lines().last(),
            Some("North to move (may swap)")
        );
    }
}
