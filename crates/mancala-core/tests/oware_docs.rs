//! The Oware rules page `docs/rules/oware.md` defines every rule id `OW-<n>[.<m>]` that the
//! product cites (sources, tests, benches, docs), and every worked example the tests name.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// The text files under `crates/`, `benches/`, `docs/` and `README.md`, build output skipped.
fn product_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = ["crates", "benches", "docs", "README.md"]
        .iter()
        .map(|p| root().join(p))
        .collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            for e in std::fs::read_dir(&p).expect("read_dir") {
                stack.push(e.expect("dir entry").path());
            }
        } else if p
            .extension()
            .is_some_and(|e| e == "rs" || e == "md" || e == "py" || e == "toml")
        {
            out.push(p);
        }
    }
    out
}

/// The ids `OW-<n>` and `OW-<n>.<m>` cited in `text`.
fn cited_ids(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut ids = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("OW-") {
        let start = from + at;
        from = start + 3;
        if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
            continue;
        }
        let digits = |mut i: usize| {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            i
        };
        let mut end = digits(from);
        if end == from {
            continue;
        }
        if end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
            end = digits(end + 1);
        }
        ids.push(text[start..end].to_string());
    }
    ids
}

#[test]
fn the_id_scanner_finds_ids() {
    assert_eq!(
        cited_ids("OW-3.2, (OW-12) and OW-6. Not XOW-1 or OW-x"),
        ["OW-3.2", "OW-12", "OW-6"]
    );
}

#[test]
fn every_cited_oware_rule_id_is_defined() {
    let doc = std::fs::read_to_string(root().join("docs/rules/oware.md")).expect("rules page");
    let defined = |id: &str| {
        if id.contains('.') {
            doc.contains(&format!("**{id}"))
        } else {
            doc.contains(&format!("## {id} "))
        }
    };
    let mut missing = Vec::new();
    let mut cited = 0;
    for f in product_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for id in cited_ids(&text) {
            cited += 1;
            if !defined(&id) {
                missing.push(format!("{}: {id}", f.display()));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(cited > 100, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "not defined in docs/rules/oware.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_worked_example_is_on_the_page() {
    let doc = std::fs::read_to_string(root().join("docs/rules/oware.md")).expect("rules page");
    for x in [
        "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X7a", "X7b", "X7c", "X7d", "X8", "X8a", "X9",
        "X10", "X10a", "X11", "X12", "X12a", "X13", "X13a", "X14", "X14a", "X15",
    ] {
        assert!(doc.contains(&format!("- **{x}** ")), "{x}");
    }
}
