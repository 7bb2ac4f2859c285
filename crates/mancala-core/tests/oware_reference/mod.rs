//! A plain array implementation of Oware, written straight from `docs/rules/oware.md` with
//! one loop iteration per seed sown, a capture chain walked house by house, and legality by
//! trying every move. It shares no code with the packed position (`src/oware/`) and is the
//! reference that the packed one is checked against (tests) and compared with (benches).
//! Unlike the packed position it carries its own history: it applies the repetition and
//! move-limit rules itself (OW-6.2, OW-6.4), in the order of OW-6.
#![allow(dead_code)]

use mancala_core::oware::{CycleScore, GrandSlam, Majority, OwareRules};

/// What a grand slam does (OW-4.2), the reference's own copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slam {
    Nothing,
    All,
    Forbidden,
    LeaveLast,
    UnlessOnly,
}

/// The majority end (OW-6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Major {
    Stop,
    Collect,
    Off,
}

/// The reference's rules, independent of `OwareRules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    pub h: usize,
    pub s: u8,
    pub slam: Slam,
    pub majority: Major,
    pub repetition: Option<usize>,
    pub split: bool,
    pub move_limit: Option<usize>,
}

impl RefRules {
    /// The reference's rules for a library rules value.
    pub fn of(r: OwareRules) -> RefRules {
        RefRules {
            h: r.houses() as usize,
            s: r.seeds(),
            slam: match r.grand_slam() {
                GrandSlam::None => Slam::Nothing,
                GrandSlam::All => Slam::All,
                GrandSlam::Forbidden => Slam::Forbidden,
                GrandSlam::LeaveLast => Slam::LeaveLast,
                GrandSlam::UnlessOnly => Slam::UnlessOnly,
            },
            majority: match r.majority() {
                Majority::Stop => Major::Stop,
                Majority::Collect => Major::Collect,
                Majority::Off => Major::Off,
            },
            repetition: r.repetition().map(usize::from),
            split: r.cycle_score() == CycleScore::Split,
            move_limit: r.move_limit().map(usize::from),
        }
    }
}

/// A reference position: `board` in circuit order (S1 … Sh, N1 … Nh), the captured counts
/// (South, North), the side to move (0 South, 1 North) and whether the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefPos {
    pub rules_h: usize,
    pub board: [u8; 16],
    pub stores: [u8; 2],
    pub to_move: usize,
    pub over: bool,
}

/// What one move did before the turn passes.
struct Sowing {
    board: [u8; 16],
    /// Seeds the mover captured.
    captured: u8,
    /// Whether any seed went into the opponent's row (OW-2.5).
    fed: bool,
    /// Whether the move was a grand slam (OW-4.1).
    grand_slam: bool,
}

impl RefPos {
    /// The start (OW-1.2); over at once, each player taking his row, when South has no
    /// legal move there (OW-6.3: `awari(1,1)+grand_slam=forbidden`, whose one move is a
    /// grand slam).
    pub fn start(r: &RefRules) -> RefPos {
        let mut board = [0u8; 16];
        for c in board.iter_mut().take(2 * r.h) {
            *c = r.s;
        }
        let mut p = RefPos {
            rules_h: r.h,
            board,
            stores: [0, 0],
            to_move: 0,
            over: false,
        };
        if p.moves(r).is_empty() {
            p.collect_rows();
        }
        p
    }

    /// From 2h + 2 counts in notation order and a side (None = over).
    pub fn from_counts(h: usize, counts: &[u8], to_move: Option<usize>) -> RefPos {
        let mut board = [0u8; 16];
        board[..h].copy_from_slice(&counts[..h]);
        board[h..2 * h].copy_from_slice(&counts[h + 1..2 * h + 1]);
        RefPos {
            rules_h: h,
            board,
            stores: [counts[h], counts[2 * h + 1]],
            to_move: to_move.unwrap_or(0),
            over: to_move.is_none(),
        }
    }

    /// The index in `board` of `side`'s house `i` (1-based from that side's left).
    fn index(&self, side: usize, i: usize) -> usize {
        side * self.rules_h + i - 1
    }

    /// The owner of board index `idx`.
    fn owner(&self, idx: usize) -> usize {
        idx / self.rules_h
    }

    fn row_sum(&self, board: &[u8; 16], side: usize) -> u32 {
        (1..=self.rules_h)
            .map(|i| u32::from(board[self.index(side, i)]))
            .sum()
    }

    fn total(&self) -> u32 {
        self.board.iter().map(|&c| u32::from(c)).sum::<u32>()
            + u32::from(self.stores[0])
            + u32::from(self.stores[1])
    }

    /// OW-6.1: a store over half the total, or both equal to half (rounded down).
    pub fn majority_reached(&self) -> bool {
        let t = self.total();
        let half = t / 2;
        let (a, b) = (u32::from(self.stores[0]), u32::from(self.stores[1]));
        a * 2 > t || b * 2 > t || (a == half && b == half)
    }

    /// Sows house `i` of the side to move and applies the capture by the grand-slam rule
    /// `slam` (`Forbidden` and `UnlessOnly` capture the whole chain here).
    fn sow(&self, i: usize, slam: Slam) -> Sowing {
        let h = self.rules_h;
        let me = self.to_move;
        let mut board = self.board;
        let origin = self.index(me, i);
        let mut seeds = board[origin];
        board[origin] = 0;
        let mut at = origin;
        let mut fed = false;
        while seeds > 0 {
            at = (at + 1) % (2 * h);
            if at == origin {
                continue; // OW-2.3: the origin is skipped.
            }
            board[at] += 1;
            seeds -= 1;
            if self.owner(at) != me {
                fed = true;
            }
        }
        // OW-3: the chain from the last house backwards through the opponent's row.
        let mut chain = Vec::new();
        let mut j = at;
        while self.owner(j) != me && (board[j] == 2 || board[j] == 3) {
            chain.push(j);
            if j == self.index(1 - me, 1) {
                break; // the opponent's house 1: the chain cannot leave his row
            }
            j -= 1;
        }
        let opp = 1 - me;
        let others_empty = (1..=h)
            .map(|k| self.index(opp, k))
            .filter(|k| !chain.contains(k))
            .all(|k| board[k] == 0);
        let grand_slam = !chain.is_empty() && others_empty;
        let take: Vec<usize> = if grand_slam {
            match slam {
                Slam::Nothing => vec![],
                Slam::LeaveLast => chain
                    .iter()
                    .copied()
                    .filter(|&k| k != self.index(opp, 1))
                    .collect(),
                Slam::All | Slam::Forbidden | Slam::UnlessOnly => chain,
            }
        } else {
            chain
        };
        let mut captured = 0u8;
        for k in take {
            captured += board[k];
            board[k] = 0;
        }
        Sowing {
            board,
            captured,
            fed,
            grand_slam,
        }
    }

    /// The legal moves of the side to move (OW-5), houses 1-based, increasing.
    pub fn moves(&self, r: &RefRules) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        let me = self.to_move;
        let nonempty: Vec<usize> = (1..=r.h)
            .filter(|&i| self.board[self.index(me, i)] > 0)
            .collect();
        let opp_empty = self.row_sum(&self.board, 1 - me) == 0;
        match r.slam {
            Slam::UnlessOnly => {
                // OW-5.3: eradicating moves only when every move eradicates.
                let keep: Vec<usize> = nonempty
                    .iter()
                    .copied()
                    .filter(|&i| self.row_sum(&self.sow(i, r.slam).board, 1 - me) != 0)
                    .collect();
                if keep.is_empty() {
                    nonempty
                } else {
                    keep
                }
            }
            _ => nonempty
                .into_iter()
                .filter(|&i| !opp_empty || self.sow(i, r.slam).fed)
                .filter(|&i| r.slam != Slam::Forbidden || !self.sow(i, r.slam).grand_slam)
                .collect(),
        }
    }

    /// Every house to its owner's store, game over.
    fn collect_rows(&mut self) {
        for side in 0..2 {
            let rest = self.row_sum(&self.board, side) as u8;
            for i in 1..=self.rules_h {
                let k = self.index(side, i);
                self.board[k] = 0;
            }
            self.stores[side] += rest;
        }
        self.over = true;
    }

    /// Plays legal house `i` with the position-only end rules (majority, no legal move).
    pub fn play(&self, r: &RefRules, i: usize) -> RefPos {
        let sown = self.sow(i, r.slam);
        let mut p = *self;
        p.board = sown.board;
        p.stores[self.to_move] += sown.captured;
        p.to_move = 1 - self.to_move;
        if r.majority != Major::Off && p.majority_reached() {
            if r.majority == Major::Collect {
                p.collect_rows();
            }
            p.over = true;
            p.to_move = 0;
            return p;
        }
        if p.moves(r).is_empty() {
            p.collect_rows();
            p.to_move = 0;
        }
        p
    }

    /// Each player's final count in half seeds (OW-6.5, OW-9.4), `None` while not over.
    pub fn final_half(&self, r: &RefRules) -> Option<[u32; 2]> {
        if !self.over {
            return None;
        }
        let left: u32 = self.board.iter().map(|&c| u32::from(c)).sum();
        let nobody = r.majority == Major::Stop && self.majority_reached();
        let each = if nobody { 0 } else { left };
        Some([
            2 * u32::from(self.stores[0]) + each,
            2 * u32::from(self.stores[1]) + each,
        ])
    }

    /// Perft with the position-only end rules (OW-11.4).
    pub fn perft(&self, r: &RefRules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        let moves = self.moves(r);
        if depth == 1 {
            return moves
                .iter()
                .filter(|&&i| !std::hint::black_box(self.play(r, i)).board.is_empty())
                .count() as u64;
        }
        moves
            .iter()
            .map(|&i| self.play(r, i).perft(r, depth - 1))
            .sum()
    }

    /// The position notation of OW-9.1.
    pub fn notation(&self) -> String {
        let h = self.rules_h;
        let mut counts: Vec<String> = Vec::new();
        for side in 0..2 {
            for i in 1..=h {
                counts.push(self.board[self.index(side, i)].to_string());
            }
            counts.push(self.stores[side].to_string());
        }
        let side = match (self.over, self.to_move) {
            (true, _) => "-",
            (false, 0) => "S",
            _ => "N",
        };
        format!("{} {side}", counts.join(","))
    }
}

/// A reference game: the position, every position since the start (for repetition) and the
/// plies played, with all four end rules of OW-6 in their order.
#[derive(Clone, Debug)]
pub struct RefGame {
    pub rules: RefRules,
    pub pos: RefPos,
    pub seen: Vec<RefPos>,
    pub plies: usize,
}

impl RefGame {
    pub fn new(rules: RefRules, start: RefPos) -> RefGame {
        RefGame {
            rules,
            pos: start,
            seen: vec![start],
            plies: 0,
        }
    }

    /// Plays legal house `i`; returns which rule ended the game, if one did.
    pub fn play(&mut self, i: usize) -> Option<&'static str> {
        let r = self.rules;
        let before = self.pos;
        let sown = before.sow(i, r.slam);
        let mut p = before;
        p.board = sown.board;
        p.stores[before.to_move] += sown.captured;
        p.to_move = 1 - before.to_move;
        self.plies += 1;
        let mut why = None;
        // OW-6.1
        if r.majority != Major::Off && p.majority_reached() {
            if r.majority == Major::Collect {
                p.collect_rows();
            }
            p.over = true;
            why = Some("majority");
        }
        // OW-6.2: occurrences of (houses, stores, side), this one included.
        if why.is_none() {
            let occurrences = 1 + self.seen.iter().filter(|q| **q == p).count();
            self.seen.push(p);
            if r.repetition.is_some_and(|n| occurrences >= n) {
                if r.split {
                    p.over = true;
                } else {
                    p.collect_rows();
                }
                why = Some("repetition");
            }
        }
        // OW-6.3
        if why.is_none() && p.moves(&r).is_empty() {
            p.collect_rows();
            why = Some("no move");
        }
        // OW-6.4
        if why.is_none() && r.move_limit.is_some_and(|n| self.plies >= n) {
            p.collect_rows();
            why = Some("move limit");
        }
        if p.over {
            p.to_move = 0;
        }
        self.pos = p;
        why
    }
}
