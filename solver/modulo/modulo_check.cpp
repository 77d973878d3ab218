// Checking a modulo solution directly (see the header for why).
#include "solver/modulo/modulo_check.hpp"

#include "model/input_error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessel {

ModuloSolution modulo_solution(const Placement& placement, int period, std::vector<int> starts) {
  const int earliest = starts.empty() ? 0 : *std::min_element(starts.begin(), starts.end());
  int latency = 0;
  for (size_t b = 0; b < starts.size(); ++b) {
    starts[b] -= earliest;
    latency = std::max<Time>(latency, starts[b] + placement.blocks[b].span);
  }
  return {period, std::move(starts), latency, (latency + period - 1) / period};
}

void require_steady_state(const Placement& placement) {
  std::vector<long long> balance = memory_balance(placement);
  for (int device = 0; device < placement.ndevs; ++device) {
    if (balance[device] == 0) continue;
    throw InputError("", "blocks[].memory",
                     "the memory deltas on device " + std::to_string(device) + " sum to " +
                         std::to_string(balance[device]) +
                         " over one micro-batch, not 0: memory would grow with every micro-batch, so no "
                         "repetend exists (use --strategy full with a fixed --nmicros)");
  }
}

std::vector<std::vector<long long>> modulo_memory(const Placement& placement, const ModuloSolution& solution) {
  const long long period = solution.period;
  std::vector<std::vector<long long>> memory(placement.ndevs, std::vector<long long>(period, 0));
  // Per device: the q-part is constant over the window; the [tau > phi] part
  // adds -mem(b) on phases [0, tau(b)), summed through a difference array.
  for (int device = 0; device < placement.ndevs; ++device) {
    long long base = 0;
    std::vector<long long> change(period + 1, 0);
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      const Block& block = placement.blocks[b];
      if (block.memory == 0) continue;
      if (!on_device(block, device)) continue;
      const int start = solution.starts[b];
      base -= block.memory * (start / period);
      change[0] -= block.memory;
      change[start % period] += block.memory;
    }
    long long running = 0;
    for (int phase = 0; phase < period; ++phase) {
      running += change[phase];
      memory[device][phase] = base + running;
    }
  }
  return memory;
}

namespace {

// Two blocks overlapping on some device's circle, in words; nullopt when none
// do. Per device the phases sorted: each block must end before the next
// begins, and the last (possibly wrapping) before the first comes round.
std::optional<std::string> circle_overlap(const Placement& placement, const ModuloSolution& solution) {
  const long long period = solution.period;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<std::pair<long long, size_t>> phases;  // (phase, block)
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      if (on_device(placement.blocks[b], device)) phases.push_back({solution.starts[b] % period, b});
    std::sort(phases.begin(), phases.end());
    for (size_t i = 0; i < phases.size(); ++i) {
      const auto& [phase, block] = phases[i];
      const size_t next = (i + 1) % phases.size();
      const long long next_phase = phases[next].first + (next == 0 ? period : 0);
      if (phases.size() == 1 || phase + placement.blocks[block].span <= next_phase) continue;
      return "blocks " + placement.blocks[block].id + " and " + placement.blocks[phases[next].second].id +
             " overlap on device " + std::to_string(device) + " at phase " + std::to_string(next_phase % period);
    }
  }
  return std::nullopt;
}

// The steady-state memory at its highest phase on each device, in words when
// it passes the limit: held (what the window starts and ends with) plus the
// deltas of the blocks started so far, evaluated at every start (the curve
// only rises there).
std::optional<std::string> memory_over(const Placement& placement, const std::vector<long long>& memory_limit,
                                       const ModuloSolution& solution) {
  const long long period = solution.period;
  for (int device = 0; device < placement.ndevs; ++device) {
    long long held = 0;
    std::vector<std::pair<long long, long long>> deltas;  // (phase, delta)
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      const Block& block = placement.blocks[b];
      if (block.memory == 0 || !on_device(block, device)) continue;
      held -= block.memory * (solution.starts[b] / period);
      deltas.push_back({solution.starts[b] % period, block.memory});
    }
    std::sort(deltas.begin(), deltas.end());
    long long memory = held;
    long long worst = held, worst_phase = period - 1;
    for (const auto& [phase, delta] : deltas) {
      memory += delta;
      if (memory > worst) worst = memory, worst_phase = phase;
    }
    if (worst > memory_limit[device])
      return "memory " + std::to_string(worst) + " on device " + std::to_string(device) + " at phase " +
             std::to_string(worst_phase) + " exceeds the limit " + std::to_string(memory_limit[device]);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> modulo_violation(const Placement& placement, const std::vector<long long>& memory_limit,
                                            const ModuloSolution& solution, int max_in_flight) {
  const long long period = solution.period;
  const size_t nblocks = placement.blocks.size();
  if (period < 1) return "period " + std::to_string(period) + " < 1";
  if (solution.starts.size() != nblocks) return "not one start per block";
  long long earliest = solution.starts.empty() ? 0 : *std::min_element(solution.starts.begin(), solution.starts.end());
  if (earliest != 0) return "the earliest start is " + std::to_string(earliest) + ", not 0";
  long long latency = 0;
  for (size_t b = 0; b < nblocks; ++b) {
    const Block& block = placement.blocks[b];
    if (block.span > period) return "block " + block.id + " is longer than the period";
    latency = std::max<long long>(latency, solution.starts[b] + block.span);
  }
  if (latency != solution.latency) return "latency " + std::to_string(solution.latency) + " is not " + std::to_string(latency);
  if (solution.in_flight != (latency + period - 1) / period) return "in_flight is not ceil(latency / period)";
  if (max_in_flight > 0 && solution.in_flight > max_in_flight)
    return std::to_string(solution.in_flight) + " micro-batches in flight, more than " + std::to_string(max_in_flight);

  for (const Edge& edge : placement.edges)
    if ((long long)solution.starts[edge.to] < (long long)solution.starts[edge.from] + placement.blocks[edge.from].span + edge.delay)
      return "dependency " + placement.blocks[edge.from].id + " -> " + placement.blocks[edge.to].id + " broken" +
             (edge.delay ? " (delay " + std::to_string(edge.delay) + ")" : "");
  if (auto overlap = circle_overlap(placement, solution)) return overlap;
  if (memory_limit.empty()) return std::nullopt;
  return memory_over(placement, memory_limit, solution);
}

ModuloSolution checked_solution(const Placement& window, const std::vector<long long>& memory_limit, int period,
                                const std::vector<int>& starts, int max_in_flight) {
  ModuloSolution solution = modulo_solution(window, period, starts);
  if (auto violation = modulo_violation(window, memory_limit, solution, max_in_flight))
    throw std::logic_error("repetend search: the solver's answer for period " + std::to_string(period) +
                           " is not a valid repetend (" + *violation + "): a bug in the modulo encoding");
  return solution;
}

}  // namespace tessel
