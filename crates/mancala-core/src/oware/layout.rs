//! [`OwareLayout`]: an unvalidated Oware position, and its checked conversion into an
//! [`OwarePosition`] (the refusals of OW-9.2).

use super::error::{PositionEnd, PositionError};
use super::position::{OwarePosition, GAME_OVER, MOVER_IS_NORTH};
use super::rules::{CycleScore, Majority, OwareRules, MAX_TOTAL_SEEDS};
use crate::Side;

/// An unpacked, unvalidated Oware position: what [`OwarePosition::try_from`] checks and
/// packs, and what [`OwarePosition::layout`] gives back. Arrays are indexed by
/// [`Side::index`] (South 0, North 1); each row is listed from its owner's left, houses
/// 1..=8 (those past the rules' h must be empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwareLayout {
    /// The rules the position is played under.
    pub rules: OwareRules,
    /// Each side's houses 1..=8, seeds; houses past h must hold 0.
    pub houses: [[u8; 8]; 2],
    /// Each side's captured count, seeds (OW-1.4).
    pub stores: [u8; 2],
    /// The side to move; `None` for a finished game (side `-`).
    pub to_move: Option<Side>,
}

impl OwareLayout {
    /// The layout of 2h + 2 counts in notation order (OW-9.1: `S1 … Sh, S-captured,
    /// N1 … Nh, N-captured`), unchecked but for their number.
    ///
    /// # Errors
    /// [`PositionError::CountNumber`] when `counts` does not hold 2h + 2 counts.
    pub fn from_counts(
        rules: OwareRules,
        counts: &[u8],
        to_move: Option<Side>,
    ) -> Result<OwareLayout, PositionError> {
        let h = rules.houses() as usize;
        if counts.len() != 2 * h + 2 {
            return Err(PositionError::CountNumber {
                houses: rules.houses(),
                expected: 2 * h + 2,
                got: counts.len(),
            });
        }
        let mut houses = [[0u8; 8]; 2];
        houses[0][..h].copy_from_slice(&counts[..h]);
        houses[1][..h].copy_from_slice(&counts[h + 1..2 * h + 1]);
        Ok(OwareLayout {
            rules,
            houses,
            stores: [counts[h], counts[2 * h + 1]],
            to_move,
        })
    }
}

impl TryFrom<OwareLayout> for OwarePosition {
    type Error = PositionError;

    /// Checks and packs a layout (OW-9.2). A position need not be reachable, but it must be
    /// one these rules can stand in: its total T is the sum of its counts (OW-9.3).
    ///
    /// # Errors
    /// [`PositionError::BeyondBoard`] (seeds in a house past h),
    /// [`PositionError::TooManySeeds`] (over 255 seeds), [`PositionError::AlreadyOver`] (a
    /// side to move when the majority is reached, unless `majority=off`, or when that side
    /// has no legal move), [`PositionError::SeedsAfterEnd`] (`-` with seeds in houses, unless
    /// `majority=stop` with the majority reached or `cycle_score=split` with a repetition
    /// rule).
    fn try_from(layout: OwareLayout) -> Result<OwarePosition, PositionError> {
        let OwareLayout {
            rules,
            houses,
            stores,
            to_move,
        } = layout;
        let h = rules.houses() as usize;
        for side in Side::ALL {
            if let Some(i) = houses[side.index()][h..].iter().position(|&c| c != 0) {
                return Err(PositionError::BeyondBoard {
                    side,
                    house: (h + i + 1) as u8,
                    houses: rules.houses(),
                });
            }
        }
        let total: u32 = houses
            .iter()
            .flatten()
            .chain(stores.iter())
            .map(|&c| u32::from(c))
            .sum();
        if total > MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds(total));
        }
        let (south, north) = (u64::from_le_bytes(houses[0]), u64::from_le_bytes(houses[1]));
        let mut pos = OwarePosition {
            own: south,
            opp: north,
            rules,
            stores,
            state: GAME_OVER,
            moves: 0,
        };
        match to_move {
            None => {
                let keeps_seeds = (rules.majority() == Majority::Stop && pos.majority_reached())
                    || (rules.cycle_score() == CycleScore::Split && rules.repetition().is_some());
                if (south | north) != 0 && !keeps_seeds {
                    return Err(PositionError::SeedsAfterEnd);
                }
            }
            Some(side) => {
                if rules.majority() != Majority::Off && pos.majority_reached() {
                    return Err(PositionError::AlreadyOver {
                        side,
                        end: PositionEnd::Majority,
                    });
                }
                pos.state = 0;
                if side == Side::North {
                    (pos.own, pos.opp) = (north, south);
                    pos.state = MOVER_IS_NORTH;
                }
                pos.moves = pos.compute_legal_mask();
                if pos.moves == 0 {
                    return Err(PositionError::AlreadyOver {
                        side,
                        end: PositionEnd::NoLegalMove,
                    });
                }
            }
        }
        Ok(pos)
    }
}

impl OwarePosition {
    /// Builds a position from its 2h + 2 counts in notation order (OW-9.1: `S1 … Sh,
    /// S-captured, N1 … Nh, N-captured`) and the side to move (`None` = the game is over).
    ///
    /// # Errors
    /// [`PositionError::CountNumber`] and every error of [`OwarePosition::try_from`] an
    /// [`OwareLayout`].
    pub fn new(
        rules: OwareRules,
        counts: &[u8],
        to_move: Option<Side>,
    ) -> Result<OwarePosition, PositionError> {
        OwarePosition::try_from(OwareLayout::from_counts(rules, counts, to_move)?)
    }

    /// The position unpacked (see [`OwareLayout`]); `OwarePosition::try_from(p.layout())`
    /// gives `p` back.
    #[must_use]
    pub fn layout(&self) -> OwareLayout {
        let (south, north) = self.rows();
        OwareLayout {
            rules: self.rules,
            houses: [south.to_le_bytes(), north.to_le_bytes()],
            stores: self.stores,
            to_move: self.side_to_move(),
        }
    }
}
