//! Counts in words, for every line the command prints: `1 entry`, `2 entries`, `0 boards`.

/// `n` and the noun of the count, singular for exactly one and plural otherwise (English:
/// `0 nodes`, `1 node`, `2 nodes`): `one` and `many` are the two forms (`"entry"`,
/// `"entries"`). Any whole number: a count, or a signed figure such as a loss in seeds
/// (`-1 seeds`, only exactly one is singular).
pub fn count<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    if n == N::from(1) {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The noun alone for a count `n` that is printed elsewhere (a right-aligned column):
/// `one` for exactly one, else `many`.
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
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(0u64, "entry", "entries"), "0 entries");
        assert_eq!(count(1u64, "entry", "entries"), "1 entry");
        assert_eq!(count(2u64, "loss", "losses"), "2 losses");
        assert_eq!(count(-1i32, "seed", "seeds"), "-1 seeds");
        assert_eq!(count(1i64, "seed", "seeds"), "1 seed");
        assert_eq!(noun(1u64, "node", "nodes"), "node");
        assert_eq!(noun(11u64, "node", "nodes"), "nodes");
    }
}
