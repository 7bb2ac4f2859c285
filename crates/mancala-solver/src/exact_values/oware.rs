//! Oware's exact values: the Oware databases ([`AwariDb`]) as [`ExactValues`] of Oware
//! positions of the rule sets whose values they hold (each database: its grand-slam rule
//! with `majority=off`, `cycle_score=split`, no move limit, any repetition rule and seeds a
//! house, [`check_rules_for`]), and Oware as an [`ExactGame`].
//! The position is taken mover first as the databases' twelve-house board here, once, with
//! the rules check, for every front end.

use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};

use super::{ExactError, ExactGame, ExactValues, RulesMismatch};
use crate::awari::{check_rules_for, AwariBoard, AwariDb, AwariError};

/// The board of `pos` mover first ([`AwariBoard`]'s order, OW-10.4), once the database is
/// known to hold it; `None` for a finished game.
///
/// # Errors
/// [`ExactError::Rules`] for a rule set whose values the database does not hold,
/// [`ExactError::NotHeld`] for more seeds in the houses than it holds.
#[inline]
fn board_of(db: &AwariDb, pos: &OwarePosition) -> Result<Option<AwariBoard>, ExactError> {
    check_rules_for(db.grand_slam(), &pos.rules())?;
    if pos.side_to_move().is_none() {
        return Ok(None);
    }
    let seeds = pos.seeds_in_houses();
    if seeds > db.max_seeds() {
        return Err(ExactError::NotHeld {
            seeds,
            max_seeds: db.max_seeds(),
        });
    }
    let bits = pos.mover_relative();
    let houses = std::array::from_fn(|i| (bits >> (8 * i)) as u8);
    // At most N ≤ 48 seeds on six houses a side: a board, which the database holds.
    AwariBoard::new(houses)
        .map(Some)
        .map_err(|e| not_held(db, e))
}

/// [`ExactError::NotHeld`] for a board the database refused (its only refusal of a board
/// of six houses a side: more seeds than it holds).
fn not_held(db: &AwariDb, e: AwariError) -> ExactError {
    let seeds = match e {
        AwariError::NotBuilt { seeds, .. } | AwariError::TooManySeeds { seeds, .. } => seeds,
        _ => db.max_seeds() + 1,
    };
    ExactError::NotHeld {
        seeds,
        max_seeds: db.max_seeds(),
    }
}

/// An Oware database's values of Oware positions of its rule sets (OW-10.3: the mover's future captures
/// minus the opponent's, the final allotment included, endless play 0). The position is
/// valued as the databases value a board: a game set up there or just after a capture,
/// without the history since (`docs/awari.md`, "History"; the engine asks only where the
/// history cannot change the value).
impl ExactValues<OwarePosition> for AwariDb {
    fn check_rules(&self, rules: &OwareRules) -> Result<(), RulesMismatch> {
        check_rules_for(self.grand_slam(), rules)
    }

    #[inline]
    fn value_of(&self, pos: &OwarePosition) -> Result<i32, ExactError> {
        match board_of(self, pos)? {
            None => Ok(0),
            Some(b) => self.board_value(&b).map_err(|e| not_held(self, e)),
        }
    }

    /// The database's value of the board of `pos` under any Oware rule set of six houses a
    /// side (the board mover first, as [`ExactValues::value_of`] takes it, without the rules
    /// check): the future margin under `awari`'s rules, an estimate under the others (the
    /// majority end, own-row cycles and the grand-slam rule change values only where they
    /// come into play). `None` for a finished game, another board size or more seeds than
    /// the database holds.
    #[inline]
    fn estimate_of(&self, pos: &OwarePosition) -> Option<i32> {
        if pos.rules().houses() != 6
            || pos.side_to_move().is_none()
            || pos.seeds_in_houses() > self.max_seeds()
        {
            return None;
        }
        let bits = pos.mover_relative();
        let houses = std::array::from_fn(|i| (bits >> (8 * i)) as u8);
        self.board_value(&AwariBoard::new(houses).ok()?).ok()
    }

    /// Ok for the Oware rule sets of six houses a side with the database's grand-slam rule,
    /// whatever their majority, cycle, repetition and move-limit rules: the database's own
    /// rule set and its neighbours (Abapa, `oware` and `oware+repetition=2`, for the
    /// database of `grand_slam=none`; `docs/oware-databases.md`, "Abapa").
    ///
    /// # Errors
    /// [`RulesMismatch`] naming the board size or grand-slam rule of `rules` that differs.
    fn check_estimate_rules(&self, rules: &OwareRules) -> Result<(), RulesMismatch> {
        let mut differences = Vec::new();
        if rules.houses() != 6 {
            differences.push(format!("{} houses a side", rules.houses()));
        }
        if rules.grand_slam() != self.grand_slam() {
            differences.push(format!("grand_slam={}", rules.grand_slam().name()));
        }
        if differences.is_empty() {
            return Ok(());
        }
        Err(RulesMismatch {
            database: format!("the Oware database of {}", self.rules()),
            holds: format!(
                "the Oware rule sets of 6 houses a side with grand_slam={}, as estimates (any majority, cycle, repetition and move-limit rule)",
                self.grand_slam().name()
            ),
            rules: rules.to_string(),
            differences,
        })
    }

    /// Each legal move's value: the seeds it captures minus the value of the board it
    /// leaves to the opponent ([`AwariDb::board_move_values`]).
    fn move_values_of(&self, pos: &OwarePosition) -> Result<Vec<(OwareMove, i32)>, ExactError> {
        match board_of(self, pos)? {
            None => Ok(Vec::new()),
            Some(b) => Ok(self
                .board_move_values(&b)
                .map_err(|e| not_held(self, e))?
                .into_iter()
                .map(|(m, v)| (OwareMove(m.house), v))
                .collect()),
        }
    }
}

impl ExactGame for OwarePosition {
    type Database = AwariDb;

    /// The captured seeds: the mover's store minus the opponent's (South's minus North's
    /// once the game is over).
    #[inline]
    fn stored_margin(&self) -> i32 {
        let (me, them) = match self.side_to_move() {
            Some(me) => (me, me.opponent()),
            None => (mancala_core::Side::South, mancala_core::Side::North),
        };
        i32::from(self.store(me)) - i32::from(self.store(them))
    }

    fn house_seeds(&self) -> u32 {
        self.seeds_in_houses()
    }
}
