//! One player's 16 pits packed into the 8-bit lanes of a `u128`, and the sowing of one lap
//! (K-3.3, K-6.1).
//!
//! # Bit layout
//!
//! ```text
//!  lane (bits 8k..8k+7):  0  1  2  3  4  5  6  7 |  8  9 10 11 12 13 14 15
//!  pit (owner's view)  : F1 F2 F3 F4 F5 F6 F7 F8 | B8 B7 B6 B5 B4 B3 B2 B1
//!                        └──── front row: the low 64 bits ────┘
//! ```
//!
//! Clockwise is lane + 1 (mod 16), anticlockwise lane − 1 (K-3.3). A pit never holds more
//! than the 64 seeds of the game, so adding seeds lane-wise never carries into the next lane.
//! A lap of `n` seeds is one masked add: `n / 16` seeds in every lane plus one seed in each of
//! the `n % 16` lanes after the start (a rotated run of `0x01` bytes), not a loop over seeds.

use super::moves::Direction;

/// A `0x01` byte in every lane.
pub(crate) const ONES: u128 = u128::from_le_bytes([1; 16]);

/// The lanes of the front row (F1..F8).
pub(crate) const FRONT: u128 = u64::MAX as u128;

/// The ring index of the kuu, F5 (K-3.5).
pub(crate) const KUU: usize = 4;

/// The seeds in lane `i`.
#[inline]
pub(crate) fn get(pits: u128, i: usize) -> u8 {
    (pits >> (8 * i)) as u8
}

/// `pits` with lane `i` emptied.
#[inline]
pub(crate) fn clear(pits: u128, i: usize) -> u128 {
    pits & !(0xFFu128 << (8 * i))
}

/// `pits` with `n` seeds added to lane `i` (the caller keeps the lane ≤ 255).
#[inline]
pub(crate) fn add(pits: u128, i: usize, n: u8) -> u128 {
    pits + (u128::from(n) << (8 * i))
}

/// Whether the front row (F1..F8) holds no seed.
#[inline]
pub(crate) fn front_empty(pits: u128) -> bool {
    pits & FRONT == 0
}

/// `0x01` in lanes `0..r`, for `r` in 0..=16.
#[inline]
fn run(r: usize) -> u128 {
    if r == 0 {
        0
    } else {
        ONES >> (8 * (16 - r))
    }
}

/// Sows `n` seeds one by one into the pits after `from` in direction `dir` (K-6.1): the first
/// seed goes into the pit next to `from`, and `from` itself receives seeds when the lap wraps
/// round. Returns the new pits and the ring index of the last pit sown.
///
/// To sow *into* a kichwa first (K-6.4), pass as `from` the pit before it in `dir`.
#[inline]
pub(crate) fn sow(pits: u128, from: usize, n: u32, dir: Direction) -> (u128, usize) {
    let r = (n % 16) as usize;
    let mut y = pits + ONES * u128::from(n / 16);
    let first = match dir {
        Direction::Clockwise => (from + 1) & 15,
        Direction::Anticlockwise => (from + 16 - r) & 15,
    };
    y += run(r).rotate_left(8 * first as u32);
    let last = match dir {
        Direction::Clockwise => (from + r) & 15,
        Direction::Anticlockwise => (from + 16 - r) & 15,
    };
    (y, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(x: u128) -> [u8; 16] {
        x.to_le_bytes()
    }

    #[test]
    fn sow_clockwise_and_wrap() {
        // K-6.1: 3 seeds from F7 (lane 6) go to F8, B8, B7; the last pit is B7 (lane 9).
        let (y, last) = sow(0, 6, 3, Direction::Clockwise);
        assert_eq!(last, 9);
        let mut want = [0u8; 16];
        want[7] = 1;
        want[8] = 1;
        want[9] = 1;
        assert_eq!(lanes(y), want);
        // 16 seeds from an emptied pit: one everywhere, last in the start pit (TC-03, I4 V01).
        let (y, last) = sow(0, 3, 16, Direction::Anticlockwise);
        assert_eq!((lanes(y), last), ([1; 16], 3));
        // 18 anticlockwise from F1 (lane 0): one everywhere, plus B1 (15) and B2 (14).
        let (y, last) = sow(0, 0, 18, Direction::Anticlockwise);
        let mut want = [1u8; 16];
        want[15] = 2;
        want[14] = 2;
        assert_eq!((lanes(y), last), (want, 14));
    }

    #[test]
    fn helpers() {
        let x = add(add(0, 4, 6), 12, 3);
        assert_eq!(get(x, 4), 6);
        assert_eq!(get(x, 12), 3);
        assert!(!front_empty(x));
        assert!(front_empty(clear(x, 4)));
    }
}
