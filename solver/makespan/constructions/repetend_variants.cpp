// Several repetends of the optimal period (see the header). The encoding is
// built once at the found period, so every variant is as good a steady
// state as the search's own; only warmup and cooldown, hence the makespan
// at N, differ. The latency may exceed the found one by one period: the
// minimal latency is what the period search optimised, not the makespan,
// and a window one period longer often drains better (measured: interleaved
// 1F1B, 4 stages, N = 32: 206 at the found latency, 202 at one period more).
#include "solver/makespan/constructions/repetend_variants.hpp"

#include <algorithm>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "sat/backend.hpp"
#include "solver/knobs/period_method.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/strategies/boundary_solver.hpp"

namespace tessel {
namespace {

// The clause "not exactly these values": some variable differs. Only the
// phases are forbidden: windows that differ in quotients alone order each
// device's steady state the same way, and measured on interleaved 1F1B they
// gave no shorter makespans.
void forbid(Backend& backend, const std::vector<IntVar>& vars, const std::vector<int>& values) {
  std::vector<Lit> clause;
  for (size_t i = 0; i < vars.size(); ++i) {
    clause.push_back(~backend.at_most(vars[i], values[i]));
    clause.push_back(backend.at_most(vars[i], values[i] - 1));
  }
  backend.add_clause(clause);
}

std::optional<ModuloSolution> next_window(Backend& backend, const ModuloEncoding& encoding, const Placement& window,
                                          const std::vector<long long>& memory_limit, int period,
                                          const std::vector<Lit>& assumptions, const Deadline& deadline) {
  if (backend.solve(assumptions, deadline) != Answer::Sat) return std::nullopt;
  const std::vector<IntVar>& vars = encoding.phases;
  std::vector<int> values;
  for (IntVar var : vars) values.push_back(backend.value(var));
  forbid(backend, vars, values);
  const ModuloSolution solution = modulo_solution(window, period, decode_starts(backend, encoding, period));
  if (auto violation = modulo_violation(window, memory_limit, solution, encoding.max_in_flight))
    throw std::logic_error("repetend variants: a window of period " + std::to_string(period) +
                           " is not a valid repetend (" + *violation + "): a bug in the modulo encoding");
  return solution;
}

}  // namespace

std::optional<VariantOutcome> best_repetend_variant(const VariantRequest& request) {
  const SearchResult& found = *request.period;
  if (request.variants <= 0 || !found.schedule || !found.schedule->repetend) return std::nullopt;
  const int k = std::max(1, found.micros_per_window);
  const Placement window = window_placement(*request.placement, k);
  if (period_method(window, request.options.period_method) != PeriodMethod::UnitStep) return std::nullopt;
  const Deadline deadline = request.options.deadline.within(request.seconds);
  if (deadline.expired()) return std::nullopt;

  const SearchOptions& options = request.options;
  const int max_in_flight = options.in_flight.value_or(std::max<int>(1, request.placement->blocks.size()));
  std::unique_ptr<Backend> backend = make_backend(options.backend, options.backend_settings);
  // The window's period came from this same encoding, whose periods are ints.
  const int period = static_cast<int>(found.period);
  const ModuloEncoding encoding = encode_modulo(*backend, window, options.memory_limit, {period, period},
                                                max_in_flight, {options.symmetry, k}, deadline);
  if (!encoding.complete) return std::nullopt;
  const std::vector<Lit> assumptions = {
      period_assumption(encoding, found.period),
      latency_literal(*backend, encoding, window, found.period, found.latency + found.period)};

  std::optional<VariantOutcome> best;
  int built = 0;
  for (int index = 1; index <= request.variants && !deadline.expired(); ++index) {
    std::optional<ModuloSolution> solution =
        next_window(*backend, encoding, window, options.memory_limit, found.period, assumptions, deadline);
    if (!solution) break;  // no other window of this period and latency, or no time
    WarmupCooldown ends = build_warmup_cooldown(window, options.memory_limit, *solution);
    // The variants left share the time left equally.
    const double share = deadline.seconds_left() / (request.variants - index + 1);
    if (options.boundary_seconds > 0 && share > 0.01) {
      BoundaryOutcome shortened = shorten_boundary(ends.schedule, options.backend, deadline.within(share), nullptr);
      if (shortened.shorter) ends.schedule = std::move(*shortened.shorter);
    }
    Schedule schedule = schedule_from_window(std::move(ends.schedule), *request.placement, k);
    ++built;
    try {
      Schedule at_total = unroll(schedule, request.total_micros);
      if (!best || makespan(at_total) < makespan(best->at_total))
        best = VariantOutcome{std::move(schedule), std::move(at_total), index, 0};
    } catch (const InputError&) {
      continue;  // more micro-batches in flight than the N asked for
    }
  }
  if (best) best->built = built;
  return best;
}

}  // namespace tessel
