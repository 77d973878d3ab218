// Reading tessel.schedule/1 into the verifier's plain structs, with a
// FormatError naming the JSON path of the first field that cannot be read.
#include "verify/schedule_document.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "verify/json_text.hpp"
#include "verify/known_keys.hpp"
#include "verify/numbers.hpp"
#include "verify/verdict.hpp"

namespace tessel::verify {

namespace {

const char* const kScheduleFormat = "tessel.schedule/1";
const char* const kPlacementFormat = "tessel.placement/1";

[[noreturn]] void fail(const std::string& field, const std::string& reason) {
  throw FormatError{field, reason};
}

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string at_index(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

const nlohmann::json& member(const nlohmann::json& object, const std::string& key,
                             const std::string& path) {
  if (!object.is_object()) fail(path, "expected an object, got " + short_text(object.dump()));
  auto it = object.find(key);
  if (it == object.end()) fail(join(path, key), "missing");
  return *it;
}

// Integers only: 2.5 or "2" in a step or a span is a mistake, not a rounding.
long long integer(const nlohmann::json& value, const std::string& field) {
  if (value.is_number_unsigned() && value.get<unsigned long long>() > 4000000000000000000ULL)
    fail(field, "integer too large: " + short_text(value.dump()));
  if (value.is_number_integer()) return value.get<long long>();
  if (value.is_number_float()) {
    double number = value.get<double>();
    if (number >= -4e18 && number <= 4e18 && number == std::floor(number))
      return static_cast<long long>(number);
  }
  fail(field, "expected an integer, got " + short_text(value.dump()));
}

long long integer_member(const nlohmann::json& object, const std::string& key, const std::string& path) {
  return integer(member(object, key, path), join(path, key));
}

std::string string_member(const nlohmann::json& object, const std::string& key, const std::string& path) {
  const nlohmann::json& value = member(object, key, path);
  if (!value.is_string()) fail(join(path, key), "expected a string, got " + short_text(value.dump()));
  return value.get<std::string>();
}

const nlohmann::json& array_member(const nlohmann::json& object, const std::string& key,
                                   const std::string& path) {
  const nlohmann::json& value = member(object, key, path);
  if (!value.is_array()) fail(join(path, key), "expected a list, got " + short_text(value.dump()));
  return value;
}

// Multiplies every value by `factor`, failing at `field` (the value that
// asked for the finer unit) when one would pass kMaxTicks.
void rescale(std::vector<long long*> values, long long factor, const std::string& field, int decimals) {
  for (long long* value : values) {
    if (*value > kMaxTicks / factor || *value < -kMaxTicks / factor)
      fail(field, "at " + std::to_string(decimals) + " decimals the file's values pass 2^50 units of the last "
                  "decimal (round the numbers to fewer decimals)");
    *value *= factor;
  }
}

void rescale_times(ScheduleDocument& schedule, int decimals, const std::string& field) {
  std::vector<long long*> values;
  for (BlockSpec& block : schedule.blocks) values.push_back(&block.span);
  for (EdgeSpec& edge : schedule.edges) values.push_back(&edge.delay);
  for (PlacedInstance& instance : schedule.instances) values.push_back(&instance.start);
  for (ForeignInstance& instance : schedule.foreign) values.push_back(&instance.start);
  for (FusedSpec& unit : schedule.fused) values.push_back(&unit.span);
  for (BlockSpec& block : schedule.blocks)
    for (long long* value : {&block.recompute_span, &block.offload_out, &block.offload_in}) values.push_back(value);
  for (ChoiceRun& run : schedule.runs) values.push_back(&run.start);
  if (schedule.repetend)
    for (long long* value : {&schedule.repetend->start, &schedule.repetend->end, &schedule.repetend->period})
      values.push_back(value);
  rescale(values, ten_to(decimals - schedule.time_decimals), field, decimals);
  schedule.time_decimals = decimals;
}

void rescale_memory(ScheduleDocument& schedule, int decimals, const std::string& field) {
  std::vector<long long*> values;
  for (BlockSpec& block : schedule.blocks) values.push_back(&block.memory);
  for (BlockSpec& block : schedule.blocks) values.push_back(&block.checkpoint_memory);
  for (long long& amount : schedule.static_memory) values.push_back(&amount);
  if (schedule.memory_limit)
    for (long long& limit : *schedule.memory_limit) values.push_back(&limit);
  rescale(values, ten_to(decimals - schedule.memory_decimals), field, decimals);
  schedule.memory_decimals = decimals;
}

Exact exact(const nlohmann::json& value, const std::string& field) {
  std::optional<Exact> number = exact_number(value);
  if (!number)
    fail(field, value.is_number() ? "number " + short_text(value.dump()) + " is out of range or has more than " +
                                        std::to_string(kMaxDecimals) + " decimals"
                                  : "expected a number, got " + short_text(value.dump()));
  return *number;
}

long long read_memory(ScheduleDocument& schedule, const nlohmann::json& value, const std::string& field) {
  const Exact number = exact(value, field);
  if (number.decimals > schedule.memory_decimals) rescale_memory(schedule, number.decimals, field);
  std::optional<long long> ticks = ticks_at(number, schedule.memory_decimals);
  if (!ticks) fail(field, "number " + short_text(value.dump()) + " is too large");
  return *ticks;
}

// "name/version": a different name and a different version get different
// messages, so that a user sees whether the file is not a schedule at all or
// a schedule from another tessel.
void check_format(const nlohmann::json& object, const std::string& expected, const std::string& path) {
  std::string format = string_member(object, "format", path);
  if (format == expected) return;
  std::string name = expected.substr(0, expected.find('/'));
  if (format.substr(0, format.find('/')) == name)
    fail(join(path, "format"), "unsupported version '" + format + "' (this verifier reads '" + expected + "')");
  fail(join(path, "format"), "unknown format '" + format + "' (expected '" + expected + "')");
}

BlockSpec read_block(const nlohmann::json& value, ScheduleDocument& schedule, const std::string& path) {
  require_known_keys(value, {"id", "kind", "span", "memory", "stage", "devices", "recompute", "offload"}, path);
  const int ndevs = schedule.ndevs;
  BlockSpec block;
  block.id = string_member(value, "id", path);
  if (block.id.empty()) fail(join(path, "id"), "block id must not be empty");
  block.span = read_time(schedule, member(value, "span", path), join(path, "span"));
  if (block.span <= 0) fail(join(path, "span"), "span must be > 0, got " + short_text(member(value, "span", path).dump()));
  // `memory` and `kind` may be left out (memory 0; kind only labels drawings).
  if (value.contains("memory")) block.memory = read_memory(schedule, value["memory"], join(path, "memory"));
  const nlohmann::json& devices = array_member(value, "devices", path);
  std::string devices_path = join(path, "devices");
  if (devices.empty()) fail(devices_path, "a block needs at least one device");
  for (size_t i = 0; i < devices.size(); ++i) {
    long long device = integer(devices[i], at_index(devices_path, i));
    if (device < 0 || device >= ndevs)
      fail(at_index(devices_path, i),
           "device " + std::to_string(device) + " is outside [0, " + std::to_string(ndevs) + ")");
    block.devices.push_back(static_cast<int>(device));
  }
  std::sort(block.devices.begin(), block.devices.end());
  if (std::adjacent_find(block.devices.begin(), block.devices.end()) != block.devices.end())
    fail(devices_path, "a device is listed twice");
  return block;
}

// "static_memory": one number for every device, or a list with one per
// device; held for the whole run, so it starts every device's memory.
void read_static_memory(const nlohmann::json& placement, ScheduleDocument& schedule) {
  schedule.static_memory.assign(schedule.ndevs, 0);
  auto it = placement.find("static_memory");
  if (it == placement.end() || it->is_null()) return;
  const std::string path = "placement.static_memory";
  if (!it->is_array()) {
    const long long amount = read_memory(schedule, *it, path);
    schedule.static_memory.assign(schedule.ndevs, amount);
    return;
  }
  if (static_cast<int>(it->size()) != schedule.ndevs)
    fail(path, "a per-device list needs one entry per device (" + std::to_string(schedule.ndevs) + "), got " +
                   std::to_string(it->size()));
  for (size_t d = 0; d < it->size(); ++d) {
    const long long amount = read_memory(schedule, (*it)[d], at_index(path, d));
    schedule.static_memory[d] = amount;
  }
}

// The embedded placement. A dependency cycle is not rejected here: no
// schedule can satisfy one, and the dependency check says where.
void read_placement(const nlohmann::json& value, ScheduleDocument& schedule,
                    std::unordered_map<std::string, int>& index) {
  const std::string path = "placement";
  if (!value.is_object()) fail(path, "expected a placement object, got " + short_text(value.dump()));
  require_known_keys(value, {"format", "name", "ndevs", "blocks", "edges", "static_memory"}, path);
  check_format(value, kPlacementFormat, path);
  long long ndevs = integer_member(value, "ndevs", path);
  if (ndevs < 1 || ndevs > 1000000)
    fail(join(path, "ndevs"), "ndevs must be in [1, 1000000], got " + std::to_string(ndevs));
  schedule.ndevs = static_cast<int>(ndevs);

  const nlohmann::json& blocks = array_member(value, "blocks", path);
  if (blocks.empty()) fail(join(path, "blocks"), "a placement needs at least one block");
  for (size_t i = 0; i < blocks.size(); ++i) {
    std::string block_path = at_index(join(path, "blocks"), i);
    BlockSpec block = read_block(blocks[i], schedule, block_path);
    if (!index.emplace(block.id, static_cast<int>(i)).second)
      fail(join(block_path, "id"), "duplicate block id '" + block.id + "'");
    schedule.blocks.push_back(std::move(block));
  }

  read_static_memory(value, schedule);
  read_offers(value, schedule);
  if (!value.contains("edges")) return;
  const nlohmann::json& edges = array_member(value, "edges", path);
  for (size_t i = 0; i < edges.size(); ++i) {
    std::string edge_path = at_index(join(path, "edges"), i);
    const nlohmann::json& edge = edges[i];
    if (!edge.is_array() || edge.size() < 2 || edge.size() > 3 || !edge[0].is_string() || !edge[1].is_string())
      fail(edge_path, "an edge is [\"a\", \"b\"] or [\"a\", \"b\", delay], got " + short_text(edge.dump()));
    EdgeSpec parsed;
    for (size_t end = 0; end < 2; ++end) {
      auto found = index.find(edge[end].get<std::string>());
      if (found == index.end())
        fail(at_index(edge_path, end), "unknown block '" + edge[end].get<std::string>() + "'");
      (end == 0 ? parsed.from : parsed.to) = found->second;
    }
    if (parsed.from == parsed.to) fail(edge_path, "block '" + edge[0].get<std::string>() + "' depends on itself");
    schedule.edges.push_back(parsed);
    if (edge.size() < 3) continue;
    // Read after the push, so that a finer unit rescales it with the rest.
    const long long delay = read_time(schedule, edge[2], at_index(edge_path, 2));
    if (delay < 0) fail(at_index(edge_path, 2), "a delay must be >= 0, got " + short_text(edge[2].dump()));
    schedule.edges.back().delay = delay;
  }
}

// A number (the same limit everywhere), a list (one per device), or
// null/absent (no limit).
void read_memory_limit(const nlohmann::json& document, ScheduleDocument& schedule) {
  auto it = document.find("memory_limit");
  if (it == document.end() || it->is_null()) return;
  if (!it->is_array()) {
    const long long limit = read_memory(schedule, *it, "memory_limit");
    schedule.memory_limit = std::vector<long long>(schedule.ndevs, limit);
    return;
  }
  if (static_cast<int>(it->size()) != schedule.ndevs)
    fail("memory_limit", "a per-device limit needs one entry per device (" + std::to_string(schedule.ndevs) +
                             "), got " + std::to_string(it->size()));
  schedule.memory_limit = std::vector<long long>(schedule.ndevs, 0);
  for (size_t d = 0; d < it->size(); ++d) {
    const long long limit = read_memory(schedule, (*it)[d], at_index("memory_limit", d));
    (*schedule.memory_limit)[d] = limit;
  }
}

// The hot loop for a million instances: field paths are only spelled out
// when something is wrong.
void read_instances(const nlohmann::json& document, ScheduleDocument& schedule,
                    const std::unordered_map<std::string, int>& index) {
  const nlohmann::json& instances = array_member(document, "instances", "");
  schedule.instances.reserve(instances.size());
  for (size_t i = 0; i < instances.size(); ++i) {
    const nlohmann::json& entry = instances[i];
    if (entry.is_object() && entry.size() > 3)
      require_known_keys(entry, {"block", "micro", "start", "recompute", "offload"}, at_index("instances", i));
    auto block_field = entry.is_object() ? entry.find("block") : entry.end();
    if (!entry.is_object() || block_field == entry.end() || !block_field->is_string())
      string_member(entry, "block", at_index("instances", i));  // throws the precise error
    const std::string& block = block_field->get_ref<const std::string&>();
    auto micro_field = entry.find("micro");
    auto start_field = entry.find("start");
    bool plain = micro_field != entry.end() && micro_field->is_number_integer() && start_field != entry.end() &&
                 start_field->is_number_integer() && schedule.time_decimals == 0;
    long long micro = plain ? micro_field->get<long long>() : integer_member(entry, "micro", at_index("instances", i));
    long long start = plain ? start_field->get<long long>()
                            : read_time(schedule, member(entry, "start", at_index("instances", i)),
                                        at_index("instances", i) + ".start");
    // A negative start is outside the problem (every start is >= 0), not a
    // schedule that breaks one of its conditions: the file is malformed.
    if (start < 0)
      fail(at_index("instances", i) + ".start", "start must be >= 0, got " + time_text(schedule, start));
    if (start > kMaxStart)
      fail(at_index("instances", i) + ".start", "start is unreasonably large: " + time_text(schedule, start));
    auto found = index.find(block);
    if (found == index.end()) {
      schedule.foreign.push_back({block, micro, start, i, "block '" + block + "' is not in the placement"});
      continue;
    }
    if (micro < 0 || micro >= schedule.nmicros) {
      schedule.foreign.push_back({block, micro, start, i,
                                  "micro-batch " + std::to_string(micro) + " is outside [0, " +
                                      std::to_string(schedule.nmicros) + ")"});
      continue;
    }
    schedule.instances.push_back({found->second, micro, start, i});
    if (entry.size() > 3) {
      PlacedInstance& placed = schedule.instances.back();
      for (const char* key : {"recompute", "offload"}) {
        auto mark = entry.find(key);
        if (mark == entry.end()) continue;
        if (!mark->is_boolean())
          fail(at_index("instances", i) + "." + key, "expected true or false, got " + short_text(mark->dump()));
        (key[0] == 'r' ? placed.marked_recompute : placed.marked_offload) = mark->get<bool>();
      }
    }
  }
}

// The shape of the claim is checked here (positive period and step, a
// window that does not end before it starts); whether it is true is
// repetend_check.cpp's question.
void read_repetend(const nlohmann::json& document, ScheduleDocument& schedule) {
  auto it = document.find("repetend");
  if (it == document.end() || it->is_null()) return;
  const std::string path = "repetend";
  schedule.repetend = ClaimedRepetend{};
  ClaimedRepetend& repetend = *schedule.repetend;  // rescaled with the other times while being read
  if (!it->is_object()) fail(path, "expected an object, got " + short_text(it->dump()));
  require_known_keys(*it, {"start", "end", "period", "micros_per_period"}, path);
  for (const char* key : {"start", "end", "period"}) {
    const long long value = read_time(schedule, member(*it, key, path), join(path, key));
    (key[0] == 's' ? repetend.start : key[0] == 'e' ? repetend.end : repetend.period) = value;
  }
  if (it->contains("micros_per_period")) repetend.micros_per_period = integer_member(*it, "micros_per_period", path);
  if (repetend.start < 0 || repetend.start > kMaxStart) fail(join(path, "start"), "must be in [0, 2^50 ticks]");
  if (repetend.end < repetend.start || repetend.end > 2 * kMaxStart) fail(join(path, "end"), "must be at or after start");
  if (repetend.period <= 0) fail(join(path, "period"), "must be > 0");
  if (repetend.micros_per_period < 1 || repetend.micros_per_period > kMaxStart)
    fail(join(path, "micros_per_period"), "must be in [1, 1e9]");
}

}  // namespace

long long read_time(ScheduleDocument& schedule, const nlohmann::json& value, const std::string& field) {
  const Exact number = exact(value, field);
  if (number.decimals > schedule.time_decimals) rescale_times(schedule, number.decimals, field);
  std::optional<long long> ticks = ticks_at(number, schedule.time_decimals);
  if (!ticks) fail(field, "number " + short_text(value.dump()) + " is too large");
  return *ticks;
}

long long read_memory_amount(ScheduleDocument& schedule, const nlohmann::json& value, const std::string& field) {
  return read_memory(schedule, value, field);
}

std::string time_text(const ScheduleDocument& schedule, long long ticks) {
  return ticks_text(ticks, schedule.time_decimals);
}

std::string memory_text(const ScheduleDocument& schedule, long long ticks) {
  return ticks_text(ticks, schedule.memory_decimals);
}

std::string instance_name(const std::string& block, long long micro) {
  return block + ":" + std::to_string(micro);
}

ScheduleDocument read_schedule_document(const nlohmann::json& document) {
  if (!document.is_object()) fail("", "expected a tessel.schedule/1 object");
  require_known_keys(document,
                     {"format", "placement", "memory_limit", "nmicros", "instances", "repetend", "fused", "recomputes",
                      "transfers", "search", "meta"},
                     "");
  check_format(document, kScheduleFormat, "");
  ScheduleDocument schedule;
  std::unordered_map<std::string, int> index;
  read_placement(member(document, "placement", ""), schedule, index);
  read_memory_limit(document, schedule);
  schedule.nmicros = integer_member(document, "nmicros", "");
  if (schedule.nmicros < 0 || schedule.nmicros > 1000000000)
    fail("nmicros", "must be in [0, 1e9], got " + std::to_string(schedule.nmicros));
  read_instances(document, schedule, index);
  read_repetend(document, schedule);
  read_fused(document, schedule);
  read_choice_runs(document, schedule);
  return schedule;
}

}  // namespace tessel::verify
