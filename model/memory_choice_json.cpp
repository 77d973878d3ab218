// The memory choices of a schedule file: strict reading and writing
// (model/memory_choice_json.hpp).
#include "model/memory_choice_json.hpp"

#include "model/placement_json.hpp"

namespace tessel {

namespace {

const char* const kRunNames[] = {"recompute", "copy out", "copy in"};

ReadChoiceRun read_run(const nlohmann::json& value, const std::map<std::string, int>& index, long long nmicros,
                       const JsonPlace& at) {
  ReadChoiceRun run;
  run.place = at;
  const std::string block = require_string(value, "block", at);
  auto found = index.find(block);
  if (found == index.end()) at.field("block").fail("unknown block '" + block.substr(0, 100) + "'");
  run.block = found->second;
  const long long micro = require_integer(value, "micro", at);
  if (micro < 0 || micro >= nmicros)
    at.field("micro").fail("micro-batch " + std::to_string(micro) + " is outside [0, " + std::to_string(nmicros) + ")");
  run.micro = static_cast<int>(micro);
  run.start = require_decimal(value, "start", at);
  if (run.start.digits < 0) at.field("start").fail("start must be >= 0");
  return run;
}

bool read_flag(const nlohmann::json& entry, const char* key, const JsonPlace& place) {
  auto it = entry.find(key);
  if (it == entry.end()) return false;
  if (!it->is_boolean()) place.field(key).fail("expected true or false, got " + shown_value(*it));
  return it->get<bool>();
}

// Every marked forward has its runs, every run its mark and its offer.
void check_against_marks(const ReadChoices& choices, const Schedule& schedule, const JsonPlace& place) {
  std::map<std::pair<int, int>, int> seen[3];
  for (const ReadChoiceRun& run : choices.runs) {
    const Block& block = schedule.placement.blocks[run.block];
    const bool offered = run.kind == 0 ? block.recompute.has_value() : block.offload.has_value();
    if (!offered) run.place.field("block").fail("block '" + block.id + "' offers no " + (run.kind == 0 ? "recompute" : "offload"));
    const std::set<std::pair<int, int>>& marks = run.kind == 0 ? choices.marked_recompute : choices.marked_offload;
    if (!marks.count({run.block, run.micro}))
      run.place.fail(std::string("a ") + kRunNames[run.kind] + " of " + block.id + ":" + std::to_string(run.micro) +
                     " whose forward instance is not marked \"" + (run.kind == 0 ? "recompute" : "offload") + "\": true");
    if (seen[run.kind][{run.block, run.micro}]++)
      run.place.fail(std::string("a second ") + kRunNames[run.kind] + " of " + block.id + ":" + std::to_string(run.micro));
  }
  for (int kind = 0; kind < 3; ++kind) {
    const std::set<std::pair<int, int>>& marks = kind == 0 ? choices.marked_recompute : choices.marked_offload;
    for (const auto& mark : marks)
      if (!seen[kind].count(mark))
        choices.mark_place.at(mark).fail(std::string("the instance is marked but the schedule lists no ") +
                                         kRunNames[kind] + " of it");
  }
  (void)place;
}

}  // namespace

void read_instance_marks(const nlohmann::json& entry, int block, int micro, ReadChoices& choices,
                         const JsonPlace& place) {
  const bool recompute = read_flag(entry, "recompute", place);
  const bool offload = read_flag(entry, "offload", place);
  if (recompute && offload) place.fail("an instance is either recomputed or offloaded, not both");
  if (recompute) choices.marked_recompute.insert({block, micro});
  if (offload) choices.marked_offload.insert({block, micro});
  if (recompute || offload) choices.mark_place.emplace(std::make_pair(block, micro), place);
}

void read_choice_lists(const nlohmann::json& document, const std::map<std::string, int>& index, long long nmicros,
                       ReadChoices& choices, const JsonPlace& place) {
  if (document.contains("recomputes")) {
    const nlohmann::json& list = require_array(document, "recomputes", place);
    for (size_t i = 0; i < list.size(); ++i) {
      const JsonPlace at = place.field("recomputes").index(i);
      if (!list[i].is_object()) at.fail("a recompute is an object with block, micro, recompute, start");
      require_known_keys(list[i], {"block", "micro", "recompute", "start"}, at);
      if (list[i].contains("recompute") && !read_flag(list[i], "recompute", at))
        at.field("recompute").fail("a listed recompute says \"recompute\": true or leaves the key out");
      choices.runs.push_back(read_run(list[i], index, nmicros, at));
    }
  }
  if (!document.contains("transfers")) return;
  const nlohmann::json& list = require_array(document, "transfers", place);
  for (size_t i = 0; i < list.size(); ++i) {
    const JsonPlace at = place.field("transfers").index(i);
    if (!list[i].is_object()) at.fail("a transfer is an object with block, micro, direction, start");
    require_known_keys(list[i], {"block", "micro", "direction", "start"}, at);
    const std::string direction = require_string(list[i], "direction", at);
    if (direction != "out" && direction != "in") {
      const std::string nearest = nearest_name(direction, {"out", "in"});
      at.field("direction").fail("'" + direction.substr(0, 40) + "' is not a direction" +
                                 (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") + "; directions: out, in");
    }
    ReadChoiceRun run = read_run(list[i], index, nmicros, at);
    run.kind = direction == "out" ? 1 : 2;
    choices.runs.push_back(std::move(run));
  }
}

void place_choices(const ReadChoices& choices, int time_decimals, Schedule& schedule, const JsonPlace& place) {
  check_against_marks(choices, schedule, place);
  for (const ReadChoiceRun& run : choices.runs) {
    const Time start = decimal_ticks(run.start, time_decimals, run.place.field("start"));
    if (run.kind == 0) {
      schedule.recomputes.push_back({run.block, run.micro, start});
      continue;
    }
    schedule.transfers.push_back(
        {run.block, run.micro, run.kind == 1 ? TransferDirection::Out : TransferDirection::In, start});
  }
}

void choices_to_json(const Schedule& schedule, nlohmann::json& document) {
  if (schedule.recomputes.empty() && schedule.transfers.empty()) return;
  const Placement& placement = schedule.placement;
  std::set<std::pair<int, int>> recomputed, offloaded;
  nlohmann::json runs = nlohmann::json::array();
  for (const RecomputeRun& run : schedule.recomputes) {
    recomputed.insert({run.block, run.micro});
    runs.push_back({{"block", placement.blocks[run.block].id},
                    {"micro", run.micro},
                    {"recompute", true},
                    {"start", time_to_json(run.start, placement.time_decimals)}});
  }
  nlohmann::json copies = nlohmann::json::array();
  for (const Transfer& copy : schedule.transfers) {
    offloaded.insert({copy.block, copy.micro});
    copies.push_back({{"block", placement.blocks[copy.block].id},
                      {"micro", copy.micro},
                      {"direction", copy.direction == TransferDirection::Out ? "out" : "in"},
                      {"start", time_to_json(copy.start, placement.time_decimals)}});
  }
  nlohmann::json& instances = document["instances"];
  for (size_t i = 0; i < schedule.instances.size() && i < instances.size(); ++i) {
    const std::pair<int, int> key{schedule.instances[i].block, schedule.instances[i].micro};
    if (recomputed.count(key)) instances[i]["recompute"] = true;
    if (offloaded.count(key)) instances[i]["offload"] = true;
  }
  if (!runs.empty()) document["recomputes"] = std::move(runs);
  if (!copies.empty()) document["transfers"] = std::move(copies);
}

}  // namespace tessel
