// Re-check of decoded modulo solutions (see the header). Deliberately plain:
// dependencies as differences of starts, exclusivity by painting each
// device's circle, memory by counting the started copies of every block at
// each step of one steady period.
#include "solver/modulo_check.hpp"

#include <algorithm>

namespace tessel {

std::optional<std::string> modulo_violation(const Placement& placement, const std::vector<long long>& memory_limit,
                                            int period, const std::vector<int>& starts, int max_in_flight) {
  const size_t n = placement.blocks.size();
  if (starts.size() != n) return "one start per block expected";
  const long long earliest = *std::min_element(starts.begin(), starts.end());
  long long latency = 0;
  for (size_t b = 0; b < n; ++b) latency = std::max<long long>(latency, starts[b] - earliest + placement.blocks[b].span);
  if (latency > (long long)max_in_flight * period)
    return "latency " + std::to_string(latency) + " exceeds Kmax * P = " + std::to_string(max_in_flight * period);

  for (const Edge& edge : placement.edges)
    if (starts[edge.to] - starts[edge.from] < placement.blocks[edge.from].span)
      return "dependency " + placement.blocks[edge.from].id + " -> " + placement.blocks[edge.to].id + " broken";

  for (int device = 0; device < placement.ndevs; ++device) {
    std::vector<int> owner(period, -1);
    for (size_t b = 0; b < n; ++b) {
      const Block& block = placement.blocks[b];
      if (std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end()) continue;
      if (block.span > period) return "block " + block.id + " is longer than the period";
      for (int step = 0; step < block.span; ++step) {
        int& cell = owner[((starts[b] + step) % period + period) % period];
        if (cell >= 0) return "blocks " + placement.blocks[cell].id + " and " + block.id + " overlap on device " + std::to_string(device);
        cell = static_cast<int>(b);
      }
    }
  }

  if (memory_limit.empty()) return std::nullopt;
  // Far enough in that every block has started many times: the copies of b
  // started by step T number floor((T - s(b)) / P) + 1.
  long long latest = *std::max_element(starts.begin(), starts.end());
  const long long base = (latest / period + 2) * period;
  for (int device = 0; device < placement.ndevs; ++device) {
    for (int phase = 0; phase < period; ++phase) {
      const long long step = base + phase;
      long long memory = 0;
      for (size_t b = 0; b < n; ++b) {
        const Block& block = placement.blocks[b];
        if (std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end()) continue;
        memory += block.memory * ((step - starts[b]) / period + 1);
      }
      // Counted from the first step, the balance of zero makes this the
      // steady memory (the copies not yet started hold nothing).
      if (memory > memory_limit[device])
        return "memory " + std::to_string(memory) + " on device " + std::to_string(device) + " at phase " +
               std::to_string(phase) + " exceeds " + std::to_string(memory_limit[device]);
    }
  }
  return std::nullopt;
}

}  // namespace tessel
