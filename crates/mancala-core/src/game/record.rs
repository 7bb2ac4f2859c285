//! Game records: a start position and the moves played from it, with the players' sides
//! tracked through a pie-rule swap and the rules that depend on the history (repetition, move
//! limit) applied after every move (`docs/notation.md`, "Game records").

use thiserror::Error;

use super::{Game, HistoryEnd};
use crate::Side;

/// The two players of a game, by turn order: the first player starts as South.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who started the game as South.
    First,
    /// The player who started the game as North.
    Second,
}

/// Why a game record could not be replayed: a malformed or an illegal move, with its 1-based
/// index in the record.
#[derive(Error)]
pub enum RecordError<G: Game> {
    /// A move text the game's move notation refuses.
    #[error("move {index}: {source}")]
    Parse {
        /// 1-based index of the move in the record.
        index: usize,
        /// The parse error.
        source: G::MoveParseError,
    },
    /// A move that is not legal where it was played.
    #[error("move {index}: {source}")]
    Illegal {
        /// 1-based index of the move in the record.
        index: usize,
        /// The refused move, its reason and the position it was refused in.
        source: G::Error,
    },
}

impl<G: Game> Clone for RecordError<G> {
    fn clone(&self) -> Self {
        match self {
            RecordError::Parse { index, source } => RecordError::Parse {
                index: *index,
                source: source.clone(),
            },
            RecordError::Illegal { index, source } => RecordError::Illegal {
                index: *index,
                source: source.clone(),
            },
        }
    }
}

impl<G: Game> core::fmt::Debug for RecordError<G> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecordError::Parse { index, source } => f
                .debug_struct("Parse")
                .field("index", index)
                .field("source", source)
                .finish(),
            RecordError::Illegal { index, source } => f
                .debug_struct("Illegal")
                .field("index", index)
                .field("source", source)
                .finish(),
        }
    }
}

impl<G: Game> PartialEq for RecordError<G>
where
    G::MoveParseError: PartialEq,
    G::Error: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (
                RecordError::Parse { index, source },
                RecordError::Parse {
                    index: i2,
                    source: s2,
                },
            ) => index == i2 && source == s2,
            (
                RecordError::Illegal { index, source },
                RecordError::Illegal {
                    index: i2,
                    source: s2,
                },
            ) => index == i2 && source == s2,
            _ => false,
        }
    }
}

/// Parses a game record of game `G`: moves in the game's move notation separated by commas
/// and/or white space (Kalah `3,6,1,swap`; Bao `F5>,F3<`; Oware `3 1 6`). Whether each move
/// is legal is checked by [`GameRecord::replay`]. Never panics.
///
/// # Errors
/// [`RecordError::Parse`] naming the first malformed move (1-based).
pub fn parse_moves<G: Game>(text: &str) -> Result<Vec<G::Move>, RecordError<G>> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            t.parse::<G::Move>().map_err(|source| RecordError::Parse {
                index: i + 1,
                source,
            })
        })
        .collect()
}

/// A game in progress: every position from the start, the moves between them, which player
/// holds which side (they change places at a pie-rule swap), and the history rules of
/// [`Game::history_rules`].
///
/// After every move the record applies, in this order, the repetition rule (the position
/// after the move has now occurred [`HistoryRules::repetition`](super::HistoryRules) times,
/// the start or set-up position counting once) and the move limit (that many moves have been
/// played since the start or set-up position); either replaces the position by
/// [`Game::end_by`]'s finished one. The rules that depend on the position alone are applied
/// by [`Game::play`] itself.
///
/// Occurrences are counted among the positions since the last irreversible move
/// ([`Game::is_irreversible`]; Oware: the last capture), compared one by one: no position
/// before that move can occur again, and a game without a repetition rule counts nothing. A
/// move costs one position copy and, under a repetition rule, a comparison with each
/// position since the last irreversible move; nothing is hashed.
///
/// ```
/// use mancala_core::kalah::{KalahMove, KalahPosition};
/// use mancala_core::{parse_moves, GameRecord, Player, Side};
///
/// let mut game = GameRecord::<KalahPosition>::new("kalah(6,4)+pie_rule".parse()?);
/// // South's 3 ends in the store: an extra turn, then South's 1 (4 seeds into S2..S5).
/// game.play(KalahMove::House(3))?;
/// game.play(KalahMove::House(1))?;
/// // North may now take South's side (the pie rule; `swap` in the notation says so).
/// assert_eq!(game.position().to_string(), "0,5,1,6,6,5,1,4,4,4,4,4,4,0 N swap");
/// assert!(game.position().legal_moves().contains(&KalahMove::Swap));
/// game.play(KalahMove::Swap)?;
/// assert!(game.swapped());
/// assert_eq!(game.side_of(Player::First), Side::North);
/// // Undo takes moves back one at a time; replay plays a record's moves again.
/// assert_eq!(game.undo(), Some(KalahMove::Swap));
/// assert!(!game.swapped());
/// let moves = parse_moves::<KalahPosition>("3,1")?;
/// let again = GameRecord::replay(*game.start(), &moves)?;
/// assert_eq!(again.position(), game.position());
/// assert_eq!((again.plies(), again.positions().len()), (2, 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<G: Game> {
    positions: Vec<G>,
    moves: Vec<G::Move>,
    swapped: bool,
    /// Index in `positions` of the first position since the last irreversible move.
    stretch: usize,
    /// When a history rule ended the game at the last move: the unfinished position the move
    /// led to (it counts as an occurrence) and the rule.
    ended: Option<(G, HistoryEnd)>,
}

impl<G: Game> GameRecord<G> {
    /// A new game from the start position of `rules`.
    #[must_use]
    pub fn new(rules: G::Rules) -> GameRecord<G> {
        GameRecord::from_position(G::start(rules))
    }

    /// A game that starts at `start` (any valid position); `start` has occurred once and no
    /// move has been played.
    #[must_use]
    pub fn from_position(start: G) -> GameRecord<G> {
        GameRecord {
            positions: vec![start],
            moves: Vec::new(),
            swapped: false,
            stretch: 0,
            ended: None,
        }
    }

    /// Replays `moves` from `start`.
    ///
    /// # Errors
    /// [`RecordError::Illegal`] naming the first illegal move (1-based); a move after the end
    /// of the game (by any rule, history rules included) is illegal.
    pub fn replay(start: G, moves: &[G::Move]) -> Result<GameRecord<G>, RecordError<G>> {
        let mut game = GameRecord::from_position(start);
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|source| RecordError::Illegal {
                index: i + 1,
                source,
            })?;
        }
        Ok(game)
    }

    /// A copy of this record, or `TryReserveError` when the memory for its positions and
    /// moves (one `G` a position, one `G::Move` a move: bytes in the hundreds for a short
    /// game) cannot be had; [`Clone::clone`] aborts the process then. For callers that make
    /// many copies and must report a lack of memory as an error (a batch of millions of
    /// games: the Python package's `VectorGames`).
    ///
    /// # Errors
    /// [`std::collections::TryReserveError`] when an allocation fails; nothing is kept.
    pub fn try_clone(&self) -> Result<GameRecord<G>, std::collections::TryReserveError> {
        let mut positions = Vec::new();
        positions.try_reserve_exact(self.positions.len())?;
        positions.extend_from_slice(&self.positions);
        let mut moves = Vec::new();
        moves.try_reserve_exact(self.moves.len())?;
        moves.extend_from_slice(&self.moves);
        Ok(GameRecord {
            positions,
            moves,
            swapped: self.swapped,
            stretch: self.stretch,
            ended: self.ended,
        })
    }

    /// Makes room for `plies` more moves (and their positions) without allocating when they
    /// are played, or returns `TryReserveError` when the memory cannot be had; the record
    /// is unchanged either way. Vec's growth rules apply: room is kept by doubling, so that
    /// reserving before each step of a loop costs an allocation only now and then.
    ///
    /// # Errors
    /// [`std::collections::TryReserveError`] when an allocation fails (the room already had
    /// is kept).
    pub fn try_reserve(&mut self, plies: usize) -> Result<(), std::collections::TryReserveError> {
        self.positions.try_reserve(plies)?;
        self.moves.try_reserve(plies)
    }

    /// Like [`GameRecord::copy_from`], but returns `TryReserveError` instead of aborting when
    /// this record's memory is too small for `other` and more cannot be had (this record is
    /// then unchanged).
    ///
    /// # Errors
    /// [`std::collections::TryReserveError`] when an allocation fails.
    pub fn try_copy_from(
        &mut self,
        other: &GameRecord<G>,
    ) -> Result<(), std::collections::TryReserveError> {
        self.positions
            .try_reserve(other.positions.len().saturating_sub(self.positions.len()))?;
        self.moves
            .try_reserve(other.moves.len().saturating_sub(self.moves.len()))?;
        self.copy_from(other);
        Ok(())
    }

    /// Makes this record a copy of `other`, reusing its memory (for loops that play many
    /// games from one start, such as random playouts).
    pub fn copy_from(&mut self, other: &GameRecord<G>) {
        self.positions.clone_from(&other.positions);
        self.moves.clone_from(&other.moves);
        self.swapped = other.swapped;
        self.stretch = other.stretch;
        self.ended = other.ended;
    }

    /// Plays `mv` on the current position, then applies the history rules.
    ///
    /// # Errors
    /// The game's move error when `mv` is not legal here (also once the game is over); the
    /// record is unchanged.
    pub fn play(&mut self, mv: G::Move) -> Result<&G, G::Error> {
        let current = *self.position();
        let next = current.play(mv)?;
        Ok(self.record(current, mv, next))
    }

    /// Plays `mv` without checking that it is legal, then applies the history rules as
    /// [`GameRecord::play`] does: the fast path for a caller that has already checked its
    /// move against the current position's [`Game::legal_moves`] (a batched environment
    /// that checks each action against its legal-action mask, a random playout that draws
    /// from the legal moves). Returns the new position.
    ///
    /// Contract: `mv` must be one of the current position's [`Game::legal_moves`] (so the
    /// game must not be over). Otherwise the record goes on from the position
    /// [`Game::play_unchecked`] gives for an illegal move: unspecified, possibly one that
    /// breaks the rules, or a panic (debug builds assert legality); never undefined
    /// behaviour. For a legal move the record is the one [`GameRecord::play`] makes.
    ///
    /// ```
    /// use mancala_core::kalah::{KalahMove, KalahPosition};
    /// use mancala_core::GameRecord;
    ///
    /// let mut fast = GameRecord::<KalahPosition>::new("kalah(6,4)".parse()?);
    /// let mut checked = fast.clone();
    /// // House 3 is legal at the start (4 seeds): both ways give the same record.
    /// assert!(fast.position().legal_moves().contains(&KalahMove::House(3)));
    /// fast.play_unchecked(KalahMove::House(3));
    /// checked.play(KalahMove::House(3))?;
    /// assert_eq!(fast, checked);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play_unchecked(&mut self, mv: G::Move) -> &G {
        let current = *self.position();
        let next = current.play_unchecked(mv);
        self.record(current, mv, next)
    }

    /// Records `mv`, which led from `current` (the current position) to `next`, applying
    /// the history rules; returns the new current position.
    #[inline]
    fn record(&mut self, current: G, mv: G::Move, next: G) -> &G {
        if current.swaps_players(mv) {
            self.swapped = !self.swapped;
        }
        let rules = next.history_rules();
        let end = if rules.is_none() || next.is_over() {
            None
        } else {
            if current.is_irreversible(&next) {
                self.stretch = self.positions.len();
            }
            let repeated = rules.repetition.is_some_and(|k| {
                let earlier = self.positions[self.stretch..]
                    .iter()
                    .filter(|&&p| p == next)
                    .count();
                earlier + 1 >= usize::from(k)
            });
            if repeated {
                Some(HistoryEnd::Repetition)
            } else if rules
                .move_limit
                .is_some_and(|limit| self.moves.len() + 1 >= usize::from(limit))
            {
                Some(HistoryEnd::MoveLimit)
            } else {
                None
            }
        };
        match end {
            Some(end) => {
                self.positions.push(next.end_by(end));
                self.ended = Some((next, end));
            }
            None => self.positions.push(next),
        }
        self.moves.push(mv);
        self.position()
    }

    /// Takes back the last move and returns it; `None` (and nothing changes) when no move has
    /// been played.
    pub fn undo(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.ended = None;
        if self.stretch >= self.positions.len() {
            // The move taken back was irreversible: the stretch before it starts after the
            // irreversible move before it.
            self.stretch = self
                .positions
                .windows(2)
                .rposition(|w| w[0].is_irreversible(&w[1]))
                .map_or(0, |i| i + 1);
        }
        if self.position().swaps_players(mv) {
            self.swapped = !self.swapped;
        }
        Some(mv)
    }

    /// Counts the move sequences of exactly `depth` plies from the current position with the
    /// game's history rules applied ([`Game::history_rules`]: Oware's repetition rule,
    /// OW-6.2, and move limit, OW-6.4), the positions and moves already in the record
    /// counting towards them. As [`perft`](super::perft) counts: a sequence that reaches a
    /// finished game before its last ply counts nothing, and at the last ply every legal move
    /// counts; here a move that repeats a position for the repetition count, or reaches the
    /// move limit, also ends the game. For a game without history rules (Kalah, Bao la Kete)
    /// the count is [`perft`](super::perft)'s; under a repetition rule it is smaller where
    /// lines cycle. `depth` 0 counts 1. A record of the current game is cloned, played into
    /// and taken back move by move (each move one position copy).
    ///
    /// ```
    /// use mancala_core::oware::OwarePosition;
    /// use mancala_core::{game::perft, GameRecord};
    ///
    /// // From the start no line can repeat a position within 5 plies (each move sows into
    /// // the opponent's row), so both counts are OW-11.4's.
    /// let game = GameRecord::<OwarePosition>::new("oware".parse()?);
    /// assert_eq!(game.perft(5), 5_219);
    /// assert_eq!(perft(game.position(), 5), 5_219);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        fn count<G: Game>(record: &mut GameRecord<G>, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = record.position().legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            let mut n = 0;
            for &mv in moves.iter() {
                if record.play(mv).is_ok() {
                    n += count(record, depth - 1);
                    record.undo();
                }
            }
            n
        }
        count(&mut self.clone(), depth)
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &G {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// Every position from the start, the current one last (one more than [`Self::moves`]).
    /// A position where a history rule ended the game is stored finished.
    #[must_use]
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The moves played so far.
    #[must_use]
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The positions since the last irreversible move ([`Game::is_irreversible`]), the
    /// current one last: the only ones a later position can repeat. The whole game when no
    /// move was irreversible (always for games without the hook, Kalah and Bao la Kete).
    #[must_use]
    pub fn since_irreversible(&self) -> &[G] {
        &self.positions[self.stretch.min(self.positions.len() - 1)..]
    }

    /// The number of moves (plies) played since the start or set-up position.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// How often `position` has occurred in this game so far (the start counts), as the
    /// repetition rule counts (a position after which a history rule ended the game counts,
    /// finished positions do not); 0 when the rules have no repetition rule.
    #[must_use]
    pub fn occurrences(&self, position: &G) -> u32 {
        if position.history_rules().repetition.is_none() || position.is_over() {
            return 0;
        }
        let stored = self.positions.iter().filter(|&p| p == position).count();
        let ended = self.ended.as_ref().filter(|(p, _)| p == position).is_some();
        u32::try_from(stored + usize::from(ended)).unwrap_or(u32::MAX)
    }

    /// Which history rule ended the game, if one did: `Some` only when the last move was
    /// ended by [`GameRecord::play`]'s repetition or move-limit check.
    #[must_use]
    pub fn ended_by(&self) -> Option<HistoryEnd> {
        self.ended.map(|(_, end)| end)
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// Which side `player` plays now (the first player is South until a swap).
    #[must_use]
    pub fn side_of(&self, player: Player) -> Side {
        match (player, self.swapped) {
            (Player::First, false) | (Player::Second, true) => Side::South,
            _ => Side::North,
        }
    }

    /// Which player plays `side` now.
    #[must_use]
    pub fn player_on(&self, side: Side) -> Player {
        if self.side_of(Player::First) == side {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Whether the players have exchanged sides (an odd number of pie-rule swaps).
    #[must_use]
    pub fn swapped(&self) -> bool {
        self.swapped
    }
}

#[cfg(test)]
mod tests {
    //! The history rules on a toy game written for these tests: a token on a ring of `N`
    //! cells, moved one or two cells forward by the side to move, so that positions repeat
    //! every few plies. Every expected count below is worked out by hand from the moves.
    use core::fmt;
    use core::str::FromStr;

    use super::*;
    use crate::game::{HistoryRules, MoveList, Outcome};
    use crate::GameKind;

    const N: u8 = 3;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    struct Ring {
        repetition: Option<u8>,
        limit: Option<u16>,
    }
    impl fmt::Display for Ring {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "ring")
        }
    }
    impl FromStr for Ring {
        type Err = Bad;
        fn from_str(_: &str) -> Result<Ring, Bad> {
            Ok(Ring::default())
        }
    }
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Step(u8);
    impl fmt::Display for Step {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}", self.0)
        }
    }
    impl FromStr for Step {
        type Err = Bad;
        fn from_str(s: &str) -> Result<Step, Bad> {
            s.parse().map(Step).map_err(|_| Bad)
        }
    }
    #[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
    #[error("bad")]
    struct Bad;
    /// The token's cell, the side to move (`None`: over, with the rule that ended it).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Token {
        cell: u8,
        side: Option<Side>,
        ended: Option<HistoryEnd>,
        rules: Ring,
    }
    impl fmt::Display for Token {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{} {:?}", self.cell, self.side)
        }
    }
    impl Game for Token {
        type Rules = Ring;
        type RulesError = Bad;
        type Move = Step;
        type MoveParseError = Bad;
        type Error = Bad;
        type PositionError = Bad;
        type Drawing = String;
        const KIND: GameKind = GameKind::Kalah;
        /// `255 Some(North)`: the longest `Display`.
        const NOTATION_MAX_BYTES: usize = 15;
        fn start(rules: Ring) -> Token {
            Token {
                cell: 0,
                side: Some(Side::South),
                ended: None,
                rules,
            }
        }
        fn rules(&self) -> Ring {
            self.rules
        }
        fn parse(_: Ring, _: &str) -> Result<Token, Bad> {
            Err(Bad)
        }
        fn drawing(&self) -> String {
            self.to_string()
        }
        fn side_to_move(&self) -> Option<Side> {
            self.side
        }
        fn legal_moves(&self) -> MoveList<Step> {
            if self.side.is_some() {
                [Step(1), Step(2)].into_iter().collect()
            } else {
                MoveList::new()
            }
        }
        fn play(&self, mv: Step) -> Result<Token, Bad> {
            if self.legal_moves().contains(&mv) {
                Ok(self.play_unchecked(mv))
            } else {
                Err(Bad)
            }
        }
        fn play_unchecked(&self, mv: Step) -> Token {
            Token {
                cell: (self.cell + mv.0) % N,
                side: self.side.map(Side::opponent),
                ..*self
            }
        }
        fn outcome(&self) -> Option<Outcome> {
            self.side.is_none().then_some(Outcome::from_score(0))
        }
        /// A step moves a token: nothing is ever captured.
        fn captured_seeds(&self, _: Step, _: &Token) -> Option<u32> {
            Some(0)
        }
        fn history_rules(&self) -> HistoryRules {
            HistoryRules {
                repetition: self.rules.repetition,
                move_limit: self.rules.limit,
            }
        }
        fn end_by(&self, end: HistoryEnd) -> Token {
            Token {
                side: None,
                ended: Some(end),
                ..*self
            }
        }
    }

    fn ring(repetition: Option<u8>, limit: Option<u16>) -> GameRecord<Token> {
        GameRecord::new(Ring { repetition, limit })
    }

    /// (cell 0, South to move) occurs at the start and again after an even number of plies
    /// whose steps sum to a multiple of 3: steps 1, 2 bring it back (second occurrence), then
    /// 2, 1 (third).
    #[test]
    fn the_third_occurrence_ends_the_game_and_undo_takes_it_back() {
        let mut g = ring(Some(3), None);
        let start = *g.position();
        assert_eq!(g.occurrences(&start), 1);
        g.play(Step(1)).unwrap();
        g.play(Step(2)).unwrap();
        assert_eq!(g.occurrences(&start), 2);
        assert!(!g.is_over());
        g.play(Step(2)).unwrap();
        g.play(Step(1)).unwrap();
        assert!(g.is_over());
        assert_eq!(g.ended_by(), Some(HistoryEnd::Repetition));
        assert_eq!(g.position().ended, Some(HistoryEnd::Repetition));
        assert_eq!(g.play(Step(1)), Err(Bad));
        assert_eq!(g.undo(), Some(Step(1)));
        assert_eq!(g.occurrences(&start), 2);
        assert!(!g.is_over());
        assert_eq!(g.ended_by(), None);
        // Once more: the third occurrence again.
        g.play(Step(1)).unwrap();
        assert!(g.is_over());
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.positions().len(), 5);
    }

    /// The fallible copies hold what `clone` holds (ended by repetition included), and
    /// `try_reserve` makes room without changing the record.
    #[test]
    fn the_fallible_copies_equal_clones() {
        let mut g = ring(Some(2), None);
        g.play(Step(1)).unwrap();
        g.play(Step(2)).unwrap();
        assert!(g.is_over());
        let copy = g.try_clone().unwrap();
        assert_eq!(copy, g.clone());
        assert_eq!(
            (copy.moves().len(), copy.ended_by()),
            (2, Some(HistoryEnd::Repetition))
        );
        let mut fresh = ring(Some(2), None);
        fresh.try_copy_from(&g).unwrap();
        assert_eq!(fresh, g);
        // Back to a shorter record, reusing the memory.
        fresh.try_copy_from(&ring(Some(2), None)).unwrap();
        assert_eq!(fresh, ring(Some(2), None));
        fresh.try_reserve(10).unwrap();
        assert_eq!(fresh, ring(Some(2), None));
        assert!(fresh.positions.capacity() >= 11 && fresh.moves.capacity() >= 10);
        // More than memory can hold: refused, the record unchanged.
        assert!(fresh.try_reserve(usize::MAX / 2).is_err());
        assert_eq!(fresh, ring(Some(2), None));
    }

    /// With repetition 2 the first return ends the game; without the rule nothing ends it.
    #[test]
    fn the_first_repetition_and_no_rule() {
        let mut g = ring(Some(2), None);
        g.play(Step(1)).unwrap();
        assert!(!g.is_over());
        g.play(Step(2)).unwrap();
        assert!(g.is_over());
        let mut free = ring(None, None);
        for _ in 0..30 {
            free.play(Step(1)).unwrap();
        }
        assert!(!free.is_over());
        assert_eq!(free.occurrences(free.position()), 0);
    }

    /// A move limit of 5 plies ends the game after the fifth move, not before; repetition is
    /// checked first when both apply at the same ply.
    #[test]
    fn the_move_limit_and_its_order_after_repetition() {
        let mut g = ring(None, Some(5));
        for i in 0..4 {
            g.play(Step(1)).unwrap();
            assert!(!g.is_over(), "ply {}", i + 1);
        }
        g.play(Step(1)).unwrap();
        assert_eq!(g.ended_by(), Some(HistoryEnd::MoveLimit));
        // Plies 1,2 return to the start (second occurrence) at ply 2 = the limit.
        let mut both = ring(Some(2), Some(2));
        both.play(Step(1)).unwrap();
        both.play(Step(2)).unwrap();
        assert_eq!(both.ended_by(), Some(HistoryEnd::Repetition));
    }

    /// `replay` reports the first illegal move with its 1-based index, a move after the end
    /// included.
    #[test]
    fn replay_names_the_first_illegal_move() {
        let start = *ring(Some(2), None).position();
        let err = GameRecord::replay(start, &[Step(1), Step(2), Step(1)]).unwrap_err();
        assert!(matches!(err, RecordError::Illegal { index: 3, .. }));
        let err = GameRecord::replay(start, &[Step(3)]).unwrap_err();
        assert!(matches!(err, RecordError::Illegal { index: 1, .. }));
        assert!(matches!(
            parse_moves::<Token>("1, 2 x"),
            Err(RecordError::Parse { index: 3, .. })
        ));
    }
}
