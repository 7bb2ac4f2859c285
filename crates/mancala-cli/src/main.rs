//! The `mancala` command (work in progress).
fn main() {}
