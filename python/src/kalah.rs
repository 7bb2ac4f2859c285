//! `Kalah`: a Kalah(m, n) game with its history, a `Game` (`game.rs`) holding a
//! `GameRecord<KalahPosition>`, with Kalah's board, stores, options and pie-rule swap.
//!
//! Moves cross the boundary as Python values: a house number `1..=m` (an `int`, counted
//! from the mover's left, `docs/notation.md`) or the string `"swap"` (the pie-rule swap).
//! Move texts (`"3"`, `"swap"`) are accepted too.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyString;

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::{AnyGame, GameKind, GameRecord, Rules};

use crate::errors::{error, Kind};
use crate::game::{game_subclass, house_move_from_py, record_of, PyGame};
use crate::side::SideArg;

/// The Kalah rules named by `text`, refusing another game's rule set with a pointer to its
/// class.
///
/// # Errors
/// `RulesError` with the parser's message.
pub fn parse_rules(py: Python<'_>, text: &str) -> PyResult<KalahRules> {
    let game = crate::game::new_game(py, GameKind::Kalah, text, None)?;
    match game.rules() {
        Rules::Kalah(r) => Ok(r),
        other => Err(error(
            py,
            Kind::Rules,
            format!("`{other}` is not a Kalah rule set"),
        )),
    }
}

/// The Python value of a move: the house number as an `int`, or `"swap"`.
pub fn move_to_py(py: Python<'_>, mv: KalahMove) -> Py<PyAny> {
    match mv {
        KalahMove::House(h) => h.into_pyobject(py).map(|o| o.into_any().unbind()),
        KalahMove::Swap => Ok(PyString::new(py, "swap").into_any().unbind()),
    }
    .unwrap_or_else(|never| match never {})
}

impl PyGame for KalahPosition {
    type Class = Kalah;
    const CLASS_NAME: &'static str = "Kalah";
    const ANY: fn(GameRecord<Self>) -> AnyGame = AnyGame::Kalah;

    fn move_to_py(py: Python<'_>, mv: KalahMove) -> Py<PyAny> {
        move_to_py(py, mv)
    }

    /// An `int` is a house number, a `str` move notation (`"3"`, `"swap"`), as
    /// `house_move_from_py` (in `game.rs`) reads them.
    fn move_from_py(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        position: &KalahPosition,
    ) -> PyResult<KalahMove> {
        house_move_from_py(
            py,
            obj,
            "a Kalah move is a house number (int) or \"swap\"",
            position.rules().houses(),
            KalahMove::House,
        )
    }
}

game_subclass!(
    /// A game of Kalah(m, n): the rules, the start position, every move played and the current
    /// position. The methods every game has are those of `Game`.
    ///
    /// `Kalah(rules="standard", position=None)`: `rules` is a rule-set text (`"standard"`,
    /// `"manchester"`, `"kalah(6,3)+empty_capture"`, `docs/notation.md`); `position` a
    /// position in notation (`"4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"`) to start from instead of the
    /// start position. Raises `RulesError` or `NotationError` with the library's message.
    Kalah,
    KalahPosition,
    "standard"
);

/// The Kalah record of a `Kalah` object.
fn record<'a>(slf: &'a PyRef<'_, Kalah>) -> PyResult<&'a GameRecord<KalahPosition>> {
    record_of(slf)
}

/// The current position of a `Kalah` object.
///
/// # Errors
/// Only if the object holds no Kalah game (never for objects made by the class).
pub fn position_of(game: &PyRef<'_, Kalah>) -> PyResult<KalahPosition> {
    Ok(*record(game)?.position())
}

#[pymethods]
impl Kalah {
    /// South's store minus North's, in seeds: the final score once the game is over (the
    /// remaining seeds swept, or discarded under `discard_remaining`), the store difference
    /// so far while it goes on.
    fn score(slf: PyRef<'_, Self>) -> PyResult<i32> {
        Ok(record(&slf)?.position().store_difference())
    }

    /// The board as a NumPy array of `int64`, shape `(2m + 2,)`, in notation order: South's
    /// houses 1..m (from South's left), South's store, North's houses 1..m (from North's
    /// left), North's store. A new array each time (changing it changes nothing).
    #[getter]
    fn board<'py>(slf: PyRef<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let slots: Vec<i64> = record(&slf)?
            .position()
            .slots()
            .iter()
            .map(|&s| i64::from(s))
            .collect();
        Ok(PyArray1::from_vec(py, slots))
    }

    /// Seeds in `side`'s store (`side`: a `Side`, or 0 for South and 1 for North).
    fn store(slf: PyRef<'_, Self>, side: SideArg) -> PyResult<u8> {
        Ok(record(&slf)?.position().store(side.0.into()))
    }

    /// m, the houses a row.
    #[getter]
    fn houses(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(record(&slf)?.position().rules().houses())
    }

    /// n, the seeds each house holds at the start.
    #[getter]
    fn seeds(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(record(&slf)?.position().rules().seeds())
    }

    /// The names of the rule options in force (`["empty_capture"]` for
    /// `"kalah(6,4)+empty_capture"`), in the library's order.
    #[getter]
    fn options(slf: PyRef<'_, Self>) -> PyResult<Vec<&'static str>> {
        Ok(record(&slf)?
            .position()
            .rules()
            .options()
            .iter()
            .map(|o| o.name())
            .collect())
    }

    /// Whether the pie rule offers the swap to the player to move now.
    #[getter]
    fn swap_offered(slf: PyRef<'_, Self>) -> PyResult<bool> {
        Ok(record(&slf)?.position().swap_offered())
    }

    /// Whether the players have exchanged sides (a swap was played): the first player then
    /// plays North.
    #[getter]
    fn swapped(slf: PyRef<'_, Self>) -> PyResult<bool> {
        Ok(record(&slf)?.swapped())
    }
}

/// The game's observation and action encoding for `VectorGames` ([`VecGame`](crate::vector::VecGame)),
/// as `KalahCodec` of `mancala/envs/_codec.py` writes it.
mod encoding {
    use mancala_core::kalah::rules::KalahOption;
    use mancala_core::kalah::{KalahMove, KalahPosition};
    use mancala_core::{GameRecord, Side};
    use std::mem::MaybeUninit;

    use crate::vector::{Actions, NoRoom, VecGame};

    /// Writes the `N` low lanes of `first` (bits 8k..8k+7 for lane k) into `out[..N]` and
    /// those of `second` into `out[N..2N]`, each widened to an `i64`.
    #[inline(always)]
    fn widen<const N: usize>(out: &mut [MaybeUninit<i64>], first: u64, second: u64) {
        let (mine, theirs) = out.split_at_mut(N);
        for (k, o) in mine.iter_mut().enumerate() {
            o.write(i64::from((first >> (8 * k)) as u8));
        }
        for (k, o) in theirs[..N].iter_mut().enumerate() {
            o.write(i64::from((second >> (8 * k)) as u8));
        }
    }

    /// For each mask of non-empty houses (bit h − 1 for house h, at most 8 houses): the
    /// actions of its houses in increasing order (house h is action h − 1), and how many.
    static HOUSE_ACTIONS: ([[u16; 8]; 256], [u8; 256]) = {
        let mut actions = [[0u16; 8]; 256];
        let mut counts = [0u8; 256];
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            let mut h = 0;
            while h < 8 {
                if bits & (1 << h) != 0 {
                    actions[bits][n] = h as u16;
                    n += 1;
                }
                h += 1;
            }
            counts[bits] = n as u8;
            bits += 1;
        }
        (actions, counts)
    };

    impl VecGame for KalahPosition {
        fn all_moves(start: &Self) -> Vec<KalahMove> {
            let r = start.rules();
            let mut v: Vec<KalahMove> = (1..=r.houses()).map(KalahMove::House).collect();
            if r.has(KalahOption::PieRule) {
                v.push(KalahMove::Swap);
            }
            v
        }
        fn observation_size(start: &Self) -> usize {
            let r = start.rules();
            2 * usize::from(r.houses()) + 2 + usize::from(r.has(KalahOption::PieRule))
        }
        fn high(start: &Self) -> i64 {
            let r = start.rules();
            2 * i64::from(r.houses()) * i64::from(r.seeds())
        }
        fn observe(record: &GameRecord<Self>, side: Side, out: &mut [MaybeUninit<i64>]) {
            let p = record.position();
            // The packed board, mover-relative: `own` is the side to move's half (South's once
            // the game is over), houses 1..m in lanes 0..m-1 and the store in lane m.
            let half = usize::from(p.rules().houses()) + 1;
            let (own, opp) = p.mover_relative();
            let (first, second) = if p.side_to_move().unwrap_or(Side::South) == side {
                (own, opp)
            } else {
                (opp, own)
            };
            // Each half's m + 1 lanes widened, lowest first, in a copy made for each size
            // (m <= 7) so that the compiler unrolls it.
            match half {
                2 => widen::<2>(out, first, second),
                3 => widen::<3>(out, first, second),
                4 => widen::<4>(out, first, second),
                5 => widen::<5>(out, first, second),
                6 => widen::<6>(out, first, second),
                7 => widen::<7>(out, first, second),
                _ => widen::<8>(out, first, second),
            }
            if p.rules().has(KalahOption::PieRule) {
                out[2 * half].write(i64::from(p.swap_offered()));
            }
        }
        /// House h (bit h − 1 of the mover's non-empty houses) is action h − 1, then the swap
        /// (the last action) when offered: the order of `legal_moves`. The houses' actions
        /// are read from a table by the mask of non-empty houses and the list made at once
        /// (at most 7 houses and the swap: the list's 16 never overflow).
        fn legal_actions(p: &Self, moves: &[KalahMove], out: &mut Actions) -> Result<(), NoRoom> {
            let bits = usize::from(p.house_move_mask());
            let mut buf = [0u16; 16];
            buf[..8].copy_from_slice(&HOUSE_ACTIONS.0[bits]);
            let mut n = usize::from(HOUSE_ACTIONS.1[bits]);
            if p.swap_offered() && !p.is_over() && n < buf.len() {
                if let Some(swap) = moves
                    .len()
                    .checked_sub(1)
                    .and_then(|a| u16::try_from(a).ok())
                {
                    buf[n] = swap;
                    n += 1;
                }
            }
            *out = Actions::from_buf_and_len(buf, n);
            Ok(())
        }
        /// House h is action h − 1; the swap is the last action.
        fn action_index(moves: &[KalahMove], mv: KalahMove) -> Option<usize> {
            match mv {
                KalahMove::House(h) => usize::from(h).checked_sub(1),
                KalahMove::Swap => moves.len().checked_sub(1),
            }
        }
        /// South's store minus North's (after the sweep, the outcome's score), from `side`.
        fn margin(record: &GameRecord<Self>, side: Side) -> Option<f64> {
            let score = f64::from(record.position().store_difference());
            Some(if side == Side::South { score } else { -score })
        }
    }
}
