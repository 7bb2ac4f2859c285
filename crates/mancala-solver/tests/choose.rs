//! The database choice written once for every game's database (`egdb::choose`): a folder
//! given is searched by the headers, largest K first, a damaged file passed over and named;
//! a database with too few seeds is refused before its entries are read; without a cache a
//! database is built in memory where the values come from nowhere else; a cache that holds
//! nothing is reported, never filled, by a command that must not build; a game without
//! databases is refused as such.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mancala_core::bao::BaoPosition;
use mancala_core::kalah::KalahRules;
use mancala_core::oware::OwareRules;
use mancala_solver::awari::AwariDb;
use mancala_solver::egdb::{
    choose, Bound, Build, ChooseError, ChooseEvent, Database, Encoding, NoDatabase, Want,
};
use mancala_solver::{BuildOptions, Cache, Egdb, EgdbError, Source};

/// A scratch folder of one test, in Cargo's folder for the files of integration tests; the
/// guard removes it when the test ends, passed or failed.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("choose-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

fn want(given: Option<&std::path::Path>, seeds: u32, build: Build) -> Want<'_> {
    Want {
        given,
        cache: None,
        max_seeds: None,
        seeds,
        build,
        threads: 1,
        interval: Duration::from_millis(10),
        cancel: None,
    }
}

/// The events of one choice, as words.
fn events(seen: &mut Vec<String>) -> impl FnMut(ChooseEvent<'_>) -> ControlFlow<()> + '_ {
    |e| {
        seen.push(match e {
            ChooseEvent::Cache(_) => "cache".into(),
            ChooseEvent::NotCached { max_seeds, .. } => format!("not cached {max_seeds}"),
            ChooseEvent::CacheUnusable(_) => "unusable".into(),
            ChooseEvent::BuildingInMemory { max_seeds, .. } => format!("in memory {max_seeds}"),
        });
        ControlFlow::Continue(())
    }
}

#[test]
fn a_folder_is_searched_largest_first_and_a_damaged_file_is_passed_over() {
    let scratch = scratch("folder");
    let dir = scratch.path().to_path_buf();
    let awari = OwareRules::AWARI;
    for n in [3, 5] {
        AwariDb::build(n, 1)
            .unwrap()
            .save(&dir.join(AwariDb::file_name(n)))
            .unwrap();
    }
    // N = 5 damaged in its payload: its header reads, its checksum does not.
    let big = dir.join("awari.n5.egdb");
    let mut bytes = std::fs::read(&big).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&big, &bytes).unwrap();
    let mut seen = Vec::new();
    let c = choose::<AwariDb>(
        &awari,
        &want(Some(&dir), 2, Build::Always),
        &mut events(&mut seen),
    )
    .unwrap()
    .unwrap();
    assert_eq!(c.database.max_seeds(), 3);
    assert_eq!(c.source, Source::File(dir.join("awari.n3.egdb")));
    assert_eq!(c.skipped.len(), 1);
    assert_eq!(c.skipped[0].0, big);
    assert!(
        c.skipped[0].1.starts_with("database checksum mismatch"),
        "{:?}",
        c.skipped
    );
    assert!(seen.is_empty(), "{seen:?}");
    // Positions of 4 seeds: the largest usable N is 3, refused before it is read.
    let e = choose::<AwariDb>(&awari, &want(Some(&dir), 4, Build::Always), &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap_err();
    match e {
        ChooseError::TooFewSeeds {
            seeds,
            max_seeds,
            bound: Bound::File(file),
            skipped,
            buildable,
        } => {
            assert_eq!((seeds, max_seeds), (4, 3));
            assert_eq!(file, dir.join("awari.n3.egdb"));
            assert_eq!(skipped.len(), 1);
            assert!(buildable);
        }
        other => panic!("{other}"),
    }
    // A Kalah database given for Awari positions: a database of another game.
    let kalah: KalahRules = "kalah(2,1)".parse().unwrap();
    let k = dir.join("k.egdb");
    Egdb::build(&kalah, 2, BuildOptions::new())
        .unwrap()
        .save(&k)
        .unwrap();
    let e = choose::<AwariDb>(&awari, &want(Some(&k), 0, Build::Always), &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap_err();
    assert!(
        matches!(&e, ChooseError::Given(EgdbError::WrongGame { .. })),
        "{e}"
    );
}

#[test]
fn without_a_cache_a_needed_database_is_built_in_memory() {
    let awari = OwareRules::AWARI;
    let mut seen = Vec::new();
    let c = choose::<AwariDb>(
        &awari,
        &want(None, 4, Build::Always),
        &mut events(&mut seen),
    )
    .unwrap()
    .unwrap();
    assert_eq!(c.database.max_seeds(), 4);
    assert_eq!(c.source, Source::NotKept);
    assert!(c.built);
    assert_eq!(seen[0], "in memory 4");
    // The Kalah solver goes on without one.
    let kalah: KalahRules = "kalah(2,1)".parse().unwrap();
    let none = choose::<Egdb>(&kalah, &want(None, 0, Build::Cache), &mut |_| {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert!(none.is_none());
}

#[test]
fn a_command_that_must_not_build_reports_an_empty_cache_and_uses_a_larger_one() {
    let scratch = scratch("cache");
    let dir = scratch.path().to_path_buf();
    let cache = Cache::new(&dir);
    let kalah: KalahRules = "kalah(2,1)".parse().unwrap();
    let mut w = want(None, 0, Build::Never);
    w.cache = Some(&cache);
    w.max_seeds = Some(2);
    let mut seen = Vec::new();
    let none = choose::<Egdb>(&kalah, &w, &mut events(&mut seen)).unwrap();
    assert!(none.is_none());
    assert_eq!(seen, vec!["not cached 2"]);
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // A larger database of the same rules kept in the cache folder serves.
    let four = dir.join(Egdb::file_name(
        &kalah,
        4,
        mancala_solver::egdb::Encoding::Byte,
    ));
    Egdb::build(&kalah, 4, BuildOptions::new())
        .unwrap()
        .save(&four)
        .unwrap();
    let c = choose::<Egdb>(&kalah, &w, &mut |_| ControlFlow::Continue(()))
        .unwrap()
        .unwrap();
    assert_eq!(c.database.max_seeds(), 4);
    assert_eq!(c.source, Source::File(four));
}

#[test]
fn a_game_without_databases_is_refused_as_such() {
    let rules = Default::default();
    let scratch = scratch("bao");
    let dir = scratch.path().to_path_buf();
    let e =
        choose::<NoDatabase<BaoPosition>>(&rules, &want(Some(&dir), 0, Build::Never), &mut |_| {
            ControlFlow::Continue(())
        })
        .unwrap_err();
    assert_eq!(e.to_string(), "Bao la Kete has no database of exact values");
    assert!(NoDatabase::<BaoPosition>::default_max_seeds(&rules, None).is_none());
}

/// A reading given up: with its flag set, a database file is not read (`open_cancellable` of
/// either game, in either encoding, and `choose` for a file given or the cache's file) and
/// the error is `Cancelled`; with the flag clear, it is the database `open` reads.
#[test]
fn a_reading_whose_flag_is_set_is_given_up() {
    let scratch = scratch("cancel");
    let dir = scratch.path().to_path_buf();
    let (set, clear) = (AtomicBool::new(true), AtomicBool::new(false));
    let kalah: KalahRules = "kalah(2,1)".parse().unwrap();
    let cache = Cache::new(dir.join("cache"));
    std::fs::create_dir(dir.join("cache")).unwrap();
    let k = cache.file::<Egdb>(&kalah, 4);
    Egdb::build(&kalah, 4, BuildOptions::new())
        .unwrap()
        .save(&k)
        .unwrap();
    let cancelled = |r: Result<(), EgdbError>| matches!(r, Err(EgdbError::Cancelled));
    assert!(cancelled(Egdb::open_cancellable(&k, &set).map(|_| ())));
    assert!(cancelled(
        <Egdb as Database>::open_cancellable(&k, &set).map(|_| ())
    ));
    assert_eq!(
        Egdb::open_cancellable(&k, &clear).unwrap().payload(),
        Egdb::open(&k).unwrap().payload()
    );
    let awari = AwariDb::build(3, 1).unwrap();
    for encoding in [Encoding::Byte, Encoding::Packed, Encoding::Compact] {
        let a = dir.join(format!("awari-{encoding}.egdb"));
        awari.convert(encoding).unwrap().save(&a).unwrap();
        assert!(
            cancelled(AwariDb::open_cancellable(&a, &set).map(|_| ())),
            "{encoding}"
        );
        let read = AwariDb::open_cancellable(&a, &clear).unwrap();
        assert_eq!((read.max_seeds(), read.encoding()), (3, encoding));
    }
    // Through `choose`: the file given, then the cache's file.
    let mut given = want(Some(&k), 0, Build::Never);
    given.cancel = Some(&set);
    let mut cached = want(None, 0, Build::Never);
    cached.cache = Some(&cache);
    cached.max_seeds = Some(4);
    cached.cancel = Some(&set);
    for w in [given, cached] {
        let e = choose::<Egdb>(&kalah, &w, &mut |_| ControlFlow::Continue(())).unwrap_err();
        assert!(matches!(e, ChooseError::Build(EgdbError::Cancelled)), "{e}");
        let w = Want {
            cancel: Some(&clear),
            ..w
        };
        let c = choose::<Egdb>(&kalah, &w, &mut |_| ControlFlow::Continue(()))
            .unwrap()
            .unwrap();
        assert_eq!(c.source, Source::File(k.clone()));
    }
}
