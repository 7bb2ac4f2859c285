//! The Bao la Kete move: every decision of the player (start pit, direction, and the choices
//! the rules offer in the middle of a move), K-3.2, K-3.6, K-6.4, K-7.5, K-8.3b, decision 9.
//!
//! Notation (`Display`/`FromStr`, see [`crate::bao::notation`]):
//! `<pit>[<direction>][<kichwa>][<kuu choice>]`, e.g. `F6>`, `B3<`, `F3L+`, `F4`.

use crate::Side;

/// One of a player's 16 pits, named from its owner's point of view (K-3.2): `F1..F8` (front
/// row, left to right) and `B1..B8` (back row, `Bk` behind `Fk`).
///
/// Internally the pit is its ring index of K-3.3 (`F1..F8` = 0..7, `B8..B1` = 8..15), so a
/// clockwise step is index + 1 (mod 16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    /// The kuu's pit, F5 (K-3.5).
    pub const KUU: Pit = Pit(4);

    /// All 16 pits in notation order: `F1..F8`, then `B1..B8`.
    pub const ALL: [Pit; 16] = [
        Pit(0),
        Pit(1),
        Pit(2),
        Pit(3),
        Pit(4),
        Pit(5),
        Pit(6),
        Pit(7),
        Pit(15),
        Pit(14),
        Pit(13),
        Pit(12),
        Pit(11),
        Pit(10),
        Pit(9),
        Pit(8),
    ];

    /// The front pit `Fk`, k in 1..=8; `None` otherwise.
    #[must_use]
    pub const fn front(k: u8) -> Option<Pit> {
        if k >= 1 && k <= 8 {
            Some(Pit(k - 1))
        } else {
            None
        }
    }

    /// The back pit `Bk`, k in 1..=8; `None` otherwise.
    #[must_use]
    pub const fn back(k: u8) -> Option<Pit> {
        if k >= 1 && k <= 8 {
            Some(Pit(16 - k))
        } else {
            None
        }
    }

    /// The pit with ring index `i` (K-3.3), 0..=15; `None` otherwise.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Pit> {
        if i < 16 {
            Some(Pit(i))
        } else {
            None
        }
    }

    /// The ring index of K-3.3: `F1..F8` = 0..7, `B8..B1` = 8..15.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the pit is in the front (inner) row.
    #[inline]
    #[must_use]
    pub const fn is_front(self) -> bool {
        self.0 < 8
    }

    /// The absolute column 1..=8 of this pit of `owner`, counted from South's left (K-3.7):
    /// South's pit k is in column k, North's pit k in column 9 − k.
    #[must_use]
    pub const fn column(self, owner: Side) -> u8 {
        match owner {
            Side::South => self.number(),
            Side::North => 9 - self.number(),
        }
    }

    /// The pit's number 1..=8 counted from its owner's left, in its row.
    #[must_use]
    pub const fn number(self) -> u8 {
        if self.0 < 8 {
            self.0 + 1
        } else {
            16 - self.0
        }
    }
}

/// A sowing direction (K-3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Clockwise, `>`: along the mover's front row from left to right, back along the back
    /// row (ring index + 1).
    Clockwise,
    /// Anticlockwise, `<` (ring index − 1).
    Anticlockwise,
}

impl Direction {
    /// Both directions, clockwise first.
    pub const ALL: [Direction; 2] = [Direction::Clockwise, Direction::Anticlockwise];

    /// The notation symbol: `>` clockwise, `<` anticlockwise.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Direction::Clockwise => '>',
            Direction::Anticlockwise => '<',
        }
    }
}

/// The kichwa where captured seeds are sown first (K-6.4): left (F1, then clockwise) or right
/// (F8, then anticlockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kichwa {
    /// F1, sowing clockwise; notation `L`.
    Left,
    /// F8, sowing anticlockwise; notation `R`.
    Right,
}

impl Kichwa {
    /// The notation letter, `L` or `R`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Kichwa::Left => 'L',
            Kichwa::Right => 'R',
        }
    }

    /// The direction in which seeds are sown from this kichwa (towards the centre, K-3.6).
    #[must_use]
    pub const fn direction(self) -> Direction {
        match self {
            Kichwa::Left => Direction::Clockwise,
            Kichwa::Right => Direction::Anticlockwise,
        }
    }
}

/// The choice when a capturing lap ends in the mover's standing kuu whose facing pit is empty
/// (K-7.5 in the nemo stage; K-8.3b in the mtaji stage under [`super::SafariRule::Choice`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KuuChoice {
    /// End the move; the kuu stands. Notation `.`.
    Stop,
    /// Lift the kuu and sow on in the same direction; the kuu is destroyed. Notation `+`.
    Safari,
}

impl KuuChoice {
    /// The notation symbol: `.` stop, `+` safari.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            KuuChoice::Stop => '.',
            KuuChoice::Safari => '+',
        }
    }
}

/// A fully decided Bao la Kete move. It records only the choices the rules actually offer in
/// this move (decision 9); [`super::BaoPosition::play`] refuses a move that leaves out a
/// choice that arises or adds one that does not.
///
/// * nemo capture (K-7.1): `direction` is `None` (the direction comes from the kichwa);
///   `kichwa` is `Some` exactly for a capture from a central pit F3–F6 that does not win at
///   once (K-6.4);
/// * nemo takata (K-7.2) and every mtaji move (K-8.1, K-8.2): `direction` is `Some`,
///   `kichwa` is `None`;
/// * `kuu` is `Some` exactly when a capturing lap of the move ends in the mover's standing
///   kuu with the facing pit empty and the rules give a choice (K-7.5, K-8.3b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BaoMove {
    /// The start pit: the pit the seed goes into in the nemo stage, the pit lifted in the
    /// mtaji stage.
    pub pit: Pit,
    /// The sowing direction of the first lap, when the player chooses one.
    pub direction: Option<Direction>,
    /// The kichwa chosen for the first capture of a nemo move from a central pit.
    pub kichwa: Option<Kichwa>,
    /// Stop or safari when a capturing lap ends in the mover's kuu.
    pub kuu: Option<KuuChoice>,
}

impl BaoMove {
    /// A move that starts at `pit` and sows in `direction` (nemo takata, any mtaji move), with
    /// no mid-move choice.
    #[must_use]
    pub const fn sow(pit: Pit, direction: Direction) -> BaoMove {
        BaoMove {
            pit,
            direction: Some(direction),
            kichwa: None,
            kuu: None,
        }
    }

    /// A nemo capture at `pit` with no choice (a kimbi capture, or one that wins at once).
    #[must_use]
    pub const fn place(pit: Pit) -> BaoMove {
        BaoMove {
            pit,
            direction: None,
            kichwa: None,
            kuu: None,
        }
    }

    /// The same move with the kichwa choice set.
    #[must_use]
    pub const fn with_kichwa(self, kichwa: Kichwa) -> BaoMove {
        BaoMove {
            kichwa: Some(kichwa),
            ..self
        }
    }

    /// The same move with the stop/safari choice set.
    #[must_use]
    pub const fn with_kuu(self, choice: KuuChoice) -> BaoMove {
        BaoMove {
            kuu: Some(choice),
            ..self
        }
    }

    /// Every syntactically possible move (16 pits × 3 directions × 3 kichwa × 3 kuu
    /// choices, `None` included): 432 values, for exhaustive legality tests.
    #[must_use]
    pub fn all_raw() -> Vec<BaoMove> {
        let dirs = [
            None,
            Some(Direction::Clockwise),
            Some(Direction::Anticlockwise),
        ];
        let kis = [None, Some(Kichwa::Left), Some(Kichwa::Right)];
        let kuus = [None, Some(KuuChoice::Stop), Some(KuuChoice::Safari)];
        let mut v = Vec::with_capacity(432);
        for pit in Pit::ALL {
            for direction in dirs {
                for kichwa in kis {
                    for kuu in kuus {
                        v.push(BaoMove {
                            pit,
                            direction,
                            kichwa,
                            kuu,
                        });
                    }
                }
            }
        }
        v
    }
}
