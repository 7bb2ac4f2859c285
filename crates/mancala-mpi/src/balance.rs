//! How a level of the database build is shared between the ranks: by measured cost.
//!
//! A level's positions come in runs of one seed count `a` in the mover's row
//! (`Level::by_own_seeds`); a position's work grows with its moves, so with `a` (none at
//! a = 0, where the game is over). The model keeps, for each `a`, the seconds a position took
//! on the last layer that had such positions, pooled over the ranks, and for each rank its
//! speed: how much modelled work it did per second of busy time (ranks on a loaded or slower
//! machine get less). Each level is then cut into one contiguous share a rank, each share
//! holding the rank's part of the level's modelled cost in proportion to its speed.
//!
//! Before anything is measured (and with `--balance count`) every position costs the same
//! and every rank is as fast: the shares are equal counts of positions.

/// Which model cuts the levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balance {
    /// Measured cost per seed count in the mover's row and measured rank speeds.
    Cost,
    /// Equal counts of positions (for comparison).
    Count,
}

/// The seconds a position costs by the seeds in its mover's row, and each rank's speed.
#[derive(Debug, Clone)]
pub struct CostModel {
    balance: Balance,
    /// Seconds a position by `a` (0 until measured).
    per_position: Vec<f64>,
    /// Relative speed of each rank (modelled seconds of work done per busy second).
    speed: Vec<f64>,
}

/// Fewer positions than this of one seed count on one layer are too few to time.
const MIN_SAMPLE: f64 = 4096.0;

/// One rank's measurements on one layer: for each `a`, the busy seconds and positions.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Busy seconds by `a`.
    pub seconds: Vec<f64>,
    /// Positions computed by `a`.
    pub positions: Vec<f64>,
}

impl Sample {
    /// An empty sample for seed counts 0..=`max_seeds`.
    #[must_use]
    pub fn new(max_seeds: u32) -> Sample {
        let n = max_seeds as usize + 1;
        Sample {
            seconds: vec![0.0; n],
            positions: vec![0.0; n],
        }
    }

    /// The sample as one vector (seconds, then positions), to gather.
    #[must_use]
    pub fn flat(&self) -> Vec<f64> {
        let mut v = self.seconds.clone();
        v.extend_from_slice(&self.positions);
        v
    }

    /// The samples of every rank from the gathered [`Sample::flat`] vectors.
    #[must_use]
    pub fn unflatten(all: &[f64], max_seeds: u32) -> Vec<Sample> {
        let n = max_seeds as usize + 1;
        all.chunks(2 * n)
            .map(|c| Sample {
                seconds: c[..n].to_vec(),
                positions: c[n..].to_vec(),
            })
            .collect()
    }
}

impl CostModel {
    /// The model before any measurement, for seed counts 0..=`max_seeds` and `ranks` ranks.
    #[must_use]
    pub fn new(balance: Balance, max_seeds: u32, ranks: usize) -> CostModel {
        CostModel {
            balance,
            per_position: vec![0.0; max_seeds as usize + 1],
            speed: vec![1.0; ranks],
        }
    }

    /// The modelled seconds of a position with `a` seeds in the mover's row: the measured
    /// figure, else that of the nearest smaller measured `a`, else of the nearest larger,
    /// else 1 (nothing measured: every position alike).
    #[must_use]
    pub fn cost(&self, a: u32) -> f64 {
        if self.balance == Balance::Count {
            return 1.0;
        }
        let a = (a as usize).min(self.per_position.len() - 1);
        let known = |i: &usize| self.per_position[*i] > 0.0;
        (0..=a)
            .rev()
            .find(known)
            .or_else(|| (a..self.per_position.len()).find(known))
            .map_or(1.0, |i| self.per_position[i])
    }

    /// The ranks' relative speeds.
    #[cfg(test)]
    #[must_use]
    pub fn speeds(&self) -> &[f64] {
        &self.speed
    }

    /// The cut points of a level made of `runs` (`(a, positions)`, as
    /// `Level::by_own_seeds`): `ranks + 1` increasing positions from 0 to the level's
    /// length; rank r computes `cuts[r]..cuts[r + 1]`.
    #[must_use]
    pub fn cuts(&self, runs: &[(u32, u64)]) -> Vec<u64> {
        let ranks = self.speed.len();
        let len: u64 = runs.iter().map(|r| r.1).sum();
        let costs: Vec<f64> = runs.iter().map(|&(a, _)| self.cost(a).max(1e-12)).collect();
        let total: f64 = runs.iter().zip(&costs).map(|(r, c)| r.1 as f64 * c).sum();
        let speed_sum: f64 = self.speed.iter().sum();
        let mut cuts = Vec::with_capacity(ranks + 1);
        cuts.push(0);
        let mut faster = 0.0;
        for r in 0..ranks.saturating_sub(1) {
            faster += self.speed[r];
            let target = total * faster / speed_sum;
            // The first position at which the cost so far reaches `target`.
            let mut cum = 0.0;
            let mut start = 0u64;
            let mut at = len;
            for (run, &c) in runs.iter().zip(&costs) {
                let here = run.1 as f64 * c;
                if cum + here >= target {
                    let inside = ((target - cum) / c).round() as u64;
                    at = start + inside.min(run.1);
                    break;
                }
                cum += here;
                start += run.1;
            }
            let prev = *cuts.last().expect("cuts start with 0");
            cuts.push(at.clamp(prev, len));
        }
        cuts.push(len);
        cuts
    }

    /// Learns from one layer's samples, one a rank: the cost by `a` (for each `a` timed on
    /// enough positions over all ranks) and each rank's speed (when it was busy long enough
    /// to time).
    pub fn learn(&mut self, samples: &[Sample]) {
        if self.balance == Balance::Count {
            return;
        }
        // Cost by a, pooled over the ranks, each rank's time scaled by its current speed.
        for a in 0..self.per_position.len() {
            let n: f64 = samples.iter().map(|s| s.positions[a]).sum();
            if n < MIN_SAMPLE {
                continue;
            }
            let t: f64 = samples
                .iter()
                .zip(&self.speed)
                .map(|(s, &w)| s.seconds[a] * w)
                .sum();
            if t > 0.0 {
                self.per_position[a] = t / n;
            }
        }
        // Speed: modelled seconds of the work done per busy second.
        let mut speeds = self.speed.clone();
        for (r, s) in samples.iter().enumerate() {
            let busy: f64 = s.seconds.iter().sum();
            let n: f64 = s.positions.iter().sum();
            if busy < 1e-3 || n < MIN_SAMPLE {
                continue;
            }
            let work: f64 = (0..s.positions.len())
                .map(|a| s.positions[a] * self.cost(a as u32))
                .sum();
            speeds[r] = work / busy;
        }
        let mean = speeds.iter().sum::<f64>() / speeds.len() as f64;
        if mean > 0.0 && mean.is_finite() {
            self.speed = speeds.iter().map(|s| s / mean).collect();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_measuring_the_shares_are_equal_counts() {
        let m = CostModel::new(Balance::Cost, 10, 3);
        assert_eq!(m.cuts(&[(0, 10), (1, 20), (2, 30)]), vec![0, 20, 40, 60]);
        let m = CostModel::new(Balance::Count, 10, 4);
        assert_eq!(m.cuts(&[(3, 2)]), vec![0, 1, 1, 2, 2]);
        assert_eq!(m.cuts(&[(3, 0)]), vec![0, 0, 0, 0, 0]);
    }

    #[test]
    fn measured_costs_move_the_cuts() {
        let mut m = CostModel::new(Balance::Cost, 4, 2);
        // Both ranks alike; positions of a = 2 take three times as long as a = 1's.
        let s = Sample {
            seconds: vec![0.0, 1.0, 3.0, 0.0, 0.0],
            positions: vec![0.0, 1e6, 1e6, 0.0, 0.0],
        };
        m.learn(&[s.clone(), s]);
        assert!((m.cost(2) / m.cost(1) - 3.0).abs() < 1e-9);
        // a = 3 is not measured: it costs as a = 2; a = 0 as a = 1.
        assert_eq!(m.cost(3), m.cost(2));
        assert_eq!(m.cost(0), m.cost(1));
        // 1000 positions of a = 1 and 1000 of a = 2: total cost 4000 units, half is 2000:
        // the 1000 of a = 1 and a third of the others.
        assert_eq!(m.cuts(&[(1, 1000), (2, 1000)]), vec![0, 1333, 2000]);
        // Rank 1 twice as fast as rank 0 on the same work: it gets two thirds.
        let slow = Sample {
            seconds: vec![0.0, 2.0, 0.0, 0.0, 0.0],
            positions: vec![0.0, 1e6, 0.0, 0.0, 0.0],
        };
        let fast = Sample {
            seconds: vec![0.0, 1.0, 0.0, 0.0, 0.0],
            positions: vec![0.0, 1e6, 0.0, 0.0, 0.0],
        };
        let mut m = CostModel::new(Balance::Cost, 4, 2);
        m.learn(&[slow, fast]);
        let w = m.speeds();
        assert!((w[1] / w[0] - 2.0).abs() < 1e-9);
        assert_eq!(m.cuts(&[(1, 3000)]), vec![0, 1000, 3000]);
    }

    #[test]
    fn cuts_are_increasing_and_cover_the_level() {
        let mut m = CostModel::new(Balance::Cost, 6, 5);
        let s = Sample {
            seconds: vec![0.0, 1.0, 2.0, 9.0, 0.5, 0.0, 0.0],
            positions: vec![1e5; 7],
        };
        m.learn(&vec![s; 5]);
        for runs in [
            vec![(0, 7), (3, 1), (4, 100_000)],
            vec![(6, 3)],
            vec![(0, 1), (1, 1), (2, 1), (3, 1)],
        ] {
            let c = m.cuts(&runs);
            let len: u64 = runs.iter().map(|r| r.1).sum();
            assert_eq!(c.len(), 6);
            assert_eq!((c[0], c[5]), (0, len));
            assert!(c.windows(2).all(|w| w[0] <= w[1]), "{c:?}");
        }
    }
}
