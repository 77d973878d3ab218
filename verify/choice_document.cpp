// Reading what trades memory for time in a tessel.schedule/1 document
// (docs/formats.md, "Memory traded for time"): the offers of the embedded
// placement's forward blocks and the schedule's "recomputes" and
// "transfers" lists. An offer that cannot be understood is a FormatError; a
// listed run that names a block or micro-batch the schedule does not have
// is kept (block -1 or its micro as written) for the checks to report, the
// way an unknown instance is.
#include <map>

#include "verify/json_text.hpp"
#include "verify/known_keys.hpp"
#include "verify/schedule_document.hpp"
#include "verify/verify.hpp"

namespace tessel::verify {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& reason) { throw FormatError{field, reason}; }

std::map<std::string, int> block_index(const ScheduleDocument& schedule) {
  std::map<std::string, int> index;
  for (size_t b = 0; b < schedule.blocks.size(); ++b) index.emplace(schedule.blocks[b].id, static_cast<int>(b));
  return index;
}

long long positive_time(ScheduleDocument& schedule, const nlohmann::json& offer, const char* key,
                        const std::string& path) {
  if (!offer.contains(key)) fail(path + "." + key, "missing");
  const long long ticks = read_time(schedule, offer[key], path + "." + key);
  if (ticks <= 0) fail(path + "." + key, "must be > 0, got " + short_text(offer[key].dump()));
  return ticks;
}

int before_block(const nlohmann::json& offer, const std::map<std::string, int>& index, int self,
                 const std::string& path) {
  auto it = offer.find("before");
  if (it == offer.end()) fail(path + ".before", "missing");
  if (!it->is_string()) fail(path + ".before", "expected a block id, got " + short_text(it->dump()));
  auto found = index.find(it->get<std::string>());
  if (found == index.end()) fail(path + ".before", "unknown block '" + short_text(it->get<std::string>()) + "'");
  if (found->second == self) fail(path + ".before", "a block cannot be needed again by itself");
  return found->second;
}

void read_block_offers(const nlohmann::json& value, int b, const std::map<std::string, int>& index,
                       ScheduleDocument& schedule, const std::string& path) {
  if (auto it = value.find("recompute"); it != value.end()) {
    const std::string at = path + ".recompute";
    if (!it->is_object()) fail(at, "expected an object with span, before, checkpoint_memory");
    require_known_keys(*it, {"span", "before", "checkpoint_memory"}, at);
    schedule.blocks[b].recompute_span = positive_time(schedule, *it, "span", at);
    if (it->contains("checkpoint_memory")) {
      const long long kept = read_memory_amount(schedule, (*it)["checkpoint_memory"], at + ".checkpoint_memory");
      // Read after the span: a finer memory unit rescales the block's memory too.
      if (kept < 0 || kept > std::max(0LL, schedule.blocks[b].memory))
        fail(at + ".checkpoint_memory", "must be in [0, the block's memory]");
      schedule.blocks[b].checkpoint_memory = kept;
    }
    schedule.blocks[b].recompute_before = before_block(*it, index, b, at);
  }
  if (auto it = value.find("offload"); it != value.end()) {
    const std::string at = path + ".offload";
    if (!it->is_object()) fail(at, "expected an object with out, in, before");
    require_known_keys(*it, {"out", "in", "before"}, at);
    schedule.blocks[b].offload_out = positive_time(schedule, *it, "out", at);
    schedule.blocks[b].offload_in = positive_time(schedule, *it, "in", at);
    schedule.blocks[b].offload_before = before_block(*it, index, b, at);
  }
}

ChoiceRun read_run(const nlohmann::json& entry, RunKind kind, const std::map<std::string, int>& index,
                   ScheduleDocument& schedule, const std::string& path) {
  if (!entry.is_object()) fail(path, "expected an object, got " + short_text(entry.dump()));
  ChoiceRun run;
  run.kind = kind;
  auto block = entry.find("block");
  if (block == entry.end() || !block->is_string()) fail(path + ".block", "expected a block id");
  run.block_id = block->get<std::string>();
  auto found = index.find(run.block_id);
  run.block = found == index.end() ? -1 : found->second;
  auto micro = entry.find("micro");
  if (micro == entry.end() || !micro->is_number_integer()) fail(path + ".micro", "expected an integer micro-batch");
  run.micro = micro->get<long long>();
  if (!entry.contains("start")) fail(path + ".start", "missing");
  run.start = read_time(schedule, entry["start"], path + ".start");
  if (run.start < 0 || run.start > kMaxStart) fail(path + ".start", "must be in [0, 2^50 ticks]");
  return run;
}

}  // namespace

void read_offers(const nlohmann::json& placement, ScheduleDocument& schedule) {
  const nlohmann::json& blocks = placement["blocks"];
  const std::map<std::string, int> index = block_index(schedule);
  for (size_t b = 0; b < blocks.size(); ++b)
    read_block_offers(blocks[b], static_cast<int>(b), index, schedule, "placement.blocks[" + std::to_string(b) + "]");
}

void read_choice_runs(const nlohmann::json& document, ScheduleDocument& schedule) {
  const std::map<std::string, int> index = block_index(schedule);
  for (const char* list : {"recomputes", "transfers"}) {
    auto it = document.find(list);
    if (it == document.end() || it->is_null()) continue;
    if (!it->is_array()) fail(list, "expected a list, got " + short_text(it->dump()));
    for (size_t i = 0; i < it->size(); ++i) {
      const std::string path = std::string(list) + "[" + std::to_string(i) + "]";
      const nlohmann::json& entry = (*it)[i];
      RunKind kind = RunKind::Recompute;
      if (list[0] == 'r') {
        require_known_keys(entry, {"block", "micro", "recompute", "start"}, path);
        if (entry.is_object() && entry.contains("recompute") && entry["recompute"] != true)
          fail(path + ".recompute", "a listed recompute says true or leaves the key out");
      } else {
        require_known_keys(entry, {"block", "micro", "direction", "start"}, path);
        const nlohmann::json direction = entry.is_object() ? entry.value("direction", nlohmann::json()) : nlohmann::json();
        if (direction != "out" && direction != "in")
          fail(path + ".direction", "expected \"out\" or \"in\", got " + short_text(direction.dump()));
        kind = direction == "out" ? RunKind::CopyOut : RunKind::CopyIn;
      }
      ChoiceRun run = read_run(entry, kind, index, schedule, path);
      run.position = i;
      schedule.runs.push_back(std::move(run));
    }
  }
}

}  // namespace tessel::verify
