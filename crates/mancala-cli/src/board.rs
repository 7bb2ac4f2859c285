//! Text drawings of boards for the terminal.

use mancala_core::kalah::KalahPosition;
use mancala_core::Side;

/// Draws a Kalah board: North's houses on top (numbered from North's left, so right to
/// left on the page), stores at the ends (North's on the left), South's houses below.
pub fn kalah(p: &KalahPosition) -> String {
    let m = p.rules().houses();
    let north = p.houses(Side::North);
    let south = p.houses(Side::South);
    let mut s = String::new();
    let cell = |v: u8| format!("{v:>4}");
    s.push_str("      ");
    for h in (1..=m).rev() {
        s.push_str(&format!("  N{h}"));
    }
    s.push('\n');
    s.push_str("      ");
    for h in (0..m as usize).rev() {
        s.push_str(&cell(north[h]));
    }
    s.push('\n');
    s.push_str(&format!("  {:>3}", p.store(Side::North)));
    s.push_str(&" ".repeat(4 * m as usize + 2));
    s.push_str(&format!("{:<3}\n", p.store(Side::South)));
    s.push_str("      ");
    for &v in south.iter() {
        s.push_str(&cell(v));
    }
    s.push('\n');
    s.push_str("      ");
    for h in 1..=m {
        s.push_str(&format!("  S{h}"));
    }
    s.push('\n');
    let status = match p.side_to_move() {
        Some(side) if p.swap_offered() => format!("{side} to move (may swap)"),
        Some(side) => format!("{side} to move"),
        None => format!("game over: {}", p.outcome().expect("over")),
    };
    s.push_str(&status);
    s
}
