//! Counts in words, for the lines and messages the crates of this workspace print: `1 entry`,
//! `2 entries`, `0 boards`, `-1 seeds`.
//!
//! English as the Unicode CLDR plural rules give it (category `one` for the integer 1,
//! `other` for every other count): the singular for exactly one, the plural for zero,
//! negative counts and every count above one. Every noun is given in both forms by the
//! caller, so irregular plurals (`entry`/`entries`, `ply`/`plies`, `loss`/`losses`) need no
//! rule here.

use core::fmt::Display;

/// `n` and its noun, a space between: `one` for exactly one, `many` for every other `n`
/// (`0 entries`, `1 entry`, `2 entries`, `-1 seeds`).
///
/// `n` is a whole number of any integer type (`u8` to `u64`, `usize`, `i16` to `i64`, …):
/// a count of seeds, nodes, bytes or boards, or a signed figure such as a loss in seeds (only
/// exactly `1` is singular; `-1` takes the plural, as the CLDR rules of the
/// [module](self) say). `n` is written as its [`Display`] writes it (no separators). The
/// returned text is `n`, one space and the noun; it never panics.
///
/// ```
/// use mancala_core::words::count;
/// assert_eq!(count(1u64, "entry", "entries"), "1 entry");
/// assert_eq!(count(0usize, "entry", "entries"), "0 entries");
/// assert_eq!(count(3u32, "ply", "plies"), "3 plies");
/// assert_eq!(count(-1i32, "seed", "seeds"), "-1 seeds");
/// ```
pub fn count<N: Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let word = if n == N::from(1) { one } else { many };
    format!("{n} {word}")
}

/// The noun alone for a count `n` printed elsewhere (in a right-aligned column, or before
/// other words): `one` for exactly one, `many` for every other `n`, by the rule of
/// [`count`]. Returns one of the two texts given; never panics.
///
/// ```
/// use mancala_core::words::noun;
/// assert_eq!(noun(1u64, "node", "nodes"), "node");
/// assert_eq!(noun(12u64, "node", "nodes"), "nodes");
/// assert_eq!(format!("{:>6} {}", 1, noun(1u8, "leaf", "leaves")), "     1 leaf");
/// ```
pub fn noun<'a, N: PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_is_singular() {
        assert_eq!(count(1u8, "board", "boards"), "1 board");
        assert_eq!(count(1usize, "byte", "bytes"), "1 byte");
        assert_eq!(count(1i64, "seed", "seeds"), "1 seed");
        assert_eq!(noun(1u32, "search", "searches"), "search");
    }

    #[test]
    fn zero_negative_and_more_than_one_are_plural() {
        assert_eq!(count(0u64, "leaf", "leaves"), "0 leaves");
        assert_eq!(count(2u64, "loss", "losses"), "2 losses");
        assert_eq!(count(-1i32, "seed", "seeds"), "-1 seeds");
        assert_eq!(count(-2i32, "ply", "plies"), "-2 plies");
        assert_eq!(count(11usize, "rank", "ranks"), "11 ranks");
        assert_eq!(noun(0u64, "node", "nodes"), "nodes");
        assert_eq!(noun(101u64, "node", "nodes"), "nodes");
    }

    #[test]
    fn the_largest_counts_are_written_whole() {
        // 2^64 - 1 and -2^63, as the standard library's constants document them.
        assert_eq!(
            count(u64::MAX, "entry", "entries"),
            "18446744073709551615 entries"
        );
        assert_eq!(
            count(i64::MIN, "seed", "seeds"),
            "-9223372036854775808 seeds"
        );
    }

    #[test]
    fn a_noun_of_several_words_is_kept_whole() {
        assert_eq!(
            count(1u64, "exchange round", "exchange rounds"),
            "1 exchange round"
        );
        assert_eq!(
            count(5usize, "byte of text", "bytes of text"),
            "5 bytes of text"
        );
    }
}
