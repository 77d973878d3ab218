// Checking a modulo solution directly (see the header for why).
#include "solver/modulo_check.hpp"

#include "model/input_error.hpp"

#include <algorithm>

namespace tessel {

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
  const int period = solution.period;
  std::vector<std::vector<long long>> memory(placement.ndevs, std::vector<long long>(period, 0));
  // Per device: the q-part is constant over the window; the [tau > phi] part
  // adds -mem(b) on phases [0, tau(b)), summed through a difference array.
  for (int device = 0; device < placement.ndevs; ++device) {
    long long base = 0;
    std::vector<long long> change(period + 1, 0);
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      const Block& block = placement.blocks[b];
      if (block.memory == 0) continue;
      if (std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end()) continue;
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

std::optional<std::string> modulo_violation(const Placement& placement, const std::vector<long long>& memory_limit,
                                            const ModuloSolution& solution, int max_in_flight) {
  const int period = solution.period;
  const size_t nblocks = placement.blocks.size();
  if (period < 1) return "period " + std::to_string(period) + " < 1";
  if (solution.starts.size() != nblocks) return "not one start per block";
  int earliest = solution.starts.empty() ? 0 : *std::min_element(solution.starts.begin(), solution.starts.end());
  if (earliest != 0) return "the earliest start is " + std::to_string(earliest) + ", not 0";
  int latency = 0;
  for (size_t b = 0; b < nblocks; ++b) {
    const Block& block = placement.blocks[b];
    if (block.span > period) return "block " + block.id + " is longer than the period";
    latency = std::max<Time>(latency, solution.starts[b] + block.span);
  }
  if (latency != solution.latency) return "latency " + std::to_string(solution.latency) + " is not " + std::to_string(latency);
  if (solution.in_flight != (latency + period - 1) / period) return "in_flight is not ceil(latency / period)";
  if (max_in_flight > 0 && solution.in_flight > max_in_flight)
    return std::to_string(solution.in_flight) + " micro-batches in flight, more than " + std::to_string(max_in_flight);

  for (const Edge& edge : placement.edges)
    if (solution.starts[edge.to] < solution.starts[edge.from] + placement.blocks[edge.from].span)
      return "dependency " + placement.blocks[edge.from].id + " -> " + placement.blocks[edge.to].id + " broken";

  std::vector<std::vector<int>> owner(placement.ndevs, std::vector<int>(period, -1));
  for (size_t b = 0; b < nblocks; ++b) {
    const Block& block = placement.blocks[b];
    for (int device : block.devices)
      for (int step = 0; step < block.span; ++step) {
        int& cell = owner[device][(solution.starts[b] + step) % period];
        if (cell >= 0)
          return "blocks " + placement.blocks[cell].id + " and " + block.id + " overlap on device " +
                 std::to_string(device) + " at phase " + std::to_string((solution.starts[b] + step) % period);
        cell = static_cast<int>(b);
      }
  }

  if (memory_limit.empty()) return std::nullopt;
  std::vector<std::vector<long long>> memory = modulo_memory(placement, solution);
  for (int device = 0; device < placement.ndevs; ++device)
    for (int phase = 0; phase < period; ++phase)
      if (memory[device][phase] > memory_limit[device])
        return "memory " + std::to_string(memory[device][phase]) + " on device " + std::to_string(device) +
               " at phase " + std::to_string(phase) + " exceeds the limit " + std::to_string(memory_limit[device]);
  return std::nullopt;
}

}  // namespace tessel
