//! [`Database`]: what every game's database file offers (open, check, save, build, name),
//! with the per-game facts as associated items, so that finding a database in a folder,
//! keeping one in a cache and choosing one for a command are written once, generically
//! ([`super::find`], [`super::cache`], [`super::choose`]). The model is shakmaty-syzygy's
//! one `Tablebase<S>` for every chess variant, the variant's facts in a trait.
//!
//! Implemented by [`Egdb`](super::Egdb) (Kalah), [`AwariDb`](crate::awari::AwariDb) (Oware
//! under the rule set `awari`) and [`NoDatabase`] (a game without databases: Bao la Kete).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use mancala_core::{Game, GameKind};

use super::load::entry_itself;
use super::save::{is_not_regular, unwritable_folder_error, TemporaryFile};
use super::{
    game_of_file, open_with_header, BuildOptions, EgdbError, Encoding, RulesMismatch, SaveReport,
};
use crate::awari::AwariDb;

/// What the header of a database file says, checked ([`Database::info`]): the part every
/// game's header has.
pub trait DatabaseInfo: Clone + std::fmt::Debug {
    /// K (Kalah) or N (Awari): every position with at most this many seeds in the houses
    /// has an entry.
    fn max_seeds(&self) -> u32;
    /// The entry encoding of the file.
    fn encoding(&self) -> Encoding;
    /// The rule set the header names, as written there.
    fn rules(&self) -> &str;
    /// Memory the entries take once the file is opened, bytes.
    fn memory_bytes(&self) -> u64;
    /// What the database of this header holds, for messages, as its
    /// [`Database::describe`] once opened (`kalah(6,·)+empty_capture, K = 20`).
    fn describe(&self) -> String;
    /// The number of entries.
    fn entries(&self) -> u64;
    /// Bits an entry takes in `encoding` (8, or the packed width of this K).
    fn bits_in(&self, encoding: Encoding) -> u32;
    /// Bits an entry of the file takes: the fixed width of a one-byte or packed file
    /// ([`DatabaseInfo::bits_in`]), or for a compact one (no fixed width) the payload's bits
    /// over the entries; what [`Database::average_bits`] gives once the file is opened.
    fn average_bits(&self) -> f64 {
        f64::from(self.bits_in(self.encoding()))
    }
    /// The conventional file name of this header's database in `encoding`
    /// ([`Database::file_name`]).
    fn file_name(&self, encoding: Encoding) -> String;
}

/// A database of one game's exact values held in the checked file format of
/// [`crate::egdb`] (module docs there): what the generic policy of this module needs of it.
/// Every method that reads a file checks it completely; every error is a typed
/// [`EgdbError`] carrying the path it is about.
pub trait Database: Sized + Send + Sync + 'static {
    /// The game's rules ([`Game::Rules`] of the game).
    type Rules: Copy + std::fmt::Display + Send + Sync + 'static;
    /// The checked header ([`Database::info`]).
    type Info: DatabaseInfo;
    /// The game whose values it holds.
    const GAME: GameKind;
    /// What messages call such a database: `endgame database`, `Awari database`.
    const KIND: &'static str;
    /// The same, with the article a sentence about one being built takes: `an endgame
    /// database` (there is one for each rule family and K), `the Awari database`.
    const A_KIND: &'static str;
    /// What an entry holds the value of: `position`, `board`.
    const ENTRY: &'static str;
    /// The letter messages give the most seeds in the houses it holds: `K` for the Kalah
    /// endgame databases (`docs/egdb.md`), `N` for the Oware databases (`docs/awari.md`).
    const SEEDS_BOUND: &'static str = "K";

    /// Reads and checks only the header of the file at `path` (the entries are checked by
    /// [`Database::open`]).
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::TooLong`], [`EgdbError::Header`],
    /// [`EgdbError::Changed`], [`EgdbError::WrongGame`] (a file of another game),
    /// [`EgdbError::NoDatabase`] (a game without databases).
    fn info(path: &Path) -> Result<Self::Info, EgdbError>;

    /// Reads the file at `path` into memory and checks it completely (header, size, both
    /// checksums, every entry).
    ///
    /// # Errors
    /// Those of [`Database::info`], and [`EgdbError::Checksum`], [`EgdbError::BadEntry`],
    /// [`EgdbError::OutOfMemory`].
    fn open(path: &Path) -> Result<Self, EgdbError>;

    /// [`Database::open`], given up once `cancel` is set (looked at between the pieces of
    /// the read and of the entry check), for a program that may stop needing the database
    /// while it is read. The default opens the file whole ([`Database::open`]).
    ///
    /// # Errors
    /// Those of [`Database::open`], and [`EgdbError::Cancelled`] when `cancel` was set.
    fn open_cancellable(path: &Path, cancel: &AtomicBool) -> Result<Self, EgdbError> {
        let _ = cancel;
        Self::open(path)
    }

    /// Writes the database to `path` crash-safely, over nothing or over a file that holds
    /// this same database only: [`Database::save_checked`] without `overwrite`.
    ///
    /// # Errors
    /// Those of [`Database::save_checked`].
    fn save(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, false)
    }

    /// Writes the database to `path` crash-safely over whatever regular file is there:
    /// [`Database::save_checked`] with `overwrite`, the writer of a caller that has decided
    /// already (a command told `--force`, a cache replacing a damaged file).
    ///
    /// # Errors
    /// Those of [`Database::save_checked`] but [`EgdbError::Occupied`].
    fn save_over(&self, path: &Path) -> Result<SaveReport, EgdbError> {
        self.save_checked(path, true)
    }

    /// The name of this database's file ([`Database::file_name`] of its rules, K or N and
    /// encoding: `kalah6.k20.egdb`, `awari+grand_slam=none.n12.packed.egdb`), by which
    /// [`occupant`] tells a file holding this same database.
    fn own_file_name(&self) -> String;

    /// Writes the database to `path` crash-safely (the one writer of every game's files,
    /// [`Egdb::save_checked`](super::Egdb::save_checked) documents it), unless `overwrite`
    /// only where that destroys nothing else ([`occupant`], the file's header read once,
    /// before the write and again if a file appeared at `path` during it): nothing at
    /// `path`, or a file that holds this same database (the same game, rule family, K or N
    /// and encoding: a save again, or a repair of damaged entries). A file that holds
    /// another database, or that is no database, is left as it is; of two saves started at
    /// once to a new path, the later one finds the earlier one's file. With `overwrite` any
    /// regular file there is written over. The rule of `mancala egdb build` and
    /// `mancala egdb convert` without and with `--force`; the save of the C library's
    /// `mancala_db_save` and the Python package's `Database.save`.
    ///
    /// # Errors
    /// [`EgdbError::Occupied`] (unless `overwrite`: the file holds another database, its
    /// description and encoding named, or no database, with the reason; nothing is
    /// written); [`EgdbError::Io`] naming `path` (an error in writing the temporary file
    /// names it in its reason, as removed).
    fn save_checked(&self, path: &Path, overwrite: bool) -> Result<SaveReport, EgdbError>;

    /// Builds the database of `rules` with K = `max_seeds` in memory, as `options` say
    /// (encoding, threads, progress reports in entries done and in all).
    ///
    /// # Errors
    /// Those of [`Database::entries`], [`EgdbError::OutOfMemory`] (before any work when
    /// [`Database::build_memory`] is more than the memory available, or when the memory
    /// cannot be had), [`EgdbError::Threads`], [`EgdbError::Cancelled`] (the progress
    /// callback stopped it).
    fn build(
        rules: &Self::Rules,
        max_seeds: u32,
        options: BuildOptions<'_>,
    ) -> Result<Self, EgdbError>;

    /// K (or N) of this database.
    fn max_seeds(&self) -> u32;

    /// How its entries are held (and written by [`Database::save`]).
    fn encoding(&self) -> Encoding;

    /// Bits an entry takes in memory and in the file: 8, or the packed width.
    fn bits_per_entry(&self) -> u32;

    /// Bits an entry takes: [`Database::bits_per_entry`] for a fixed width, or for an
    /// encoding without one (compact) the payload's bits over the entries; the figure
    /// [`DatabaseInfo::average_bits`] gives from the file's header.
    fn average_bits(&self) -> f64 {
        f64::from(self.bits_per_entry())
    }

    /// Memory the entries take, bytes (a packed payload with its 8 bytes of padding).
    fn bytes(&self) -> usize;

    /// The bytes of the file's payload, exactly: the entries as [`Database::save`] writes
    /// them, the header not counted.
    fn payload_bytes(&self) -> u64;

    /// The bytes of the file [`Database::save`] writes, exactly: the header and the
    /// payload ([`Database::payload_bytes`]); what `egdb build` and `egdb convert` print.
    fn file_bytes(&self) -> u64;

    /// The number of entries.
    fn entry_count(&self) -> u64;

    /// Ok when the game's databases can be held in `encoding` (built, converted to it,
    /// saved in it): every encoding for the Oware databases, [`Encoding::Byte`] and
    /// [`Encoding::Packed`] for Kalah's. Checked by [`Database::convert`] and
    /// [`Database::build`]; a front end checks it first, before any other refusal.
    ///
    /// # Errors
    /// [`EgdbError::NoSuchEncoding`] (Kalah's [`Encoding::Compact`]),
    /// [`EgdbError::NoDatabase`] (a game without databases).
    fn check_encoding(encoding: Encoding) -> Result<(), EgdbError>;

    /// The same database in the entry encoding `encoding`, every value the same (a copy
    /// when it is already in it). Both are in memory at once while converting.
    ///
    /// # Errors
    /// [`EgdbError::OutOfMemory`].
    fn convert(&self, encoding: Encoding) -> Result<Self, EgdbError>;

    /// Ok when a database with the header `info` holds the values of positions played under
    /// `rules` (before its entries are read).
    ///
    /// # Errors
    /// [`RulesMismatch`] naming the rules that differ.
    fn info_serves(info: &Self::Info, rules: &Self::Rules) -> Result<(), RulesMismatch>;

    /// Ok when this database holds the values of positions played under `rules`.
    ///
    /// # Errors
    /// [`RulesMismatch`] naming the rules that differ.
    fn serves_rules(&self, rules: &Self::Rules) -> Result<(), RulesMismatch>;

    /// The conventional file name of the database of `rules` and K = `max_seeds` in
    /// `encoding` (`kalah6.k20.egdb`, `awari.n18.packed.egdb`): files are read by their
    /// headers, never by their names, but a cache finds its own files by name.
    fn file_name(rules: &Self::Rules, max_seeds: u32, encoding: Encoding) -> String;

    /// The entries of the database of `rules` with K = `max_seeds`, once K is checked
    /// against the game and the format.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] (K out of the format's range),
    /// [`EgdbError::MoreSeedsThanTheGame`] (more seeds than the game has),
    /// [`EgdbError::NoDatabase`], [`EgdbError::Unserved`] (no database holds the values of
    /// `rules`: an Oware rule set such as `oware`).
    fn entries(rules: &Self::Rules, max_seeds: u32) -> Result<u64, EgdbError>;

    /// The most memory a build of `rules` with K = `max_seeds` in `encoding` takes at once,
    /// bytes (the entries and the build's work space).
    ///
    /// # Errors
    /// Those of [`Database::entries`].
    fn build_memory(
        rules: &Self::Rules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError>;

    /// The K a cache builds for games of `rules` on a machine with `available` bytes of
    /// memory (`None`: not known), `None` when there is none to build (no database serves
    /// the rules, or not even the smallest fits).
    fn default_max_seeds(rules: &Self::Rules, available: Option<u64>) -> Option<u32>;

    /// What the database holds, for messages (`kalah(6,·)+empty_capture, K = 20`,
    /// `awari, levels 0..=18`).
    fn describe(&self) -> String;

    /// What a database of `rules` serves, for messages: `kalah(6,·)+empty_capture` (any
    /// seeds a house), `awari`.
    fn family(rules: &Self::Rules) -> String;

    /// K in words: `K = 20`, `levels 0..=18`.
    fn extent(max_seeds: u32) -> String;

    /// The database of `rules` with K (or N) = `max_seeds` in `encoding`, in words, as a
    /// refused save names the database it was to write ([`EgdbError::Occupied`]): its
    /// [`Database::family`], [`Database::extent`] and encoding (`kalah(6,·), K = 20, byte
    /// encoding`, `awari, levels 0..=14, packed encoding`).
    fn in_words(rules: &Self::Rules, max_seeds: u32, encoding: Encoding) -> String {
        format!(
            "{}, {}, {encoding} encoding",
            Self::family(rules),
            Self::extent(max_seeds)
        )
    }

    /// What messages call the database of `rules`: [`Database::KIND`] unless the game's
    /// databases are named by their rule set (`Oware database of awari+grand_slam=none`).
    fn kind_of(rules: &Self::Rules) -> String {
        let _ = rules;
        Self::KIND.to_string()
    }

    /// [`Database::kind_of`] with the article a sentence about one being built takes:
    /// [`Database::A_KIND`] unless the game's databases are named by their rule set (`the
    /// Oware database of awari+grand_slam=none`).
    fn a_kind_of(rules: &Self::Rules) -> String {
        let _ = rules;
        Self::A_KIND.to_string()
    }
}

/// The methods of [`Database`] that a database type also has as inherent methods of the same
/// names and signatures (`info`, `open`, `open_cancellable`, `save_checked`, `max_seeds`, `encoding`, `bits_per_entry`,
/// `bytes`, `payload_bytes`, `file_bytes`, `convert`): each forwards to the inherent one, written once for every
/// implementation.
macro_rules! forward_to_inherent {
    ($t:ty) => {
        fn info(path: &std::path::Path) -> Result<Self::Info, $crate::egdb::EgdbError> {
            <$t>::info(path)
        }
        fn open(path: &std::path::Path) -> Result<Self, $crate::egdb::EgdbError> {
            <$t>::open(path)
        }
        fn open_cancellable(
            path: &std::path::Path,
            cancel: &std::sync::atomic::AtomicBool,
        ) -> Result<Self, $crate::egdb::EgdbError> {
            <$t>::open_cancellable(path, cancel)
        }
        fn save_checked(
            &self,
            path: &std::path::Path,
            overwrite: bool,
        ) -> Result<$crate::egdb::SaveReport, $crate::egdb::EgdbError> {
            <$t>::save_checked(self, path, overwrite)
        }
        fn max_seeds(&self) -> u32 {
            <$t>::max_seeds(self)
        }
        fn encoding(&self) -> $crate::egdb::Encoding {
            <$t>::encoding(self)
        }
        fn bits_per_entry(&self) -> u32 {
            <$t>::bits_per_entry(self)
        }
        fn bytes(&self) -> usize {
            <$t>::bytes(self)
        }
        fn payload_bytes(&self) -> u64 {
            <$t>::payload_bytes(self)
        }
        fn file_bytes(&self) -> u64 {
            <$t>::file_bytes(self)
        }
        fn convert(
            &self,
            encoding: $crate::egdb::Encoding,
        ) -> Result<Self, $crate::egdb::EgdbError> {
            <$t>::convert(self, encoding)
        }
    };
}
pub(crate) use forward_to_inherent;

/// The database of a game that has none (Bao la Kete): a type with no value, so that the
/// generic code of a game without databases compiles and finds nothing. Opening a file as
/// one is [`EgdbError::WrongGame`] (the file is another game's) or the file's own error;
/// building one is [`EgdbError::NoDatabase`].
pub struct NoDatabase<G>(std::convert::Infallible, PhantomData<fn() -> G>);

impl<G> std::fmt::Debug for NoDatabase<G> {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {}
    }
}

impl<G: Game> NoDatabase<G> {
    /// The refusal of every file: the file's own error, or the game it holds.
    fn refuse(path: &Path) -> EgdbError {
        match game_of_file(path) {
            Ok((found, rules)) => EgdbError::WrongGame {
                path: path.to_path_buf(),
                found,
                rules,
                expected: G::KIND,
            },
            Err(e) => e,
        }
    }

    /// The value no database of this game holds.
    pub(crate) fn never(&self) -> ! {
        match self.0 {}
    }
}

/// The header of a [`NoDatabase`] file: none can be read.
#[derive(Clone, Debug)]
pub struct NoInfo(std::convert::Infallible);

impl DatabaseInfo for NoInfo {
    fn max_seeds(&self) -> u32 {
        match self.0 {}
    }
    fn encoding(&self) -> Encoding {
        match self.0 {}
    }
    fn rules(&self) -> &str {
        match self.0 {}
    }
    fn memory_bytes(&self) -> u64 {
        match self.0 {}
    }
    fn describe(&self) -> String {
        match self.0 {}
    }
    fn entries(&self) -> u64 {
        match self.0 {}
    }
    fn bits_in(&self, _: Encoding) -> u32 {
        match self.0 {}
    }
    fn file_name(&self, _: Encoding) -> String {
        match self.0 {}
    }
}

impl<G: Game> Database for NoDatabase<G> {
    type Rules = G::Rules;
    type Info = NoInfo;
    const GAME: GameKind = G::KIND;
    const KIND: &'static str = "database";
    const A_KIND: &'static str = "a database";
    const ENTRY: &'static str = "position";

    fn info(path: &Path) -> Result<NoInfo, EgdbError> {
        Err(Self::refuse(path))
    }
    fn open(path: &Path) -> Result<Self, EgdbError> {
        Err(Self::refuse(path))
    }
    fn save_checked(&self, _: &Path, _: bool) -> Result<SaveReport, EgdbError> {
        self.never()
    }
    fn own_file_name(&self) -> String {
        self.never()
    }
    fn build(_: &G::Rules, _: u32, _: BuildOptions<'_>) -> Result<Self, EgdbError> {
        Err(EgdbError::NoDatabase { game: G::KIND })
    }
    fn max_seeds(&self) -> u32 {
        self.never()
    }
    fn encoding(&self) -> Encoding {
        self.never()
    }
    fn bits_per_entry(&self) -> u32 {
        self.never()
    }
    fn bytes(&self) -> usize {
        self.never()
    }
    fn payload_bytes(&self) -> u64 {
        self.never()
    }
    fn file_bytes(&self) -> u64 {
        self.never()
    }
    fn entry_count(&self) -> u64 {
        self.never()
    }
    fn convert(&self, _: Encoding) -> Result<Self, EgdbError> {
        self.never()
    }
    fn check_encoding(_: Encoding) -> Result<(), EgdbError> {
        Err(EgdbError::NoDatabase { game: G::KIND })
    }
    fn info_serves(info: &NoInfo, _: &G::Rules) -> Result<(), RulesMismatch> {
        match info.0 {}
    }
    fn serves_rules(&self, _: &G::Rules) -> Result<(), RulesMismatch> {
        self.never()
    }
    fn file_name(_: &G::Rules, max_seeds: u32, _: Encoding) -> String {
        format!("none.k{max_seeds}.egdb")
    }
    fn entries(_: &G::Rules, _: u32) -> Result<u64, EgdbError> {
        Err(EgdbError::NoDatabase { game: G::KIND })
    }
    fn build_memory(_: &G::Rules, _: u32, _: Encoding) -> Result<u64, EgdbError> {
        Err(EgdbError::NoDatabase { game: G::KIND })
    }
    fn default_max_seeds(_: &G::Rules, _: Option<u64>) -> Option<u32> {
        None
    }
    fn describe(&self) -> String {
        self.never()
    }
    fn family(rules: &G::Rules) -> String {
        rules.to_string()
    }
    fn extent(max_seeds: u32) -> String {
        format!("K = {max_seeds}")
    }
}

/// What holds the file a database is about to be written over, when it is not that database
/// ([`occupant`]).
#[derive(Debug, thiserror::Error)]
pub enum Occupant {
    /// The file's header says it holds another database: its description and encoding
    /// (`kalah(4,·), K = 6, byte encoding`, from [`DatabaseInfo::describe`]).
    #[error("holds another database ({0})")]
    Other(String),
    /// The file cannot be told to hold the database: no database file, a truncated or
    /// over-long one, one of another game, one that cannot be read (the error of
    /// [`Database::info`]).
    #[error("cannot be told to hold that database ({})", .0.reason())]
    Unknown(EgdbError),
    /// Something that is not a regular file: a device (`/dev/null`), a FIFO or a socket. The
    /// save refuses it ([`Egdb::save`](super::Egdb::save): its rename would replace it rather
    /// than write to it, `/dev/null` by a regular file for a user who may write `/dev`), so a
    /// caller refuses it even when told to write over anything else (`--force`). Says `not a
    /// regular file, which a save does not replace`, the words of the save's error.
    #[error("{}", super::save::NOT_REGULAR)]
    NotRegular,
}

/// Whether the database whose file name ([`Database::file_name`],
/// [`DatabaseInfo::file_name`]: game, rule family, K or N, encoding) is `name` may be written
/// over the file at `path` without destroying anything else, by the file's header alone,
/// read once and checked as the header of its own game's database (Kalah's, the Oware
/// databases'; a file of another game is [`EgdbError::WrongGame`]): `Ok` when no file is
/// there (nothing, a folder, which the save reports, or a symbolic link, which the save
/// replaces rather than follows) or when the header and the size say it holds that
/// database (a rebuild, or a repair of damaged entries). A device, a FIFO or a socket is
/// [`Occupant::NotRegular`], told before anything is read, by the test the save refuses
/// such a file with. The one check of `mancala egdb build`, `mancala egdb convert` and
/// `mancala-mpi egdb build` before they write: they refuse [`Occupant::NotRegular`] whatever
/// `--force` says, the other two unless it is given.
///
/// # Errors
/// [`Occupant::Other`] for another database (of either game), [`Occupant::Unknown`] for a
/// file that cannot be told to hold it, [`Occupant::NotRegular`] for a device, a FIFO or a
/// socket.
pub fn occupant(path: &Path, name: &str) -> Result<(), Occupant> {
    if is_not_regular(path) {
        return Err(Occupant::NotRegular);
    }
    match std::fs::symlink_metadata(path) {
        Err(_) => return Ok(()),
        Ok(m) if m.is_dir() || m.is_symlink() => return Ok(()),
        // A regular file, told by its header.
        Ok(_) => {}
    }
    fn held<I: DatabaseInfo>(info: I) -> (String, String) {
        let encoding = info.encoding();
        (
            info.file_name(encoding),
            format!("{}, {encoding} encoding", info.describe()),
        )
    }
    let found = open_with_header(path).and_then(|(f, len, header, head)| {
        match GameKind::of_rules(&header.rules) {
            GameKind::Oware => AwariDb::info_of(path, &f, len, header, &head).map(held),
            // Kalah's, and any other game's, which Kalah's check refuses as `WrongGame`.
            _ => header.check(path, len).map(held),
        }
    });
    match found {
        Ok((file_name, _)) if file_name == name => Ok(()),
        Ok((_, what)) => Err(Occupant::Other(what)),
        Err(e) => Err(Occupant::Unknown(e)),
    }
}

/// Checks that the folder `dir` takes a new file, before any work is done for a file to be
/// written there: a probe with a fresh unpredictable name
/// (`.mancala-write-check.<process id>.<12 random letters or digits>.tmp`), created with
/// `O_CREAT | O_EXCL` as a save creates its temporary file (an existing name, a planted
/// symbolic link included, is never opened), and removed at once. The check of
/// `mancala egdb build`, `mancala egdb convert` and `mancala-mpi egdb build` before they
/// build or read anything: a folder that cannot be written is refused as such, never as a
/// file in the way that `--force` would write over.
///
/// # Errors
/// The error of the creation, which does not name the probe: for a folder that cannot be
/// written, in the words of a save into it ([`unwritable_folder_error`]: `the folder
/// /srv/db is not writable: Permission denied (os error 13)`); else the system's (`No such
/// file or directory (os error 2)` for a folder that is not there, `Not a directory (os
/// error 20)` for a file).
pub fn probe_folder(dir: &Path) -> std::io::Result<()> {
    TemporaryFile::create(dir, "mancala-write-check")
        .map(drop)
        .map_err(|e| unwritable_folder_error(dir, e))
}

/// Something other than a folder standing where a folder is wanted, found by
/// [`file_in_the_way`]. Displayed as the reason a folder cannot be made or written: `it is
/// a file, not a folder` (the folder's own path), `<path> is a file, not a folder` (one
/// above it, the path shortened as [`mancala_core::ShortenedPath`] does), `a FIFO, socket
/// or device` in place of `a file` for one that is not a regular file, and `a symbolic link
/// that leads nowhere (a loop, or a missing target)` for a link that cannot be followed to
/// anything (`ln -s loop loop`; the system says only "File exists").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInTheWay {
    /// What stands in the way: the folder's own path, or the path of a folder above it.
    pub path: PathBuf,
    /// Whether `path` is the folder asked for itself, rather than one above it.
    pub itself: bool,
    /// Whether it is a regular file (or a symbolic link to one); else a FIFO, a socket or a
    /// device, or a symbolic link that leads nowhere (`broken_link`).
    pub regular: bool,
    /// Whether it is a symbolic link that leads nowhere: around a loop (a link to itself
    /// included) or to a target that is not there.
    pub broken_link: bool,
}

/// The words for a symbolic link that cannot be followed to anything ([`is_broken_link`]),
/// where the system says only "File exists", "No such file or directory" or "Too many levels
/// of symbolic links": `a symbolic link that leads nowhere (a loop, or a missing target)`.
/// The one text of [`FileInTheWay`] (a link where a folder is wanted), of [`open_regular`]
/// (one where a file is read or appended to) and of `mancala-mpi`'s partial file.
///
/// [`open_regular`]: super::open_regular
pub const BROKEN_LINK: &str = "a symbolic link that leads nowhere (a loop, or a missing target)";

/// Whether `path` is a symbolic link that cannot be followed to anything: around a loop (a
/// link to itself included), or to a target that is not there (or that cannot be looked
/// at). The link itself is looked at (`lstat`), then followed (`stat`); `false` when nothing
/// is at `path`, or something that is not a link, or a link that leads to something.
/// Trailing separators change nothing (`dang/` is the link `dang` itself). The one test of
/// [`file_in_the_way`] and [`open_regular`](super::open_regular) ([`BROKEN_LINK`] words it).
#[must_use]
pub fn is_broken_link(path: &Path) -> bool {
    let entry = entry_itself(path);
    std::fs::symlink_metadata(&entry).is_ok_and(|m| m.is_symlink())
        && std::fs::metadata(&entry).is_err()
}

impl std::fmt::Display for FileInTheWay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.broken_link {
            BROKEN_LINK
        } else if self.regular {
            "a file"
        } else {
            "a FIFO, socket or device"
        };
        if self.itself {
            write!(f, "it is {what}, not a folder")
        } else {
            write!(
                f,
                "{} is {what}, not a folder",
                mancala_core::ShortenedPath(&self.path)
            )
        }
    }
}

impl std::error::Error for FileInTheWay {}

/// The first of `dir` and the folders above it that exists and is not a folder (symbolic
/// links followed: a link to a file is a file, a link to a folder a folder; a link that
/// cannot be followed to anything, around a loop or to a missing target, is a broken link),
/// or `None` when there is none: a file standing where a folder should be, which the system
/// reports only as "File exists" or "Not a directory". Trailing separators change nothing
/// (`dang/` is looked at as `dang`, the link itself). For the messages of the commands
/// that make or write a folder (`--out`, the cache folder).
#[must_use]
pub fn file_in_the_way(dir: &Path) -> Option<FileInTheWay> {
    let (path, regular, broken_link) = dir
        .ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .find_map(|p| match std::fs::metadata(entry_itself(p)) {
            Ok(m) => (!m.is_dir()).then(|| (p, m.is_file(), false)),
            // Not there, or not to be looked at; or a link that leads nowhere.
            Err(_) => is_broken_link(p).then_some((p, false, true)),
        })?;
    Some(FileInTheWay {
        path: path.to_path_buf(),
        itself: path == dir,
        regular,
        broken_link,
    })
}
