// Reading the optional "fused" list of a tessel.schedule/1 document
// (docs/formats.md, "fused"): [{"instances": [["f7", 4], ["b0", 0]],
// "span": 3}, ...]. A list that cannot be understood (not a list, a member
// that is not [block id, micro-batch], an unknown block id, fewer than two
// members, a span that is not a positive number) is a FormatError naming the field; whether the
// members are scheduled and start together is fused.cpp's question.
#include <map>

#include "verify/json_text.hpp"
#include "verify/schedule_document.hpp"
#include "verify/verify.hpp"

namespace tessel::verify {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& reason) { throw FormatError{field, reason}; }

long long whole_number(const nlohmann::json& value, const std::string& field, long long low, long long high) {
  if (value.is_number_integer()) {
    long long number = value.get<long long>();
    if (number >= low && number <= high) return number;
  }
  fail(field, "expected an integer in [" + std::to_string(low) + ", " + std::to_string(high) + "], got " +
                  short_text(value.dump()));
}

}  // namespace

void read_fused(const nlohmann::json& document, ScheduleDocument& schedule) {
  auto it = document.find("fused");
  if (it == document.end() || it->is_null()) return;
  if (!it->is_array()) fail("fused", "expected a list of fused units, got " + short_text(it->dump()));
  std::map<std::string, int> index;
  for (size_t b = 0; b < schedule.blocks.size(); ++b) index.emplace(schedule.blocks[b].id, static_cast<int>(b));
  for (size_t u = 0; u < it->size(); ++u) {
    const nlohmann::json& unit = (*it)[u];
    std::string path = "fused[" + std::to_string(u) + "]";
    if (!unit.is_object()) fail(path, "expected an object {\"instances\": [...], \"span\": ...}");
    for (const auto& [key, value] : unit.items())
      if (key != "instances" && key != "span") fail(path + "." + key, "unknown key (expected instances, span)");
    if (!unit.contains("instances") || !unit["instances"].is_array())
      fail(path + ".instances", "expected a list of [block id, micro-batch]");
    if (!unit.contains("span")) fail(path + ".span", "missing");
    FusedSpec spec;
    spec.position = u;
    spec.span = read_time(schedule, unit["span"], path + ".span");
    if (spec.span <= 0) fail(path + ".span", "a unit's span must be > 0, got " + short_text(unit["span"].dump()));
    const nlohmann::json& members = unit["instances"];
    for (size_t m = 0; m < members.size(); ++m) {
      std::string at = path + ".instances[" + std::to_string(m) + "]";
      const nlohmann::json& member = members[m];
      if (!member.is_array() || member.size() != 2 || !member[0].is_string())
        fail(at, "expected [block id, micro-batch], got " + short_text(member.dump()));
      auto block = index.find(member[0].get<std::string>());
      if (block == index.end()) fail(at, "no block '" + member[0].get<std::string>() + "' in the placement");
      spec.members.push_back({block->second, whole_number(member[1], at, 0, 1000000000)});
    }
    if (spec.members.size() < 2) fail(path + ".instances", "a fused unit has at least two members");
    schedule.fused.push_back(std::move(spec));
  }
}

}  // namespace tessel::verify
