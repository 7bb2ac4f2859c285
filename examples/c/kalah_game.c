/*
 * A game of Kalah(6,4) through the C API of libmancala: the engine (South) against a scripted
 * opponent (North). The engine plays greedily while many seeds are on the board and perfectly
 * (the exact solver) once at most ENDGAME_SEEDS seeds are left in the houses. Prints every
 * move and position and the result, then solves the start of Kalah(4,3) and analyses its
 * moves, and asks the playing engine (mancala_engine_*) for its move in the Kalah(6,4) start.
 *
 * Build: cargo build --release -p mancala-ffi && make -C examples/c && examples/c/kalah_game
 * An optional argument replaces the rule set of the main game (a Kalah(6,n) rule set such as
 * "kalah(6,4)+empty_capture"); a bad one shows how a failure is reported:
 *   examples/c/kalah_game 'kalah(6,4)+bogus'
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mancala.h"

/* Any failing call ends the program with the status name and the library's message. Only a
 * failed call sets the message and no successful call touches it (the errno rule), so it
 * may be read after naming the status or freeing handles. */
static void die(const char *call, MancalaStatus status) {
    const char *name = "?";
    size_t needed = 0;
    mancala_status_name((int)status, &name);
    /* A message has no fixed length (it may quote the caller's text): ask its size first. */
    char *message = NULL;
    if (mancala_last_error(NULL, 0, &needed) == MANCALA_STATUS_BUFFER_TOO_SMALL) {
        message = malloc(needed);
        if (message != NULL &&
            mancala_last_error(message, needed, &needed) != MANCALA_STATUS_OK) {
            free(message);
            message = NULL;
        }
    }
    fprintf(stderr, "%s failed: %s: %s\n", call, name, message != NULL ? message : "");
    free(message);
    exit(1);
}

#define CHECK(call)                                                                            \
    do {                                                                                       \
        MancalaStatus status_ = (call);                                                        \
        if (status_ != MANCALA_STATUS_OK) die(#call, status_);                                 \
    } while (0)

static const char *side_name(MancalaSide side) {
    return side == MANCALA_SIDE_SOUTH ? "South" : side == MANCALA_SIDE_NORTH ? "North" : "-";
}

/* The playing engine's node budget in the last part. */
#define ENGINE_NODES 20000

/* The solver takes over when at most this many seeds are left in the houses. */
#define ENDGAME_SEEDS 16

/* A move's text: Kalah moves are house numbers ("1" … "6"). */
typedef struct {
    char text[MANCALA_MOVE_MAX];
} Move;

/* The legal moves of `game`, their texts split out of the space-separated list. */
static size_t legal_moves(const MancalaGame *game, Move *moves, size_t max) {
    char list[MANCALA_MOVE_MAX * MANCALA_KALAH_MAX_MOVES];
    size_t needed = 0, count = 0, n = 0;
    CHECK(mancala_game_legal_moves(game, list, sizeof list, &needed, &count));
    for (char *word = strtok(list, " "); word != NULL && n < max; word = strtok(NULL, " ")) {
        snprintf(moves[n++].text, MANCALA_MOVE_MAX, "%s", word);
    }
    return n;
}

static unsigned seeds_in_houses(const MancalaGame *game) {
    uint32_t slots[MANCALA_GAME_MAX_SLOTS];
    size_t count = 0;
    CHECK(mancala_game_board(game, slots, MANCALA_GAME_MAX_SLOTS, &count));
    unsigned total = 0;
    for (size_t i = 0; i < count; i++) {
        if (i != count / 2 - 1 && i != count - 1) total += slots[i]; /* skip the stores */
    }
    return total;
}

/* South's store minus North's: the counts are South's houses, South's store, North's
 * houses, North's store. */
static int store_difference(const MancalaGame *game) {
    uint32_t slots[MANCALA_GAME_MAX_SLOTS];
    size_t count = 0;
    CHECK(mancala_game_board(game, slots, MANCALA_GAME_MAX_SLOTS, &count));
    return (int)slots[count / 2 - 1] - (int)slots[count - 1];
}

/* Greedy engine: the move after which the mover's store lead is largest, an extra turn
 * breaking ties, then the lowest house. Looks one move ahead with a cloned game. */
static Move greedy_move(const MancalaGame *game) {
    Move moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = legal_moves(game, moves, MANCALA_KALAH_MAX_MOVES);
    MancalaSide me;
    CHECK(mancala_game_side_to_move(game, &me));
    int best_value = INT_MIN;
    Move best = moves[0];
    for (size_t i = 0; i < count; i++) {
        MancalaGame *next = NULL;
        bool extra = false;
        CHECK(mancala_game_clone(game, &next));
        CHECK(mancala_game_play(next, moves[i].text));
        CHECK(mancala_game_extra_turn(next, &extra));
        int score = store_difference(next);
        CHECK(mancala_game_free(next));
        int lead = me == MANCALA_SIDE_SOUTH ? score : -score;
        int value = 2 * lead + (extra ? 1 : 0);
        if (value > best_value) {
            best_value = value;
            best = moves[i];
        }
    }
    return best;
}

/* The engine: the solver's first best move in the endgame, else the greedy move. */
static Move engine_move(MancalaSolver *solver, const MancalaGame *game, char *how,
                        size_t how_len) {
    if (seeds_in_houses(game) <= ENDGAME_SEEDS) {
        MancalaSolution solution;
        CHECK(mancala_solver_solve_game(solver, game, &solution));
        if (solution.exact && solution.best_move_count > 0) {
            Move best;
            snprintf(how, how_len, "solver, value %+d", (int)solution.value);
            /* The solver gives Kalah moves as house numbers, the text of the move. */
            snprintf(best.text, sizeof best.text, "%u", (unsigned)solution.best_moves[0]);
            return best;
        }
    }
    snprintf(how, how_len, "greedy");
    return greedy_move(game);
}

/* Scripted opponent: plays through a fixed list of houses, skipping those that are not legal
 * at its turn. */
static const char *const SCRIPT[] = {"1", "6", "2", "5", "3", "4"};
#define SCRIPT_LEN (sizeof SCRIPT / sizeof SCRIPT[0])

static Move scripted_move(const MancalaGame *game, size_t *cursor) {
    Move moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = legal_moves(game, moves, MANCALA_KALAH_MAX_MOVES);
    for (size_t tries = 0; tries < SCRIPT_LEN; tries++) {
        const char *wanted = SCRIPT[*cursor];
        *cursor = (*cursor + 1) % SCRIPT_LEN;
        for (size_t i = 0; i < count; i++) {
            if (strcmp(moves[i].text, wanted) == 0) return moves[i];
        }
    }
    return moves[0];
}

int main(int argc, char **argv) {
    const char *rules_text = argc > 1 ? argv[1] : "kalah(6,4)";
    const char *version = NULL;
    CHECK(mancala_version_string(&version));
    printf("libmancala %s (header %d.%d.%d)\n", version, MANCALA_VERSION_MAJOR,
           MANCALA_VERSION_MINOR, MANCALA_VERSION_PATCH);

    MancalaRules *rules = NULL;
    char text[MANCALA_NOTATION_MAX]; /* always holds a position's notation */
    char name[256];
    size_t needed = 0;
    CHECK(mancala_rules_new(rules_text, &rules));
    CHECK(mancala_rules_print(rules, name, sizeof name, &needed));
    printf("rules: %s\n", name);

    MancalaGame *game = NULL;
    CHECK(mancala_game_from_rules(rules, NULL, &game));
    CHECK(mancala_rules_free(rules)); /* the game keeps its own copy of the rules */

    uint64_t nodes = 0;
    CHECK(mancala_game_perft(game, 2, &nodes));
    printf("perft(2) = %llu\n", (unsigned long long)nodes);

    CHECK(mancala_game_print(game, text, sizeof text, &needed));
    printf("start: %s\n", text);

    /* One search thread and a 16 MiB table; no limits: endgame solves take milliseconds. */
    MancalaSolverConfig config = {1, 16u << 20, 0, 0};
    MancalaSolver *solver = NULL;
    CHECK(mancala_solver_new(&config, &solver));

    size_t cursor = 0;
    int ply = 0;
    for (;;) {
        MancalaSide side;
        CHECK(mancala_game_side_to_move(game, &side));
        if (side == MANCALA_SIDE_NONE) break;
        char how[32] = "script";
        Move mv = side == MANCALA_SIDE_SOUTH ? engine_move(solver, game, how, sizeof how)
                                             : scripted_move(game, &cursor);
        bool extra = false;
        CHECK(mancala_game_play(game, mv.text));
        CHECK(mancala_game_extra_turn(game, &extra));
        CHECK(mancala_game_print(game, text, sizeof text, &needed));
        printf("%3d. %s (%s) plays %s -> %s%s\n", ++ply, side_name(side), how, mv.text, text,
               extra ? "  (extra turn)" : "");
    }

    MancalaOutcome outcome;
    int32_t score = 0;
    CHECK(mancala_game_outcome(game, &outcome, &score));
    printf("result: %s (score %+d, South minus North)\n",
           outcome == MANCALA_OUTCOME_SOUTH_WINS   ? "South wins"
           : outcome == MANCALA_OUTCOME_NORTH_WINS ? "North wins"
                                                   : "draw",
           (int)score);

    /* The final board as `mancala show` draws it; MANCALA_DRAWING_MAX bytes always suffice. */
    char board[MANCALA_DRAWING_MAX];
    CHECK(mancala_game_draw(game, board, sizeof board, &needed));
    printf("%s\n", board);

    /* The move record, with a buffer sized by asking first. */
    CHECK(mancala_game_record_print(game, NULL, 0, &needed) == MANCALA_STATUS_BUFFER_TOO_SMALL
              ? MANCALA_STATUS_OK
              : MANCALA_STATUS_PANIC);
    char *record = malloc(needed);
    if (record == NULL) return 1;
    CHECK(mancala_game_record_print(game, record, needed, &needed));
    printf("record: %s\n", record);
    free(record);

    CHECK(mancala_game_free(game));

    /* Solve a whole small game: Kalah(4,3) from the start, and the value of each first move.
     * Values are seeds the player to move can still gain over the opponent. */
    CHECK(mancala_rules_new("kalah(4,3)", &rules));
    CHECK(mancala_game_from_rules(rules, NULL, &game));
    MancalaSolution solution;
    CHECK(mancala_solver_solve_game(solver, game, &solution));
    printf("solve kalah(4,3) start: value %+d (%s), best move", (int)solution.value,
           solution.exact ? "exact" : "bounds");
    for (uint32_t i = 0; i < solution.best_move_count; i++) {
        printf(" %u", (unsigned)solution.best_moves[i]);
    }
    printf("\n");
    MancalaMoveValue values[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    CHECK(mancala_solver_analyse_game(solver, game, values, MANCALA_KALAH_MAX_MOVES, &count));
    printf("analyse:");
    for (size_t i = 0; i < count; i++) {
        printf(" %u:%+d", (unsigned)values[i].mv, (int)values[i].value);
    }
    printf("\n");
    CHECK(mancala_game_free(game));
    CHECK(mancala_rules_free(rules));
    CHECK(mancala_solver_free(solver));

    /* The playing engine: the best move it finds in the Kalah(6,4) start at level 10 (its
     * strongest) within a budget of ENGINE_NODES positions. A node budget (time_ms 0) makes
     * the answer the same on every machine; a game would rather give it time_ms. */
    MancalaEngineConfig engine_config = {1u << 20, 10, 0}; /* 1 MiB table, level 10, seed 0 */
    MancalaEngine *engine = NULL;
    CHECK(mancala_engine_new(&engine_config, &engine));
    CHECK(mancala_rules_new("kalah(6,4)", &rules));
    CHECK(mancala_game_from_rules(rules, NULL, &game));
    MancalaEngineResult best;
    char best_move[MANCALA_MOVE_MAX];
    CHECK(mancala_engine_bestmove(engine, game, 0, ENGINE_NODES, best_move, sizeof best_move,
                                  &needed, &best));
    printf("engine (level 10, %u nodes) on the kalah(6,4) start: move %s, depth %u, score %+d\n",
           (unsigned)ENGINE_NODES, best_move, (unsigned)best.depth, (int)best.score);
    CHECK(mancala_game_free(game));
    CHECK(mancala_rules_free(rules));
    CHECK(mancala_engine_free(engine));
    return 0;
}
