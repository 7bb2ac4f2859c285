//! Progress on standard error for the commands that can run for more than about a second:
//! indicatif bars and spinners, drawn only when standard error is a terminal and `--quiet`
//! was not given. Standard output (the text and JSON results) never changes.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle, WeakProgressBar};
use mancala_solver::{SolvePhase, SolveProgress};

/// How often a spinner redraws and the solver and the build report (200 ms).
pub const TICK: Duration = Duration::from_millis(200);

static QUIET: AtomicBool = AtomicBool::new(false);

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

/// A spinner with `message` and the elapsed time, redrawn every [`TICK`]; `None` when
/// progress is not [`shown`]. Clear it with `finish_and_clear` before printing results.
pub fn spinner(message: String) -> Option<ProgressBar> {
    if !shown() {
        return None;
    }
    let b = ProgressBar::new_spinner();
    // Registered before its first draw, so that a Ctrl-C at any moment finds it.
    register(&b);
    b.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    b.set_message(message);
    b.enable_steady_tick(TICK);
    Some(b)
}

/// A bar of `total` steps with a free message (the build's figures); `None` when progress
/// is not [`shown`].
pub fn bar(total: u64) -> Option<ProgressBar> {
    if !shown() {
        return None;
    }
    let b = ProgressBar::new(total);
    register(&b);
    b.set_style(
        ProgressStyle::with_template("{bar:40} {percent:>3}% {msg}")
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
/// and the database in use.
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
        "{what} | {} nodes, {} nodes/s",
        si(p.nodes as f64),
        si(p.nodes as f64 / p.seconds.max(1e-9))
    );
    if let Some(db) = database {
        line.push_str(&format!(" | database {db}"));
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
            solve_line(&p, Some("egdb/k.egdb")),
            "value in [+6, +10] | 3.00 M nodes, 1.50 M nodes/s | database egdb/k.egdb"
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
