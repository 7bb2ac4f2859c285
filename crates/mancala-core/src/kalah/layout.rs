//! [`KalahLayout`]: an unvalidated Kalah position (shakmaty's `Setup`), and its checked
//! conversion into a [`KalahPosition`].

use super::error::PositionError;
use super::position::{KalahPosition, GAME_OVER, OWN_IS_NORTH, SWAP_OFFERED};
use super::rules::{KalahOption, KalahRules};
use super::tables::lanes;
use crate::Side;

/// An unpacked, unvalidated Kalah position: what [`KalahPosition::try_from`] checks and
/// packs, and what [`KalahPosition::layout`] gives back (shakmaty's `Setup` → `Position` is
/// the model; Bao's is [`crate::bao::BaoLayout`]). Arrays are indexed by [`Side::index`]
/// (South 0, North 1); each row is listed from its owner's left, houses 1..=7 (those past
/// the rules' m must be empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahLayout {
    /// The rules the position is played under.
    pub rules: KalahRules,
    /// Each side's houses 1..=7, seeds; houses past m must hold 0.
    pub houses: [[u8; 7]; 2],
    /// Each side's store, seeds.
    pub stores: [u8; 2],
    /// The side to move; `None` for a finished game.
    pub to_move: Option<Side>,
    /// Whether a pie-rule swap is on offer (North to move after South's first turn).
    pub swap_offered: bool,
}

impl KalahLayout {
    /// The layout of 2m + 2 slot counts in notation order (`S1 … Sm, S-store, N1 … Nm,
    /// N-store`), unchecked but for their number.
    ///
    /// # Errors
    /// [`PositionError::SlotCount`] when `slots` does not hold 2m + 2 counts.
    pub fn from_slots(
        rules: KalahRules,
        slots: &[u8],
        to_move: Option<Side>,
        swap_offered: bool,
    ) -> Result<KalahLayout, PositionError> {
        let m = rules.houses() as usize;
        if slots.len() != 2 * m + 2 {
            return Err(PositionError::SlotCount {
                houses: rules.houses(),
                expected: 2 * m + 2,
                got: slots.len(),
            });
        }
        let mut houses = [[0u8; 7]; 2];
        houses[0][..m].copy_from_slice(&slots[..m]);
        houses[1][..m].copy_from_slice(&slots[m + 1..2 * m + 1]);
        Ok(KalahLayout {
            rules,
            houses,
            stores: [slots[m], slots[2 * m + 1]],
            to_move,
            swap_offered,
        })
    }
}

impl TryFrom<KalahLayout> for KalahPosition {
    type Error = PositionError;

    /// Checks and packs a layout. A layout equal to the start setup (n in every house, empty
    /// stores, South to move) is taken as the start of the game: South's first move and
    /// opening turn (which matter under `no_first_move_bonus` and `pie_rule`).
    ///
    /// # Errors
    /// [`PositionError::BeyondBoard`] (seeds in a house past m),
    /// [`PositionError::TooManySeeds`] (over 255 seeds), [`PositionError::SeedsAfterEnd`],
    /// [`PositionError::ShouldHaveEnded`] (a row is empty where the end rule would have ended
    /// the game), [`PositionError::SwapNotPossible`].
    fn try_from(layout: KalahLayout) -> Result<KalahPosition, PositionError> {
        let KalahLayout {
            rules,
            houses,
            stores,
            to_move,
            swap_offered,
        } = layout;
        let m = rules.houses() as usize;
        for side in [Side::South, Side::North] {
            if let Some(i) = houses[side.index()][m..].iter().position(|&c| c != 0) {
                return Err(PositionError::BeyondBoard {
                    side,
                    house: (m + i + 1) as u8,
                    houses: rules.houses(),
                });
            }
        }
        let total: u32 = houses
            .iter()
            .flatten()
            .chain(stores.iter())
            .map(|&s| u32::from(s))
            .sum();
        if total > super::rules::MAX_TOTAL_SEEDS {
            return Err(PositionError::TooManySeeds(total));
        }
        let pack = |side: Side| {
            houses[side.index()][..m]
                .iter()
                .enumerate()
                .fold(u64::from(stores[side.index()]) << (8 * m), |b, (i, &s)| {
                    b | (u64::from(s) << (8 * i))
                })
        };
        let south = pack(Side::South);
        let north = pack(Side::North);
        let row = lanes(m);
        let south_empty = south & row == 0;
        let north_empty = north & row == 0;
        let mut pos = KalahPosition {
            own: south,
            opp: north,
            rules,
            state: 0,
        };
        match to_move {
            None => {
                if swap_offered {
                    return Err(PositionError::SwapNotPossible);
                }
                if !(south_empty && north_empty) {
                    return Err(PositionError::SeedsAfterEnd);
                }
                pos.state = GAME_OVER;
            }
            Some(side) => {
                if swap_offered && !(rules.has(KalahOption::PieRule) && side == Side::North) {
                    return Err(PositionError::SwapNotPossible);
                }
                let mover_empty = if side == Side::South {
                    south_empty
                } else {
                    north_empty
                };
                if rules.has(KalahOption::EndWhenNoMove) {
                    if mover_empty && !swap_offered {
                        return Err(PositionError::ShouldHaveEnded {
                            side,
                            why: "the game ends as soon as the side to move has no seed to sow",
                        });
                    }
                } else if south_empty || north_empty {
                    return Err(PositionError::ShouldHaveEnded {
                        side,
                        why: "the game ends as soon as a row is empty",
                    });
                }
                if side == Side::North {
                    pos = KalahPosition {
                        own: north,
                        opp: south,
                        rules,
                        state: OWN_IS_NORTH,
                    };
                }
                if swap_offered {
                    pos.state |= SWAP_OFFERED;
                }
                let start = KalahPosition::start(rules);
                if side == Side::South && pos.own == start.own && pos.opp == start.opp {
                    pos.state = start.state;
                }
            }
        }
        Ok(pos)
    }
}

impl KalahPosition {
    /// Builds a position from its 2m + 2 slot counts in notation order
    /// (`S1 … Sm, S-store, N1 … Nm, N-store`), the side to move (`None` = game over) and
    /// whether a pie-rule swap is on offer.
    ///
    /// A position equal to the start setup (n in every house, empty stores, South to move)
    /// is taken as the start of the game: South's first move and opening turn (which matter
    /// under `no_first_move_bonus` and `pie_rule`). Notation cannot say that South is in the
    /// middle of an opening turn after an extra turn, so such a position, built here, no
    /// longer offers the swap; replay the game from the start to keep that state exactly.
    ///
    /// # Errors
    /// [`PositionError::SlotCount`], [`PositionError::TooManySeeds`] (over 255 seeds),
    /// [`PositionError::SeedsAfterEnd`], [`PositionError::ShouldHaveEnded`] (a row is empty
    /// where the end rule would have ended the game), [`PositionError::SwapNotPossible`].
    pub fn new(
        rules: KalahRules,
        slots: &[u8],
        to_move: Option<Side>,
        swap_offered: bool,
    ) -> Result<KalahPosition, PositionError> {
        KalahPosition::try_from(KalahLayout::from_slots(
            rules,
            slots,
            to_move,
            swap_offered,
        )?)
    }

    /// The position unpacked (see [`KalahLayout`]). `KalahPosition::try_from(p.layout())`
    /// gives `p` back, except that South in the middle of an opening turn after an extra turn
    /// (which no layout can say, as no notation can) comes back without the swap to come.
    #[must_use]
    pub fn layout(&self) -> KalahLayout {
        let m = self.m();
        let slots = self.slots();
        let mut houses = [[0u8; 7]; 2];
        houses[0][..m].copy_from_slice(&slots[..m]);
        houses[1][..m].copy_from_slice(&slots[m + 1..2 * m + 1]);
        KalahLayout {
            rules: self.rules,
            houses,
            stores: [slots[m], slots[2 * m + 1]],
            to_move: self.side_to_move(),
            swap_offered: self.swap_offered(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layout_packs_into_the_position_of_its_notation() {
        let rules = KalahRules::new(3, 2, crate::kalah::KalahOptions::NONE).unwrap();
        // South's houses 1,0,2 and store 3; North's 0,2,1 and store 3 (12 seeds), North to
        // move: notation `S1..S3,Ss,N1..N3,Ns side` (docs/notation.md).
        let layout = KalahLayout {
            rules,
            houses: [[1, 0, 2, 0, 0, 0, 0], [0, 2, 1, 0, 0, 0, 0]],
            stores: [3, 3],
            to_move: Some(Side::North),
            swap_offered: false,
        };
        let pos = KalahPosition::try_from(layout).unwrap();
        assert_eq!(pos.to_string(), "1,0,2,3,0,2,1,3 N");
        assert_eq!(pos.layout(), layout);
        assert_eq!(
            KalahPosition::parse(rules, "1,0,2,3,0,2,1,3 N").unwrap(),
            pos
        );
        // A seed in house 4 of a three-house row.
        let mut beyond = layout;
        beyond.houses[1][3] = 1;
        assert_eq!(
            KalahPosition::try_from(beyond),
            Err(PositionError::BeyondBoard {
                side: Side::North,
                house: 4,
                houses: 3
            })
        );
        // The end rule still applies: South's row empty with North to move.
        let mut ended = layout;
        ended.houses[0] = [0; 7];
        assert!(matches!(
            KalahPosition::try_from(ended),
            Err(PositionError::ShouldHaveEnded { .. })
        ));
    }
}
