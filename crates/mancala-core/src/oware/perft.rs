//! Perft for Oware (OW-11.4): the number of move sequences of a given length, on the packed
//! position with the board size as a constant.

use super::position::{with_houses, OwarePosition};

/// Counts the move sequences of exactly `depth` plies from `pos` that do not reach a
/// finished game before their last ply (OW-11.4; a game that ends before the last ply
/// contributes nothing, and at the last ply every legal move counts). Every counted ply is
/// played, the last one included: the last as a plain-array perft plays its leaves (sowing,
/// capture, grand slam, stores and the majority end after a capture), without generating
/// the leaves' own legal moves, which are not counted. `perft(pos, 0) == 1`.
///
/// Only the position-only end rules act (majority, no legal move); the history rules
/// (repetition, move limit) need a game record and are not applied, as in the figures of
/// OW-11.4. Returns the number of leaf sequences: from the start of `oware`, `awari` and
/// `oware-openspiel` alike, 6, 36, 190, 1,014, 5,219 at depths 1–5.
#[must_use]
pub fn perft(pos: &OwarePosition, depth: u32) -> u64 {
    // The total of seeds never changes in a game: the leaves' majority check takes it from
    // the root.
    let total = pos.total_seeds();
    with_houses!(pos.h(), H => perft_const::<H>(pos, depth, total))
}

fn perft_const<const H: usize>(pos: &OwarePosition, depth: u32, total: u32) -> u64 {
    match depth {
        0 => 1,
        1 => leaves::<H>(pos, total),
        2 => {
            let mut mask = pos.moves;
            let mut count = 0;
            while mask != 0 {
                let child = pos.sow_const::<H>(mask.trailing_zeros() as usize);
                count += leaves::<H>(&child, total);
                mask &= mask - 1;
            }
            count
        }
        _ => {
            let mut mask = pos.moves;
            let mut count = 0;
            while mask != 0 {
                let child = pos.sow_const::<H>(mask.trailing_zeros() as usize);
                count += perft_const::<H>(&child, depth - 1, total);
                mask &= mask - 1;
            }
            count
        }
    }
}

/// `perft(pos, 1)`: the number of legal moves, every one of them played as a plain-array
/// perft plays its last ply (sowing, capture, grand slam, stores, majority; see
/// [`OwarePosition::leaf_const`], `total` the seeds of the game) and folded, with the
/// sowings of the other houses, into a checksum that the optimiser cannot see through. The
/// leaves' own legal moves are not generated: they are not counted.
#[inline(always)]
fn leaves<const H: usize>(pos: &OwarePosition, total: u32) -> u64 {
    let mut check = 0u64;
    // Every house is sown (an empty one adds nothing) and folded into the checksum, an
    // illegal move's too (the checksum only keeps the work from being optimised away; the
    // count is of the legal moves): no loop whose end depends on the number of moves, no
    // test of legality, and the lane of each sowing known at compile time.
    macro_rules! sow {
        ($k:literal) => {
            if $k < H {
                let leaf = pos.leaf_const::<H>($k, total);
                check ^= leaf
                    .own
                    .wrapping_add(leaf.opp)
                    .wrapping_add(u64::from(leaf.stores) | u64::from(leaf.majority) << 16);
            }
        };
    }
    sow!(0);
    sow!(1);
    sow!(2);
    sow!(3);
    sow!(4);
    sow!(5);
    sow!(6);
    sow!(7);
    core::hint::black_box(check);
    u64::from(MOVE_COUNTS[usize::from(pos.moves)])
}

/// `MOVE_COUNTS[m]`: the number of moves in the legal-move mask m (one load, where
/// `count_ones` takes six instructions without the `popcnt` instruction of newer CPUs).
static MOVE_COUNTS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    t
};
