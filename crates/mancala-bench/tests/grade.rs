//! The grader (`mancala_bench::grade`) on small Kalah(3,3) positions whose move values were
//! traced by hand (below), with a hand-made first-legal-move player in this process, the
//! engine, and an external line-protocol program (`tests/bots/kalah_bot.sh`) that plays the
//! first legal move, answers an illegal move, or hangs.
//!
//! The three positions (Kalah(3,3), standard rules; a value is the seeds the mover still
//! gains, so the stores do not matter):
//!
//! * P4 `0,1,1,7,1,0,0,8 S`. House 3 sows into the store (extra turn), then house 2 (forced)
//!   ends in the empty S3 opposite N1's seed: a capture of 2, South's row is empty and the
//!   game ends: South gains all 3 seeds, **+3**. House 2 sows onto S3 (no capture); North's
//!   only move N1 → N2 (empty, but S2 opposite is empty: no capture); South's only move S3
//!   (2 seeds) → store, N1, and South's row is empty: North sweeps N1 + N2 = 2; South 1,
//!   North 2, **−1**. The first legal move (2) loses 3 − (−1) = **4** seeds.
//! * P6 `1,0,1,7,0,1,0,8 S`. House 1 → S2 (empty) opposite N2's seed: capture 2, North's row
//!   empty, South sweeps S3: **+3**. House 3 → store, extra turn, then house 1 → the same
//!   capture: **+3**. Every move is optimal: loss **0**.
//! * P7 `1,0,0,8,0,1,1,7 N`: P4 with the sides exchanged: North's 2 is **−1**, 3 is **+3**,
//!   first-legal loss **4**.
//!
//! So a first-legal-move player's losses are 4, 0, 4: mean 8/3, worst 4, one optimal move in
//! three; a player that answers illegally everywhere is scored best − worst: 4, 0, 4 too.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mancala_bench::grade::{
    check_values, grade, play_games, value_set, Answer, Budget, EnginePlayer, ExternalPlayer,
    FnPlayer, Valued, Verdict,
};
use mancala_bench::{generate_midgame, parse_positions, GenerateParams};
use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_reference::minimax::Brute;
use mancala_solver::engine::Level;
use mancala_solver::exact_values::{ExactError, ExactValues, RulesMismatch};
use mancala_solver::Solver;

fn rules() -> KalahRules {
    "kalah(3,3)".parse().unwrap()
}

fn pos(text: &str) -> KalahPosition {
    KalahPosition::parse(rules(), text).unwrap()
}

fn positions() -> Vec<KalahPosition> {
    [
        "0,1,1,7,1,0,0,8 S",
        "1,0,1,7,0,1,0,8 S",
        "1,0,0,8,0,1,1,7 N",
    ]
    .iter()
    .map(|t| pos(t))
    .collect()
}

fn valued() -> Vec<Valued<KalahPosition>> {
    value_set(&positions(), &Solver::new().threads(1), |_| {}).unwrap()
}

fn h(n: u8) -> KalahMove {
    KalahMove::House(n)
}

/// The first legal move of a position, as the bot script plays it.
fn first_legal(p: &KalahPosition, _: &Budget) -> Answer<KalahMove> {
    Answer::Move(p.legal_moves()[0])
}

fn budget() -> Budget {
    Budget {
        time: Duration::from_millis(800),
        grace: Duration::from_millis(200),
        nodes: None,
    }
}

fn bot(mode: &str) -> ExternalPlayer {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/kalah_bot.sh");
    ExternalPlayer::new(vec!["sh".into(), script.display().to_string(), mode.into()])
}

#[test]
fn the_hand_traced_values() {
    let v = valued();
    assert_eq!(v[0].moves, vec![(h(2), -1), (h(3), 3)]);
    assert_eq!(v[1].moves, vec![(h(1), 3), (h(3), 3)]);
    assert_eq!(v[2].moves, vec![(h(2), -1), (h(3), 3)]);
    assert_eq!(v[0].seeds, 3);
    assert_eq!(v[0].best_moves(), vec![h(3)]);
}

#[test]
fn a_first_legal_move_player_in_process() {
    let mut p = FnPlayer::new("first legal", first_legal);
    let r = grade(&mut p, &valued(), &budget(), |_| ControlFlow::Continue(()));
    let losses: Vec<i32> = r.moves.iter().map(|g| g.loss).collect();
    assert_eq!(losses, vec![4, 0, 4]);
    assert!((r.mean_loss() - 8.0 / 3.0).abs() < 1e-12);
    assert_eq!(r.worst_loss(), 4);
    assert!((r.optimal_share() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(r.total_loss(), 8);
    assert_eq!(r.failures().count(), 0);
    // The worst list: largest loss first, ties in set order, no loss-free position.
    let worst: Vec<usize> = r.worst(5).iter().map(|g| g.index).collect();
    assert_eq!(worst, vec![0, 2]);
    // All three positions have 3 seeds on the board: one group.
    let b = r.by_seeds(4);
    assert_eq!(b.len(), 1);
    assert_eq!((b[0].min_seeds, b[0].max_seeds, b[0].positions), (1, 4, 3));
    assert_eq!(b[0].worst_loss, 4);
    // A progress callback that breaks stops the run after that position.
    let r = grade(&mut p, &valued(), &budget(), |_| ControlFlow::Break(()));
    assert_eq!(r.positions(), 1);
}

#[test]
fn failures_are_scored_as_the_worst_move() {
    // A player that answers a house no board has, one that fails and one that overruns.
    let mut illegal = FnPlayer::new("illegal", |_: &KalahPosition, _: &Budget| {
        Answer::Move(h(7))
    });
    let r = grade(&mut illegal, &valued(), &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(
        r.moves.iter().map(|g| g.loss).collect::<Vec<_>>(),
        [4, 0, 4]
    );
    assert!(r
        .moves
        .iter()
        .all(|g| g.verdict == Verdict::Illegal("7".into()) && g.chosen.is_none()));
    assert_eq!(r.failures().count(), 3);
    let mut failing = FnPlayer::new("raises", |_: &KalahPosition, _: &Budget| {
        Answer::Failed("boom".into())
    });
    let r = grade(&mut failing, &valued(), &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(r.moves[0].verdict, Verdict::Failed("boom".into()));
    assert_eq!(r.moves[0].loss, 4);
    // An answer after the deadline is timed out, whatever it is.
    let mut slow = FnPlayer::new("slow", |p: &KalahPosition, _: &Budget| {
        std::thread::sleep(Duration::from_millis(30));
        Answer::Move(p.legal_moves()[1])
    });
    let tight = Budget {
        time: Duration::from_millis(1),
        grace: Duration::from_millis(1),
        nodes: None,
    };
    let r = grade(&mut slow, &valued()[..1], &tight, |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(r.moves[0].verdict, Verdict::TimedOut);
    assert_eq!(r.moves[0].loss, 4);
}

#[test]
fn the_engine_plays_these_small_positions_perfectly() {
    let mut e = EnginePlayer::new(Level::new(10).unwrap(), 1);
    let b = Budget {
        nodes: Some(100_000),
        ..budget()
    };
    let r = grade(&mut e, &valued(), &b, |_| ControlFlow::Continue(()));
    assert_eq!(r.worst_loss(), 0, "{:?}", r.moves);
    assert_eq!(r.player, "engine level 10");
}

#[test]
fn an_external_program_first_legal_illegal_and_hanging() {
    let v = valued();
    let r = grade(&mut bot("first"), &v, &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(
        r.moves.iter().map(|g| g.loss).collect::<Vec<_>>(),
        [4, 0, 4]
    );
    assert_eq!(
        r.moves.iter().map(|g| g.chosen).collect::<Vec<_>>(),
        [Some(h(2)), Some(h(1)), Some(h(2))]
    );
    assert_eq!(r.failures().count(), 0);

    let r = grade(&mut bot("illegal"), &v, &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(
        r.moves.iter().map(|g| g.loss).collect::<Vec<_>>(),
        [4, 0, 4]
    );
    assert!(r
        .moves
        .iter()
        .all(|g| g.verdict == Verdict::Illegal("7".into())));
    // An illegal move is named in the program's own words (`07`), not as the move it
    // reads as (`7`).
    let r = grade(&mut bot("padded"), &v, &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert!(r
        .moves
        .iter()
        .all(|g| g.verdict == Verdict::Illegal("07".into())));
    assert_eq!(r.moves[0].verdict.to_string(), "illegal move \"07\"");
    // P6's moves all have the same value, so its loss is 0; a failure is still never an
    // optimal move.
    assert_eq!(r.optimal_share(), 0.0);
    assert!(r.by_seeds(100).iter().all(|b| b.optimal == 0.0));

    // It hangs on P7 (North to move): timed out and killed; then started again for the
    // next position, which it answers.
    let mut set = v.clone();
    set.push(v[0].clone());
    let t0 = Instant::now();
    let r = grade(&mut bot("hang"), &set, &budget(), |_| {
        ControlFlow::Continue(())
    });
    let verdicts: Vec<&Verdict> = r.moves.iter().map(|g| &g.verdict).collect();
    assert_eq!(
        verdicts,
        [
            &Verdict::Played,
            &Verdict::Played,
            &Verdict::TimedOut,
            &Verdict::Played
        ]
    );
    assert_eq!(
        r.moves.iter().map(|g| g.loss).collect::<Vec<_>>(),
        [4, 0, 4, 4]
    );
    // Not a timing assertion, a bound on the wait: the hang cost one deadline, not the
    // bot's minute of sleep.
    assert!(t0.elapsed() < Duration::from_secs(30));

    // A program that cannot start fails every position; the run goes on.
    let mut none = ExternalPlayer::new(vec!["/nonexistent/bot".into()]);
    let r = grade(&mut none, &v, &budget(), |_| ControlFlow::Continue(()));
    assert!(r
        .moves
        .iter()
        .all(|g| matches!(g.verdict, Verdict::Failed(_))));
}

/// A program that ends at once (a hundred times) is told `rules` with one error saying it
/// ended, whether the request's write or the wait for the reply sees the end first (a race
/// the system decides: "Broken pipe" was the write's word for it).
#[test]
fn a_program_that_ends_at_once_is_one_error_that_says_so() {
    for _ in 0..100 {
        let mut ends = ExternalPlayer::new(vec!["sh".into(), "-c".into(), "exit 0".into()]);
        ends.start_now().unwrap();
        let e = ends.tell_rules("standard").unwrap_err();
        assert!(e.contains("the program ended"), "{e}");
        assert!(!e.contains("Broken pipe"), "{e}");
    }
}

#[test]
fn whole_games_against_the_solver() {
    // From P4 the first-legal player plays 2 (loss 4); North's reply N1 and South's last
    // move S3 are forced: South ends 1 seed to 2, −1 = value 3 − 4 given away.
    let mut p = FnPlayer::new("first legal", first_legal);
    let solver = Solver::new().threads(1);
    let set = value_set(&[pos("0,1,1,7,1,0,0,8 S")], &solver, |_| {}).unwrap();
    let games = play_games(&mut p, &set, &solver, &budget(), |_, _| {}).unwrap();
    let g = &games[0];
    assert_eq!(g.value, 3);
    assert_eq!(g.line, vec![h(2), h(1), h(3)]);
    assert_eq!(g.moves.iter().map(|m| m.loss).collect::<Vec<_>>(), [4, 0]);
    assert_eq!(g.given_away(), 4);
    assert_eq!(g.result, -1);
}

/// A source of exact values (the solver) that keeps every position whose moves it valued.
struct Counting {
    solver: Solver,
    asked: std::cell::RefCell<Vec<KalahPosition>>,
}

impl ExactValues<KalahPosition> for Counting {
    fn check_rules(&self, rules: &KalahRules) -> Result<(), RulesMismatch> {
        self.solver.check_rules(rules)
    }

    fn value_of(&self, pos: &KalahPosition) -> Result<i32, ExactError> {
        self.solver.value_of(pos)
    }

    fn move_values_of(&self, pos: &KalahPosition) -> Result<Vec<(KalahMove, i32)>, ExactError> {
        self.asked.borrow_mut().push(*pos);
        self.solver.move_values_of(pos)
    }
}

/// `mancala grade --file F --games`: the set is valued once, its values checked against the
/// file's (P4 +3, P6 +3, P7 +3), and the games start from those values: each opening is
/// valued once, and every other position once, where a move is played from it (the
/// first-legal player's games from P4 and P7 have 3 plies each, from P6 one), 7 in all. The
/// games valued each opening a second time.
#[test]
fn a_set_played_as_games_is_valued_once() {
    let counting = Counting {
        solver: Solver::new().threads(1),
        asked: Default::default(),
    };
    let set = value_set(&positions(), &counting, |_| {}).unwrap();
    check_values(&set, &[(1, 3), (2, 3), (3, 3)]).unwrap();
    let mut p = FnPlayer::new("first legal", first_legal);
    let games = play_games(&mut p, &set, &counting, &budget(), |_, _| {}).unwrap();
    let plies: Vec<usize> = games.iter().map(|g| g.line.len()).collect();
    assert_eq!(plies, [3, 1, 3]);
    let asked = counting.asked.borrow();
    for opening in positions() {
        let n = asked.iter().filter(|&&p| p == opening).count();
        assert_eq!(n, 1, "{opening} valued {n} times");
    }
    assert_eq!(asked.len(), 7);
}

/// A valued position whose moves are not its own (those of another position, none) is
/// refused before a game is played from it, and so is a finished one; nothing panics.
#[test]
fn games_from_values_of_another_position_are_refused() {
    let set = valued();
    let mut p = FnPlayer::new("first legal", first_legal);
    let solver = Solver::new().threads(1);
    let mut run = |v: Valued<KalahPosition>| {
        play_games(&mut p, &[v], &solver, &budget(), |_, _| {}).map(|_| ())
    };
    // P6's legal moves are 1 and 3, P4's 2 and 3.
    let mut other = set[1].clone();
    other.position = set[0].position;
    let mut none = set[0].clone();
    none.moves.clear();
    for v in [other, none] {
        let e = run(v).unwrap_err();
        assert_eq!(
            e.to_string(),
            "0,1,1,7,1,0,0,8 S: the moves valued are not the legal moves of the position"
        );
    }
    // P4 played to its end (2, N1, S3: above).
    let mut over = set[0].clone();
    for mv in [h(2), h(1), h(3)] {
        over.position = over.position.play(mv).unwrap();
    }
    assert!(over.position.is_over());
    over.moves.clear();
    let end = over.position.to_string();
    assert_eq!(
        run(over).unwrap_err().to_string(),
        format!("{end}: the game is over, there is no move to grade")
    );
}

#[test]
fn generated_sets_are_valued_as_the_reference_minimax() {
    // A generated Kalah(3,3) set with empty_capture: each move's value equals an exhaustive
    // minimax of the independent reference implementation.
    let rules: KalahRules = "kalah(3,3)+empty_capture".parse().unwrap();
    let params = GenerateParams {
        rules,
        seed: 7,
        count: 12,
        min_seeds: 3,
        max_seeds: 12,
    };
    let mut solver = Solver::new().threads(1);
    let text = generate_midgame(&params, &mut solver, |_, _| {}).unwrap();
    let (_, ps) = parse_positions(&text).unwrap();
    let mut brute = Brute::new();
    for p in ps {
        let v = mancala_bench::grade::valued(&solver, &p.position).unwrap();
        assert_eq!(v.moves, brute.move_values(&p.position), "{}", p.position);
        assert_eq!(v.best(), p.value);
    }
}

/// The processes of `ids` still running: a /proc entry that is not a zombie, with a
/// command line of the test bot (`kalah_bot`) or of its children (`sleep 1003`), so that
/// an id reused by another process does not count.
#[cfg(target_os = "linux")]
fn running(ids: &[u32]) -> Vec<u32> {
    ids.iter()
        .copied()
        .filter(|id| {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{id}/stat")) else {
                return false;
            };
            let state = stat[stat.rfind(')').unwrap() + 2..].chars().next();
            let cmdline = std::fs::read(format!("/proc/{id}/cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline);
            state != Some('Z') && (cmdline.contains("kalah_bot") || cmdline.contains("1003"))
        })
        .collect()
}

/// Waits up to 10 s for every process of `ids` to end; the ones still running then are
/// killed (so that a failing test leaves nothing behind) and returned.
#[cfg(target_os = "linux")]
fn left_running(ids: &[u32]) -> Vec<u32> {
    let start = Instant::now();
    while !running(ids).is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left = running(ids);
    for &id in &left {
        let _ = std::process::Command::new("kill")
            .args(["-KILL", &id.to_string()])
            .status();
    }
    left
}

/// The process ids, one a line, in `file`.
fn ids_in(file: &std::path::Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

fn bot_with(mode: &str, file: &std::path::Path) -> ExternalPlayer {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/kalah_bot.sh");
    ExternalPlayer::new(vec![
        "sh".into(),
        script.display().to_string(),
        mode.into(),
        file.display().to_string(),
    ])
}

#[cfg(target_os = "linux")]
#[test]
fn a_timed_out_program_is_killed_with_its_children() {
    // The bot ignores SIGTERM and waits for two children on P7, one in a session of its own
    // (`setsid`): at the timeout the bot and both children are killed, and it is started
    // again for the next position.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let v = valued();
    let set = vec![v[2].clone(), v[0].clone()];
    let short = Budget {
        time: Duration::from_millis(300),
        grace: Duration::from_millis(200),
        nodes: None,
    };
    let mut bot = bot_with("hangkids", &file);
    let r = grade(&mut bot, &set, &short, |_| ControlFlow::Continue(()));
    assert_eq!(r.moves[0].verdict, Verdict::TimedOut);
    assert_eq!(r.moves[1].verdict, Verdict::Played);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut ids = ids_in(&dir.path().join("pid.kids"));
    assert_eq!(ids.len(), 2, "{ids:?}");
    ids.push(text.lines().next().unwrap().trim().parse().unwrap());
    // Killed while the bot still runs (it was started again and answered P4).
    assert_eq!(left_running(&ids), Vec::<u32>::new());
    drop(bot);
    // The program starts with no signal blocked.
    if let Some(mask) = text.lines().nth(1) {
        assert!(
            mask.trim_start_matches("SigBlk:")
                .trim()
                .chars()
                .all(|c| c == '0'),
            "{mask}"
        );
    }
}

/// A program that starts a process in a session of its own (`setsid`) at each start, and is
/// started twice (it times out on P7): after the grade no process of either start is left,
/// the two `setsid` children included.
#[cfg(target_os = "linux")]
#[test]
fn no_process_a_program_started_outlives_the_grade() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pid");
    let v = valued();
    let set = vec![v[2].clone(), v[0].clone()];
    let short = Budget {
        time: Duration::from_millis(300),
        grace: Duration::from_millis(200),
        nodes: None,
    };
    let r = grade(&mut bot_with("setsid", &file), &set, &short, |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(r.moves[0].verdict, Verdict::TimedOut);
    assert_eq!(r.moves[1].verdict, Verdict::Played);
    // Two starts, each the bot and its `setsid` child.
    let ids = ids_in(&dir.path().join("pid.kids"));
    assert_eq!(ids.len(), 4, "{ids:?}");
    assert_eq!(left_running(&ids), Vec::<u32>::new());
}

#[test]
fn long_lines_extra_lines_and_slow_starts() {
    let v = valued();
    // A 10000-byte reply line is a failure with a short reason.
    let r = grade(&mut bot("long"), &v[..1], &budget(), |_| {
        ControlFlow::Continue(())
    });
    match &r.moves[0].verdict {
        Verdict::Failed(why) => {
            assert!(why.contains("longer than"), "{why}");
            assert!(why.len() < 200, "{why}");
        }
        other => panic!("{other:?}"),
    }
    // A second `bestmove` line is stale: it is not read as the next position's `ok`.
    let r = grade(&mut bot("twice"), &v, &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(r.failures().count(), 0, "{:?}", r.moves[1].verdict);
    assert_eq!(
        r.moves.iter().map(|g| g.loss).collect::<Vec<_>>(),
        [4, 0, 4]
    );
    // A program that takes 1.5 s to start, longer than the 1 s deadline: the start-up is
    // not counted in the move's time.
    let r = grade(&mut bot("slow"), &v, &budget(), |_| {
        ControlFlow::Continue(())
    });
    assert_eq!(r.failures().count(), 0);
}

#[test]
fn a_pie_rule_swap_counts_the_stores_from_the_player_side() {
    // Kalah(3,3) with the pie rule, North to move, stores 1 (South) to 0: after a swap the
    // player owns South's store. The player plays the solver's best moves, so its result is
    // the opening's value (nothing given away).
    let rules: KalahRules = "kalah(3,3)+pie_rule".parse().unwrap();
    let opening = KalahPosition::parse(rules, "3,0,4,1,4,3,3,0 N swap").unwrap();
    let solver = Solver::new().threads(1);
    let inner = Solver::new().threads(1);
    let mut p = FnPlayer::new("best", move |p: &KalahPosition, _: &Budget| {
        Answer::Move(
            mancala_bench::grade::valued(&inner, p)
                .unwrap()
                .best_moves()[0],
        )
    });
    let set = value_set(&[opening], &solver, |_| {}).unwrap();
    let games = play_games(&mut p, &set, &solver, &budget(), |_, _| {}).unwrap();
    let g = &games[0];
    assert_eq!(g.given_away(), 0);
    assert!(g.line.contains(&KalahMove::Swap), "{:?}", g.line);
    assert_eq!(g.result, g.value);
}

/// Awari: a player that always plays a move of the database's best value scores 100 %
/// optimal and loses nothing, on positions generated by random play under `awari` (each
/// with at most N = 10 seeds in the houses, as asked); a first-legal-move player's losses
/// are best − its move's value; `oware` positions are refused (their values differ).
#[test]
fn awari_sets_are_graded_from_the_database() {
    use mancala_core::oware::{OwareMove, OwarePosition, OwareRules};
    use mancala_solver::awari::AwariDb;
    let db = AwariDb::build(10, 1).unwrap();
    let positions = mancala_bench::generate_oware(OwareRules::AWARI, 7, 40, 1, 10, &mut || {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(positions.len(), 40);
    assert!(positions
        .iter()
        .all(|p| p.seeds_in_houses() <= 10 && !p.is_over()));
    let set: Vec<Valued<OwarePosition>> = value_set(&positions, &db, |_| {}).unwrap();
    let oracle = AwariDb::build(10, 1).unwrap();
    let mut best = FnPlayer::new("best", |p: &OwarePosition, _: &Budget| {
        let mut own = oracle.clone_values_of(p);
        own.sort_by_key(|m| std::cmp::Reverse(m.1));
        Answer::Move(OwareMove(own[0].0))
    });
    let r = grade(
        &mut best,
        &set,
        &Budget::time(Duration::from_secs(10)),
        |_| ControlFlow::Continue(()),
    );
    assert_eq!(r.optimal_share(), 1.0);
    assert_eq!(r.total_loss(), 0);
    let mut first = FnPlayer::new("first", |p: &OwarePosition, _: &Budget| {
        Answer::Move(p.legal_moves()[0])
    });
    let r = grade(
        &mut first,
        &set,
        &Budget::time(Duration::from_secs(10)),
        |_| ControlFlow::Continue(()),
    );
    for g in &r.moves {
        let v = &g.valued;
        assert_eq!(g.loss, v.best() - v.moves[0].1);
    }
    let oware = OwarePosition::parse(OwareRules::OWARE, "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
    assert!(matches!(
        mancala_bench::grade::valued(&db, &oware),
        Err(mancala_bench::grade::GradeError::Exact { .. })
    ));
}

/// The house and value of each legal move of an Oware position from an Awari database,
/// through its own board lookup (not the grader's).
trait ValuesOf {
    fn clone_values_of(&self, p: &mancala_core::oware::OwarePosition) -> Vec<(u8, i32)>;
}

impl ValuesOf for mancala_solver::awari::AwariDb {
    fn clone_values_of(&self, p: &mancala_core::oware::OwarePosition) -> Vec<(u8, i32)> {
        let bits = p.mover_relative();
        let board = mancala_solver::awari::AwariBoard::new(std::array::from_fn(|i| {
            (bits >> (8 * i)) as u8
        }))
        .unwrap();
        mancala_solver::awari::AwariDb::board_move_values(self, &board)
            .unwrap()
            .into_iter()
            .map(|(m, v)| (m.house, v))
            .collect()
    }
}

#[test]
fn a_stop_test_ends_the_wait_for_a_hanging_program() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    // The bot hangs on P7 (North to move) with a move time of a minute; the stop test says
    // stop at its third call, so the wait ends after about three polls, not the minute.
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&asked);
    let mut p = bot("hang").stop_when(move || counter.fetch_add(1, Ordering::SeqCst) + 1 >= 3);
    let long = Budget {
        time: Duration::from_secs(60),
        grace: Duration::from_secs(1),
        nodes: None,
    };
    let v = valued();
    let t0 = Instant::now();
    let r = grade(&mut p, &v[2..3], &long, |_| ControlFlow::Continue(()));
    assert_eq!(
        r.moves[0].verdict,
        Verdict::Failed("stopped while waiting for the program's reply".to_string())
    );
    assert_eq!(asked.load(Ordering::SeqCst), 3);
    // A bound on the wait, not a timing assertion: far below the minute of the budget.
    assert!(t0.elapsed() < Duration::from_secs(30));
}

/// An Abapa set (`oware`: the majority ends the game) holds only positions the game has not
/// finished: a side to move, no store above 24 and not 24–24 (OW-6.1), whatever the seeds
/// left — so none of a set has to be filtered out before grading.
#[test]
fn a_generated_abapa_set_holds_no_finished_position() {
    use mancala_core::oware::OwareRules;
    use mancala_core::Side;
    let positions = mancala_bench::generate_oware(OwareRules::OWARE, 3, 200, 1, 18, &mut || {
        ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(positions.len(), 200);
    for p in &positions {
        let (s, n) = (p.store(Side::South), p.store(Side::North));
        assert!(p.side_to_move().is_some(), "{p}");
        assert!(s <= 24 && n <= 24 && (s, n) != (24, 24), "{p}");
        assert!(p.seeds_in_houses() <= 18, "{p}");
        assert!(!p.legal_moves().is_empty(), "{p}");
    }
}
