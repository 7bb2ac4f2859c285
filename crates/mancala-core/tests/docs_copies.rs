//! The rules and notation pages included in the crate's documentation (module `docs`,
//! `#[doc = include_str!(…)]`) are copies, under the crate's folder so that the crates.io
//! package holds them, of the project's `docs/rules/*.md` and `docs/notation.md`: each copy
//! equals its original. After editing an original, refresh the copies with
//! `MANCALA_BLESS=1 cargo test -p mancala-core --test docs_copies`.

use std::path::Path;

use mancala_core::GameKind;

/// The file stem of a game's rules page: its name in lower case, words joined by `-`
/// (`bao-la-kete`).
fn stem(kind: GameKind) -> String {
    kind.name().to_lowercase().replace(' ', "-")
}

/// The pages, as paths under the workspace's `docs/` and the crate's `docs/` alike: the
/// rules page and the notation page of every game, and the notation page of every game.
fn pages() -> Vec<String> {
    GameKind::ALL
        .into_iter()
        .flat_map(|kind| {
            [
                format!("rules/{}.md", stem(kind)),
                format!("notation/{}.md", stem(kind)),
            ]
        })
        .chain(["notation.md".to_string()])
        .collect()
}

#[test]
fn the_crate_docs_copies_equal_the_project_docs() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for page in pages() {
        let original = crate_dir.join("../../docs").join(&page);
        let copy = crate_dir.join("docs").join(&page);
        let text = std::fs::read_to_string(&original)
            .unwrap_or_else(|e| panic!("{}: {e}", original.display()));
        if std::env::var_os("MANCALA_BLESS").is_some() {
            std::fs::create_dir_all(copy.parent().unwrap()).expect("crate docs folder");
            std::fs::write(&copy, &text).expect("write the copy");
            continue;
        }
        let copied = std::fs::read_to_string(&copy).unwrap_or_default();
        assert!(
            copied == text,
            "{} differs from docs/{page}; refresh it with \
             `MANCALA_BLESS=1 cargo test -p mancala-core --test docs_copies`",
            copy.display()
        );
    }
}

/// Every game of the library ([`GameKind::ALL`]) has its rules page (`docs/rules/<game>.md`,
/// copied above), and the crate's module `docs` includes it as `docs::<game>_rules`; every
/// rules page is a game's. A game added to the library without its rules page fails here (as
/// the command's `every_game` tests do for `mancala`).
#[test]
fn every_game_has_its_rules_page_and_docs_module() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(crate_dir.join("src/lib.rs")).expect("src/lib.rs");
    for kind in GameKind::ALL {
        let stem = stem(kind);
        let page = crate_dir
            .join("../../docs/rules")
            .join(format!("{stem}.md"));
        assert!(page.is_file(), "{kind}: no {}", page.display());
        let module = format!(
            "#[doc = include_str!(\"../docs/rules/{stem}.md\")]\n    pub mod {}_rules {{}}",
            stem.replace('-', "_")
        );
        assert!(
            lib.contains(&module),
            "{kind}: src/lib.rs has no `{module}`"
        );
    }
    let games: Vec<String> = GameKind::ALL.into_iter().map(stem).collect();
    for entry in std::fs::read_dir(crate_dir.join("../../docs/rules")).expect("docs/rules") {
        let name = entry.expect("entry").file_name();
        let name = name.to_str().expect("UTF-8 name");
        let game = name.strip_suffix(".md").unwrap_or(name);
        assert!(
            games.iter().any(|g| g == game),
            "docs/rules/{name} is the page of no game of GameKind::ALL"
        );
    }
}

/// Every game of the library ([`GameKind::ALL`]) has its notation page
/// (`docs/notation/<game>.md`, named as its rules page, copied above), and the crate's module
/// `docs` includes it as `docs::<game>_notation`; every page there is a game's. A game added to
/// the library without its notation page fails here.
#[test]
fn every_game_has_its_notation_page_and_docs_module() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(crate_dir.join("src/lib.rs")).expect("src/lib.rs");
    for kind in GameKind::ALL {
        let stem = stem(kind);
        let page = crate_dir
            .join("../../docs/notation")
            .join(format!("{stem}.md"));
        assert!(page.is_file(), "{kind}: no {}", page.display());
        let module = format!(
            "#[doc = include_str!(\"../docs/notation/{stem}.md\")]\n    pub mod {}_notation {{}}",
            stem.replace('-', "_")
        );
        assert!(
            lib.contains(&module),
            "{kind}: src/lib.rs has no `{module}`"
        );
    }
    let games: Vec<String> = GameKind::ALL.into_iter().map(stem).collect();
    for entry in std::fs::read_dir(crate_dir.join("../../docs/notation")).expect("docs/notation") {
        let name = entry.expect("entry").file_name();
        let name = name.to_str().expect("UTF-8 name");
        let game = name.strip_suffix(".md").unwrap_or(name);
        assert!(
            games.iter().any(|g| g == game),
            "docs/notation/{name} is the page of no game of GameKind::ALL"
        );
    }
}
