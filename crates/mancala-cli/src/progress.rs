//! Progress on standard error for the commands that can run for more than about a second:
//! indicatif bars and spinners, drawn only when standard error is a terminal and `--quiet`
//! was not given. Standard output (the text and JSON results) never changes.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike, WeakProgressBar};
use mancala_solver::{SolvePhase, SolveProgress};

/// How often a spinner redraws and the solver and the build report (200 ms).
pub const TICK: Duration = Duration::from_millis(200);

static QUIET: AtomicBool = AtomicBool::new(false);

/// Writes `line` and a newline to standard error, as `eprintln!` does, except that an error
/// (standard error closed: `2>&1 | head -1` once `head` has ended) is ignored rather than a
/// panic: a report nobody reads any more must not end a build that is under way.
pub fn note(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// `--quiet`: no progress at all.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn is_quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Whether progress is drawn: standard error is a terminal and `--quiet` is off.
pub fn shown() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// Every bar and spinner made by [`spinner`] and [`bar`], so that [`clear_all`] can clear
/// the ones still drawn (a dropped one is gone from the terminal already, or was cleared).
static LIVE: Mutex<Vec<WeakProgressBar>> = Mutex::new(Vec::new());

fn register(b: &ProgressBar) {
    let mut live = LIVE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    live.retain(|w| w.upgrade().is_some());
    live.push(b.downgrade());
}

/// Clears every bar and spinner still drawn, so that a command interrupted by Ctrl-C leaves
/// no progress line behind (`crate::interrupt`).
pub fn clear_all() {
    let live = std::mem::take(
        &mut *LIVE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    for b in live.iter().filter_map(WeakProgressBar::upgrade) {
        b.finish_and_clear();
    }
}

/// The width of the terminal on standard error, in columns (80 when it cannot be read).
fn columns() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: `winsize` is plain data, for which all zeroes is a valid value.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        // SAFETY: TIOCGWINSZ writes a `winsize` through the pointer, which points to a local
        // of that type; file descriptor 2 is only queried.
        let read = unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut ws) };
        if read == 0 && ws.ws_col > 0 {
            return usize::from(ws.ws_col);
        }
    }
    80
}

/// Columns a progress line leaves free at its end: the terminal echoes a Ctrl-C as `^C`
/// after the cursor, and a line that filled the row would wrap there, so that clearing the
/// progress line would clear the echo's row and leave the line on screen.
const ECHO_ROOM: usize = 3;

/// Columns a spinner's own parts take beside its message: the spinner, two spaces and the
/// elapsed time in brackets (`[12 seconds]`).
const SPINNER_PARTS: usize = 18;

/// The bar's length in columns on a terminal of `columns`: 40, less on a narrow terminal.
fn bar_length(columns: usize) -> usize {
    (columns / 4).clamp(10, 40)
}

/// `text` cut to at most `room` columns (one a character), its end marked by `…` when cut.
fn fit(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// Standard error as indicatif's terminal, [`ECHO_ROOM`] columns narrower than it is:
/// indicatif pads every line it draws with spaces to the width it is told, and a line that
/// fills the row leaves the cursor at its edge, where the echoed `^C` wraps to the next row.
/// It writes the same ANSI sequences as indicatif's own terminal (cursor moves, `ESC [ 2K`),
/// and each draw in one `write` at its flush: on Ctrl-C the terminal discards the output
/// not yet shown, and a draw cut there (its clearing gone, its text kept) would land after
/// the echo instead of over it.
#[derive(Debug, Default)]
struct StderrTerm {
    pending: Mutex<String>,
}

impl StderrTerm {
    fn put(&self, s: &str) -> std::io::Result<()> {
        self.pending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push_str(s);
        Ok(())
    }

    fn moved(&self, n: usize, code: char) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.put(&format!("\x1b[{n}{code}"))
    }
}

impl TermLike for StderrTerm {
    fn width(&self) -> u16 {
        u16::try_from(columns().saturating_sub(ECHO_ROOM).max(1)).unwrap_or(u16::MAX)
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'D')
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        use std::io::Write;
        let text = std::mem::take(
            &mut *self
                .pending
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        let mut err = std::io::stderr().lock();
        err.write_all(text.as_bytes())?;
        err.flush()
    }
}

/// The draw target of every bar and spinner: [`StderrTerm`] at indicatif's default rate
/// (20 redraws a second at most).
fn target() -> ProgressDrawTarget {
    ProgressDrawTarget::term_like_with_hz(Box::<StderrTerm>::default(), 20)
}

/// Sets the message of a bar or spinner made by [`spinner`] or [`bar`], cut so that the
/// whole line fits the terminal's width with room for an echoed `^C` (so that Ctrl-C
/// leaves no line behind, `crate::interrupt`).
pub fn set_message(b: &ProgressBar, text: &str) {
    let columns = columns();
    let parts = if b.length().is_some() {
        bar_length(columns) + 6
    } else {
        SPINNER_PARTS
    };
    b.set_message(fit(text, columns.saturating_sub(parts + ECHO_ROOM)));
}

/// A spinner with `message` and the elapsed time, redrawn every [`TICK`]; `None` when
/// progress is not [`shown`]. Clear it with `finish_and_clear` before printing results.
/// Change its message with [`set_message`].
pub fn spinner(message: String) -> Option<ProgressBar> {
    if !shown() {
        return None;
    }
    let b = ProgressBar::with_draw_target(None, target());
    // Registered before its first draw, so that a Ctrl-C at any moment finds it.
    register(&b);
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    set_message(&b, &message);
    b.enable_steady_tick(TICK);
    Some(b)
}

/// A bar of `total` steps with a free message (the build's figures, set with
/// [`set_message`]), as wide as the terminal allows; `None` when progress is not [`shown`].
pub fn bar(total: u64) -> Option<ProgressBar> {
    if !shown() {
        return None;
    }
    let b = ProgressBar::with_draw_target(Some(total), target());
    register(&b);
    b.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:{}}} {{percent:>3}}% {{msg}}",
            bar_length(columns())
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    b.enable_steady_tick(TICK);
    Some(b)
}

/// A count with an SI prefix and three significant digits: `950`, `12.3 k`, `4.56 M`,
/// `1.20 G`.
pub fn si(n: f64) -> String {
    let (v, unit) = if n >= 1e9 {
        (n / 1e9, " G")
    } else if n >= 1e6 {
        (n / 1e6, " M")
    } else if n >= 1e3 {
        (n / 1e3, " k")
    } else {
        return format!("{n:.0}");
    };
    if v >= 100.0 {
        format!("{v:.0}{unit}")
    } else if v >= 10.0 {
        format!("{v:.1}{unit}")
    } else {
        format!("{v:.2}{unit}")
    }
}

/// A bound interval in seeds as a solver user reads it: `value in [+6, +10]`, or
/// `value +8` once the bounds meet.
fn interval(what: &str, lower: i32, upper: i32) -> String {
    if lower == upper {
        format!("{what} {lower:+}")
    } else {
        format!("{what} in [{lower:+}, {upper:+}]")
    }
}

/// What the running MTD(f) probe tests, after the interval: `, testing ≥ +9` (the probe
/// ends by raising the lower bound to +9 or more, or by lowering the upper bound below +9).
fn probe(p: &SolveProgress) -> String {
    p.testing
        .map_or_else(String::new, |t| format!(", testing ≥ {t:+}"))
}

/// The line a running solve shows: what it proves (the MTD(f) bounds on the value and the
/// bound the running probe tests, or the phase after the value), nodes, nodes per second,
/// and the database in use (its file name: the whole path would not fit a terminal line).
pub fn solve_line(p: &SolveProgress, database: Option<&str>) -> String {
    let what = match p.phase {
        SolvePhase::Value => format!("{}{}", interval("value", p.lower, p.upper), probe(p)),
        SolvePhase::BestMoves => format!("value {:+}; testing which moves keep it", p.lower),
        SolvePhase::Swap => format!("value {:+}; valuing the pie-rule swap", p.lower),
        SolvePhase::PrincipalVariation => {
            format!("value {:+}; following the principal variation", p.lower)
        }
        SolvePhase::Move { mv, index, count } => {
            format!(
                "move {} ({}/{count}): {}{}",
                mv,
                index + 1,
                interval("value", p.lower, p.upper),
                probe(p)
            )
        }
    };
    let mut line = format!(
        "{what} | {} {}, {} nodes/s",
        si(p.nodes as f64),
        mancala_core::words::noun(p.nodes, "node", "nodes"),
        si(p.nodes as f64 / p.seconds.max(1e-9))
    );
    if let Some(db) = database {
        let name = std::path::Path::new(db)
            .file_name()
            .map_or_else(|| db.into(), |n| n.to_string_lossy());
        line.push_str(&format!(" | database {name}"));
    }
    line
}

/// The message of the database build's bar: positions done and in all, elapsed time, and a
/// remaining-time estimate once 5 % is built and 2 s have passed. The estimate is linear in
/// the positions left at the mean rate so far; the first layers are small and badly parallel,
/// so an earlier estimate (indicatif's own `{eta}`, from the first chunks' rate) showed weeks.
pub fn build_line(done: u64, total: u64, seconds: f64) -> String {
    let mut line = format!(
        "{}/{} positions, {}",
        si(done as f64),
        si(total as f64),
        duration(seconds)
    );
    if done > 0 && done.saturating_mul(20) >= total && seconds >= 2.0 {
        let left = seconds * (total - done.min(total)) as f64 / done as f64;
        line.push_str(&format!(", about {} left", duration(left)));
    }
    line
}

/// Seconds as `42 s`, `3 min 05 s` or `2 h 07 min`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::kalah::KalahMove;

    #[test]
    fn fit_cuts_to_the_room_and_marks_the_cut() {
        assert_eq!(fit("value +8", 8), "value +8");
        assert_eq!(fit("value in [+6, +10]", 8), "value i…");
        assert_eq!(fit("≥≥≥", 2), "≥…");
        assert_eq!(fit("abc", 0), "…");
        // The bar leaves its message at least the room of a 10-column bar.
        assert_eq!(bar_length(60), 15);
        assert_eq!(bar_length(200), 40);
        assert_eq!(bar_length(20), 10);
    }

    #[test]
    fn si_keeps_three_significant_digits() {
        assert_eq!(si(950.0), "950");
        assert_eq!(si(12_345.0), "12.3 k");
        assert_eq!(si(4_560_000.0), "4.56 M");
        assert_eq!(si(123_400_000.0), "123 M");
        assert_eq!(si(1.2e9), "1.20 G");
    }

    #[test]
    fn the_solve_line_shows_bounds_nodes_rate_and_database() {
        let p = SolveProgress {
            phase: SolvePhase::Value,
            lower: 6,
            upper: 10,
            nodes: 3_000_000,
            seconds: 2.0,
            testing: None,
        };
        assert_eq!(
            solve_line(&p, Some("/home/user/.cache/mancala/egdb/k.egdb")),
            "value in [+6, +10] | 3.00 M nodes, 1.50 M nodes/s | database k.egdb"
        );
        // A probe running: what it will settle.
        let probing = SolveProgress {
            testing: Some(7),
            ..p
        };
        assert_eq!(
            solve_line(&probing, None),
            "value in [+6, +10], testing ≥ +7 | 3.00 M nodes, 1.50 M nodes/s"
        );
        let exact = SolveProgress {
            lower: -2,
            upper: -2,
            ..p
        };
        assert!(solve_line(&exact, None).starts_with("value -2 | "));
        let mv = SolveProgress {
            phase: SolvePhase::Move {
                mv: KalahMove::House(3),
                index: 2,
                count: 6,
            },
            testing: Some(-1),
            ..p
        };
        assert!(
            solve_line(&mv, None).starts_with("move 3 (3/6): value in [+6, +10], testing ≥ -1 |")
        );
    }

    #[test]
    fn the_build_estimate_waits_for_five_percent_and_two_seconds() {
        assert_eq!(build_line(10, 1000, 5.0), "10/1.00 k positions, 5 s");
        assert_eq!(build_line(100, 1000, 1.0), "100/1.00 k positions, 1 s");
        // 25 % in 10 s at the mean rate: 30 s left.
        assert_eq!(
            build_line(250, 1000, 10.0),
            "250/1.00 k positions, 10 s, about 30 s left"
        );
        assert_eq!(duration(185.0), "3 min 05 s");
        assert_eq!(duration(7_620.0), "2 h 07 min");
    }
}
