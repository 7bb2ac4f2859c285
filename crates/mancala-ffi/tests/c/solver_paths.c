/*
 * The solver and endgame-database part of the C API: values checked against a plain minimax
 * written here over the game calls (clone, play, outcome), limits, cancel from another thread,
 * database build/save/load/verify, damaged files, and every error path (NULL for each pointer,
 * dead handles, small buffers, invalid UTF-8, mismatched rules).
 *
 * Usage: solver_paths <scratch directory>. Prints failed checks and "N passed, N failed".
 * Built and run (also under valgrind or AddressSanitizer) by tests/c_programs.rs.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mancala.h"

/* This program checks the deprecated calls it uses (kept until 0.4.0) still work: the
 * older database calls, and the solver on the MancalaKalah handle (mancala_solver_solve and
 * mancala_solver_analyse, with mancala_kalah_*; their MancalaGame forms are checked by
 * game_paths.c and tests/game_forms.rs). Their deprecation warnings are expected here. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#include "check.h"

static MancalaKalah *game_of(const MancalaRules *r, const char *position) {
    MancalaKalah *g = NULL;
    if (position == NULL) {
        OK(mancala_kalah_new(r, &g));
    } else {
        OK(mancala_kalah_parse(r, position, &g));
    }
    return g;
}

static MancalaSolver *solver_of(uint64_t node_limit) {
    MancalaSolverConfig config = {1, 1u << 20, node_limit, 0};
    MancalaSolver *s = NULL;
    OK(mancala_solver_new(&config, &s));
    return s;
}

/* Plain minimax over the API: the best store difference the player to move can still gain
 * (future seeds into their store minus into the opponent's, final sweep included). */
static int minimax(const MancalaKalah *g) {
    MancalaSide me;
    MancalaOutcome outcome;
    int32_t before, after;
    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    mancala_kalah_side_to_move(g, &me);
    if (me == MANCALA_SIDE_NONE) return 0;
    mancala_kalah_outcome(g, &outcome, &before);
    mancala_kalah_legal_moves(g, moves, MANCALA_KALAH_MAX_MOVES, &count);
    int best = -1000;
    for (size_t i = 0; i < count; i++) {
        MancalaKalah *next = NULL;
        MancalaSide next_side;
        mancala_kalah_clone(g, &next);
        mancala_kalah_play(next, moves[i]);
        mancala_kalah_outcome(next, &outcome, &after);
        mancala_kalah_side_to_move(next, &next_side);
        int gain = (after - before) * (me == MANCALA_SIDE_SOUTH ? 1 : -1);
        int rest = minimax(next);
        int v = gain + (next_side == me ? rest : -rest);
        if (v > best) best = v;
        mancala_kalah_free(next);
    }
    return best;
}

static void test_values_against_minimax(void) {
    const char *cases[][2] = {
        {"kalah(3,2)", NULL},
        {"kalah(4,1)", NULL},
        {"kalah(3,2)+empty_capture", NULL},
        {"kalah(2,3)+end_when_no_move", NULL},
        {"standard", "0,0,0,1,2,1,20,1,0,2,0,1,0,20 S"},
        {"standard", "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S"},
        {"kalah(6,4)+empty_capture", "1,0,0,2,0,1,19,0,2,0,1,0,1,21 N"},
    };
    MancalaSolver *s = solver_of(0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MancalaRules *r = rules_of(cases[i][0]);
        MancalaKalah *g = game_of(r, cases[i][1]);
        int expected = minimax(g);
        MancalaSolution sol;
        memset(&sol, 0, sizeof sol);
        OK(mancala_solver_solve(s, g, &sol));
        if (sol.value != expected) {
            printf("  %s %s: solver %d, minimax %d\n", cases[i][0], cases[i][1] ? cases[i][1] : "",
                   sol.value, expected);
        }
        CHECK(sol.exact && sol.value == expected && sol.lower == expected && sol.upper == expected);
        CHECK(sol.best_move_count >= 1 && sol.best_move_count <= MANCALA_KALAH_MAX_MOVES);
        CHECK(!sol.swap_offered && sol.nodes > 0);

        /* Analysis: one entry per legal move, the best equal to the value, and each best move
         * of the solution has that value. */
        MancalaMoveValue values[MANCALA_KALAH_MAX_MOVES];
        uint8_t legal[MANCALA_KALAH_MAX_MOVES];
        size_t count = 0, legal_count = 0;
        OK(mancala_solver_analyse(s, g, values, MANCALA_KALAH_MAX_MOVES, &count));
        OK(mancala_kalah_legal_moves(g, legal, MANCALA_KALAH_MAX_MOVES, &legal_count));
        CHECK(count == legal_count);
        int best = -1000;
        for (size_t k = 0; k < count; k++) {
            CHECK(values[k].mv == legal[k] && values[k].exact);
            if (values[k].value > best) best = values[k].value;
            for (uint32_t b = 0; b < sol.best_move_count; b++) {
                if (sol.best_moves[b] == values[k].mv) CHECK(values[k].value == sol.value);
            }
        }
        CHECK(best == expected);
        OK(mancala_kalah_free(g));
        OK(mancala_rules_free(r));
    }
    OK(mancala_solver_free(s));
}

static void test_pie_rule_choice(void) {
    MancalaRules *r = rules_of("kalah(3,2)+pie_rule");
    MancalaKalah *g = game_of(r, NULL);
    OK(mancala_kalah_play(g, 1)); /* 2 seeds from S1 to S2, S3: North may swap */
    MancalaSolver *s = solver_of(0);
    MancalaSolution sol;
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(sol.exact && sol.swap_offered && sol.has_stay_value);
    CHECK(sol.value == (sol.swap_value > sol.stay_value ? sol.swap_value : sol.stay_value));
    CHECK(sol.swap_is_better == (sol.swap_value > sol.stay_value));
    OK(mancala_solver_free(s));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Under end_when_no_move the swap is offered with North's row empty and is then the
 * only move; it ends the game and the sweep gives South's seed to South's store (0,1,0,0 -),
 * the side the decider now holds: +1 for the decider. No house move: no stay value. */
static void test_swap_only_move(void) {
    MancalaRules *r = rules_of("kalah(1,1)+pie_rule+end_when_no_move");
    MancalaKalah *g = game_of(r, "1,0,0,0 N swap");
    MancalaSolver *s = solver_of(0);
    MancalaSolution sol;
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(sol.exact && sol.value == 1 && sol.score == 1);
    CHECK(sol.best_move_count == 1 && sol.best_moves[0] == MANCALA_KALAH_SWAP);
    CHECK(sol.swap_offered && sol.swap_value == 1 && sol.swap_is_better);
    CHECK(!sol.has_stay_value && sol.stay_value == 0);
    OK(mancala_solver_free(s));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static void test_limits(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = game_of(r, NULL);
    MancalaSolver *s = solver_of(5000);
    MancalaSolution sol;
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(!sol.exact && sol.lower <= sol.upper && sol.lower >= -48 && sol.upper <= 48);
    OK(mancala_solver_set_limits(s, 0, 50)); /* 50 ms */
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(!sol.exact && sol.seconds < 5.0);
    MancalaMoveValue values[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    OK(mancala_solver_set_limits(s, 5000, 0));
    OK(mancala_solver_analyse(s, g, values, MANCALA_KALAH_MAX_MOVES, &count));
    CHECK(count == 6);
    OK(mancala_solver_clear_table(s));
    OK(mancala_solver_free(s));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

struct solve_job {
    MancalaSolver *solver;
    const MancalaKalah *game;
    MancalaSolution solution;
    MancalaStatus status;
    atomic_int finished;
};

static void *solve_thread(void *arg) {
    struct solve_job *job = arg;
    job->status = mancala_solver_solve(job->solver, job->game, &job->solution);
    atomic_store(&job->finished, 1);
    return NULL;
}

static void test_cancel_from_another_thread(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = game_of(r, NULL);
    struct solve_job job = {solver_of(0), g, {0}, MANCALA_STATUS_PANIC, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, solve_thread, &job) == 0);
    struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    /* Keep asking until the solve has stopped (a cancel before it started is forgotten). */
    for (int i = 0; i < 100; i++) {
        OK(mancala_solver_cancel(job.solver));
        if (atomic_load(&job.finished)) break;
        nanosleep(&pause, NULL);
    }
    CHECK(pthread_join(t, NULL) == 0);
    EXPECT(job.status, MANCALA_STATUS_OK);
    CHECK(!job.solution.exact && job.solution.seconds < 30.0);
    OK(mancala_solver_free(job.solver));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static void flip_byte(const char *from, const char *to, long offset, int truncate_to) {
    FILE *in = fopen(from, "rb");
    FILE *out = fopen(to, "wb");
    if (in == NULL || out == NULL) {
        CHECK(!"cannot copy the database file");
        if (in) fclose(in);
        if (out) fclose(out);
        return;
    }
    int c;
    long i = 0;
    while ((c = fgetc(in)) != EOF) {
        if (truncate_to >= 0 && i >= truncate_to) break;
        fputc(i == offset ? c ^ 0x40 : c, out);
        i++;
    }
    fclose(in);
    fclose(out);
}

static void test_databases(const char *dir) {
    char path[1024], bad[1024];
    snprintf(path, sizeof path, "%s/kalah6.k6.egdb", dir);
    MancalaRules *r = rules_of("standard");
    MancalaEgdb *db = NULL;
    OK(mancala_egdb_build(r, 6, 1, &db));
    uint8_t houses = 0;
    uint32_t k = 0;
    uint64_t entries = 0;
    OK(mancala_egdb_info(db, &houses, &k, &entries));
    CHECK(houses == 6 && k == 6 && entries == 18564); /* C(6+12, 12) */
    char text[128];
    size_t needed = 0;
    OK(mancala_egdb_describe(db, text, sizeof text, &needed));
    CHECK(strstr(text, "K = 6") != NULL);
    OK(mancala_egdb_save(db, path));

    /* Probes agree with the plain minimax. */
    const char *endgames[] = {"0,0,0,1,2,1,21,1,0,1,0,0,0,21 S", "2,0,0,0,0,1,22,0,1,0,0,2,0,20 N"};
    for (size_t i = 0; i < 2; i++) {
        MancalaKalah *g = game_of(r, endgames[i]);
        bool found = false;
        int32_t value = 99;
        OK(mancala_egdb_value(db, g, &found, &value));
        CHECK(found && value == minimax(g));
        OK(mancala_kalah_free(g));
    }
    MancalaKalah *start = game_of(r, NULL);
    bool found = true;
    int32_t value = 99;
    OK(mancala_egdb_value(db, start, &found, &value));
    CHECK(!found && value == 0);

    /* Load, verify, solve with it. */
    MancalaEgdb *loaded = NULL;
    OK(mancala_egdb_load(path, &loaded));
    OK(mancala_egdb_info(loaded, &houses, &k, &entries));
    CHECK(houses == 6 && k == 6 && entries == 18564);
    OK(mancala_egdb_verify(path, &entries));
    CHECK(entries == 18564);
    MancalaSolver *s = solver_of(0);
    OK(mancala_solver_set_database(s, loaded));
    OK(mancala_egdb_free(loaded)); /* the solver keeps the data */
    MancalaKalah *g = game_of(r, "0,0,1,0,2,3,18,1,0,2,0,1,1,19 S");
    MancalaSolution sol;
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(sol.exact && sol.value == minimax(g));
    OK(mancala_kalah_free(g));
    /* A database for 6 houses cannot serve Kalah(4,n). */
    MancalaRules *r4 = rules_of("kalah(4,2)");
    g = game_of(r4, NULL);
    memset(&sol, 0x5a, sizeof sol);
    EXPECT(mancala_solver_solve(s, g, &sol), MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(sol.value == 0x5a5a5a5a);
    MancalaMoveValue values[8];
    size_t count = 0;
    EXPECT(mancala_solver_analyse(s, g, values, 8, &count), MANCALA_STATUS_DATABASE_MISMATCH);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r4));
    OK(mancala_solver_free(s));

    /* Damaged files. */
    MancalaEgdb *none = NULL;
    snprintf(bad, sizeof bad, "%s/flipped.egdb", dir);
    flip_byte(path, bad, 5000, -1);
    EXPECT(mancala_egdb_load(bad, &none), MANCALA_STATUS_CORRUPT_FILE);
    /* The message names the file it is about. */
    CHECK(strncmp(last_error(), bad, strlen(bad)) == 0);
    CHECK(strstr(last_error(), "checksum mismatch") != NULL);
    EXPECT(mancala_egdb_verify(bad, &entries), MANCALA_STATUS_CORRUPT_FILE);
    flip_byte(path, bad, 0, -1); /* magic */
    EXPECT(mancala_egdb_load(bad, &none), MANCALA_STATUS_CORRUPT_FILE);
    flip_byte(path, bad, -1, 3000); /* truncated */
    EXPECT(mancala_egdb_load(bad, &none), MANCALA_STATUS_CORRUPT_FILE);
    flip_byte(path, bad, -1, 0); /* empty */
    EXPECT(mancala_egdb_load(bad, &none), MANCALA_STATUS_CORRUPT_FILE);
    snprintf(bad, sizeof bad, "%s/does-not-exist.egdb", dir);
    EXPECT(mancala_egdb_load(bad, &none), MANCALA_STATUS_IO_ERROR);
    EXPECT(mancala_egdb_verify(bad, &entries), MANCALA_STATUS_IO_ERROR);
    snprintf(bad, sizeof bad, "%s/no-such-dir/x.egdb", dir);
    EXPECT(mancala_egdb_save(db, bad), MANCALA_STATUS_IO_ERROR);
    EXPECT(mancala_egdb_load("\xff.egdb", &none), MANCALA_STATUS_INVALID_UTF8);
    EXPECT(mancala_egdb_verify("\xff.egdb", &entries), MANCALA_STATUS_INVALID_UTF8);
    EXPECT(mancala_egdb_save(db, "\xff.egdb"), MANCALA_STATUS_INVALID_UTF8);
    EXPECT(mancala_egdb_build(r, 128, 1, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(last_error(), "K = 128") != NULL);
    MancalaRules *bao = rules_of("bao-la-kete");
    EXPECT(mancala_egdb_build(bao, 4, 1, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    OK(mancala_rules_free(bao));
    CHECK(none == NULL);

    /* NULL for each pointer; dead handles. */
    NUL(mancala_egdb_build(NULL, 4, 1, &none));
    NUL(mancala_egdb_build(r, 4, 1, NULL));
    NUL(mancala_egdb_save(NULL, path));
    NUL(mancala_egdb_save(db, NULL));
    NUL(mancala_egdb_load(NULL, &none));
    NUL(mancala_egdb_load(path, NULL));
    NUL(mancala_egdb_verify(NULL, &entries));
    NUL(mancala_egdb_verify(path, NULL));
    NUL(mancala_egdb_info(NULL, &houses, &k, &entries));
    NUL(mancala_egdb_info(db, NULL, &k, &entries));
    NUL(mancala_egdb_info(db, &houses, NULL, &entries));
    NUL(mancala_egdb_info(db, &houses, &k, NULL));
    NUL(mancala_egdb_describe(NULL, text, sizeof text, &needed));
    NUL(mancala_egdb_describe(db, NULL, sizeof text, &needed));
    NUL(mancala_egdb_describe(db, text, sizeof text, NULL));
    EXPECT(mancala_egdb_describe(db, text, 3, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed > 3);
    NUL(mancala_egdb_value(NULL, start, &found, &value));
    NUL(mancala_egdb_value(db, NULL, &found, &value));
    NUL(mancala_egdb_value(db, start, NULL, &value));
    NUL(mancala_egdb_value(db, start, &found, NULL));
    CHECK(none == NULL);
    OK(mancala_egdb_free(NULL));
    OK(mancala_egdb_free(db));
    DEAD(mancala_egdb_free(db));
    DEAD(mancala_egdb_info(db, &houses, &k, &entries));
    DEAD(mancala_egdb_describe(db, text, sizeof text, &needed));
    DEAD(mancala_egdb_value(db, start, &found, &value));
    DEAD(mancala_egdb_save(db, path));
    DEAD(mancala_egdb_value((const MancalaEgdb *)start, start, &found, &value));
    OK(mancala_kalah_free(start));
    OK(mancala_rules_free(r));
}

static void test_solver_errors(void) {
    MancalaRules *r = rules_of("kalah(3,2)");
    MancalaKalah *g = game_of(r, NULL);
    MancalaSolverConfig config = {0, 0, 0, 0};
    MancalaSolver *s = NULL;
    MancalaSolver *none = NULL;
    MancalaSolution sol;
    MancalaMoveValue values[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;

    OK(mancala_solver_new(&config, &s)); /* all defaults */
    NUL(mancala_solver_new(NULL, &none));
    NUL(mancala_solver_new(&config, NULL));
    CHECK(none == NULL);
    NUL(mancala_solver_solve(NULL, g, &sol));
    NUL(mancala_solver_solve(s, NULL, &sol));
    NUL(mancala_solver_solve(s, g, NULL));
    NUL(mancala_solver_analyse(NULL, g, values, 8, &count));
    NUL(mancala_solver_analyse(s, NULL, values, 8, &count));
    NUL(mancala_solver_analyse(s, g, NULL, 8, &count));
    NUL(mancala_solver_analyse(s, g, values, 8, NULL));
    EXPECT(mancala_solver_analyse(s, g, values, 2, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 3);
    count = 0;
    EXPECT(mancala_solver_analyse(s, g, NULL, 0, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 3);
    NUL(mancala_solver_set_limits(NULL, 1, 1));
    NUL(mancala_solver_set_database(NULL, NULL));
    NUL(mancala_solver_set_database(s, NULL));
    NUL(mancala_solver_cancel(NULL));
    NUL(mancala_solver_clear_table(NULL));
    OK(mancala_solver_free(NULL));

    /* A finished game: value 0, no move. */
    MancalaRules *std_rules = rules_of("standard");
    MancalaKalah *over = game_of(std_rules, "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
    OK(mancala_solver_solve(s, over, &sol));
    CHECK(sol.exact && sol.value == 0 && sol.score == 12 && sol.best_move_count == 0);
    OK(mancala_solver_analyse(s, over, values, 8, &count));
    CHECK(count == 0);

    /* Wrong handle types, freed solver. */
    DEAD(mancala_solver_solve((MancalaSolver *)g, g, &sol));
    DEAD(mancala_solver_solve(s, (const MancalaKalah *)s, &sol));
    OK(mancala_solver_free(s));
    DEAD(mancala_solver_solve(s, g, &sol));
    DEAD(mancala_solver_analyse(s, g, values, 8, &count));
    DEAD(mancala_solver_set_limits(s, 1, 1));
    DEAD(mancala_solver_cancel(s));
    DEAD(mancala_solver_clear_table(s));
    DEAD(mancala_solver_free(s));
    OK(mancala_kalah_free(over));
    OK(mancala_rules_free(std_rules));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

/* Progress callbacks: called on the calling thread with bounds that hold the value, and a
 * non-zero return cancels (a solve keeps its bounds, a build returns CANCELLED). */
struct progress_log {
    pthread_t caller;
    int calls;
    int wrong_thread;
    int bad_bounds;
    int32_t value;
    int cancel_at;
};

static int on_solve(const MancalaSolveProgress *p, void *user_data) {
    struct progress_log *log = user_data;
    log->calls++;
    if (!pthread_equal(pthread_self(), log->caller)) log->wrong_thread++;
    /* A running probe tests a bound not yet proven: lower < testing <= upper. */
    int bad_probe = p->probing ? (p->testing <= p->lower || p->testing > p->upper) : p->testing != 0;
    if (bad_probe || p->lower > p->upper ||
        (log->value != INT32_MIN && (p->lower > log->value || p->upper < log->value))) {
        log->bad_bounds++;
        printf("bad report: phase %d, [%d, %d], probing %d testing %d, %llu nodes, %.3f s\n",
               (int)p->phase, p->lower, p->upper, (int)p->probing, p->testing,
               (unsigned long long)p->nodes, p->seconds);
    }
    return log->cancel_at != 0 && log->calls >= log->cancel_at;
}

static int on_build(const MancalaBuildProgress *p, void *user_data) {
    struct progress_log *log = user_data;
    log->calls++;
    if (!pthread_equal(pthread_self(), log->caller)) log->wrong_thread++;
    if (p->done > p->total) log->bad_bounds++;
    return log->cancel_at != 0 && log->calls >= log->cancel_at;
}

static void test_progress(void) {
    /* Kalah(6,2): +6 (Rawlings 2015). */
    MancalaRules *r = rules_of("kalah(6,2)");
    MancalaKalah *g = game_of(r, NULL);
    MancalaSolver *s = solver_of(0);
    struct progress_log log = {pthread_self(), 0, 0, 0, 6, 0};
    MancalaSolution sol;
    OK(mancala_solver_set_progress(s, on_solve, &log, 1));
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(sol.exact && sol.value == 6);
    CHECK(sol.seconds < 0.05 || log.calls > 0); /* one report an interval of 10 ms at least */
    CHECK(log.calls <= (int)(sol.seconds * 100.0) + 1);
    CHECK(log.wrong_thread == 0);
    CHECK(log.bad_bounds == 0);
    /* Removed: no more calls. */
    OK(mancala_solver_set_progress(s, NULL, NULL, 0));
    log.calls = 0;
    OK(mancala_solver_clear_table(s));
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(log.calls == 0);
    NUL(mancala_solver_set_progress(NULL, on_solve, &log, 0));
    mancala_solver_free(s);
    mancala_kalah_free(g);
    mancala_rules_free(r);

    /* Kalah(6,4) from the start takes minutes: the first report cancels it. */
    r = rules_of("standard");
    g = game_of(r, NULL);
    s = solver_of(0);
    struct progress_log stop = {pthread_self(), 0, 0, 0, INT32_MIN, 1};
    OK(mancala_solver_set_progress(s, on_solve, &stop, 20));
    OK(mancala_solver_solve(s, g, &sol));
    CHECK(!sol.exact);
    CHECK(stop.calls == 1);
    CHECK(sol.lower <= sol.upper);
    mancala_solver_free(s);
    mancala_kalah_free(g);

    /* A build of C(26,12) = 9,657,700 positions: reported, then cancelled. */
    MancalaRules *one = rules_of("kalah(6,2)"); /* 24 seeds: K = 14 allowed */
    MancalaEgdb *db = NULL;
    struct progress_log build = {pthread_self(), 0, 0, 0, 0, 0};
    OK(mancala_egdb_build_progress(one, 14, 2, on_build, &build, 1, &db));
    CHECK(db != NULL && build.calls > 0 && build.wrong_thread == 0 && build.bad_bounds == 0);
    mancala_egdb_free(db);
    MancalaEgdb *sentinel = (MancalaEgdb *)&passed;
    db = sentinel;
    struct progress_log cancel = {pthread_self(), 0, 0, 0, 0, 1};
    EXPECT(mancala_egdb_build_progress(one, 14, 2, on_build, &cancel, 1, &db), MANCALA_STATUS_CANCELLED);
    CHECK(db == sentinel);
    CHECK(strstr(last_error(), "cancelled") != NULL);
    mancala_rules_free(one);
    mancala_rules_free(r);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <scratch directory>\n", argv[0]);
        return 2;
    }
    test_values_against_minimax();
    test_pie_rule_choice();
    test_swap_only_move();
    test_limits();
    test_cancel_from_another_thread();
    test_databases(argv[1]);
    test_solver_errors();
    test_progress();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
