// The names of a plan's kinds, as the report and the JSON write them.
#include "plan/plan_types.hpp"

namespace tessel {

const char* cut_name(CutKind cut) { return cut == CutKind::Exact ? "exact bottleneck" : "rank-balanced"; }

std::string plan_label(const PipelineOptions& options) {
  std::string label = mapping_name(options.mapping);
  if (options.mapping == StageMapping::Interleaved) label += " x" + std::to_string(options.chunks);
  return options.split_backward ? label + ", split" : label;
}

std::string plan_label(const PlanResult& result) {
  const bool apart = result.forced && result.pipeline.recompute == RecomputeMode::Auto;
  return plan_label(result.pipeline) + (apart ? ", recompute all" : "");
}

}  // namespace tessel
