// One micro-batch within memory (see the header): the list schedule, or the
// full solver on one micro-batch when the list schedule's peak is too high.
#include "solver/strategies/single_micro_fit.hpp"

#include <sstream>

#include "model/quantity.hpp"
#include "solver/strategies/full_search.hpp"
#include "solver/strategies/single_micro.hpp"

namespace tessel {

namespace {

// In the placement's own unit (its memory ticks carry `decimals` decimals).
std::string memory_text(const std::vector<long long>& values, int decimals) {
  std::ostringstream text;
  for (size_t d = 0; d < values.size(); ++d) text << (d ? "," : "") << format_ticks(values[d], decimals);
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
  one.total_micros = 1;
  one.progress = nullptr;
  // The question is an order that keeps every activation (the repetend
  // encodings keep them all): the full search would otherwise choose
  // recomputes or offloads where the placement offers them.
  Placement kept = placement;
  for (Block& block : kept.blocks) block.recompute.reset(), block.offload.reset();
  SearchResult single = search_full(kept, one);
  fit.status = single.status;
  if (single.status == SearchStatus::Infeasible) {
    fit.message = "the memory limit is too small even for one micro-batch: run alone in dependency order it needs " +
                  memory_text(peak, placement.memory_decimals) + " per device (limit " +
                  memory_text(options.memory_limit, placement.memory_decimals) +
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
