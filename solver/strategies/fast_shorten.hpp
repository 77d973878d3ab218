// The improvement step of strategy `fast` (docs/algorithms.md,
// "Fast construction"): the solver is asked for the constructed period minus one, then
// minus two, ..., on the modulo encoding, each answer within a short budget.
// Asked downward, an unsatisfiable period does not prove the ones below it
// impossible (feasibility is not monotone under a memory limit), so this only
// shortens; the proof stays the repetend strategy's business.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct ShortenedWindow {
  ModuloSolution solution;  // the constructed one when nothing shorter was found
  bool improved = false;
  std::vector<SolverCall> calls;
};

// Stops at the first unsatisfiable or unanswered period, at L, or at the
// deadline. Kmax = `max_in_flight` (the repetend search's default: blocks).
ShortenedWindow shorten_window(const Placement& placement, const std::vector<long long>& memory_limit,
                               const ModuloSolution& constructed, const std::string& backend, int max_in_flight,
                               const Deadline& deadline, const ProgressSink& progress);

}  // namespace tessel
