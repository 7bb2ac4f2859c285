//! A plain array implementation of Kalah, written straight from `docs/rules/kalah.md` with
//! one loop iteration per seed sown. It shares no code with the packed board and is the
//! reference the packed board is checked against (tests) and compared with (benches).

use mancala_core::kalah::{KalahOption, KalahRules};

/// Rules flags of the reference, independent of `KalahRules`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RefRules {
    /// Houses a row.
    pub m: usize,
    /// Seeds a house at the start.
    pub n: u8,
    /// The option `empty_capture`: a last seed in an own empty house captures even when the
    /// house facing it is empty.
    pub empty_capture: bool,
    /// The option `end_when_no_move`: the game ends only when the player to move has no seed.
    pub end_when_no_move: bool,
    /// The option `discard_remaining`: the seeds left at the end go to no store.
    pub discard_remaining: bool,
    /// The option `pie_rule`: North may swap sides as its first action.
    pub pie_rule: bool,
    /// The option `no_first_move_bonus`: South's first move earns no extra turn.
    pub no_first_move_bonus: bool,
}

impl RefRules {
    /// The reference's flags for a library rules value.
    pub fn of(r: KalahRules) -> RefRules {
        RefRules {
            m: r.houses() as usize,
            n: r.seeds(),
            empty_capture: r.has(KalahOption::EmptyCapture),
            end_when_no_move: r.has(KalahOption::EndWhenNoMove),
            discard_remaining: r.has(KalahOption::DiscardRemaining),
            pie_rule: r.has(KalahOption::PieRule),
            no_first_move_bonus: r.has(KalahOption::NoFirstMoveBonus),
        }
    }
}

/// A reference position: slots in notation order, 0 = South to move, 1 = North.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefPos {
    /// The rules played.
    pub rules: RefRules,
    /// South's houses, South's store, North's houses, North's store (notation order).
    pub slots: [u8; 16],
    /// 0 when South is to move, 1 when North is.
    pub to_move: usize,
    /// Whether the game is over.
    pub over: bool,
    /// Whether the player to move may swap (pie rule).
    pub swap_offered: bool,
    /// Whether no move has been made yet.
    pub first_move: bool,
    /// Whether South's opening turn is still going on (pie rule: when the turn passes to
    /// North, North is offered the swap).
    pub opening: bool,
}

impl RefPos {
    /// The start position of `rules`: n seeds in every house, South to move.
    pub fn start(rules: RefRules) -> RefPos {
        let mut slots = [0u8; 16];
        for i in 0..rules.m {
            slots[i] = rules.n;
            slots[rules.m + 1 + i] = rules.n;
        }
        RefPos {
            rules,
            slots,
            to_move: 0,
            over: false,
            swap_offered: false,
            first_move: true,
            opening: rules.pie_rule,
        }
    }

    fn house_slot(&self, side: usize, house: usize) -> usize {
        // house is 1-based from the owner's left.
        if side == 0 {
            house - 1
        } else {
            self.rules.m + house
        }
    }

    fn store_slot(&self, side: usize) -> usize {
        if side == 0 {
            self.rules.m
        } else {
            2 * self.rules.m + 1
        }
    }

    fn row_sum(&self, side: usize) -> u32 {
        (1..=self.rules.m)
            .map(|h| u32::from(self.slots[self.house_slot(side, h)]))
            .sum()
    }

    /// Legal moves: houses 1..=m that hold seeds, then swap as 0.
    pub fn moves(&self) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        let mut v: Vec<usize> = (1..=self.rules.m)
            .filter(|&h| self.slots[self.house_slot(self.to_move, h)] > 0)
            .collect();
        if self.swap_offered {
            v.push(0);
        }
        v
    }

    /// Plays house `h` (1-based) or the swap (`0`). The move must be legal.
    pub fn play(&self, h: usize) -> RefPos {
        let mut p = *self;
        let me = p.to_move;
        let m = p.rules.m;
        let mut again = false;
        if h == 0 {
            p.swap_offered = false;
            p.opening = false;
            p.first_move = false;
        } else {
            let origin = p.house_slot(me, h);
            let mut seeds = p.slots[origin];
            p.slots[origin] = 0;
            let opp_store = p.store_slot(1 - me);
            let mut i = origin;
            while seeds > 0 {
                i = (i + 1) % (2 * m + 2);
                if i == opp_store {
                    continue;
                }
                p.slots[i] += 1;
                seeds -= 1;
            }
            // Which own house (1-based) the last seed fell in, if any.
            let own_house = (1..=m).find(|&k| p.house_slot(me, k) == i);
            if i == p.store_slot(me) {
                again = !(p.first_move && p.rules.no_first_move_bonus);
            } else if let Some(k) = own_house.filter(|_| p.slots[i] == 1) {
                // Opposite: own house k faces the opponent's house m + 1 - k.
                let opp = p.house_slot(1 - me, m + 1 - k);
                if p.slots[opp] > 0 || p.rules.empty_capture {
                    let gain = p.slots[opp] + 1;
                    p.slots[opp] = 0;
                    p.slots[i] = 0;
                    let st = p.store_slot(me);
                    p.slots[st] += gain;
                }
            }
            p.first_move = false;
            p.swap_offered = false;
            if !again {
                p.to_move = 1 - me;
                if p.opening {
                    p.opening = false;
                    p.swap_offered = true;
                }
            }
        }
        // End of the game.
        let ended = if p.rules.end_when_no_move {
            p.row_sum(p.to_move) == 0 && !p.swap_offered
        } else {
            p.row_sum(0) == 0 || p.row_sum(1) == 0
        };
        if ended {
            for side in 0..2 {
                let rest = p.row_sum(side) as u8;
                for k in 1..=m {
                    let s = p.house_slot(side, k);
                    p.slots[s] = 0;
                }
                if !p.rules.discard_remaining {
                    let st = p.store_slot(side);
                    p.slots[st] += rest;
                }
            }
            p.over = true;
            p.swap_offered = false;
            p.opening = false;
            p.first_move = false;
        }
        p
    }

    /// Perft with the same definition as the library's.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        let mut total = 0;
        let first = if self.swap_offered { 0 } else { 1 };
        for h in first..=self.rules.m {
            if h > 0 && self.slots[self.house_slot(self.to_move, h)] == 0 {
                continue;
            }
            let c = self.play(h);
            total += if depth == 1 {
                u64::from(std::hint::black_box(c).slots[0] != 255)
            } else {
                c.perft(depth - 1)
            };
        }
        total
    }

    /// Notation of the position (counts, side, `swap`).
    pub fn notation(&self) -> String {
        let counts: Vec<String> = self.slots[..2 * self.rules.m + 2]
            .iter()
            .map(|c| c.to_string())
            .collect();
        let side = if self.over {
            "-"
        } else if self.to_move == 0 {
            "S"
        } else {
            "N"
        };
        let mut s = format!("{} {}", counts.join(","), side);
        if self.swap_offered {
            s.push_str(" swap");
        }
        s
    }
}
