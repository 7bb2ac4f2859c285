//! The tree walk of one iteration of the anytime search ([`super`]): the negamax
//! alpha-beta with principal-variation search over the children of a node (`negamax`, in
//! named steps: `enter`, `probe`, `score_leaves`, `ordered_kids`, `search_kids`), the budget
//! and cancel checks, the exact values of the endgame databases at the nodes they hold, and
//! the transposition-table value conversions. The algorithm and its sources are in the
//! parent module's documentation.

use std::sync::atomic::Ordering;
use std::time::Instant;

use mancala_core::{HistoryEnd, Side};
use smallvec::SmallVec;

use super::{Engine, CHECK_EVERY, INF, MAX_DEPTH};
use crate::engine::eval::{self, Evaluate, DECISIVE};
use crate::engine::tt::{Bound, Entry};
use crate::exact_values::ExactValues;

/// A child of a node being searched: its move, the position it leads to, its index among the
/// legal moves and its ordering keys.
pub(super) struct Kid<G: Evaluate> {
    order: i32,
    hint: i32,
    index: u8,
    mv: G::Move,
    child: G,
}

impl<G: Evaluate> Engine<G> {
    pub(super) fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    #[inline]
    pub(super) fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        // Not `nodes % CHECK_EVERY == 0`: leaves scored in place also count nodes, so the
        // count can step over a multiple between two calls and the look would be skipped.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.cancelled() {
                return true;
            }
            if let Some(d) = self.deadline {
                return Instant::now() >= d;
            }
        }
        false
    }

    /// The value of a finished `child` for the player who moved from `side` (negated across
    /// a swap), shortened by the distance from the root when decisive.
    #[inline]
    pub(super) fn final_value(child: &G, side: Side, swaps: bool, ply: usize) -> i32 {
        let v = child.final_value(side);
        let v = if swaps { -v } else { v };
        let d = ply as i32 + 1;
        if v > DECISIVE {
            v - d
        } else if v < -DECISIVE {
            v + d
        } else {
            v
        }
    }

    /// The exact value of `pos` from the database, for the player to move, if it holds it
    /// and the history cannot change it: [`Evaluate::margin_score`] of the seeds stored plus
    /// the database's value, the final margin under best play. `on_path`: `pos` is the last position of the path
    /// (a node searched), else a child of the last position (a leaf scored in place).
    #[inline]
    pub(super) fn exact_value(&self, pos: &G, on_path: bool) -> Option<i32> {
        let db = self.db.as_deref()?;
        if !self.history_ok(pos, on_path) {
            return None;
        }
        db.value_of(pos)
            .ok()
            .map(|v| G::margin_score(pos.stored_margin() + v))
    }

    /// The heuristic value of `pos` (not finished) for the player to move: the estimate of
    /// the estimates database where it holds `pos` ([`Engine::set_estimates`]), else the
    /// game's evaluation. An estimate whose margin m (seeds stored + value) exceeds the
    /// seeds in the houses S is a won game (a lost one below −S) whatever a cycle could
    /// change, when `pos` follows a capture (no position before it can recur) and no move
    /// limit can cut the game short (`docs/oware-databases.md`, "Abapa"): it gets the result
    /// bonus ([`Evaluate::margin_score`]). `on_path`: as for [`Engine::history_ok`].
    #[inline]
    pub(super) fn heuristic(&self, pos: &G, on_path: bool) -> i32 {
        if let Some(v) = self.estimates.as_deref().and_then(|db| db.estimate_of(pos)) {
            let m = pos.stored_margin() + v;
            let seeds = i32::try_from(pos.house_seeds()).unwrap_or(i32::MAX);
            if m.abs() > seeds
                && self.rules.move_limit.is_none()
                && self.stretch_before(pos, on_path).is_empty()
            {
                return G::margin_score(m);
            }
            return eval::SEED * m;
        }
        pos.evaluate()
    }

    /// The positions since the last irreversible move before `x` (module documentation,
    /// "History"), which `x` or a later position can repeat; empty without history rules.
    /// `on_path`: `x` is the last position of the path (a node searched), else a child of
    /// the last position (a leaf scored in place).
    fn stretch_before(&self, x: &G, on_path: bool) -> &[G] {
        if on_path {
            let end = self.path.len().saturating_sub(1);
            let from = self.stretch.last().copied().unwrap_or(0).min(end);
            &self.path[from..end]
        } else {
            match self.path.last() {
                Some(parent) if !parent.is_irreversible(x) => {
                    &self.path[self.stretch.last().copied().unwrap_or(0)..]
                }
                _ => &[],
            }
        }
    }

    /// Whether the history cannot change the database's value of `x` (`docs/awari.md`, "The
    /// engine"): with repetition count k, no position of the stretch
    /// before `x` (the positions since the last irreversible move, a capture) has occurred
    /// more than k − 2 times. Then the player with a winning strategy by the database's
    /// attractors never meets a position a k-th time, and a repetition the other player can
    /// force ends the game at the even split, worth no more to him than the value. Always
    /// `true` without a repetition rule. Positions are counted by their table hash (a
    /// collision can only count more, so the answer stays safe).
    pub(super) fn history_ok(&self, x: &G, on_path: bool) -> bool {
        let Some(k) = self.rules.repetition else {
            return true;
        };
        let stretch = self.stretch_before(x, on_path);
        if stretch.is_empty() {
            return true;
        }
        let most = usize::from(k).saturating_sub(2);
        if most == 0 {
            return false;
        }
        let mut keys: SmallVec<[u64; 64]> = stretch.iter().map(Evaluate::hash_key).collect();
        keys.sort_unstable();
        let mut run = 0;
        for (i, key) in keys.iter().enumerate() {
            run = if i > 0 && keys[i - 1] == *key {
                run + 1
            } else {
                1
            };
            if run > most {
                return false;
            }
        }
        true
    }

    /// The static value of `child` (reached by a move from a position with `side` to move)
    /// for the player who moved: final value, database value or heuristic evaluation, and
    /// whether it was heuristic.
    #[inline]
    pub(super) fn static_value(
        &self,
        child: &G,
        side: Side,
        swaps: bool,
        ply: usize,
    ) -> (i32, bool) {
        match child.side_to_move() {
            None => (Self::final_value(child, side, swaps, ply), false),
            Some(s) => {
                let (v, heuristic) = match self.exact_value(child, false) {
                    Some(v) => (v, false),
                    None => (self.heuristic(child, false), true),
                };
                if (s == side) != swaps {
                    (v, heuristic)
                } else {
                    (-v, heuristic)
                }
            }
        }
    }

    pub(super) fn set_pv(&mut self, ply: usize, mv: G::Move, with_child: bool) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if with_child {
            line.extend_from_slice(&tail[0]);
        }
    }

    /// The position `mv` leads to from `pos` (at `ply`), with the history rules applied
    /// (module documentation, "History"): finished by [`Game::end_by`] when it repeats a
    /// position of the path for the rule set's repetition count (OW-6.2), or when it is
    /// reached at the move limit (OW-6.4); the plain child otherwise, and always for games
    /// without history rules.
    #[inline]
    pub(super) fn child_of(&self, pos: &G, mv: G::Move, ply: usize) -> G {
        let child = pos.play_unchecked(mv);
        if self.rules.is_none() || child.is_over() {
            return child;
        }
        if let Some(k) = self.rules.repetition {
            // After an irreversible move nothing on the path can recur.
            if !pos.is_irreversible(&child) {
                let from = self.stretch.last().copied().unwrap_or(0);
                let earlier = self.path[from..].iter().filter(|&&p| p == child).count();
                if earlier + 1 >= usize::from(k) {
                    return child.end_by(HistoryEnd::Repetition);
                }
            }
        }
        if let Some(limit) = self.rules.move_limit {
            if self.root_plies + ply as u64 + 1 >= u64::from(limit) {
                return child.end_by(HistoryEnd::MoveLimit);
            }
        }
        child
    }

    /// The table key of `pos` at `ply`: its hash, and when the move limit is within reach of
    /// any search from it ([`MAX_DEPTH`] plies), the plies left to the limit, since the value
    /// then depends on them.
    #[inline]
    pub(super) fn key(&self, pos: &G, ply: usize) -> u64 {
        let key = match self.sets.last() {
            Some(&set) if self.rules.repetition.is_some() => key_with_set(pos.hash_key(), set),
            _ => pos.hash_key(),
        };
        match self.rules.move_limit {
            Some(limit) => {
                let left = u64::from(limit).saturating_sub(self.root_plies + ply as u64);
                if left <= u64::from(MAX_DEPTH) {
                    key ^ eval::mix64(left.wrapping_add(0x9e37_79b9_7f4a_7c15))
                } else {
                    key
                }
            }
            None => key,
        }
    }

    /// Searches a non-final `child` of `parent`: same sign and window when the same player
    /// moves again, negated otherwise. The child is on the path while it is searched.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        parent: &G,
        child: &G,
        same_player: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let tracked = !self.rules.is_none();
        if tracked {
            let from = if parent.is_irreversible(child) {
                self.path.len()
            } else {
                self.stretch.last().copied().unwrap_or(0)
            };
            let set = match self.sets.last() {
                Some(&set) if from != self.path.len() => set,
                _ => 0,
            };
            self.sets.push(set.wrapping_add(occurrence_hash(child)));
            self.path.push(*child);
            self.stretch.push(from);
        }
        let v = if same_player {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        };
        if tracked {
            self.path.pop();
            self.stretch.pop();
            self.sets.pop();
        }
        v
    }

    /// Counts the node and looks at the budget: `true` when the search must stop (and then
    /// marks it aborted).
    #[inline]
    pub(super) fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.can_abort && self.out_of_budget() {
            self.aborted = true;
            return true;
        }
        false
    }

    /// The table's word on `key` at `ply` with `depth` plies to go and the window
    /// (`alpha`, `beta`): `Err(value)` when a stored value decides the node (no cut-offs at
    /// the root nor in principal-variation nodes, so that the principal variation is
    /// collected in full), else `Ok` with the stored best move's index, if any.
    pub(super) fn probe(
        &mut self,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<Option<u8>, i32> {
        let Some(e) = self.tt.probe(key) else {
            return Ok(None);
        };
        let pv_node = beta - alpha > 1;
        if ply > 0 && !pv_node && (e.complete || u32::from(e.depth) >= depth) {
            let v = from_tt(e.value, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cut {
                if !e.complete {
                    self.horizon += 1;
                }
                return Err(v);
            }
        }
        Ok(Some(e.best))
    }

    /// The last ply: every child of `pos` is scored in place (a finished game, a database
    /// value or the heuristic), no ordering needed. Returns the best value and its move's
    /// index, or `None` when the node budget ran out.
    pub(super) fn score_leaves(
        &mut self,
        pos: &G,
        side: Side,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, u8)> {
        let restricted = ply == 0 && !self.root_moves.is_empty();
        let mut best = -INF;
        let mut best_index = 0u8;
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if restricted && !self.root_moves.contains(&mv) {
                continue;
            }
            let child = self.child_of(pos, mv, ply);
            self.nodes += 1;
            if self.can_abort && self.nodes >= self.node_limit {
                self.aborted = true;
                return None;
            }
            let (v, heuristic) = self.static_value(&child, side, pos.swaps_players(mv), ply);
            if heuristic {
                self.horizon += 1;
            }
            if v > best {
                best = v;
                best_index = i as u8;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, mv, false);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_index))
    }

    /// The children of `pos` in the order they are searched: the table move, the killers,
    /// then the game's hint (higher first), then the static value, then the move order.
    pub(super) fn ordered_kids(
        &self,
        pos: &G,
        side: Side,
        tt_best: Option<u8>,
        ply: usize,
    ) -> SmallVec<[Kid<G>; 16]> {
        let restricted = ply == 0 && !self.root_moves.is_empty();
        let killers = self.killers[ply];
        let mut kids: SmallVec<[Kid<G>; 16]> = SmallVec::new();
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if restricted && !self.root_moves.contains(&mv) {
                continue;
            }
            let child = self.child_of(pos, mv, ply);
            let (order, hint) = if tt_best == Some(i as u8) {
                (i32::MAX, 0)
            } else if killers[0] == Some(mv) {
                (i32::MAX - 1, 0)
            } else if killers[1] == Some(mv) {
                (i32::MAX - 2, 0)
            } else {
                let v = self
                    .static_value(&child, side, pos.swaps_players(mv), ply)
                    .0;
                (v, pos.order_hint(mv, &child))
            };
            kids.push(Kid {
                order,
                hint,
                index: i as u8,
                mv,
                child,
            });
        }
        kids.sort_unstable_by(|a, b| {
            let class = |k: &Kid<G>| k.order >= i32::MAX - 2;
            class(b)
                .cmp(&class(a))
                .then(b.hint.cmp(&a.hint))
                .then(b.order.cmp(&a.order))
                .then(a.index.cmp(&b.index))
        });
        kids
    }

    /// Searches the ordered `kids` of `pos` to `depth - 1` plies by principal-variation
    /// search (the first with the full window, the others with a null window, re-searched
    /// on a fail-high); a killer move is kept at a cut-off. Returns the best value and its
    /// move's index, or `None` when the search was aborted.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_kids(
        &mut self,
        pos: &G,
        side: Side,
        kids: &[Kid<G>],
        tt_best: Option<u8>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, u8)> {
        let killers = self.killers[ply];
        let mut best = -INF;
        let mut best_index = 0u8;
        for (n, kid) in kids.iter().enumerate() {
            let swaps = pos.swaps_players(kid.mv);
            let (v, searched) = match kid.child.side_to_move() {
                None => {
                    self.nodes += 1;
                    if self.can_abort && self.nodes >= self.node_limit {
                        self.aborted = true;
                    }
                    (Self::final_value(&kid.child, side, swaps, ply), false)
                }
                Some(s) => {
                    let same = (s == side) != swaps;
                    let d = depth - 1;
                    let c = &kid.child;
                    let v = if n == 0 {
                        self.child(pos, c, same, d, alpha, beta, ply + 1)
                    } else {
                        let v = self.child(pos, c, same, d, alpha, alpha + 1, ply + 1);
                        if !self.aborted && v > alpha && v < beta {
                            self.child(pos, c, same, d, alpha, beta, ply + 1)
                        } else {
                            v
                        }
                    };
                    (v, true)
                }
            };
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_index = kid.index;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, kid.mv, searched);
                    if v >= beta {
                        if tt_best != Some(kid.index) && killers[0] != Some(kid.mv) {
                            self.killers[ply] = [Some(kid.mv), killers[0]];
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_index))
    }

    /// Negamax alpha-beta of `pos` (not finished) to `depth` plies at `ply` from the root,
    /// within (`alpha`, `beta`), for the player to move: the budget, the database, the
    /// horizon, the table, the children (scored in place at the last ply, else ordered and
    /// searched), the table again.
    pub(super) fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        let Some(side) = pos.side_to_move() else {
            // Finished games are scored by their parent; this is only reached if a caller
            // passes one, and 0 keeps the search sound.
            return 0;
        };
        if ply > 0 {
            if let Some(v) = self.exact_value(pos, true) {
                return v;
            }
        }
        if depth == 0 || ply >= MAX_DEPTH as usize {
            self.horizon += 1;
            return self.heuristic(pos, true);
        }
        let key = self.key(pos, ply);
        let horizon_before = self.horizon;
        let tt_best = match self.probe(key, depth, alpha, beta, ply) {
            Ok(best) => best,
            Err(v) => return v,
        };
        let searched = if depth == 1 {
            self.score_leaves(pos, side, alpha, beta, ply)
        } else {
            let kids = self.ordered_kids(pos, side, tt_best, ply);
            self.search_kids(pos, side, &kids, tt_best, depth, alpha, beta, ply)
        };
        let Some((best, best_index)) = searched else {
            return 0;
        };
        if ply == 0 && !self.root_moves.is_empty() {
            // The value of a restricted root is not the position's value.
            return best;
        }
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key,
            value: to_tt(best, ply),
            depth: depth.min(255) as u8,
            bound,
            complete: self.horizon == horizon_before,
            best: best_index,
        });
        best
    }
}

/// The hash of one occurrence of `pos` in the multiset of positions since the last
/// irreversible move (module documentation, "History"): the multiset's hash is the wrapping
/// sum of its occurrences' hashes, so it does not depend on their order.
#[inline]
pub(super) fn occurrence_hash<G: Evaluate>(pos: &G) -> u64 {
    eval::mix64(pos.hash_key() ^ 0x6a09_e667_f3bc_c908)
}

/// The table key of a position of hash `key` after the multiset of hash `set`.
#[inline]
fn key_with_set(key: u64, set: u64) -> u64 {
    key ^ eval::mix64(set.wrapping_add(0xbb67_ae85_84ca_a73b))
}

/// A decisive value made relative to the node (distance counted from it) for the table.
#[inline]
pub(super) fn to_tt(v: i32, ply: usize) -> i32 {
    if v > DECISIVE {
        v + ply as i32
    } else if v < -DECISIVE {
        v - ply as i32
    } else {
        v
    }
}

/// A decisive table value made relative to the root again.
#[inline]
pub(super) fn from_tt(v: i32, ply: usize) -> i32 {
    if v > DECISIVE {
        v - ply as i32
    } else if v < -DECISIVE {
        v + ply as i32
    } else {
        v
    }
}
