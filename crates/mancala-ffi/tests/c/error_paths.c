/*
 * Every error path of the C API, checked from C: NULL for each pointer argument, freed,
 * foreign and wrongly typed handles, illegal moves, buffers too small, invalid UTF-8, bad
 * rule sets and bad positions, plus the values of the happy paths (derived by hand from
 * docs/rules/kalah.md). Out-pointers are preset to sentinels to check that a failing call
 * writes nothing. Prints one line per failed check and ends with "N passed, N failed".
 *
 * Built and run (also under valgrind or AddressSanitizer) by tests/c_api.rs.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "mancala.h"

#include "check.h"

/* The error paths of the deprecated Bao la Kete family (mancala_bao_*, kept until 0.4.0) are
 * checked here too, so that the thin wrappers keep working until they go: their deprecation
 * warnings are silenced for this file. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char *START = "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S";
static const char *AFTER_3 = "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S";

static MancalaKalah *parse(const MancalaRules *r, const char *text) {
    MancalaKalah *g = NULL;
    OK(mancala_kalah_parse(r, text, &g));
    return g;
}

static int printed_is(const MancalaKalah *g, const char *expected) {
    char buf[128];
    size_t needed = 0;
    if (mancala_kalah_print(g, buf, sizeof buf, &needed) != MANCALA_STATUS_OK) return 0;
    return strcmp(buf, expected) == 0 && needed == strlen(expected) + 1;
}

static void test_version(void) {
    uint32_t major = 99, minor = 99, patch = 99;
    const char *s = NULL;
    char expected[64];
    OK(mancala_version(&major, &minor, &patch));
    CHECK(major == MANCALA_VERSION_MAJOR && minor == MANCALA_VERSION_MINOR &&
          patch == MANCALA_VERSION_PATCH);
    OK(mancala_version_string(&s));
    snprintf(expected, sizeof expected, "%d.%d.%d", MANCALA_VERSION_MAJOR, MANCALA_VERSION_MINOR,
             MANCALA_VERSION_PATCH);
    CHECK(s != NULL && strcmp(s, expected) == 0);
    NUL(mancala_version(NULL, &minor, &patch));
    NUL(mancala_version(&major, NULL, &patch));
    NUL(mancala_version(&major, &minor, NULL));
    NUL(mancala_version_string(NULL));
}

static void test_status_names_and_last_error(void) {
    const char *name = NULL;
    OK(mancala_status_name(MANCALA_STATUS_ILLEGAL_MOVE, &name));
    CHECK(name != NULL && strcmp(name, "MANCALA_STATUS_ILLEGAL_MOVE") == 0);
    OK(mancala_status_name(MANCALA_STATUS_PANIC, &name));
    CHECK(strcmp(name, "MANCALA_STATUS_PANIC") == 0);
    name = NULL;
    EXPECT(mancala_status_name(-1, &name), MANCALA_STATUS_INVALID_ARGUMENT);
    EXPECT(mancala_status_name(1000, &name), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(name == NULL);
    NUL(mancala_status_name(MANCALA_STATUS_OK, NULL));

    /* A failure leaves a message; reading it never changes it; no successful call touches it
     * (the errno rule), a failure replaces it. */
    MancalaRules *r = NULL;
    EXPECT(mancala_rules_new("kalah(9,4)", &r), MANCALA_STATUS_BAD_RULES);
    CHECK(strstr(last_error(), "houses per row must be 1..=7, got 9") != NULL);
    OK(mancala_status_name(MANCALA_STATUS_BAD_RULES, &name));
    uint32_t major = 0, minor = 0, patch = 0;
    OK(mancala_version(&major, &minor, &patch));
    const char *version = NULL;
    OK(mancala_version_string(&version));
    CHECK(strcmp(last_error(), "houses per row must be 1..=7, got 9") == 0);
    size_t needed = 0;
    char tiny[4] = {'x', 'x', 'x', 'x'};
    EXPECT(mancala_last_error(tiny, sizeof tiny, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == strlen("houses per row must be 1..=7, got 9") + 1);
    CHECK(tiny[0] == 'x' && tiny[3] == 'x');
    EXPECT(mancala_last_error(NULL, 0, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    NUL(mancala_last_error(NULL, 8, &needed));
    NUL(mancala_last_error(tiny, sizeof tiny, NULL));
    CHECK(strstr(last_error(), "got 9") != NULL);
    NUL(mancala_rules_new(NULL, &r));
    CHECK(strcmp(last_error(), "argument `text` is NULL") == 0);
    r = rules_of("standard");
    CHECK(strcmp(last_error(), "argument `text` is NULL") == 0);
    OK(mancala_rules_free(r));
    CHECK(strcmp(last_error(), "argument `text` is NULL") == 0);
}

/* The errno rule on the calls an error handler makes after a failure: freeing handles (and
 * NULL), getters, printing and drawing into big enough buffers, the diagnostic calls, and a
 * successful call that does work; none of them touches the message of the failure. */
static void test_a_success_keeps_the_message(void) {
    const char *illegal = "illegal move 9: house 9 does not exist: houses are numbered 1..=6";
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = NULL, *tmp = NULL;
    OK(mancala_kalah_new(r, &g));
    OK(mancala_kalah_clone(g, &tmp));
    EXPECT(mancala_kalah_play(g, 9), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(strcmp(last_error(), illegal) == 0);
    OK(mancala_kalah_free(tmp));
    CHECK(strcmp(last_error(), illegal) == 0);
    OK(mancala_kalah_free(NULL));
    OK(mancala_rules_free(NULL));
    OK(mancala_bao_free(NULL));
    OK(mancala_solver_free(NULL));
    OK(mancala_db_free(NULL));
    OK(mancala_engine_free(NULL));
    CHECK(strcmp(last_error(), illegal) == 0);
    MancalaSide side = MANCALA_SIDE_NONE;
    OK(mancala_kalah_side_to_move(g, &side));
    MancalaOutcome outcome = MANCALA_OUTCOME_DRAW;
    int32_t score = 1;
    OK(mancala_kalah_outcome(g, &outcome, &score));
    uint8_t houses = 0, seeds = 0;
    OK(mancala_rules_size(r, &houses, &seeds));
    char text[MANCALA_DRAWING_MAX];
    size_t needed = 0;
    OK(mancala_kalah_print(g, text, sizeof text, &needed));
    OK(mancala_kalah_draw(g, text, sizeof text, &needed));
    OK(mancala_rules_print(r, text, sizeof text, &needed));
    const char *name = NULL;
    OK(mancala_status_name(MANCALA_STATUS_ILLEGAL_MOVE, &name));
    CHECK(strcmp(last_error(), illegal) == 0);
    /* A successful move does not clear it either; the next failure replaces it. */
    OK(mancala_kalah_play(g, 3));
    CHECK(strcmp(last_error(), illegal) == 0);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
    CHECK(strcmp(last_error(), illegal) == 0);
    EXPECT(mancala_rules_free(r), MANCALA_STATUS_INVALID_HANDLE);
    CHECK(strstr(last_error(), "not a live MancalaRules handle") != NULL);
}

static void test_rules(void) {
    MancalaRules *sentinel = (MancalaRules *)&passed; /* never dereferenced by a failing call */
    MancalaRules *r = sentinel;
    const char *bad[] = {"kalah(8,4)", "kalah(0,4)", "kalah(6,0)", "kalah(7,19)", "kalah(6,4)+bogus",
                         "kalah(6,4)+pie_rule+pie_rule", "kalah(6 4)", "", "standrad",
                         "kalah(-1,4)", "kalah(99999999999,4)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT(mancala_rules_new(bad[i], &r), MANCALA_STATUS_BAD_RULES);
        CHECK(r == sentinel);
    }
    EXPECT(mancala_rules_new("kalah(6,4)\xff", &r), MANCALA_STATUS_INVALID_UTF8);
    EXPECT(mancala_rules_new("\xc3(", &r), MANCALA_STATUS_INVALID_UTF8);
    CHECK(r == sentinel);
    NUL(mancala_rules_new(NULL, &r));
    NUL(mancala_rules_new("standard", NULL));
    CHECK(r == sentinel);

    /* Printing: round trips, buffer protocol. */
    const char *texts[][2] = {{"kalah(6,4)", "standard"},
                              {"manchester", "manchester"},
                              {"kalah(7,7)+no_first_move_bonus+pie_rule", "manchester"},
                              {" kalah(6,4) + empty_capture ", "kalah(6,4)+empty_capture"},
                              {"kalah(4,3)+discard_remaining+end_when_no_move",
                               "kalah(4,3)+end_when_no_move+discard_remaining"}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char buf[64];
        size_t needed = 0;
        r = rules_of(texts[i][0]);
        OK(mancala_rules_print(r, buf, sizeof buf, &needed));
        CHECK(strcmp(buf, texts[i][1]) == 0 && needed == strlen(texts[i][1]) + 1);
        OK(mancala_rules_free(r));
    }
    r = rules_of("kalah(6,4)+empty_capture");
    char buf[32];
    memset(buf, 'x', sizeof buf);
    size_t needed = 0;
    EXPECT(mancala_rules_print(r, buf, 24, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 25 && buf[0] == 'x');
    needed = 0;
    EXPECT(mancala_rules_print(r, NULL, 0, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 25);
    OK(mancala_rules_print(r, buf, 25, &needed));
    CHECK(strcmp(buf, "kalah(6,4)+empty_capture") == 0);
    NUL(mancala_rules_print(NULL, buf, sizeof buf, &needed));
    NUL(mancala_rules_print(r, NULL, sizeof buf, &needed));
    NUL(mancala_rules_print(r, buf, sizeof buf, NULL));

    uint8_t houses = 0, seeds = 0;
    OK(mancala_rules_size(r, &houses, &seeds));
    CHECK(houses == 6 && seeds == 4);
    NUL(mancala_rules_size(NULL, &houses, &seeds));
    NUL(mancala_rules_size(r, NULL, &seeds));
    NUL(mancala_rules_size(r, &houses, NULL));

    /* Freed handle, double free, NULL free. */
    OK(mancala_rules_free(r));
    DEAD(mancala_rules_print(r, buf, sizeof buf, &needed));
    DEAD(mancala_rules_size(r, &houses, &seeds));
    DEAD(mancala_rules_free(r));
    OK(mancala_rules_free(NULL));
}

static void test_kalah_start_and_play(void) {
    MancalaRules *r = rules_of("kalah(6,4)");
    MancalaKalah *g = NULL;
    OK(mancala_kalah_new(r, &g));
    OK(mancala_rules_free(r)); /* the game keeps its own copy */
    CHECK(printed_is(g, START));

    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    OK(mancala_kalah_legal_moves(g, moves, MANCALA_KALAH_MAX_MOVES, &count));
    CHECK(count == 6 && moves[0] == 1 && moves[5] == 6);
    uint8_t slots[MANCALA_KALAH_MAX_SLOTS];
    OK(mancala_kalah_board(g, slots, MANCALA_KALAH_MAX_SLOTS, &count));
    CHECK(count == 14 && slots[0] == 4 && slots[6] == 0 && slots[13] == 0);

    uint64_t nodes = 0;
    OK(mancala_kalah_perft(g, 0, &nodes));
    CHECK(nodes == 1);
    OK(mancala_kalah_perft(g, 1, &nodes));
    CHECK(nodes == 6);
    OK(mancala_kalah_perft(g, 2, &nodes));
    CHECK(nodes == 35);

    bool extra = false;
    OK(mancala_kalah_extra_turn(g, 3, &extra));
    CHECK(extra);
    OK(mancala_kalah_extra_turn(g, 4, &extra));
    CHECK(!extra);
    OK(mancala_kalah_play(g, 3));
    CHECK(printed_is(g, AFTER_3));
    MancalaSide side = MANCALA_SIDE_NONE;
    OK(mancala_kalah_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_SOUTH);
    MancalaOutcome outcome = MANCALA_OUTCOME_DRAW;
    int32_t score = 99;
    OK(mancala_kalah_outcome(g, &outcome, &score));
    CHECK(outcome == MANCALA_OUTCOME_ONGOING && score == 1);

    /* Illegal moves leave the game as it was. */
    EXPECT(mancala_kalah_play(g, 3), MANCALA_STATUS_ILLEGAL_MOVE); /* empty house */
    CHECK(strstr(last_error(), "house 3 is empty") != NULL);
    EXPECT(mancala_kalah_play(g, 0), MANCALA_STATUS_ILLEGAL_MOVE);
    EXPECT(mancala_kalah_play(g, 7), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(strstr(last_error(), "house 7 does not exist") != NULL);
    EXPECT(mancala_kalah_play(g, MANCALA_KALAH_SWAP), MANCALA_STATUS_ILLEGAL_MOVE);
    extra = true;
    EXPECT(mancala_kalah_extra_turn(g, 3, &extra), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(extra);
    CHECK(printed_is(g, AFTER_3));

    /* Clone is independent; undo goes back to the first position and no further. */
    MancalaKalah *c = NULL;
    OK(mancala_kalah_clone(g, &c));
    OK(mancala_kalah_play(c, 1));
    CHECK(printed_is(g, AFTER_3));
    char rec[64];
    size_t needed = 0;
    OK(mancala_kalah_record_print(c, rec, sizeof rec, &needed));
    CHECK(strcmp(rec, "3,1") == 0 && needed == 4);
    OK(mancala_kalah_undo(c));
    OK(mancala_kalah_undo(c));
    CHECK(printed_is(c, START));
    EXPECT(mancala_kalah_undo(c), MANCALA_STATUS_NOTHING_TO_UNDO);
    OK(mancala_kalah_record_print(c, rec, sizeof rec, &needed));
    CHECK(strcmp(rec, "") == 0 && needed == 1);
    OK(mancala_kalah_free(c));
    OK(mancala_kalah_free(g));
}

static void test_kalah_buffers(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = NULL;
    OK(mancala_kalah_new(r, &g));
    char buf[64];
    memset(buf, 'x', sizeof buf);
    size_t needed = 0;
    EXPECT(mancala_kalah_print(g, buf, 29, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 30 && buf[0] == 'x' && buf[28] == 'x');
    needed = 0;
    EXPECT(mancala_kalah_print(g, NULL, 0, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 30);
    OK(mancala_kalah_print(g, buf, 30, &needed));
    CHECK(strcmp(buf, START) == 0);
    EXPECT(mancala_kalah_record_print(g, buf, 0, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 1);

    uint8_t moves[8] = {0};
    size_t count = 0;
    EXPECT(mancala_kalah_legal_moves(g, moves, 5, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 6 && moves[0] == 0);
    count = 0;
    EXPECT(mancala_kalah_legal_moves(g, NULL, 0, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 6);
    uint8_t slots[16] = {0};
    EXPECT(mancala_kalah_board(g, slots, 13, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 14 && slots[0] == 0);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static void test_kalah_null_pointers(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = NULL;
    OK(mancala_kalah_new(r, &g));
    MancalaKalah *out = NULL;
    char buf[64];
    size_t n = 0;
    uint8_t bytes[16];
    bool flag = false, flag2 = false;
    MancalaSide side;
    MancalaOutcome outcome;
    int32_t score;
    uint64_t nodes;

    NUL(mancala_kalah_new(NULL, &out));
    NUL(mancala_kalah_new(r, NULL));
    NUL(mancala_kalah_parse(NULL, START, &out));
    NUL(mancala_kalah_parse(r, NULL, &out));
    NUL(mancala_kalah_parse(r, START, NULL));
    NUL(mancala_kalah_clone(NULL, &out));
    NUL(mancala_kalah_clone(g, NULL));
    CHECK(out == NULL);
    OK(mancala_kalah_free(NULL));
    NUL(mancala_kalah_print(NULL, buf, sizeof buf, &n));
    NUL(mancala_kalah_print(g, NULL, sizeof buf, &n));
    NUL(mancala_kalah_print(g, buf, sizeof buf, NULL));
    NUL(mancala_kalah_record_print(NULL, buf, sizeof buf, &n));
    NUL(mancala_kalah_record_print(g, NULL, sizeof buf, &n));
    NUL(mancala_kalah_record_print(g, buf, sizeof buf, NULL));
    NUL(mancala_kalah_board(NULL, bytes, sizeof bytes, &n));
    NUL(mancala_kalah_board(g, NULL, sizeof bytes, &n));
    NUL(mancala_kalah_board(g, bytes, sizeof bytes, NULL));
    NUL(mancala_kalah_legal_moves(NULL, bytes, sizeof bytes, &n));
    NUL(mancala_kalah_legal_moves(g, NULL, sizeof bytes, &n));
    NUL(mancala_kalah_legal_moves(g, bytes, sizeof bytes, NULL));
    NUL(mancala_kalah_play(NULL, 1));
    NUL(mancala_kalah_undo(NULL));
    NUL(mancala_kalah_side_to_move(NULL, &side));
    NUL(mancala_kalah_side_to_move(g, NULL));
    NUL(mancala_kalah_extra_turn(NULL, 3, &flag));
    NUL(mancala_kalah_extra_turn(g, 3, NULL));
    NUL(mancala_kalah_swap_state(NULL, &flag, &flag2));
    NUL(mancala_kalah_swap_state(g, NULL, &flag2));
    NUL(mancala_kalah_swap_state(g, &flag, NULL));
    NUL(mancala_kalah_outcome(NULL, &outcome, &score));
    NUL(mancala_kalah_outcome(g, NULL, &score));
    NUL(mancala_kalah_outcome(g, &outcome, NULL));
    NUL(mancala_kalah_perft(NULL, 2, &nodes));
    NUL(mancala_kalah_perft(g, 2, NULL));
    CHECK(printed_is(g, START));
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static void test_dead_and_foreign_handles(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *g = NULL;
    OK(mancala_kalah_new(r, &g));
    MancalaKalah *out = NULL;
    char buf[64];
    size_t n = 0;
    uint8_t bytes[16];
    bool flag, flag2;
    MancalaSide side;
    MancalaOutcome outcome;
    int32_t score;
    uint64_t nodes;

    /* A handle of the wrong type, and memory the library never handed out. */
    DEAD(mancala_kalah_print((const MancalaKalah *)r, buf, sizeof buf, &n));
    CHECK(strstr(last_error(), "is a MancalaRules handle, not a MancalaKalah") != NULL);
    DEAD(mancala_rules_print((const MancalaRules *)g, buf, sizeof buf, &n));
    DEAD(mancala_kalah_free((MancalaKalah *)r));
    DEAD(mancala_rules_free((MancalaRules *)g));
    uint64_t not_a_handle[8] = {0};
    DEAD(mancala_kalah_play((MancalaKalah *)not_a_handle, 1));
    DEAD(mancala_kalah_free((MancalaKalah *)not_a_handle));
    DEAD(mancala_kalah_new((const MancalaRules *)not_a_handle, &out));
    CHECK(out == NULL);

    /* Every function on a freed game. */
    OK(mancala_kalah_free(g));
    DEAD(mancala_kalah_parse((const MancalaRules *)g, START, &out));
    DEAD(mancala_kalah_clone(g, &out));
    DEAD(mancala_kalah_print(g, buf, sizeof buf, &n));
    DEAD(mancala_kalah_record_print(g, buf, sizeof buf, &n));
    DEAD(mancala_kalah_board(g, bytes, sizeof bytes, &n));
    DEAD(mancala_kalah_legal_moves(g, bytes, sizeof bytes, &n));
    DEAD(mancala_kalah_play(g, 1));
    DEAD(mancala_kalah_undo(g));
    DEAD(mancala_kalah_side_to_move(g, &side));
    DEAD(mancala_kalah_extra_turn(g, 3, &flag));
    DEAD(mancala_kalah_swap_state(g, &flag, &flag2));
    DEAD(mancala_kalah_outcome(g, &outcome, &score));
    DEAD(mancala_kalah_perft(g, 2, &nodes));
    DEAD(mancala_kalah_free(g));
    CHECK(strstr(last_error(), "not a live MancalaKalah handle") != NULL);
    CHECK(out == NULL);

    /* Every function taking rules on freed rules. */
    OK(mancala_rules_free(r));
    DEAD(mancala_kalah_new(r, &out));
    DEAD(mancala_kalah_parse(r, START, &out));
    CHECK(out == NULL);
}

static void test_positions(void) {
    MancalaRules *r = rules_of("standard");
    MancalaKalah *sentinel = (MancalaKalah *)&failed;
    MancalaKalah *out = sentinel;
    const char *bad[] = {
        "",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0",        /* no side */
        "4,4,4,4,4,4,0,4,4,4,4,4,4 S",        /* 13 slots */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0,0 S",    /* 15 slots */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 X",      /* bad side */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,x S",      /* not a number */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,256 S",    /* count over 255 */
        "4,4,4,4,4,4,200,4,4,4,4,4,4,30 S",   /* 278 seeds */
        "0,0,0,0,0,0,20,4,4,4,4,4,4,4 N",     /* South empty: game should have ended */
        "0,0,0,0,1,0,20,0,0,0,0,0,2,25 -",    /* over, but seeds in houses */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 N swap", /* swap without pie_rule */
        "4,4,4,4,4,4,0,4,4,4,4,4,4,-1 S",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT(mancala_kalah_parse(r, bad[i], &out), MANCALA_STATUS_BAD_POSITION);
        CHECK(out == sentinel);
    }
    EXPECT(mancala_kalah_parse(r, "4,4,4,4,4,4,0,4,4,4,4,4,4,0 \xe9", &out),
           MANCALA_STATUS_INVALID_UTF8);
    CHECK(out == sentinel);

    /* docs/rules/kalah.md worked example 2: standard rules, South plays 5, no capture, North to
     * move. */
    MancalaKalah *g = parse(r, "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S");
    OK(mancala_kalah_play(g, 5));
    CHECK(printed_is(g, "0,0,0,0,0,1,20,0,0,0,0,0,2,25 N"));
    MancalaSide side;
    OK(mancala_kalah_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_NORTH);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));

    /* Same position under empty_capture: the seed is captured, South's row is empty, the game
     * ends and North sweeps its 2 seeds: 21 - 27. */
    r = rules_of("kalah(6,4)+empty_capture");
    g = parse(r, "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S");
    OK(mancala_kalah_play(g, 5));
    CHECK(printed_is(g, "0,0,0,0,0,0,21,0,0,0,0,0,0,27 -"));
    OK(mancala_kalah_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_NONE);
    MancalaOutcome outcome;
    int32_t score;
    OK(mancala_kalah_outcome(g, &outcome, &score));
    CHECK(outcome == MANCALA_OUTCOME_NORTH_WINS && score == -6);
    uint8_t moves[8];
    size_t count = 99;
    OK(mancala_kalah_legal_moves(g, moves, sizeof moves, &count));
    CHECK(count == 0);
    EXPECT(mancala_kalah_play(g, 1), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(strstr(last_error(), "the game is over") != NULL);
    uint64_t nodes = 7;
    OK(mancala_kalah_perft(g, 1, &nodes));
    CHECK(nodes == 0);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static void test_pie_rule(void) {
    MancalaRules *r = rules_of("kalah(6,4)+pie_rule");
    MancalaKalah *g = NULL;
    OK(mancala_kalah_new(r, &g));
    bool offered = true, swapped = true;
    OK(mancala_kalah_swap_state(g, &offered, &swapped));
    CHECK(!offered && !swapped);
    OK(mancala_kalah_play(g, 1)); /* 4 seeds from S1 end in S5: North's turn, swap offered */
    CHECK(printed_is(g, "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N swap"));
    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    OK(mancala_kalah_legal_moves(g, moves, sizeof moves, &count));
    CHECK(count == 7 && moves[6] == MANCALA_KALAH_SWAP);
    OK(mancala_kalah_swap_state(g, &offered, &swapped));
    CHECK(offered && !swapped);
    bool extra = true;
    OK(mancala_kalah_extra_turn(g, MANCALA_KALAH_SWAP, &extra));
    CHECK(!extra);
    OK(mancala_kalah_play(g, MANCALA_KALAH_SWAP));
    CHECK(printed_is(g, "0,5,5,5,5,4,0,4,4,4,4,4,4,0 N"));
    OK(mancala_kalah_swap_state(g, &offered, &swapped));
    CHECK(!offered && swapped);
    EXPECT(mancala_kalah_play(g, MANCALA_KALAH_SWAP), MANCALA_STATUS_ILLEGAL_MOVE);
    char rec[32];
    size_t needed;
    OK(mancala_kalah_record_print(g, rec, sizeof rec, &needed));
    CHECK(strcmp(rec, "1,swap") == 0);
    OK(mancala_kalah_free(g));
    OK(mancala_rules_free(r));
}

static int bao_printed_is(const MancalaBao *g, const char *expected) {
    char buf[160];
    size_t needed = 0;
    if (mancala_bao_print(g, buf, sizeof buf, &needed) != MANCALA_STATUS_OK) return 0;
    if (strcmp(buf, expected) != 0) printf("  bao position: %s\n  expected:     %s\n", buf, expected);
    return strcmp(buf, expected) == 0 && needed == strlen(expected) + 1;
}

static const char *BAO_START =
    "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -";

static void test_bao(void) {
    MancalaRules *r = rules_of("bao-la-kete");
    MancalaGameKind which = MANCALA_GAME_KIND_KALAH;
    OK(mancala_rules_game(r, &which));
    CHECK(which == MANCALA_GAME_KIND_BAO);
    char buf[160];
    size_t needed = 0, count = 99;
    OK(mancala_rules_print(r, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "bao-la-kete") == 0);
    uint8_t houses, seeds;
    EXPECT(mancala_rules_size(r, &houses, &seeds), MANCALA_STATUS_INVALID_ARGUMENT);
    MancalaKalah *k = NULL;
    EXPECT(mancala_kalah_new(r, &k), MANCALA_STATUS_INVALID_ARGUMENT);
    EXPECT(mancala_kalah_parse(r, START, &k), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(k == NULL);
    MancalaRules *kr = rules_of("standard");
    OK(mancala_rules_game(kr, &which));
    CHECK(which == MANCALA_GAME_KIND_KALAH);
    MancalaBao *g = NULL;
    EXPECT(mancala_bao_new(kr, &g), MANCALA_STATUS_INVALID_ARGUMENT);
    EXPECT(mancala_bao_parse(kr, BAO_START, &g), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(g == NULL);
    MancalaRules *other = NULL;
    EXPECT(mancala_rules_new("bao-la-kete+first=X", &other), MANCALA_STATUS_BAD_RULES);
    EXPECT(mancala_rules_new("bao-la-kete+bogus=1", &other), MANCALA_STATUS_BAD_RULES);
    CHECK(other == NULL);
    other = rules_of("bao-la-kete+first=N");
    OK(mancala_rules_print(other, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "bao-la-kete+first=N") == 0);
    OK(mancala_rules_free(other));

    /* Start (docs/rules/bao-la-kete.md TC-01): 4 legal moves, perft(2) = 14. */
    OK(mancala_bao_new(r, &g));
    CHECK(bao_printed_is(g, BAO_START));
    OK(mancala_bao_legal_moves(g, buf, sizeof buf, &needed, &count));
    CHECK(strcmp(buf, "F6> F6< F7> F7<") == 0 && count == 4 && needed == 16);
    count = 99;
    EXPECT(mancala_bao_legal_moves(g, buf, 15, &needed, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 16 && count == 99);
    EXPECT(mancala_bao_legal_moves(g, NULL, 0, &needed, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    uint64_t nodes = 0;
    OK(mancala_bao_perft(g, 1, &nodes));
    CHECK(nodes == 4);
    OK(mancala_bao_perft(g, 2, &nodes));
    CHECK(nodes == 14);
    MancalaSide side = MANCALA_SIDE_NONE;
    OK(mancala_bao_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_SOUTH);
    MancalaOutcome outcome = MANCALA_OUTCOME_DRAW;
    int32_t score = 7;
    OK(mancala_bao_outcome(g, &outcome, &score));
    CHECK(outcome == MANCALA_OUTCOME_ONGOING && score == 0);

    /* Illegal and malformed moves leave the game unchanged. */
    EXPECT(mancala_bao_play(g, "F1>"), MANCALA_STATUS_ILLEGAL_MOVE);
    EXPECT(mancala_bao_play(g, "Z9"), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(strstr(last_error(), "Z9") != NULL);
    EXPECT(mancala_bao_play(g, ""), MANCALA_STATUS_ILLEGAL_MOVE);
    EXPECT(mancala_bao_play(g, "F7\xff"), MANCALA_STATUS_INVALID_UTF8);
    CHECK(bao_printed_is(g, BAO_START));
    OK(mancala_bao_play(g, "F7>"));
    OK(mancala_bao_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_NORTH);
    MancalaBao *c = NULL;
    OK(mancala_bao_clone(g, &c));
    OK(mancala_bao_undo(g));
    CHECK(bao_printed_is(g, BAO_START));
    EXPECT(mancala_bao_undo(g), MANCALA_STATUS_NOTHING_TO_UNDO);
    OK(mancala_bao_record_print(c, buf, sizeof buf, &needed));
    CHECK(strcmp(buf, "F7>") == 0 && needed == 4);
    OK(mancala_bao_free(c));

    /* Rules file TC-03: a 16-seed takata wraps round and stops in the emptied F4. */
    MancalaBao *t = NULL;
    OK(mancala_bao_parse(r,
        "1,0,0,16,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,1/46,0,0,0,0,0,0,0 0,0 - S -", &t));
    OK(mancala_bao_legal_moves(t, buf, sizeof buf, &needed, &count));
    CHECK(strcmp(buf, "F4> F4<") == 0 && count == 2);
    OK(mancala_bao_play(t, "F4>"));
    OK(mancala_bao_print(t, buf, sizeof buf, &needed));
    CHECK(strncmp(buf, "2,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,1/46,0,0,0,0,0,0,0 0,0 - ", 70) == 0);
    OK(mancala_bao_free(t));

    /* Bad positions. */
    MancalaBao *none = NULL;
    const char *bad[] = {"", "0,0,0,0,6,2,2,0 22,22 SN S -",
                         "0,0,0,0,6,2,2,1/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -",
                         "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN X -"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT(mancala_bao_parse(r, bad[i], &none), MANCALA_STATUS_BAD_POSITION);
    }
    EXPECT(mancala_bao_parse(r, "\xc3\x28", &none), MANCALA_STATUS_INVALID_UTF8);
    CHECK(none == NULL);

    /* NULL for each pointer. */
    MancalaOutcome o;
    NUL(mancala_rules_game(NULL, &which));
    NUL(mancala_rules_game(r, NULL));
    NUL(mancala_bao_new(NULL, &none));
    NUL(mancala_bao_new(r, NULL));
    NUL(mancala_bao_parse(NULL, BAO_START, &none));
    NUL(mancala_bao_parse(r, NULL, &none));
    NUL(mancala_bao_parse(r, BAO_START, NULL));
    NUL(mancala_bao_clone(NULL, &none));
    NUL(mancala_bao_clone(g, NULL));
    OK(mancala_bao_free(NULL));
    NUL(mancala_bao_print(NULL, buf, sizeof buf, &needed));
    NUL(mancala_bao_print(g, NULL, sizeof buf, &needed));
    NUL(mancala_bao_print(g, buf, sizeof buf, NULL));
    NUL(mancala_bao_legal_moves(NULL, buf, sizeof buf, &needed, &count));
    NUL(mancala_bao_legal_moves(g, NULL, sizeof buf, &needed, &count));
    NUL(mancala_bao_legal_moves(g, buf, sizeof buf, NULL, &count));
    NUL(mancala_bao_legal_moves(g, buf, sizeof buf, &needed, NULL));
    NUL(mancala_bao_play(NULL, "F7>"));
    NUL(mancala_bao_play(g, NULL));
    NUL(mancala_bao_undo(NULL));
    NUL(mancala_bao_record_print(NULL, buf, sizeof buf, &needed));
    NUL(mancala_bao_record_print(g, NULL, sizeof buf, &needed));
    NUL(mancala_bao_record_print(g, buf, sizeof buf, NULL));
    NUL(mancala_bao_side_to_move(NULL, &side));
    NUL(mancala_bao_side_to_move(g, NULL));
    NUL(mancala_bao_outcome(NULL, &o, &score));
    NUL(mancala_bao_outcome(g, NULL, &score));
    NUL(mancala_bao_outcome(g, &o, NULL));
    NUL(mancala_bao_perft(NULL, 1, &nodes));
    NUL(mancala_bao_perft(g, 1, NULL));
    CHECK(none == NULL);

    /* Dead and foreign handles. */
    DEAD(mancala_bao_play((MancalaBao *)kr, "F7>"));
    DEAD(mancala_kalah_play((MancalaKalah *)g, 1));
    OK(mancala_bao_free(g));
    DEAD(mancala_bao_clone(g, &none));
    DEAD(mancala_bao_print(g, buf, sizeof buf, &needed));
    DEAD(mancala_bao_legal_moves(g, buf, sizeof buf, &needed, &count));
    DEAD(mancala_bao_play(g, "F7>"));
    DEAD(mancala_bao_undo(g));
    DEAD(mancala_bao_record_print(g, buf, sizeof buf, &needed));
    DEAD(mancala_bao_side_to_move(g, &side));
    DEAD(mancala_bao_outcome(g, &o, &score));
    DEAD(mancala_bao_perft(g, 1, &nodes));
    DEAD(mancala_bao_free(g));
    OK(mancala_rules_free(kr));
    OK(mancala_rules_free(r));
    DEAD(mancala_bao_new(r, &none));
    DEAD(mancala_rules_game(r, &which));
    CHECK(none == NULL);
}

/* The last error is per thread: a failure on another thread does not touch this one's. */
static void *fail_on_other_thread(void *arg) {
    (void)arg;
    MancalaRules *r = NULL;
    static int ok;
    ok = mancala_rules_new("kalah(6,4)+other_thread", &r) == MANCALA_STATUS_BAD_RULES &&
         strstr(last_error(), "other_thread") != NULL;
    return &ok;
}

static void test_threads(void) {
    MancalaRules *r = NULL;
    EXPECT(mancala_rules_new("kalah(6,4)+main_thread", &r), MANCALA_STATUS_BAD_RULES);
    pthread_t t;
    void *result = NULL;
    CHECK(pthread_create(&t, NULL, fail_on_other_thread, NULL) == 0);
    CHECK(pthread_join(t, &result) == 0);
    CHECK(result != NULL && *(int *)result);
    CHECK(strstr(last_error(), "main_thread") != NULL);
}

int main(void) {
    test_version();
    test_status_names_and_last_error();
    test_a_success_keeps_the_message();
    test_rules();
    test_kalah_start_and_play();
    test_kalah_buffers();
    test_kalah_null_pointers();
    test_dead_and_foreign_handles();
    test_positions();
    test_pie_rule();
    test_bao();
    test_threads();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
