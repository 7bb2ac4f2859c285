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
//! included, is on the line yet", and `help` is. [`fish_help_subcommands`] leaves `help`
//! out of that list, so that fish offers the subcommand names there instead of files.

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
        script = fish_help_subcommands(&script);
        fish_positionals(&cmd, &mut script);
    }
    print!("{script}");
    Ok(())
}

/// `script` (the fish script `clap_complete` made for `mancala`) with the condition of its
/// lines for `mancala help <TAB>` mended: those lines read `__fish_mancala_using_subcommand
/// help; and not __fish_seen_subcommand_from show … completions help`, which is false once
/// `help` itself is on the line, so fish fell back to file names. `help` is dropped from the
/// list (only there): the lines then offer the subcommand names after `mancala help` until
/// one of them is given. Every other line is kept as it is.
fn fish_help_subcommands(script: &str) -> String {
    const LINE: &str =
        "complete -c mancala -n \"__fish_mancala_using_subcommand help; and not __fish_seen_subcommand_from ";
    let mut mended = String::with_capacity(script.len());
    for line in script.split_inclusive('\n') {
        match line
            .strip_prefix(LINE)
            .and_then(|rest| rest.split_once('"'))
        {
            Some((names, after)) if names.ends_with(" help") => {
                mended.push_str(LINE);
                mended.push_str(&names[..names.len() - " help".len()]);
                mended.push('"');
                mended.push_str(after);
            }
            _ => mended.push_str(line),
        }
    }
    mended
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
