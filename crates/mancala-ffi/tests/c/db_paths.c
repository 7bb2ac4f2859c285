/*
 * The one database family of the C API (`MancalaDb`, `mancala_db_*`) on games of the one game
 * API: an Oware database of 8 seeds and a Kalah one built, saved, opened by their headers and
 * looked up on positions worked out by hand from the rules, a build stopped by its callback,
 * the cache, the engine given a database (exact, or as its evaluation under Abapa: the move
 * printed for tests/c_programs.rs to check), and every error path (NULL pointers, freed and
 * foreign handles, bad rules and encodings, games of other kinds and rules, small buffers).
 *
 * Usage: db_paths <scratch directory>. Prints failed checks and "N passed, N failed".
 * Built and run (also under valgrind or AddressSanitizer) by tests/c_programs.rs.
 */
#include <stdio.h>
#include <string.h>

#include "mancala.h"

#include "check.h"

static char path[4096];

static int stop_at_once(const MancalaBuildProgress *p, void *user_data) {
    (void)p;
    (*(int *)user_data)++;
    return 1;
}

/* A game of `rules` at `position`, or at the start when `position` is NULL. */
static MancalaGame *game_of(const char *rules, const char *position) {
    MancalaGame *g = NULL;
    if (position == NULL) {
        OK(mancala_game_new(rules, &g));
    } else {
        OK(mancala_game_parse(rules, position, &g));
    }
    return g;
}

static MancalaDb *build(const char *rules, uint32_t max_seeds, uint32_t encoding) {
    MancalaDb *db = NULL;
    OK(mancala_db_build(rules, max_seeds, encoding, 1, NULL, NULL, 0, &db));
    return db;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    snprintf(path, sizeof path, "%s/db.awari.n8.egdb", dir);

    /* Oware, N = 8: 125879 boards (sum over n = 0..8 of C(n+11,11) - C(n+5,11), OW-11.1). */
    MancalaDb *built = build("awari", 8, MANCALA_EGDB_ENCODING_BYTE);
    MancalaDbInfo info;
    memset(&info, 0, sizeof info);
    OK(mancala_db_info(built, &info));
    CHECK(info.game == MANCALA_GAME_KIND_OWARE && info.max_seeds == 8);
    CHECK(info.entries == 125879 && info.memory_bytes == 125879);
    CHECK(info.encoding == MANCALA_EGDB_ENCODING_BYTE && info.bits_per_entry == 8);
    OK(mancala_db_save(built, path));
    OK(mancala_db_free(built));

    MancalaDb *db = NULL;
    OK(mancala_db_open(path, &db));
    OK(mancala_db_info(db, &info));
    CHECK(info.game == MANCALA_GAME_KIND_OWARE && info.entries == 125879);
    char text[64];
    size_t needed = 0;
    OK(mancala_db_rules_print(db, text, sizeof text, &needed));
    CHECK(strcmp(text, "awari") == 0 && needed == 6);
    EXPECT(mancala_db_rules_print(db, text, 3, &needed), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(needed == 6);

    /*
     * OW-11.3's example: South's only seed in S6 sows N1 (1 -> 2), captured; North's row is
     * then empty and nothing is left: +2 for South, S6 the only legal move.
     */
    MancalaGame *g = game_of("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    bool found = false;
    int32_t value = 99;
    OK(mancala_db_value(db, g, &found, &value));
    CHECK(found && value == 2);
    int32_t values[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    size_t count = 99;
    OK(mancala_db_move_values(db, g, &found, values, 8, &count));
    CHECK(found && count == 1 && values[0] == 2 && values[1] == 9);

    /* The engine given the database plays that move, exactly. */
    MancalaEngineConfig config;
    memset(&config, 0, sizeof config);
    config.tt_bytes = 1u << 16;
    MancalaEngine *engine = NULL;
    OK(mancala_engine_new(&config, &engine));
    OK(mancala_engine_set_db(engine, db));
    char mv[MANCALA_MOVE_MAX];
    MancalaEngineResult res;
    memset(&res, 0, sizeof res);
    OK(mancala_engine_bestmove(engine, g, 0, 10000, mv, sizeof mv, &needed, &res));
    CHECK(strcmp(mv, "6") == 0 && res.exact && res.score == 2 * MANCALA_ENGINE_SEED);
    OK(mancala_engine_set_db(engine, NULL));
    DEAD(mancala_engine_set_db(engine, (const MancalaDb *)g));
    OK(mancala_engine_free(engine));
    mancala_game_free(g);

    /*
     * Abapa (`oware`): no database holds its values, but the Oware database of
     * grand_slam=none (its neighbour, oware+majority=off+cycle_score=split) serves as the
     * engine's evaluation. The move and score of a depth-5 search with it are printed for
     * tests/c_programs.rs, which checks them against the Rust engine given the same
     * database; the search without it is printed too (it chooses another move there).
     */
    MancalaDb *neighbour = build("oware+majority=off+cycle_score=split", 6, MANCALA_EGDB_ENCODING_BYTE);
    MancalaGame *abapa = game_of("oware", "1,0,1,1,1,1,21,1,1,0,0,0,1,19 S");
    config.level = 5;
    OK(mancala_engine_new(&config, &engine));
    /* As the exact database it is refused by the search: Abapa's values are not its own. */
    OK(mancala_engine_set_db(engine, neighbour));
    EXPECT(mancala_engine_bestmove(engine, abapa, 0, 0, mv, sizeof mv, &needed, &res),
           MANCALA_STATUS_DATABASE_MISMATCH);
    OK(mancala_engine_set_db(engine, NULL));
    OK(mancala_engine_set_estimates(engine, neighbour));
    /* The engine keeps its own reference: the handle may go. */
    OK(mancala_db_free(neighbour));
    memset(&res, 0, sizeof res);
    OK(mancala_engine_bestmove(engine, abapa, 0, 0, mv, sizeof mv, &needed, &res));
    CHECK(!res.exact && res.depth == 5);
    printf("estimates: move %s score %d\n", mv, res.score);
    /* The Awari database (grand_slam=unless_only) holds no estimates of Abapa: refused. */
    OK(mancala_engine_set_estimates(engine, db));
    EXPECT(mancala_engine_bestmove(engine, abapa, 0, 0, mv, sizeof mv, &needed, &res),
           MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(strstr(last_error(), "as the evaluation") != NULL);
    /* NULL removes it: the engine's own heuristic again. */
    OK(mancala_engine_set_estimates(engine, NULL));
    memset(&res, 0, sizeof res);
    OK(mancala_engine_bestmove(engine, abapa, 0, 0, mv, sizeof mv, &needed, &res));
    printf("heuristic: move %s score %d\n", mv, res.score);
    NUL(mancala_engine_set_estimates(NULL, db));
    DEAD(mancala_engine_set_estimates(engine, (const MancalaDb *)abapa));
    DEAD(mancala_engine_set_estimates((MancalaEngine *)abapa, db));
    OK(mancala_engine_free(engine));
    DEAD(mancala_engine_set_estimates(engine, db));
    mancala_game_free(abapa);

    /* Nine seeds in the houses: not found, nothing else written but the zeros. */
    g = game_of("awari", "2,2,2,0,0,0,19,1,1,1,0,0,0,20 S");
    value = 7;
    OK(mancala_db_value(db, g, &found, &value));
    CHECK(!found && value == 0);
    OK(mancala_db_move_values(db, g, &found, values, 8, &count));
    CHECK(!found && count == 0);
    mancala_game_free(g);

    /* Two legal moves and a buffer of one: the count needed, nothing else. */
    g = game_of("awari", "1,1,0,0,0,0,23,1,0,0,0,0,0,22 S");
    found = true;
    EXPECT(mancala_db_move_values(db, g, &found, values, 1, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    CHECK(count == 2 && found);
    EXPECT(mancala_db_move_values(db, g, &found, NULL, 0, &count), MANCALA_STATUS_BUFFER_TOO_SMALL);
    NUL(mancala_db_move_values(db, g, &found, NULL, 2, &count));
    NUL(mancala_db_move_values(db, g, NULL, values, 8, &count));
    NUL(mancala_db_move_values(db, g, &found, values, 8, NULL));
    mancala_game_free(g);

    /* Games of another rule set or another game: refused, nothing written. */
    g = game_of("oware", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    value = 5;
    found = false;
    EXPECT(mancala_db_value(db, g, &found, &value), MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(value == 5 && !found);
    mancala_game_free(g);
    g = game_of("kalah(3,3)", NULL);
    EXPECT(mancala_db_value(db, g, &found, &value), MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(strstr(last_error(), "not those of a Kalah game") != NULL);

    /* Converted to packed: ceil(log2(2 * 8 + 1)) = 5 bits a board, the same values. */
    MancalaDb *packed = NULL;
    OK(mancala_db_convert(db, MANCALA_EGDB_ENCODING_PACKED, &packed));
    uint32_t encoding = 0, bits = 0;
    uint64_t memory = 0;
    OK(mancala_db_encoding(packed, &encoding, &bits, &memory));
    CHECK(encoding == MANCALA_EGDB_ENCODING_PACKED && bits == 5);
    CHECK(memory == (125879u * 5 + 7) / 8 + 8);
    EXPECT(mancala_db_convert(db, 99, &packed), MANCALA_STATUS_INVALID_ARGUMENT);
    OK(mancala_db_free(packed));
    /* Converted to compact (Oware databases only): the same values. */
    MancalaDb *compact = NULL;
    OK(mancala_db_convert(db, MANCALA_EGDB_ENCODING_COMPACT, &compact));
    OK(mancala_db_encoding(compact, &encoding, &bits, &memory));
    CHECK(encoding == MANCALA_EGDB_ENCODING_COMPACT);
    MancalaGame *ow = game_of("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    value = 5;
    found = false;
    OK(mancala_db_value(compact, ow, &found, &value));
    CHECK(found && value == 2);
    mancala_game_free(ow);
    OK(mancala_db_free(compact));

    /* A Kalah database of the cache folder, and a Kalah game's values. */
    MancalaDb *kalah = NULL;
    int32_t state = -1;
    OK(mancala_db_open_cached("kalah(3,3)", dir, 4, 1, NULL, NULL, 0, &kalah, &state));
    CHECK(state == 1);
    OK(mancala_db_info(kalah, &info));
    /* C(4 + 6, 6) positions. */
    CHECK(info.game == MANCALA_GAME_KIND_KALAH && info.max_seeds == 4 && info.entries == 210);
    MancalaDb *again = NULL;
    OK(mancala_db_open_cached("kalah(3,3)", dir, 4, 1, NULL, NULL, 0, &again, &state));
    CHECK(state == 0);
    OK(mancala_db_free(again));
    /* South's only seed in house 3 ends in the store (an extra turn) and South's row is then
     * empty: the game ends and North sweeps its one seed, 1 - 1 = 0. */
    MancalaGame *k = game_of("kalah(3,3)", "0,0,1,8,1,0,0,8 S");
    OK(mancala_db_value(kalah, k, &found, &value));
    CHECK(found && value == 0);
    OK(mancala_db_move_values(kalah, k, &found, values, 8, &count));
    CHECK(found && count == 1 && values[0] == 0);
    EXPECT(mancala_db_value(kalah, g, &found, &value), MANCALA_STATUS_OK); /* a Kalah game */
    mancala_game_free(g);
    mancala_game_free(k);
    k = game_of("kalah(4,3)", NULL);
    EXPECT(mancala_db_value(kalah, k, &found, &value), MANCALA_STATUS_DATABASE_MISMATCH);
    mancala_game_free(k);
    OK(mancala_db_free(kalah));

    /* Builds refused, a build stopped by its callback: nothing written. */
    MancalaDb *none = NULL;
    EXPECT(mancala_db_build("bao-la-kete", 2, 1, 1, NULL, NULL, 0, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    EXPECT(mancala_db_build("oware", 2, 1, 1, NULL, NULL, 0, &none), MANCALA_STATUS_DATABASE_MISMATCH);
    EXPECT(mancala_db_build("kalah(9,9)", 2, 1, 1, NULL, NULL, 0, &none), MANCALA_STATUS_BAD_RULES);
    EXPECT(mancala_db_build("awari", 2, 0, 1, NULL, NULL, 0, &none), MANCALA_STATUS_INVALID_ARGUMENT);
    /* The Oware build reports after each level: stopped after the first. */
    int calls = 0;
    EXPECT(mancala_db_build("awari", 8, 1, 1, stop_at_once, &calls, 0, &none),
           MANCALA_STATUS_CANCELLED);
    CHECK(none == NULL && calls == 1);
    NUL(mancala_db_build(NULL, 2, 1, 1, NULL, NULL, 0, &none));
    NUL(mancala_db_build("awari", 2, 1, 1, NULL, NULL, 0, NULL));

    /* Files: missing, not a database. */
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/missing.egdb", dir);
    EXPECT(mancala_db_open(missing, &none), MANCALA_STATUS_IO_ERROR);
    CHECK(none == NULL);
    char junk[4200];
    snprintf(junk, sizeof junk, "%s/junk.egdb", dir);
    FILE *f = fopen(junk, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs("not a database", f);
        fclose(f);
    }
    EXPECT(mancala_db_open(junk, &none), MANCALA_STATUS_CORRUPT_FILE);
    CHECK(none == NULL);

    /* NULL pointers and dead handles. */
    NUL(mancala_db_open(NULL, &none));
    NUL(mancala_db_open(path, NULL));
    NUL(mancala_db_info(db, NULL));
    NUL(mancala_db_info(NULL, &info));
    NUL(mancala_db_save(db, NULL));
    OK(mancala_db_free(NULL));
    g = game_of("awari", NULL);
    DEAD(mancala_db_value((const MancalaDb *)g, g, &found, &value));
    DEAD(mancala_db_value(db, (const MancalaGame *)db, &found, &value));
    OK(mancala_db_free(db));
    DEAD(mancala_db_value(db, g, &found, &value));
    DEAD(mancala_db_free(db));
    mancala_game_free(g);

    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
