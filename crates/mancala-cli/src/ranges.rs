//! The value parser of every whole-number option ([`Whole`]): a value outside the option's
//! real range, a negative or a too large one included, is refused with the option's name and
//! that range in words ("invalid value '-1' for '--max-seeds <MAX_SEEDS>': -1 is out of
//! range (0 to 127)"), instead of clap's own messages for unsigned types ("invalid digit
//! found in string" for `-1`, "number too large to fit in target type", or the type's range
//! `0..=4294967295`) or a second message from a later check. A count with no limit of its
//! own is "0 or more" (below 2^64), never a 20-digit bound.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

/// The most search or build threads an option accepts: the library's
/// [`mancala_solver::MAX_THREADS`], which the C API and Python accept too.
pub const MAX_THREADS: i128 = mancala_solver::MAX_THREADS as i128;

/// A parser of whole numbers `min..=max` of type `T` (written in decimal, optionally signed).
#[derive(Clone, Copy, Debug)]
pub struct Whole<T> {
    min: i128,
    max: i128,
    of: PhantomData<T>,
}

impl<T> Whole<T> {
    const fn new(min: i128, max: i128) -> Whole<T> {
        Whole {
            min,
            max,
            of: PhantomData,
        }
    }

    /// The range in words: `1 to 10`, or `0 or more (below 2^64)` for a count whose only
    /// limit is its 64-bit type.
    fn range(&self) -> String {
        if self.max >= i128::from(u64::MAX) {
            format!("{} or more, below 2^64", self.min)
        } else {
            format!("{} to {}", self.min, self.max)
        }
    }
}

impl<T> TypedValueParser for Whole<T>
where
    T: TryFrom<i128> + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let name = arg.map_or_else(|| "...".to_string(), ToString::to_string);
        let text = value.to_string_lossy();
        self.read(&text).map_err(|why| {
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!("{}\n", invalid_value(&text, &name, &why)),
            )
            .with_cmd(cmd)
        })
    }
}

/// The refusal of the value `text` of the option or variable `name` for the reason `why`
/// ([`Whole::read`]), worded alike for a flag and for a variable read in its place:
/// `invalid value '-1' for '--game-ms <GAME_MS>': -1 is out of range (0 to 86400000)`,
/// `invalid value '-1' for 'MANCALA_AGENT_GAME_MS': …`. The value is shortened as
/// [`mancala_core::Shortened`] shortens it (an 86-digit value is not echoed whole).
pub fn invalid_value(text: &str, name: &str, why: &str) -> String {
    format!(
        "invalid value '{}' for '{name}': {why}",
        mancala_core::Shortened(text)
    )
}

impl<T: TryFrom<i128>> Whole<T> {
    /// The whole number `text` (decimal, optionally signed) when it lies in `min..=max`.
    ///
    /// # Errors
    /// Why it is refused, in the words of the option's message: "not a whole number (0 to
    /// 86400000)", or "-1 is out of range (0 to 86400000)" (the text shortened to
    /// [`mancala_core::Shortened::MAX_CHARS`] characters). A variable read in place of an
    /// option (`MANCALA_AGENT_GAME_MS`) gives the same reasons.
    pub fn read(&self, text: &str) -> Result<T, String> {
        let range = self.range();
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("not a whole number ({range})"));
        }
        // More digits than any i128 holds is out of every range.
        let v = text.parse::<i128>().ok();
        match v.filter(|v| (self.min..=self.max).contains(v)) {
            Some(v) => T::try_from(v).map_err(|_| format!("{v} is out of range ({range})")),
            None => Err(format!(
                "{} is out of range ({range})",
                mancala_core::Shortened(text)
            )),
        }
    }
}

/// `--level`: a strength level, 1..=10 (`mancala_solver::engine::Level::MIN..=MAX`).
pub fn level() -> Whole<u32> {
    Whole::new(1, 10)
}

/// `perft --depth`: 1..=40 plies.
pub fn perft_depth() -> Whole<u32> {
    Whole::new(1, 40)
}

/// `--threads` where 0 means every core: 0..=[`MAX_THREADS`].
pub fn threads_or_all() -> Whole<usize> {
    Whole::new(0, MAX_THREADS)
}

/// The warning for `--threads threads` above the `processors` this process may run on, or
/// `None` (0, every core, or no more threads than processors). More threads than processors
/// only share them and slow the work down (tens of times for a solve or a build), so it is
/// said; it is not refused.
pub fn oversubscribed(threads: usize, processors: usize) -> Option<String> {
    (threads > processors).then(|| {
        format!(
            "mancala: warning: --threads {threads} is more than the {} of this machine: the threads will share them, which slows the work down",
            mancala_core::words::count(processors, "processor", "processors")
        )
    })
}

/// Says [`oversubscribed`]'s warning on standard error (unless `--quiet`), with the
/// processors of [`std::thread::available_parallelism`] (nothing when that is not known).
pub fn warn_if_oversubscribed(threads: usize) {
    let Ok(processors) = std::thread::available_parallelism() else {
        return;
    };
    if let Some(w) = oversubscribed(threads, processors.get()) {
        if !crate::progress::is_quiet() {
            eprintln!("{w}");
        }
    }
}

/// `--threads` where 0 is not allowed: 1..=[`MAX_THREADS`].
pub fn threads() -> Whole<usize> {
    Whole::new(1, MAX_THREADS)
}

/// `--tt-mb` of the playing engine (`bestmove`, `agent`): 1..=4096 MiB.
pub fn engine_tt_mb() -> Whole<usize> {
    Whole::new(1, 4096)
}

/// `--tt-mb` of the exact solver (`bench`): 1..=1048576 MiB (1 TiB).
pub fn solver_tt_mb() -> Whole<usize> {
    Whole::new(1, 1 << 20)
}

/// `egdb build --max-seeds`: K, 0..=[`mancala_solver::egdb::MAX_DB_SEEDS`] (127: values are
/// stored in a signed byte).
pub fn max_seeds() -> Whole<u32> {
    Whole::new(0, i128::from(mancala_solver::egdb::MAX_DB_SEEDS))
}

/// `--max-seeds` of an Awari database (`solve --rules awari`): the levels 0..=48, Awari's
/// seeds.
pub fn awari_max_seeds() -> Whole<u32> {
    Whole::new(0, i128::from(mancala_solver::awari::MAX_SEEDS))
}

/// The longest time a `--time-ms` or `--grace-ms` option takes: one day, in milliseconds.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// `--time-ms` (and `--grace-ms`): milliseconds, 0..=[`MAX_TIME_MS`] (0: as each option says,
/// no limit or none at all).
pub fn time_ms() -> Whole<u64> {
    Whole::new(0, i128::from(MAX_TIME_MS))
}

/// A time budget that must be above 0 (`grade` and `match --time-ms`: a move needs time):
/// milliseconds, 1..=[`MAX_TIME_MS`].
pub fn positive_time_ms() -> Whole<u64> {
    Whole::new(1, i128::from(MAX_TIME_MS))
}

/// A positive count of the `usize` type (`grade --take`): 1 or more.
pub fn positive_usize() -> Whole<usize> {
    Whole::new(1, usize::MAX as i128)
}

/// The most positions `grade --generate --count` makes.
pub const MAX_GENERATED: usize = 100_000;

/// `grade --count`: positions to generate, 1..=[`MAX_GENERATED`].
pub fn generated_count() -> Whole<usize> {
    Whole::new(1, MAX_GENERATED as i128)
}

/// Any count of the `u64` type (nodes, a seed): 0 or more, below 2^64.
pub fn any_u64() -> Whole<u64> {
    Whole::new(0, i128::from(u64::MAX))
}

/// Any count of the `usize` type (positions, seeds of the hidden generator options).
pub fn any_usize() -> Whole<usize> {
    Whole::new(0, usize::MAX as i128)
}

/// A positive count of the `u32` type (a group width): 1..=4294967295.
pub fn positive_u32() -> Whole<u32> {
    Whole::new(1, i128::from(u32::MAX))
}

/// Any count of the `u32` type.
pub fn any_u32() -> Whole<u32> {
    Whole::new(0, i128::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_solver::engine::Level;

    /// What `--x value` gives with the parser `p`: the value, or clap's message.
    fn parse<T: TryFrom<i128> + Clone + Send + Sync + 'static>(
        p: Whole<T>,
        value: &str,
    ) -> Result<T, String> {
        clap::Command::new("t")
            .arg(
                clap::Arg::new("x")
                    .long("x")
                    .allow_negative_numbers(true)
                    .value_parser(p),
            )
            .try_get_matches_from(["t", "--x", value])
            .map(|m| m.get_one::<T>("x").unwrap().clone())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_ranges_are_the_librarys() {
        let (min, max) = (Level::MIN.get(), Level::MAX.get());
        assert_eq!(parse(level(), &min.to_string()), Ok(min));
        assert_eq!(parse(level(), &max.to_string()), Ok(max));
        assert!(parse(level(), &(min - 1).to_string()).is_err());
        assert!(parse(level(), &(max + 1).to_string()).is_err());
        let k = mancala_solver::egdb::MAX_DB_SEEDS;
        assert_eq!(parse(max_seeds(), &k.to_string()), Ok(k));
        assert!(parse(max_seeds(), &(k + 1).to_string()).is_err());
        // The thread limit is the one the C API and Python apply.
        let t = mancala_solver::MAX_THREADS;
        assert_eq!(parse(threads(), &t.to_string()), Ok(t));
        assert_eq!(parse(threads_or_all(), &t.to_string()), Ok(t));
        assert!(parse(threads(), &(t + 1).to_string()).is_err());
        assert!(parse(threads_or_all(), &(t + 1).to_string()).is_err());
    }

    #[test]
    fn every_refusal_names_the_option_and_its_range() {
        for (value, why) in [
            ("-1", "-1 is out of range (0 to 1024)"),
            ("1025", "1025 is out of range (0 to 1024)"),
            (
                "99999999999999999999999999999999999999999",
                "99999999999999999999999999999999999999999 is out of range (0 to 1024)",
            ),
            ("2.5", "not a whole number (0 to 1024)"),
            ("", "not a whole number (0 to 1024)"),
        ] {
            let e = parse(threads_or_all(), value).unwrap_err();
            assert!(
                e.contains(&format!("invalid value '{value}' for '--x <x>': {why}")),
                "{value}: {e}"
            );
        }
        // A value longer than 60 characters is shown by its first 60 and `…`, in both parts.
        let huge = "9".repeat(86);
        let e = parse(time_ms(), &huge).unwrap_err();
        let shown = format!("{}…", "9".repeat(60));
        assert!(
            e.contains(&format!(
                "invalid value '{shown}' for '--x <x>': {shown} is out of range (0 to 86400000)"
            )),
            "{e}"
        );
        assert!(!e.contains(&"9".repeat(61)), "{e}");
        assert_eq!(parse(threads_or_all(), "+7"), Ok(7));
        assert_eq!(parse(any_u64(), "18446744073709551615"), Ok(u64::MAX));
        let e = parse(any_u64(), "-1").unwrap_err();
        assert!(
            e.contains("-1 is out of range (0 or more, below 2^64)"),
            "{e}"
        );
        let e = parse(any_u64(), "18446744073709551616").unwrap_err();
        assert!(e.contains("out of range (0 or more, below 2^64)"), "{e}");
        assert_eq!(parse(time_ms(), "86400000"), Ok(86_400_000));
        let e = parse(time_ms(), "86400001").unwrap_err();
        assert!(
            e.contains("86400001 is out of range (0 to 86400000)"),
            "{e}"
        );
    }
}
