//! Sowing tables, computed at compile time for every m in 1..=7.
//!
//! The board is kept from the mover's point of view (see `position.rs`): a `u64` `own` with
//! the mover's houses 1..m in lanes 0..m−1 and the mover's store in lane m, and a `u64` `opp`
//! with the opponent's houses 1..m in lanes 0..m−1 and the opponent's store in lane m.
//!
//! A sowing walks the mover's *cycle* of L = 2m + 1 slots: own houses (cycle indices
//! 0..m−1), own store (index m), the opponent's houses (indices m+1..2m); the opponent's store
//! is skipped (`docs/rules/kalah.md`, "A move", rule 1). For s seeds lifted from own house h
//! (0-based), with q = s / L and r = s % L, every slot of the cycle gets q seeds (the emptied
//! origin too, rule 1) and the r slots after the origin one more:
//!
//! ```text
//! own += q·OWN_LAP + OWN_ADD[m][h][r]      opp += q·OPP_LAP + OPP_ADD[m][h][r]
//! ```
//!
//! and the last seed lands on cycle index `LAST[m][h][r]` = (h + r) mod L (the origin itself
//! when r = 0). A constant number of word operations, whatever s is.

/// Per-m sowing tables (index 0 of the outer arrays is unused).
pub(crate) struct SowTables {
    pub(crate) own_add: [[[u64; 16]; 8]; 8],
    pub(crate) opp_add: [[[u64; 16]; 8]; 8],
    pub(crate) last: [[[u8; 16]; 8]; 8],
}

const fn build() -> SowTables {
    let mut t = SowTables {
        own_add: [[[0; 16]; 8]; 8],
        opp_add: [[[0; 16]; 8]; 8],
        last: [[[0; 16]; 8]; 8],
    };
    let mut m = 1;
    while m <= 7 {
        let l = 2 * m + 1;
        let mut h = 0;
        while h < m {
            let mut own = 0u64;
            let mut opp = 0u64;
            let mut r = 0;
            while r < l {
                t.own_add[m][h][r] = own;
                t.opp_add[m][h][r] = opp;
                t.last[m][h][r] = ((h + r) % l) as u8;
                // Slot number r + 1 after the origin, for the next r.
                let c = (h + r + 1) % l;
                if c <= m {
                    own |= 1u64 << (8 * c);
                } else {
                    opp |= 1u64 << (8 * (c - m - 1));
                }
                r += 1;
            }
            h += 1;
        }
        m += 1;
    }
    t
}

pub(crate) static TABLES: SowTables = build();

/// One in each of the lanes `0..count` (count ≤ 8).
#[inline(always)]
pub(crate) const fn ones(count: usize) -> u64 {
    if count >= 8 {
        0x0101_0101_0101_0101
    } else {
        0x0101_0101_0101_0101 & ((1u64 << (8 * count)) - 1)
    }
}

/// 0xFF in each of the lanes `0..count` (count ≤ 8).
#[inline(always)]
pub(crate) const fn lanes(count: usize) -> u64 {
    ones(count) * 0xFF
}
