//! The rules and notation pages included in the crate's documentation (module `docs`,
//! `#[doc = include_str!(…)]`) are copies, under the crate's folder so that the crates.io
//! package holds them, of the project's `docs/rules/*.md` and `docs/notation.md`: each copy
//! equals its original. After editing an original, refresh the copies with
//! `MANCALA_BLESS=1 cargo test -p mancala-core --test docs_copies`.

use std::path::Path;

/// The pages, as paths under the workspace's `docs/` and the crate's `docs/` alike.
const PAGES: [&str; 4] = [
    "rules/kalah.md",
    "rules/bao-la-kete.md",
    "rules/oware.md",
    "notation.md",
];

#[test]
fn the_crate_docs_copies_equal_the_project_docs() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for page in PAGES {
        let original = crate_dir.join("../../docs").join(page);
        let copy = crate_dir.join("docs").join(page);
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
