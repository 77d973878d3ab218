// One micro-batch run alone (see the header): a list schedule and its memory.
#include "solver/single_micro.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "solver/full_search.hpp"

namespace tessel {

std::vector<int> single_micro_starts(const Placement& placement) {
  std::vector<int> start(placement.blocks.size(), 0);
  std::vector<int> device_free(placement.ndevs, 0);
  std::vector<std::vector<const Edge*>> incoming(placement.blocks.size());
  for (const Edge& edge : placement.edges) incoming[edge.to].push_back(&edge);
  for (int block : topological_order(placement)) {
    int at = 0;
    for (const Edge* edge : incoming[block])
      at = std::max<Time>(at, start[edge->from] + placement.blocks[edge->from].span + edge->delay);
    for (int device : placement.blocks[block].devices) at = std::max(at, device_free[device]);
    start[block] = at;
    for (int device : placement.blocks[block].devices) device_free[device] = at + placement.blocks[block].span;
  }
  return start;
}

std::vector<long long> single_micro_peak(const Placement& placement, const std::vector<int>& starts) {
  std::vector<long long> peak(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    std::map<int, long long> delta_at;
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      for (int d : placement.blocks[b].devices)
        if (d == device) delta_at[starts[b]] += placement.blocks[b].memory;
    long long memory = 0;
    for (const auto& [step, delta] : delta_at) {
      memory += delta;
      peak[device] = std::max(peak[device], memory);
    }
  }
  return peak;
}

namespace {

std::string memory_text(const std::vector<long long>& values) {
  std::ostringstream text;
  for (size_t d = 0; d < values.size(); ++d) text << (d ? "," : "") << values[d];
  return text.str();
}

}  // namespace

SingleMicroFit single_micro_within_memory(const Placement& placement, const SearchOptions& options) {
  SingleMicroFit fit;
  fit.starts = single_micro_starts(placement);
  const std::vector<long long> peak = single_micro_peak(placement, fit.starts);
  bool fits = true;
  for (int d = 0; d < placement.ndevs; ++d) fits &= options.memory_limit.empty() || peak[d] <= options.memory_limit[d];
  if (fits) return fit;

  SearchOptions one = options;
  one.nmicros = 1;
  one.progress = nullptr;
  SearchResult single = search_full(placement, one);
  fit.status = single.status;
  if (single.status == SearchStatus::Infeasible) {
    fit.message = "the memory limit is too small even for one micro-batch: run alone in dependency order it needs " +
                  memory_text(peak) + " per device (limit " + memory_text(options.memory_limit) +
                  "), and the solver proved no order of one micro-batch fits";
    return fit;
  }
  if (single.status == SearchStatus::Timeout) {
    fit.message = std::string(stop_reason(options.deadline)) + " while looking for any order of one micro-batch that fits memory";
    return fit;
  }
  for (const Instance& instance : single.schedule->instances) fit.starts[instance.block] = instance.start;
  return fit;
}

}  // namespace tessel
