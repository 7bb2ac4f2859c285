//! The compact encoding of the Oware databases (entry encoding 3): byte-for-byte round trips
//! through it, the same values in every encoding, its file layout (module docs of
//! `awari::compact`, `docs/awari.md`), and damaged files refused with typed errors.

mod scratch;

use mancala_core::oware::GrandSlam;
use mancala_solver::awari::{rank, AwariDb};
use mancala_solver::egdb::{BuildOptions, Database, DatabaseInfo, Egdb, Encoding};
use mancala_solver::EgdbError;

/// N of the files of these tests: levels 0..=9, 293,475 boards.
const N: u32 = 9;

/// The rule-set text of the header of the `awari+grand_slam=none` database.
const RULES: &str = "awari+grand_slam=none";

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Boards of level n: C(n+11, 11) − C(n+5, 11) (OW-11.1).
fn level_len(n: u64) -> u64 {
    binomial(n + 11, 11) - binomial(n + 5, 11)
}

/// The byte file and the compact file of the `grand_slam=none` database of N seeds.
fn files() -> (Vec<u8>, Vec<u8>) {
    let db = AwariDb::build_until_under(GrandSlam::None, N, 1, |_| true).unwrap();
    let byte = scratch::file("byte.egdb");
    db.save(&byte).unwrap();
    let compact = scratch::file("compact.egdb");
    db.convert(Encoding::Compact)
        .unwrap()
        .save(&compact)
        .unwrap();
    let out = (
        std::fs::read(&byte).unwrap(),
        std::fs::read(&compact).unwrap(),
    );
    std::fs::remove_file(&byte).unwrap();
    std::fs::remove_file(&compact).unwrap();
    out
}

fn open(bytes: &[u8], name: &str) -> Result<AwariDb, EgdbError> {
    let path = scratch::file(name);
    std::fs::write(&path, bytes).unwrap();
    let r = AwariDb::open(&path);
    std::fs::remove_file(&path).unwrap();
    r
}

/// Where the payload starts: the header is 36 bytes and the rule set's text.
const PAYLOAD_AT: usize = 36 + RULES.len();

/// The byte offsets, in the payload, of the index and of the stream of a compact payload of
/// the levels 0..=N, from the layout in the module docs: the stream's length (8 bytes), a
/// table of ⌈k/2⌉ bytes for each of the k·(k + 1) contexts of each level (k = 2n + 1), then
/// 70 bytes for each group of 32 blocks of 128 boards.
fn index_and_stream() -> (usize, usize) {
    let mut tables = 8;
    let mut blocks = 0;
    for n in 0..=u64::from(N) {
        let k = (2 * n + 1) as usize;
        tables += k * (k + 1) * k.div_ceil(2);
        blocks += level_len(n).div_ceil(128) as usize;
    }
    (tables, tables + blocks.div_ceil(32) * 70)
}

/// The file `bytes` with both checksums made right again (header layout of `egdb`).
fn rechecksummed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = RULES.len();
    let crc = crc32fast::hash(&bytes[PAYLOAD_AT..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    let hcrc = crc32fast::hash(&bytes[..32 + n]);
    bytes[32 + n..36 + n].copy_from_slice(&hcrc.to_le_bytes());
    bytes
}

#[test]
fn byte_to_compact_to_byte_is_the_same_file_and_every_value_agrees() {
    let (byte, compact) = files();
    // The header: encoding byte 3, the entries of N, the rule set.
    assert_eq!(&compact[..8], b"MNCLEGDB");
    assert_eq!(compact[15], 3);
    let entries: u64 = (0..=u64::from(N)).map(level_len).sum();
    assert_eq!(entries, 293_475);
    assert_eq!(
        u64::from_le_bytes(compact[16..24].try_into().unwrap()),
        entries
    );
    assert_eq!(&compact[32..32 + RULES.len()], RULES.as_bytes());
    // The payload's parts: the stream's length is what follows the index.
    let (_, stream_at) = index_and_stream();
    let s = u64::from_le_bytes(compact[PAYLOAD_AT..PAYLOAD_AT + 8].try_into().unwrap());
    assert_eq!(compact.len(), PAYLOAD_AT + stream_at + s as usize);
    // Smaller than the byte file (one byte a board) by far.
    assert!(
        compact.len() * 2 < byte.len(),
        "{} {}",
        compact.len(),
        byte.len()
    );

    let from_compact = open(&compact, "rt.egdb").unwrap();
    assert_eq!(from_compact.encoding(), Encoding::Compact);
    let from_byte = open(&byte, "rt-byte.egdb").unwrap();
    // Every value, and the level counts, the same.
    for n in 0..=N {
        assert_eq!(
            from_compact.level_stats(n),
            from_byte.level_stats(n),
            "level {n}"
        );
        for i in 0..rank::level_len(n).unwrap() {
            assert_eq!(
                from_compact.value_at(n, i),
                from_byte.value_at(n, i),
                "{n} {i}"
            );
        }
    }
    assert_eq!(from_compact.value_at(N, rank::level_len(N).unwrap()), None);
    // Back to one byte a board: the very file; through packed and back: the very files.
    let back = scratch::file("back.egdb");
    from_compact
        .convert(Encoding::Byte)
        .unwrap()
        .save(&back)
        .unwrap();
    assert!(std::fs::read(&back).unwrap() == byte);
    let packed = from_compact.convert(Encoding::Packed).unwrap();
    packed
        .convert(Encoding::Compact)
        .unwrap()
        .save_over(&back)
        .unwrap();
    assert!(std::fs::read(&back).unwrap() == compact);
    std::fs::remove_file(&back).unwrap();
    // The info the header gives.
    let path = scratch::file("info.egdb");
    std::fs::write(&path, &compact).unwrap();
    let info = AwariDb::info(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(info.encoding, Encoding::Compact);
    assert_eq!(info.payload_bytes, (compact.len() - PAYLOAD_AT) as u64);
    // The bits a board, from the header and once opened: the payload's bits over the
    // boards.
    let bits = (compact.len() - PAYLOAD_AT) as f64 * 8.0 / entries as f64;
    assert_eq!(info.average_bits(), bits);
    assert_eq!(from_compact.average_bits(), bits);
    assert_eq!(
        <AwariDb as Database>::average_bits(&from_compact),
        DatabaseInfo::average_bits(&info)
    );
    // The memory, from the header and once opened: the payload and 8 bytes of padding, and
    // for each context of each level a decoder of a first table of 256 two-byte entries, 96
    // bytes of limits and a byte for each value its table gives a code (a nibble not 0).
    let (index_at, _) = index_and_stream();
    let tables = &compact[PAYLOAD_AT + 8..PAYLOAD_AT + index_at];
    let codes = tables
        .iter()
        .map(|b| usize::from(b & 15 != 0) + usize::from(b >> 4 != 0))
        .sum::<usize>();
    let contexts: usize = (0..=N as usize).map(|n| (2 * n + 1) * (2 * n + 2)).sum();
    let memory = (compact.len() - PAYLOAD_AT + 8 + contexts * (512 + 96) + codes) as u64;
    assert_eq!(info.memory_bytes, memory);
    assert_eq!(DatabaseInfo::memory_bytes(&info), memory);
    assert_eq!(from_compact.bytes() as u64, memory);
    assert_eq!(
        AwariDb::file_name_under(GrandSlam::None, N, Encoding::Compact),
        "awari+grand_slam=none.n9.compact.egdb"
    );
    assert_eq!("compact".parse::<Encoding>(), Ok(Encoding::Compact));
}

#[test]
fn kalah_databases_refuse_the_compact_encoding() {
    let rules = "kalah(4,3)".parse().unwrap();
    let compact = BuildOptions::new().encoding(Encoding::Compact);
    assert!(matches!(
        Egdb::build(&rules, 5, compact),
        Err(EgdbError::NoSuchEncoding {
            encoding: Encoding::Compact,
            ..
        })
    ));
    let db = Egdb::build(&rules, 5, BuildOptions::new()).unwrap();
    assert!(matches!(
        db.convert(Encoding::Compact),
        Err(EgdbError::NoSuchEncoding { .. })
    ));
    // A Kalah header naming encoding 3 is refused before its payload is read.
    let path = scratch::file("kalah.egdb");
    db.save(&path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[15] = 3;
    let n = "kalah(4,3)".len();
    let hcrc = crc32fast::hash(&bytes[..32 + n]);
    bytes[32 + n..36 + n].copy_from_slice(&hcrc.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    assert!(matches!(Egdb::open(&path), Err(EgdbError::Header(_))));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn damaged_compact_files_are_refused_with_typed_errors() {
    let (_, good) = files();
    let (index_at, stream_at) = index_and_stream();
    let (index_at, stream_at) = (PAYLOAD_AT + index_at, PAYLOAD_AT + stream_at);
    // A flipped bit anywhere in the payload: the checksum (in the stream's length: the
    // length of the file, below).
    for at in [
        PAYLOAD_AT + 9,
        index_at + 3,
        stream_at + 100,
        good.len() - 1,
    ] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(
            matches!(open(&bad, "flip.egdb"), Err(EgdbError::Checksum { .. })),
            "byte {at}"
        );
    }
    // Cut short, or with a byte appended: the length its stream length calls for.
    for cut in [1, 100, good.len() - stream_at] {
        let bad = good[..good.len() - cut].to_vec();
        assert!(
            matches!(open(&bad, "cut.egdb"), Err(EgdbError::Truncated { .. })),
            "cut {cut}"
        );
    }
    let cut = good[..PAYLOAD_AT + 5].to_vec();
    assert!(matches!(
        open(&cut, "cut.egdb"),
        Err(EgdbError::Truncated { .. })
    ));
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        open(&long, "long.egdb"),
        Err(EgdbError::TooLong { .. })
    ));
    let mut bad = good.clone();
    bad[PAYLOAD_AT] ^= 1;
    assert!(matches!(
        open(&bad, "length.egdb"),
        Err(EgdbError::TooLong { .. } | EgdbError::Truncated { .. })
    ));
    // Right checksums, a bad index: the block's entry is not where its codes start.
    for (at, delta) in [
        (index_at + 8, 1u8),
        (index_at + 70, 2),
        (index_at + 2 * 70 + 20, 1),
    ] {
        let mut bad = good.clone();
        bad[at] = bad[at].wrapping_add(delta);
        let bad = rechecksummed(bad);
        assert!(
            matches!(open(&bad, "index.egdb"), Err(EgdbError::BadBlock { .. })),
            "index byte {at}"
        );
    }
    // Right checksums, a table that is no prefix code (level 1's first context: every
    // length 1) or has a length past its last value.
    let mut bad = good.clone();
    let level1 = PAYLOAD_AT + 8 + 2;
    bad[level1] = 0x11;
    bad[level1 + 1] = 0x01;
    assert!(matches!(
        open(&rechecksummed(bad), "table.egdb"),
        Err(EgdbError::BadBlock { .. })
    ));
    let mut bad = good.clone();
    bad[level1 + 1] |= 0x10;
    assert!(matches!(
        open(&rechecksummed(bad), "nibble.egdb"),
        Err(EgdbError::BadBlock { .. })
    ));
    // Right checksums, flipped bits in the stream: an error of the index, the codes or the
    // padding, never a panic (a flip may also leave codes of the same lengths: other values,
    // which only the checksum catches).
    let mut refused = 0;
    for bit in (0..2000).step_by(7) {
        let mut bad = good.clone();
        bad[stream_at + bit / 8] ^= 1 << (bit % 8);
        match open(&rechecksummed(bad), "stream.egdb") {
            Err(EgdbError::BadBlock { .. } | EgdbError::Padding { .. }) => refused += 1,
            Err(e) => panic!("bit {bit}: {e}"),
            Ok(_) => {}
        }
    }
    assert!(refused > 150, "{refused} of 286 refused");
}
