// The search's research knobs in one table (docs/algorithms.md, "Tuning"):
// budgets, switches kept to measure an idea, and solver configurations.
// None of them changes what is valid or what is proven; they move time
// between the phases of a search. Users reach them through one flag
// (`tessel search --tune name=value`, `--tune help` lists the table), so
// that measurement-only switches do not crowd the command line nor the
// solver facade.
//
// Every knob is a number (switches are 0/1), as in CaDiCaL's options table:
// one place says its name, default, range and meaning.
#pragma once

#include <string>
#include <vector>

namespace tessel {

struct Tuning {
  // Warmup/cooldown shortening by the solver around the repetend window.
  // The default budgets keep the whole default search on 16 devices within
  // about 5 s (cases/bench/makespan_table.md measures it).
  double boundary_seconds = 1;
  // Automatic windows: k = 2 .. largest_window share this many seconds.
  double window_seconds = 0.75;
  double largest_window = 4;
  // The latency search stops after as long as the period took, at least this.
  double latency_min_seconds = 0.5;
  double latency_budget = 1;          // 0: only the deadline bounds it
  double symmetry = 1;                // the modulo encoding's symmetry rules
  double period_method = 0;           // 0 automatic, 1 unit steps, 2 cyclic orders
  double order_questions = 0;         // 0 automatic, 1 learned cycles, 2 differences (z3)
  double periods_per_solver = 1;      // consecutive periods on one solver
  // Fast construction: shorten the window below its period (small placements).
  double fast_improve_seconds = 1;
  double fast_bubble_budget = 0.002;  // accept warmup/cooldown this close to the bound
  double fast_boundary_seconds = 1;
  // The makespan at N: the staged schedule's share, the improvement phase's.
  double staged_seconds = 1;
  double improve_seconds = 2;
  double list_seconds = 1;  // the list-scheduling portfolio (rules x in-flight caps)
  double shift_seconds = 0.5;  // the shift search on the best schedule at N
  double shift_share = 0;    // with a time limit: this share of the time left, if more
  double transfer_seconds = 0.5;  // the ends of N 16 shortened and moved into the best at N >= 32
  double transfer_share = 0;    // with a time limit: this share of the time left, if more
  double order_seconds = 1;  // the tabu search on the best schedule's device orders
  double order_share = 0;    // with a time limit: this share of the time left, if more
  double lns_seconds = 0.5;  // the large-neighbourhood search on the best schedule at N
  // With a time limit: the neighbourhood search may use this share of the
  // time left when it starts, if that is more than lns_seconds. Off by
  // default: a time limit is a cap, and the benchmarks that time the period
  // proof under one would otherwise time the neighbourhoods too.
  double lns_share = 0;
  // The same for the full search from the best schedule (the improvement
  // phase, after the neighbourhoods): this share of the time left, if more
  // than improve_seconds. Off by default for the same reason.
  double improve_share = 0;
  // The phases after the period search end this many seconds after the
  // search began (at least a second after the period search), each also
  // within its own budget: their budgets add up to more, and a default
  // search should answer within 5 s. Off when a knob of those phases is
  // set by hand and this one is not (solver/search.cpp).
  double plan_seconds = 4.5;
  // The exact ends bound when the best schedule at N is above the closed
  // bounds, after the one-device relaxation.
  double ends_seconds = 2;
  // The one-device relaxation bound, first of the solved bounds
  // (docs/algorithms.md, "The makespan at N"): where the schedule in hand
  // is optimal its ends usually prove it within a second.
  double relaxation_seconds = 1;
  // Other windows of the found period, warmup and cooldown built for each.
  double repetend_variants = 0;
  double variant_seconds = 1;
  // CaDiCaL: cardinality encoding (0 totalizer, 1 sequential counter) and
  // configuration (0 default, 1 "sat", 2 "unsat").
  double cadical_cardinality = 0;
  double cadical_configuration = 0;
  // Threads > 1, CaDiCaL: the last undecided period split into 2^depth
  // cubes (sat/cube_split.hpp) after its own solver had this long
  // (20 s: cubes cut from a solver that learned longer are fewer hard ones;
  // docs/algorithms.md, "Threads", has the measurements).
  double cube_depth = 6;
  double rival_after_seconds = 2;  // threads > 1: a rival configuration joins a period after this
  double cube_after_seconds = 20;
  double cube_split_seconds = 1;
  double cube_resplit_seconds = 0;
  // Threads > 1, CaDiCaL: learned clauses of at most this many literals
  // shared by the solvers of one period (0 = none).
  double share_clauses = 0;
};

struct TuningKnob {
  const char* name;
  double Tuning::*field;
  double minimum;
  double maximum;
  bool integer;
  const char* meaning;
  // A budget of a phase after the period search: setting it by hand turns
  // the plan (plan_seconds) off unless that is set too (solver/search.cpp).
  bool phase_budget = false;
};

// The table, in the order `--tune help` prints it.
const std::vector<TuningKnob>& tuning_knobs();

// Applies "name=value"; throws InputError (field "--tune") naming the
// nearest knob for an unknown name, or the range for a bad value.
void apply_tuning(Tuning& tuning, const std::string& assignment);

// The table as text: name, default, range, meaning.
std::string tuning_help();

}  // namespace tessel
