/*
 * A game of Kalah(6,4) through the C API of libmancala: a greedy engine (South) against a
 * scripted opponent (North). Prints every move and position, then the result.
 *
 * Build: cargo build --release -p mancala-ffi && make -C examples/c && examples/c/kalah_game
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

/* Any failing call ends the program with the status name and the library's message. */
static void die(const char *call, MancalaStatus status) {
    const char *name = "?";
    char message[256];
    size_t needed = 0;
    mancala_status_name((int)status, &name);
    if (mancala_last_error(message, sizeof message, &needed) != MANCALA_STATUS_OK) {
        message[0] = '\0';
    }
    fprintf(stderr, "%s failed: %s: %s\n", call, name, message);
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

/* Greedy engine: the move after which the mover's store lead is largest, an extra turn
 * breaking ties, then the lowest house. Looks one move ahead with a cloned game. */
static uint8_t engine_move(const MancalaKalah *game) {
    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    MancalaSide me;
    CHECK(mancala_kalah_legal_moves(game, moves, MANCALA_KALAH_MAX_MOVES, &count));
    CHECK(mancala_kalah_side_to_move(game, &me));
    int best_value = INT_MIN;
    uint8_t best = moves[0];
    for (size_t i = 0; i < count; i++) {
        MancalaKalah *next = NULL;
        MancalaOutcome outcome;
        int32_t score;
        bool extra = false;
        CHECK(mancala_kalah_extra_turn(game, moves[i], &extra));
        CHECK(mancala_kalah_clone(game, &next));
        CHECK(mancala_kalah_play(next, moves[i]));
        CHECK(mancala_kalah_outcome(next, &outcome, &score));
        CHECK(mancala_kalah_free(next));
        int lead = me == MANCALA_SIDE_SOUTH ? score : -score;
        int value = 2 * lead + (extra ? 1 : 0);
        if (value > best_value) {
            best_value = value;
            best = moves[i];
        }
    }
    return best;
}

/* Scripted opponent: plays through a fixed list of houses, skipping those that are not legal
 * at its turn. */
static const uint8_t SCRIPT[] = {1, 6, 2, 5, 3, 4};
#define SCRIPT_LEN (sizeof SCRIPT / sizeof SCRIPT[0])

static uint8_t scripted_move(const MancalaKalah *game, size_t *cursor) {
    uint8_t moves[MANCALA_KALAH_MAX_MOVES];
    size_t count = 0;
    CHECK(mancala_kalah_legal_moves(game, moves, MANCALA_KALAH_MAX_MOVES, &count));
    for (size_t tries = 0; tries < SCRIPT_LEN; tries++) {
        uint8_t wanted = SCRIPT[*cursor];
        *cursor = (*cursor + 1) % SCRIPT_LEN;
        for (size_t i = 0; i < count; i++) {
            if (moves[i] == wanted) return wanted;
        }
    }
    return moves[0];
}

int main(void) {
    const char *version = NULL;
    CHECK(mancala_version_string(&version));
    printf("libmancala %s (header %d.%d.%d)\n", version, MANCALA_VERSION_MAJOR,
           MANCALA_VERSION_MINOR, MANCALA_VERSION_PATCH);

    MancalaRules *rules = NULL;
    char text[64];
    size_t needed = 0;
    CHECK(mancala_rules_new("kalah(6,4)", &rules));
    CHECK(mancala_rules_print(rules, text, sizeof text, &needed));
    printf("rules: %s\n", text);

    MancalaKalah *game = NULL;
    CHECK(mancala_kalah_new(rules, &game));
    CHECK(mancala_rules_free(rules)); /* the game keeps its own copy of the rules */

    uint64_t nodes = 0;
    CHECK(mancala_kalah_perft(game, 2, &nodes));
    printf("perft(2) = %llu\n", (unsigned long long)nodes);

    CHECK(mancala_kalah_print(game, text, sizeof text, &needed));
    printf("start: %s\n", text);

    size_t cursor = 0;
    int ply = 0;
    for (;;) {
        MancalaSide side;
        CHECK(mancala_kalah_side_to_move(game, &side));
        if (side == MANCALA_SIDE_NONE) break;
        uint8_t mv = side == MANCALA_SIDE_SOUTH ? engine_move(game) : scripted_move(game, &cursor);
        bool extra = false;
        CHECK(mancala_kalah_extra_turn(game, mv, &extra));
        CHECK(mancala_kalah_play(game, mv));
        CHECK(mancala_kalah_print(game, text, sizeof text, &needed));
        printf("%3d. %s (%s) plays %u -> %s%s\n", ++ply, side_name(side),
               side == MANCALA_SIDE_SOUTH ? "engine" : "script", (unsigned)mv, text,
               extra ? "  (extra turn)" : "");
    }

    MancalaOutcome outcome;
    int32_t score = 0;
    CHECK(mancala_kalah_outcome(game, &outcome, &score));
    printf("result: %s (score %+d, South minus North)\n",
           outcome == MANCALA_OUTCOME_SOUTH_WINS   ? "South wins"
           : outcome == MANCALA_OUTCOME_NORTH_WINS ? "North wins"
                                                   : "draw",
           (int)score);

    /* The move record, with a buffer sized by asking first. */
    CHECK(mancala_kalah_record_print(game, NULL, 0, &needed) == MANCALA_STATUS_BUFFER_TOO_SMALL
              ? MANCALA_STATUS_OK
              : MANCALA_STATUS_PANIC);
    char *record = malloc(needed);
    if (record == NULL) return 1;
    CHECK(mancala_kalah_record_print(game, record, needed, &needed));
    printf("record: %s\n", record);
    free(record);

    CHECK(mancala_kalah_free(game));
    return 0;
}
