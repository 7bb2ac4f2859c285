//! The partial file of a distributed database build: the finished layers, appended one at
//! a time, so that a killed build resumes from the last finished layer (`--resume`).
//!
//! Written by rank 0 only, beside the database: `<database file name>.partial` in the output
//! folder (a name that folder scans for `*.egdb` files never pick up). Little-endian:
//!
//! ```text
//! header
//!   0   8  magic "MNCLPART"
//!   8   4  format version (1)
//!  12   1  m, houses a row
//!  13   1  K
//!  14   1  value-relevant option bits (as in the database header)
//!  15   1  0
//!  16   8  entries of the whole database, C(K+2m, 2m)
//!  24   4  n, length of the rule-set string
//!  28   n  the rule set (the database file's header will hold it: it must match)
//! 28+n  4  CRC-32 of bytes 0..28+n
//! then one record a finished layer, layers 0, 1, 2, … in order
//!   0   4  layer k
//!   4   8  entries in the layer, L
//!  12   4  CRC-32 of the entries
//!  16   4  CRC-32 of bytes 0..16 of this record
//!  20   L  the entries, in the build's order (`LevelBuild::layer_entries`)
//! ```
//!
//! A build holds an exclusive lock (`flock`) on the file while it has it open, taken before
//! it reads or writes a byte: a second build, resuming or not, is refused while the first
//! runs ([`CheckpointError::InUse`]); the system drops the lock when the process ends, however
//! it ends, so a killed build's file can be resumed at once.
//!
//! On `--resume` a file cut inside the header (the build was killed while writing it: the
//! bytes are the start of the header this build writes) holds no layer: the header is
//! written again and the build starts over. Otherwise the header must match the build asked
//! for (rules, K, m, options, format), or the file is refused. The records must be layers 0, 1, … with the layer's length and
//! right checksums (the entries' checksum is checked as each layer is read back). A last
//! record cut short (the file ends inside it: the build was killed while writing it) is
//! dropped, the file cut back to the record before, and that layer built again, with a
//! message. Anything else, a wrong checksum, layer number or length, is damage: the file is
//! refused, never used, and the message says to delete it to start over.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::open_regular;
use thiserror::Error;

/// The magic of a partial file.
pub(crate) const MAGIC: [u8; 8] = *b"MNCLPART";
/// Its format version.
pub(crate) const VERSION: u32 = 1;
const RECORD_HEADER: u64 = 20;

/// Why a partial file cannot be used. Each message names the file.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("{}: {source}", mancala_core::ShortenedPath(path))]
    Io {
        /// The partial file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// Not a partial file of this format, or its header is damaged.
    #[error(
        "{}: not a usable partial build file: {why}; delete it to start the build over",
        mancala_core::ShortenedPath(path)
    )]
    Corrupt {
        /// The partial file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// Another build, still running, has the file open (it holds the file's lock).
    #[error("{}: another build that is still running is using this partial file; wait for it to finish or stop it", mancala_core::ShortenedPath(path))]
    InUse {
        /// The partial file.
        path: PathBuf,
    },
    /// A symbolic link stands at the partial file's name: refused, followed or not. A
    /// finished build removes its partial file by name, which would remove the link and
    /// leave the file it leads to; a link that leads nowhere (a loop, a missing target) is
    /// said in the words of [`mancala_solver::egdb::BROKEN_LINK`]. One that leads somewhere
    /// names its target (as the link holds it) and says to remove the link; to move the
    /// target in place of it only when the target is a regular file (a partial file kept
    /// elsewhere), never a FIFO, a device or a folder.
    #[error("{}: {}", mancala_core::ShortenedPath(path), link_advice(*broken, target.as_deref(), *regular))]
    Link {
        /// The partial file's name.
        path: PathBuf,
        /// Whether the link leads nowhere ([`mancala_solver::egdb::is_broken_link`]).
        broken: bool,
        /// Where the link leads (`readlink`; a relative target joined to the link's folder,
        /// so that it leads there from the working folder too), `None` when it cannot be
        /// read.
        target: Option<PathBuf>,
        /// Whether the link leads to a regular file.
        regular: bool,
    },
    /// A partial file of another build (rules, K).
    #[error(
        "{path}: a partial build of {found}, not of {wanted}; delete it or build that instead"
    )]
    Mismatch {
        /// The partial file.
        path: PathBuf,
        /// What the file was started for.
        found: String,
        /// What was asked for.
        wanted: String,
    },
}

/// The reason of [`CheckpointError::Link`]: what the link is, where it leads and what to do.
fn link_advice(broken: bool, target: Option<&Path>, regular: bool) -> String {
    if broken {
        return format!(
            "it is {}, where the partial file goes; delete it to start the build",
            mancala_solver::egdb::BROKEN_LINK
        );
    }
    let to = target.map_or_else(String::new, |t| {
        format!(" to {}", mancala_core::ShortenedPath(t))
    });
    let own = "the partial file must be a file of its own (a finished build removes it by name, which would leave the file the link leads to)";
    if regular {
        format!("it is a symbolic link{to}; {own}: remove the link to start the build, or move that file here in place of the link to resume it")
    } else {
        format!("it is a symbolic link{to}, which is not a regular file; {own}: remove the link to start the build")
    }
}

/// What a build is, as its partial file's header says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// m.
    pub houses: u8,
    /// K.
    pub max_seeds: u8,
    /// Value-relevant option bits.
    pub option_bits: u8,
    /// C(K+2m, 2m).
    pub entries: u64,
    /// The rule-set text of the database header.
    pub rules: String,
}

impl Identity {
    /// The identity of the build of `rules` and K = `max_seeds` (`entries` from the build).
    #[must_use]
    pub fn of(rules: &KalahRules, max_seeds: u32, entries: u64) -> Identity {
        Identity {
            houses: rules.houses(),
            max_seeds: max_seeds as u8,
            option_bits: rules.options().database_relevant().bits(),
            entries,
            rules: rules.to_string(),
        }
    }

    fn describe(&self) -> String {
        format!(
            "{} (m = {}, options {:#04x}) with K = {}",
            self.rules, self.houses, self.option_bits, self.max_seeds
        )
    }

    fn header(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(32 + self.rules.len());
        h.extend_from_slice(&MAGIC);
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&[self.houses, self.max_seeds, self.option_bits, 0]);
        h.extend_from_slice(&self.entries.to_le_bytes());
        h.extend_from_slice(&(self.rules.len() as u32).to_le_bytes());
        h.extend_from_slice(self.rules.as_bytes());
        let crc = crc32fast::hash(&h);
        h.extend_from_slice(&crc.to_le_bytes());
        h
    }
}

/// Takes the partial file's lock: an exclusive `flock` on `file`, which the system drops
/// when the file is closed or the process ends however it ends, so a killed build's file is
/// free at once. Then checks that `path` still names the file locked (a build that finished
/// removes its partial file: one that opened it just before must not go on with it).
/// Elsewhere than Unix there is no lock.
fn lock(file: &File, path: &Path) -> Result<(), CheckpointError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        use std::os::unix::io::AsRawFd;
        // SAFETY: `flock` on the descriptor `file` owns; no memory is passed.
        #[allow(unsafe_code)]
        let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        let in_use = || CheckpointError::InUse {
            path: path.to_path_buf(),
        };
        if r != 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                return Err(in_use());
            }
            return Err(CheckpointError::Io {
                path: path.to_path_buf(),
                source: e,
            });
        }
        let same = match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        };
        if !same {
            return Err(in_use());
        }
    }
    #[cfg(not(unix))]
    let _ = (file, path);
    Ok(())
}

/// An open partial file, positioned to append the next layer. It holds the file's lock
/// (see [`Checkpoint::in_use`]) until it is dropped.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    file: File,
    /// (offset of the entries, length) of each finished layer.
    layers: Vec<(u64, u64)>,
}

/// What [`Checkpoint::resume`] found besides the finished layers.
#[derive(Debug, Default)]
pub struct Resumed {
    /// The last layer was cut short and was dropped (its number).
    pub dropped: Option<u32>,
    /// The file was cut inside its header (no layer in it): it was written again and the
    /// build starts from layer 0.
    pub started_over: bool,
}

impl Checkpoint {
    /// Refuses a symbolic link at the partial file's name `path` ([`CheckpointError::Link`]),
    /// whether it leads to a file, to nothing or around a loop: what [`Checkpoint::create`],
    /// [`Checkpoint::resume`] and [`Checkpoint::in_use`] check first. `Ok` when nothing is
    /// there or something that is not a link (which the others then judge).
    ///
    /// # Errors
    /// [`CheckpointError::Link`].
    pub fn refuse_link(path: &Path) -> Result<(), CheckpointError> {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
            return Err(CheckpointError::Link {
                path: path.to_path_buf(),
                broken: mancala_solver::egdb::is_broken_link(path),
                // A relative target is relative to the link's folder: joined to it, the
                // path leads there from the working folder too.
                target: std::fs::read_link(path).ok().map(|t| match path.parent() {
                    Some(folder) if t.is_relative() => folder.join(t),
                    _ => t,
                }),
                regular: std::fs::metadata(path).is_ok_and(|m| m.is_file()),
            });
        }
        Ok(())
    }

    fn io(&self, source: std::io::Error) -> CheckpointError {
        CheckpointError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Starts a new partial file at `path` for the build `id` (replacing nothing: the file
    /// must not exist).
    ///
    /// # Errors
    /// [`CheckpointError::Link`] for a symbolic link there ([`Checkpoint::refuse_link`]),
    /// [`CheckpointError::Io`] (an existing file included), [`CheckpointError::InUse`] when
    /// another build locked the file between its creation and the lock.
    pub fn create(path: &Path, id: &Identity) -> Result<Checkpoint, CheckpointError> {
        Checkpoint::refuse_link(path)?;
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        file.write_all(&id.header()).map_err(io)?;
        file.sync_data().map_err(io)?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file,
            layers: Vec::new(),
        })
    }

    /// Opens the partial file at `path` of the build `id`, with `layer_len(k)` the entries of
    /// layer k: checks the header and every record's header (module docs), drops a last
    /// record cut short (cutting the file back) and positions the file to append. The entries'
    /// checksums are checked when they are read ([`Checkpoint::read_layer`]).
    ///
    /// # Errors
    /// [`CheckpointError::Link`] for a symbolic link at `path` ([`Checkpoint::refuse_link`]),
    /// [`CheckpointError::InUse`] while another build has the file open,
    /// [`CheckpointError::Io`] for a file that is not a regular one (a FIFO, a socket, a
    /// device, a folder; refused before it is opened, as [`open_regular`] does),
    /// [`CheckpointError::Mismatch`] for another build, [`CheckpointError::Corrupt`] for a
    /// damaged header or record header, [`CheckpointError::Io`].
    pub fn resume(
        path: &Path,
        id: &Identity,
        layer_len: impl Fn(u32) -> u64,
    ) -> Result<(Checkpoint, Resumed), CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let corrupt = |why: String| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        Checkpoint::refuse_link(path)?;
        // A FIFO, a socket or a device is refused before it is opened (a FIFO's open would
        // wait for a writer forever).
        let mut file = open_regular(path, OpenOptions::new().read(true).write(true)).map_err(io)?;
        lock(&file, path)?;
        let size = file.metadata().map_err(io)?.len();
        // Cut inside the header this build writes (killed while `create` wrote it): no layer
        // was written, the build starts over.
        let header = id.header();
        if size < header.len() as u64 {
            let mut head = Vec::new();
            file.read_to_end(&mut head).map_err(io)?;
            if header.starts_with(&head) {
                file.set_len(0).map_err(io)?;
                file.seek(SeekFrom::Start(0)).map_err(io)?;
                file.write_all(&header).map_err(io)?;
                file.sync_data().map_err(io)?;
                let resumed = Resumed {
                    dropped: None,
                    started_over: true,
                };
                return Ok((
                    Checkpoint {
                        path: path.to_path_buf(),
                        file,
                        layers: Vec::new(),
                    },
                    resumed,
                ));
            }
            file.seek(SeekFrom::Start(0)).map_err(io)?;
        }
        let mut fixed = [0u8; 28];
        file.read_exact(&mut fixed)
            .map_err(|_| corrupt("shorter than its header".into()))?;
        if fixed[..8] != MAGIC {
            return Err(corrupt("bad magic".into()));
        }
        let version = u32::from_le_bytes(fixed[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(corrupt(format!(
                "format version {version} (this program reads {VERSION})"
            )));
        }
        let n = u32::from_le_bytes(fixed[24..28].try_into().expect("4 bytes")) as usize;
        if n > 4096 {
            return Err(corrupt("damaged header (rule-set length)".into()));
        }
        let mut rest = vec![0u8; n + 4];
        file.read_exact(&mut rest)
            .map_err(|_| corrupt("shorter than its header".into()))?;
        let mut header = fixed.to_vec();
        header.extend_from_slice(&rest[..n]);
        let crc = u32::from_le_bytes(rest[n..].try_into().expect("4 bytes"));
        if crc32fast::hash(&header) != crc {
            return Err(corrupt("header checksum mismatch".into()));
        }
        let found = Identity {
            houses: fixed[12],
            max_seeds: fixed[13],
            option_bits: fixed[14],
            entries: u64::from_le_bytes(fixed[16..24].try_into().expect("8 bytes")),
            rules: String::from_utf8_lossy(&rest[..n]).into_owned(),
        };
        if &found != id {
            return Err(CheckpointError::Mismatch {
                path: path.to_path_buf(),
                found: found.describe(),
                wanted: id.describe(),
            });
        }
        let mut at = header.len() as u64 + 4;
        let mut layers = Vec::new();
        let mut resumed = Resumed::default();
        let mut k = 0u32;
        while at < size {
            if k > u32::from(id.max_seeds) {
                return Err(corrupt("data after the last layer".into()));
            }
            if at + RECORD_HEADER > size {
                resumed.dropped = Some(k);
                break;
            }
            let mut rh = [0u8; RECORD_HEADER as usize];
            file.seek(SeekFrom::Start(at)).map_err(io)?;
            file.read_exact(&mut rh).map_err(io)?;
            let want = layer_len(k);
            if crc32fast::hash(&rh[..16])
                != u32::from_le_bytes(rh[16..20].try_into().expect("4 bytes"))
            {
                return Err(corrupt(format!(
                    "layer {k}: record header checksum mismatch"
                )));
            }
            let (layer, len) = (
                u32::from_le_bytes(rh[..4].try_into().expect("4 bytes")),
                u64::from_le_bytes(rh[4..12].try_into().expect("8 bytes")),
            );
            if layer != k || len != want {
                return Err(corrupt(format!(
                    "record {k} is layer {layer} of {}, not layer {k} of {want}",
                    mancala_core::words::count(len, "entry", "entries")
                )));
            }
            let end = at + RECORD_HEADER + want;
            if end > size {
                resumed.dropped = Some(k);
                break;
            }
            layers.push((at + RECORD_HEADER, want));
            at = end;
            k += 1;
        }
        file.set_len(at).map_err(io)?;
        file.seek(SeekFrom::Start(at)).map_err(io)?;
        Ok((
            Checkpoint {
                path: path.to_path_buf(),
                file,
                layers,
            },
            resumed,
        ))
    }

    /// Whether a build that is still running has the partial file at `path` open (holds its
    /// lock); always `false` elsewhere than Unix. A probe: the answer may change at once. A
    /// symbolic link is refused ([`Checkpoint::refuse_link`]); the file is opened as
    /// [`open_regular`] opens it: something that is not a regular file (a FIFO, whose open
    /// would wait for a writer forever, a socket, a device, a folder) is refused before it is
    /// opened.
    ///
    /// # Errors
    /// [`CheckpointError::Link`] for a symbolic link; [`CheckpointError::Io`] when the file
    /// cannot be opened for reading: `not a regular file`, `it is a folder, not a file`, or
    /// the system's error (`Permission denied`, `No such file or directory`).
    pub fn in_use(path: &Path) -> Result<bool, CheckpointError> {
        Checkpoint::refuse_link(path)?;
        let file = open_regular(path, OpenOptions::new().read(true)).map_err(|source| {
            CheckpointError::Io {
                path: path.to_path_buf(),
                source,
            }
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: `flock` on the descriptor `file` owns; the shared lock taken goes when
            // `file` is closed below.
            #[allow(unsafe_code)]
            let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_SH | libc::LOCK_NB) };
            Ok(r != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EWOULDBLOCK))
        }
        #[cfg(not(unix))]
        {
            drop(file);
            Ok(false)
        }
    }

    /// Finished layers in the file (layers `0..layers()`).
    #[must_use]
    pub fn layers(&self) -> u32 {
        self.layers.len() as u32
    }

    /// The entries of finished layer `k`, with their checksum checked.
    ///
    /// # Errors
    /// [`CheckpointError::Corrupt`] on a checksum mismatch, [`CheckpointError::Io`].
    pub fn read_layer(&mut self, k: u32) -> Result<Vec<u8>, CheckpointError> {
        let (offset, len) = self.layers[k as usize];
        // The entries' checksum and the record header's, just before the entries.
        let mut rh = [0u8; 8];
        self.file
            .seek(SeekFrom::Start(offset - 8))
            .map_err(|e| self.io(e))?;
        self.file.read_exact(&mut rh).map_err(|e| self.io(e))?;
        let mut data = vec![0u8; len as usize];
        self.file.read_exact(&mut data).map_err(|e| self.io(e))?;
        let end = self.layers.last().map_or(0, |&(o, l)| o + l);
        self.file
            .seek(SeekFrom::Start(end))
            .map_err(|e| self.io(e))?;
        if crc32fast::hash(&data) != u32::from_le_bytes(rh[..4].try_into().expect("4 bytes")) {
            return Err(CheckpointError::Corrupt {
                path: self.path.clone(),
                why: format!("layer {k}: checksum mismatch"),
            });
        }
        Ok(data)
    }

    /// Appends finished layer `k` (the next one) and flushes it to disk.
    ///
    /// # Errors
    /// [`CheckpointError::Io`].
    ///
    /// # Panics
    /// When `k` is not the next layer (a caller's bug).
    pub fn append(&mut self, k: u32, entries: &[u8]) -> Result<(), CheckpointError> {
        assert_eq!(k, self.layers(), "layers are appended in order");
        let mut rh = Vec::with_capacity(RECORD_HEADER as usize);
        rh.extend_from_slice(&k.to_le_bytes());
        rh.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        rh.extend_from_slice(&crc32fast::hash(entries).to_le_bytes());
        let crc = crc32fast::hash(&rh);
        rh.extend_from_slice(&crc.to_le_bytes());
        let start = self.layers.last().map_or(0, |&(o, l)| o + l);
        let start = if start == 0 {
            self.file.stream_position().map_err(|e| self.io(e))?
        } else {
            start
        };
        self.file.write_all(&rh).map_err(|e| self.io(e))?;
        self.file.write_all(entries).map_err(|e| self.io(e))?;
        self.file.sync_data().map_err(|e| self.io(e))?;
        self.layers
            .push((start + RECORD_HEADER, entries.len() as u64));
        Ok(())
    }

    /// Removes the file (the database is saved).
    ///
    /// # Errors
    /// [`CheckpointError::Io`].
    pub fn remove(self) -> Result<(), CheckpointError> {
        std::fs::remove_file(&self.path).map_err(|source| CheckpointError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> Identity {
        Identity::of(&"kalah(3,2)".parse().unwrap(), 4, 210)
    }

    /// Layer k of a made-up build holds k + 2 entries.
    fn len(k: u32) -> u64 {
        u64::from(k) + 2
    }

    fn layer(k: u32) -> Vec<u8> {
        (0..len(k)).map(|i| (i as u8) ^ (k as u8 * 7) | 1).collect()
    }

    fn written(dir: &Path, layers: u32) -> PathBuf {
        let p = dir.join("x.partial");
        let _ = std::fs::remove_file(&p);
        let mut c = Checkpoint::create(&p, &id()).unwrap();
        for k in 0..layers {
            c.append(k, &layer(k)).unwrap();
        }
        p
    }

    #[test]
    fn layers_come_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let p = written(dir.path(), 3);
        let (mut c, r) = Checkpoint::resume(&p, &id(), len).unwrap();
        assert_eq!(r.dropped, None);
        assert_eq!(c.layers(), 3);
        for k in 0..3 {
            assert_eq!(c.read_layer(k).unwrap(), layer(k));
        }
        // Appending goes on after the last layer, also after a read.
        c.append(3, &layer(3)).unwrap();
        drop(c);
        let (mut c, _) = Checkpoint::resume(&p, &id(), len).unwrap();
        assert_eq!(c.layers(), 4);
        assert_eq!(c.read_layer(3).unwrap(), layer(3));
        assert_eq!(c.read_layer(0).unwrap(), layer(0));
    }

    #[test]
    fn a_cut_short_last_layer_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let p = written(dir.path(), 3);
        let full = std::fs::metadata(&p).unwrap().len();
        for cut in [1, 3, 21, 23] {
            let p = written(dir.path(), 3);
            let f = OpenOptions::new().write(true).open(&p).unwrap();
            f.set_len(full - cut).unwrap();
            drop(f);
            let (mut c, r) = Checkpoint::resume(&p, &id(), len).unwrap();
            assert_eq!(r.dropped, Some(2), "cut {cut}");
            assert_eq!(c.layers(), 2);
            assert_eq!(c.read_layer(1).unwrap(), layer(1));
            c.append(2, &layer(2)).unwrap();
            assert_eq!(std::fs::metadata(&p).unwrap().len(), full);
        }
    }

    /// A file cut inside its header (the build was killed while writing it) holds no layer:
    /// `resume` starts it over, at every cut, and the layers appended then come back.
    #[test]
    fn a_file_cut_inside_its_header_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let header = std::fs::read(written(dir.path(), 0)).unwrap();
        assert_eq!(header.len(), 28 + "kalah(3,2)".len() + 4);
        for cut in [0, 1, 7, 8, 27, 28, header.len() - 1] {
            let p = dir.path().join("x.partial");
            std::fs::write(&p, &header[..cut]).unwrap();
            let (mut c, r) =
                Checkpoint::resume(&p, &id(), len).unwrap_or_else(|e| panic!("cut {cut}: {e}"));
            assert_eq!((c.layers(), r.dropped), (0, None), "cut {cut}");
            assert_eq!(std::fs::read(&p).unwrap(), header, "cut {cut}");
            c.append(0, &layer(0)).unwrap();
            drop(c);
            let (mut c, _) = Checkpoint::resume(&p, &id(), len).unwrap();
            assert_eq!(c.read_layer(0).unwrap(), layer(0), "cut {cut}");
        }
        // A short file that is not the start of this build's header is still refused.
        let p = dir.path().join("x.partial");
        std::fs::write(&p, b"MNCLPAR?").unwrap();
        assert!(matches!(
            Checkpoint::resume(&p, &id(), len),
            Err(CheckpointError::Corrupt { .. })
        ));
    }

    /// A partial file is locked while a build has it open: a second build, resuming or
    /// starting, is refused with `InUse` (the lock goes with the process, so a killed
    /// build's file is free).
    #[test]
    fn a_file_in_use_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = written(dir.path(), 2);
        let (held, _) = Checkpoint::resume(&p, &id(), len).unwrap();
        let before = std::fs::read(&p).unwrap();
        assert!(matches!(
            Checkpoint::resume(&p, &id(), len),
            Err(CheckpointError::InUse { .. })
        ));
        assert!(Checkpoint::in_use(&p).unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), before);
        drop(held);
        assert!(!Checkpoint::in_use(&p).unwrap());
        let (c, _) = Checkpoint::resume(&p, &id(), len).unwrap();
        assert_eq!(c.layers(), 2);
        // A file just made is locked too.
        drop(c);
        std::fs::remove_file(&p).unwrap();
        let made = Checkpoint::create(&p, &id()).unwrap();
        assert!(matches!(
            Checkpoint::resume(&p, &id(), len),
            Err(CheckpointError::InUse { .. })
        ));
        drop(made);
    }

    #[test]
    fn damage_is_refused_or_dropped_never_used() {
        let dir = tempfile::tempdir().unwrap();
        let full = std::fs::read(written(dir.path(), 3)).unwrap();
        let header = 28 + "kalah(3,2)".len() + 4;
        // A flipped byte in the header, in layer 0's record header or entries.
        for (at, refused) in [
            (0, true),
            (14, true),
            (header + 2, true),
            (header + 21, false),
        ] {
            let mut bytes = full.clone();
            bytes[at] ^= 0x40;
            let p = dir.path().join("bad.partial");
            std::fs::write(&p, &bytes).unwrap();
            match Checkpoint::resume(&p, &id(), len) {
                Err(CheckpointError::Corrupt { .. }) => assert!(refused, "byte {at}"),
                Ok((mut c, _)) => {
                    assert!(!refused, "byte {at}");
                    // The entries' checksum is checked when they are read.
                    assert!(matches!(
                        c.read_layer(0),
                        Err(CheckpointError::Corrupt { .. })
                    ));
                }
                Err(e) => panic!("byte {at}: {e}"),
            }
        }
        // The last layer's entries damaged: read_layer refuses them too (only a record cut
        // short is dropped).
        let mut bytes = full.clone();
        let n = bytes.len();
        bytes[n - 1] ^= 1;
        let p = dir.path().join("bad.partial");
        std::fs::write(&p, &bytes).unwrap();
        let (mut c, _) = Checkpoint::resume(&p, &id(), len).unwrap();
        assert!(c.read_layer(2).is_err());
        // Another build's file.
        let p = written(dir.path(), 1);
        let other = Identity::of(&"kalah(3,3)".parse().unwrap(), 4, 210);
        assert!(matches!(
            Checkpoint::resume(&p, &other, len),
            Err(CheckpointError::Mismatch { .. })
        ));
        let other = Identity::of(&"kalah(3,2)".parse().unwrap(), 5, 210);
        assert!(matches!(
            Checkpoint::resume(&p, &other, len),
            Err(CheckpointError::Mismatch { .. })
        ));
    }

    /// A record header that disagrees with the layer expected names its count of entries in
    /// words: a layer of one entry (layer 0 of a Kalah database, the empty board) in the
    /// singular.
    #[test]
    fn a_record_of_one_entry_is_named_in_the_singular() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.partial");
        let mut c = Checkpoint::create(&p, &id()).unwrap();
        c.append(0, &[1]).unwrap();
        drop(c);
        let err = Checkpoint::resume(&p, &id(), len).unwrap_err().to_string();
        assert!(
            err.contains("record 0 is layer 0 of 1 entry, not layer 0 of 2"),
            "{err}"
        );
    }
}
