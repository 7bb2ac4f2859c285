//! [`AnyGame`]: a game record of any game of the library, chosen by a rule set at run time,
//! as shakmaty's `VariantPosition` holds a position of any chess variant. The front ends (the
//! `mancala` command, the C API's `MancalaGame`, the Python `Game` classes) hold one of these
//! and reach the typed record with [`with_game!`](crate::with_game) or a `match`, so that what
//! they do is written once, generically over [`Game`], for every game.
//!
//! This module sits above the games (as shakmaty keeps `VariantPosition` above the
//! variants): it imports every game's module, while the game abstraction in [`crate::game`]
//! imports none.

use thiserror::Error;

use crate::game::{for_each_game, Game, GameKind, GameRecord, Outcome, Player};
use crate::rules::{Rules, RulesError};
use crate::Side;

/// Declares [`AnyGame`], [`with_game!`](crate::with_game) and the game-by-game methods of
/// [`AnyGame`] from the registry of games (`for_each_game!` in `game/kind.rs`); `$d` is the
/// `$` token, for the metavariables of `with_game!`.
macro_rules! any_game {
    ([$d:tt] $($(#[doc = $doc:expr])* $variant:ident {
        module: $module:ident,
        rules: $rules:ident,
        position: $position:ident,
        name: $name:literal,
        article: $article:literal,
        $($rest:tt)*
    })+) => {
        /// A game record of any game, its kind chosen by its rules ([`Rules`]).
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A game record of ", $article, " game.")]
                $variant(GameRecord<crate::$module::$position>),
            )+
        }

        /// Runs `$body` with `$g` bound to the typed [`GameRecord`] inside an [`AnyGame`] (by
        /// value, reference or mutable reference, as `$game` is given), whatever the game: the
        /// one place that lists the games, so generic code is written once.
        ///
        /// ```
        /// use mancala_core::{with_game, AnyGame};
        /// let game = AnyGame::new("bao-la-kete".parse().unwrap());
        /// let moves = with_game!(&game, g => g.position().legal_moves().len());
        /// assert_eq!(moves, 4);
        /// ```
        #[macro_export]
        macro_rules! with_game {
            ($d game:expr, $d g:ident => $d body:expr) => {
                match $d game {
                    $($d crate::AnyGame::$variant($d g) => $d body,)+
                }
            };
        }

        impl AnyGame {
            /// A new game at the start position of `rules`.
            #[must_use]
            pub fn new(rules: Rules) -> AnyGame {
                match rules {
                    $(Rules::$variant(r) => AnyGame::$variant(GameRecord::new(r)),)+
                }
            }

            /// A new game starting at a position given in the notation of `rules`' game
            /// (`docs/notation.md`).
            ///
            /// # Errors
            /// [`AnyError::Position`] with the game's reason.
            pub fn parse(rules: Rules, position: &str) -> Result<AnyGame, AnyError> {
                Ok(match rules {
                    $(Rules::$variant(r) => AnyGame::$variant(parse_position(r, position)?),)+
                })
            }

            /// Which game this is.
            #[must_use]
            pub fn kind(&self) -> GameKind {
                match self {
                    $(AnyGame::$variant(_) => GameKind::$variant,)+
                }
            }

            /// The rules of the game.
            #[must_use]
            pub fn rules(&self) -> Rules {
                match self {
                    $(AnyGame::$variant(g) => Rules::$variant(g.position().rules()),)+
                }
            }

            /// Perft of the current position to `depth` plies (the `perft` of the game's module:
            /// [`crate::kalah::perft`], …), in leaf nodes.
            #[must_use]
            pub fn perft(&self, depth: u32) -> u64 {
                match self {
                    $(AnyGame::$variant(g) => crate::$module::perft(g.position(), depth),)+
                }
            }
        }
    };
}

for_each_game!(any_game, $);

/// Why a front end's request on an [`AnyGame`] was refused: the typed error of the game,
/// boxed so that one type serves every game. `Display` is the game's one-line message.
#[derive(Debug, Error)]
pub enum AnyError {
    /// A rule-set text no game's parser accepts.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// A position text the game's notation or rules refuse ([`Game::PositionError`]).
    #[error("{source}")]
    Position {
        /// The game whose parser refused the text.
        game: GameKind,
        /// The game's position error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A malformed move text ([`Game::MoveParseError`]).
    #[error("{source}")]
    MoveParse {
        /// The game whose move notation refused the text.
        game: GameKind,
        /// The game's move parse error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A move that is not legal in the current position ([`Game::Error`]).
    #[error("{source}")]
    Illegal {
        /// The game whose rules refused the move.
        game: GameKind,
        /// The game's illegal-move error.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A move index at or beyond the number of legal moves.
    #[error("move index {index} is out of range: the position has {count} legal moves")]
    MoveIndex {
        /// The index asked for (0-based).
        index: usize,
        /// How many legal moves the position has.
        count: usize,
    },
}

fn parse_error<G: Game>(e: G::MoveParseError) -> AnyError {
    AnyError::MoveParse {
        game: G::KIND,
        source: Box::new(e),
    }
}

fn illegal<G: Game>(e: G::Error) -> AnyError {
    AnyError::Illegal {
        game: G::KIND,
        source: Box::new(e),
    }
}

fn play_index<G: Game>(g: &mut GameRecord<G>, index: usize) -> Result<String, AnyError> {
    let legal = g.position().legal_moves();
    let mv = *legal.get(index).ok_or(AnyError::MoveIndex {
        index,
        count: legal.len(),
    })?;
    g.play(mv).map_err(illegal::<G>)?;
    Ok(mv.to_string())
}

fn play_text<G: Game>(g: &mut GameRecord<G>, text: &str) -> Result<(), AnyError> {
    let mv: G::Move = text.parse().map_err(parse_error::<G>)?;
    g.play(mv).map(|_| ()).map_err(illegal::<G>)
}

fn parse_position<G: Game>(rules: G::Rules, text: &str) -> Result<GameRecord<G>, AnyError> {
    G::parse(rules, text)
        .map(GameRecord::from_position)
        .map_err(|e| AnyError::Position {
            game: G::KIND,
            source: Box::new(e),
        })
}

fn texts<M: ToString>(moves: &[M]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

impl AnyGame {
    /// The current position in the game's notation.
    #[must_use]
    pub fn position_text(&self) -> String {
        with_game!(self, g => g.position().to_string())
    }

    /// The position the game started from, in the game's notation.
    #[must_use]
    pub fn start_text(&self) -> String {
        with_game!(self, g => g.start().to_string())
    }

    /// The current position drawn as text ([`Game::drawing`]).
    #[must_use]
    pub fn drawing_text(&self) -> String {
        with_game!(self, g => g.position().drawing().to_string())
    }

    /// The legal moves of the current position in the game's move notation, in the order of
    /// [`Game::legal_moves`]; empty once the game is over.
    #[must_use]
    pub fn legal_moves_text(&self) -> Vec<String> {
        with_game!(self, g => texts(&g.position().legal_moves()))
    }

    /// How many legal moves the current position has.
    #[must_use]
    pub fn legal_move_count(&self) -> usize {
        with_game!(self, g => g.position().legal_moves().len())
    }

    /// The moves played so far, in the game's move notation.
    #[must_use]
    pub fn moves_text(&self) -> Vec<String> {
        with_game!(self, g => texts(g.moves()))
    }

    /// Plays a move given in the game's move notation (`3`, `swap`, `F5>`).
    ///
    /// # Errors
    /// [`AnyError::MoveParse`] for malformed text, [`AnyError::Illegal`] for a move that is
    /// not legal here; the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<(), AnyError> {
        with_game!(self, g => play_text(g, text))
    }

    /// Plays the legal move at `index` (0-based) of [`AnyGame::legal_moves_text`] and returns
    /// its text.
    ///
    /// # Errors
    /// [`AnyError::MoveIndex`] when there is no such move; the game is unchanged.
    pub fn play_index(&mut self, index: usize) -> Result<String, AnyError> {
        with_game!(self, g => play_index(g, index))
    }

    /// Takes back the last move and returns its text; `None` when no move has been played.
    pub fn undo(&mut self) -> Option<String> {
        with_game!(self, g => g.undo().map(|mv| mv.to_string()))
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub fn side_to_move(&self) -> Option<Side> {
        with_game!(self, g => g.position().side_to_move())
    }

    /// Whether the game is over.
    #[must_use]
    pub fn is_over(&self) -> bool {
        with_game!(self, g => g.is_over())
    }

    /// The result once the game is over, `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.position().outcome())
    }

    /// Which side `player` plays now (they exchange sides at a Kalah pie-rule swap).
    #[must_use]
    pub fn side_of(&self, player: Player) -> Side {
        with_game!(self, g => g.side_of(player))
    }

    /// Whether the players have exchanged sides (an odd number of pie-rule swaps).
    #[must_use]
    pub fn swapped(&self) -> bool {
        with_game!(self, g => g.swapped())
    }
}
