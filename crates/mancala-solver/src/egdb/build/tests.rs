//! The build against a plain memoised minimax written from the rules, on every option set
//! and several m and K, in both encodings and in small and large work items.

use std::collections::HashMap;

use mancala_core::kalah::{KalahOption, KalahOptions};

use crate::egdb::packed::{Codec, Probe, PAD};
use crate::egdb::Encoding;
use crate::rank::binom_exact;

/// A plain memoised minimax written from the rules (docs/rules/kalah.md), sharing nothing with
/// the builder but the rank formula of the file format, recomputed here independently.
struct Reference {
    m: usize,
    empty_capture: bool,
    end_when_no_move: bool,
    discard: bool,
    memo: HashMap<Vec<u8>, i32>,
}

impl Reference {
    /// The value for the mover of `houses` (the mover's houses, then the opponent's, each
    /// row from the house farthest from its owner's store).
    fn value(&mut self, houses: &[u8]) -> i32 {
        if let Some(&v) = self.memo.get(houses) {
            return v;
        }
        let m = self.m;
        let own: u32 = houses[..m].iter().map(|&c| u32::from(c)).sum();
        let opp: u32 = houses[m..].iter().map(|&c| u32::from(c)).sum();
        let finished = if self.end_when_no_move {
            own == 0
        } else {
            own == 0 || opp == 0
        };
        let mut best = 0;
        if !finished {
            best = i32::MIN;
            for h in 0..m {
                if houses[h] != 0 {
                    let v = self.move_value(houses, h);
                    best = best.max(v);
                }
            }
        }
        self.memo.insert(houses.to_vec(), best);
        best
    }

    /// The value for the mover of sowing house `h`.
    fn move_value(&mut self, houses: &[u8], h: usize) -> i32 {
        let m = self.m;
        // The mover's sowing cycle: own houses 0..m, own store m, the opponent's houses
        // m+1..=2m (the opponent's store is skipped).
        let mut pits: Vec<u32> = houses[..m].iter().map(|&c| u32::from(c)).collect();
        pits.push(0);
        pits.extend(houses[m..].iter().map(|&c| u32::from(c)));
        let mut at = h;
        let seeds = std::mem::take(&mut pits[h]);
        for _ in 0..seeds {
            at = (at + 1) % (2 * m + 1);
            pits[at] += 1;
        }
        let again = at == m;
        if at < m && pits[at] == 1 {
            let facing = 2 * m - at;
            if pits[facing] != 0 || self.empty_capture {
                pits[m] += pits[facing] + 1;
                pits[at] = 0;
                pits[facing] = 0;
            }
        }
        let mut gain = pits[m] as i32;
        let own: u32 = pits[..m].iter().sum();
        let opp: u32 = pits[m + 1..].iter().sum();
        let next_has_no_move = if again { own == 0 } else { opp == 0 };
        let over = if self.end_when_no_move {
            next_has_no_move
        } else {
            own == 0 || opp == 0
        };
        if over {
            if !self.discard {
                gain += own as i32 - opp as i32;
            }
            return gain;
        }
        let own_row: Vec<u8> = pits[..m].iter().map(|&c| c as u8).collect();
        let opp_row: Vec<u8> = pits[m + 1..].iter().map(|&c| c as u8).collect();
        if again {
            gain + self.value(&[own_row, opp_row].concat())
        } else {
            gain - self.value(&[opp_row, own_row].concat())
        }
    }
}

/// Σ C(p_i, i+1) with p_i = c_0 + … + c_i + i.
fn rank(houses: &[u8]) -> u64 {
    let mut p = 0u64;
    let mut r = 0u64;
    for (i, &c) in houses.iter().enumerate() {
        p += u64::from(c);
        r += binom_exact(p + i as u64, i as u64 + 1) as u64;
    }
    r
}

/// Calls `f` on every distribution of at most `left` seeds over `houses[i..]`.
fn each(houses: &mut [u8], i: usize, left: u32, f: &mut dyn FnMut(&[u8])) {
    if i == houses.len() {
        f(houses);
        return;
    }
    for c in 0..=left {
        houses[i] = c as u8;
        each(houses, i + 1, left - c, f);
    }
    houses[i] = 0;
}

#[test]
fn every_entry_equals_a_plain_minimax() {
    let sizes: &[(usize, u32)] = if cfg!(miri) {
        &[(1, 3), (2, 2)]
    } else {
        &[(1, 40), (2, 14), (3, 10), (4, 8), (5, 7), (6, 7), (7, 6)]
    };
    for &(m, k) in sizes {
        for bits in 0..8u32 {
            let mut list = Vec::new();
            if bits & 1 != 0 {
                list.push(KalahOption::EmptyCapture);
            }
            if bits & 2 != 0 {
                list.push(KalahOption::EndWhenNoMove);
            }
            if bits & 4 != 0 {
                list.push(KalahOption::DiscardRemaining);
            }
            let total = binom_exact(u64::from(k) + 2 * m as u64, 2 * m as u64) as u64;
            let options = KalahOptions::of(&list);
            let data = super::build(m, options, k, total, Encoding::Byte, None, None)
                .unwrap()
                .unwrap();
            let data = data.bytes();
            assert_eq!(data.len() as u64, total);
            // Work items of a few positions: many items a level, run in parallel.
            let small = super::build_in_chunks(m, options, k, total, Encoding::Byte, 5, None, None)
                .unwrap()
                .unwrap();
            assert_eq!(small.bytes(), data);
            // The packed build, layer by layer, in both work item sizes.
            let codec = Codec::new(k, options);
            let packed = super::build(m, options, k, total, Encoding::Packed, None, None)
                .unwrap()
                .unwrap();
            let packed = packed.bytes();
            assert_eq!(packed.len() as u64, codec.payload_bytes(total) + PAD as u64);
            let small =
                super::build_in_chunks(m, options, k, total, Encoding::Packed, 5, None, None)
                    .unwrap()
                    .unwrap();
            assert_eq!(small.bytes(), packed);
            let probe = Probe::packed(packed, &codec);
            let mut reference = Reference {
                m,
                empty_capture: bits & 1 != 0,
                end_when_no_move: bits & 2 != 0,
                discard: bits & 4 != 0,
                memo: HashMap::new(),
            };
            let mut seen = 0u64;
            let mut houses = vec![0u8; 2 * m];
            each(&mut houses, 0, k, &mut |h| {
                let want = reference.value(h);
                let r = rank(h);
                let got = i32::from(data[r as usize]) - 128;
                assert_eq!(got, want, "m = {m}, K = {k}, options {list:?}, {h:?}");
                let seeds = h.iter().map(|&c| u32::from(c)).sum();
                assert_eq!(probe.value(r, seeds), want, "packed, {h:?}");
                seen += 1;
            });
            assert_eq!(seen, total);
        }
    }
}
