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

/// Draws a Bao la Kete board from above, South at the bottom: North's back and front rows
/// (North's pit k in column 9 − k), South's front and back rows (pit k in column k), the
/// reserves, the standing kuus (`*`), and whose move it is.
pub fn bao(p: &mancala_core::bao::BaoPosition) -> String {
    use mancala_core::Game;
    let l = p.layout();
    let (s, n) = (Side::South.index(), Side::North.index());
    let row = |vals: [u8; 8], reversed: bool, kuu: Option<usize>| {
        let mut out = String::from("      ");
        for col in 0..8 {
            let k = if reversed { 7 - col } else { col };
            let mark = if kuu == Some(k) { '*' } else { ' ' };
            out.push_str(&format!("{:>3}{mark}", vals[k]));
        }
        out
    };
    // The kuu is pit F5 (index 4) of each player (K-3.5).
    let kuu = |side: usize| l.kuu[side].then_some(4);
    let mut out = String::new();
    out.push_str(&format!("North reserve {:>2}\n", l.reserve[n]));
    out.push_str(&format!("{}   b\n", row(l.back[n], true, None)));
    out.push_str(&format!("{}   f\n", row(l.front[n], true, kuu(n))));
    out.push_str("      ");
    out.push_str(&"----".repeat(8));
    out.push('\n');
    out.push_str(&format!("{}   F\n", row(l.front[s], false, kuu(s))));
    out.push_str(&format!("{}   B\n", row(l.back[s], false, None)));
    out.push_str("      ");
    for k in 1..=8 {
        out.push_str(&format!("{k:>3} "));
    }
    out.push('\n');
    out.push_str(&format!("South reserve {:>2}\n", l.reserve[s]));
    match p.outcome() {
        None => {
            out.push_str(&format!("{} to move", l.to_move));
            if let Some((side, pit)) = l.reserved {
                out.push_str(&format!(" (pit {} of {side} reserved by hizi zetu)", pit));
            }
        }
        Some(o) => out.push_str(&format!("game over: {o}")),
    }
    out
}
