//! The header of a database file: the one [`Header`] type, its encoding ([`Header::encode`],
//! what [`Egdb::save`] writes) and its decoding with every check of the fields
//! ([`Header::decode`] and [`Header::check`], what [`Egdb::open`], [`Egdb::info`] and
//! [`Egdb::from_bytes`] read). The layout is in the module docs of [`crate::egdb`] ("File
//! format").

use std::path::Path;

use mancala_core::kalah::{KalahOptions, KalahRules};
use mancala_core::GameKind;

use super::packed::{Codec, PAD};
use super::{check_size, serves, Egdb, EgdbError, Encoding, BITS_PER_ENTRY};

/// The file magic.
pub(crate) const MAGIC: [u8; 8] = *b"MNCLEGDB";
/// The file format version this library writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Bytes of the header before the rule-set text.
const FIXED_HEADER: usize = 32;
/// Longest rule-set text a header may hold, bytes.
const MAX_RULES_LEN: usize = 256;
/// Longest header, bytes: what is read of a file before its header is decoded.
pub(super) const MAX_LEN: usize = FIXED_HEADER + MAX_RULES_LEN + 4;

/// The header of a database file, field by field as the file holds them (module docs of
/// [`crate::egdb`], "File format"): what [`Egdb::save`] writes before the entries, and what
/// opening a file reads and checks before a single entry is used.
///
/// The fields are the raw values of the file, unchecked: [`Header::encode`] writes whatever
/// they hold (a header that opening refuses included, for tests of those refusals), while a
/// file's header is only accepted once [`Egdb::info`] or [`Egdb::open`] has checked every
/// field ([`EgdbInfo`] is the checked form).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version ([`FORMAT_VERSION`] for a file this library reads).
    pub version: u32,
    /// m, houses a row.
    pub houses: u8,
    /// K, the largest seed count in the houses.
    pub max_seeds: u8,
    /// The value-relevant options, as the bits of `KalahOptions::bits`.
    pub option_bits: u8,
    /// The entry encoding byte ([`Encoding::code`]: 1 one byte an entry, 2 packed).
    pub encoding: u8,
    /// Number of entries, C(K+2m, 2m).
    pub entries: u64,
    /// CRC-32 (IEEE) of the payload, the bytes after the header.
    pub payload_crc: u32,
    /// The rule set the database was built with (`kalah(6,4)+empty_capture`).
    pub rules: String,
}

impl Header {
    /// The header's bytes as a file holds them: the magic `MNCLEGDB`, the fields
    /// little-endian, the rule-set text, and the CRC-32 of all the bytes before it; 36 bytes
    /// and the text's length ([`Header::encoded_len`]). The payload follows them in a file.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut header = Vec::with_capacity(self.encoded_len());
        header.extend_from_slice(&MAGIC);
        header.extend_from_slice(&self.version.to_le_bytes());
        header.push(self.houses);
        header.push(self.max_seeds);
        header.push(self.option_bits);
        header.push(self.encoding);
        header.extend_from_slice(&self.entries.to_le_bytes());
        header.extend_from_slice(&self.payload_crc.to_le_bytes());
        header.extend_from_slice(&(self.rules.len() as u32).to_le_bytes());
        header.extend_from_slice(self.rules.as_bytes());
        let hcrc = crc32fast::hash(&header);
        header.extend_from_slice(&hcrc.to_le_bytes());
        header
    }

    /// Bytes of the encoded header, the offset of the payload in a file: 36 and the length
    /// of the rule-set text.
    #[must_use]
    pub fn encoded_len(&self) -> usize {
        FIXED_HEADER + self.rules.len() + 4
    }

    /// Reads the header at the start of `bytes`, the first bytes of a file of `file_len`
    /// bytes named `path` (named in errors): the magic, the format version, the length of
    /// the rule-set text, the header's checksum and the text's UTF-8, in that order. Returns
    /// the header and the offset of the payload; [`Header::check`] checks the fields.
    pub(crate) fn decode(
        path: &Path,
        bytes: &[u8],
        file_len: u64,
    ) -> Result<(Header, usize), EgdbError> {
        // Cut inside the header: the file's length is not known yet, only the least it takes.
        let truncated = |expected: u64| EgdbError::Truncated {
            expected,
            found: file_len,
            at_least: true,
        };
        if bytes.len() < 8 {
            return Err(if bytes == &MAGIC[..bytes.len()] {
                truncated(FIXED_HEADER as u64 + 4)
            } else {
                EgdbError::BadMagic(path.to_path_buf())
            });
        }
        if bytes[..8] != MAGIC {
            return Err(EgdbError::BadMagic(path.to_path_buf()));
        }
        if bytes.len() < FIXED_HEADER {
            return Err(truncated(FIXED_HEADER as u64 + 4));
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != FORMAT_VERSION {
            return Err(EgdbError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let rules_len = u32_at(28) as usize;
        if rules_len > MAX_RULES_LEN {
            return Err(EgdbError::Header(format!(
                "rule-set string of {rules_len} bytes"
            )));
        }
        let payload_at = FIXED_HEADER + rules_len + 4;
        if bytes.len() < payload_at {
            return Err(truncated(payload_at as u64));
        }
        let stored_hcrc = u32_at(FIXED_HEADER + rules_len);
        if crc32fast::hash(&bytes[..FIXED_HEADER + rules_len]) != stored_hcrc {
            return Err(EgdbError::Header("header checksum mismatch".into()));
        }
        let rules = std::str::from_utf8(&bytes[FIXED_HEADER..FIXED_HEADER + rules_len])
            .map_err(|_| EgdbError::Header("rule set is not UTF-8".into()))?;
        let header = Header {
            version,
            houses: bytes[12],
            max_seeds: bytes[13],
            option_bits: bytes[14],
            encoding: bytes[15],
            entries: u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes")),
            payload_crc: u32_at(24),
            rules: rules.to_string(),
        };
        Ok((header, payload_at))
    }

    /// Checks the fields of a header that [`Header::decode`] read from a file of `file_len`
    /// bytes: the rule set, the option bits and their agreement with it, the entry encoding,
    /// K and the size it gives, the number of entries, and the file's length (no byte
    /// missing, none after the last entry). Returns the checked header. A rule set of another
    /// game (an Awari database) is [`EgdbError::WrongGame`], naming `path`.
    pub(crate) fn check(self, path: &Path, file_len: u64) -> Result<EgdbInfo, EgdbError> {
        let payload_at = self.encoded_len();
        let Header {
            version,
            houses,
            max_seeds,
            option_bits,
            encoding,
            entries,
            payload_crc,
            rules: rules_text,
        } = self;
        let max_seeds = u32::from(max_seeds);
        let game = GameKind::of_rules(&rules_text);
        if game != GameKind::Kalah {
            return Err(EgdbError::WrongGame {
                path: path.to_path_buf(),
                found: game,
                rules: rules_text,
                expected: GameKind::Kalah,
            });
        }
        let rules: KalahRules = rules_text
            .parse()
            .map_err(|e| EgdbError::Header(format!("rule set {rules_text:?}: {e}")))?;
        let options = KalahOptions::from_bits(option_bits)
            .ok_or_else(|| EgdbError::Header(format!("unknown option bits {option_bits:#x}")))?;
        if rules.houses() != houses || rules.options().database_relevant() != options {
            return Err(EgdbError::Header(format!(
                "fields m = {houses}, options {option_bits:#x} disagree with the rule set {rules_text:?}"
            )));
        }
        let kind =
            match Encoding::from_code(encoding) {
                Some(Encoding::Compact) => return Err(EgdbError::Header(
                    "entry encoding 3 (compact) in a Kalah database: only Oware databases have it"
                        .into(),
                )),
                Some(kind) => kind,
                None => {
                    return Err(EgdbError::Header(format!(
                        "unknown entry encoding {encoding}"
                    )))
                }
            };
        let expected_entries = check_size(houses, max_seeds)?;
        if entries != expected_entries {
            return Err(EgdbError::Header(format!(
                "{} where m = {houses}, K = {max_seeds} has {expected_entries}",
                mancala_core::words::count(entries, "entry", "entries")
            )));
        }
        let (bits_per_entry, payload_bytes, memory_bytes) = match kind {
            Encoding::Byte | Encoding::Compact => (BITS_PER_ENTRY, entries, entries),
            Encoding::Packed => {
                let codec = Codec::new(max_seeds, options);
                let p = codec.payload_bytes(entries);
                (codec.width(), p, p + PAD as u64)
            }
        };
        super::check_length(file_len, payload_at as u64 + payload_bytes)?;
        Ok(EgdbInfo {
            version,
            rules: rules_text,
            houses,
            max_seeds,
            options,
            encoding,
            bits_per_entry,
            entries,
            payload_bytes,
            memory_bytes,
            file_bytes: file_len,
            payload_crc,
        })
    }
}

/// [`Header::decode`] then [`Header::check`]: the checked header of the file of `file_len`
/// bytes named `path` whose first bytes are `bytes`, and the offset of its payload.
pub(super) fn read(
    path: &Path,
    bytes: &[u8],
    file_len: u64,
) -> Result<(EgdbInfo, usize), EgdbError> {
    let (header, payload_at) = Header::decode(path, bytes, file_len)?;
    Ok((header.check(path, file_len)?, payload_at))
}

/// The header fields of a database file ([`Egdb::info`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EgdbInfo {
    /// Format version.
    pub version: u32,
    /// The rule set the database was built with.
    pub rules: String,
    /// m, houses a row.
    pub houses: u8,
    /// K: every position with at most K seeds in the houses has an entry.
    pub max_seeds: u32,
    /// The value-relevant options it serves.
    pub options: KalahOptions,
    /// Entry encoding byte ([`Encoding::code`]: 1 one byte an entry, 2 packed).
    pub encoding: u8,
    /// Bits per entry (8, or the packed width: [`Encoding::bits_per_entry`]).
    pub bits_per_entry: u32,
    /// Number of entries, C(K+2m, 2m).
    pub entries: u64,
    /// Size of the payload (the entries) in the file, bytes.
    pub payload_bytes: u64,
    /// Memory the entries take once the file is opened, bytes ([`Egdb::bytes`]).
    pub memory_bytes: u64,
    /// Size of the file, bytes.
    pub file_bytes: u64,
    /// CRC-32 of the payload, as stored.
    pub payload_crc: u32,
}

impl EgdbInfo {
    /// The entry encoding (the header's byte is always a known one in an `EgdbInfo`).
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        Encoding::from_code(self.encoding).unwrap_or_default()
    }

    /// Whether the database of this header gives the values of positions played under
    /// `rules` (same m, same value-relevant options; module docs), as [`Egdb::serves`] says
    /// once it is opened.
    #[must_use]
    pub fn serves(&self, rules: &KalahRules) -> bool {
        serves(self.houses, self.options, rules)
    }
}

impl super::DatabaseInfo for EgdbInfo {
    fn max_seeds(&self) -> u32 {
        self.max_seeds
    }
    fn encoding(&self) -> Encoding {
        EgdbInfo::encoding(self)
    }
    fn rules(&self) -> &str {
        &self.rules
    }
    fn memory_bytes(&self) -> u64 {
        self.memory_bytes
    }
    fn describe(&self) -> String {
        format!(
            "{}, K = {}",
            super::family(self.houses, self.options),
            self.max_seeds
        )
    }
    fn entries(&self) -> u64 {
        self.entries
    }
    fn bits_in(&self, encoding: Encoding) -> u32 {
        encoding.bits_per_entry(self.max_seeds, self.options)
    }
    fn file_name(&self, encoding: Encoding) -> String {
        super::file_name(self.houses, self.options, self.max_seeds, encoding)
    }
}

impl Egdb {
    /// The header of this database's file, with the payload checksum `payload_crc`.
    pub(super) fn header(&self, payload_crc: u32) -> Header {
        Header {
            version: FORMAT_VERSION,
            houses: self.houses,
            max_seeds: self.max_seeds as u8,
            option_bits: self.options.bits(),
            encoding: self.encoding().code(),
            entries: self.entries,
            payload_crc,
            rules: self.rules.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a header, laid out by hand from the table of the module docs, and read
    /// back field by field.
    #[test]
    fn encode_writes_the_documented_layout_and_decode_reads_it_back() {
        let header = Header {
            version: 1,
            houses: 3,
            max_seeds: 5,
            option_bits: 1,
            encoding: 2,
            entries: 462,
            payload_crc: 0x0102_0304,
            rules: "kalah(3,1)+empty_capture".into(),
        };
        let mut want = b"MNCLEGDB".to_vec();
        want.extend_from_slice(&[1, 0, 0, 0]); // version
        want.extend_from_slice(&[3, 5, 1, 2]); // m, K, option bits, encoding
        want.extend_from_slice(&[0xCE, 0x01, 0, 0, 0, 0, 0, 0]); // 462 entries
        want.extend_from_slice(&[4, 3, 2, 1]); // payload CRC
        want.extend_from_slice(&[24, 0, 0, 0]); // length of the rule set
        want.extend_from_slice(b"kalah(3,1)+empty_capture");
        let crc = crc32fast::hash(&want);
        want.extend_from_slice(&crc.to_le_bytes());
        let bytes = header.encode();
        assert_eq!(bytes, want);
        assert_eq!(header.encoded_len(), 36 + 24);
        let (read, payload_at) =
            Header::decode(Path::new("<memory>"), &bytes, bytes.len() as u64).unwrap();
        assert_eq!(read, header);
        assert_eq!(payload_at, 60);
    }
}
