// Reading and writing `tessel.schedule/1`.
#include "model/schedule_json.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

#include "model/memory_choice_json.hpp"
#include "model/output_file.hpp"
#include "model/placement_json.hpp"

namespace tessel {

namespace {

// The numbers of a schedule as read, before they share the placement's scale.
struct ReadInstance {
  int block = 0;
  int micro = 0;
  Decimal start;
};

std::vector<Decimal> read_memory_limit(const nlohmann::json& document, Schedule& schedule, const JsonPlace& place) {
  auto it = document.find("memory_limit");
  if (it == document.end() || it->is_null()) return {};  // no limit
  JsonPlace at = place.field("memory_limit");
  std::vector<Decimal> limits;
  if (it->is_array()) {
    if (static_cast<int>(it->size()) != schedule.placement.ndevs)
      at.fail("a per-device limit needs one entry per device (" +
              std::to_string(schedule.placement.ndevs) + "), got " + std::to_string(it->size()));
    for (size_t d = 0; d < it->size(); ++d) limits.push_back(as_decimal((*it)[d], at.index(d)));
    schedule.uniform_limit = false;
    return limits;
  }
  limits.assign(schedule.placement.ndevs, as_decimal(*it, at));
  schedule.uniform_limit = true;
  return limits;
}

struct ReadRepetend {
  Decimal start, end, period;
  int micros_per_period = 1;
};

ReadRepetend read_repetend(const nlohmann::json& value, const JsonPlace& place) {
  if (!value.is_object()) place.fail("a repetend is an object with start, end, period, micros_per_period");
  require_known_keys(value, {"start", "end", "period", "micros_per_period"}, place);
  ReadRepetend repetend;
  repetend.start = require_decimal(value, "start", place);
  repetend.end = require_decimal(value, "end", place);
  repetend.period = require_decimal(value, "period", place);
  if (repetend.start.digits < 0) place.field("start").fail("must be >= 0");
  if (repetend.period.digits <= 0) place.field("period").fail("must be > 0");
  if (value.contains("micros_per_period")) {
    long long k = require_integer(value, "micros_per_period", place);
    if (k < 1 || k > 1000000) place.field("micros_per_period").fail("must be in [1, 1e6], got " + std::to_string(k));
    repetend.micros_per_period = static_cast<int>(k);
  }
  return repetend;
}

struct ReadFused {
  std::vector<FusedMember> members;
  Decimal span;
};

// "fused": [{"instances": [["f7", 4], ["b0", 0]], "span": 3}] (docs/formats.md).
std::vector<ReadFused> read_fused(const nlohmann::json& document, const std::map<std::string, int>& index,
                                  long long nmicros, const JsonPlace& place) {
  std::vector<ReadFused> units;
  auto it = document.find("fused");
  if (it == document.end() || it->is_null()) return units;
  JsonPlace list = place.field("fused");
  if (!it->is_array()) list.fail("expected a list of fused units");
  for (size_t u = 0; u < it->size(); ++u) {
    JsonPlace at = list.index(u);
    const nlohmann::json& value = (*it)[u];
    if (!value.is_object()) at.fail("a fused unit is an object with instances and span");
    require_known_keys(value, {"instances", "span"}, at);
    ReadFused unit;
    unit.span = require_decimal(value, "span", at);
    if (unit.span.digits <= 0) at.field("span").fail("must be > 0");
    const nlohmann::json& members = require_array(value, "instances", at);
    for (size_t m = 0; m < members.size(); ++m) {
      JsonPlace member = at.field("instances").index(m);
      if (!members[m].is_array() || members[m].size() != 2 || !members[m][0].is_string() ||
          !members[m][1].is_number_integer())
        member.fail("expected [block id, micro-batch]");
      auto found = index.find(members[m][0].get<std::string>());
      if (found == index.end()) member.fail("unknown block '" + members[m][0].get<std::string>().substr(0, 100) + "'");
      long long micro = members[m][1].get<long long>();
      if (micro < 0 || micro >= nmicros) member.fail("micro-batch outside [0, " + std::to_string(nmicros) + ")");
      unit.members.push_back({found->second, static_cast<int>(micro)});
    }
    if (unit.members.size() < 2) at.field("instances").fail("a fused unit has at least two members");
    units.push_back(std::move(unit));
  }
  return units;
}

// Puts the schedule's numbers on the placement's scales, raising them when a
// start or limit has more decimals than any span.
void place_on_scale(Schedule& schedule, const std::vector<ReadInstance>& instances,
                    const std::vector<Decimal>& limits, const std::optional<ReadRepetend>& repetend,
                    const std::vector<ReadFused>& fused, const ReadChoices& choices, const JsonPlace& place) {
  Placement& placement = schedule.placement;
  int time_decimals = placement.time_decimals;
  for (const ReadChoiceRun& run : choices.runs) time_decimals = std::max(time_decimals, run.start.decimals);
  for (const ReadInstance& instance : instances) time_decimals = std::max(time_decimals, instance.start.decimals);
  for (const ReadFused& unit : fused) time_decimals = std::max(time_decimals, unit.span.decimals);
  if (repetend)
    for (const Decimal& value : {repetend->start, repetend->end, repetend->period})
      time_decimals = std::max(time_decimals, value.decimals);
  int memory_decimals = placement.memory_decimals;
  for (const Decimal& limit : limits) memory_decimals = std::max(memory_decimals, limit.decimals);
  if (!rescale_time(placement, time_decimals))
    place.field("instances").fail("start times need " + std::to_string(time_decimals) +
                                  " decimals, at which a span of the placement is too large");
  if (!rescale_memory(placement, memory_decimals))
    place.field("memory_limit").fail("the limit needs " + std::to_string(memory_decimals) +
                                     " decimals, at which a memory amount of the placement is too large");
  for (size_t d = 0; d < limits.size(); ++d)
    schedule.memory_limit.push_back(decimal_ticks(limits[d], memory_decimals, place.field("memory_limit")));
  schedule.instances.reserve(instances.size());
  for (size_t i = 0; i < instances.size(); ++i)
    schedule.instances.push_back({instances[i].block, instances[i].micro,
                                  decimal_ticks(instances[i].start, time_decimals,
                                                place.field("instances").index(i).field("start"))});
  for (size_t u = 0; u < fused.size(); ++u)
    schedule.fused.push_back(
        {fused[u].members, decimal_ticks(fused[u].span, time_decimals, place.field("fused").index(u).field("span"))});
  place_choices(choices, time_decimals, schedule, place);
  if (!repetend) return;
  const JsonPlace at = place.field("repetend");
  Repetend window;
  window.start = decimal_ticks(repetend->start, time_decimals, at.field("start"));
  window.end = decimal_ticks(repetend->end, time_decimals, at.field("end"));
  window.period = decimal_ticks(repetend->period, time_decimals, at.field("period"));
  window.micros_per_period = repetend->micros_per_period;
  if (window.end < window.start) at.field("end").fail("must be >= start");
  schedule.repetend = window;
}

}  // namespace

Schedule schedule_from_json(const nlohmann::json& document, const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a schedule object");
  require_known_keys(document,
                     {"format", "placement", "memory_limit", "nmicros", "instances", "repetend", "fused", "recomputes",
                      "transfers", "search", "meta"},
                     place);
  require_format(document, kScheduleFormat, place);
  Schedule schedule;
  schedule.placement = placement_from_json(require(document, "placement", place), place.field("placement"));
  std::vector<Decimal> limits = read_memory_limit(document, schedule, place);
  long long nmicros = require_integer(document, "nmicros", place);
  if (nmicros < 0 || nmicros > 100000000) place.field("nmicros").fail("must be in [0, 1e8]");
  schedule.nmicros = static_cast<int>(nmicros);

  std::map<std::string, int> index;
  for (size_t i = 0; i < schedule.placement.blocks.size(); ++i)
    index[schedule.placement.blocks[i].id] = static_cast<int>(i);
  const nlohmann::json& list = require_array(document, "instances", place);
  std::vector<ReadInstance> instances;
  instances.reserve(list.size());
  ReadChoices choices;
  for (size_t i = 0; i < list.size(); ++i) {
    JsonPlace at = place.field("instances").index(i);
    if (!list[i].is_object()) at.fail("an instance is an object with block, micro, start");
    require_known_keys(list[i], {"block", "micro", "start", "recompute", "offload"}, at);
    std::string block = require_string(list[i], "block", at);
    auto found = index.find(block);
    if (found == index.end()) at.field("block").fail("unknown block '" + block.substr(0, 100) + "'");
    long long micro = require_integer(list[i], "micro", at);
    if (micro < 0 || micro >= nmicros)
      at.field("micro").fail("micro-batch " + std::to_string(micro) + " is outside [0, " +
                             std::to_string(nmicros) + ")");
    Decimal start = require_decimal(list[i], "start", at);
    if (start.digits < 0) at.field("start").fail("start must be >= 0, got " + format_ticks(start.digits, start.decimals));
    instances.push_back({found->second, static_cast<int>(micro), start});
    if (list[i].size() > 3) read_instance_marks(list[i], found->second, static_cast<int>(micro), choices, at);
  }
  read_choice_lists(document, index, nmicros, choices, place);

  std::optional<ReadRepetend> repetend;
  if (document.contains("repetend") && !document["repetend"].is_null())
    repetend = read_repetend(document["repetend"], place.field("repetend"));
  place_on_scale(schedule, instances, limits, repetend, read_fused(document, index, nmicros, place), choices, place);
  if (document.contains("search")) schedule.search = document["search"];
  if (document.contains("meta")) schedule.meta = document["meta"];
  return schedule;
}

Schedule read_schedule_file(const std::string& path) {
  return schedule_from_json(read_json_file(path), JsonPlace{path, ""});
}

nlohmann::json schedule_to_json(const Schedule& schedule) {
  nlohmann::json document = {{"format", kScheduleFormat},
                             {"placement", placement_to_json(schedule.placement)}};
  const int time_decimals = schedule.placement.time_decimals;
  const int memory_decimals = schedule.placement.memory_decimals;
  if (schedule.memory_limit.empty()) {
    document["memory_limit"] = nullptr;
  } else if (schedule.uniform_limit &&
             std::adjacent_find(schedule.memory_limit.begin(), schedule.memory_limit.end(),
                                std::not_equal_to<Memory>()) == schedule.memory_limit.end()) {
    // One number only when every device has it: a schedule whose limits were
    // replaced after it was read must not be written with its first one alone.
    document["memory_limit"] = time_to_json(schedule.memory_limit.front(), memory_decimals);
  } else {
    nlohmann::json limits = nlohmann::json::array();
    for (Memory limit : schedule.memory_limit) limits.push_back(time_to_json(limit, memory_decimals));
    document["memory_limit"] = limits;
  }
  document["nmicros"] = schedule.nmicros;
  nlohmann::json instances = nlohmann::json::array();
  for (const Instance& instance : schedule.instances)
    instances.push_back({{"block", schedule.placement.blocks[instance.block].id},
                         {"micro", instance.micro},
                         {"start", time_to_json(instance.start, time_decimals)}});
  document["instances"] = std::move(instances);
  choices_to_json(schedule, document);
  if (schedule.repetend)
    document["repetend"] = {{"start", time_to_json(schedule.repetend->start, time_decimals)},
                            {"end", time_to_json(schedule.repetend->end, time_decimals)},
                            {"period", time_to_json(schedule.repetend->period, time_decimals)},
                            {"micros_per_period", schedule.repetend->micros_per_period}};
  if (!schedule.fused.empty()) {
    nlohmann::json units = nlohmann::json::array();
    for (const FusedUnit& unit : schedule.fused) {
      nlohmann::json members = nlohmann::json::array();
      for (const FusedMember& member : unit.members)
        members.push_back({schedule.placement.blocks[member.block].id, member.micro});
      units.push_back({{"instances", members}, {"span", time_to_json(unit.span, time_decimals)}});
    }
    document["fused"] = std::move(units);
  }
  if (!schedule.search.is_null()) document["search"] = schedule.search;
  if (!schedule.meta.is_null()) document["meta"] = schedule.meta;
  return document;
}

namespace {

// The instances array as nlohmann's dump(1) prints it at the document's
// second level, written directly: a document of millions of instances
// spends seconds allocating, printing and freeing one object per instance.
void append_instances_text(const Schedule& schedule, std::string& text) {
  const int decimals = schedule.placement.time_decimals;
  std::vector<std::string> block_ids;
  for (const Block& block : schedule.placement.blocks) block_ids.push_back(nlohmann::json(block.id).dump());
  if (schedule.instances.empty()) {
    text += "[]";
    return;
  }
  text += "[\n";
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    const Instance& instance = schedule.instances[i];
    text += "  {\n   \"block\": ";
    text += block_ids[instance.block];
    text += ",\n   \"micro\": ";
    text += std::to_string(instance.micro);
    text += ",\n   \"start\": ";
    text += decimals == 0 ? std::to_string(instance.start) : time_to_json(instance.start, decimals).dump();
    text += i + 1 < schedule.instances.size() ? "\n  },\n" : "\n  }\n";
  }
  text += " ]";
}

}  // namespace

std::string schedule_json_text(const Schedule& schedule) {
  // Marked instances (recomputed, offloaded) carry more fields: such
  // schedules are the search's small ones, printed the library's way.
  if (!schedule.recomputes.empty() || !schedule.transfers.empty()) return schedule_to_json(schedule).dump(1) + "\n";
  // The document without its instances, and a placeholder the instances
  // replace: every other field keeps the library's own printing.
  Schedule shell = schedule;
  shell.instances.clear();
  nlohmann::json document = schedule_to_json(shell);
  const std::string placeholder = "tessel-instances-placeholder";
  document["instances"] = placeholder;
  std::string printed = document.dump(1);
  // At the top level only: a block's id may be any text.
  const std::string key = "\n \"instances\": ";
  const std::string quoted = "\"" + placeholder + "\"";
  const size_t at = printed.find(key + quoted) + key.size();
  std::string text = printed.substr(0, at);
  text.reserve(printed.size() + schedule.instances.size() * 64);
  append_instances_text(schedule, text);
  text += printed.substr(at + quoted.size());
  text += "\n";
  return text;
}

void write_schedule_file(const std::string& path, const Schedule& schedule) {
  write_output_file(path, schedule_json_text(schedule));
}

}  // namespace tessel
