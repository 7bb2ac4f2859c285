/*
 * A whole game of Oware (Abapa, the rule set "oware") through the one game API of
 * libmancala: the playing engine against itself, South at level 7 and North at level 4,
 * each on a budget of positions a move (so the game is the same on every machine). Prints
 * every move with the position after it, then the result.
 *
 * Build: cargo build --release -p mancala-ffi && make -C examples/c && examples/c/oware_game
 * An optional argument replaces the rule set: any game's, e.g. "awari" or "kalah(6,4)".
 */
#include <stdio.h>
#include <stdlib.h>

#include "mancala.h"

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

/* Positions the engine may search a move. */
#define NODES 3000

int main(int argc, char **argv) {
    const char *rules = argc > 1 ? argv[1] : "oware";
    MancalaGame *game = NULL;
    CHECK(mancala_game_new(rules, &game));
    MancalaEngineConfig south_config = {1u << 20, 7, 1};
    MancalaEngineConfig north_config = {1u << 20, 4, 2};
    MancalaEngine *south = NULL, *north = NULL;
    CHECK(mancala_engine_new(&south_config, &south));
    CHECK(mancala_engine_new(&north_config, &north));

    char text[MANCALA_DRAWING_MAX];
    size_t needed = 0;
    CHECK(mancala_game_print(game, text, sizeof text, &needed));
    printf("start: %s\n", text);
    MancalaSide side = MANCALA_SIDE_SOUTH;
    int ply = 0;
    for (;;) {
        CHECK(mancala_game_side_to_move(game, &side));
        if (side == MANCALA_SIDE_NONE) break;
        char mv[MANCALA_MOVE_MAX];
        MancalaEngineResult result;
        MancalaEngine *engine = side == MANCALA_SIDE_SOUTH ? south : north;
        CHECK(mancala_engine_bestmove(engine, game, 0, NODES, mv, sizeof mv, &needed, &result));
        CHECK(mancala_game_play(game, mv));
        CHECK(mancala_game_print(game, text, sizeof text, &needed));
        printf("%3d %s plays %s: %s\n", ++ply, side == MANCALA_SIDE_SOUTH ? "South" : "North", mv,
               text);
    }
    CHECK(mancala_game_draw(game, text, sizeof text, &needed));
    printf("%s\n", text);
    MancalaOutcome outcome = MANCALA_OUTCOME_ONGOING;
    int32_t score = 0;
    CHECK(mancala_game_outcome(game, &outcome, &score));
    printf("result: %s (%+d)\n",
           outcome == MANCALA_OUTCOME_SOUTH_WINS   ? "South wins"
           : outcome == MANCALA_OUTCOME_NORTH_WINS ? "North wins"
                                                   : "draw",
           (int)score);
    CHECK(mancala_engine_free(south));
    CHECK(mancala_engine_free(north));
    CHECK(mancala_game_free(game));
    return 0;
}
