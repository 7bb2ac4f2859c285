/*
 * The one game API of the C library (`MancalaGame`, `mancala_game_*`, and
 * `mancala_engine_bestmove`) on every game: positions and moves worked out by hand from the
 * rules (the trace is in the comment above each check), the same answers as the older Kalah
 * and Bao la Kete handles, whole games engine against engine, and every error path (NULL for
 * each pointer, bad rules, positions and moves, a move index out of range, nothing to undo,
 * handles of other types).
 *
 * Usage: game_paths [scratch directory, unused]. Prints failed checks and
 * "N passed, N failed". Built and run (also under valgrind or AddressSanitizer) by
 * tests/c_programs.rs.
 */
#include <stdio.h>
#include <string.h>

#include "mancala.h"

#include "check.h"

static char text[MANCALA_DRAWING_MAX];

static const char *printed(const MancalaGame *g) {
    size_t needed = 0;
    if (mancala_game_print(g, text, sizeof text, &needed) != MANCALA_STATUS_OK) return "<error>";
    return text;
}

static const char *legal(const MancalaGame *g, size_t *count) {
    size_t needed = 0;
    if (mancala_game_legal_moves(g, text, sizeof text, &needed, count) != MANCALA_STATUS_OK)
        return "<error>";
    return text;
}

static const char *record(const MancalaGame *g) {
    size_t needed = 0;
    if (mancala_game_record_print(g, text, sizeof text, &needed) != MANCALA_STATUS_OK)
        return "<error>";
    return text;
}

/*
 * Kalah(6,4): from the start, 3 sows S4, S5, S6 and the store (extra turn); then house 1
 * (4 seeds) sows S2..S5, the last seed in S5 (5 -> 6, not empty): no capture, North to move.
 */
static void kalah_by_text_and_index(void) {
    MancalaGame *g = NULL;
    OK(mancala_game_new("standard", &g));
    MancalaGameKind kind = MANCALA_GAME_KIND_BAO;
    OK(mancala_game_kind(g, &kind));
    CHECK(kind == MANCALA_GAME_KIND_KALAH);
    size_t count = 0;
    CHECK(strcmp(legal(g, &count), "1 2 3 4 5 6") == 0);
    CHECK(count == 6);
    OK(mancala_game_play(g, "3"));
    CHECK(strcmp(printed(g), "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S") == 0);
    MancalaSide side = MANCALA_SIDE_NONE;
    OK(mancala_game_side_to_move(g, &side));
    CHECK(side == MANCALA_SIDE_SOUTH);
    char mv[MANCALA_MOVE_MAX];
    size_t needed = 0;
    OK(mancala_game_play_index(g, 0, mv, sizeof mv, &needed));
    CHECK(strcmp(mv, "1") == 0 && needed == 2);
    CHECK(strcmp(printed(g), "0,5,1,6,6,5,1,4,4,4,4,4,4,0 N") == 0);
    CHECK(strcmp(record(g), "3,1") == 0);
    OK(mancala_game_undo(g));
    CHECK(strcmp(record(g), "3") == 0);
    /* A buffer too small for the move plays nothing. */
    EXPECT(mancala_game_play_index(g, 0, mv, 1, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 2);
    CHECK(strcmp(record(g), "3") == 0);
    /* Without a buffer the move is played all the same: after 3 the moves are 1 2 4 5 6, so
     * index 4 is house 6. */
    OK(mancala_game_play_index(g, 4, NULL, 0, NULL));
    CHECK(strcmp(record(g), "3,6") == 0);
    OK(mancala_game_rules_print(g, text, sizeof text, &needed));
    CHECK(strcmp(text, "standard") == 0 || strcmp(text, "kalah(6,4)") == 0);
    MancalaGame *copy = NULL;
    OK(mancala_game_clone(g, &copy));
    OK(mancala_game_undo(copy));
    CHECK(strcmp(record(copy), "3") == 0);
    CHECK(strcmp(record(g), "3,6") == 0);
    uint64_t nodes = 0;
    MancalaGame *start = NULL;
    OK(mancala_game_new("kalah(6,4)", &start));
    OK(mancala_game_perft(start, 1, &nodes));
    CHECK(nodes == 6);
    OK(mancala_game_free(start));
    OK(mancala_game_free(copy));
    OK(mancala_game_free(g));
}

/*
 * A finished Kalah game set up from text: South's row empty, stores 20 and 28 with North's
 * row swept: North wins by 8.
 */
static void kalah_finished(void) {
    MancalaGame *g = NULL;
    OK(mancala_game_parse("standard", "0,0,0,0,0,0,20,0,0,0,0,0,0,28 -", &g));
    MancalaOutcome outcome = MANCALA_OUTCOME_ONGOING;
    int32_t score = 0;
    OK(mancala_game_outcome(g, &outcome, &score));
    CHECK(outcome == MANCALA_OUTCOME_NORTH_WINS);
    CHECK(score == -8);
    size_t count = 99;
    CHECK(strcmp(legal(g, &count), "") == 0);
    CHECK(count == 0);
    EXPECT(mancala_game_play(g, "1"), MANCALA_STATUS_ILLEGAL_MOVE);
    EXPECT(mancala_game_play_index(g, 0, NULL, 0, NULL), MANCALA_STATUS_INVALID_ARGUMENT);
    OK(mancala_game_free(g));
}

/* Bao la Kete from its start: four legal moves; a game made from a rule-set handle is the same. */
static void bao_start(void) {
    MancalaGame *g = NULL;
    OK(mancala_game_new("bao-la-kete", &g));
    MancalaGameKind kind = MANCALA_GAME_KIND_KALAH;
    OK(mancala_game_kind(g, &kind));
    CHECK(kind == MANCALA_GAME_KIND_BAO);
    size_t count = 0;
    legal(g, &count);
    CHECK(count == 4);
    CHECK(strcmp(printed(g),
                 "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -") == 0);
    MancalaRules *r = rules_of("bao-la-kete");
    MancalaGame *h = NULL;
    OK(mancala_game_from_rules(r, NULL, &h));
    char a[MANCALA_NOTATION_MAX];
    size_t needed = 0;
    OK(mancala_game_print(h, a, sizeof a, &needed));
    CHECK(strcmp(a, printed(g)) == 0);
    OK(mancala_rules_free(r));
    OK(mancala_game_free(h));
    OK(mancala_game_free(g));
}

/* Oware, X1 of the rules: from the start South's 3 sows S4, S5, S6, N1; North to move. */
static void oware_opening(void) {
    MancalaGame *g = NULL;
    OK(mancala_game_new("oware", &g));
    MancalaGameKind kind = MANCALA_GAME_KIND_KALAH;
    OK(mancala_game_kind(g, &kind));
    CHECK(kind == MANCALA_GAME_KIND_OWARE);
    OK(mancala_game_play(g, "3"));
    CHECK(strcmp(printed(g), "4,4,0,5,5,5,0,5,4,4,4,4,4,0 N") == 0);
    uint64_t nodes = 0;
    OK(mancala_game_undo(g));
    OK(mancala_game_perft(g, 5, &nodes));
    CHECK(nodes == 5219); /* OW-11.4 */
    OK(mancala_game_free(g));
}

/* Engine against engine, a node budget a move, until the game ends; every move is legal. */
static void engine_plays_a_whole_game(const char *rules) {
    MancalaGame *g = NULL;
    OK(mancala_game_new(rules, &g));
    MancalaEngineConfig config = {1u << 20, 4, 7};
    MancalaEngine *e = NULL;
    OK(mancala_engine_new(&config, &e));
    int plies = 0;
    MancalaSide side = MANCALA_SIDE_SOUTH;
    while (plies < 500 && mancala_game_side_to_move(g, &side) == MANCALA_STATUS_OK &&
           side != MANCALA_SIDE_NONE) {
        char mv[MANCALA_MOVE_MAX];
        size_t needed = 0;
        MancalaEngineResult result;
        MancalaStatus s = mancala_engine_bestmove(e, g, 0, 2000, mv, sizeof mv, &needed, &result);
        if (s != MANCALA_STATUS_OK) {
            EXPECT(s, MANCALA_STATUS_OK);
            break;
        }
        /* The index in `result.mv` names the same move as the text. */
        MancalaGame *by_index = NULL;
        OK(mancala_game_clone(g, &by_index));
        OK(mancala_game_play_index(by_index, result.mv, NULL, 0, NULL));
        OK(mancala_game_play(g, mv));
        char a[MANCALA_NOTATION_MAX];
        OK(mancala_game_print(by_index, a, sizeof a, &needed));
        CHECK(strcmp(a, printed(g)) == 0);
        OK(mancala_game_free(by_index));
        plies++;
    }
    MancalaOutcome outcome = MANCALA_OUTCOME_ONGOING;
    int32_t score = 0;
    OK(mancala_game_outcome(g, &outcome, &score));
    CHECK(outcome != MANCALA_OUTCOME_ONGOING);
    CHECK((outcome == MANCALA_OUTCOME_SOUTH_WINS) == (score > 0));
    CHECK((outcome == MANCALA_OUTCOME_NORTH_WINS) == (score < 0));
    OK(mancala_engine_free(e));
    OK(mancala_game_free(g));
}

static void error_paths(void) {
    MancalaGame *g = NULL;
    NUL(mancala_game_new(NULL, &g));
    NUL(mancala_game_new("standard", NULL));
    EXPECT(mancala_game_new("kalah(9,4)", &g), MANCALA_STATUS_BAD_RULES);
    CHECK(strstr(last_error(), "1..=7") != NULL);
    EXPECT(mancala_game_new("bao-la-kete+safari=maybe", &g), MANCALA_STATUS_BAD_RULES);
    EXPECT(mancala_game_new("kal\xff", &g), MANCALA_STATUS_INVALID_UTF8);
    NUL(mancala_game_parse("standard", NULL, &g));
    EXPECT(mancala_game_parse("standard", "4,4 S", &g), MANCALA_STATUS_BAD_POSITION);
    EXPECT(mancala_game_parse("bao-la-kete", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S", &g),
           MANCALA_STATUS_BAD_POSITION);
    CHECK(g == NULL);
    OK(mancala_game_new("standard", &g));
    EXPECT(mancala_game_play(g, "7"), MANCALA_STATUS_ILLEGAL_MOVE);
    CHECK(strstr(last_error(), "7") != NULL);
    EXPECT(mancala_game_play(g, "x"), MANCALA_STATUS_ILLEGAL_MOVE);
    NUL(mancala_game_play(g, NULL));
    NUL(mancala_game_play(NULL, "1"));
    EXPECT(mancala_game_play_index(g, 6, NULL, 0, NULL), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(strstr(last_error(), "6 legal moves") != NULL);
    EXPECT(mancala_game_undo(g), MANCALA_STATUS_NOTHING_TO_UNDO);
    size_t count = 0, needed = 0;
    NUL(mancala_game_legal_moves(g, text, sizeof text, &needed, NULL));
    EXPECT(mancala_game_legal_moves(g, text, 3, &needed, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 12);
    NUL(mancala_game_side_to_move(g, NULL));
    NUL(mancala_game_outcome(g, NULL, NULL));
    NUL(mancala_game_perft(g, 1, NULL));
    NUL(mancala_game_kind(g, NULL));
    /* Handles of other types are refused, never read. */
    MancalaRules *r = rules_of("standard");
    DEAD(mancala_game_print((const MancalaGame *)r, text, sizeof text, &needed));
    CHECK(strstr(last_error(), "is a MancalaRules handle, not a MancalaGame") != NULL);
    MancalaSolverConfig solver_config = {1, 1 << 16, 0, 0};
    MancalaSolver *k = NULL;
    OK(mancala_solver_new(&solver_config, &k));
    DEAD(mancala_game_play((MancalaGame *)k, "1"));
    DEAD(mancala_game_free((MancalaGame *)k));
    OK(mancala_solver_free(k));
    OK(mancala_rules_free(r));
    OK(mancala_game_free(g));
    DEAD(mancala_game_free(g));
    OK(mancala_game_free(NULL));
}

/*
 * The calls that were Kalah-only, on a MancalaGame. Kalah(6,4)+pie_rule: 3 ends in South's
 * store (an extra turn, the counts of "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"), 1 then ends in S5
 * (none); North may swap, and after the swap the players have exchanged sides. Bao la Kete
 * has no board of counts: refused. The solver on a finished Kalah game: value 0, the
 * margin the stores'; on an Oware game: refused.
 */
static void kalah_only_calls(void) {
    MancalaGame *g = NULL;
    OK(mancala_game_new("kalah(6,4)+pie_rule", &g));
    bool extra = true, offered = true, swapped = true;
    OK(mancala_game_extra_turn(g, &extra));
    CHECK(!extra);
    OK(mancala_game_play(g, "3"));
    OK(mancala_game_extra_turn(g, &extra));
    CHECK(extra);
    uint32_t slots[MANCALA_GAME_MAX_SLOTS];
    static const uint32_t after_3[14] = {4, 4, 0, 5, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0};
    size_t count = 0;
    OK(mancala_game_board(g, slots, MANCALA_GAME_MAX_SLOTS, &count));
    CHECK(count == 14 && memcmp(slots, after_3, sizeof after_3) == 0);
    OK(mancala_game_play(g, "1"));
    OK(mancala_game_extra_turn(g, &extra));
    CHECK(!extra);
    OK(mancala_game_swap_state(g, &offered, &swapped));
    CHECK(offered && !swapped);
    OK(mancala_game_play(g, "swap"));
    OK(mancala_game_extra_turn(g, &extra));
    CHECK(!extra);
    OK(mancala_game_swap_state(g, &offered, &swapped));
    CHECK(!offered && swapped);
    OK(mancala_game_free(g));

    OK(mancala_game_new("bao-la-kete", &g));
    EXPECT(mancala_game_board(g, slots, MANCALA_GAME_MAX_SLOTS, &count),
           MANCALA_STATUS_INVALID_ARGUMENT);
    OK(mancala_game_free(g));

    MancalaSolverConfig config = {1, 1 << 20, 0, 0};
    MancalaSolver *solver = NULL;
    OK(mancala_solver_new(&config, &solver));
    OK(mancala_game_parse("standard", "0,0,0,0,0,0,20,0,0,0,0,0,0,28 -", &g));
    MancalaSolution solution;
    OK(mancala_solver_solve_game(solver, g, &solution));
    CHECK(solution.exact && solution.value == 0 && solution.score == -8);
    OK(mancala_game_free(g));
    OK(mancala_game_new("oware", &g));
    EXPECT(mancala_solver_solve_game(solver, g, &solution), MANCALA_STATUS_INVALID_ARGUMENT);
    MancalaMoveValue values[MANCALA_KALAH_MAX_MOVES];
    EXPECT(mancala_solver_analyse_game(solver, g, values, MANCALA_KALAH_MAX_MOVES, &count),
           MANCALA_STATUS_INVALID_ARGUMENT);
    OK(mancala_game_free(g));
    OK(mancala_solver_free(solver));
}

int main(void) {
    kalah_by_text_and_index();
    kalah_finished();
    kalah_only_calls();
    bao_start();
    engine_plays_a_whole_game("kalah(6,4)");
    engine_plays_a_whole_game("bao-la-kete");
    engine_plays_a_whole_game("oware");
    oware_opening();
    error_paths();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
