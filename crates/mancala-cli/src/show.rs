//! `mancala show`: draw a position.

use clap::Args;
use mancala_core::bao::BaoRules;
use mancala_core::kalah::{KalahOption, KalahOptions, KalahRules};
use mancala_core::togyz::TogyzRules;

use crate::rules_arg::{any_game, parse_rules, position_error, GameRules};

/// How the positional argument is named in messages (no `--`: it is not an option).
const LABEL: &str = "position";

/// Arguments of `mancala show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position, in the notation of the game (Kalah: `4,4,4,4,4,4,0,4,4,4,4,4,4,0 S`;
    /// Bao la Kete: four `/`-separated rows, reserves, kuus, side, reserved pit). Default:
    /// the start position of `--rules`.
    position: Option<String>,
    /// The position, as every other command takes it (the same as the positional argument).
    #[arg(long = "position", id = "position_option", conflicts_with = "position")]
    position_option: Option<String>,
    /// The rule set; by default Bao la Kete when the position has `/`-separated rows,
    /// togyz-kumalak(h,9) when it has three fields (houses and kazans, tuzdyks, side), else
    /// kalah(m,4) (with pie_rule when the position offers the swap, `… N swap`), with h or m
    /// read off the position (standard without a position).
    #[arg(long)]
    rules: Option<String>,
}

/// Whether `position` has Togyz Kumalak's shape: three fields (the houses and kazans, the
/// two tuzdyks `a,b`, the side to move), where a Kalah or Oware position has two, or a Kalah
/// one offering the pie-rule swap three whose second is the side (`… N swap`).
fn has_tuzdyks(position: &str) -> bool {
    let fields: Vec<&str> = position.split_whitespace().collect();
    fields.len() == 3 && fields[1].contains(',')
}

/// Whether `position` is a Kalah position offering the pie-rule swap (`… N swap`).
fn offers_swap(position: &str) -> bool {
    let fields: Vec<&str> = position.split_whitespace().collect();
    fields.len() == 3 && fields[2].eq_ignore_ascii_case("swap")
}

/// The Kalah rules whose board has as many slots as the first field of `position`:
/// kalah(m,4) for 2m + 2 slots, m in 1..=7, with `pie_rule` when the position offers the
/// swap.
fn rules_from_slots(position: &str) -> Result<KalahRules, String> {
    let slots = first_field_count(position);
    let bad = || {
        position_error(
            LABEL,
            position,
            format!(
                "{} {} not make a Kalah board (2m + 2: m houses a side and a store each, m in 1..=7); for another game's position give its --rules",
                mancala_core::words::count(slots, "slot", "slots"),
                mancala_core::words::noun(slots, "does", "do")
            ),
        )
    };
    let m = houses_a_side(slots).ok_or_else(bad)?;
    let options = if offers_swap(position) {
        KalahOptions::NONE.with(KalahOption::PieRule)
    } else {
        KalahOptions::NONE
    };
    KalahRules::new(m, 4, options).map_err(|_| bad())
}

/// The number of comma-separated counts in the first field of `position` (0 when empty).
fn first_field_count(position: &str) -> usize {
    position
        .split_whitespace()
        .next()
        .map_or(0, |c| c.split(',').count())
}

/// The houses a side of a board of `counts` counts, h houses a side and a store each
/// (2h + 2), when `counts` is even and at least 4.
fn houses_a_side(counts: usize) -> Option<u32> {
    if counts < 4 || !counts.is_multiple_of(2) {
        return None;
    }
    u32::try_from((counts - 2) / 2).ok()
}

/// The Togyz Kumalak rules whose board has as many counts as the first field of `position`:
/// togyz-kumalak(h,9) for 2h + 2 counts, h in 1..=9 (the kumalaks a house had at the start
/// do not show in a position; 9 is togyz-kumalak's, and (9,9) is togyz-kumalak itself).
fn togyz_rules_from_counts(position: &str) -> Result<TogyzRules, String> {
    let counts = first_field_count(position);
    let bad = || {
        position_error(
            LABEL,
            position,
            format!(
                "{} {} not make a Togyz Kumalak board (2h + 2: h houses a side and a kazan each, h in 1..=9); for another game's position give its --rules",
                mancala_core::words::count(counts, "count", "counts"),
                mancala_core::words::noun(counts, "does", "do")
            ),
        )
    };
    let h = houses_a_side(counts).ok_or_else(bad)?;
    TogyzRules::TOGYZ_KUMALAK
        .with_size(h, u32::from(TogyzRules::TOGYZ_KUMALAK.kumalaks()))
        .map_err(|_| bad())
}

/// Prints the drawing and the notation.
pub fn run(args: &ShowArgs) -> Result<(), String> {
    let position = args.position.as_deref().or(args.position_option.as_deref());
    let rules = match (&args.rules, position) {
        (Some(r), _) => parse_rules(r)?,
        (None, None) => GameRules::Kalah(KalahRules::standard()),
        (None, Some(p)) if p.contains('/') => GameRules::Bao(BaoRules::default()),
        (None, Some(p)) if has_tuzdyks(p) => GameRules::Togyz(togyz_rules_from_counts(p)?),
        (None, Some(p)) => GameRules::Kalah(rules_from_slots(p)?),
    };
    let game = any_game(rules, LABEL, position)?;
    println!("{}", game.drawing_text());
    println!("{}", game.position_text());
    Ok(())
}
