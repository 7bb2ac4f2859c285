//! Togyz Kumalak on plain arrays, one loop iteration per kumalak sown, written straight from
//! `docs/rules/togyz-kumalak.md` (TK-n.m) and sharing no code with the packed
//! `mancala_core::togyz`: only the rules value is read through its public accessors, and a
//! position is compared through its notation.

use mancala_core::togyz::TogyzRules;

/// A Togyz Kumalak position as plain data: the houses of each side (South = 0, North = 1),
/// house i at index i − 1, the kazans, the tuzdyks (the opponent's house number each side
/// owns) and the side to move (`None` once the game is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Houses a side.
    pub h: usize,
    /// The houses, `houses[side][i]`.
    pub houses: [Vec<u32>; 2],
    /// The kazans.
    pub kazans: [u32; 2],
    /// The tuzdyk each side owns (a house number of the opponent's row), if any.
    pub tuzdyks: [Option<usize>; 2],
    /// The side to move, or `None`.
    pub to_move: Option<usize>,
    tuzdyk_on: bool,
    last_allowed: bool,
    majority_stop: bool,
    after_move: bool,
}

impl Board {
    /// The start position of `rules` (TK-1.2).
    #[must_use]
    pub fn start(rules: TogyzRules) -> Board {
        let h = usize::from(rules.houses());
        let s = u32::from(rules.kumalaks());
        Board {
            h,
            houses: [vec![s; h], vec![s; h]],
            kazans: [0, 0],
            tuzdyks: [None, None],
            to_move: Some(0),
            tuzdyk_on: rules.tuzdyk(),
            last_allowed: rules.tuzdyk_last_allowed(),
            majority_stop: rules.majority_stops(),
            after_move: rules.empty_row_after_move(),
        }
    }

    /// The total T (TK-1.2).
    #[must_use]
    pub fn total(&self) -> u32 {
        self.houses.iter().flatten().sum::<u32>() + self.kazans[0] + self.kazans[1]
    }

    /// The legal moves (TK-5): the mover's non-empty houses, 1-based.
    #[must_use]
    pub fn moves(&self) -> Vec<usize> {
        match self.to_move {
            None => Vec::new(),
            Some(p) => (1..=self.h)
                .filter(|&i| self.houses[p][i - 1] > 0)
                .collect(),
        }
    }

    /// Plays house `house` (1-based) of the side to move, kumalak by kumalak.
    ///
    /// # Panics
    /// If the move is not legal.
    pub fn play(&mut self, house: usize) {
        let me = self.to_move.expect("game over");
        let you = 1 - me;
        let n = std::mem::take(&mut self.houses[me][house - 1]);
        assert!(n > 0, "empty house");
        // The circuit seen from the mover: his houses 0..h, then the opponent's 0..h.
        let (mut side, mut idx) = (me, house - 1);
        let h = self.h;
        let step = |side: &mut usize, idx: &mut usize| {
            *idx += 1;
            if *idx == h {
                *idx = 0;
                *side = 1 - *side;
            }
        };
        if n == 1 {
            // TK-2.3: a lone kumalak goes to the next house.
            step(&mut side, &mut idx);
            self.drop_one(side, idx);
        } else {
            // TK-2.2: the first kumalak back into the origin, then onwards (laps included).
            for k in 0..n {
                if k > 0 {
                    step(&mut side, &mut idx);
                }
                self.drop_one(side, idx);
            }
        }
        // The last house: in the opponent's row, not a tuzdyk (whose kumalaks are gone).
        let is_tuzdyk = |b: &Board, side: usize, idx: usize| b.tuzdyks[1 - side] == Some(idx + 1);
        if side == you && !is_tuzdyk(self, side, idx) {
            let v = self.houses[you][idx];
            if v.is_multiple_of(2) {
                self.kazans[me] += v;
                self.houses[you][idx] = 0;
            } else if v == 3
                && self.tuzdyk_on
                && self.tuzdyks[me].is_none()
                && (idx + 1 != self.h || self.last_allowed)
                && self.tuzdyks[you] != Some(idx + 1)
            {
                self.tuzdyks[me] = Some(idx + 1);
                self.kazans[me] += 3;
                self.houses[you][idx] = 0;
            }
        }
        self.to_move = Some(you);
        let empty = |b: &Board, p: usize| b.houses[p].iter().all(|&c| c == 0);
        if empty(self, you) || (self.after_move && empty(self, me)) {
            // TK-6.1: each player adds his own row.
            for p in 0..2 {
                self.kazans[p] += self.houses[p].iter().sum::<u32>();
                self.houses[p].iter_mut().for_each(|c| *c = 0);
            }
            self.to_move = None;
        } else if self.majority_stop {
            let t = self.total();
            let [s, n] = self.kazans;
            if 2 * s > t || 2 * n > t || (2 * s == t && 2 * n == t) {
                self.to_move = None;
            }
        }
    }

    /// One kumalak into `side`'s house `idx`; into a tuzdyk it goes to the owner's kazan
    /// (TK-2.6).
    fn drop_one(&mut self, side: usize, idx: usize) {
        let owner = 1 - side;
        if self.tuzdyks[owner] == Some(idx + 1) {
            self.kazans[owner] += 1;
        } else {
            self.houses[side][idx] += 1;
        }
    }

    /// The position notation of TK-9.
    #[must_use]
    pub fn notation(&self) -> String {
        let mut parts = Vec::new();
        for p in 0..2 {
            for c in &self.houses[p] {
                parts.push(c.to_string());
            }
            parts.push(self.kazans[p].to_string());
        }
        let tz = |t: Option<usize>| t.map_or("-".to_string(), |t| t.to_string());
        let side = match self.to_move {
            Some(0) => "S",
            Some(_) => "N",
            None => "-",
        };
        format!(
            "{} {},{} {side}",
            parts.join(","),
            tz(self.tuzdyks[0]),
            tz(self.tuzdyks[1])
        )
    }

    /// Move-sequence counts (TK-11.1).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|m| {
                let mut b = self.clone();
                b.play(m);
                b.perft(depth - 1)
            })
            .sum()
    }
}
