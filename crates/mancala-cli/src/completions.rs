//! `mancala completions SHELL`: the shell completion script of the command, made by
//! `clap_complete` from the same grammar the command parses ([`crate::command`]), so that it
//! names every subcommand and option of this version.

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
    clap_complete::generate(args.shell, &mut crate::command(), "mancala", &mut script);
    print!("{}", String::from_utf8_lossy(&script));
    Ok(())
}
