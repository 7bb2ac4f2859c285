//! # mancala-core
//!
//! Exact rules of mancala games on compact, bit-packed, `Copy` positions:
//!
//! * [`kalah`] — Kalah(m, n), m in 1..=7, with every variant of [`docs/rules/kalah.md`](docs::kalah_rules)
//!   (`empty_capture`, `end_when_no_move`, `discard_remaining`, `pie_rule`,
//!   `no_first_move_bonus`) and the rule-set and position notations;
//! * [`bao`] — Bao la Kete, the four-row Bao of Lamu, with every rule of
//!   [`docs/rules/bao-la-kete.md`](docs::bao_la_kete_rules) (Lamu defaults, the open readings of those rules as options);
//! * [`oware`] — Oware (Abapa) and Awari, h = 1..=8 houses a side, with every option of
//!   [`docs/rules/oware.md`](docs::oware_rules) and the named rule sets `oware`, `awari`, `oware-openspiel`;
//! * [`togyz`] — Togyz Kumalak (Toguz Korgool), h = 1..=9 houses a side, with every option
//!   of [`docs/rules/togyz-kumalak.md`](docs::togyz_kumalak_rules) (tuzdyks and their
//!   restrictions, the majority and empty-row ends, a move limit) and the named rule sets
//!   `togyz-kumalak`, `togyz-ludii`, `bestemshe`;
//! * [`game`] — the [`Game`] trait every game implements, [`GameKind`], the game record
//!   [`GameRecord`] (undo, pie-rule sides, repetition and move-limit rules) and generic
//!   [`game::perft`]; it imports no game;
//! * [`any`] — [`AnyGame`], a record of any game chosen at run time, and the macro
//!   [`with_game!`]: above the games, the one place that lists them for the front ends;
//! * [`rules`] — [`Rules`], a rule set of any game, parsed from the rule-set notation;
//! * [`docs`] — the rules of every game and the notations, whole: the rule ids (Kalah's
//!   sections, Bao la Kete's K-n.m, Oware's OW-n.m, Togyz Kumalak's TK-n.m) and the `docs/rules/*.md` and
//!   `docs/notation.md` pages the API documentation cites are these;
//! * [`words`] — a count in words, singular for exactly one ([`words::count`]: `1 entry`,
//!   `2 entries`), for the lines and messages of the front ends.
//!
//! ```
//! use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
//! let start = KalahPosition::start("standard".parse::<KalahRules>().unwrap());
//! let next = start.play(KalahMove::House(3)).unwrap();
//! assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"); // extra turn
//! ```
//!
//! # A whole game of each game
//!
//! Every game implements [`Game`]; a [`GameRecord`] keeps a game from its start (its
//! positions and moves, undo, the pie-rule swap, and the repetition and move-limit rules of
//! Oware). The same loop plays a whole game of each game here, each move the first legal
//! one.
//!
//! Kalah: at the end the seeds left are swept into the stores, so the stores hold all 48
//! seeds and the score is their difference.
//!
//! ```
//! use mancala_core::kalah::KalahPosition;
//! use mancala_core::{GameRecord, Side};
//!
//! let mut game = GameRecord::<KalahPosition>::new("standard".parse()?);
//! while !game.is_over() {
//!     let mv = game.position().legal_moves()[0];
//!     game.play(mv)?;
//! }
//! let end = game.position();
//! assert_eq!(end.seeds_in_houses(), 0);
//! assert_eq!(end.store(Side::South) + end.store(Side::North), 48);
//! let outcome = end.outcome().expect("the game is over");
//! assert_eq!(outcome.score, end.store_difference());
//! // The record replays the same game from its moves, and takes the last move back.
//! let again = GameRecord::replay(*game.start(), game.moves())?;
//! assert_eq!(again.position(), end);
//! let last = game.undo().expect("a move was played");
//! assert!(game.position().legal_moves().contains(&last));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Bao la Kete: 64 seeds in all, on the board or in the two reserves, at every ply; the game
//! is won or lost, and its score is +1 or −1.
//!
//! ```
//! use mancala_core::bao::BaoPosition;
//! use mancala_core::GameRecord;
//!
//! let mut game = GameRecord::<BaoPosition>::new("bao-la-kete".parse()?);
//! while !game.is_over() {
//!     let mv = game.position().legal_moves()[0];
//!     game.play(mv)?;
//!     assert_eq!(game.position().total_seeds(), 64);
//! }
//! let outcome = game.position().outcome().expect("the game is over");
//! assert!(outcome.winner.is_some() && outcome.score.abs() == 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Oware (the rule set `awari`): the seeds on the board and in the two stores are 48 at
//! every ply; a move is a house number from the mover's left. The game can also end by its
//! history (a position repeated, OW-6.2): [`GameRecord::ended_by`] says so.
//!
//! ```
//! use mancala_core::oware::{OwareMove, OwarePosition};
//! use mancala_core::{GameRecord, Side};
//!
//! let mut game = GameRecord::<OwarePosition>::new("awari".parse()?);
//! // X1 of the rules: South's house 3 sows its 4 seeds into S4, S5, S6 and N1.
//! game.play(OwareMove(3))?;
//! assert_eq!(game.position().to_string(), "4,4,0,5,5,5,0,5,4,4,4,4,4,0 N");
//! while !game.is_over() {
//!     let mv = game.position().legal_moves()[0];
//!     game.play(mv)?;
//!     let p = game.position();
//!     let stores = u32::from(p.store(Side::South)) + u32::from(p.store(Side::North));
//!     assert_eq!(p.seeds_in_houses() + stores, 48);
//! }
//! let outcome = game.position().outcome().expect("the game is over");
//! assert!(outcome.score.abs() <= 48);
//! assert_eq!(game.plies(), game.moves().len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Togyz Kumalak (the rule set `togyz-kumalak`): the 162 kumalaks in the houses and the two
//! kazans at every ply; a move is a house number from the mover's left. The game ends when a
//! kazan holds more than half of them or a side cannot move, and its score is South's kazan
//! minus North's.
//!
//! ```
//! use mancala_core::togyz::{TogyzMove, TogyzPosition};
//! use mancala_core::{GameRecord, Side};
//!
//! let mut game = GameRecord::<TogyzPosition>::new("togyz-kumalak".parse()?);
//! // X1 of the rules: South's house 9 sows one kumalak back into itself and eight into
//! // N1..N8; N8 then holds 10, an even number, captured into South's kazan.
//! game.play(TogyzMove(9))?;
//! assert_eq!(game.position().kazan(Side::South), 10);
//! while !game.is_over() {
//!     let mv = game.position().legal_moves()[0];
//!     game.play(mv)?;
//!     assert_eq!(game.position().total(), 162);
//! }
//! let end = game.position();
//! let outcome = end.outcome().expect("the game is over");
//! let kazans = i32::from(end.kazan(Side::South)) - i32::from(end.kazan(Side::North));
//! assert_eq!(outcome.score, kazans);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]
// A user copying an example gets no warning: the examples compile with warnings denied.
#![doc(test(attr(deny(warnings))))]

pub mod any;
pub mod bao;
pub mod game;
pub mod kalah;
pub mod oware;
pub mod rules;
mod side;
pub mod togyz;
pub mod words;

pub use any::{AnyError, AnyGame};
pub use game::{
    parse_moves, Game, GameKind, GameRecord, HistoryEnd, HistoryRules, MoveList, Outcome, Player,
    RecordError,
};
pub use rules::{Rules, RulesError};
pub use side::Side;

/// The rules of the games and the text formats, as this crate implements them: the rules
/// pages and the notation page of the project's documentation, included here whole so that
/// they are part of the crate's documentation wherever it is read. Rule ids cited in the API
/// documentation and the sources (Kalah's rules by section, Bao la Kete's K-n.m, Oware's
/// OW-n.m) are defined in these pages. Links between the pages (`../notation.md`,
/// `rules/kalah.md`) name the pages' files in the source tree: the modules below are those
/// pages.
pub mod docs {
    /// Kalah(m, n) and every rule option (the source tree's `docs/rules/kalah.md`).
    #[doc = include_str!("../docs/rules/kalah.md")]
    pub mod kalah_rules {}

    /// Bao la Kete (the source tree's `docs/rules/bao-la-kete.md`). Its bracketed source
    /// tags (`[LAMU]`, `[INF]`, …) are citations, not links.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/rules/bao-la-kete.md")]
    pub mod bao_la_kete_rules {}

    /// Oware (Abapa) and Awari (the source tree's `docs/rules/oware.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/rules/oware.md")]
    pub mod oware_rules {}

    /// Togyz Kumalak (the source tree's `docs/rules/togyz-kumalak.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/rules/togyz-kumalak.md")]
    pub mod togyz_kumalak_rules {}

    /// The notation of Kalah(m, n): rule sets, positions, moves and game records (the source
    /// tree's `docs/notation/kalah.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/notation/kalah.md")]
    pub mod kalah_notation {}

    /// The notation of Bao la Kete: rule sets, positions, moves and game records (the source
    /// tree's `docs/notation/bao-la-kete.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/notation/bao-la-kete.md")]
    pub mod bao_la_kete_notation {}

    /// The notation of Oware and Awari: rule sets, positions, moves and game records (the source
    /// tree's `docs/notation/oware.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/notation/oware.md")]
    pub mod oware_notation {}

    /// The notation of Togyz Kumalak and Bestemshe: rule sets, positions, moves and game records (the source
    /// tree's `docs/notation/togyz-kumalak.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/notation/togyz-kumalak.md")]
    pub mod togyz_kumalak_notation {}

    /// The notation rules of every game (letter case) and the line protocol for bots, with the
    /// list of the games' notation pages (the source tree's `docs/notation.md`).
    #[allow(rustdoc::broken_intra_doc_links)]
    #[doc = include_str!("../docs/notation.md")]
    pub mod notation {}
}

/// Text a user gave, for an error message: shown whole up to [`Shortened::MAX_CHARS`]
/// characters, else its first [`Shortened::MAX_CHARS`] characters and `…` (so that a 128 KB
/// bad move gives a one-line message, not 128 KB of echo), and with every control character
/// escaped as Rust writes it in a string (`\n`, `\t`, `\0`, `\u{7f}`), so that the message
/// stays one line of printable text whatever was typed (a NUL or a newline in a rule string
/// from Python or C). The error values keep the whole text; only their messages change.
#[derive(Clone, Copy, Debug)]
pub struct Shortened<'a>(pub &'a str);

impl Shortened<'_> {
    /// Characters shown of a longer text.
    pub const MAX_CHARS: usize = 60;
}

impl core::fmt::Display for Shortened<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        ShortenedTo(self.0, Self::MAX_CHARS).fmt(f)
    }
}

/// [`Shortened`] with another length: text shown whole up to `.1` characters, else its first
/// `.1` characters and `…`, every control character escaped as Rust writes it in a string.
/// For a text a longer message may quote, such as the reason a program gave for an error.
#[derive(Clone, Copy, Debug)]
pub struct ShortenedTo<'a>(pub &'a str, pub usize);

impl core::fmt::Display for ShortenedTo<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        for (i, c) in self.0.chars().enumerate() {
            if i == self.1 {
                return f.write_char('…');
            }
            if c.is_control() {
                write!(f, "{}", c.escape_debug())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

/// A path a user gave, for an error message: shown whole up to [`ShortenedPath::MAX_CHARS`]
/// characters (real paths, which often pass 60 characters, stay whole so that the file can
/// be found); a longer one as [`Shortened::MAX_CHARS`] characters, its first 30, `…` and its
/// last 29 (the file's name stays in sight), then its length, e.g.
/// `/tmp/aaaaaaaaaaaaaaaaaaaaaaaaa…aaaaaaaaaaaaaaaaa/x.egdb (100012 characters)`, so that a
/// path of a megabyte gives a one-line message. Control characters are escaped as
/// [`Shortened`] escapes them; a part that is not UTF-8 is shown as `�`. The error values
/// keep the whole path; only their messages change.
#[derive(Clone, Copy, Debug)]
pub struct ShortenedPath<'a>(pub &'a std::path::Path);

impl ShortenedPath<'_> {
    /// Characters of the longest path shown whole.
    pub const MAX_CHARS: usize = 256;
}

impl core::fmt::Display for ShortenedPath<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        let text = self.0.to_string_lossy();
        let n = text.chars().count();
        let put = |f: &mut core::fmt::Formatter<'_>, c: char| {
            if c.is_control() {
                write!(f, "{}", c.escape_debug())
            } else {
                f.write_char(c)
            }
        };
        if n <= Self::MAX_CHARS {
            return text.chars().try_for_each(|c| put(f, c));
        }
        let head = Shortened::MAX_CHARS / 2;
        let tail = Shortened::MAX_CHARS - head - 1;
        text.chars().take(head).try_for_each(|c| put(f, c))?;
        f.write_char('…')?;
        text.chars().skip(n - tail).try_for_each(|c| put(f, c))?;
        write!(f, " ({n} characters)")
    }
}

/// A command-line parser's usage error (clap's text: `error: …`, maybe a `tip: …` line, a
/// blank line, `Usage: …` and `For more information, try '--help'.`) as one line, as the
/// `mancala` and `mancala-mpi` commands print it after their `<command>: error: ` prefix:
/// the lines before the usage, white space at their ends trimmed, clap's own `error: `
/// prefix taken off, joined by a space, so that what follows a colon (the missing
/// argument's name, the bad value) stays on the line; a `tip:` line is set off by `; `.
/// Takes the text without colours (`clap::Error`'s `to_string()`); returns `invalid
/// arguments` for a text with no line before its usage. Never panics.
#[must_use]
pub fn usage_error_line(parser_text: &str) -> String {
    let mut line = String::new();
    for part in parser_text.lines().map(str::trim) {
        if part.starts_with("Usage:") || part.starts_with("For more information") {
            break;
        }
        if part.is_empty() {
            continue;
        }
        if !line.is_empty() {
            // clap's tip is a sentence of its own: set off, not run into the message.
            line.push_str(if part.starts_with("tip:") { "; " } else { " " });
        }
        line.push_str(part.trim_start_matches("error: "));
    }
    if line.is_empty() {
        return "invalid arguments".to_string();
    }
    line
}

/// A number 0..=255 written with one to three ASCII decimal digits (a house number or a
/// count of the Oware and Togyz Kumalak notations); `None` for anything else. Never panics.
pub(crate) fn byte_number(text: &str) -> Option<u8> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// The most decimal digits `counts` whole numbers, each 0..=`cap` (at most 999), take when
/// they sum to at most `total` (seeds): every number takes one digit, a number of 10 or more
/// one more, of 100 or more two more, so with `a` three-digit and `b` two-digit numbers the
/// digits are `counts + 2a + b`, and the cheapest such numbers are 100 and 10 seeds. Tries
/// every `a` and gives the rest of the seeds to as many tens as fit. Used to derive the
/// longest position notations ([`kalah::NOTATION_MAX_BYTES`], [`bao::NOTATION_MAX_BYTES`]).
pub(crate) const fn max_count_digits(counts: u32, total: u32, cap: u32) -> u32 {
    let mut best = counts;
    let mut a = 0;
    while a <= counts && (a == 0 || (cap >= 100 && 100 * a <= total)) {
        let left = total - 100 * a;
        let tens = if cap >= 10 { left / 10 } else { 0 };
        let b = if tens < counts - a { tens } else { counts - a };
        if counts + 2 * a + b > best {
            best = counts + 2 * a + b;
        }
        a += 1;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{max_count_digits, usage_error_line, Shortened, ShortenedPath, ShortenedTo};

    /// clap's usage error in its block form, as clap 4 writes it, becomes one line.
    #[test]
    fn a_usage_error_is_one_line() {
        let block = "error: unexpected argument '--bogus' found\n\n  \
tip: to pass '--bogus' as a value, use '-- --bogus'\n\n\
Usage: mancala-mpi solve [OPTIONS]\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_error_line(block),
            "unexpected argument '--bogus' found; tip: to pass '--bogus' as a value, use '-- --bogus'"
        );
        let missing = "error: the following required arguments were not provided:\n  \
--rules <RULES>\n\nUsage: mancala-mpi egdb build --rules <RULES>\n";
        assert_eq!(
            usage_error_line(missing),
            "the following required arguments were not provided: --rules <RULES>"
        );
        assert_eq!(usage_error_line("Usage: x\n"), "invalid arguments");
        assert_eq!(usage_error_line(""), "invalid arguments");
    }

    /// The most digits by exhaustive search: `best[s]` = most digits of the numbers so far
    /// summing to exactly `s`, one number (0..=cap) added at a time.
    fn digits_by_search(counts: u32, total: u32, cap: u32) -> u32 {
        let mut best = vec![None::<u32>; total as usize + 1];
        best[0] = Some(0);
        for _ in 0..counts {
            let mut next = vec![None::<u32>; total as usize + 1];
            for (s, d) in best.iter().enumerate() {
                let Some(d) = d else { continue };
                for v in 0..=cap.min(total - s as u32) {
                    let t = s + v as usize;
                    let nd = d + v.to_string().len() as u32;
                    next[t] = Some(next[t].map_or(nd, |x: u32| x.max(nd)));
                }
            }
            best = next;
        }
        best.into_iter().flatten().max().unwrap()
    }

    #[test]
    fn most_digits_match_an_exhaustive_search() {
        for (counts, total, cap) in [
            (16, 255, 255),
            (14, 255, 255),
            (4, 255, 255),
            (34, 64, 64),
            (3, 250, 255),
            (2, 9, 255),
            (5, 150, 64),
        ] {
            assert_eq!(
                max_count_digits(counts, total, cap),
                digits_by_search(counts, total, cap),
                "{counts} numbers, total {total}, cap {cap}"
            );
        }
    }

    /// The deprecated paths (gone in 0.4.0) name the same types as the current ones, and
    /// work as before: a struct literal, a variant.
    #[test]
    #[allow(deprecated)]
    fn the_deprecated_paths_name_the_same_types() {
        use core::any::TypeId;
        assert_eq!(
            TypeId::of::<crate::oware::HistoryEnd>(),
            TypeId::of::<crate::HistoryEnd>()
        );
        assert_eq!(
            TypeId::of::<crate::oware::HistoryRules>(),
            TypeId::of::<crate::HistoryRules>()
        );
        let rules = crate::oware::HistoryRules {
            repetition: Some(3),
            move_limit: None,
        };
        assert!(!rules.is_none());
        assert_ne!(
            crate::oware::HistoryEnd::Repetition,
            crate::HistoryEnd::MoveLimit
        );
    }

    #[test]
    fn a_long_path_keeps_its_start_its_end_and_its_length() {
        use std::path::Path;
        let whole = "/".to_string() + &"p".repeat(255);
        assert_eq!(ShortenedPath(Path::new(&whole)).to_string(), whole);
        let cut = "/".to_string() + &"p".repeat(256);
        assert_eq!(
            ShortenedPath(Path::new(&cut)).to_string(),
            format!("/{}…{} (257 characters)", "p".repeat(29), "p".repeat(29))
        );
        let long = format!("/tmp/{}/kalah6.k16.egdb", "d".repeat(1 << 20));
        let n = long.chars().count();
        assert_eq!(
            ShortenedPath(Path::new(&long)).to_string(),
            format!(
                "/tmp/{}…{}/kalah6.k16.egdb ({n} characters)",
                "d".repeat(25),
                "d".repeat(13)
            )
        );
        assert_eq!(ShortenedPath(Path::new("a\nb")).to_string(), "a\\nb");
        assert_eq!(ShortenedPath(Path::new("")).to_string(), "");
    }

    #[test]
    fn shortened_text_keeps_60_characters() {
        let sixty = "a".repeat(60);
        assert_eq!(Shortened(&sixty).to_string(), sixty);
        let sixty_one = "b".repeat(61);
        assert_eq!(
            Shortened(&sixty_one).to_string(),
            format!("{}…", "b".repeat(60))
        );
        // Characters, not bytes: two-byte `é` is never cut in half.
        let accents = "é".repeat(100);
        assert_eq!(
            Shortened(&accents).to_string(),
            format!("{}…", "é".repeat(60))
        );
        assert_eq!(Shortened("").to_string(), "");
        // Another length, the same rule: 200 characters whole, 201 cut to 200 and `…`.
        let two_hundred = "c".repeat(200);
        assert_eq!(ShortenedTo(&two_hundred, 200).to_string(), two_hundred);
        assert_eq!(
            ShortenedTo(&"d\t".repeat(101), 200).to_string(),
            format!("{}…", "d\\t".repeat(100))
        );
    }

    /// Control characters are written as Rust escapes (the sequences below are written out
    /// by hand, not by `escape_debug`), so a message is one printable line.
    #[test]
    fn shortened_text_escapes_control_characters() {
        assert_eq!(Shortened("kal\0ah").to_string(), "kal\\0ah");
        assert_eq!(Shortened("a\nb\tc\rd").to_string(), "a\\nb\\tc\\rd");
        assert_eq!(Shortened("\u{7f}\u{1b}").to_string(), "\\u{7f}\\u{1b}");
        // Printable text, non-ASCII included, is kept as it is.
        assert_eq!(Shortened("é ü 4½ `x`").to_string(), "é ü 4½ `x`");
        // An escaped character counts as one of the 60.
        let text = "\n".repeat(61);
        assert_eq!(
            Shortened(&text).to_string(),
            format!("{}…", "\\n".repeat(60))
        );
        let rules: Result<crate::Rules, _> = "kal\nah(6,4)".parse();
        let message = rules.unwrap_err().to_string();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains("`kal\\nah(6,4)`"), "{message}");
    }
}

/// The README's example, compiled and run as a doctest (`cargo test --doc`), warnings denied
/// (an unused import in it is an error).
#[cfg(doctest)]
#[doc(test(attr(deny(warnings))))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
