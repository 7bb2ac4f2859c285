//! Perft for Kalah: the number of move sequences of a given length, on the packed position
//! with the board size as a constant.

use super::position::KalahPosition;
use super::rules::KalahRules;

/// Counts the sowing sequences of exactly `depth` plies from `pos` (an extra turn is its own
/// ply, a swap is a ply) that do not reach a finished game before ply `depth`
/// (`perft(pos, 0) == 1`). Every counted ply is played, the last one included.
///
/// Returns the number of leaf sequences. From the start of Kalah(6,4): perft(1) = 6,
/// perft(2) = 35.
#[must_use]
pub fn perft(pos: &KalahPosition, depth: u32) -> u64 {
    match pos.m() {
        1 => perft_const::<1>(pos, depth),
        2 => perft_const::<2>(pos, depth),
        3 => perft_const::<3>(pos, depth),
        4 => perft_const::<4>(pos, depth),
        5 => perft_const::<5>(pos, depth),
        6 => perft_const::<6>(pos, depth),
        _ => perft_const::<7>(pos, depth),
    }
}

fn perft_const<const M: usize>(pos: &KalahPosition, depth: u32) -> u64 {
    perft_inner::<M>(pos.own, pos.opp, pos.state, pos.rules, depth)
}

/// The perft recursion on the position's parts, so that children travel in registers.
fn perft_inner<const M: usize>(
    own: u64,
    opp: u64,
    state: u8,
    rules: KalahRules,
    depth: u32,
) -> u64 {
    let pos = KalahPosition {
        own,
        opp,
        rules,
        state,
    };
    if depth == 0 {
        return 1;
    }
    if pos.is_over() {
        return 0;
    }
    let mut total = 0;
    let mut mask = pos.house_move_mask();
    if depth == 1 {
        // The last ply is played too: every child is computed in full and folded into a
        // checksum that the optimiser cannot see through.
        let mut check = 0u64;
        while mask != 0 {
            let child = pos.sow_const::<M>(mask.trailing_zeros() as usize);
            check ^= child.own.wrapping_add(child.opp) ^ u64::from(child.state);
            total += 1;
            mask &= mask - 1;
        }
        if pos.swap_offered() {
            let child = pos.swap_unchecked();
            check ^= child.own.wrapping_add(child.opp) ^ u64::from(child.state);
            total += 1;
        }
        core::hint::black_box(check);
        return total;
    }
    while mask != 0 {
        let c = pos.sow_const::<M>(mask.trailing_zeros() as usize);
        total += perft_inner::<M>(c.own, c.opp, c.state, rules, depth - 1);
        mask &= mask - 1;
    }
    if pos.swap_offered() {
        let c = pos.swap_unchecked();
        total += perft_inner::<M>(c.own, c.opp, c.state, rules, depth - 1);
    }
    total
}
