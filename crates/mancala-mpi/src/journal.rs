//! The solve's journal: every leaf solved, one line each, so that a solve started again
//! (after a kill, a node failure or a batch job's time limit) skips the leaves already
//! solved.
//!
//! A text file written by rank 0 only, each line flushed to disk as it is written. The
//! first line names what it belongs to; then one line a leaf; every line ends with the
//! CRC-32 of the rest of it (8 hex digits after a tab):
//!
//! ```text
//! mancala-mpi solve journal 1<TAB><rules><TAB><root position><TAB><crc>
//! <moves from the root><TAB><value><TAB><nodes><TAB><seconds><TAB><pv><TAB><best moves><TAB><swap><TAB><crc>
//! ```
//!
//! Moves are written as in `mancala replay` (`3,1,swap`; `-` for none); the swap field is
//! `-` or `<swap value>,<best house move's value or ->,<1 if swapping is better else 0>`.
//! Leaves are named by their moves from the root, not by a position's notation, which cannot
//! say that South is still in the pie rule's opening turn.
//!
//! A journal of other rules or another root position is refused. A last line without its
//! end of line (the process was killed while writing it) is dropped and the file cut back;
//! any other line that does not parse or whose checksum is wrong is damage: the journal is
//! refused, never used (a wrong value would give a wrong result), with a message saying to
//! delete it.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use mancala_core::kalah::{parse_moves, KalahMove, KalahPosition};
use thiserror::Error;

use crate::tree::LeafSolution;

const TITLE: &str = "mancala-mpi solve journal 1";

/// Why a journal cannot be used. Each message names the file.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The journal.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// A damaged line.
    #[error("{path}: line {line}: {why}; the journal is not used (delete it to start over)")]
    Corrupt {
        /// The journal.
        path: PathBuf,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A journal of another solve.
    #[error("{path}: a journal of {found}, not of {wanted}; delete it or name another file")]
    Mismatch {
        /// The journal.
        path: PathBuf,
        /// What it was written for.
        found: String,
        /// What was asked for.
        wanted: String,
    },
}

/// A leaf read back from a journal: its moves from the root and its solution.
pub type Entry = (Vec<KalahMove>, LeafSolution);

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

fn moves_text(moves: &[KalahMove]) -> String {
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

fn moves_of(text: &str) -> Result<Vec<KalahMove>, String> {
    if text == "-" {
        Ok(Vec::new())
    } else {
        parse_moves(text).map_err(|e| format!("moves {text:?}: {e}"))
    }
}

/// The line of a leaf (with its end of line).
fn entry_line(path: &[KalahMove], s: &LeafSolution) -> String {
    let swap = match s.swap {
        None => "-".to_string(),
        Some((sw, stay, better)) => format!(
            "{sw},{},{}",
            stay.map_or_else(|| "-".to_string(), |x| x.to_string()),
            u8::from(better)
        ),
    };
    with_crc(format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{swap}",
        moves_text(path),
        s.value,
        s.nodes,
        s.seconds,
        moves_text(&s.pv),
        moves_text(&s.best_moves)
    ))
}

fn parse_entry(body: &str) -> Result<Entry, String> {
    let f: Vec<&str> = body.split('\t').collect();
    if f.len() != 7 {
        return Err(format!("{} fields, 7 expected", f.len()));
    }
    let num = |s: &str, what: &str| -> Result<i64, String> {
        s.parse()
            .map_err(|_| format!("{what} {s:?} is not a number"))
    };
    let swap = if f[6] == "-" {
        None
    } else {
        let p: Vec<&str> = f[6].split(',').collect();
        if p.len() != 3 {
            return Err(format!("swap field {:?}", f[6]));
        }
        let stay = if p[1] == "-" {
            None
        } else {
            Some(num(p[1], "stay value")? as i32)
        };
        Some((num(p[0], "swap value")? as i32, stay, p[2] == "1"))
    };
    Ok((
        moves_of(f[0])?,
        LeafSolution {
            value: num(f[1], "value")? as i32,
            nodes: num(f[2], "nodes")? as u64,
            seconds: f[3]
                .parse()
                .map_err(|_| format!("seconds {:?} is not a number", f[3]))?,
            pv: moves_of(f[4])?,
            best_moves: moves_of(f[5])?,
            swap,
        },
    ))
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
    /// Opens the journal at `path` for the solve of `root` (created when missing), and
    /// returns the leaves it holds.
    ///
    /// # Errors
    /// [`JournalError::Mismatch`] for another solve, [`JournalError::Corrupt`] for a damaged
    /// line, [`JournalError::Io`].
    pub fn open(path: &Path, root: &KalahPosition) -> Result<(Journal, Vec<Entry>), JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(|e| {
            if e.kind() == std::io::ErrorKind::InvalidData {
                JournalError::Corrupt {
                    path: path.to_path_buf(),
                    line: 0,
                    why: "not UTF-8 text".into(),
                }
            } else {
                io(e)
            }
        })?;
        let title = format!("{TITLE}\t{}\t{root}", root.rules());
        if text.is_empty() {
            file.write_all(with_crc(title).as_bytes()).map_err(io)?;
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
        let corrupt = |line: usize, why: String| JournalError::Corrupt {
            path: path.to_path_buf(),
            line,
            why,
        };
        let mut lines = text[..whole].lines();
        let first = lines
            .next()
            .ok_or_else(|| corrupt(1, "no title line".into()))?;
        let found = checked(first).map_err(|w| corrupt(1, w))?;
        if found != title {
            let what = |t: &str| {
                t.strip_prefix(TITLE)
                    .unwrap_or(t)
                    .trim()
                    .replace('\t', " at ")
            };
            return Err(JournalError::Mismatch {
                path: path.to_path_buf(),
                found: what(found),
                wanted: what(&title),
            });
        }
        let mut entries = Vec::new();
        for (i, line) in lines.enumerate() {
            let body = checked(line).map_err(|w| corrupt(i + 2, w))?;
            let e = parse_entry(body).map_err(|w| corrupt(i + 2, w))?;
            // The moves must be legal from the root.
            let mut p = *root;
            for &mv in &e.0 {
                p = p
                    .play(mv)
                    .map_err(|err| corrupt(i + 2, format!("move {mv}: {err}")))?;
            }
            entries.push(e);
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file,
            },
            entries,
        ))
    }

    /// Appends a solved leaf and flushes it to disk.
    ///
    /// # Errors
    /// [`JournalError::Io`].
    pub fn append(&mut self, path: &[KalahMove], s: &LeafSolution) -> Result<(), JournalError> {
        let io = |source| JournalError::Io {
            path: self.path.clone(),
            source,
        };
        self.file
            .write_all(entry_line(path, s).as_bytes())
            .map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(v: i32) -> LeafSolution {
        LeafSolution {
            value: v,
            pv: vec![KalahMove::House(3), KalahMove::House(1)],
            best_moves: vec![KalahMove::House(3)],
            swap: Some((4, None, true)),
            nodes: 1234,
            seconds: 0.25,
        }
    }

    #[test]
    fn entries_come_back_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        let root = KalahPosition::start("kalah(6,3)".parse().unwrap());
        let (mut j, e) = Journal::open(&p, &root).unwrap();
        assert!(e.is_empty());
        let path1 = vec![KalahMove::House(1), KalahMove::House(6)];
        j.append(&path1, &leaf(-3)).unwrap();
        j.append(&[KalahMove::House(2)], &leaf(5)).unwrap();
        drop(j);
        let (_, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(
            e,
            vec![
                (path1.clone(), leaf(-3)),
                (vec![KalahMove::House(2)], leaf(5))
            ]
        );
        let good = std::fs::read_to_string(&p).unwrap();

        // Cut inside the last line: that leaf is dropped, the file cut back.
        std::fs::write(&p, &good[..good.len() - 4]).unwrap();
        let (mut j, e) = Journal::open(&p, &root).unwrap();
        assert_eq!(e, vec![(path1, leaf(-3))]);
        j.append(&[KalahMove::House(2)], &leaf(5)).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), good);

        // A changed value: refused.
        let bad = good.replacen("\t-3\t", "\t-2\t", 1);
        std::fs::write(&p, bad).unwrap();
        let err = Journal::open(&p, &root).unwrap_err().to_string();
        assert!(err.contains("line 2: checksum mismatch"), "{err}");

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
}
