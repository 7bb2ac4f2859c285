//! `mancala completions SHELL`: the shell completion script of the command, made by
//! `clap_complete` from the same grammar the command parses ([`crate::command`]), so that it
//! names every subcommand and option of this version.
//!
//! `clap_complete`'s fish generator completes options only, never positional arguments (its
//! documentation says so; clap issue 6295), so `mancala completions <TAB>` offered no shell
//! in fish while bash and zsh offered the five. [`fish_positionals`] adds the missing lines
//! from the same grammar: the possible values of every positional argument that has a fixed
//! set of them.
//!
//! The same generator's lines for `mancala help <TAB>` (the subcommand names) never apply:
//! their condition is "`help` is the subcommand and none of the subcommands, `help`
//! included, is on the line yet", and `help` is; and after a whole path (`mancala help
//! show`) fish fell back to file names. [`fish_help_paths`] replaces those lines with its
//! own, from the grammar of clap's `help` subcommand: after `mancala help` the next word of
//! a subcommand path, and nothing (no files) once the path names a command.

use clap::Args;
use clap_complete::Shell;

/// Arguments of `mancala completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: Shell,
}

/// Prints the completion script for `args.shell` on standard output (the panic hook turns a
/// failed write into one error line, a closed pipe into a quiet end).
///
/// # Errors
/// None of its own: the script is made in memory from the command's grammar.
pub fn run(args: &CompletionsArgs) -> Result<(), String> {
    let mut script = Vec::new();
    let mut cmd = crate::command();
    clap_complete::generate(args.shell, &mut cmd, "mancala", &mut script);
    let mut script = String::from_utf8_lossy(&script).into_owned();
    if args.shell == Shell::Fish {
        script = fish_help_paths(&mut cmd, &script);
        fish_positionals(&cmd, &mut script);
    }
    print!("{script}");
    Ok(())
}

/// The fish functions of [`fish_help_paths`]: `__fish_mancala_help_at WORDS…` is true when
/// the words on the line without the global options are exactly `WORDS` (`help egdb`, `egdb
/// help`), `__fish_mancala_help_under WORDS…` when they begin with them. A global option
/// (`-q`, `--quiet`) is passed over wherever the command takes it: before a group's name
/// and after it (`mancala egdb -q help`), up to the first `help`; after `help` the command
/// takes only names, so an option there is a word like any other.
const FISH_HELP_AT: &str = r#"
function __fish_mancala_words
    # The words on the line after `mancala`, without the global options where the command
    # takes them: anywhere before a `help` (`mancala egdb -q help`), none after it.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    set -l rest
    set -l at (contains -i -- help $cmd)
    if test -n "$at"
        set rest $cmd[$at..-1]
        set -e cmd[$at..-1]
    end
    # -i: an unknown option is kept, not reported (the line is being typed).
    argparse -i (__fish_mancala_global_optspecs) -- $cmd
    or return 1
    set -l words $argv $rest
    set -q words[1]
    or return 1
    printf '%s\n' $words
end

function __fish_mancala_help_at
    # The words on the line are exactly the arguments.
    set -l words (__fish_mancala_words)
    or return 1
    test (count $words) -eq (count $argv)
    and test "$words" = "$argv"
end

function __fish_mancala_help_under
    # The words on the line begin with the arguments.
    set -l words (__fish_mancala_words)
    or return 1
    set -l n (count $argv)
    test (count $words) -ge $n
    and test "$words[1..$n]" = "$argv"
end
"#;

/// `script` (the fish script `clap_complete` made for `cmd`, the `mancala` command) with its
/// lines for `help` replaced, at the top (`mancala help …`) and in every group (`mancala
/// egdb help …`, `mancala agent help …`): those lines offered the subcommand names again
/// after a whole path (`mancala help help`, `mancala egdb help build`, which clap refuses to
/// take further) or files. In their place: fish functions ([`FISH_HELP_AT`]) and, for every
/// path a `help` subcommand takes (its own tree of the subcommands, and `help` after a group:
/// `mancala help egdb help`), one line offering that path's next words with their help; and
/// for each `help` one line that offers no files after it, so that a whole path is followed
/// by nothing. Every other line is kept as it is.
fn fish_help_paths(cmd: &mut clap::Command, script: &str) -> String {
    const HELP_LINE: &str = "complete -c mancala -n \"__fish_mancala_using_subcommand help;";
    const GROUP_LINE: &str = "complete -c mancala -n \"__fish_mancala_using_subcommand ";
    const GROUP_HELP: &str = "; and __fish_seen_subcommand_from help\"";
    let mut mended = String::with_capacity(script.len());
    for line in script.split_inclusive('\n') {
        let group_help = line.starts_with(GROUP_LINE) && line.contains(GROUP_HELP);
        if !line.starts_with(HELP_LINE) && !group_help {
            mended.push_str(line);
        }
    }
    mended.push_str(FISH_HELP_AT);
    cmd.build();
    fish_group_help(cmd, &mut Vec::new(), &mut mended);
    mended
}

/// The lines of [`fish_help_paths`] for the `help` of the group `group` at the path `path`
/// (empty for `mancala` itself), then for the groups below it.
fn fish_group_help<'a>(group: &'a clap::Command, path: &mut Vec<&'a str>, script: &mut String) {
    let Some(help) = group.find_subcommand("help") else {
        return;
    };
    path.push("help");
    let under: Vec<String> = path.iter().map(|w| fish_quoted(w)).collect();
    script.push_str(&format!(
        "complete -c mancala -n {} -f\n",
        fish_quoted(&format!("__fish_mancala_help_under {}", under.join(" ")))
    ));
    fish_help_lines(help, path, true, script);
    path.pop();
    for sub in group.get_subcommands() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        path.push(sub.get_name());
        fish_group_help(sub, path, script);
        path.pop();
    }
}

/// The lines of [`fish_help_paths`] for the path `path` (the words from the group's path to
/// those after its `help`), whose command in the `help` subcommand's tree is `at`: its
/// subcommands offered there (and `help`, which clap takes after a group named after
/// `help`, unless `top`: `at` is the `help` itself), then theirs.
fn fish_help_lines<'a>(
    at: &'a clap::Command,
    path: &mut Vec<&'a str>,
    top: bool,
    script: &mut String,
) {
    let subs: Vec<&clap::Command> = at.get_subcommands().filter(|c| !c.is_hide_set()).collect();
    if subs.is_empty() {
        return;
    }
    let mut condition = String::from("__fish_mancala_help_at");
    for word in path.iter() {
        condition.push(' ');
        condition.push_str(&fish_quoted(word));
    }
    let mut names: Vec<(&str, Option<String>)> = subs
        .iter()
        .map(|c| (c.get_name(), c.get_about().map(ToString::to_string)))
        .collect();
    if !top && !names.iter().any(|(n, _)| *n == "help") {
        names.push((
            "help",
            Some("Print this message or the help of the given subcommand(s)".to_string()),
        ));
    }
    for (name, about) in names {
        let mut line = format!(
            "complete -c mancala -n {} -f -a {}",
            fish_quoted(&condition),
            fish_quoted(name)
        );
        if let Some(about) = about {
            line.push_str(&format!(" -d {}", fish_quoted(&about)));
        }
        script.push_str(&line);
        script.push('\n');
    }
    for sub in subs {
        path.push(sub.get_name());
        fish_help_lines(sub, path, false, script);
        path.pop();
    }
}

/// Appends to `script` (the fish script `clap_complete` made for `cmd`, the `mancala`
/// command) one `complete` line for each positional argument of a subcommand (or of a
/// subcommand's subcommand, as deep as the generator itself goes) whose values are a fixed
/// set: its visible values, offered without file names while none of them is on the command
/// line yet. The condition uses the generator's own `__fish_mancala_using_subcommand`
/// function, as its lines for the subcommand's options do. A command with two such
/// positionals would be offered both sets at either place; `mancala` has one
/// (`completions SHELL`).
fn fish_positionals(cmd: &clap::Command, script: &mut String) {
    for sub in cmd.get_subcommands() {
        for name in sub.get_name_and_visible_aliases() {
            let using = format!("__fish_mancala_using_subcommand {name}");
            fish_positional_lines(sub, &using, script);
            for subsub in sub.get_subcommands() {
                for subname in subsub.get_name_and_visible_aliases() {
                    let using = format!("{using}; and __fish_seen_subcommand_from {subname}");
                    fish_positional_lines(subsub, &using, script);
                }
            }
        }
    }
}

/// The lines of [`fish_positionals`] for the positionals of `cmd`, under the fish condition
/// `using` (the subcommand is on the command line).
fn fish_positional_lines(cmd: &clap::Command, using: &str, script: &mut String) {
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let values: Vec<_> = arg
            .get_value_parser()
            .possible_values()
            .into_iter()
            .flatten()
            .filter(|v| !v.is_hide_set())
            .collect();
        if values.is_empty() {
            continue;
        }
        let names: Vec<String> = values.iter().map(|v| fish_quoted(v.get_name())).collect();
        // `value<TAB>help` lets fish show each value's own help beside it.
        let words: Vec<String> = values
            .iter()
            .zip(&names)
            .map(|(v, n)| match v.get_help() {
                Some(help) => format!("{n}\\t{}", fish_quoted(&help.to_string())),
                None => n.clone(),
            })
            .collect();
        let condition = format!(
            "{using}; and not __fish_seen_subcommand_from {}",
            names.join(" ")
        );
        script.push_str(&format!(
            "complete -c mancala -n {} -f -a {}\n",
            fish_quoted(&condition),
            fish_quoted(&words.join(" "))
        ));
    }
}

/// `text` as one fish word: as it is when it has only letters, digits and `-_./:+,`,
/// else in single quotes, in which only `\\` and `\'` are escapes (fish manual, "Quotes");
/// a line break becomes a space.
fn fish_quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./:+,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_string();
    }
    format!(
        "'{}'",
        text.replace('\n', " ")
            .replace('\\', "\\\\")
            .replace('\'', "\\'")
    )
}
