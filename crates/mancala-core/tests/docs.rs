//! The documentation the product ships: the rules, notation and architecture pages exist in
//! the repository, nothing in the product points at files outside it, every `docs/…` path the
//! sources cite exists, and every Bao la Kete rule id (K-x.y), test case (TC-n) and decision
//! the sources cite is defined in `docs/rules/bao-la-kete.md`.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// Every text file of the product (sources, headers, examples, manifests, READMEs) under the
/// given top-level entries, skipping build output.
fn product_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = [
        "crates",
        "include",
        "examples",
        "fuzz",
        "benches",
        "README.md",
    ]
    .iter()
    .map(|p| root().join(p))
    .collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name == "target" || name == "corpus" || name == "regressions" || name == "artifacts"
            {
                continue;
            }
            for e in std::fs::read_dir(&p).expect("read_dir") {
                stack.push(e.expect("dir entry").path());
            }
        } else {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            let text_like = matches!(
                ext,
                "rs" | "h" | "c" | "cpp" | "md" | "toml" | "txt" | "sh" | "in" | "cmake"
            ) || p.file_name().is_some_and(|n| n == "Makefile");
            if text_like {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_documents_exist() {
    for doc in [
        "docs/rules/kalah.md",
        "docs/rules/bao-la-kete.md",
        "docs/notation.md",
        "docs/architecture.md",
        "docs/egdb.md",
    ] {
        let text = read(&root().join(doc));
        assert!(text.len() > 2000, "{doc} is nearly empty");
    }
}

#[test]
fn nothing_points_outside_the_repository() {
    let mut bad = Vec::new();
    for f in product_files() {
        for (i, line) in read(&f).lines().enumerate() {
            // Spelled in pieces so that this file does not match itself.
            if line.contains(concat!("shared", "/")) || line.contains(concat!("DESIGN", ".md")) {
                bad.push(format!("{}:{}: {line}", f.display(), i + 1));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "references outside the repository:\n{}",
        bad.join("\n")
    );
}

/// Every `docs/<name>.md` or `docs/rules/<name>.md` path cited in the product names a file.
#[test]
fn cited_documents_exist() {
    let mut bad = Vec::new();
    for f in product_files() {
        let text = read(&f);
        let mut rest = text.as_str();
        while let Some(at) = rest.find("docs/") {
            let tail = &rest[at..];
            let end = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || "/-_.".contains(c)))
                .unwrap_or(tail.len());
            let path = tail[..end].trim_end_matches('.');
            if path.ends_with(".md") && !root().join(path).is_file() {
                bad.push(format!("{}: {path}", f.display()));
            }
            rest = &tail[end.max(5)..];
        }
    }
    assert!(bad.is_empty(), "missing documents:\n{}", bad.join("\n"));
}

/// The rule ids `K-<n>[.<n>][a-c]` and test-case ids `TC-<n>` cited anywhere in the product.
fn cited_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let b = text.as_bytes();
    for prefix in ["K-", "TC-"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(prefix) {
            let start = from + at;
            from = start + prefix.len();
            if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
                continue;
            }
            // `K-<section>[.<rule>]` (a further `.<step>`, as in `K-6.8.3`, names a numbered
            // step of the rule and is not part of the id); `TC-<n>`.
            let digits = |mut i: usize| {
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                i
            };
            let mut end = digits(from);
            if end > from && end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit() {
                end = digits(end + 1);
            }
            let mut id = text[start..end].to_string();
            if id.len() == prefix.len() {
                continue;
            }
            if prefix == "K-" && end < b.len() && matches!(b[end], b'a'..=b'c') {
                let next = b.get(end + 1).copied().unwrap_or(b' ');
                if !next.is_ascii_alphanumeric() {
                    id.push(b[end] as char);
                }
            }
            ids.push(id);
        }
    }
    ids
}

#[test]
fn every_cited_bao_rule_id_is_defined() {
    let doc = read(&root().join("docs/rules/bao-la-kete.md"));
    let mut missing = Vec::new();
    for f in product_files() {
        for id in cited_ids(&read(&f)) {
            if !doc.contains(&id) {
                missing.push(format!("{}: {id}", f.display()));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "ids not defined in docs/rules/bao-la-kete.md:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_id_scanner_finds_ids() {
    assert_eq!(
        cited_ids("see K-8.3a and K-6.4, TC-14, K-6.8.3 and K-9. Not XK-1 or K-"),
        ["K-8.3a", "K-6.4", "K-6.8", "K-9", "TC-14"]
    );
}

/// README's packaging command packages the crates CI packages (`.ci/run`'s `published`
/// list), which are the workspace crates whose manifest does not say `publish = false`.
#[test]
fn the_readme_packages_what_ci_packages() {
    let ci = read(&root().join(".ci/run"));
    let list = ci
        .lines()
        .find_map(|l| l.strip_prefix("published=("))
        .expect("published=(…) in .ci/run");
    let mut ci_crates: Vec<&str> = list.trim_end_matches(')').split_whitespace().collect();
    ci_crates.sort_unstable();
    let readme = read(&root().join("README.md"));
    let at = readme
        .find("cargo package --no-verify")
        .expect("README's packaging command");
    let command: String = readme[at..]
        .lines()
        .take_while(|l| !l.starts_with("cargo publish"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut readme_crates: Vec<&str> = command
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "-p")
        .map(|w| w[1])
        .collect();
    readme_crates.sort_unstable();
    assert_eq!(readme_crates, ci_crates);
    assert!(!readme.contains("cargo package --workspace --no-verify"));
    // The published crates: every member under crates/ without `publish = false`.
    let mut published: Vec<String> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| {
            let manifest = read(&d.join("Cargo.toml"));
            !manifest.contains("publish = false")
        })
        .map(|d| d.file_name().unwrap().to_str().unwrap().to_string())
        .collect();
    published.sort_unstable();
    assert_eq!(published, ci_crates);
}

/// What crates.io, docs.rs and PyPI show first names the four games: the descriptions of the
/// crates of the rules, the solver and the command (and the command's `bench` and `grade`),
/// the READMEs of the crates of the rules, the solver, the command and the C API and the
/// Python package's README and description,
/// the crate READMEs' pointer to the rules (module `docs`), `Rules`' documentation and the
/// C header's engine.
#[test]
fn the_first_texts_a_user_sees_name_every_game() {
    let description = |krate: &str| {
        let manifest = read(&root().join("crates").join(krate).join("Cargo.toml"));
        manifest
            .lines()
            .find_map(|l| l.strip_prefix("description = "))
            .unwrap_or_else(|| panic!("{krate}: no description"))
            .to_string()
    };
    for krate in ["mancala-core", "mancala-solver", "mancala-cli"] {
        let d = description(krate);
        for game in ["Kalah", "Bao la Kete", "Oware", "Togyz Kumalak"] {
            assert!(d.contains(game), "{krate}: {d}");
        }
    }
    for file in [
        "crates/mancala-core/README.md",
        "crates/mancala-cli/README.md",
        "crates/mancala-ffi/README.md",
        "crates/mancala-solver/README.md",
        "python/README.md",
        "python/pyproject.toml",
    ] {
        let text = read(&root().join(file));
        for game in ["Kalah", "Bao la Kete", "Oware", "Togyz Kumalak"] {
            assert!(text.contains(game), "{file} does not name {game}");
        }
    }
    let cli = description("mancala-cli");
    assert!(cli.contains("bench") && cli.contains("grade"), "{cli}");
    for readme in [
        "crates/mancala-core/README.md",
        "crates/mancala-cli/README.md",
    ] {
        let text = read(&root().join(readme));
        assert!(!text.contains("(module `rules`)"), "{readme}");
        assert!(text.contains("mancala_core/docs/"), "{readme}");
    }
    let rules = read(&root().join("crates/mancala-core/src/rules.rs"));
    let doc = &rules[rules
        .find("/// The rules of a game of this library")
        .unwrap()..];
    let doc = &doc[..doc.find("pub enum Rules").unwrap()];
    assert!(doc.contains("Oware") && doc.contains("OwareRules"), "{doc}");
    let header = read(&root().join("include/mancala.h"));
    let engine = &header[header
        .find("// An opaque playing engine")
        .expect("the engine's doc")..];
    let engine = &engine[..engine.find("typedef struct MancalaEngine").unwrap()];
    assert!(
        engine.contains("every game") && engine.contains("Oware"),
        "{engine}"
    );
    assert!(!header.contains("one for Kalah, one for Bao la Kete"));
}

/// BENCHMARKS.md keeps today's figures, not a lab notebook (no goals met or missed, no rows
/// of earlier measurements, no "busier run" asides), and README quotes its figures for the
/// first solve of Kalah(6,4) with the cached database; CHANGELOG dates every version and
/// says how to compare them.
#[test]
fn benchmarks_are_figures_and_the_readme_quotes_them() {
    let bench = read(&root().join("BENCHMARKS.md"));
    let lower = bench.to_lowercase();
    for trace in [
        "goal",
        ": met",
        "**met**",
        "not met",
        "earlier measurement",
        "busier run",
        "first measured",
        "before the change",
    ] {
        assert!(!lower.contains(trace), "BENCHMARKS.md: {trace:?}");
    }
    // "first run **16.6 s** wall …, second run **5.6 s**": the figures README must give.
    let figure = |after: &str| {
        let at = bench.find(after).unwrap_or_else(|| panic!("{after:?}")) + after.len();
        bench[at..].split(" s**").next().unwrap().to_string()
    };
    let (first, second) = (figure("first run **"), figure("second run **"));
    let readme = read(&root().join("README.md"));
    assert!(
        readme.contains(&format!("{first} s the first time"))
            && readme.contains(&format!("and {second} s after")),
        "README quotes {first} s and {second} s"
    );
    let changelog = read(&root().join("CHANGELOG.md"));
    for line in changelog.lines().filter(|l| l.starts_with("## [")) {
        assert!(
            line.starts_with("## [Unreleased]") || line.contains("] - 20"),
            "{line}: no date"
        );
        let label = &line[3..line.find(']').unwrap() + 1];
        assert!(
            changelog.contains(&format!("\n{label}: ")),
            "{label}: no link"
        );
    }
}

/// README shows a runnable command near its top, and how to put `mancala` on the PATH.
#[test]
fn the_readme_starts_with_a_runnable_command() {
    let readme = read(&root().join("README.md"));
    let first = readme
        .lines()
        .position(|l| l.starts_with("```sh"))
        .expect("a shell block");
    assert!(first < 15, "the first command is on line {}", first + 1);
    let block: Vec<&str> = readme
        .lines()
        .skip(first + 1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    assert!(block[0].starts_with("cargo install --path crates/mancala-cli"));
    assert!(block.iter().skip(1).all(|l| l.starts_with("mancala ")));
}
