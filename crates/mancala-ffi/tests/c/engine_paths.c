/*
 * The playing-engine part of the C API: a hand-derived best move (extra turn then capture),
 * a legal move on a 1 ms budget, node limits, levels (reproducible from a seed), cancel
 * from another thread, Bao la Kete moves accepted by mancala_game_play, exact play with an
 * endgame database (the solver's best move, `exact` set; a database of other rules refused),
 * and every error path (NULL for each pointer, dead and wrongly typed handles, double free,
 * bad level, finished game, small buffer, mismatched database).
 *
 * Usage: engine_paths [scratch directory, unused]. Prints failed checks and
 * "N passed, N failed". Built and run (also under valgrind or AddressSanitizer) by
 * tests/c_programs.rs.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mancala.h"

/* This program is the one that keeps the deprecated Kalah engine call
 * (mancala_engine_kalah_bestmove, with the MancalaKalah handle; kept until 0.4.0) checked,
 * so that the thin wrapper keeps working until it goes: its deprecation warnings are
 * silenced for this file. The engine on a MancalaGame is checked by game_paths.c. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#include "check.h"

static MancalaKalah *kalah_of(const MancalaRules *r, const char *position) {
    MancalaKalah *g = NULL;
    if (position == NULL) {
        OK(mancala_kalah_new(r, &g));
    } else {
        OK(mancala_kalah_parse(r, position, &g));
    }
    return g;
}

static MancalaEngine *engine_of(uint32_t level, uint64_t seed) {
    MancalaEngineConfig config = {1u << 20, level, seed};
    MancalaEngine *e = NULL;
    OK(mancala_engine_new(&config, &e));
    return e;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int is_legal(const MancalaKalah *g, uint8_t mv) {
    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    if (mancala_kalah_legal_moves(g, moves, MANCALA_KALAH_MAX_MOVES, &count) != MANCALA_STATUS_OK)
        return 0;
    for (size_t i = 0; i < count; i++) {
        if (moves[i] == mv) return 1;
    }
    return 0;
}

/*
 * Kalah(6,4), South to move:
 *
 *   South houses 1..6: 0,0,0,0,1,1   store 13
 *   North houses 1..6: 20,0,0,0,0,1  store 12       (48 seeds in all)
 *
 * South's house 5 faces North's house 2, house 6 faces North's house 1 (the 20).
 * - Move 6: its one seed ends in South's store (14): extra turn. South's only move is then
 *   5: its seed ends in the now empty house 6, which captures itself and the 20 opposite:
 *   store 14 + 21 = 35. South's row is empty, so the game ends and North sweeps its last
 *   seed: 35 to 13, a margin of +22 for South.
 * - Move 5 first: its seed lands on house 6 (not empty: no capture, no extra turn). North
 *   can answer 6 (one seed into its store: 13, extra turn) and then 1 (20 seeds: one into
 *   its store on each lap, 15), after which South ends with at most 48 − 15 = 33, a margin
 *   of at most +18.
 * So 6 is the only best move, worth exactly +22 seeds = +2200 engine units (its line ends
 * the game, so from depth 2 on its score is that final value; the result is not flagged
 * exact, since the refuted move 5 leads to a long game the search does not finish).
 */
static void test_kalah_obvious_move(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = kalah_of(r, "0,0,0,0,1,1,13,20,0,0,0,0,1,12 S");
    for (uint32_t level = 5; level <= 10; level += 5) {
        MancalaEngine *e = engine_of(level, 1);
        MancalaEngineResult res;
        memset(&res, 0, sizeof res);
        OK(mancala_engine_kalah_bestmove(e, g, 1000, 0, &res));
        if (res.mv != 6 || res.score != 22 * MANCALA_ENGINE_SEED) {
            printf("  level %u: move %u, score %d, depth %u, exact %d\n", level, res.mv, res.score,
                   res.depth, res.exact);
        }
        CHECK(res.mv == 6 && !res.weaker);
        CHECK(res.score == 22 * MANCALA_ENGINE_SEED);
        CHECK(res.depth >= 2 && res.nodes > 0 && res.elapsed_ms < 5000);
        OK(mancala_engine_free(e));
    }
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Any budget gives a legal move: 1 ms from the start of Kalah(6,4) and of Kalah(6,6), a
 * node limit, each level; a game played to its end by two engines. */
static void test_kalah_budgets_and_levels(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = kalah_of(r, NULL);
    MancalaEngine *e = engine_of(10, 0);
    MancalaEngineResult res;
    memset(&res, 0, sizeof res);
    OK(mancala_engine_kalah_bestmove(e, g, 1, 0, &res));
    CHECK(res.mv >= 1 && res.mv <= 6 && is_legal(g, res.mv) && res.depth >= 1);
    CHECK(!res.exact && !res.weaker);

    /* A node limit: the first iteration may exceed it by at most the legal moves plus one. */
    OK(mancala_engine_kalah_bestmove(e, g, 0, 2000, &res));
    CHECK(is_legal(g, res.mv) && res.nodes <= 2000 + 64 && res.nodes > 0);

    /* All-zero config: default table, level 10. */
    MancalaEngineConfig defaults = {0, 0, 0};
    MancalaEngine *d = NULL;
    OK(mancala_engine_new(&defaults, &d));
    OK(mancala_engine_kalah_bestmove(d, g, 20, 0, &res));
    CHECK(is_legal(g, res.mv));
    OK(mancala_engine_free(d));

    /* Levels 1..9 are depth-limited: no budget needed; the depth never exceeds the level's. */
    const uint32_t depths[10] = {1, 2, 3, 4, 5, 6, 8, 10, 14, 0};
    for (uint32_t level = 1; level <= 9; level++) {
        MancalaEngine *l = engine_of(level, 7);
        OK(mancala_engine_kalah_bestmove(l, g, 0, 0, &res));
        CHECK(is_legal(g, res.mv) && res.depth >= 1 && res.depth <= depths[level - 1]);
        OK(mancala_engine_free(l));
    }

    /* Kalah(6,6) with the pie rule: a whole game between level 3 and level 10 at 2 ms. */
    MancalaRules *big = rules_of("kalah(6,6)+pie_rule");
    MancalaKalah *game = kalah_of(big, NULL);
    MancalaEngine *weak = engine_of(3, 42);
    MancalaSide side = MANCALA_SIDE_SOUTH;
    int plies = 0;
    OK(mancala_kalah_side_to_move(game, &side));
    while (side != MANCALA_SIDE_NONE && plies < 400) {
        MancalaEngine *mover = side == MANCALA_SIDE_SOUTH ? e : weak;
        OK(mancala_engine_kalah_bestmove(mover, game, 2, 0, &res));
        OK(mancala_kalah_play(game, res.mv));
        OK(mancala_kalah_side_to_move(game, &side));
        plies++;
    }
    CHECK(side == MANCALA_SIDE_NONE && plies > 0);
    /* The finished game has no move to choose. */
    EXPECT(mancala_engine_kalah_bestmove(e, game, 10, 0, &res), MANCALA_STATUS_ILLEGAL_MOVE);
    OK(mancala_engine_free(weak));
    OK(mancala_kalah_free(game));
    OK(mancala_rules_free(big));

    OK(mancala_engine_free(e));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Level 1 plays a weaker move half of the time, drawn from the seed: two engines with the
 * same seed choose the same moves (level 1 is depth-limited, so the clock never cuts its
 * searches); one with another seed differs somewhere. */
static void test_levels_are_reproducible(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = kalah_of(r, NULL);
    MancalaEngine *a = engine_of(1, 9);
    MancalaEngine *b = engine_of(1, 9);
    MancalaEngine *c = engine_of(1, 10);
    int weaker = 0, same = 1, differs = 0;
    for (int i = 0; i < 40; i++) {
        MancalaEngineResult ra, rb, rc;
        OK(mancala_engine_kalah_bestmove(a, g, 0, 0, &ra));
        OK(mancala_engine_kalah_bestmove(b, g, 0, 0, &rb));
        OK(mancala_engine_kalah_bestmove(c, g, 0, 0, &rc));
        CHECK(is_legal(g, ra.mv) && ra.depth == 1);
        if (ra.mv != rb.mv || ra.weaker != rb.weaker) same = 0;
        if (ra.mv != rc.mv) differs = 1;
        weaker += ra.weaker;
    }
    CHECK(same && differs && weaker > 0 && weaker < 40);
    OK(mancala_engine_free(a));
    OK(mancala_engine_free(b));
    OK(mancala_engine_free(c));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

struct search_job {
    MancalaEngine *engine;
    const MancalaKalah *game;
    MancalaEngineResult result;
    MancalaStatus status;
    atomic_int finished;
};

static void *search_thread(void *arg) {
    struct search_job *job = arg;
    job->status = mancala_engine_kalah_bestmove(job->engine, job->game, 600000, 0, &job->result);
    atomic_store(&job->finished, 1);
    return NULL;
}

/* A ten-minute search of the Kalah(6,6) start, stopped from the main thread. */
static void test_cancel_from_another_thread(void) {
    MancalaRules *r = rules_of("kalah(6,6)");
    MancalaKalah *g = kalah_of(r, NULL);
    struct search_job job;
    memset(&job, 0, sizeof job);
    job.engine = engine_of(10, 0);
    job.game = g;
    job.status = MANCALA_STATUS_PANIC;
    atomic_init(&job.finished, 0);
    double start = now_seconds();
    pthread_t t;
    CHECK(pthread_create(&t, NULL, search_thread, &job) == 0);
    struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    /* Keep asking until the search has stopped (a cancel made before the call was entered
     * is forgotten). */
    for (int i = 0; i < 300 && !atomic_load(&job.finished); i++) {
        OK(mancala_engine_cancel(job.engine));
        nanosleep(&pause, NULL);
    }
    CHECK(pthread_join(t, NULL) == 0);
    double seconds = now_seconds() - start;
    EXPECT(job.status, MANCALA_STATUS_OK);
    CHECK(atomic_load(&job.finished) && seconds < 30.0);
    CHECK(job.result.mv >= 1 && job.result.mv <= 6 && is_legal(g, job.result.mv));
    CHECK(!job.result.exact && job.result.elapsed_ms < 30000);
    /* The cancel does not stick: the next search runs normally. */
    MancalaEngineResult res;
    OK(mancala_engine_kalah_bestmove(job.engine, g, 0, 5000, &res));
    CHECK(res.nodes >= 5000 && is_legal(g, res.mv));
    OK(mancala_engine_free(job.engine));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Bao la Kete through the one game handle: the engine's moves (mancala_engine_bestmove) are
 * accepted by mancala_game_play, for several plies. */
static void test_bao(void) {
    MancalaRules *r = rules_of("bao-la-kete");
    MancalaGame *g = NULL;
    OK(mancala_game_from_rules(r, NULL, &g));
    MancalaEngine *e = engine_of(10, 0);
    MancalaEngine *weak = engine_of(2, 5);
    char mv[MANCALA_MOVE_MAX];
    size_t needed = 0;
    MancalaEngineResult res;
    MancalaSide side = MANCALA_SIDE_SOUTH;
    for (int ply = 0; ply < 12 && side != MANCALA_SIDE_NONE; ply++) {
        MancalaEngine *mover = ply % 2 == 0 ? e : weak;
        memset(mv, 0, sizeof mv);
        memset(&res, 0xff, sizeof res);
        OK(mancala_engine_bestmove(mover, g, 20, 0, mv, sizeof mv, &needed, &res));
        CHECK(needed == strlen(mv) + 1 && needed >= 3 && res.depth >= 1);
        OK(mancala_game_play(g, mv));
        OK(mancala_game_side_to_move(g, &side));
    }

    /* A buffer below MANCALA_MOVE_MAX is refused before searching. */
    needed = 0;
    EXPECT(mancala_engine_bestmove(e, g, 20, 0, mv, 3, &needed, &res),
           MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == MANCALA_MOVE_MAX);
    needed = 0;
    EXPECT(mancala_engine_bestmove(e, g, 20, 0, NULL, 0, &needed, &res),
           MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == MANCALA_MOVE_MAX);
    NUL(mancala_engine_bestmove(NULL, g, 20, 0, mv, sizeof mv, &needed, &res));
    NUL(mancala_engine_bestmove(e, NULL, 20, 0, mv, sizeof mv, &needed, &res));
    NUL(mancala_engine_bestmove(e, g, 20, 0, NULL, sizeof mv, &needed, &res));
    NUL(mancala_engine_bestmove(e, g, 20, 0, mv, sizeof mv, NULL, &res));
    NUL(mancala_engine_bestmove(e, g, 20, 0, mv, sizeof mv, &needed, NULL));
    EXPECT(mancala_engine_bestmove(e, g, 0, 0, mv, sizeof mv, &needed, &res),
           MANCALA_STATUS_INVALID_ARGUMENT);
    /* A Kalah handle where a game handle is expected, and the other way round. */
    MancalaRules *k = rules_of("standard");
    MancalaKalah *kg = kalah_of(k, NULL);
    DEAD(mancala_engine_bestmove(e, (const MancalaGame *)kg, 20, 0, mv, sizeof mv, &needed,
                                 &res));
    DEAD(mancala_engine_kalah_bestmove(e, (const MancalaKalah *)g, 20, 0, &res));
    OK(mancala_kalah_free(kg));
    OK(mancala_rules_free(k));

    OK(mancala_engine_free(e));
    DEAD(mancala_engine_bestmove(e, g, 20, 0, mv, sizeof mv, &needed, &res));
    OK(mancala_engine_free(weak));
    OK(mancala_game_free(g));
    OK(mancala_rules_free(r));
}

static void test_engine_errors(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = kalah_of(r, NULL);
    MancalaEngineConfig config = {1u << 16, 10, 0};
    MancalaEngine *e = NULL;
    MancalaEngine *none = NULL;
    MancalaEngineResult res;
    memset(&res, 0, sizeof res);

    NUL(mancala_engine_new(NULL, &none));
    NUL(mancala_engine_new(&config, NULL));
    CHECK(none == NULL);
    /* Levels: 0 means 10, 1..10 accepted, 11 and above refused. */
    MancalaEngineConfig bad = {0, 11, 0};
    EXPECT(mancala_engine_new(&bad, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    bad.level = 1000;
    EXPECT(mancala_engine_new(&bad, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(none == NULL);
    OK(mancala_engine_new(&config, &e));

    NUL(mancala_engine_kalah_bestmove(NULL, g, 10, 0, &res));
    NUL(mancala_engine_kalah_bestmove(e, NULL, 10, 0, &res));
    NUL(mancala_engine_kalah_bestmove(e, g, 10, 0, NULL));
    NUL(mancala_engine_cancel(NULL));
    OK(mancala_engine_free(NULL));
    /* Level 10 needs a budget. */
    res.mv = 99;
    EXPECT(mancala_engine_kalah_bestmove(e, g, 0, 0, &res), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(res.mv == 99); /* not written on failure */
    /* A cancel with no search running is forgotten by the next search. */
    OK(mancala_engine_cancel(e));
    OK(mancala_engine_kalah_bestmove(e, g, 0, 3000, &res));
    CHECK(res.nodes >= 3000);

    /* A finished game. */
    MancalaKalah *over = kalah_of(r, "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
    res.mv = 99;
    EXPECT(mancala_engine_kalah_bestmove(e, over, 10, 0, &res), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(res.mv == 99);

    /* Wrong handle types, freed engine, double free. */
    DEAD(mancala_engine_kalah_bestmove((MancalaEngine *)g, g, 10, 0, &res));
    DEAD(mancala_engine_kalah_bestmove(e, (const MancalaKalah *)e, 10, 0, &res));
    DEAD(mancala_engine_cancel((const MancalaEngine *)g));
    DEAD(mancala_engine_free((MancalaEngine *)g));
    OK(mancala_engine_free(e));
    DEAD(mancala_engine_kalah_bestmove(e, g, 10, 0, &res));
    DEAD(mancala_engine_cancel(e));
    DEAD(mancala_engine_free(e));

    OK(mancala_kalah_free(over));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Is `mv` one of the solver's best moves of `g`, and `score` (engine units) its final margin? */
static int solver_agrees(const MancalaKalah *g, uint8_t mv, int32_t score) {
    MancalaSolverConfig config = {1, 1u << 20, 0, 0};
    MancalaSolver *s = NULL;
    OK(mancala_solver_new(&config, &s));
    MancalaSolution sol;
    memset(&sol, 0, sizeof sol);
    OK(mancala_solver_solve(s, g, &sol));
    OK(mancala_solver_free(s));
    int best = 0;
    for (uint32_t i = 0; i < sol.best_move_count; i++) {
        if (sol.best_moves[i] == mv) best = 1;
    }
    return sol.exact && best && score == MANCALA_ENGINE_SEED * sol.score;
}

static void test_engine_database(void) {
    MancalaRules *r4 = rules_of("kalah(4,3)");
    MancalaDb *db = NULL;
    OK(mancala_db_build("kalah(4,3)", 8, MANCALA_EGDB_ENCODING_BYTE, 1, NULL, NULL, 0, &db));
    MancalaEngineResult res;
    memset(&res, 0, sizeof res);

    /* 8 seeds in the houses: every position below is in the database. A depth-limited level
     * (5: five plies, no weaker moves) is exact with it and only an estimate without. */
    MancalaKalah *g = kalah_of(r4, "2,0,1,1,10,0,1,2,1,6 S");
    MancalaEngine *plain = engine_of(5, 0);
    OK(mancala_engine_kalah_bestmove(plain, g, 0, 0, &res));
    CHECK(!res.exact);
    MancalaEngine *e = engine_of(5, 0);
    OK(mancala_engine_set_db(e, db));
    OK(mancala_engine_kalah_bestmove(e, g, 0, 0, &res));
    CHECK(res.exact && is_legal(g, res.mv));
    CHECK(solver_agrees(g, res.mv, res.score));

    /* Level 10 with a node budget: solved at the root (12 seeds, K = 8). The engine keeps the
     * data after the handle is freed. */
    MancalaEngine *top = engine_of(10, 0);
    OK(mancala_engine_set_db(top, db));
    OK(mancala_db_free(db));
    MancalaKalah *h = kalah_of(r4, "2,1,3,0,7,1,2,0,3,5 N");
    OK(mancala_engine_kalah_bestmove(top, h, 0, 1u << 22, &res));
    CHECK(res.exact && is_legal(h, res.mv));
    CHECK(solver_agrees(h, res.mv, res.score));

    /* A database for 4 houses cannot serve Kalah(6,4): refused, nothing written. The Bao
     * searches of the same engine do not use it. NULL detaches it. */
    MancalaRules *r6 = rules_of("standard");
    MancalaKalah *six = kalah_of(r6, NULL);
    res.mv = 99;
    EXPECT(mancala_engine_kalah_bestmove(top, six, 10, 0, &res), MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(res.mv == 99);
    CHECK(strstr(last_error(), "K = 8") != NULL);
    MancalaRules *rb = rules_of("bao-la-kete");
    MancalaGame *bao = NULL;
    OK(mancala_game_from_rules(rb, NULL, &bao));
    char mv[MANCALA_MOVE_MAX];
    size_t needed = 0;
    OK(mancala_engine_bestmove(top, bao, 0, 2000, mv, sizeof mv, &needed, &res));
    OK(mancala_engine_set_db(top, NULL));
    OK(mancala_engine_kalah_bestmove(top, six, 10, 0, &res));
    CHECK(is_legal(six, res.mv));

    /* Error paths: NULL engine, dead database, wrong handle types, freed engine. */
    NUL(mancala_engine_set_db(NULL, NULL));
    DEAD(mancala_engine_set_db(top, db)); /* freed above */
    DEAD(mancala_engine_set_db(top, (const MancalaDb *)g));
    DEAD(mancala_engine_set_db((MancalaEngine *)g, NULL));
    OK(mancala_engine_free(plain));
    DEAD(mancala_engine_set_db(plain, NULL));

    OK(mancala_engine_free(e));
    OK(mancala_engine_free(top));
    OK(mancala_game_free(bao));
    OK(mancala_kalah_free(six));
    OK(mancala_kalah_free(h));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(rb));
    OK(mancala_rules_free(r6));
    OK(mancala_rules_free(r4));
}

int main(void) {
    test_kalah_obvious_move();
    test_kalah_budgets_and_levels();
    test_levels_are_reproducible();
    test_cancel_from_another_thread();
    test_bao();
    test_engine_errors();
    test_engine_database();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
