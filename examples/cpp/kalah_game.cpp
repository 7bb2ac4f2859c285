// A game of Kalah(6,4) through the C API of libmancala, from C++17: the same engine (South:
// greedy, then the exact solver once at most 16 seeds are left in the houses) against the same
// scripted opponent (North) as examples/c, then a solve and an analysis of Kalah(4,3) and the
// playing engine's move in the Kalah(6,4) start, with RAII handles and exceptions. Its output is identical to the C example's.
//
// Build: cargo build --release -p mancala-ffi && make -C examples/cpp && examples/cpp/kalah_game
#include <array>
#include <climits>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "mancala.h"

namespace mancala {

// Thrown for any status other than MANCALA_STATUS_OK, with the library's message.
class Error : public std::runtime_error {
  public:
    Error(const char *call, MancalaStatus status)
        : std::runtime_error(std::string(call) + " failed: " + status_name(status) + ": " +
                             last_error()),
          status_(status) {}
    MancalaStatus status() const { return status_; }

  private:
    static std::string status_name(MancalaStatus status) {
        const char *name = "?";
        mancala_status_name(static_cast<int>(status), &name);
        return name;
    }
    static std::string last_error() {
        size_t needed = 0;
        if (mancala_last_error(nullptr, 0, &needed) != MANCALA_STATUS_BUFFER_TOO_SMALL) return "";
        std::string text(needed, '\0');
        if (mancala_last_error(text.data(), text.size(), &needed) != MANCALA_STATUS_OK) return "";
        text.resize(needed - 1);
        return text;
    }
    MancalaStatus status_;
};

#define MANCALA_CHECK(call)                                                                    \
    do {                                                                                       \
        MancalaStatus status_ = (call);                                                        \
        if (status_ != MANCALA_STATUS_OK) throw ::mancala::Error(#call, status_);              \
    } while (0)

// Reads a string through the library's "buffer + size needed" protocol.
template <typename Handle, typename Fn> std::string read_string(const Handle *h, Fn fn) {
    std::array<char, 64> small{};
    size_t needed = 0;
    MancalaStatus status = fn(h, small.data(), small.size(), &needed);
    if (status == MANCALA_STATUS_OK) return std::string(small.data(), needed - 1);
    if (status != MANCALA_STATUS_BUFFER_TOO_SMALL) throw Error("read_string", status);
    std::vector<char> big(needed);
    MANCALA_CHECK(fn(h, big.data(), big.size(), &needed));
    return std::string(big.data(), needed - 1);
}

struct RulesDeleter {
    void operator()(MancalaRules *r) const { mancala_rules_free(r); }
};
struct GameDeleter {
    void operator()(MancalaGame *g) const { mancala_game_free(g); }
};
struct EngineDeleter {
    void operator()(MancalaEngine *e) const { mancala_engine_free(e); }
};
struct SolverDeleter {
    void operator()(MancalaSolver *s) const { mancala_solver_free(s); }
};

class Rules {
  public:
    explicit Rules(const char *text) {
        MancalaRules *raw = nullptr;
        MANCALA_CHECK(mancala_rules_new(text, &raw));
        handle_.reset(raw);
    }
    std::string str() const { return read_string(handle_.get(), mancala_rules_print); }
    const MancalaRules *get() const { return handle_.get(); }

  private:
    std::unique_ptr<MancalaRules, RulesDeleter> handle_;
};

// A Kalah game (a MancalaGame of Kalah rules), its moves as house numbers.
class Kalah {
  public:
    explicit Kalah(const Rules &rules) {
        MancalaGame *raw = nullptr;
        MANCALA_CHECK(mancala_game_from_rules(rules.get(), nullptr, &raw));
        handle_.reset(raw);
    }
    Kalah(const Kalah &other) {
        MancalaGame *raw = nullptr;
        MANCALA_CHECK(mancala_game_clone(other.handle_.get(), &raw));
        handle_.reset(raw);
    }
    std::string str() const { return read_string(handle_.get(), mancala_game_print); }
    std::string record() const {
        return read_string(handle_.get(), mancala_game_record_print);
    }
    // The board drawn as text, as `mancala show` draws it (several lines).
    std::string board() const { return read_string(handle_.get(), mancala_game_draw); }
    // The legal moves: the texts of mancala_game_legal_moves ("1 2 3") as house numbers.
    std::vector<uint8_t> legal_moves() const {
        std::array<char, MANCALA_MOVE_MAX * MANCALA_KALAH_MAX_MOVES> list{};
        size_t needed = 0, count = 0;
        MANCALA_CHECK(
            mancala_game_legal_moves(handle_.get(), list.data(), list.size(), &needed, &count));
        std::vector<uint8_t> moves;
        std::istringstream words(list.data());
        for (unsigned house = 0; words >> house;) moves.push_back(static_cast<uint8_t>(house));
        return moves;
    }
    MancalaSide side_to_move() const {
        MancalaSide side;
        MANCALA_CHECK(mancala_game_side_to_move(handle_.get(), &side));
        return side;
    }
    // Whether playing `mv` now gives the mover another move: played on a copy, then asked.
    bool extra_turn(uint8_t mv) const {
        Kalah next(*this);
        next.play(mv);
        bool extra = false;
        MANCALA_CHECK(mancala_game_extra_turn(next.handle_.get(), &extra));
        return extra;
    }
    void play(uint8_t mv) {
        MANCALA_CHECK(mancala_game_play(handle_.get(), std::to_string(mv).c_str()));
    }
    std::pair<MancalaOutcome, int32_t> outcome() const {
        MancalaOutcome outcome;
        int32_t score = 0;
        MANCALA_CHECK(mancala_game_outcome(handle_.get(), &outcome, &score));
        return {outcome, score};
    }
    uint64_t perft(uint32_t depth) const {
        uint64_t nodes = 0;
        MANCALA_CHECK(mancala_game_perft(handle_.get(), depth, &nodes));
        return nodes;
    }
    // The seed counts in notation order: South's houses, South's store, North's houses,
    // North's store.
    std::vector<uint32_t> counts() const {
        std::array<uint32_t, MANCALA_GAME_MAX_SLOTS> slots{};
        size_t count = 0;
        MANCALA_CHECK(mancala_game_board(handle_.get(), slots.data(), slots.size(), &count));
        return std::vector<uint32_t>(slots.begin(), slots.begin() + count);
    }
    unsigned seeds_in_houses() const {
        std::vector<uint32_t> slots = counts();
        size_t count = slots.size();
        unsigned total = 0;
        for (size_t i = 0; i < count; i++) {
            if (i != count / 2 - 1 && i != count - 1) total += slots[i]; // skip the stores
        }
        return total;
    }
    // South's store minus North's.
    int store_difference() const {
        std::vector<uint32_t> slots = counts();
        return static_cast<int>(slots[slots.size() / 2 - 1]) - static_cast<int>(slots.back());
    }
    const MancalaGame *get() const { return handle_.get(); }

  private:
    std::unique_ptr<MancalaGame, GameDeleter> handle_;
};

class Solver {
  public:
    explicit Solver(const MancalaSolverConfig &config) {
        MancalaSolver *raw = nullptr;
        MANCALA_CHECK(mancala_solver_new(&config, &raw));
        handle_.reset(raw);
    }
    MancalaSolution solve(const Kalah &game) {
        MancalaSolution solution{};
        MANCALA_CHECK(mancala_solver_solve_game(handle_.get(), game.get(), &solution));
        return solution;
    }
    std::vector<MancalaMoveValue> analyse(const Kalah &game) {
        std::array<MancalaMoveValue, MANCALA_KALAH_MAX_MOVES> values{};
        size_t count = 0;
        MANCALA_CHECK(mancala_solver_analyse_game(handle_.get(), game.get(), values.data(),
                                                  values.size(), &count));
        return std::vector<MancalaMoveValue>(values.begin(), values.begin() + count);
    }

  private:
    std::unique_ptr<MancalaSolver, SolverDeleter> handle_;
};

// The playing engine (mancala_engine_*).
class Engine {
  public:
    explicit Engine(const MancalaEngineConfig &config) {
        MancalaEngine *raw = nullptr;
        MANCALA_CHECK(mancala_engine_new(&config, &raw));
        handle_.reset(raw);
    }
    MancalaEngineResult best_move(const Kalah &game, uint64_t time_ms, uint64_t node_limit) {
        MancalaEngineResult result{};
        std::array<char, MANCALA_MOVE_MAX> move{};
        size_t needed = 0;
        MANCALA_CHECK(mancala_engine_bestmove(handle_.get(), game.get(), time_ms, node_limit,
                                              move.data(), move.size(), &needed, &result));
        result.mv = static_cast<uint8_t>(std::stoul(move.data())); // a Kalah move: its house
        return result;
    }

  private:
    std::unique_ptr<MancalaEngine, EngineDeleter> handle_;
};

} // namespace mancala

namespace {

const char *side_name(MancalaSide side) {
    return side == MANCALA_SIDE_SOUTH ? "South" : side == MANCALA_SIDE_NORTH ? "North" : "-";
}

// Greedy engine: largest store lead after the move, then an extra turn, then the lowest house.
uint8_t greedy_move(const mancala::Kalah &game) {
    MancalaSide me = game.side_to_move();
    int best_value = INT_MIN;
    uint8_t best = 0;
    for (uint8_t mv : game.legal_moves()) {
        mancala::Kalah next(game);
        next.play(mv);
        int lead = next.store_difference() * (me == MANCALA_SIDE_SOUTH ? 1 : -1);
        int value = 2 * lead + (game.extra_turn(mv) ? 1 : 0);
        if (value > best_value) {
            best_value = value;
            best = mv;
        }
    }
    return best;
}

// The engine: the solver's first best move once at most 16 seeds are left in the houses.
uint8_t engine_move(mancala::Solver &solver, const mancala::Kalah &game, std::string &how) {
    if (game.seeds_in_houses() <= 16) {
        MancalaSolution solution = solver.solve(game);
        if (solution.exact && solution.best_move_count > 0) {
            char text[32];
            std::snprintf(text, sizeof text, "solver, value %+d", static_cast<int>(solution.value));
            how = text;
            return solution.best_moves[0];
        }
    }
    how = "greedy";
    return greedy_move(game);
}

// Scripted opponent: a fixed list of houses, skipping those not legal at its turn.
constexpr std::array<uint8_t, 6> SCRIPT{1, 6, 2, 5, 3, 4};

uint8_t scripted_move(const mancala::Kalah &game, size_t &cursor) {
    std::vector<uint8_t> moves = game.legal_moves();
    for (size_t tries = 0; tries < SCRIPT.size(); tries++) {
        uint8_t wanted = SCRIPT[cursor];
        cursor = (cursor + 1) % SCRIPT.size();
        for (uint8_t mv : moves) {
            if (mv == wanted) return wanted;
        }
    }
    return moves.front();
}

} // namespace

// An optional argument replaces the rule set of the main game (a Kalah(6,n) rule set); a bad
// one shows how a failure is reported: examples/cpp/kalah_game 'kalah(6,4)+bogus'
int main(int argc, char **argv) {
    const char *rules_text = argc > 1 ? argv[1] : "kalah(6,4)";
    try {
        const char *version = nullptr;
        MANCALA_CHECK(mancala_version_string(&version));
        std::printf("libmancala %s (header %d.%d.%d)\n", version, MANCALA_VERSION_MAJOR,
                    MANCALA_VERSION_MINOR, MANCALA_VERSION_PATCH);

        mancala::Rules rules(rules_text);
        std::printf("rules: %s\n", rules.str().c_str());
        mancala::Kalah game(rules);
        std::printf("perft(2) = %llu\n", static_cast<unsigned long long>(game.perft(2)));
        std::printf("start: %s\n", game.str().c_str());

        mancala::Solver solver(MancalaSolverConfig{1, 16u << 20, 0, 0});
        size_t cursor = 0;
        int ply = 0;
        for (MancalaSide side; (side = game.side_to_move()) != MANCALA_SIDE_NONE;) {
            std::string how = "script";
            uint8_t mv = side == MANCALA_SIDE_SOUTH ? engine_move(solver, game, how)
                                                    : scripted_move(game, cursor);
            bool extra = game.extra_turn(mv);
            game.play(mv);
            std::printf("%3d. %s (%s) plays %u -> %s%s\n", ++ply, side_name(side), how.c_str(),
                        static_cast<unsigned>(mv), game.str().c_str(),
                        extra ? "  (extra turn)" : "");
        }

        auto [outcome, score] = game.outcome();
        std::printf("result: %s (score %+d, South minus North)\n",
                    outcome == MANCALA_OUTCOME_SOUTH_WINS   ? "South wins"
                    : outcome == MANCALA_OUTCOME_NORTH_WINS ? "North wins"
                                                            : "draw",
                    static_cast<int>(score));
        std::printf("%s\n", game.board().c_str());
        std::printf("record: %s\n", game.record().c_str());

        mancala::Kalah small(mancala::Rules("kalah(4,3)"));
        MancalaSolution solution = solver.solve(small);
        std::printf("solve kalah(4,3) start: value %+d (%s), best move",
                    static_cast<int>(solution.value), solution.exact ? "exact" : "bounds");
        for (uint32_t i = 0; i < solution.best_move_count; i++) {
            std::printf(" %u", static_cast<unsigned>(solution.best_moves[i]));
        }
        std::printf("\nanalyse:");
        for (const MancalaMoveValue &v : solver.analyse(small)) {
            std::printf(" %u:%+d", static_cast<unsigned>(v.mv), static_cast<int>(v.value));
        }
        std::printf("\n");

        // The playing engine at level 10 with a node budget (time_ms 0), so that the answer
        // is the same on every machine; a game would rather give it time_ms.
        mancala::Engine engine(MancalaEngineConfig{1u << 20, 10, 0});
        mancala::Kalah start(mancala::Rules("kalah(6,4)"));
        MancalaEngineResult best = engine.best_move(start, 0, 20000);
        std::printf("engine (level 10, 20000 nodes) on the kalah(6,4) start: move %u, depth %u, "
                    "score %+d\n",
                    static_cast<unsigned>(best.mv), static_cast<unsigned>(best.depth),
                    static_cast<int>(best.score));
    } catch (const mancala::Error &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
