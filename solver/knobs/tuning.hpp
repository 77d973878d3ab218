// The search's knobs in one table (docs/algorithms.md, "Tuning"): budgets,
// switches kept to measure an idea, solver configurations, and the effort
// constants of the phases. None of them changes what is valid or what is
// proven; they move time between the phases of a search. Users reach them
// through one flag (`tessel search --tune name=value`, `--tune help` lists
// the table; Python's `tune={...}` takes the same names), so that
// measurement-only switches do not crowd the command line nor the solver
// facade.
//
// Each knob is declared once, in TESSEL_KNOBS below (CaDiCaL's options.hpp
// is the model: one X-macro row per option): its name, default, range,
// whether it takes whole numbers, its level, whether it is a phase budget
// (the plan yields to it, solver/solve/budget.hpp) and its meaning. The row
// generates the field of `Tuning` with its default, the row of the table
// (`--tune` range checks, `--tune help`, Python's names), so a default is
// written nowhere else: code reads `Tuning` (or SearchOptions::tuning).
//
// Levels: "user" knobs are the documented budgets and switches; "developer"
// knobs are the effort constants of single phases (head starts, question
// shares, floors), measured once and kept here so that they can be measured
// again without a rebuild. `--tune help` lists the user ones, `--tune
// help-all` both.
#pragma once

#include <string>
#include <vector>

namespace tessel {

enum class KnobLevel { User, Developer };

// KNOB(name, default, minimum, maximum, integer, level, phase_budget, meaning)
// Every knob is a number (switches are 0/1), as in CaDiCaL's options table.
// A phase budget is a knob of a phase after the period search: setting it
// by hand turns the plan (plan_seconds) off unless that is set too.
#define TESSEL_KNOBS(KNOB)                                                                                          \
  KNOB(boundary_seconds, 1, 0, 3600, false, User, false,                                                           \
       "repetend: seconds for the solver's shortening of warmup and cooldown (0 = skip); the default budgets keep " \
       "the whole default search on 16 devices within about 5 s")                                                 \
  KNOB(window_seconds, 0.75, 0, 3600, false, User, false,                                                          \
       "automatic windows: seconds shared by k = 2 .. largest_window (at most half the time left; 0 = no cap of "  \
       "their own: only the time limit, none without one; largest_window=1 skips them)")                          \
  KNOB(largest_window, 4, 1, 64, true, User, false, "automatic windows: largest k tried")                          \
  KNOB(latency_min_seconds, 0.5, 0, 3600, false, User, false,                                                      \
       "latency search: at least this long, else as long as the period took")                                      \
  KNOB(latency_budget, 1, 0, 1, true, User, false, "1: the latency search has the budget above; 0: only the time limit") \
  KNOB(symmetry, 1, 0, 1, true, User, false, "modulo encoding: symmetry-breaking rules on (1) or off (0)")         \
  KNOB(period_method, 0, 0, 2, true, User, false,                                                                  \
       "repetend: how the period questions are decided: 0 automatic (one chain or two crossed chains by their "     \
       "dynamic programs, the rest by L), 1 unit steps, 2 cyclic orders")                                          \
  KNOB(order_questions, 0, 0, 2, true, User, false,                                                                \
       "cyclic orders: how a period is asked: 0 automatic, 1 SAT answers and learned cycles, "                     \
       "2 guarded differences (z3 backend)")                                                                        \
  KNOB(periods_per_solver, 1, 1, 64, true, User, false,                                                            \
       "repetend: consecutive periods decided on one incremental solver")                                          \
  KNOB(fast_improve_seconds, 1, 0, 3600, false, User, false,                                                       \
       "fast: seconds for shortening the constructed window below its period (<= 40 blocks)")                      \
  KNOB(fast_bubble_budget, 0.002, 0, 1, false, User, false,                                                        \
       "fast: warmup/cooldown within this fraction of N x period of the bound are kept as built")                  \
  KNOB(fast_boundary_seconds, 1, 0, 3600, false, User, false,                                                      \
       "fast: seconds for the solver's shortening of warmup and cooldown")                                         \
  KNOB(staged_seconds, 1, 0, 3600, false, User, true,                                                              \
       "makespan: seconds for the staged schedule (memory-free all-device blocks batched)")                        \
  KNOB(improve_seconds, 2, 0, 3600, false, User, true,                                                             \
       "makespan: seconds for improving the best schedule of N micro-batches by the full solver, after the "       \
       "neighbourhoods (threads 1; with more it runs beside them, for their budget; 0 = skip)")                    \
  KNOB(list_seconds, 1, 0, 3600, false, User, true,                                                                \
       "makespan: seconds for the list-scheduling portfolio (its runs stop at this budget)")                       \
  KNOB(shift_seconds, 0.5, 0, 3600, false, User, true,                                                             \
       "makespan: seconds for moving every instance of the best schedule at N a few steps at once, one step "      \
       "shorter asked each time (shift search, before the neighbourhoods; 0 = skip)")                              \
  KNOB(shift_share, 0, 0, 1, false, User, true,                                                                    \
       "makespan, with --time-limit: the shift search may use this share of the time left when it starts "        \
       "(if more than shift_seconds; 0 = off); it stops early at the bound")                                       \
  KNOB(transfer_seconds, 0.5, 0, 3600, false, User, true,                                                          \
       "makespan, N >= 32: seconds for shortening a schedule of 16 micro-batches (list, replays, shift search) "   \
       "and moving its warmup or cooldown into the best at N (after the shift search; 0 = skip)")                  \
  KNOB(transfer_share, 0, 0, 1, false, User, true,                                                                 \
       "makespan, with --time-limit: the end transfer may use this share of the time left when it starts "         \
       "(if more than transfer_seconds; 0 = off)")                                                                 \
  KNOB(order_seconds, 1, 0, 3600, false, User, true,                                                               \
       "makespan: seconds for the tabu search on the best schedule's per-device orders (with 2+ threads "          \
       "beside the solved bounds, shift search and end transfer, at least this long; else after the end "          \
       "transfer; blocks on one device each; 0 = skip); it stops early at the bound")                              \
  KNOB(order_share, 0, 0, 1, false, User, true,                                                                    \
       "makespan, with --time-limit: the order search may use this share of the time left when it starts "         \
       "(if more than order_seconds; 0 = off)")                                                                    \
  KNOB(lns_seconds, 0.5, 0, 3600, false, User, true,                                                               \
       "makespan: seconds for re-solving windows of the best schedule at N (large-neighbourhood search); also "    \
       "those of an answer that trades memory, after its shifts (under the plan only what is left of it)")        \
  KNOB(lns_share, 0, 0, 1, false, User, true,                                                                      \
       "makespan, with --time-limit: the neighbourhood search may use this share of the time left when it "        \
       "starts (if more than lns_seconds; 0 = off: a time limit is a cap), and so may the traded answer's; it "    \
       "stops early at the bound")                                                                                 \
  KNOB(improve_share, 0, 0, 1, false, User, true,                                                                  \
       "makespan, with --time-limit: the full search from the best schedule may use this share of the time left "  \
       "when it starts (if more than improve_seconds; 0 = off); it stops once it proves its answer optimal")       \
  KNOB(plan_seconds, 4.5, 0, 3600, false, User, false,                                                             \
       "makespan: the phases after the period search (constructions, bounds, improvements) end this many "         \
       "seconds after the search began, at least least_plan_seconds after the period search, each also within "   \
       "its own budget; off when a knob of those phases (staged_seconds .. variant_seconds, the shares too) is "   \
       "set and this one is not (0 = each phase its own budget only)")                                             \
  KNOB(ends_seconds, 2, 0, 3600, false, User, true,                                                                \
       "makespan: seconds for the exact ends bound (each end of the schedule solved on a window) when the best "   \
       "schedule is above the closed bounds, after the one-device relaxation; the full search starts from it "     \
       "too (0 = skip)")                                                                                           \
  KNOB(relaxation_seconds, 1, 0, 3600, false, User, true,                                                          \
       "makespan: seconds for the one-device relaxation bound (one device kept whole, the others relaxed to "      \
       "delays; its two ends first, then the whole horizon) when the best schedule at N is above the closed "      \
       "bounds by at most a micro-batch's critical path, before the exact ends (0 = skip)")                        \
  KNOB(repetend_variants, 0, 0, 64, true, User, true,                                                              \
       "makespan: other windows of the found period and latency tried, the one shortest at N kept (0 = skip)")     \
  KNOB(variant_seconds, 1, 0, 3600, false, User, true,                                                             \
       "makespan: seconds shared by those windows' solver calls and warmup/cooldown shortening")                   \
  KNOB(recompute_all_seconds, 2, 0, 3600, false, User, false,                                                     \
       "memory traded for time: seconds for the candidate that recomputes every offered forward, searched as a "   \
       "placement of its own (0 = skip; its period is usually decided at once, no memory binding then)")          \
  KNOB(recompute_choice_seconds, 1, 0, 3600, false, User, false,                                                  \
       "memory traded for time: seconds for deciding the periods below the one found with a recompute or an "     \
       "offload chosen per offering forward and window position (0 = skip, and the proven period bound stays L)") \
  KNOB(cadical_cardinality, 0, 0, 1, true, User, false, "CaDiCaL memory sums: 0 totalizer, 1 sequential counter")  \
  KNOB(cadical_configuration, 0, 0, 2, true, User, false, "CaDiCaL configuration: 0 default, 1 'sat', 2 'unsat'")  \
  KNOB(cube_depth, 6, 0, 16, true, User, false,                                                                    \
       "threads > 1, CaDiCaL: a hard last period split into up to 2^depth cubes shared by the threads (0 = never)") \
  KNOB(rival_after_seconds, 2, 0, 3600, false, User, false,                                                        \
       "threads > 1, CaDiCaL: seconds a period's own solver runs before another configuration races it")           \
  KNOB(cube_after_seconds, 20, 0, 3600, false, User, false,                                                        \
       "threads > 1: seconds a period's own solver runs (rivals beside it) before its question is split into "     \
       "cubes (cubes cut from a solver that learned longer are fewer hard ones)")                                  \
  KNOB(cube_split_seconds, 1, 0, 3600, false, User, false,                                                         \
       "threads > 1: seconds for the lookahead choosing the cubes' literals (past it: most frequent literals)")     \
  KNOB(cube_resplit_seconds, 0, 0, 3600, false, User, false,                                                       \
       "threads > 1: a cube running this long is split again (0 = only when a thread waits for work)")             \
  KNOB(share_clauses, 0, 0, 64, true, User, false,                                                                 \
       "threads > 1, CaDiCaL: learned clauses of at most this many literals shared by a period's solvers "         \
       "(0 = none)")                                                                                               \
  KNOB(least_plan_seconds, 1, 0, 3600, false, Developer, false,                                                    \
       "budget: the phases after the period search get at least this long after it, whatever plan_seconds says "  \
       "(a slow period proof still leaves the constructions their time)")                                          \
  KNOB(verify_seconds_per_instance, 2e-6, 0, 1, false, Developer, false,                                           \
       "budget: seconds of CPU kept per instance of the answer for converting and verifying it (measured "         \
       "1.2-1.4 us on the 1024-device vshape); the strategy stops that much before the limit")                     \
  KNOB(answer_grace_seconds, 0.5, 0, 3600, false, Developer, false,                                              \
       "budget: with a time limit, the answer at N is built, verified and written only when its estimated cost "  \
       "(its instances x the measured seconds per instance) ends within this long past the limit")                \
  KNOB(solver_window_seconds, 2, 0, 3600, false, Developer, false,                                                 \
       "repetend: seconds the modulo encoding gets for its own window at the period a period program found")       \
  KNOB(program_reach_seconds, 30, 0, 3600, false, Developer, false,                                                \
       "repetend: past the periods the program decides alone, up to this estimate the solver gets a head start "   \
       "and the program decides what it leaves open")                                                              \
  KNOB(solver_head_start_seconds, 1, 0, 3600, false, Developer, false,                                             \
       "repetend: the solver's head start on a period the program can also decide")                                \
  KNOB(split_check_seconds, 0.5, 0.01, 3600, false, Developer, false,                                              \
       "threads > 1: how often a period's own solver looks whether it should be split into cubes")                 \
  KNOB(shift_question_share, 0.25, 0, 1, false, Developer, false,                                                  \
       "shift search: a question may use at most this share of the phase's budget")                               \
  KNOB(shift_least_question_seconds, 0.5, 0, 3600, false, Developer, false,                                        \
       "shift search: a question gets at least this long (or half the budget when that is shorter)")               \
  KNOB(lns_window_seconds, 0.1, 0, 3600, false, Developer, false,                                                  \
       "neighbourhood search: a window's solver calls stop after this long, or an eighth of the time left if more") \
  KNOB(least_relaxation_seconds, 0.1, 0, 3600, false, Developer, false,                                            \
       "one-device relaxation: less time than this is not worth building its encoding")                            \
  KNOB(encoding_terms_per_second, 1e7, 1, 1e12, false, Developer, false,                                         \
       "solved bounds (exact ends, one-device relaxation and its ends): the terms of a time-indexed encoding "     \
       "(order literals, plus window steps squared for a count over the window's steps) built and asked in a "     \
       "second; an encoding larger than its time left affords is skipped, with the reason (its size grows with "   \
       "the spans' scale, not with the problem: spans x1000 make a window of 8000 steps)")                          \
  KNOB(program_steps_per_second, 3e9, 1, 1e15, false, Developer, false,                                              \
       "period programs (chain, crossed chains): the inner steps their estimates count that run in a second "        \
       "(a chain's levels x 2 P^3 per phase choice, crossed chains' stages x (4 P^3 holds + P^5)); the "             \
       "estimates decide which periods a program affords")                                                           \
  KNOB(program_alone_seconds, 1, 0, 3600, false, Developer, false,                                                   \
       "repetend: the program decides a period alone while its estimate stays within this (about a second a "        \
       "period); past that the solver gets its head start")                                                          \
  KNOB(order_cycles_per_answer, 32, 1, 100000, true, Developer, false,                                               \
       "cyclic orders: positive cycles learned from one Boolean answer at most (32 rather than 8 saved a "           \
       "tenth of the SAT calls of nnshape 8's optimality proof)")                                                    \
  KNOB(order_floor_question_calls, 300, 1, 1e9, true, Developer, false,                                              \
       "cyclic orders: SAT calls the first question (period L) may take before the descent from the top "            \
       "starts")                                                                                                     \
  KNOB(order_floor_question_seconds, 2, 0, 3600, false, Developer, false,                                            \
       "cyclic orders: the same for a first question asked as guarded differences in one call")                      \
  KNOB(order_hand_over_seconds, 0.5, 0, 3600, false, Developer, false,                                               \
       "cyclic orders, automatic on CaDiCaL: processor seconds a later question may take on the learned "            \
       "cycles before it is handed to the guarded differences on Z3")                                                \
  KNOB(order_hand_over_wall_seconds, 4, 0, 3600, false, Developer, false,                                            \
       "cyclic orders: the wall-time cap of such a question (a thread that gets almost no processor)")               \
  KNOB(fast_periods_one_by_one, 256, 1, 1e9, true, Developer, false,                                                 \
       "fast construction: periods tried one by one at most; wider ranges are walked on a grid of this many "        \
       "points, the first accepted one bisected")                                                                    \
  KNOB(fast_largest_shortened_window, 40, 0, 1e9, true, Developer, false,                                            \
       "fast: placements up to this many blocks get the solver's shortening of the window (32 devices take "         \
       "seconds to encode)")                                                                                         \
  KNOB(fast_largest_boundary_instances, 1000, 0, 1e9, true, Developer, false,                                        \
       "fast: schedules of K micro-batches up to this many instances get the solver's shortening of warmup "         \
       "and cooldown (its encoding does not watch the deadline while built)")                                        \
  KNOB(transfer_micros, 16, 1, 4096, true, Developer, false,                                                         \
       "end transfer: micro-batches of the smaller schedule shortened and moved into the best at N (run when "       \
       "N is at least twice this)")                                                                                  \
  KNOB(tabu_seed, 20261127, 0, 4294967295, true, Developer, false,                                                   \
       "order search (tabu): seed of its random choices, so that runs repeat")                                       \
  KNOB(tabu_tenure_least, 6, 0, 1e6, true, Developer, false,                                                         \
       "order search: steps a swap stays forbidden to undo, at least")                                               \
  KNOB(tabu_tenure_spread, 6, 1, 1e6, true, Developer, false,                                                        \
       "order search: plus a random 0 .. this less one more steps")                                                \
  KNOB(tabu_steps_without_gain, 1500, 1, 1e9, true, Developer, false,                                                \
       "order search: steps without a shorter schedule before it returns to the best orders, perturbed")             \
  KNOB(tabu_perturb_swaps, 4, 0, 1e6, true, Developer, false,                                                        \
       "order search: random memory-safe swaps on such a restart")                                                   \
  KNOB(tabu_exactly_run, 8, 1, 1e6, true, Developer, false,                                                          \
       "order search: moves run exactly per step, the best by their estimate (running all cost 20x more a "          \
       "step and found no shorter schedules)")                                                                       \
  KNOB(tabu_reach, 16, 1, 1e6, true, Developer, false,                                                               \
       "order search: an instance of a run is moved before the run's first only from this many places after "        \
       "it")                                                                                                         \
  KNOB(lns_free_per_device, 12, 1, 1e6, true, Developer, false,                                                      \
       "neighbourhood search: free instances per device in the first round's windows")                               \
  KNOB(lns_max_window_literals, 250000, 1, 1e12, true, Developer, false,                                             \
       "neighbourhood search: windows whose encoding would have more order literals are skipped")                    \
  KNOB(lns_seed, 20240613, 0, 4294967295, true, Developer, false,                                                    \
       "neighbourhood search: seed of its random choices (critical instances, bands, micro-batches), so that "       \
       "runs repeat")                                                                                                \
  KNOB(shift_first, 4, 1, 1e9, true, Developer, false,                                                               \
       "shift search: the first shift asked, in steps (on the hand-made ties a few steps already shorten)")          \
  KNOB(improve_stall_seconds, 0.5, 0, 3600, false, Developer, false,                                               \
       "improvements at N (end transfer, device orders, neighbourhoods): a phase gives back the rest "                \
       "of its grant once this long passes without a shorter schedule, counted from its start and from each gain "   \
       "(0 = no stretch in seconds; the progress rules below still apply)")                                         \
  KNOB(order_stall_steps, 500, 0, 1e9, true, Developer, false,                                                      \
       "device orders, where improve_stall_seconds applies (the portfolio's thread): the search gives back the "     \
       "rest of its grant once more steps pass without a shorter schedule than this or than the steps it took to "  \
       "its last gain, whichever is more (0 = never)")                                                               \
  KNOB(lns_stall_windows, 16, 0, 1e9, true, Developer, false,                                                       \
       "neighbourhoods, where improve_stall_seconds applies: the search gives back the rest of its grant after "     \
       "this many windows in a row that moved nothing (0 = never)")                                                  \
  KNOB(offer_interval_seconds, 0.1, 0, 3600, false, Developer, false,                                               \
       "improvements at N: a shorter schedule found within this long of the last one offered (each offer is "        \
       "verified, and written with -o) is held and offered with the next after that, or when the phase returns "     \
       "(the device orders on xshape 8 x1000 find ten in ten steps; 0 = offer each)")                                 \
  KNOB(full_start_seconds, 10, 0, 3600, false, Developer, false,                                                     \
       "strategy full: seconds for the quick repetend unrolled to N that gives the solver its first schedule "       \
       "(with a time limit at most full_start_share of the time left)")                                              \
  KNOB(full_start_share, 0.25, 0, 1, false, Developer, false,                                                        \
       "strategy full: the quick repetend's largest share of the time left (0 = no cap)")                            \
  KNOB(full_start_least_seconds, 0.1, 0, 3600, false, Developer, false,                                              \
       "strategy full: with less time left than this the quick repetend is skipped")                                 \
  KNOB(full_start_boundary_seconds, 2, 0, 3600, false, Developer, false,                                             \
       "strategy full: the quick repetend's warmup/cooldown shortening at most this long (and boundary_seconds)")    \
  KNOB(full_list_seconds, 1, 0, 3600, false, Developer, false,                                                       \
       "strategy full: seconds for the list-scheduling portfolio among the first schedules (with a time limit at "    \
       "most full_list_share of the time left)")                                                                     \
  KNOB(full_list_share, 0.125, 0, 1, false, Developer, false,                                                        \
       "strategy full: the list scheduling's largest share of the time left (0 = no cap)")                           \
  KNOB(traded_least_seconds, 0.5, 0, 3600, false, Developer, false,                                                 \
       "budget, memory traded: under the plan, the choice inside the repetend and the recompute-all search each "   \
       "get at least this long when the whole plan (plan_seconds) is already spent")                                 \
  KNOB(recompute_all_least_seconds, 1, 0, 3600, false, Developer, false,                                             \
       "memory traded for time: when no schedule keeps every activation, the recompute-all search gets at least "    \
       "this long (it is then the only answer)")

struct Tuning {
#define TESSEL_KNOB_FIELD(name, value, minimum, maximum, integer, level, phase_budget, meaning) double name = value;
  TESSEL_KNOBS(TESSEL_KNOB_FIELD)
#undef TESSEL_KNOB_FIELD
};

// The defaults, for the typed views that copy a knob (SearchOptions).
inline constexpr Tuning kDefaultTuning{};

struct TuningKnob {
  const char* name;
  double Tuning::*field;
  double default_value;
  double minimum;
  double maximum;
  bool integer;
  KnobLevel level;
  // A budget of a phase after the period search: setting it by hand turns
  // the plan (plan_seconds) off unless that is set too (solver/solve/budget.cpp).
  bool phase_budget;
  const char* meaning;
};

const char* knob_level_name(KnobLevel level);

// The table, in the order `--tune help` prints it.
const std::vector<TuningKnob>& tuning_knobs();

// Applies "name=value"; throws InputError (field "--tune") naming the
// nearest knob for an unknown name, or the range for a bad value.
void apply_tuning(Tuning& tuning, const std::string& assignment);

// The table as text: name, default, range, level, meaning; the developer
// knobs too when `developer`.
std::string tuning_help(bool developer = false);

}  // namespace tessel
