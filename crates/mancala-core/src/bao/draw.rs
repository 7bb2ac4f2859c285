//! A text drawing of a Bao la Kete board, as `mancala show` prints it and `mancala_bao_draw`
//! writes it for C callers.
//!
//! The board is seen from above with South at the bottom (`docs/rules/bao-la-kete.md`, K-3.2):
//! North's reserve, North's back row (`b`) and front row (`f`), a rule, South's front row
//! (`F`) and back row (`B`), the pit numbers 1..8 of South's rows, South's reserve, and a
//! status line. Each player numbers their pits from their own left, so South's pit k is in
//! column k and North's pit k in column 9 − k. A standing kuu (pit 5 of the front row,
//! K-3.5) is marked `*` after its count. The status line says whose move it is and which
//! pit hizi zetu reserves (with the blocked turns still to come under a `block_duration`
//! above 1, K-8.4), or how the game ended.
//!
//! ```text
//! North reserve 22
//!         0   0   0   0   0   0   0   0    b
//!         0   2   2   6*  0   0   0   0    f
//!       --------------------------------
//!         0   0   0   0   6*  2   2   0    F
//!         0   0   0   0   0   0   0   0    B
//!         1   2   3   4   5   6   7   8
//! South reserve 22
//! South to move
//! ```

use core::fmt;

use super::BaoPosition;
use crate::Side;

/// Index of the kuu in a front row (pit 5, K-3.5).
const KUU: usize = 4;

/// The drawing of a Bao la Kete position (module docs); made by [`BaoPosition::drawing`].
/// `Display` writes it without a trailing newline: 8 board lines and a status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaoDrawing(BaoPosition);

impl BaoPosition {
    /// The drawing of this position as text, `position.drawing().to_string()`; the layout
    /// is in the docs of module [`draw`](crate::bao::draw). Never panics.
    #[must_use]
    pub fn drawing(&self) -> BaoDrawing {
        BaoDrawing(*self)
    }
}

/// One row of eight counts after the 6-character margin, each in 3 characters and a mark
/// (`*` for a standing kuu at `kuu`); `reversed` lists pit 8 first (North's rows).
fn row(f: &mut fmt::Formatter<'_>, vals: &[u8; 8], reversed: bool, kuu: bool) -> fmt::Result {
    f.write_str("      ")?;
    for col in 0..8 {
        let k = if reversed { 7 - col } else { col };
        let mark = if kuu && k == KUU { '*' } else { ' ' };
        write!(f, "{:>3}{mark}", vals[k])?;
    }
    Ok(())
}

impl fmt::Display for BaoDrawing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        let l = p.layout();
        let (s, n) = (Side::South.index(), Side::North.index());
        writeln!(f, "North reserve {:>2}", l.reserve[n])?;
        row(f, &l.back[n], true, false)?;
        f.write_str("   b\n")?;
        row(f, &l.front[n], true, l.kuu[n])?;
        f.write_str("   f\n")?;
        writeln!(f, "      {}", "----".repeat(8))?;
        row(f, &l.front[s], false, l.kuu[s])?;
        f.write_str("   F\n")?;
        row(f, &l.back[s], false, false)?;
        f.write_str("   B\n")?;
        f.write_str("      ")?;
        for k in 1..=8 {
            let gap = if k < 8 { " " } else { "" };
            write!(f, "{k:>3}{gap}")?;
        }
        f.write_str("\n")?;
        writeln!(f, "South reserve {:>2}", l.reserve[s])?;
        match p.outcome() {
            None => {
                write!(f, "{} to move", l.to_move)?;
                if let Some((side, pit)) = l.reserved {
                    write!(f, " (pit {pit} of {side} reserved by hizi zetu")?;
                    match l.block_turns_left {
                        0 => {}
                        1 => f.write_str("; 1 more blocked turn after this one")?,
                        t => write!(f, "; {t} more blocked turns after this one")?,
                    }
                    f.write_str(")")?;
                }
                Ok(())
            }
            Some(o) => write!(f, "game over: {o}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::bao::{BaoPosition, BaoRules};

    #[test]
    fn start_of_bao_la_kete() {
        // Written out from the layout of the module docs and the start of K-4.2 (the
        // notation `0,0,0,0,6,2,2,0/…`: F5 = 6 (the kuu), F6 = F7 = 2, 22 in each reserve).
        let want = [
            "North reserve 22",
            "        0   0   0   0   0   0   0   0    b",
            "        0   2   2   6*  0   0   0   0    f",
            "      --------------------------------",
            "        0   0   0   0   6*  2   2   0    F",
            "        0   0   0   0   0   0   0   0    B",
            "        1   2   3   4   5   6   7   8",
            "South reserve 22",
            "South to move",
        ]
        .join("\n");
        let start = BaoPosition::start(BaoRules::LAMU);
        assert_eq!(start.drawing().to_string(), want);
    }

    #[test]
    fn rows_run_from_each_owners_left_and_the_reserved_pit_is_named() {
        // South's F1 = 9 and B1 = 21 (the page's left), North's f1 = 7 (North's left, so the
        // page's right) and b8 = 3 (the page's left); no kuu stands; North's f2 reserved
        // (South's reserve is empty, as a hizi zetu block needs), 1 more blocked turn.
        let rules = BaoRules::LAMU.with_block_duration(2).unwrap();
        let text = "9,0,0,0,0,0,0,0/21,0,0,0,0,0,0,0/7,2,0,0,0,0,0,0/0,0,0,0,0,0,0,3 0,22 - S f2:1";
        let p = BaoPosition::parse(rules, text).unwrap();
        let drawing = p.drawing().to_string();
        let lines: Vec<&str> = drawing.lines().collect();
        assert_eq!(lines[1].split_whitespace().next(), Some("3"));
        assert_eq!(lines[2].split_whitespace().last(), Some("f"));
        let north_front: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(north_front[7], "7");
        assert_eq!(north_front[6], "2");
        assert_eq!(lines[4].split_whitespace().next(), Some("9"));
        assert_eq!(lines[5].split_whitespace().next(), Some("21"));
        assert_eq!(lines[7], "South reserve  0");
        assert!(!drawing.contains('*'));
        assert_eq!(
            lines[8],
            "South to move (pit 2 of North reserved by hizi zetu; 1 more blocked turn after this one)"
        );
    }
}
