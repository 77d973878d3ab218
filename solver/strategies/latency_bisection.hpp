// The second objective of the repetend search: the least latency of one
// window at the period found (docs/algorithms.md, "The repetend as a modulo
// schedule", its paragraph on the latency).
//
// The latency is bisected on the solver that found the period, under
// assumptions, from the critical path up to the latency in hand. With two
// threads or more a second solver of the same period asks, beside the
// bisection, the one question that ends it: "a latency one below the
// bisection's best?". Its refutation proves the best least, and the
// bisection stops with the window it holds, the very window a single thread
// would end with (each remaining question of the bisection lies below the
// refuted one, so would be refuted too and change nothing). Its Sat answers
// are not used: the bisection's own model is the answer, so that the result
// does not depend on timing. Where the first window found is already of
// least latency the bisection climbs by refutations to it, each harder than
// the last (mllm, 64 devices, memory 16: six refutations, 5.6 s), and the
// second solver's single refutation at the top ends it sooner.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "sat/deadline.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct LatencyQuestion {
  const Placement* window = nullptr;
  ModuloSolution found;  // the window in hand at the period, its latency the upper end
  int max_in_flight = 0;
  ModuloRules rules;     // as the period's encoding was built (for the second solver)
  std::string label;     // "k=2 " for progress lines
};

struct LatencyOutcome {
  ModuloSolution solution;
  bool gave_up = false;     // the deadline struck (the best so far is in `solution`)
  bool unfinished = false;  // the latency's own budget ran out first
};

// `backend`/`encoding`: the solver that answered Sat at the period, kept
// incremental. `budget`: the latency's own deadline (within `deadline`).
LatencyOutcome bisect_latency(const LatencyQuestion& question, const SearchOptions& options, const Deadline& deadline,
                              const Deadline& budget, Backend& backend, const ModuloEncoding& encoding,
                              std::vector<SolverCall>& calls);

}  // namespace tessel
