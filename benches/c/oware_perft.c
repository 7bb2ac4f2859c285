/*
 * A plain-array perft of Oware Abapa (the `oware` rule set of docs/rules/oware.md), the
 * baseline that `benches/examples/oware_perft_vs_c.rs` measures the packed Rust position
 * against. It has the shape of the fastest simple engine: twelve bytes for the houses, two
 * stores, the side to move, no history.
 *
 * Built by the build script of the benches crate (`benches/build.rs`) with the `cc` crate,
 * `-O3 -march=native`, whatever the Cargo profile.
 *
 * The rules, as in `oware`:
 *   - sowing counter-clockwise from the house after the origin, skipping the origin when a
 *     sowing goes round (12 seeds or more: a lap of the 11 other houses per 11 seeds);
 *   - capture: when the last seed makes 2 or 3 in an opponent house, that house and the
 *     preceding opponent houses holding 2 or 3 are captured, back to the first that does not;
 *   - grand slam (a capture that would take every seed of the opponent's row): legal, and it
 *     captures nothing;
 *   - feeding: when the opponent's row is empty only the moves that reach it are legal;
 *   - the game ends when a player has more than half the seeds in store, or both exactly
 *     half (majority, `stop`), or when the side to move has no legal move.
 *
 * Perft counts the move sequences of exactly `depth` plies, as `mancala perft`: a game that
 * ends before the last ply counts nothing, and at the last ply every legal move counts.
 * Every ply is played, the last one included (sowing, capture, stores, majority check);
 * repetition is not checked (perft is history-free). A position that has no legal move is
 * found so when its moves are generated.
 */
#include <stdint.h>
#include <string.h>

#define HOUSES 12
#define SIDE 6
#define SEEDS 4
#define TOTAL (HOUSES * SEEDS)

struct board {
    uint8_t house[HOUSES]; /* South's houses 1..6 at 0..5, North's at 6..11 */
    uint8_t store[2];      /* South, North */
    uint8_t to_move;       /* 0 South, 1 North */
    uint8_t over;          /* 1 once the game has ended by the majority */
};

/* The house after each house on the circuit. */
static const uint8_t next_house[HOUSES] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0};

/* The legal moves of `b` (absolute house indices) into `moves`; returns their number. */
static int generate(const struct board *b, uint8_t moves[SIDE]) {
    if (b->over) {
        return 0;
    }
    int own = b->to_move * SIDE;
    int opp = SIDE - own;
    int opp_seeds = 0;
    for (int i = 0; i < SIDE; i++) {
        opp_seeds += b->house[opp + i];
    }
    int n = 0;
    for (int i = 0; i < SIDE; i++) {
        int seeds = b->house[own + i];
        /* From house i + 1, 6 − i seeds or more reach the opponent's row. */
        if (seeds != 0 && (opp_seeds != 0 || seeds >= SIDE - i)) {
            moves[n++] = (uint8_t)(own + i);
        }
    }
    return n;
}

/* Plays the legal move from house `from` on `b`. */
static void play(struct board *b, int from) {
    int seeds = b->house[from];
    b->house[from] = 0;
    int at = from;
    if (seeds >= HOUSES) {
        /* Whole laps of the 11 other houses, then the rest seed by seed. */
        int laps = seeds / (HOUSES - 1);
        seeds -= laps * (HOUSES - 1);
        for (int i = 0; i < HOUSES; i++) {
            if (i != from) {
                b->house[i] += (uint8_t)laps;
            }
        }
        if (seeds == 0) {
            /* The last seed fell in the house just before the origin. */
            at = from == 0 ? HOUSES - 1 : from - 1;
        }
    }
    while (seeds > 0) {
        at = next_house[at];
        if (at == from) {
            continue;
        }
        b->house[at]++;
        seeds--;
    }
    int mover = b->to_move;
    int opp = SIDE - mover * SIDE;
    if (at >= opp && at < opp + SIDE && (b->house[at] == 2 || b->house[at] == 3)) {
        int first = at;
        int taken = 0;
        while (first >= opp && (b->house[first] == 2 || b->house[first] == 3)) {
            taken += b->house[first];
            first--;
        }
        int left = 0;
        for (int i = opp; i < opp + SIDE; i++) {
            left += b->house[i];
        }
        if (left != taken) {
            /* Not a grand slam: the chain is captured. */
            for (int i = first + 1; i <= at; i++) {
                b->house[i] = 0;
            }
            b->store[mover] += (uint8_t)taken;
            int s = b->store[mover];
            if (2 * s > TOTAL || (2 * s == TOTAL && 2 * b->store[1 - mover] == TOTAL)) {
                b->over = 1;
            }
        }
    }
    b->to_move = (uint8_t)(1 - mover);
}

static uint64_t perft(const struct board *b, unsigned depth) {
    if (depth == 0) {
        return 1;
    }
    uint8_t moves[SIDE];
    int n = generate(b, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        struct board child;
        memcpy(&child, b, sizeof child);
        play(&child, moves[i]);
        if (depth == 1) {
            /* The last ply is played too: an empty asm statement that reads the child
             * keeps the optimiser from dropping the move. */
            __asm__ volatile("" : : "r"(child.house[0]), "r"(child.over) : "memory");
            total += 1;
        } else {
            total += perft(&child, depth - 1);
        }
    }
    return total;
}

/* Perft of `oware` (6 houses a side, 4 seeds each) from the start, `depth` plies. */
uint64_t c_oware_perft(unsigned depth) {
    struct board b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < HOUSES; i++) {
        b.house[i] = SEEDS;
    }
    return perft(&b, depth);
}
