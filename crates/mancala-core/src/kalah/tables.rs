//! Sowing tables, computed at compile time for every m in 1..=7.
//!
//! A sowing from the mover's point of view walks the mover's *cycle* of 2m + 1 slots: own
//! houses 1..m (cycle indices 0..m−1), own store (index m), the opponent's houses 1..m (indices
//! m+1..2m); the opponent's store is skipped (`kalah.md`, "A move", rule 1). Own house `h`
//! (0-based) sits at cycle index `h` for both sides, so one table row serves each side.
//!
//! For s seeds lifted from house h, with L = 2m + 1, q = s / L and r = s % L, every slot of
//! the cycle receives q seeds (the emptied origin too, `kalah.md` rule 1) and the r slots
//! after the origin receive one more: `board += q·FULL + RANGE[r]`, and the last seed lands
//! on cycle index (h + r) mod L (the origin itself when r = 0). That is a constant number of
//! word operations whatever s is.

use crate::Side;

/// Cycle index → lane, for `side` on a board of `m` houses a row.
const fn cycle_lane(m: usize, side: usize, c: usize) -> usize {
    if side == 0 {
        c
    } else if c <= m {
        m + 1 + c
    } else {
        c - (m + 1)
    }
}

/// `RANGE[m][side][h][r]`: one seed in each of the r cycle slots after own house h.
/// `FULL[m][side]`: one seed in each of the 2m + 1 slots of the cycle.
/// `LAST[m][side][h][r]`: cycle index where the last seed lands.
pub(crate) struct SowTables {
    pub(crate) range: [[[[u128; 16]; 7]; 2]; 8],
    pub(crate) full: [[u128; 2]; 8],
    pub(crate) last: [[[[u8; 16]; 7]; 2]; 8],
}

const fn build() -> SowTables {
    let mut t = SowTables {
        range: [[[[0; 16]; 7]; 2]; 8],
        full: [[0; 2]; 8],
        last: [[[[0; 16]; 7]; 2]; 8],
    };
    let mut m = 1;
    while m <= 7 {
        let l = 2 * m + 1;
        let mut side = 0;
        while side < 2 {
            let mut c = 0;
            while c < l {
                t.full[m][side] |= 1u128 << (8 * cycle_lane(m, side, c));
                c += 1;
            }
            let mut h = 0;
            while h < m {
                let mut r = 0;
                let mut mask = 0u128;
                while r < l {
                    t.range[m][side][h][r] = mask;
                    t.last[m][side][h][r] = ((h + r) % l) as u8;
                    // Add slot number r + 1 after the origin for the next r.
                    mask |= 1u128 << (8 * cycle_lane(m, side, (h + r + 1) % l));
                    r += 1;
                }
                h += 1;
            }
            side += 1;
        }
        m += 1;
    }
    t
}

pub(crate) static TABLES: SowTables = build();

/// Lane index of own house 0 (`own_base`) for `side`: 0 for South, m + 1 for North.
#[inline(always)]
pub(crate) const fn own_base(m: usize, side: Side) -> usize {
    match side {
        Side::South => 0,
        Side::North => m + 1,
    }
}

/// Mask of the low 8 bits of each of the lanes `from..from + count`.
#[inline(always)]
pub(crate) const fn lanes_mask(from: usize, count: usize) -> u128 {
    let ones = if count >= 16 {
        u128::MAX
    } else {
        (1u128 << (8 * count)) - 1
    };
    ones << (8 * from)
}
