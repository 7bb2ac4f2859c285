//! The solve's journal: every leaf search finished, one line each, so that a solve started
//! again (after a kill, a node failure or a batch job's time limit) does not search again
//! what is already proven.
//!
//! A text file written by rank 0 only, each line flushed to disk as it is written. The
//! first line names what it belongs to; then one line a search; every line ends with the
//! CRC-32 of the rest of it (8 hex digits after a tab):
//!
//! ```text
//! mancala-mpi solve journal 2<TAB><rules><TAB><root position><TAB><crc>
//! <moves from the root><TAB><asked><TAB><lower><TAB><upper><TAB><nodes><TAB><seconds><TAB><pv><TAB><best moves><TAB><swap><TAB><crc>
//! ```
//!
//! `asked` is what the search was asked: `a,b` for the open window `(a, b)` (its bounds
//! prove the value exact, at most `a` or at least `b`), `full` for a full solve (exact, with
//! the principal variation, the best moves and the swap choice). `lower` and `upper` are the
//! bounds it proved, `lower ≤ value ≤ upper`, for the leaf's player to move. Moves are
//! written as in `mancala replay` (`3,1,swap`; `-` for none); the swap field is `-` or
//! `<swap value>,<best house move's value or ->,<1 if swapping is better else 0>`. Leaves
//! are named by their moves from the root, not by a position's notation, which cannot say
//! that South is still in the pie rule's opening turn.
//!
//! A proven bound stays true whatever window it was proven for, so a solve started again
//! adds every line's bounds to its leaf; the window only says what the search answered. A
//! line whose bounds do not answer its window, or contradict another line's, is damage.
//! A journal of format 1 (written before the windowed searches: every line a full solve,
//! `<moves><TAB><value><TAB><nodes><TAB><seconds><TAB><pv><TAB><best moves><TAB><swap>`)
//! is read as full solves and rewritten in format 2 when opened (to a temporary file
//! renamed over it, so that a kill leaves one whole journal or the other).
//!
//! A journal of other rules or another root position is refused. A last line without its
//! end of line (the process was killed while writing it) is dropped and the file cut back;
//! when that line is the title (the first line), the journal starts over as a new one;
//! any other line that does not parse or whose checksum is wrong is damage: the journal is
//! refused, never used (a wrong value would give a wrong result), with a message saying to
//! delete it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::parse_moves;
use mancala_solver::egdb::open_regular;
use thiserror::Error;

use crate::tree::{Ask, FullLeaf, LeafResult};

/// The title of the current format, and of format 1.
const TITLE: &str = "mancala-mpi solve journal 2";
const TITLE_1: &str = "mancala-mpi solve journal 1";

/// Why a journal cannot be used. Each message names the file.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("{}: {source}", mancala_core::ShortenedPath(path))]
    Io {
        /// The journal.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A damaged line.
    #[error(
        "{}: line {line}: {why}; the journal is not used (delete it to start over)",
        mancala_core::ShortenedPath(path)
    )]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A journal of another solve.
    #[error(
        "{}: a journal of {found}, not of {wanted}; delete it or name another file",
        mancala_core::ShortenedPath(path)
    )]
    Mismatch {
        /// The journal.
        path: PathBuf,
        /// What it was written for.
        found: String,
        /// What was asked for.
        wanted: String,
    },
}

/// A search read back from a journal: the leaf's moves from the root and what was proven.
pub type Entry = (Vec<KalahMove>, LeafResult);

/// An open journal, positioned to append.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: File,
}

fn with_crc(mut line: String) -> String {
    let crc = crc32fast::hash(line.as_bytes());
    line.push_str(&format!("\t{crc:08x}\n"));
    line
}

/// Moves as the journal writes them: comma-separated move texts, `-` for none.
pub(crate) fn moves_text(moves: &[KalahMove]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Moves read back from [`moves_text`]'s form.
///
/// # Errors
/// A message naming the text when a move does not parse.
pub(crate) fn moves_of(text: &str) -> Result<Vec<KalahMove>, String> {
    if text == "-" {
        Ok(Vec::new())
    } else {
        parse_moves::<KalahPosition>(text).map_err(|e| format!("moves {text:?}: {e}"))
    }
}

fn swap_text(swap: Option<(i32, Option<i32>, bool)>) -> String {
    match swap {
        None => "-".to_string(),
        Some((sw, stay, better)) => format!(
            "{sw},{},{}",
            stay.map_or_else(|| "-".to_string(), |x| x.to_string()),
            u8::from(better)
        ),
    }
}

/// The line of a search (with its end of line).
fn entry_line(path: &[KalahMove], r: &LeafResult) -> String {
    let empty = FullLeaf {
        pv: Vec::new(),
        best_moves: Vec::new(),
        swap: None,
    };
    let full = r.full.as_ref().unwrap_or(&empty);
    let asked = match r.ask {
        Ask::Window(a, b) => format!("{a},{b}"),
        Ask::Full => "full".to_string(),
    };
    with_crc(format!(
        "{}\t{asked}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        moves_text(path),
        r.lower,
        r.upper,
        r.nodes,
        r.seconds,
        moves_text(&full.pv),
        moves_text(&full.best_moves),
        swap_text(full.swap)
    ))
}

fn num(s: &str, what: &str) -> Result<i64, String> {
    s.parse()
        .map_err(|_| format!("{what} {s:?} is not a number"))
}

/// A value or bound: a number of seeds (values are at most 2 × 255 in size).
fn seeds(s: &str, what: &str) -> Result<i32, String> {
    let v = num(s, what)?;
    if v.abs() > 1 << 20 {
        return Err(format!("{what} {v} is beyond any game"));
    }
    Ok(v as i32)
}

fn parse_swap(text: &str) -> Result<Option<(i32, Option<i32>, bool)>, String> {
    if text == "-" {
        return Ok(None);
    }
    let p: Vec<&str> = text.split(',').collect();
    if p.len() != 3 {
        return Err(format!("swap field {text:?}"));
    }
    let stay = if p[1] == "-" {
        None
    } else {
        Some(seeds(p[1], "stay value")?)
    };
    Ok(Some((seeds(p[0], "swap value")?, stay, p[2] == "1")))
}

fn parse_entry(format: u8, body: &str) -> Result<Entry, String> {
    let f: Vec<&str> = body.split('\t').collect();
    let want = if format == 1 { 7 } else { 9 };
    if f.len() != want {
        return Err(format!(
            "{}, {want} expected",
            mancala_core::words::count(f.len(), "field", "fields")
        ));
    }
    let (ask, lower, upper, rest) = if format == 1 {
        let v = seeds(f[1], "value")?;
        (Ask::Full, v, v, &f[2..])
    } else {
        let ask = if f[1] == "full" {
            Ask::Full
        } else {
            let (a, b) = f[1]
                .split_once(',')
                .ok_or_else(|| format!("window {:?}", f[1]))?;
            let (a, b) = (num(a, "window")?, num(b, "window")?);
            let (Ok(a), Ok(b)) = (i32::try_from(a), i32::try_from(b)) else {
                return Err(format!("window {:?}", f[1]));
            };
            if a >= b {
                return Err(format!("the empty window {:?}", f[1]));
            }
            Ask::Window(a, b)
        };
        (ask, seeds(f[2], "lower")?, seeds(f[3], "upper")?, &f[4..])
    };
    if lower > upper {
        return Err(format!("the bounds {lower}..={upper} hold no value"));
    }
    if !ask.answered_by(lower, upper) {
        return Err(format!(
            "the bounds {lower}..={upper} do not answer what was asked ({ask:?})"
        ));
    }
    let full = (ask == Ask::Full).then(|| -> Result<FullLeaf, String> {
        Ok(FullLeaf {
            pv: moves_of(rest[2])?,
            best_moves: moves_of(rest[3])?,
            swap: parse_swap(rest[4])?,
        })
    });
    Ok((
        moves_of(f[0])?,
        LeafResult {
            ask,
            lower,
            upper,
            full: full.transpose()?,
            nodes: num(rest[0], "nodes")? as u64,
            seconds: rest[1]
                .parse()
                .map_err(|_| format!("seconds {:?} is not a number", rest[1]))?,
        },
    ))
}

/// Whether `text`, a file without an end of line, is a title line cut short: the start of
/// a title of either format, or a title without the rest of its line.
fn cut_title(text: &str) -> bool {
    [TITLE, TITLE_1]
        .iter()
        .any(|t| t.starts_with(text) || text.starts_with(t))
}

/// Splits `line` (without its end of line) into its body and checks its CRC.
fn checked(line: &str) -> Result<&str, String> {
    let (body, crc) = line
        .rsplit_once('\t')
        .ok_or_else(|| "no checksum".to_string())?;
    let crc = u32::from_str_radix(crc, 16).map_err(|_| format!("checksum {crc:?}"))?;
    if crc32fast::hash(body.as_bytes()) != crc {
        return Err("checksum mismatch".to_string());
    }
    Ok(body)
}

impl Journal {
    /// Opens the journal at `path` for the solve of `root` (created when missing, in the
    /// current format), and returns the searches it holds, in the order written.
    ///
    /// # Errors
    /// [`JournalError::Mismatch`] for another solve, [`JournalError::Corrupt`] for a damaged
    /// line, [`JournalError::Io`], also for something that is not a regular file (a FIFO,
    /// whose open would wait forever, a socket, a device, a folder; a symbolic link is
    /// followed), refused before it is opened as
    /// [`open_regular`](mancala_solver::egdb::open_regular) does.
    pub fn open(path: &Path, root: &KalahPosition) -> Result<(Journal, Vec<Entry>), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        // A FIFO, a socket or a device is refused before it is opened (a FIFO's open would
        // wait for a writer forever).
        let mut file = open_regular(
            path,
            OpenOptions::new().read(true).append(true).create(true),
        )
        .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let what = format!("{}\t{root}", root.rules());
        let corrupt = |line: usize, why: String| JournalError::Corrupt {
            path: path.to_path_buf(),
            line,
            why,
        };
        // The whole lines must be UTF-8 text; a last line cut short (no end of line) is
        // dropped below whatever it holds (its write was cut, possibly inside a character).
        // A file with no end of line at all is checked whole: it must be a title's start.
        let whole = bytes
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        if let Err(e) = std::str::from_utf8(&bytes[..whole]) {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            return Err(corrupt(line, "not UTF-8 text".into()));
        }
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        if !text.contains('\n') && !text.is_empty() {
            // No whole line: the title was being written when the process was killed (then
            // no search was written either, and the journal starts over), or the file is not
            // a journal (then it is refused and left as it is).
            if !cut_title(&text) {
                return Err(corrupt(
                    1,
                    format!(
                        "not a journal title: {:?}",
                        text.chars().take(60).collect::<String>()
                    ),
                ));
            }
            file.set_len(0).map_err(io)?;
            text.clear();
        }
        if text.is_empty() {
            file.write_all(with_crc(format!("{TITLE}\t{what}")).as_bytes())
                .map_err(io)?;
            file.sync_data().map_err(io)?;
            return Ok((
                Journal {
                    path: path.to_path_buf(),
                    file,
                },
                Vec::new(),
            ));
        }
        // A last line cut short is dropped.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        if whole < text.len() {
            file.set_len(whole as u64).map_err(io)?;
        }
        let mut lines = text[..whole].lines();
        let first = lines
            .next()
            .ok_or_else(|| corrupt(1, "no title line".into()))?;
        let found = checked(first).map_err(|w| corrupt(1, w))?;
        let (format, found_what) = if let Some(r) = found.strip_prefix(&format!("{TITLE}\t")) {
            (2, r)
        } else if let Some(r) = found.strip_prefix(&format!("{TITLE_1}\t")) {
            (1, r)
        } else {
            return Err(corrupt(1, format!("not a journal title: {found:?}")));
        };
        if found_what != what {
            return Err(JournalError::Mismatch {
                path: path.to_path_buf(),
                found: found_what.replace('\t', " at "),
                wanted: what.replace('\t', " at "),
            });
        }
        let mut entries = Vec::new();
        for (i, line) in lines.enumerate() {
            let body = checked(line).map_err(|w| corrupt(i + 2, w))?;
            let e = parse_entry(format, body).map_err(|w| corrupt(i + 2, w))?;
            // The moves must be legal from the root.
            let mut p = *root;
            for &mv in &e.0 {
                p = p
                    .play(mv)
                    .map_err(|err| corrupt(i + 2, format!("move {mv}: {err}")))?;
            }
            entries.push(e);
        }
        if format == 1 {
            file = Journal::rewrite(path, &what, &entries).map_err(io)?;
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            entries,
        ))
    }

    /// Writes `entries` as a journal of the current format to a temporary file beside
    /// `path`, renames it over `path`, and opens the result to append.
    fn rewrite(path: &Path, what: &str, entries: &[Entry]) -> std::io::Result<File> {
        let mut text = with_crc(format!("{TITLE}\t{what}"));
        for (moves, r) in entries {
            text.push_str(&entry_line(moves, r));
        }
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".rewrite");
        let tmp = path.with_file_name(name);
        let mut f = open_regular(
            &tmp,
            OpenOptions::new().write(true).create(true).truncate(true),
        )?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)?;
        open_regular(path, OpenOptions::new().append(true))
    }

    /// Appends a finished search of the leaf reached by `path` and flushes it to disk.
    ///
    /// # Errors
    /// [`JournalError::Io`].
    pub fn append(&mut self, path: &[KalahMove], r: &LeafResult) -> Result<(), JournalError> {
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        self.file
            .write_all(entry_line(path, r).as_bytes())
            .map_err(io)?;
        self.file.sync_data().map_err(io)
    }

    /// The journal's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full(v: i32) -> LeafResult {
        LeafResult {
            ask: Ask::Full,
            lower: v,
            upper: v,
            full: Some(FullLeaf {
                pv: vec![KalahMove::House(3), KalahMove::House(1)],
                best_moves: vec![KalahMove::House(3)],
                swap: Some((4, None, true)),
            }),
            nodes: 1234,
            seconds: 0.25,
        }
    }

    fn window(a: i32, b: i32, lower: i32, upper: i32) -> LeafResult {
        LeafResult {
            ask: Ask::Window(a, b),
            lower,
            upper,
            full: None,
            nodes: 99,
            seconds: 0.5,
        }
    }

    /// A line with the wrong number of tab-separated fields says how many it has, one in
    /// the singular; the current format has 9 fields, the first 7.
    #[test]
    fn a_count_of_fields_is_in_words() {
        assert_eq!(parse_entry(2, "3").unwrap_err(), "1 field, 9 expected");
        assert_eq!(
            parse_entry(2, "3\tfull").unwrap_err(),
            "2 fields, 9 expected"
        );
        assert_eq!(parse_entry(1, "").unwrap_err(), "1 field, 7 expected");
    }

    #[test]
    fn entries_come_back_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        let root = KalahPosition::start("kalah(6,3)".parse().unwrap());
        let (mut j, e) = Journal::open(&p, &root).unwrap();
        assert!(e.is_empty());
        let path1 = vec![KalahMove::House(1), KalahMove::House(6)];
        j.append(&path1, &full(-3)).unwrap();
        j.append(&[KalahMove::House(2)], &window(4, 5, 6, 36))
            .unwrap();
        j.append(&[KalahMove::House(4)], &window(i32::MIN, -2, -2, 4))
            .unwrap();
        drop(j);
        let (_, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(
            e,
            vec![
                (path1.clone(), full(-3)),
                (vec![KalahMove::House(2)], window(4, 5, 6, 36)),
                (vec![KalahMove::House(4)], window(i32::MIN, -2, -2, 4)),
            ]
        );
        let good = std::fs::read_to_string(&p).unwrap();
        assert!(good.contains("\t4,5\t6\t36\t"), "{good}");

        // Cut inside the last line: that search is dropped, the file cut back.
        std::fs::write(&p, &good[..good.len() - 4]).unwrap();
        let (mut j, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(e.len(), 2);
        j.append(&[KalahMove::House(4)], &window(i32::MIN, -2, -2, 4))
            .unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), good);

        // A byte that is not UTF-8 only in the cut last line (its write was cut): that line
        // is dropped as any cut line, the file cut back.
        let mut cut = good.as_bytes()[..good.len() - 4].to_vec();
        cut.push(0xff);
        std::fs::write(&p, &cut).unwrap();
        let (j, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(e.len(), 2);
        drop(j);
        let lines: Vec<&str> = good.split_inclusive('\n').collect();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            lines[..3].concat(),
            "the cut line dropped"
        );
        // In a whole line (the third), the line is named and the file left as it is.
        let mut bad = lines[..2].concat().into_bytes();
        bad.extend_from_slice(b"3,\xff");
        bad.extend_from_slice(lines[2].as_bytes());
        bad.extend_from_slice(lines[3].as_bytes());
        std::fs::write(&p, &bad).unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(err.contains("line 3: not UTF-8 text"), "{err}");
        assert_eq!(std::fs::read(&p).unwrap(), bad);
        // A file of no whole line that is not UTF-8: line 1.
        std::fs::write(&p, b"\xff\xfe").unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(err.contains("line 1: not UTF-8 text"), "{err}");

        // A changed bound: refused.
        let bad = good.replacen("\t6\t36\t", "\t5\t36\t", 1);
        std::fs::write(&p, bad).unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(err.contains("line 3: checksum mismatch"), "{err}");

        // Bounds that do not answer their window, with a right checksum: refused.
        let line = entry_line(&[KalahMove::House(2)], &window(4, 5, 2, 36));
        std::fs::write(
            &p,
            format!("{}{line}", &good[..good.find('\n').unwrap() + 1]),
        )
        .unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(
            err.contains("line 2: the bounds 2..=36 do not answer"),
            "{err}"
        );

        // Another root, other rules.
        std::fs::write(&p, &good).unwrap();
        let other = root.play(KalahMove::House(1)).unwrap();
        assert!(matches!(
            Journal::open(&p, &other),
            Err(JournalError::Mismatch { .. })
        ));
        let other = KalahPosition::start("kalah(6,3)+empty_capture".parse().unwrap());
        assert!(matches!(
            Journal::open(&p, &other),
            Err(JournalError::Mismatch { .. })
        ));
    }

    /// A journal cut inside its title line (the process was killed while writing it) holds
    /// no search: it starts over as an empty journal would, at every cut, and the next open
    /// reads what the first wrote.
    #[test]
    fn a_journal_cut_inside_its_title_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        let root = KalahPosition::start("kalah(6,3)".parse().unwrap());
        drop(Journal::open(&p, &root).unwrap());
        let title = std::fs::read_to_string(&p).unwrap();
        assert!(title.starts_with(TITLE) && title.ends_with('\n'), "{title}");
        for cut in [1, 10, TITLE.len(), title.len() - 1] {
            std::fs::write(&p, &title[..cut]).unwrap();
            let (mut j, e) = Journal::open(&p, &root).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
            assert!(e.is_empty(), "cut {cut}");
            assert_eq!(std::fs::read_to_string(&p).unwrap(), title, "cut {cut}");
            j.append(&[KalahMove::House(2)], &window(4, 5, 6, 36))
                .unwrap();
            drop(j);
            let (_, e) = Journal::open(&p, &root).unwrap();
            assert_eq!(e, vec![(vec![KalahMove::House(2)], window(4, 5, 6, 36))]);
        }
        // A file of something else without an end of line is not a journal cut short: it is
        // refused and left as it is.
        std::fs::write(&p, "my notes").unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(err.contains("line 1"), "{err}");
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "my notes");
    }

    /// A journal of format 1 (every line a full solve) is read, and rewritten in format 2.
    #[test]
    fn a_journal_of_format_1_is_read_and_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        let root = KalahPosition::start("kalah(6,3)".parse().unwrap());
        // Format 1 as it was written (title, then moves, value, nodes, seconds, pv, best
        // moves, swap), by hand.
        let title = with_crc(format!("{TITLE_1}\tkalah(6,3)\t{root}"));
        let line = with_crc("1,6\t-3\t1234\t0.25\t3,1\t3\t4,-,1".to_string());
        std::fs::write(&p, format!("{title}{line}")).unwrap();
        let (mut j, e) = Journal::open(&p, &root).unwrap();
        let path1 = vec![KalahMove::House(1), KalahMove::House(6)];
        assert_eq!(e, vec![(path1.clone(), full(-3))]);
        j.append(&[KalahMove::House(2)], &window(4, 5, 6, 36))
            .unwrap();
        drop(j);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.starts_with(TITLE), "{text}");
        let (_, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(
            e,
            vec![
                (path1, full(-3)),
                (vec![KalahMove::House(2)], window(4, 5, 6, 36))
            ]
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
