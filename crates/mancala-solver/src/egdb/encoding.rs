//! The entry encodings of a database ([`Encoding`]) and the value of a one-byte entry
//! ([`decode`]).

use mancala_core::kalah::KalahOptions;

use super::packed::Codec;
use super::MAX_DB_SEEDS;

/// Entry encoding 1: one byte, the value for the side to move plus 128 (excess-128: byte
/// 128 is value 0, byte 108 is −20; byte 0 never occurs).
const ENCODING_I8_VALUE: u8 = 1;

/// Entry encoding 2: the index of the value among the values its layer allows, in the same
/// number of bits for every entry (5 bits for K ≤ 30 under the parity rules), packed into a
/// little-endian bit stream ([`Encoding::Packed`], module docs).
const ENCODING_PACKED: u8 = 2;

/// Entry encoding 3: the values in blocks of canonical Huffman codes chosen by the values of
/// two neighbouring boards, with an index of the blocks (Oware databases only;
/// [`Encoding::Compact`], module docs of `awari`).
const ENCODING_COMPACT: u8 = 3;

/// How the entries of a database are stored, in memory and in its file (the header's
/// entry-encoding byte).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// One byte an entry, the value + 128 (header byte 1): the fastest lookups, 8
    /// bits a position.
    #[default]
    Byte,
    /// The value's index among the values its layer allows, in ⌈log₂(K + 2)⌉ bits (one more
    /// under `discard_remaining`), packed (header byte 2, module docs): 5 bits a position
    /// for K = 15..=30.
    Packed,
    /// The values in blocks of 128 boards, each coded with a canonical Huffman code chosen
    /// by the values of two neighbouring boards, and an index of the blocks (header byte 3):
    /// about 3.3 bits a board for the Oware databases of 20 to 24 seeds, a lookup decoding
    /// one block. Oware databases only: a Kalah database refuses it.
    Compact,
}

impl Encoding {
    /// The encodings of every database, Kalah's and Oware's: [`Encoding::Byte`] and
    /// [`Encoding::Packed`].
    pub const ALL: [Encoding; 2] = [Encoding::Byte, Encoding::Packed];

    /// Every encoding: those of [`Encoding::ALL`] and [`Encoding::Compact`] (Oware
    /// databases only).
    pub const EVERY: [Encoding; 3] = [Encoding::Byte, Encoding::Packed, Encoding::Compact];

    /// The names of [`Encoding::EVERY`], in its order: `byte`, `packed`, `compact` (what
    /// [`Encoding::name`] gives and `str::parse` takes; a command line offers them).
    pub const NAMES: [&'static str; 3] = ["byte", "packed", "compact"];

    /// The header byte: 1 for [`Encoding::Byte`], 2 for [`Encoding::Packed`], 3 for
    /// [`Encoding::Compact`].
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Encoding::Byte => ENCODING_I8_VALUE,
            Encoding::Packed => ENCODING_PACKED,
            Encoding::Compact => ENCODING_COMPACT,
        }
    }

    /// The encoding of a header byte, `None` for an unknown one.
    #[must_use]
    pub fn from_code(code: u8) -> Option<Encoding> {
        match code {
            ENCODING_I8_VALUE => Some(Encoding::Byte),
            ENCODING_PACKED => Some(Encoding::Packed),
            ENCODING_COMPACT => Some(Encoding::Compact),
            _ => None,
        }
    }

    /// Its name on the command line and in messages: `byte`, `packed` or `compact`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Byte => "byte",
            Encoding::Packed => "packed",
            Encoding::Compact => "compact",
        }
    }

    /// Bits an entry of a database of K = `max_seeds` for the value-relevant `options`
    /// takes in this encoding: 8, or the packed width (module docs of `packed`: 4 bits for
    /// K ≤ 14, 5 for K ≤ 30, 6 for K ≤ 62, one more under `discard_remaining`); 8 for
    /// [`Encoding::Compact`], which no Kalah database has (its bits depend on the values).
    #[must_use]
    pub fn bits_per_entry(self, max_seeds: u32, options: KalahOptions) -> u32 {
        match self {
            Encoding::Byte | Encoding::Compact => BITS_PER_ENTRY,
            Encoding::Packed => Codec::new(max_seeds.min(MAX_DB_SEEDS), options).width(),
        }
    }
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Encoding {
    type Err = UnknownEncoding;

    /// The encoding named `s`: `byte`, `packed` or `compact` ([`Encoding::NAMES`], exactly:
    /// `Packed` is no name).
    ///
    /// # Errors
    /// [`UnknownEncoding`] for any other text; it says `unknown database encoding "x"
    /// (byte, packed or compact)`.
    fn from_str(s: &str) -> Result<Encoding, UnknownEncoding> {
        Encoding::EVERY
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| UnknownEncoding {
                given: s.to_string(),
            })
    }
}

/// A text that names no [`Encoding`] (the error of its `str::parse`). Says `unknown
/// database encoding "x" (byte, packed or compact)`: the text given, quoted and escaped as
/// Rust's `{:?}` does, and every accepted name ([`Encoding::NAMES`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown database encoding {given:?} ({})", accepted())]
pub struct UnknownEncoding {
    /// The text that was given.
    pub given: String,
}

/// [`Encoding::NAMES`] in words: `byte, packed or compact`.
fn accepted() -> String {
    match Encoding::NAMES.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The value (seeds) of an entry byte of [`Encoding::Byte`] (excess-128: byte 128 is value
/// 0, byte 108 is −20).
#[inline(always)]
#[must_use]
pub fn decode(entry: u8) -> i32 {
    i32::from(entry) - 128
}
/// Bits per entry of [`Encoding::Byte`] (for [`Encoding::Packed`]:
/// [`Encoding::bits_per_entry`]).
pub(crate) const BITS_PER_ENTRY: u32 = 8;
