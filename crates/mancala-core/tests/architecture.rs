//! `docs/architecture.md` against the sources of the workspace: every crate (a member of the
//! workspace) and every game ([`GameKind::ALL`]) is in the layering box; every source file of
//! a crate (a module under its `src/`, the crate root aside) is named in the crate's section;
//! every file or folder the page names, and every module its module tables name, exists; and
//! the layering claims hold: the core's `game/` imports no game (nor the modules above the
//! games), and the solver's ground imports no wing and no two of its files import each other
//! in a circle. A source file added, moved or removed without the page fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mancala_core::GameKind;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn page() -> String {
    read(&root().join("docs/architecture.md"))
}

/// The page without its fenced blocks (the boxes), where the backticks are the inline code.
fn prose(page: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The inline code spans of `text`.
fn ticks(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The sections of the page (`## ` headings) with their text.
fn sections(page: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in page.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// A member of the workspace: its package name and sources.
struct Member {
    name: String,
    /// Every `.rs` file under `src/`, by its path relative to `src/` (`exact/jobs.rs`).
    sources: BTreeMap<String, String>,
}

impl Member {
    /// The modules: every source file but the crate roots (`lib.rs`, `main.rs`).
    fn modules(&self) -> impl Iterator<Item = &str> {
        self.sources
            .keys()
            .map(String::as_str)
            .filter(|f| !matches!(*f, "lib.rs" | "main.rs"))
    }
}

fn rs_files(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("directory entry").path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            rs_files(&path, &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".rs") {
            out.insert(format!("{prefix}{name}"), read(&path));
        }
    }
}

/// The members of the workspace (`Cargo.toml`'s `members`).
fn members() -> Vec<Member> {
    let manifest = read(&root().join("Cargo.toml"));
    let list = manifest
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace's members");
    list.split('"')
        .skip(1)
        .step_by(2)
        .map(|folder| {
            let dir = root().join(folder);
            let package = read(&dir.join("Cargo.toml"));
            let name = package
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|l| l.strip_suffix('"'))
                .unwrap_or_else(|| panic!("{folder}/Cargo.toml has no name"))
                .to_string();
            let mut sources = BTreeMap::new();
            rs_files(&dir.join("src"), "", &mut sources);
            Member { name, sources }
        })
        .collect()
}

/// The section of the page whose heading starts with the crate's name (`## mancala-core: …`).
fn section_of<'a>(sections: &'a [(String, String)], name: &str) -> Option<&'a str> {
    sections
        .iter()
        .find(|(heading, _)| {
            heading
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(' '))
        })
        .map(|(_, body)| body.as_str())
}

/// The ways the page may name the module of source file `file` (`exact/jobs.rs`): its path,
/// or its path from its own folder, with or without `.rs`, as a module path or by its name;
/// a folder's `mod.rs` by the folder.
fn names_of(file: &str) -> Vec<String> {
    let stem = file.strip_suffix(".rs").unwrap();
    let mut parts: Vec<&str> = stem.split('/').collect();
    let mut names = vec![file.to_string()];
    if parts.last() == Some(&"mod") {
        parts.pop();
        let folder = parts.join("/");
        names.push(format!("{folder}/"));
        if let Some(last) = parts.last() {
            names.push(format!("{last}/"));
            names.push(format!("{last}/mod.rs"));
        }
    } else {
        for start in 1..parts.len() {
            names.push(format!("{}.rs", parts[start..].join("/")));
        }
    }
    for start in 0..parts.len() {
        names.push(parts[start..].join("/"));
        names.push(parts[start..].join("::"));
    }
    names
}

#[test]
fn every_crate_and_game_is_in_the_layering_box() {
    let page = page();
    let layering = page
        .split("## Crates and layering")
        .nth(1)
        .and_then(|rest| rest.split("```text").nth(1))
        .and_then(|rest| rest.split("```").next())
        .expect("the layering box");
    for member in members() {
        assert!(
            layering.contains(&member.name),
            "the layering box does not name the crate {}",
            member.name
        );
    }
    for kind in GameKind::ALL {
        assert!(
            layering.contains(kind.name()),
            "the layering box does not name the game {kind}"
        );
    }
}

#[test]
fn every_source_file_is_named_in_its_crates_section() {
    let page = page();
    let sections = sections(&prose(&page));
    let mut missing = Vec::new();
    for member in members() {
        if member.modules().next().is_none() {
            continue;
        }
        let Some(section) = section_of(&sections, &member.name) else {
            missing.push(format!(
                "{}: no section `## {}: …`",
                member.name, member.name
            ));
            continue;
        };
        let named: BTreeSet<&str> = ticks(section).into_iter().collect();
        for file in member.modules() {
            if !names_of(file).iter().any(|n| named.contains(n.as_str())) {
                missing.push(format!("{}: src/{file}", member.name));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "source files docs/architecture.md does not name in their crate's section:\n{}",
        missing.join("\n")
    );
}

/// Every file and folder under the workspace (the build and version-control folders aside),
/// by its path from the root.
fn workspace_paths() -> Vec<String> {
    fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.expect("directory entry").path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if matches!(name.as_str(), "target" | ".git" | "corpus" | "node_modules")
                || name.starts_with(".venv")
            {
                continue;
            }
            let rel = format!("{prefix}{name}");
            if path.is_dir() {
                walk(&path, &format!("{rel}/"), out);
            }
            out.push(rel);
        }
    }
    let mut out = vec!["fuzz/corpus".to_string()];
    walk(&root(), "", &mut out);
    out
}

#[test]
fn every_file_the_page_names_exists() {
    let page = page();
    let paths = workspace_paths();
    let exists = |token: &str| {
        let t = token.trim_end_matches('/');
        paths.iter().any(|p| {
            p == t
                || p.ends_with(&format!("/{t}"))
                || p.strip_suffix(".rs")
                    .is_some_and(|q| q == t || q.ends_with(&format!("/{t}")))
        })
    };
    let looks_like_a_path = |t: &str| {
        !t.contains('<')
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c))
            && (t.contains('/')
                || [".rs", ".md", ".toml", ".h", ".c", ".py", ".pyi", ".sh"]
                    .iter()
                    .any(|ext| t.ends_with(ext)))
    };
    let prose = prose(&page);
    let gone: BTreeSet<&str> = ticks(&prose)
        .into_iter()
        .filter(|t| looks_like_a_path(t) && !exists(t))
        .collect();
    assert!(
        gone.is_empty(),
        "docs/architecture.md names files that do not exist: {gone:?}"
    );
}

/// The module a table's first column names (`kalah::rules`, `status`, `exact/jobs.rs`,
/// `engine/`) is a file or folder of the crate, or a module written inline in one.
fn is_module(member: &Member, token: &str) -> bool {
    let path = token
        .trim_end_matches('/')
        .trim_end_matches(".rs")
        .replace("::", "/");
    let last = path.rsplit('/').next().unwrap_or(&path);
    member.sources.keys().any(|f| {
        let f = f.trim_end_matches(".rs");
        f == path || f == format!("{path}/mod") || f.ends_with(&format!("/{path}"))
    }) || member
        .sources
        .values()
        .any(|code| code.contains(&format!("mod {last} {{")))
}

#[test]
fn every_module_the_tables_name_exists() {
    let page = page();
    let sections = sections(&prose(&page));
    let mut gone = Vec::new();
    for member in members() {
        let Some(section) = section_of(&sections, &member.name) else {
            continue;
        };
        let mut in_module_table = false;
        for line in section.lines() {
            if line.starts_with("| module |") || line.starts_with("| file |") {
                in_module_table = true;
                continue;
            }
            if !line.starts_with('|') {
                in_module_table = false;
                continue;
            }
            if !in_module_table || line.starts_with("|---") {
                continue;
            }
            let first = line.split('|').nth(1).unwrap_or("");
            // The first code span of the cell or each of a list (`a`, `b`); a span after
            // a parenthesis is a remark (`docs` (in `lib.rs`)).
            let head = first.split('(').next().unwrap_or(first);
            for token in ticks(head) {
                if !is_module(&member, token) {
                    gone.push(format!("{}: {token}", member.name));
                }
            }
        }
    }
    assert!(
        gone.is_empty(),
        "modules the tables of docs/architecture.md name that do not exist:\n{}",
        gone.join("\n")
    );
}

/// The code of a source file without comments and without its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of a `use` tree or path expression starting at `text` (after `crate::`,
/// `super::` or `self::`): `a::b::C` gives `[a, b, C]`, `{a::{b, c}, D}` gives `[a, b]`,
/// `[a, c]` and `[D]`.
fn paths(text: &str) -> Vec<Vec<String>> {
    fn tree(chars: &[char], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        loop {
            while *i < chars.len() && chars[*i].is_whitespace() {
                *i += 1;
            }
            if *i < chars.len() && chars[*i] == '{' {
                *i += 1;
                loop {
                    tree(chars, i, &path, out);
                    while *i < chars.len() && chars[*i].is_whitespace() {
                        *i += 1;
                    }
                    match chars.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    while *i < chars.len() && chars[*i].is_whitespace() {
                        *i += 1;
                    }
                    if chars.get(*i) == Some(&'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < chars.len() && (chars[*i].is_alphanumeric() || chars[*i] == '_') {
                *i += 1;
            }
            if *i == start {
                break;
            }
            path.push(chars[start..*i].iter().collect());
            if chars.get(*i) == Some(&':') && chars.get(*i + 1) == Some(&':') {
                *i += 2;
            } else {
                break;
            }
        }
        out.push(path);
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    tree(&chars, &mut 0, &[], &mut out);
    out
}

/// The module path of a source file (`exact/jobs.rs` is `[exact, jobs]`, `exact/mod.rs` and
/// `lib.rs` their folder's).
fn module_path(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Which file of `member` each of its files imports (`crate::`, `super::`, `self::` paths,
/// the crate root's re-exports followed to the module they come from), test modules aside.
fn imports(member: &Member) -> BTreeMap<String, BTreeSet<String>> {
    let by_path: BTreeMap<Vec<String>, &str> = member
        .sources
        .keys()
        .map(|f| (module_path(f), f.as_str()))
        .collect();
    let resolve = |path: &[String]| -> Option<&str> {
        (1..=path.len())
            .rev()
            .find_map(|n| by_path.get(&path[..n]).copied())
    };
    // The crate root's `pub use module::…::{Name, …}`: Name → the module's path.
    let root_file = ["lib.rs", "main.rs"]
        .into_iter()
        .find(|f| member.sources.contains_key(*f))
        .expect("a crate root");
    let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for statement in code(&member.sources[root_file]).split(';') {
        let statement = statement.trim();
        let Some(tree) = ["pub use ", "pub(crate) use "]
            .iter()
            .find_map(|p| statement.strip_prefix(p))
        else {
            continue;
        };
        for path in paths(tree) {
            if let Some(name) = path.last() {
                reexports.insert(name.clone(), path[..path.len() - 1].to_vec());
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, text) in &member.sources {
        let here = module_path(file);
        let text = code(text);
        let mut rest = text.as_str();
        while let Some(at) = ["crate::", "super::", "self::"]
            .iter()
            .filter_map(|k| rest.find(k).map(|i| (i, *k)))
            .min()
        {
            let (i, keyword) = at;
            let before = rest[..i].chars().last();
            rest = &rest[i + keyword.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base = match keyword {
                "crate::" => Vec::new(),
                "super::" => here[..here.len().saturating_sub(1)].to_vec(),
                _ => here.clone(),
            };
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            for path in paths(rest) {
                let Some(first) = path.first() else { continue };
                let full: Vec<String> = if base.is_empty() && !by_path.contains_key(&path[..1]) {
                    match reexports.get(first) {
                        Some(module) => module.clone(),
                        None => continue,
                    }
                } else {
                    base.iter().cloned().chain(path.iter().cloned()).collect()
                };
                if let Some(target) = resolve(&full) {
                    if target != file && !matches!(target, "lib.rs" | "main.rs") {
                        edges
                            .entry(file.clone())
                            .or_default()
                            .insert(target.to_string());
                    }
                }
            }
        }
    }
    edges
}

fn member(name: &str) -> Member {
    members()
        .into_iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no member {name}"))
}

/// The folder of a game in the core (`kalah/`, `bao/`, `oware/`): the first word of its name.
fn folder(kind: GameKind) -> String {
    format!("{}/", kind.name().split(' ').next().unwrap().to_lowercase())
}

/// The ground floor of the core, `game/` (with `side.rs`), imports no game and neither of the
/// modules above the games (`rules.rs`, `any.rs`); a game's folder imports the ground floor
/// and nothing else outside itself.
#[test]
fn the_cores_game_module_imports_no_game() {
    let core = member("mancala-core");
    let edges = imports(&core);
    let ground = |t: &str| t.starts_with("game/") || t == "side.rs";
    let mut up = Vec::new();
    for (file, targets) in &edges {
        let own = GameKind::ALL
            .into_iter()
            .map(folder)
            .find(|f| file.starts_with(f.as_str()));
        if !(ground(file) || own.is_some()) {
            continue;
        }
        for t in targets {
            if !(ground(t) || own.as_ref().is_some_and(|f| t.starts_with(f.as_str()))) {
                up.push(format!("{file} -> {t}"));
            }
        }
    }
    assert!(
        up.is_empty(),
        "imports out of the ground floor or a game: {up:?}"
    );
    // The scan sees imports: `any.rs` imports the ground floor and the rules above the games
    // (it reaches the games through the registry of games, `for_each_game!`, which names
    // their modules), and every game's folder imports the ground floor.
    let any = &edges["any.rs"];
    assert!(any.contains("game/mod.rs"), "{any:?}");
    assert!(any.contains("rules.rs"), "{any:?}");
    for kind in GameKind::ALL {
        let folder = folder(kind);
        let ground_floor: BTreeSet<&String> = edges
            .iter()
            .filter(|(file, _)| file.starts_with(folder.as_str()))
            .flat_map(|(_, targets)| targets.iter().filter(|t| ground(t)))
            .collect();
        assert!(
            ground_floor.iter().any(|t| t.as_str() == "game/mod.rs"),
            "{kind}: {ground_floor:?}"
        );
    }
}

/// No file of `member` reaches itself through the imports `edges` ([`imports`]): a walk
/// from each file.
fn assert_no_circle(member: &Member, edges: &BTreeMap<String, BTreeSet<String>>) {
    for start in member.sources.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = edges.get(start).into_iter().flatten().collect();
        while let Some(file) = stack.pop() {
            assert!(
                file != start,
                "{}: {start} imports itself through other files ({edges:?})",
                member.name
            );
            if seen.insert(file) {
                stack.extend(edges.get(file).into_iter().flatten());
            }
        }
    }
}

/// No two files of the command import each other in a circle: helpers shared by several
/// subcommands live in a lower module than the subcommands.
#[test]
fn the_commands_files_import_no_circle() {
    let cli = member("mancala-cli");
    let edges = imports(&cli);
    assert_no_circle(&cli, &edges);
    // The scan sees imports: `solve` dispatches to the Oware databases' module.
    assert!(edges["solve.rs"].contains("awari.rs"), "{edges:?}");
}

/// The solver's ground imports no wing, and no two of its files import each other in a
/// circle.
#[test]
fn the_solvers_ground_imports_no_wing_and_no_file_circle() {
    let solver = member("mancala-solver");
    let edges = imports(&solver);
    let wings = ["exact/", "egdb/", "engine/", "awari/", "exact_values/"];
    let up: Vec<String> = edges
        .iter()
        .filter(|(file, _)| !file.contains('/'))
        .flat_map(|(file, targets)| {
            targets
                .iter()
                .filter(|t| wings.iter().any(|w| t.starts_with(w)))
                .map(move |t| format!("{file} -> {t}"))
        })
        .collect();
    assert!(up.is_empty(), "the ground imports a wing: {up:?}");
    assert_no_circle(&solver, &edges);
    // The scan sees imports: the engine uses the exact wing, which uses the databases.
    assert!(
        edges["exact/solver.rs"].contains("egdb/mod.rs"),
        "{edges:?}"
    );
    assert!(
        edges["exact/solver.rs"].contains("exact/jobs.rs"),
        "{edges:?}"
    );
}
