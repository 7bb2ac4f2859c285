//! The packed Bao la Kete position: both players' 16 pits, reserves, kuu flags, side to move
//! and the pit reserved by hizi zetu, with its rules (K-3, K-4, K-9, decision 10).
//!
//! # Layout: 48 bytes
//!
//! ```text
//!  pits[0]: u128   South's 16 pits, one 8-bit lane each, ring order of K-3.3 (see `sow`)
//!  pits[1]: u128   North's 16 pits, the same from North's own point of view
//!  reserve: [u8;2] South's and North's reserves (ghala)
//!  flags:   u8     bit 0 North to move, bit 1 South's kuu stands, bit 2 North's kuu stands
//!  reserved: u8    0 = no reserved pit; else 0x80 | left << 4 | owner << 3 | front index
//!                  0..7 (F1..F8), `left` 0..=7 the owner's blocked turns still to come after
//!                  the current turn (always 0 with the default `block_duration=1`)
//!  rules:   BaoRules (12 bytes: lap cap, setup, option bits)
//! ```
//!
//! The stage is not stored: the mover is in the nemo stage while its reserve is not empty
//! (K-5.1). Nothing else is carried between turns: the first mtaji takata rule (K-8.3a) is
//! "the kuu still stands", and the hizi zetu state is the reserved pit read against the side
//! to move (decision 10): owned by the side to move → that side may not start from it nor
//! relay out of it this turn (K-8.4); owned by the other side → the side to move must capture
//! it if a legal capture of it exists, then it clears. With `block_duration` d > 1 (K-8.4, A8,
//! see [`BaoRules::block_duration`]) the reservation also counts the owner's blocked turns
//! still to come after the current turn (`left`): it starts at d − 1 on the owner's first
//! blocked turn, goes down by one after each turn of the blocker, and the reservation ends
//! after the blocker's turn that follows the owner's last blocked turn (or earlier, when the
//! blocker's move empties the pit by capturing it).

use core::fmt;

use super::capture::Board;
use super::error::{IllegalMove, PositionError};
use super::hizi_zetu;
use super::movegen::{self, Turn};
use super::moves::{BaoMove, Pit};
use super::relay::{Ending, Finish};
use super::rules::{BaoRules, TOTAL_SEEDS};
use super::sow::{front_empty, get, FRONT, KUU};
use crate::game::{Game, GameKind, MoveList, Outcome};
use crate::Side;

const NORTH_TO_MOVE: u8 = 1;
const KUU_BIT: [u8; 2] = [1 << 1, 1 << 2];

/// An unpacked description of a position, for building one with [`BaoPosition::new`] and for
/// reading one with [`BaoPosition::layout`]. Arrays are indexed by [`Side::index`] (South 0,
/// North 1); rows are listed from their owner's left (`F1..F8`, `B1..B8`, K-3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoLayout {
    /// Each side's front row F1..F8.
    pub front: [[u8; 8]; 2],
    /// Each side's back row B1..B8.
    pub back: [[u8; 8]; 2],
    /// Each side's reserve.
    pub reserve: [u8; 2],
    /// Whether each side's kuu stands.
    pub kuu: [bool; 2],
    /// The side to move (in a finished game, the side that lost).
    pub to_move: Side,
    /// The pit reserved by hizi zetu: its owner and its front pit number 1..=8.
    pub reserved: Option<(Side, u8)>,
    /// With a reserved pit: how many of its owner's turns after the current turn are still
    /// blocked (K-8.4, A8); at most `block_duration − 1`, so always 0 under the default rules
    /// (see [`BaoPosition::block_turns_left`]). Must be 0 without a reserved pit.
    pub block_turns_left: u8,
}

/// A Bao la Kete position. `Copy`, 48 bytes, never allocates. Build one with
/// [`BaoPosition::start`], [`BaoPosition::new`] or [`BaoPosition::parse`]; every constructor
/// validates (64 seeds, a standing kuu holds ≥ 6, …), and [`BaoPosition::play`] keeps those
/// invariants.
///
/// ```
/// use mancala_core::bao::{BaoMove, BaoPosition, BaoRules};
/// use mancala_core::Side;
///
/// let start = BaoPosition::start(BaoRules::default());
/// assert_eq!(start.side_to_move(), Some(Side::South));
/// let moves = start.legal_moves();
/// let first: BaoMove = moves[0];
/// // A move's notation reads back as the same move.
/// assert_eq!(first.to_string().parse::<BaoMove>()?, first);
/// let next = start.play(first)?;
/// assert_eq!(next.side_to_move(), Some(Side::North));
/// assert_eq!(next.total_seeds(), 64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BaoPosition {
    pub(crate) pits: [u128; 2],
    pub(crate) reserve: [u8; 2],
    pub(crate) flags: u8,
    pub(crate) reserved: u8,
    pub(crate) rules: BaoRules,
}

impl fmt::Debug for BaoPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BaoPosition({} | {})", self.rules, self)
    }
}

fn pack_row(front: &[u8; 8], back: &[u8; 8]) -> u128 {
    let mut lanes = [0u8; 16];
    lanes[..8].copy_from_slice(front);
    for (k, &v) in back.iter().enumerate() {
        lanes[15 - k] = v; // Bk (k+1) is ring index 16 − (k+1)
    }
    u128::from_le_bytes(lanes)
}

impl BaoPosition {
    /// The start position of `rules` (K-4.2, decision 1): each side's setup (default 6 in the
    /// kuu, 2 in F6 and F7, 22 in reserve), both kuus standing, the first player to move, no
    /// reserved pit.
    #[must_use]
    pub fn start(rules: BaoRules) -> BaoPosition {
        let s = rules.setup();
        let mut front = [0u8; 8];
        front[4] = s.kuu;
        front[5] = s.f6;
        front[6] = s.f7;
        let row = pack_row(&front, &[0; 8]);
        BaoPosition {
            pits: [row, row],
            reserve: [s.reserve; 2],
            flags: KUU_BIT[0]
                | KUU_BIT[1]
                | if rules.first_player() == Side::North {
                    NORTH_TO_MOVE
                } else {
                    0
                },
            reserved: 0,
            rules,
        }
    }

    /// Builds and validates a position.
    ///
    /// # Errors
    /// [`PositionError::BadCount`] for a count above 64, [`PositionError::SeedTotal`] unless
    /// the board and reserves hold 64 seeds (K-4.1), [`PositionError::KuuBelowSix`] for a
    /// standing kuu with fewer than 6 seeds (K-9), [`PositionError::WaitingSideFrontEmpty`]
    /// when the side not to move has an empty front row (K-10.1),
    /// [`PositionError::ReservedAfterWin`] for a reserved pit in a game already won by
    /// emptying a front row (decision 9), [`PositionError::ImpossibleReservedPit`] for a pit
    /// hizi zetu cannot reserve (K-8.4: a standing kuu; a blocker, the side not owning the
    /// pit, with seeds in reserve; for a block of the side to move, also an empty pit, its only
    /// occupied front pit, its only front pit with more than one seed, or a singleton under
    /// `singleton_exempt`; for the blocker's duty, `must_capture_reserved` off and no blocked
    /// turn to come), [`PositionError::BlockTurnsLeft`] for more blocked turns to come than
    /// `block_duration` allows, or any without a reserved pit (K-8.4, A8),
    /// [`PositionError::Syntax`] for a reserved pit number outside 1..=8.
    ///
    /// The exceptions of K-8.4 are checked for a block on its first blocked turn
    /// (`block_turns_left == block_duration − 1`), the position its trigger saw; on a later
    /// blocked turn of a longer block only an empty pit or a standing kuu is impossible (a pit
    /// that has become exempt otherwise is simply not blocked that turn, see
    /// [`BaoRules::block_duration`]).
    pub fn new(rules: BaoRules, layout: &BaoLayout) -> Result<BaoPosition, PositionError> {
        let mut total = 0u32;
        for v in layout
            .front
            .iter()
            .chain(layout.back.iter())
            .flatten()
            .chain(layout.reserve.iter())
        {
            if u32::from(*v) > TOTAL_SEEDS {
                return Err(PositionError::BadCount(v.to_string()));
            }
            total += u32::from(*v);
        }
        if total != TOTAL_SEEDS {
            return Err(PositionError::SeedTotal(total));
        }
        let pits = [
            pack_row(&layout.front[0], &layout.back[0]),
            pack_row(&layout.front[1], &layout.back[1]),
        ];
        let mut flags = if layout.to_move == Side::North {
            NORTH_TO_MOVE
        } else {
            0
        };
        for side in Side::ALL {
            if layout.kuu[side.index()] {
                if layout.front[side.index()][KUU] < 6 {
                    return Err(PositionError::KuuBelowSix(side));
                }
                flags |= KUU_BIT[side.index()];
            }
        }
        let waiting = layout.to_move.opponent();
        if front_empty(pits[waiting.index()]) {
            return Err(PositionError::WaitingSideFrontEmpty(waiting));
        }
        let max_left = rules.block_duration() - 1;
        let left = layout.block_turns_left;
        if left > max_left || (left > 0 && layout.reserved.is_none()) {
            return Err(PositionError::BlockTurnsLeft(left));
        }
        let reserved = match layout.reserved {
            None => 0,
            Some((owner, k)) => {
                if !(1..=8).contains(&k) {
                    return Err(PositionError::Syntax(format!("reserved pit number {k}")));
                }
                if front_empty(pits[layout.to_move.index()]) {
                    return Err(PositionError::ReservedAfterWin);
                }
                // K-8.4: hizi zetu never reserves a standing kuu (and a kuu never stands
                // again, so the blocker's duty cannot fall on one either); a block is read
                // in the position its trigger saw, so its exceptions hold as they did then.
                let h = usize::from(k - 1);
                let kuu_stands = layout.kuu[owner.index()];
                // The blocker's takata was a mtaji move (its reserve is empty), and the
                // blocker's duty exists only with `must_capture_reserved` (decision 10).
                // A longer block (A8): on a later blocked turn the exceptions may have
                // changed since the trigger; the pit still holds seeds (only the blocker's
                // captures take them, and a capture of it ends the reservation).
                let impossible = layout.reserve[owner.opponent().index()] > 0
                    || if owner == layout.to_move && left == max_left {
                        hizi_zetu::exempt(
                            pits[owner.index()],
                            h,
                            kuu_stands,
                            rules.singleton_exempt(),
                        )
                    } else if owner == layout.to_move {
                        (h == KUU && kuu_stands) || get(pits[owner.index()], h) == 0
                    } else {
                        (h == KUU && kuu_stands) || (!rules.must_capture_reserved() && left == 0)
                    };
                if impossible {
                    return Err(PositionError::ImpossibleReservedPit { owner, pit: k });
                }
                0x80 | (left << 4) | ((owner.index() as u8) << 3) | (k - 1)
            }
        };
        Ok(BaoPosition {
            pits,
            reserve: layout.reserve,
            flags,
            reserved,
            rules,
        })
    }

    /// The position unpacked (see [`BaoLayout`]); `BaoPosition::new(rules, &p.layout())`
    /// gives `p` back.
    #[must_use]
    pub fn layout(&self) -> BaoLayout {
        let mut front = [[0u8; 8]; 2];
        let mut back = [[0u8; 8]; 2];
        for side in Side::ALL {
            let lanes = self.pits[side.index()].to_le_bytes();
            front[side.index()].copy_from_slice(&lanes[..8]);
            for k in 0..8 {
                back[side.index()][k] = lanes[15 - k];
            }
        }
        BaoLayout {
            front,
            back,
            reserve: self.reserve,
            kuu: [self.kuu_stands(Side::South), self.kuu_stands(Side::North)],
            to_move: self.to_move(),
            reserved: self.reserved().map(|(s, p)| (s, p.number())),
            block_turns_left: self.block_turns_left(),
        }
    }

    /// With a reserved pit, how many of its owner's turns after the current turn are still
    /// blocked (K-8.4, A8; see [`BaoRules::block_duration`]); 0 without one, and always 0 under
    /// the default `block_duration=1`.
    #[must_use]
    pub const fn block_turns_left(&self) -> u8 {
        (self.reserved >> 4) & 7
    }

    /// The rules of the game.
    #[must_use]
    pub const fn rules(&self) -> BaoRules {
        self.rules
    }

    /// The seeds in `side`'s pit `pit` (named from `side`'s own point of view, K-3.2).
    #[must_use]
    pub fn seeds(&self, side: Side, pit: Pit) -> u8 {
        get(self.pits[side.index()], pit.index())
    }

    /// `side`'s reserve (ghala).
    #[must_use]
    pub const fn reserve(&self, side: Side) -> u8 {
        self.reserve[side.index()]
    }

    /// Whether `side`'s kuu still stands (K-9).
    #[must_use]
    pub const fn kuu_stands(&self, side: Side) -> bool {
        self.flags & KUU_BIT[side.index()] != 0
    }

    /// The side whose turn it is; in a finished game, the side that lost (decision 9). See
    /// [`Game::side_to_move`] for `None` once the game is over.
    #[must_use]
    pub const fn to_move(&self) -> Side {
        if self.flags & NORTH_TO_MOVE != 0 {
            Side::North
        } else {
            Side::South
        }
    }

    /// The pit reserved by hizi zetu, with its owner (decision 10): blocked for its owner when
    /// the owner is to move, to be captured by the side to move otherwise.
    #[must_use]
    pub fn reserved(&self) -> Option<(Side, Pit)> {
        if self.reserved & 0x80 == 0 {
            return None;
        }
        let owner = if self.reserved & 0x08 != 0 {
            Side::North
        } else {
            Side::South
        };
        Pit::from_index(self.reserved & 7).map(|p| (owner, p))
    }

    /// Whether the side to move is in the nemo stage, i.e. still has seeds in reserve (K-5.1).
    #[must_use]
    pub const fn is_nemo(&self) -> bool {
        self.reserve[self.to_move().index()] > 0
    }

    /// Seeds on the board and in the reserves; always 64 (K-4.1).
    #[must_use]
    pub fn total_seeds(&self) -> u32 {
        let board: u32 = self
            .pits
            .iter()
            .flat_map(|p| p.to_le_bytes())
            .map(u32::from)
            .sum();
        board + u32::from(self.reserve[0]) + u32::from(self.reserve[1])
    }

    /// The mover's view used by move generation: no block or duty when `plain`.
    pub(crate) fn turn_for(&self, side: Side, plain: bool) -> Turn {
        let me = side.index();
        let board = Board {
            own: self.pits[me],
            opp: self.pits[1 - me],
            own_kuu: self.kuu_stands(side),
            opp_kuu: self.kuu_stands(side.opponent()),
        };
        let (mut blocked, mut duty) = (None, None);
        if !plain {
            if let Some((owner, pit)) = self.reserved() {
                if owner == side {
                    // On a later blocked turn of a longer block (A8) the K-8.4 exceptions are
                    // read again: a pit that has become exempt (e.g. the owner's only front
                    // pit with more than one seed) is not blocked this turn. On the first
                    // blocked turn they hold by construction (trigger, validation).
                    let exempt = self.block_turns_left() + 1 < self.rules.block_duration()
                        && hizi_zetu::exempt(
                            self.pits[me],
                            pit.index(),
                            self.kuu_stands(side),
                            self.rules.singleton_exempt(),
                        );
                    if !exempt {
                        blocked = Some(pit.index());
                    }
                } else if self.rules.must_capture_reserved() {
                    // The blocker's duty holds on each of its turns while the pit is reserved
                    // (K-8.4, A7c; A8 reading in `BaoRules::block_duration`).
                    duty = Some(pit.index());
                }
            }
        }
        Turn {
            board,
            nemo: self.reserve[me] > 0,
            blocked,
            duty,
            rules: self.rules,
        }
    }

    /// The view of the side to move, with its block or duty.
    pub(crate) fn turn(&self) -> Turn {
        self.turn_for(self.to_move(), false)
    }

    /// The side to move, or `None` once the game is over (then [`BaoPosition::to_move`] is
    /// the side that lost).
    #[must_use]
    pub fn side_to_move(&self) -> Option<Side> {
        if self.is_over() {
            None
        } else {
            Some(self.to_move())
        }
    }

    /// The result once the game is over, `None` while it goes on: the winner is the side not
    /// to move (decision 9); the score is +1 for a South win and −1 for a North win. No draws
    /// (K-10.3).
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let winner = self.to_move().opponent();
        Some(Outcome {
            winner: Some(winner),
            score: if winner == Side::South { 1 } else { -1 },
        })
    }

    /// Whether the game is over: the side to move has an empty front row (K-10.1) or no legal
    /// move (K-10.2).
    #[must_use]
    pub fn is_over(&self) -> bool {
        front_empty(self.pits[self.to_move().index()]) || !movegen::has_legal_move(&self.turn())
    }

    /// Every legal move once, fully decided, in a fixed order (pits in notation order
    /// `F1..F8, B1..B8`; clockwise before anticlockwise; `L` before `R`; stop before safari).
    /// Empty once the game is over. Mandatory capture counts legal moves only (decision 8);
    /// the duty to capture a reserved pit filters the captures (K-8.4).
    #[must_use]
    pub fn legal_moves(&self) -> MoveList<BaoMove> {
        if front_empty(self.pits[self.to_move().index()]) {
            return MoveList::new();
        }
        movegen::legal_moves(&self.turn())
    }

    /// Plays `mv` without the caller needing the reason of a refusal: the fast path for
    /// searches that generate their own legal moves.
    ///
    /// Contract: `mv` must be one of [`BaoPosition::legal_moves`]. Otherwise the result is
    /// `self` unchanged (debug builds assert legality); never a panic in release builds, never
    /// undefined behaviour. A Bao move is checked as it is played, so this is no faster than
    /// [`BaoPosition::play`].
    #[must_use]
    pub fn play_unchecked(&self, mv: BaoMove) -> BaoPosition {
        match self.play(mv) {
            Ok(next) => next,
            Err(e) => {
                debug_assert!(false, "illegal move {mv} on {self}: {e}");
                *self
            }
        }
    }

    /// Plays `mv` and returns the new position, or why `mv` is illegal here; `self` is
    /// unchanged either way.
    ///
    /// The new position has the other side to move; a nemo move uses one reserve seed; a
    /// capture that empties the opponent's front row ends the game at once and puts the
    /// unsown captured seeds in the mover's reserve (K-6.7a, decision 9); after a mtaji takata
    /// the hizi zetu trigger may reserve one of the opponent's pits (K-8.4).
    ///
    /// # Errors
    /// [`IllegalMove`] with an [`super::IllegalReason`] naming the rule (K-id) the move
    /// breaks.
    pub fn play(&self, mv: BaoMove) -> Result<BaoPosition, IllegalMove> {
        if front_empty(self.pits[self.to_move().index()]) {
            return Err(IllegalMove {
                reason: super::IllegalReason::GameOver,
                mv,
                position: *self,
            });
        }
        let t = self.turn();
        match movegen::check(&t, mv) {
            Ok(fin) => Ok(self.after(&t, fin, movegen::is_mtaji_takata(&t, mv))),
            Err(reason) => {
                // A side with no legal move at all has lost (K-10.2).
                let reason = if movegen::has_legal_move(&t) {
                    reason
                } else {
                    super::IllegalReason::GameOver
                };
                Err(IllegalMove {
                    reason,
                    mv,
                    position: *self,
                })
            }
        }
    }

    /// The position after a completed move.
    fn after(&self, t: &Turn, fin: Finish, mtaji_takata: bool) -> BaoPosition {
        let mover = self.to_move();
        let me = mover.index();
        let mut next = *self;
        next.pits[me] = fin.board.own;
        next.pits[1 - me] = fin.board.opp;
        if t.nemo {
            next.reserve[me] -= 1;
        }
        next.flags = if mover == Side::South {
            NORTH_TO_MOVE
        } else {
            0
        };
        let kuus = [
            (mover, fin.board.own_kuu),
            (mover.opponent(), fin.board.opp_kuu),
        ];
        for (side, stands) in kuus {
            if stands {
                next.flags |= KUU_BIT[side.index()];
            }
        }
        next.reserved = 0;
        match fin.ending {
            Ending::Won { unsown } => {
                next.reserve[me] += unsown;
            }
            Ending::Finished => {
                let trigger = if mtaji_takata {
                    hizi_zetu::trigger(&next)
                } else {
                    None
                };
                let left = self.block_turns_left();
                if let Some(h) = trigger {
                    // A new block replaces any running reservation (one at a time), for
                    // `block_duration` turns of the opponent (K-8.4, A8).
                    let first_left = self.rules.block_duration() - 1;
                    next.reserved = 0x80 | (first_left << 4) | ((1 - me as u8) << 3) | h as u8;
                } else if let Some((owner, pit)) = self.reserved() {
                    let keep = 0x80 | (self.reserved & 0x7F);
                    if owner == mover {
                        // The blocked side has played its turn; the blocker's turn follows,
                        // with the duty (decision 10), or without it when blocked turns
                        // are still to come.
                        if self.rules.must_capture_reserved() || left > 0 {
                            next.reserved = keep;
                        }
                    } else if left > 0 && get(fin.board.opp, pit.index()) > 0 {
                        // The blocker has played and the pit still holds its seeds: the
                        // owner's next turn is blocked again (A8).
                        next.reserved = 0x80 | ((left - 1) << 4) | (self.reserved & 0x0F);
                    }
                }
            }
        }
        next
    }

    /// Whether any front pit of `side` is occupied.
    #[must_use]
    pub fn front_row_occupied(&self, side: Side) -> bool {
        self.pits[side.index()] & FRONT != 0
    }
}

impl Default for BaoPosition {
    /// The start position of the Lamu default rules ([`BaoRules::LAMU`], K-4.2).
    fn default() -> Self {
        BaoPosition::start(BaoRules::LAMU)
    }
}

impl Game for BaoPosition {
    type Rules = BaoRules;
    type RulesError = super::RulesError;
    type Move = BaoMove;
    type MoveParseError = super::MoveParseError;
    type Error = IllegalMove;
    type PositionError = PositionError;
    type Drawing = super::BaoDrawing;

    const KIND: GameKind = GameKind::Bao;
    const NOTATION_MAX_BYTES: usize = super::NOTATION_MAX_BYTES;

    fn start(rules: BaoRules) -> BaoPosition {
        BaoPosition::start(rules)
    }

    fn rules(&self) -> BaoRules {
        BaoPosition::rules(self)
    }

    fn parse(rules: BaoRules, text: &str) -> Result<BaoPosition, PositionError> {
        BaoPosition::parse(rules, text)
    }

    fn drawing(&self) -> super::BaoDrawing {
        BaoPosition::drawing(self)
    }

    fn side_to_move(&self) -> Option<Side> {
        BaoPosition::side_to_move(self)
    }

    fn legal_moves(&self) -> MoveList<BaoMove> {
        BaoPosition::legal_moves(self)
    }

    fn play(&self, mv: BaoMove) -> Result<BaoPosition, IllegalMove> {
        BaoPosition::play(self, mv)
    }

    fn play_unchecked(&self, mv: BaoMove) -> BaoPosition {
        BaoPosition::play_unchecked(self, mv)
    }

    fn outcome(&self) -> Option<Outcome> {
        BaoPosition::outcome(self)
    }

    fn is_over(&self) -> bool {
        BaoPosition::is_over(self)
    }

    /// Sowing never reaches the opponent's rows or reserve, so what they lose is what was
    /// captured (K-6.3): the seeds of the opponent's 16 pits and reserve before the move less
    /// those after it.
    fn captured_seeds(&self, _mv: BaoMove, next: &BaoPosition) -> Option<u32> {
        let opponent = self.side_to_move()?.opponent();
        let held = |p: &BaoPosition| -> u32 {
            (0..16u8)
                .filter_map(Pit::from_index)
                .map(|pit| u32::from(p.seeds(opponent, pit)))
                .sum::<u32>()
                + u32::from(p.reserve(opponent))
        };
        held(self).checked_sub(held(next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bao::{Direction, IllegalReason};

    #[test]
    fn a_position_is_48_bytes() {
        assert_eq!(core::mem::size_of::<BaoPosition>(), 48);
    }

    #[test]
    fn layout_round_trips() {
        let p = BaoPosition::start(BaoRules::LAMU);
        let l = p.layout();
        assert_eq!(l.front[0], [0, 0, 0, 0, 6, 2, 2, 0]);
        assert_eq!(BaoPosition::new(BaoRules::LAMU, &l), Ok(p));
        let mut l2 = l;
        l2.back[1][2] = 3; // North's B3
        l2.reserve[1] = 19;
        // The blocker (South) played a mtaji takata: its reserve is empty (K-8.4).
        l2.back[0][0] = 22;
        l2.reserve[0] = 0;
        l2.reserved = Some((Side::North, 6));
        l2.to_move = Side::North;
        let q = BaoPosition::new(BaoRules::LAMU, &l2).unwrap();
        assert_eq!(q.layout(), l2);
        assert_eq!(q.seeds(Side::North, Pit::back(3).unwrap()), 3);
        assert_eq!(q.reserved(), Some((Side::North, Pit::front(6).unwrap())));
    }

    #[test]
    fn north_first_and_illegal_moves_leave_the_position_unchanged() {
        let p = BaoPosition::start(BaoRules::LAMU.with_first_player(Side::North));
        assert_eq!(p.to_move(), Side::North);
        assert_eq!(p.legal_moves().len(), 4);
        let bad = BaoMove::sow(Pit::KUU, Direction::Clockwise);
        let e = p.play(bad).unwrap_err();
        assert_eq!(e.reason, IllegalReason::NemoKuuNotAlone);
        assert_eq!(e.reason.rule_id(), "K-7.2");
        assert_eq!(e.position, p);
        assert!(e.to_string().contains("K-7.2"));
    }
}
