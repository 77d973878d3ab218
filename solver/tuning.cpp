// The tuning table and its one setter.
#include "solver/tuning.hpp"

#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

const std::vector<TuningKnob>& tuning_knobs() {
  static const std::vector<TuningKnob> knobs = {
      {"boundary_seconds", &Tuning::boundary_seconds, 0, 3600, false,
       "repetend: seconds for the solver's shortening of warmup and cooldown (0 = skip)"},
      {"window_seconds", &Tuning::window_seconds, 0, 3600, false,
       "automatic windows: seconds shared by k = 2 .. largest_window (at most half the time left)"},
      {"largest_window", &Tuning::largest_window, 1, 64, true, "automatic windows: largest k tried"},
      {"latency_min_seconds", &Tuning::latency_min_seconds, 0, 3600, false,
       "latency search: at least this long, else as long as the period took"},
      {"latency_budget", &Tuning::latency_budget, 0, 1, true,
       "1: the latency search has the budget above; 0: only the time limit"},
      {"symmetry", &Tuning::symmetry, 0, 1, true, "modulo encoding: symmetry-breaking rules on (1) or off (0)"},
      {"period_method", &Tuning::period_method, 0, 2, true,
       "repetend: how the period questions are decided: 0 automatic (one chain or two crossed chains by their "
       "dynamic programs, the rest by L), 1 unit steps, 2 cyclic orders"},
      {"order_questions", &Tuning::order_questions, 0, 2, true,
       "cyclic orders: how a period is asked: 0 automatic, 1 SAT answers and learned cycles, "
       "2 guarded differences (z3 backend)"},
      {"periods_per_solver", &Tuning::periods_per_solver, 1, 64, true,
       "repetend: consecutive periods decided on one incremental solver"},
      {"fast_improve_seconds", &Tuning::fast_improve_seconds, 0, 3600, false,
       "fast: seconds for shortening the constructed window below its period (<= 40 blocks)"},
      {"fast_bubble_budget", &Tuning::fast_bubble_budget, 0, 1, false,
       "fast: warmup/cooldown within this fraction of N x period of the bound are kept as built"},
      {"fast_boundary_seconds", &Tuning::fast_boundary_seconds, 0, 3600, false,
       "fast: seconds for the solver's shortening of warmup and cooldown"},
      {"staged_seconds", &Tuning::staged_seconds, 0, 3600, false,
       "makespan: seconds for the staged schedule (memory-free all-device blocks batched)", true},
      {"improve_seconds", &Tuning::improve_seconds, 0, 3600, false,
       "makespan: seconds for improving the best schedule of N micro-batches by the full solver, after the "
       "neighbourhoods (threads 1; with more it runs beside them, for their budget; 0 = skip)", true},
      {"list_seconds", &Tuning::list_seconds, 0, 3600, false,
       "makespan: seconds for the list-scheduling portfolio (its runs stop at this budget)", true},
      {"shift_seconds", &Tuning::shift_seconds, 0, 3600, false,
       "makespan: seconds for moving every instance of the best schedule at N a few steps at once, one step "
       "shorter asked each time (shift search, before the neighbourhoods; 0 = skip)", true},
      {"shift_share", &Tuning::shift_share, 0, 1, false,
       "makespan, with --time-limit: the shift search may use this share of the time left when it starts "
       "(if more than shift_seconds; 0 = off); it stops early at the bound", true},
      {"transfer_seconds", &Tuning::transfer_seconds, 0, 3600, false,
       "makespan, N >= 32: seconds for shortening a schedule of 16 micro-batches (list, replays, shift search) "
       "and moving its warmup or cooldown into the best at N (after the shift search; 0 = skip)", true},
      {"transfer_share", &Tuning::transfer_share, 0, 1, false,
       "makespan, with --time-limit: the end transfer may use this share of the time left when it starts "
       "(if more than transfer_seconds; 0 = off)", true},
      {"order_seconds", &Tuning::order_seconds, 0, 3600, false,
       "makespan: seconds for the tabu search on the best schedule's per-device orders (with 2+ threads "
       "beside the solved bounds, shift search and end transfer, at least this long; else after the end "
       "transfer; blocks on one device each; 0 = skip); it stops early at the bound", true},
      {"order_share", &Tuning::order_share, 0, 1, false,
       "makespan, with --time-limit: the order search may use this share of the time left when it starts "
       "(if more than order_seconds; 0 = off)", true},
      {"lns_seconds", &Tuning::lns_seconds, 0, 3600, false,
       "makespan: seconds for re-solving windows of the best schedule at N (large-neighbourhood search)", true},
      {"lns_share", &Tuning::lns_share, 0, 1, false,
       "makespan, with --time-limit: the neighbourhood search may use this share of the time left when it starts "
       "(if more than lns_seconds; 0 = off); it stops early at the bound", true},
      {"improve_share", &Tuning::improve_share, 0, 1, false,
       "makespan, with --time-limit: the full search from the best schedule may use this share of the time left "
       "when it starts (if more than improve_seconds; 0 = off); it stops once it proves its answer optimal", true},
      {"plan_seconds", &Tuning::plan_seconds, 0, 3600, false,
       "makespan: the phases after the period search (constructions, bounds, improvements) end this many "
       "seconds after the search began, at least 1 s after the period search, each also within its own budget; "
       "off when a knob of those phases (staged_seconds .. variant_seconds, the shares too) is set and this one "
       "is not (0 = each phase its own budget only)"},
      {"ends_seconds", &Tuning::ends_seconds, 0, 3600, false,
       "makespan: seconds for the exact ends bound (each end of the schedule solved on a window) when the best "
       "schedule is above the closed bounds, after the one-device relaxation; the full search starts from it too "
       "(0 = skip)", true},
      {"relaxation_seconds", &Tuning::relaxation_seconds, 0, 3600, false,
       "makespan: seconds for the one-device relaxation bound (one device kept whole, the others relaxed to "
       "delays; its two ends first, then the whole horizon) when the best schedule at N is above the closed "
       "bounds by at most a micro-batch's critical path, before the exact ends (0 = skip)", true},
      {"repetend_variants", &Tuning::repetend_variants, 0, 64, true,
       "makespan: other windows of the found period and latency tried, the one shortest at N kept (0 = skip)", true},
      {"variant_seconds", &Tuning::variant_seconds, 0, 3600, false,
       "makespan: seconds shared by those windows' solver calls and warmup/cooldown shortening", true},
      {"cadical_cardinality", &Tuning::cadical_cardinality, 0, 1, true,
       "CaDiCaL memory sums: 0 totalizer, 1 sequential counter"},
      {"cadical_configuration", &Tuning::cadical_configuration, 0, 2, true,
       "CaDiCaL configuration: 0 default, 1 'sat', 2 'unsat'"},
      {"cube_depth", &Tuning::cube_depth, 0, 16, true,
       "threads > 1, CaDiCaL: a hard last period split into up to 2^depth cubes shared by the threads (0 = never)"},
      {"rival_after_seconds", &Tuning::rival_after_seconds, 0, 3600, false,
       "threads > 1, CaDiCaL: seconds a period's own solver runs before another configuration races it"},
      {"cube_after_seconds", &Tuning::cube_after_seconds, 0, 3600, false,
       "threads > 1: seconds a period's own solver runs (rivals beside it) before its question is split into cubes"},
      {"cube_split_seconds", &Tuning::cube_split_seconds, 0, 3600, false,
       "threads > 1: seconds for the lookahead choosing the cubes' literals (past it: most frequent literals)"},
      {"cube_resplit_seconds", &Tuning::cube_resplit_seconds, 0, 3600, false,
       "threads > 1: a cube running this long is split again (0 = only when a thread waits for work)"},
      {"share_clauses", &Tuning::share_clauses, 0, 64, true,
       "threads > 1, CaDiCaL: learned clauses of at most this many literals shared by a period's solvers (0 = none)"},
  };
  return knobs;
}

void apply_tuning(Tuning& tuning, const std::string& assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string::npos)
    throw InputError("", "--tune", "'" + assignment + "' is not name=value (see --tune help)");
  const std::string name = assignment.substr(0, equals);
  const std::string text = assignment.substr(equals + 1);
  std::vector<std::string> names;
  for (const TuningKnob& knob : tuning_knobs()) {
    names.push_back(knob.name);
    if (name != knob.name) continue;
    double value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
      throw InputError("", "--tune", "'" + text + "' is not a number (" + name + ")");
    if (value < knob.minimum || value > knob.maximum || (knob.integer && value != std::floor(value))) {
      std::ostringstream range;
      range << name << " takes " << (knob.integer ? "an integer " : "a number ") << "in [" << knob.minimum << ", "
            << knob.maximum << "], got " << text;
      throw InputError("", "--tune", range.str());
    }
    tuning.*knob.field = value;
    return;
  }
  std::string nearest = nearest_name(name, names);
  throw InputError("", "--tune", "unknown knob '" + name + "'" +
                                     (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") +
                                     "; see --tune help");
}

std::string tuning_help() {
  const Tuning defaults;
  std::ostringstream text;
  text << "knob                   default  range          meaning\n";
  for (const TuningKnob& knob : tuning_knobs()) {
    std::ostringstream range;
    range << "[" << knob.minimum << ", " << knob.maximum << "]";
    text << std::left << std::setw(23) << knob.name << std::setw(9) << defaults.*knob.field << std::setw(15)
         << range.str() << knob.meaning << "\n";
  }
  return text.str();
}

}  // namespace tessel
