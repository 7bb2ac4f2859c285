/*
 * The Awari databases through the C API (`MancalaAwariDb`, `mancala_awari_db_*`) on games
 * of the one game API: a database of 8 seeds built, saved, loaded and looked up on boards
 * worked out by hand from the rules, a build stopped by its callback, and every error path
 * (NULL pointers, a freed handle, a bad path, a Kalah file, games of other rule sets).
 *
 * Usage: awari_paths <scratch directory>. Prints failed checks and "N passed, N failed".
 * Built and run (also under valgrind or AddressSanitizer) by tests/c_programs.rs.
 */
#include <stdio.h>
#include <string.h>

#include "mancala.h"

/* This program checks the deprecated calls it uses (kept until 0.4.0) still work: their
 * deprecation warnings are expected here. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#include "check.h"

static char path[4096];
static char kalah_path[4096];

static int stop_at_once(const MancalaBuildProgress *p, void *user_data) {
    (void)p;
    (*(int *)user_data)++;
    return 1;
}

static int count_levels(const MancalaBuildProgress *p, void *user_data) {
    (void)p;
    (*(int *)user_data)++;
    return 0;
}

static MancalaGame *game_of(const char *rules, const char *position) {
    MancalaGame *g = NULL;
    OK(mancala_game_parse(rules, position, &g));
    return g;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    snprintf(path, sizeof path, "%s/awari.n8.egdb", dir);
    snprintf(kalah_path, sizeof kalah_path, "%s/kalah.for-awari.egdb", dir);

    /* Build N = 8: a callback after each level, 0..=8 (nine calls). */
    MancalaAwariDb *built = NULL;
    int levels = 0;
    OK(mancala_awari_db_build(8, 1, count_levels, &levels, &built));
    CHECK(levels == 9);
    uint32_t n = 0;
    uint64_t boards = 0;
    OK(mancala_awari_db_info(built, &n, &boards));
    CHECK(n == 8);
    /* Sum over n = 0..8 of C(n+11,11) - C(n+5,11) (OW-11.1): 1+12+78+364+1365+4368+12375+31812+75504. */
    CHECK(boards == 125879);
    OK(mancala_awari_db_save(built, path));
    OK(mancala_awari_db_free(built));

    MancalaAwariDb *db = NULL;
    OK(mancala_awari_db_load(path, &db));
    OK(mancala_awari_db_info(db, &n, &boards));
    CHECK(n == 8 && boards == 125879);

    /*
     * OW-11.3's example: South's only seed in S6, North's only seed in N1. S6 sows N1
     * (1 -> 2): captured, North's row is empty (the move is eradicating, but the only one,
     * so legal, OW-5.3); North cannot move and there is nothing left: +2 for South.
     */
    MancalaGame *g = game_of("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    bool found = false;
    int32_t value = 99;
    OK(mancala_awari_db_value(db, g, &found, &value));
    CHECK(found && value == 2);
    uint8_t legal = 0;
    int32_t values[6] = {9, 9, 9, 9, 9, 9};
    OK(mancala_awari_db_move_values(db, g, &found, &legal, values));
    CHECK(found && legal == 0x20);
    CHECK(values[5] == 2 && values[0] == 0 && values[4] == 0);
    mancala_game_free(g);

    /* The mirror: North's N6 sows S1 (1 -> 2), captured: +2 for North, to move. */
    g = game_of("awari", "1,0,0,0,0,0,23,0,0,0,0,0,1,23 N");
    OK(mancala_awari_db_value(db, g, &found, &value));
    CHECK(found && value == 2);
    mancala_game_free(g);

    /*
     * South's S5 and S6 hold one seed each, North's row is empty. S5 sows S6 (no seed
     * reaches North: eradicating); S6 sows N1 (North has a seed). Only S6 is legal (OW-5.3).
     */
    g = game_of("awari", "0,0,0,0,1,1,23,0,0,0,0,0,0,23 S");
    OK(mancala_awari_db_move_values(db, g, &found, &legal, values));
    CHECK(found && legal == 0x20);
    mancala_game_free(g);

    /* More seeds than the database holds (9 in the houses): not found, value 0. */
    g = game_of("awari", "2,2,2,0,0,0,19,1,1,1,0,0,0,20 S");
    value = 7;
    OK(mancala_awari_db_value(db, g, &found, &value));
    CHECK(!found && value == 0);
    OK(mancala_awari_db_move_values(db, g, &found, &legal, values));
    CHECK(!found && legal == 0);
    mancala_game_free(g);

    /* Games of other rule sets and games: refused (their values differ). */
    g = game_of("oware", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    EXPECT(mancala_awari_db_value(db, g, &found, &value), MANCALA_STATUS_DATABASE_MISMATCH);
    mancala_game_free(g);
    g = game_of("oware-openspiel", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    EXPECT(mancala_awari_db_move_values(db, g, &found, &legal, values),
           MANCALA_STATUS_DATABASE_MISMATCH);
    mancala_game_free(g);
    MancalaGame *kalah = NULL;
    OK(mancala_game_new("standard", &kalah));
    EXPECT(mancala_awari_db_value(db, kalah, &found, &value), MANCALA_STATUS_DATABASE_MISMATCH);

    /* NULL pointers. */
    g = game_of("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    NUL(mancala_awari_db_value(NULL, g, &found, &value));
    NUL(mancala_awari_db_value(db, NULL, &found, &value));
    NUL(mancala_awari_db_value(db, g, NULL, &value));
    NUL(mancala_awari_db_value(db, g, &found, NULL));
    NUL(mancala_awari_db_move_values(db, g, &found, &legal, NULL));
    NUL(mancala_awari_db_move_values(db, g, NULL, &legal, values));
    NUL(mancala_awari_db_info(db, NULL, &boards));
    NUL(mancala_awari_db_build(4, 1, NULL, NULL, NULL));
    NUL(mancala_awari_db_load(NULL, &built));
    NUL(mancala_awari_db_load(path, NULL));
    NUL(mancala_awari_db_save(db, NULL));
    NUL(mancala_awari_db_save(NULL, path));
    OK(mancala_awari_db_free(NULL));

    /* A handle of another type, and a freed one. */
    DEAD(mancala_awari_db_value((const MancalaAwariDb *)g, g, &found, &value));
    DEAD(mancala_awari_db_value(db, (const MancalaGame *)db, &found, &value));
    MancalaAwariDb *gone = NULL;
    OK(mancala_awari_db_build(2, 1, NULL, NULL, &gone));
    OK(mancala_awari_db_free(gone));
    DEAD(mancala_awari_db_value(gone, g, &found, &value));
    DEAD(mancala_awari_db_free(gone));
    mancala_game_free(g);

    /* Bad arguments: N above 48; a build stopped by its callback writes nothing. */
    built = NULL;
    EXPECT(mancala_awari_db_build(49, 1, NULL, NULL, &built), MANCALA_STATUS_INVALID_ARGUMENT);
    CHECK(built == NULL);
    int calls = 0;
    EXPECT(mancala_awari_db_build(6, 1, stop_at_once, &calls, &built), MANCALA_STATUS_CANCELLED);
    CHECK(built == NULL && calls == 1);

    /* A path that cannot be read, and a Kalah file, are refused. */
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/no-such-folder/awari.n8.egdb", dir);
    EXPECT(mancala_awari_db_load(missing, &built), MANCALA_STATUS_IO_ERROR);
    EXPECT(mancala_awari_db_save(db, missing), MANCALA_STATUS_IO_ERROR);
    /* A truncated copy: refused as a corrupt file, the message naming the copy. */
    char cut[4200];
    snprintf(cut, sizeof cut, "%s/cut.egdb", dir);
    FILE *in = fopen(path, "rb");
    FILE *outf = fopen(cut, "wb");
    CHECK(in != NULL && outf != NULL);
    char bytes[100];
    size_t got = fread(bytes, 1, sizeof bytes, in);
    CHECK(got == sizeof bytes);
    CHECK(fwrite(bytes, 1, got, outf) == got);
    fclose(in);
    fclose(outf);
    EXPECT(mancala_awari_db_load(cut, &built), MANCALA_STATUS_CORRUPT_FILE);
    CHECK(built == NULL);
    CHECK(strncmp(last_error(), cut, strlen(cut)) == 0);
    CHECK(strstr(last_error(), "truncated") != NULL);
    MancalaRules *r = rules_of("kalah(2,2)");
    MancalaEgdb *kdb = NULL;
    OK(mancala_egdb_build(r, 4, 1, &kdb));
    OK(mancala_egdb_save(kdb, kalah_path));
    EXPECT(mancala_awari_db_load(kalah_path, &built), MANCALA_STATUS_DATABASE_MISMATCH);
    CHECK(built == NULL);
    /* And the Awari file is refused as a Kalah database. */
    MancalaEgdb *kdb2 = NULL;
    EXPECT(mancala_egdb_load(path, &kdb2), MANCALA_STATUS_DATABASE_MISMATCH);
    mancala_egdb_free(kdb);
    mancala_rules_free(r);
    mancala_game_free(kalah);

    OK(mancala_awari_db_free(db));
    remove(path);
    remove(kalah_path);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
