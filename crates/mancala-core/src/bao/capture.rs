//! Captures (K-6.3, K-6.4): taking the opponent's facing pit and sowing the captured seeds
//! from a kichwa towards the centre.

use super::moves::{Direction, Kichwa};
use super::sow::{clear, get, sow, KUU};

/// The mover's view of the board during a move: own and opponent pits (ring lanes, see
/// [`super::sow`]) and whether each kuu still stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    /// The mover's 16 pits.
    pub own: u128,
    /// The opponent's 16 pits.
    pub opp: u128,
    /// Whether the mover's kuu stands.
    pub own_kuu: bool,
    /// Whether the opponent's kuu stands.
    pub opp_kuu: bool,
}

/// The opponent's front pit facing own front pit `i` (K-3.4): `7 − i`.
#[inline]
pub(crate) const fn facing(i: usize) -> usize {
    7 - i
}

/// Takes every seed of the opponent's pit facing own front pit `e` (K-6.4.1) and returns how
/// many. Taking the seeds of the opponent's standing kuu destroys it (K-9).
#[inline]
pub(crate) fn take(b: &mut Board, e: usize) -> u8 {
    let f = facing(e);
    let s = get(b.opp, f);
    b.opp = clear(b.opp, f);
    if f == KUU {
        b.opp_kuu = false;
    }
    s
}

/// The kichwa where the seeds of a capture at own front pit `e` are sown when the player has
/// no choice (K-6.4.3): left kimbi {F1, F2} → F1, right kimbi {F7, F8} → F8, central pit →
/// keep the current direction (clockwise → F1, anticlockwise → F8).
#[inline]
pub(crate) const fn kichwa_for(e: usize, dir: Direction) -> Kichwa {
    match e {
        0 | 1 => Kichwa::Left,
        6 | 7 => Kichwa::Right,
        _ => match dir {
            Direction::Clockwise => Kichwa::Left,
            Direction::Anticlockwise => Kichwa::Right,
        },
    }
}

/// Whether own front pit `i` is central (F3–F6), where a first nemo capture lets the player
/// choose the kichwa (K-6.4.3).
#[inline]
pub(crate) const fn is_central(i: usize) -> bool {
    i >= 2 && i <= 5
}

/// Sows `n` captured seeds starting *in* kichwa `k` towards the centre (K-6.4.2). Returns the
/// new own pits, the last pit and the move's new direction.
#[inline]
pub(crate) fn sow_from_kichwa(own: u128, k: Kichwa, n: u32) -> (u128, usize, Direction) {
    let (from, dir) = match k {
        // The pit before F1 clockwise is B1 (15); before F8 anticlockwise is B8 (8).
        Kichwa::Left => (15, Direction::Clockwise),
        Kichwa::Right => (8, Direction::Anticlockwise),
    };
    let (y, last) = sow(own, from, n, dir);
    (y, last, dir)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bao::sow::add;

    #[test]
    fn kichwa_rule_k_6_4() {
        assert_eq!(kichwa_for(1, Direction::Anticlockwise), Kichwa::Left);
        assert_eq!(kichwa_for(6, Direction::Clockwise), Kichwa::Right);
        assert_eq!(kichwa_for(3, Direction::Clockwise), Kichwa::Left);
        assert_eq!(kichwa_for(5, Direction::Anticlockwise), Kichwa::Right);
    }

    #[test]
    fn capture_sowing_starts_in_the_kichwa() {
        // 3 captured seeds from the right kichwa: F8, F7, F6 (lanes 7, 6, 5).
        let (y, last, dir) = sow_from_kichwa(0, Kichwa::Right, 3);
        assert_eq!((last, dir), (5, Direction::Anticlockwise));
        assert_eq!(y, add(add(add(0, 7, 1), 6, 1), 5, 1));
        // Taking the opponent's kuu destroys it (K-9): own F4 (3) faces opponent F5 (4).
        let mut b = Board {
            own: 0,
            opp: add(0, 4, 7),
            own_kuu: true,
            opp_kuu: true,
        };
        assert_eq!(take(&mut b, 3), 7);
        assert!(!b.opp_kuu && b.opp == 0);
    }
}
