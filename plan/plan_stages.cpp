// Stages as code: from the plan's cut to each stage's operators and the
// module paths that own them. A module path owns every operator whose
// `module` is the path or lies below it ("h.0" owns "h.0.attn"'s); it is
// listed for a stage when the stage holds all its operators and its parent
// is not listed there (so the list is the coarsest cover, no path inside
// another).
#include "plan/plan_stages.hpp"

#include <algorithm>
#include <map>

namespace tessel {

namespace {

constexpr int kMixed = -1;

// Every proper ancestor-or-self path of a module path: "h.0.attn" gives
// "h", "h.0", "h.0.attn"; "" (the model itself) gives nothing.
std::vector<std::string> module_prefixes(const std::string& path) {
  std::vector<std::string> prefixes;
  if (path.empty()) return prefixes;
  for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
    prefixes.push_back(path.substr(0, dot));
  prefixes.push_back(path);
  return prefixes;
}

std::string parent_of(const std::string& path) {
  size_t dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

// Per module path: the one stage holding all its operators, or kMixed;
// and the first operator it owns (for the order of the lists).
struct ModuleOwnership {
  std::map<std::string, int> stage;
  std::map<std::string, int> first_operator;
};

ModuleOwnership ownership(const Graph& graph, const Partition& partition) {
  ModuleOwnership owned;
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    if (!graph.nodes[v].module) continue;
    for (const std::string& path : module_prefixes(*graph.nodes[v].module)) {
      auto [at, fresh] = owned.stage.emplace(path, partition.stage_of[v]);
      if (fresh) owned.first_operator[path] = static_cast<int>(v);
      else if (at->second != partition.stage_of[v]) at->second = kMixed;
    }
  }
  return owned;
}

int chunk_of_stage(const PipelineOptions& options, int stage) {
  switch (options.mapping) {
    case StageMapping::Chain: return 0;
    case StageMapping::Interleaved: return stage / options.devices;
    case StageMapping::V: return stage < options.devices ? 0 : 1;
  }
  return 0;
}

}  // namespace

std::vector<PlanStage> plan_stages(const Graph& graph, const Partition& partition, const PipelineOptions& options) {
  std::vector<PlanStage> stages(partition.stages);
  for (int s = 0; s < partition.stages; ++s) {
    stages[s].stage = s;
    stages[s].rank = rank_of_stage(options.mapping, options.devices, s);
    stages[s].chunk = chunk_of_stage(options, s);
  }
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    PlanStage& stage = stages[partition.stage_of[v]];
    stage.operators.push_back(static_cast<int>(v));
    stage.compute += graph.nodes[v].compute;
    stage.param_bytes += graph.nodes[v].param_bytes;
  }
  ModuleOwnership owned = ownership(graph, partition);
  std::vector<std::vector<std::pair<int, std::string>>> listed(partition.stages);
  for (const auto& [path, stage] : owned.stage) {
    if (stage == kMixed) continue;
    std::string parent = parent_of(path);
    bool parent_whole_here = !parent.empty() && owned.stage.at(parent) == stage;
    if (!parent_whole_here) listed[stage].push_back({owned.first_operator.at(path), path});
  }
  for (int s = 0; s < partition.stages; ++s) {
    std::sort(listed[s].begin(), listed[s].end());
    for (auto& [first, path] : listed[s]) stages[s].modules.push_back(path);
  }
  return stages;
}

nlohmann::json stages_to_json(const Graph& graph, const PipelineOptions& options, const std::vector<PlanStage>& stages) {
  nlohmann::json list = nlohmann::json::array();
  for (const PlanStage& stage : stages) {
    nlohmann::json operators = nlohmann::json::array();
    for (int v : stage.operators) operators.push_back(graph.nodes[v].id);
    list.push_back({{"stage", stage.stage},
                    {"rank", stage.rank},
                    {"chunk", stage.chunk},
                    {"operators", operators},
                    {"modules", stage.modules},
                    {"compute", stage.compute},
                    {"param_bytes", stage.param_bytes}});
  }
  return {{"format", kStagesFormat},
          {"graph", graph.name},
          {"mapping", mapping_name(options.mapping)},
          {"split_backward", options.split_backward},
          {"ranks", options.devices},
          {"chunks", options.chunks},
          {"stages", list}};
}

}  // namespace tessel
