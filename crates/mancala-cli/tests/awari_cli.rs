//! `--rules awari` on the command line: `egdb build/info/verify/convert` of Awari files,
//! `solve` and `analyse` answering from the database, each value equal to the independent
//! reference of the solver's tests (`mancala-solver/tests/awari_ref`, a brute force written
//! from the rules text), the captured counts of the position added for the final score; a
//! position with more seeds than the database holds, and files of the other game, refused
//! with a clear message; the cache built on first use, reused, rebuilt when damaged.

mod common;

#[path = "../../mancala-solver/tests/awari_ref/mod.rs"]
mod awari_ref;

use std::path::Path;
use std::process::{Output, Stdio};

use awari_ref::{boards_of, moves, Board, Reference};
use common::{mancala_text, scratch, stderr, stdout, text};

/// N of the test databases: every board of at most 8 seeds (43,758 boards in the
/// reference), built in well under a second.
const N: u32 = 8;

/// The Oware position text of `board` (mover first) with `mover` to move and the captured
/// counts `stores` (South's, North's): `S1..S6,S-captured,N1..N6,N-captured side`.
fn position(board: &Board, south_moves: bool, stores: (u8, u8)) -> String {
    let (south, north) = if south_moves {
        (&board[..6], &board[6..])
    } else {
        (&board[6..], &board[..6])
    };
    let mut parts: Vec<String> = south.iter().map(u8::to_string).collect();
    parts.push(stores.0.to_string());
    parts.extend(north.iter().map(u8::to_string));
    parts.push(stores.1.to_string());
    format!(
        "{} {}",
        parts.join(","),
        if south_moves { "S" } else { "N" }
    )
}

/// `mancala egdb build --rules RULES --max-seeds N --out OUT` and `more` options.
fn egdb_build(rules: &str, n: &str, out: &str, more: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "egdb",
        "build",
        "--rules",
        rules,
        "--max-seeds",
        n,
        "--out",
        out,
    ];
    args.extend_from_slice(more);
    mancala_text(&args)
}

/// `mancala egdb convert FILE --encoding byte --out OUT`.
fn convert_to_byte(file: &str, out: &Path) -> (bool, String, String) {
    mancala_text(&[
        "egdb",
        "convert",
        file,
        "--encoding",
        "byte",
        "--out",
        out.to_str().unwrap(),
    ])
}

/// A JSON field as a whole number.
fn int(v: &serde_json::Value, field: &str) -> i64 {
    v[field]
        .as_i64()
        .unwrap_or_else(|| panic!("{field} in {v}"))
}

/// `egdb build` and `egdb convert` print a file's size the same way, in the same words, for
/// every encoding and both games: the bytes `std::fs::metadata` gives of the saved file, and
/// its payload, the file less its header (36 bytes and the rule set's text: 41 for `awari`
/// and `kalah(4,3)`, 57 for `awari+grand_slam=none`).
#[test]
fn build_and_convert_print_the_saved_file_size() {
    let dir = scratch("awari-cli", "sizes");
    let size = |file: &Path, header: u64| {
        let len = std::fs::metadata(file).unwrap().len();
        format!("{len} bytes on disk (a payload of {})", len - header)
    };
    for (rules, max_seeds, name, header) in [
        ("awari", "8", "awari.n8", 41),
        ("awari+grand_slam=none", "8", "awari+grand_slam=none.n8", 57),
        (
            "kalah(4,3)",
            "6",
            "kalah4.k6",
            36 + "kalah(4,3)".len() as u64,
        ),
    ] {
        for encoding in ["byte", "packed", "compact"] {
            if rules.starts_with("kalah") && encoding == "compact" {
                continue;
            }
            let built_dir = dir.join(format!("{name}-built-{encoding}"));
            let (ok, out, err) = egdb_build(
                rules,
                max_seeds,
                built_dir.to_str().unwrap(),
                &["--encoding", encoding],
            );
            assert!(ok, "{out}{err}");
            let suffix = if encoding == "byte" {
                String::new()
            } else {
                format!(".{encoding}")
            };
            let built = built_dir.join(format!("{name}{suffix}.egdb"));
            let want = size(&built, header);
            assert!(out.contains(&format!(", {want}; saved ")), "{out}");
            // The same file converted from another encoding: the same words, the same size.
            let from = if encoding == "byte" { "packed" } else { "byte" };
            let source_dir = dir.join(format!("{name}-from-{encoding}"));
            let (ok, out, err) = egdb_build(
                rules,
                max_seeds,
                source_dir.to_str().unwrap(),
                &["--encoding", from],
            );
            assert!(ok, "{out}{err}");
            let from_suffix = if from == "byte" { "" } else { ".packed" };
            let source = source_dir.join(format!("{name}{from_suffix}.egdb"));
            let (ok, out, err) = mancala_text(&[
                "egdb",
                "convert",
                source.to_str().unwrap(),
                "--encoding",
                encoding,
            ]);
            assert!(ok, "{out}{err}");
            let converted = source_dir.join(format!("{name}{suffix}.egdb"));
            assert_eq!(
                std::fs::read(&converted).unwrap(),
                std::fs::read(&built).unwrap()
            );
            assert!(out.contains(&format!("), {want}, in ")), "{out}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A compact file cut short anywhere: `egdb info` and `egdb verify` say it is truncated and
/// give the length the saved file has (from `std::fs::metadata`) once the stream length its
/// payload starts with is in the file (the 41-byte header and 8 bytes), and before that only
/// a least length, said so ("at least"), between the cut and the whole file.
#[test]
fn a_cut_compact_file_says_how_long_it_should_be_or_that_it_does_not_know() {
    let dir = scratch("awari-cli", "cut-compact");
    let (ok, out, err) = egdb_build(
        "awari",
        "8",
        dir.to_str().unwrap(),
        &["--encoding", "compact"],
    );
    assert!(ok, "{out}{err}");
    let whole = std::fs::read(dir.join("awari.n8.compact.egdb")).unwrap();
    let len = whole.len();
    let cut_file = dir.join("cut.egdb");
    let c = cut_file.to_str().unwrap();
    for cut in [
        0,
        20,
        35,
        36,
        40,
        41,
        48,
        49,
        100,
        9748,
        9749,
        9750,
        len / 2,
        len - 1,
    ] {
        std::fs::write(&cut_file, &whole[..cut]).unwrap();
        for command in ["info", "verify"] {
            let (ok, out, err) = mancala_text(&["egdb", command, c]);
            assert!(!ok && out.is_empty(), "{command}, cut at {cut}: {out}{err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            let why = err
                .split("database file truncated: ")
                .nth(1)
                .unwrap_or_else(|| panic!("{command}, cut at {cut}: {err}"))
                .trim_end();
            if cut >= 41 + 8 {
                assert_eq!(
                    why,
                    format!("{len} bytes expected, {cut} found"),
                    "{command}"
                );
            } else {
                let least: usize = why
                    .strip_prefix("at least ")
                    .and_then(|w| w.strip_suffix(&format!(" bytes expected, {cut} found")))
                    .unwrap_or_else(|| panic!("{command}, cut at {cut}: {err}"))
                    .parse()
                    .unwrap();
                assert!(
                    cut < least && least <= len,
                    "{command}, cut at {cut}: {err}"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count of one is singular in every line that prints one: the databases of a single
/// entry (Awari's level 0 holds the empty board alone, a draw; Kalah's K = 0 the position
/// with empty houses, C(2m, 2m) = 1), the position of one seed refused by the database of
/// none, and perft of kalah(1,1) at depth 1: its first player has one house, so one move;
/// `egdb info` of such a file: one byte in memory.
#[test]
fn a_count_of_one_is_singular() {
    let dir = scratch("awari-cli", "singular");
    let d = dir.to_str().unwrap();
    let (ok, out, err) = egdb_build("awari", "0", d, &[]);
    assert!(ok, "{out}{err}");
    assert!(out.contains(", 1 board, one byte a board"), "{out}");
    assert!(
        err.contains("(1 board, ") && err.contains("level  0: 1 board, 0 wins, 1 draw, 0 losses"),
        "{err}"
    );
    let (ok, out, err) = egdb_build("kalah(1,1)", "0", d, &[]);
    assert!(ok, "{out}{err}");
    assert!(out.contains(", 1 entry, byte"), "{out}");
    for file in ["awari.n0.egdb", "kalah1.k0.egdb"] {
        let f = dir.join(file);
        let (ok, out, err) = mancala_text(&["egdb", "verify", f.to_str().unwrap()]);
        assert!(ok && out.contains(", 1 entry, "), "{out}{err}");
        // One byte an entry in the byte encoding: one entry is one byte in memory.
        let (ok, out, err) = mancala_text(&["egdb", "info", f.to_str().unwrap()]);
        assert!(
            ok && out.contains("\nin memory       1 byte ("),
            "{out}{err}"
        );
    }
    let (ok, out, err) = mancala_text(&["egdb", "info", d]);
    assert!(ok && out.matches(", 1 entry, ").count() == 2, "{out}{err}");
    let (ok, out, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--position",
        "1,0,0,0,0,0,0,0,0,0,0,0,0,0 S",
        "--egdb",
        dir.join("awari.n0.egdb").to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains("has 1 seed in its houses") && err.contains("at most 0 seeds"),
        "{out}{err}"
    );
    // Awari's levels 0..=1: a generated position asked for at least 2 seeds is beyond the
    // database's largest level, of one seed.
    let (ok, out, err) = egdb_build("awari", "1", d, &[]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = mancala_text(&[
        "grade",
        "--generate",
        "--rules",
        "awari",
        "--egdb",
        dir.join("awari.n1.egdb").to_str().unwrap(),
        "--min-seeds",
        "2",
        "--count",
        "1",
        "--level",
        "1",
    ]);
    assert!(
        !ok && err
            .contains("--min-seeds 2 is more than the 1 seed of the database's largest level"),
        "{out}{err}"
    );
    let (ok, out, err) = mancala_text(&["perft", "--rules", "kalah(1,1)", "--depth", "1"]);
    assert!(ok && out.contains(" 1 node "), "{out}{err}");
    for plural in ["1 boards", "1 entries", "1 draws", "1 seeds", "1 nodes"] {
        assert!(!out.contains(plural) && !err.contains(plural), "{plural}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn build_info_verify_convert_and_solve_against_the_reference() {
    let dir = scratch("awari-cli", "files");
    let d = dir.to_str().unwrap();
    let (ok, out, err) = egdb_build("awari", "8", d, &[]);
    assert!(ok, "{out}{err}");
    // The per-level lines: level 2 has 78 boards (C(13,11) − C(7,11)).
    assert!(err.contains("level  2: 78 boards"), "{err}");
    let file = dir.join("awari.n8.egdb");
    let f = file.to_str().unwrap();
    assert!(file.is_file());

    let (ok, out, err) = mancala_text(&["egdb", "info", f]);
    assert!(ok, "{err}");
    assert!(out.contains("max seeds (N)   8"), "{out}");
    let boards: usize = (0..=N).map(|n| boards_of(n).len()).sum();
    // The reference counts every board; the database only those whose second player has
    // an empty house: C(n+5,11) fewer a level, which is 0 up to n = 5, 1 at 6, 12 at 7 and
    // 78 at 8.
    let indexed = boards - (1 + 12 + 78);
    assert!(out.contains(&format!("entries         {indexed}")), "{out}");
    let (ok, out, err) = mancala_text(&["egdb", "verify", f]);
    assert!(
        ok && out.contains(": OK (awari, levels 0..=8"),
        "{out}{err}"
    );
    let (ok, out, err) = mancala_text(&["egdb", "info", f]);
    assert!(ok, "{err}");
    assert!(
        out.contains("encoding        byte (header byte 1)") && out.contains("bits/position   8"),
        "{out}"
    );
    // Converted to packed, beside it: 2·8 + 1 = 17 values at level 8, 5 bits a board, the
    // 41-byte header and ⌈boards · 5 / 8⌉ bytes.
    let (ok, out, err) = mancala_text(&["egdb", "convert", f, "--encoding", "packed"]);
    assert!(ok, "{out}{err}");
    let packed = dir.join("awari.n8.packed.egdb");
    let p = packed.to_str().unwrap();
    let packed_len = 41 + (indexed * 5).div_ceil(8);
    assert_eq!(std::fs::metadata(&packed).unwrap().len(), packed_len as u64);
    let (ok, out, err) = mancala_text(&["egdb", "info", p]);
    assert!(ok, "{err}");
    assert!(
        out.contains("encoding        packed (header byte 2)"),
        "{out}"
    );
    assert!(out.contains("bits/position   5"), "{out}");
    assert!(
        out.contains(&format!("on disk         {packed_len} bytes")),
        "{out}"
    );
    assert!(
        out.contains(&format!("in memory       {} bytes", packed_len - 41 + 8)),
        "{out}"
    );
    let (ok, out, err) = mancala_text(&["egdb", "verify", p]);
    assert!(
        ok && out.contains(": OK (awari, levels 0..=8, packed encoding, 5 bits a board"),
        "{out}{err}"
    );
    let (ok, _, err) = mancala_text(&["egdb", "convert", p, "--encoding", "packed"]);
    assert!(!ok && err.contains("is already packed"), "{err}");
    // Compact, beside it, and back to one byte a board: the very file. Its info and verify
    // name the encoding and give the file's bits over its boards.
    let (ok, converted, err) = mancala_text(&["egdb", "convert", p, "--encoding", "compact"]);
    assert!(ok, "{converted}{err}");
    let compact = dir.join("awari.n8.compact.egdb");
    let c = compact.to_str().unwrap();
    let compact_len = std::fs::metadata(&compact).unwrap().len();
    assert!(compact_len < packed_len as u64, "{compact_len}");
    let (ok, out, err) = mancala_text(&["egdb", "info", c]);
    assert!(ok, "{err}");
    assert!(
        out.contains("encoding        compact (header byte 3)"),
        "{out}"
    );
    // The bits a board: the payload's (the file less its 41-byte header) over the boards,
    // the same in info, verify and convert.
    let bits = format!("{:.3}", (compact_len - 41) as f64 * 8.0 / indexed as f64);
    assert!(out.contains(&format!("bits/position   {bits} ")), "{out}");
    assert!(
        converted.contains(&format!(
            "({bits} bits a board), {compact_len} bytes on disk (a payload of {})",
            compact_len - 41
        )),
        "{converted}"
    );
    // The memory info gives before opening is the memory verify finds the file takes: at
    // least the payload and its 8 bytes of padding.
    let memory_line = out.lines().find(|l| l.starts_with("in memory")).unwrap();
    let memory: u64 = memory_line
        .split_whitespace()
        .nth(2)
        .unwrap()
        .parse()
        .unwrap();
    assert!(memory > compact_len - 41 + 8, "{out}");
    let human = memory_line
        .split(" bytes (")
        .nth(1)
        .unwrap()
        .trim_end_matches(')');
    let (ok, out, err) = mancala_text(&["egdb", "verify", c]);
    assert!(
        ok && out.contains(&format!(
            ": OK (awari, levels 0..=8, compact encoding, {bits} bits a board, {indexed} entries, {human} in memory;"
        )),
        "{out}{err}"
    );
    // Cut short or lengthened, the compact file's info refuses it (its payload starts with
    // its length), as opening it does, naming the length the file should have.
    let bytes = std::fs::read(&compact).unwrap();
    for (name, cut) in [
        ("short.egdb", bytes[..bytes.len() - 100].to_vec()),
        ("long.egdb", [bytes.as_slice(), b"xy"].concat()),
    ] {
        let damaged = dir.join(name);
        std::fs::write(&damaged, &cut).unwrap();
        let (ok, out, err) = mancala_text(&["egdb", "info", damaged.to_str().unwrap()]);
        assert!(
            !ok && out.is_empty() && err.contains(&format!("{compact_len} bytes expected")),
            "{out}{err}"
        );
    }
    let from_compact = dir.join("from-compact");
    let (ok, out, err) = convert_to_byte(c, &from_compact);
    assert!(ok, "{out}{err}");
    assert_eq!(
        std::fs::read(from_compact.join("awari.n8.egdb")).unwrap(),
        std::fs::read(&file).unwrap()
    );
    // Back to one byte a board, into another folder: the same bytes as the built file.
    let back = dir.join("back");
    let (ok, out, err) = convert_to_byte(p, &back);
    assert!(ok, "{out}{err}");
    assert_eq!(
        std::fs::read(back.join("awari.n8.egdb")).unwrap(),
        std::fs::read(&file).unwrap()
    );
    // --out naming a file: that file, the same bytes; naming the file being converted: refused.
    let named = dir.join("named").join("mine.egdb");
    let (ok, out, err) = convert_to_byte(p, &named);
    assert!(ok, "{out}{err}");
    assert_eq!(
        std::fs::read(&named).unwrap(),
        std::fs::read(&file).unwrap()
    );
    let (ok, _, err) = mancala_text(&["egdb", "convert", p, "--encoding", "byte", "--out", p]);
    assert!(!ok && err.contains("the file being converted"), "{err}");
    // A packed file named as a one-byte one, converted beside itself: it would be written
    // over, so it is refused too.
    let odd = dir.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    let misnamed = odd.join("awari.n8.egdb");
    std::fs::copy(&packed, &misnamed).unwrap();
    let (ok, _, err) = mancala_text(&[
        "egdb",
        "convert",
        misnamed.to_str().unwrap(),
        "--encoding",
        "byte",
    ]);
    assert!(!ok && err.contains("the file being converted"), "{err}");
    assert_eq!(
        std::fs::read(&misnamed).unwrap(),
        std::fs::read(&packed).unwrap()
    );
    // A damaged copy is refused naming the file, and the --out folders made for it are gone
    // again: a failed conversion leaves the disk as it found it.
    let damaged = dir.join("damaged");
    std::fs::create_dir_all(&damaged).unwrap();
    let mut bytes = std::fs::read(&packed).unwrap();
    let middle = 41 + (bytes.len() - 41) / 2;
    bytes[middle] ^= 0xFF;
    let bad = damaged.join("awari.n8.packed.egdb");
    std::fs::write(&bad, &bytes).unwrap();
    let nowhere = dir.join("nowhere");
    let (ok, out, err) = convert_to_byte(bad.to_str().unwrap(), &nowhere.join("deeper"));
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains(bad.to_str().unwrap()) && err.contains("checksum mismatch"),
        "{err}"
    );
    assert!(!nowhere.exists(), "{err}");
    let (ok, out, err) = mancala_text(&["egdb", "info", d]);
    assert!(
        ok && out.contains("awari, levels 0..=8, byte (8 bits"),
        "{out}{err}"
    );
    assert!(
        out.contains("awari, levels 0..=8, packed (5 bits"),
        "{out}{err}"
    );

    // Every 97th board of each level, South and North to move, with and without captured
    // seeds: value, score and each move's value from the reference.
    let reference = Reference::build(N);
    let mut asked = 0;
    for n in 1..=N {
        for (i, b) in boards_of(n).iter().enumerate() {
            if i % 97 != 3 || moves(b).is_empty() {
                continue;
            }
            let south = i % 2 == 0;
            let stores = if i % 3 == 0 {
                (0, 0)
            } else {
                (11, 48 - 11 - n as u8)
            };
            let pos = position(b, south, stores);
            // Half of them from the packed file.
            let (ok, out, err) = mancala_text(&[
                "solve",
                "--rules",
                "awari",
                "--egdb",
                if asked % 2 == 0 { f } else { p },
                "--position",
                &pos,
                "--json",
            ]);
            assert!(ok, "{pos}: {err}");
            let j: serde_json::Value = serde_json::from_str(&out).unwrap();
            let v = reference.value(b);
            let captured = if south {
                i32::from(stores.0) - i32::from(stores.1)
            } else {
                i32::from(stores.1) - i32::from(stores.0)
            };
            assert_eq!(int(&j, "value"), i64::from(v), "{pos}");
            assert_eq!(int(&j, "score"), i64::from(captured + v), "{pos}");
            let want: Vec<(String, i64)> = moves(b)
                .iter()
                .map(|m| {
                    (
                        (m.house + 1).to_string(),
                        i64::from(m.captured as i32 - reference.value(&m.child)),
                    )
                })
                .collect();
            let got: Vec<(String, i64)> = j["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| (m["move"].as_str().unwrap().to_string(), int(m, "value")))
                .collect();
            assert_eq!(got, want, "{pos}");
            asked += 1;
        }
    }
    assert!(asked > 100, "{asked} positions");

    // The text of solve and analyse for OW-11.3's example: South's house 6 and North's
    // house 1 hold one seed each, 23 captured each; the grand slam is the only move and
    // wins both seeds.
    let pos = "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S";
    let (ok, out, err) =
        mancala_text(&["solve", "--rules", "awari", "--egdb", f, "--position", pos]);
    assert!(ok, "{err}");
    assert!(out.contains("value       +2"), "{out}");
    assert!(out.contains("score       +2"), "{out}");
    assert!(out.contains("moves       6:+2"), "{out}");
    // analyse, from a folder.
    let (ok, out, err) = mancala_text(&[
        "analyse",
        "--rules",
        "awari",
        "--egdb",
        d,
        "--position",
        "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("move    6  +2"), "{out}");

    // More seeds than the database holds: said, with the way out.
    let b: Board = [2, 2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0];
    let pos = position(&b, true, (19, 20));
    let (ok, _, err) =
        mancala_text(&["solve", "--rules", "awari", "--egdb", f, "--position", &pos]);
    assert!(!ok);
    assert!(
        err.contains("the position has 9 seeds in its houses, more than the 8"),
        "{err}"
    );
    assert!(err.contains("--max-seeds 9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_of_the_other_game_are_refused_in_one_line() {
    let dir = scratch("awari-cli", "games");
    let d = dir.to_str().unwrap();
    let kalah = dir.join("k.egdb");
    let awari = dir.join("a.egdb");
    for (rules, n, file) in [("standard", "2", &kalah), ("awari", "3", &awari)] {
        let (ok, out, err) = egdb_build(rules, n, file.to_str().unwrap(), &[]);
        assert!(ok, "{out}{err}");
    }
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--egdb",
        kalah.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("a database of Kalah (rule set standard), not of Oware"),
        "{err}"
    );
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "standard",
        "--egdb",
        awari.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("a database of Oware (rule set awari), not of Kalah"),
        "{err}"
    );
    // A folder: the Kalah file is passed over, the Awari one used.
    let (ok, out, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--egdb",
        d,
        "--position",
        "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S",
    ]);
    assert!(ok && out.contains("value       +2"), "{out}{err}");
    // Another Oware rule set has no database (its grand slam, majority and cycle rules give
    // other values) ...
    let (ok, _, err) = mancala_text(&["solve", "--rules", "oware"]);
    // ... naming what differs first, in short: oware's majority end and cycles to the own
    // rows (OW rules); then, as a tip, what solve serves.
    let (first, tip) = err.trim_end().split_once("; tip: ").expect("a tip");
    assert!(!ok, "{err}");
    assert_eq!(
        first,
        "mancala: error: --rules oware: no database holds the values of oware, which has majority=stop, cycle_score=own_row"
    );
    assert!(
        tip.starts_with("solve and analyse are for Kalah rule sets and the Oware rule sets")
            && tip.contains("awari and oware+majority=off+cycle_score=split"),
        "{err}"
    );
    // ... but a variant of awari in its repetition rule has the same values.
    let (ok, out, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari+repetition=2",
        "--egdb",
        d,
        "--position",
        "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S",
    ]);
    assert!(ok && out.contains("value       +2"), "{out}{err}");
    assert!(out.contains("rules       awari+repetition=2"), "{out}");
    // A build the game cannot have.
    let (ok, _, err) = egdb_build("awari", "49", d, &[]);
    assert!(
        !ok && err.contains("awari has 48 seeds, so at most 48"),
        "{err}"
    );
    // Built packed: the file that converting the one-byte build gives.
    let one = dir.join("one");
    let (ok, out, err) = egdb_build("awari", "6", one.to_str().unwrap(), &[]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = mancala_text(&[
        "egdb",
        "convert",
        one.join("awari.n6.egdb").to_str().unwrap(),
        "--encoding",
        "packed",
    ]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = egdb_build("awari", "6", d, &["--encoding", "packed"]);
    // N = 6: 13 values at level 6, 4 bits a board.
    assert!(ok && out.contains("packed, 4 bits a board"), "{out}{err}");
    assert_eq!(
        std::fs::read(dir.join("awari.n6.packed.egdb")).unwrap(),
        std::fs::read(one.join("awari.n6.packed.egdb")).unwrap()
    );
    // --max-seeds is Awari's.
    let (ok, _, err) = mancala_text(&["solve", "--rules", "standard", "--max-seeds", "3"]);
    assert!(!ok && err.contains("for --rules awari only"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `mancala ARGS` with the cache folder `cache` (and the cache on).
fn cached(cache: &Path, args: &[&str]) -> Output {
    common::mancala_command()
        .env_remove("MANCALA_NO_CACHE")
        .env("MANCALA_CACHE_DIR", cache)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mancala")
}

/// Without `--out` an Oware database goes to the cache folder, whose lookups read the
/// one-byte file only: a packed or compact build there is refused before any work, in one
/// line naming `--out`, and nothing is written; the one-byte build still goes there and is
/// what `solve --max-seeds N` then reads.
#[test]
fn a_packed_or_compact_build_without_out_is_refused_not_hidden_in_the_cache() {
    let cache = scratch("awari-cli", "cache-encodings");
    for encoding in ["packed", "compact"] {
        let o = cached(
            &cache,
            &[
                "egdb",
                "build",
                "--rules",
                "awari",
                "--max-seeds",
                "4",
                "--encoding",
                encoding,
            ],
        );
        assert_eq!(o.status.code(), Some(1), "{encoding}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("--encoding {encoding} without --out:"))
                && err.contains("awari.n4.egdb")
                && err.contains("--out DIR"),
            "{err}"
        );
        assert!(!err.contains("building"), "{err}");
        assert!(
            !cache.exists() || std::fs::read_dir(&cache).unwrap().next().is_none(),
            "{encoding}: something was written into the cache folder"
        );
    }
    // An N out of range is said first, not as a file of that N the cache would keep.
    let o = cached(
        &cache,
        &[
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "99",
            "--encoding",
            "packed",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("at most 48") && !err.contains("awari.n99"),
        "{err}"
    );
    let o = cached(
        &cache,
        &["egdb", "build", "--rules", "awari", "--max-seeds", "4"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(cache.join("awari.n4.egdb").is_file());
    let b: Board = [1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1];
    let pos = position(&b, true, (20, 24));
    let o = cached(
        &cache,
        &[
            "solve",
            "--rules",
            "awari",
            "--max-seeds",
            "4",
            "--position",
            &pos,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn the_cache_is_built_on_first_use_reused_and_rebuilt_when_damaged() {
    let cache = scratch("awari-cli", "cache");
    // Four seeds on the board: South 1 0 0 0 0 1, North 0 0 1 0 0 1.
    let b: Board = [1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1];
    let pos = position(&b, true, (20, 24));
    let reference = Reference::build(4);
    let want = format!("value       {:+}", reference.value(&b));
    let args = [
        "solve",
        "--rules",
        "awari",
        "--max-seeds",
        "6",
        "--position",
        &pos,
    ];
    let first = cached(&cache, &args);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stderr(&first).contains("building the Awari database"),
        "{}",
        stderr(&first)
    );
    assert!(stdout(&first).contains(&want), "{}", stdout(&first));
    let file = cache.join("awari.n6.egdb");
    assert!(file.is_file());
    let again = cached(&cache, &args);
    assert!(again.status.success());
    assert!(!stderr(&again).contains("building"), "{}", stderr(&again));
    assert!(stdout(&again).contains(&want));
    assert!(stdout(&again).contains(file.to_str().unwrap()));
    // A smaller N asked for: the cached N = 6 holds those boards too, and serves; nothing
    // is built beside it.
    let mut smaller = args.to_vec();
    smaller[4] = "4";
    let o = cached(&cache, &smaller);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
    assert!(stdout(&o).contains(&want), "{}", stdout(&o));
    assert!(stdout(&o).contains(file.to_str().unwrap()));
    assert!(!cache.join("awari.n4.egdb").exists());
    // A byte of the payload changed: refused, rebuilt, the same answer.
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&file, &bytes).unwrap();
    let rebuilt = cached(&cache, &args);
    assert!(rebuilt.status.success());
    let err = text(&rebuilt.stderr);
    assert!(
        err.contains("is not used (database checksum mismatch"),
        "{err}"
    );
    assert!(stdout(&rebuilt).contains(&want));
    // --no-cache: built in memory, nothing kept.
    std::fs::remove_file(&file).unwrap();
    let mut no_cache = args.to_vec();
    no_cache.push("--no-cache");
    let out = cached(&cache, &no_cache);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(&want));
    assert!(!file.exists());
    // More seeds than the cache's N, said before anything is built.
    let big = position(&[2, 2, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0], true, (19, 20));
    let out = cached(
        &cache,
        &[
            "solve",
            "--rules",
            "awari",
            "--max-seeds",
            "6",
            "--position",
            &big,
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the position has 9 seeds in its houses, more than the 6"),
        "{}",
        stderr(&out)
    );
    assert!(!file.exists());
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn a_damaged_file_in_the_egdb_folder_is_passed_over_and_an_unusable_cache_is_a_warning() {
    let dir = scratch("awari-cli", "passed-over");
    // Four seeds on the board, the value from the independent reference.
    let b: Board = [1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1];
    let pos = position(&b, true, (20, 24));
    let want = format!("value       {:+}", Reference::build(4).value(&b));
    let good = dir.join("good");
    let d = good.to_str().unwrap();
    for n in ["6", "8"] {
        let (ok, out, err) = egdb_build("awari", n, d, &["--quiet"]);
        assert!(ok, "{out}{err}");
    }
    // The larger file damaged in the middle of its entries: the smaller one answers.
    let big = good.join("awari.n8.egdb");
    let mut bytes = std::fs::read(&big).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    std::fs::write(&big, &bytes).unwrap();
    let (ok, out, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--position",
        &pos,
        "--egdb",
        d,
        "--verbose",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains(&want), "{out}");
    assert!(out.contains("awari.n6.egdb (levels 0..=6)"), "{out}");
    assert!(
        err.contains(&format!("skipped {}", big.display())) && err.contains("checksum mismatch"),
        "{err}"
    );
    // Every file damaged: no usable database, each named with its reason.
    let small = good.join("awari.n6.egdb");
    let mut bytes = std::fs::read(&small).unwrap();
    bytes.push(0);
    std::fs::write(&small, &bytes).unwrap();
    let (ok, _, err) =
        mancala_text(&["solve", "--rules", "awari", "--position", &pos, "--egdb", d]);
    assert!(!ok, "{err}");
    assert!(
        err.contains("no Oware database for awari in")
            && err.contains("awari.n6.egdb: database file too long")
            && err.contains("awari.n8.egdb: database checksum mismatch"),
        "{err}"
    );
    // The damaged file alone: refused, naming it.
    let (ok, _, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--position",
        &pos,
        "--egdb",
        big.to_str().unwrap(),
    ]);
    assert!(
        !ok && err.contains(big.to_str().unwrap()) && err.contains("checksum mismatch"),
        "{err}"
    );
    // A cache folder that cannot be made (a file stands where a folder should be): one
    // warning, and the answer from a database built for this run.
    let in_the_way = dir.join("a-file");
    std::fs::write(&in_the_way, b"not a folder").unwrap();
    let o = cached(
        &in_the_way.join("cache"),
        &[
            "solve",
            "--rules",
            "awari",
            "--max-seeds",
            "4",
            "--position",
            &pos,
        ],
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{out}{err}");
    assert!(out.contains(&want), "{out}");
    assert!(
        err.contains("warning: the Awari database cache cannot be used")
            && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_finished_game_has_every_field_of_the_json_answer() {
    // South captured 30, North 18: the game is over, South's final margin +12 (OW-9).
    let (ok, out, err) = mancala_text(&[
        "solve",
        "--rules",
        "awari",
        "--position",
        "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -",
        "--json",
    ]);
    assert!(ok, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(int(&v, "score"), 12, "{v}");
    assert_eq!(int(&v, "captured"), 12, "{v}");
    assert_eq!(
        (int(&v, "value"), int(&v, "lower"), int(&v, "upper")),
        (0, 0, 0),
        "{v}"
    );
    assert!(v["max_seeds"].is_null() && v["database"].is_null(), "{v}");
}

#[test]
fn a_build_that_cannot_save_leaves_no_folder_behind() {
    let dir = scratch("awari-cli", "no-folder");
    // A file name longer than the system's 255 bytes: the folders are made, the save fails.
    let name = format!("{}.egdb", "x".repeat(300));
    let out = dir.join("new").join("deeper").join(name);
    for rules in ["awari", "kalah(2,1)"] {
        let (ok, _, err) = egdb_build(rules, "2", out.to_str().unwrap(), &["--quiet"]);
        assert!(!ok && err.contains("name too long"), "{rules}: {err}");
        assert!(!dir.join("new").exists(), "{rules}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A search budget cannot be kept by an answer read from a database or built whole: with an
/// Oware rule set `--max-nodes` and `--max-seconds` are refused in one line before anything
/// is built (they used to be accepted and ignored, a build of minutes running past them).
#[test]
fn a_search_budget_is_refused_for_the_oware_databases() {
    let position = "1,1,1,1,1,2,16,4,2,3,0,0,0,16 S";
    for command in ["solve", "analyse"] {
        for rules in ["awari", "oware+majority=off+cycle_score=split"] {
            for budget in [["--max-seconds", "1"], ["--max-nodes", "10"]] {
                let (ok, out, err) = mancala_text(&[
                    command,
                    "--rules",
                    rules,
                    "--no-cache",
                    "--position",
                    position,
                    budget[0],
                    budget[1],
                ]);
                assert!(!ok && out.is_empty(), "{command} {rules} {budget:?}: {out}");
                assert_eq!(err.trim_end().lines().count(), 1, "{err}");
                assert!(
                    err.contains(&format!(
                        "{} {}: for Kalah solves only",
                        budget[0], budget[1]
                    )),
                    "{err}"
                );
                assert!(!err.contains("building"), "{err}");
            }
        }
    }
}

/// An Awari build whose standard error nobody reads any more (a closed pipe, as
/// `2>&1 | head -1` leaves it) goes on to the end and saves its file: a level's report that
/// cannot be written ends nothing (it aborted the build, the file unwritten).
#[test]
fn a_closed_standard_error_does_not_end_an_awari_build() {
    let dir = scratch("awari-cli", "closed-stderr");
    let mut child = common::mancala_command()
        .args([
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "8",
            "--out",
        ])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The read end closed before the first report is written.
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let file = dir.join("awari.n8.egdb");
    let (ok, out, err) = mancala_text(&["egdb", "verify", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
}

/// Under a limit of the address space (`ulimit -v`) far below the machine's free memory, a
/// build that needs more than the room left under the limit is refused before any work, the
/// message naming both sizes: what the build needs and the room, which is under the limit,
/// and saying that the room is the address-space limit's (it said "of memory available",
/// as of the machine's memory). (Without the limit counted, the build of N = 28 starts and
/// runs for many minutes.)
#[test]
#[cfg(target_os = "linux")]
fn a_build_larger_than_the_address_space_limit_is_refused_at_once() {
    use std::time::{Duration, Instant};
    const LIMIT_KIB: u64 = 1_000_000;
    const MAX_SEEDS: u64 = 28;
    let out = scratch("awari_cli", "address-space");
    let mut cmd = std::process::Command::new("sh");
    common::without_cache(&mut cmd)
        .arg("-c")
        .arg(format!("ulimit -v {LIMIT_KIB} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(["egdb", "build", "--rules", "awari", "--max-seeds"])
        .arg(MAX_SEEDS.to_string())
        .arg("--out")
        .arg(&*out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run sh");
    // A guard against a build that started, not a measure of time: the refusal comes before
    // any work, a started build would run for many minutes.
    let deadline = Instant::now() + Duration::from_secs(300);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("the build of N = {MAX_SEEDS} started under ulimit -v {LIMIT_KIB}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    assert!(!output.status.success());
    let err = stderr(&output);
    // "… the build needs about NEEDS bytes (…), more than the ROOM bytes (…) left under the
    // address-space limit (`ulimit -v`)"
    let number_before = |marker: &str| -> u64 {
        let head = &err[..err.find(marker).unwrap_or_else(|| panic!("{err}"))];
        let digits = head.rsplit(' ').next().unwrap();
        digits.parse().unwrap_or_else(|_| panic!("{err}"))
    };
    assert!(
        err.starts_with(&format!(
            "mancala: error: --max-seeds {MAX_SEEDS}: the build needs about "
        )),
        "{err}"
    );
    let needs = number_before(" bytes (");
    let tail = &err[err
        .find("more than the ")
        .unwrap_or_else(|| panic!("{err}"))..];
    assert!(
        tail.ends_with(" left under the address-space limit (`ulimit -v`)\n"),
        "{err}"
    );
    let room: u64 = tail["more than the ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("{err}"));
    // One byte at least for each board of at most 28 seeds: Σ_{n ≤ 28} (C(n+11, 11) −
    // C(n+5, 11)) boards (docs/awari.md), far more than the limit.
    let c11 = |n: u64| (1..=11).fold(1u64, |c, i| c * (n + i) / i);
    let boards: u64 = (0..=MAX_SEEDS)
        .map(|n| c11(n) - if n >= 6 { c11(n - 6) } else { 0 })
        .sum();
    assert!(needs >= boards, "{needs} < {boards} boards: {err}");
    assert!(boards > LIMIT_KIB * 1024);
    // The room is under the limit (the process's own size taken off), not the machine's.
    assert!(room <= LIMIT_KIB * 1024, "{err}");
    assert!(room < needs, "{err}");
    assert_eq!(
        std::fs::read_dir(&*out).unwrap().count(),
        0,
        "nothing written"
    );
}

/// `egdb build --rules awari --force` without `--out` builds into the cache folder and
/// writes over the cache's file, which a build there always does (it was refused, asking
/// for `--out`); a file of no database at the cache's name is written over.
#[test]
fn force_without_out_writes_the_cache_file() {
    let cache = scratch("awari_cli", "force-cache");
    let file = cache.join("awari.n4.egdb");
    std::fs::write(&file, b"not a database\n").unwrap();
    let output = common::mancala_command()
        .env_remove("MANCALA_NO_CACHE")
        .env("MANCALA_CACHE_DIR", &*cache)
        .args([
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "4",
            "--force",
        ])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let (ok, out, err) = mancala_text(&["egdb", "verify", file.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
}
