// Reading PP: ranges out of Chrome traces (model/formats/chrome_trace_read.hpp).
#include "model/formats/chrome_trace_read.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "model/input_error.hpp"
#include "model/json_file.hpp"

namespace tessel {

namespace {

using nlohmann::json;

const json& events_of(const json& document, const std::string& file) {
  if (document.is_array()) return document;
  if (document.is_object() && document.contains("traceEvents") && document["traceEvents"].is_array())
    return document["traceEvents"];
  throw InputError(file, "traceEvents", "not a Chrome trace (a list of events, or an object with \"traceEvents\")");
}

bool is_recompute_range(const std::string& name) { return name.rfind(kRecomputeRange, 0) == 0; }

TracedAction parse_action(const json& event, const std::string& file, size_t index) {
  static const std::regex cell(R"(^(\d+)([A-Z_]+?)(\d+)$)");
  static const std::regex forward(R"(^(\d+)(F)(\d+)$)");
  const std::string field = "traceEvents[" + std::to_string(index) + "]";
  const std::string full = event["name"].get<std::string>();
  const bool recompute = is_recompute_range(full);
  const std::string name = recompute ? full.substr(std::string(kRecomputeRange).size()) : full.substr(3);
  std::smatch match;
  if (recompute && (!std::regex_match(name, match, forward) || match[1].length() > 6 || match[3].length() > 9))
    throw InputError(file, field + ".name", "'" + full + "' is not " + kRecomputeRange + "<stage>F<micro-batch>");
  if (!recompute && (!std::regex_match(name, match, cell) || match[1].length() > 6 || match[3].length() > 9))
    throw InputError(file, field + ".name", "'PP:" + name + "' is not PP:<stage><action><micro-batch> (PP:0F1)");
  if (!event.contains("ts") || !event["ts"].is_number() || !event.contains("dur") || !event["dur"].is_number())
    throw InputError(file, field, "the range '" + full + "' has no numeric ts and dur");
  TracedAction action;
  action.name = recompute ? full : name;
  action.stage = std::stoi(match[1].str());
  action.kind = recompute ? kRecomputeKind : match[2].str();
  action.micro = std::stoi(match[3].str());
  action.start = event["ts"].get<double>();
  action.duration = event["dur"].get<double>();
  if (action.duration < 0) throw InputError(file, field + ".dur", "negative duration");
  return action;
}

bool is_action(const json& event) {
  if (!event.is_object() || !event.contains("name") || !event["name"].is_string()) return false;
  if (!event.contains("ph") || event["ph"] != "X") return false;
  const std::string& name = event["name"].get_ref<const std::string&>();
  return name.rfind("PP:", 0) == 0 || is_recompute_range(name);
}

void order_by_start(std::vector<TracedAction>& actions) {
  std::stable_sort(actions.begin(), actions.end(), [](const TracedAction& a, const TracedAction& b) {
    if (a.start != b.start) return a.start < b.start;
    return a.duration > b.duration;
  });
}

// The rank a per-rank file declares, or the last number in its name.
int rank_of_file(const json& document, const std::filesystem::path& path) {
  for (const char* key : {"otherData", "distributedInfo"})
    if (document.is_object() && document.contains(key) && document[key].is_object() &&
        document[key].contains("rank") && document[key]["rank"].is_number_integer())
      return document[key]["rank"].get<int>();
  static const std::regex number(R"((\d+)\D*$)");
  std::smatch match;
  const std::string stem = path.stem().string();
  if (std::regex_search(stem, match, number)) return std::stoi(match[1].str());
  throw InputError(path.string(), "", "cannot tell this trace's rank: no otherData.rank and no number in its name");
}

}  // namespace

std::vector<TracedAction> read_traced_actions(const std::string& text, const std::string& file, int rank) {
  const json document = parse_json_text(text, file);
  const json& events = events_of(document, file);
  std::vector<TracedAction> actions;
  std::map<std::string, int> process;  // pid as text -> rank (several-rank files)
  for (size_t i = 0; i < events.size(); ++i) {
    if (!is_action(events[i])) continue;
    TracedAction action = parse_action(events[i], file, i);
    action.rank = rank;
    if (rank < 0) process.emplace(events[i].contains("pid") ? events[i]["pid"].dump() : "", 0);
    actions.push_back(action);
  }
  if (rank < 0) {
    // Integer pids sort numerically (their JSON text, padded), others as text.
    std::vector<std::pair<std::string, std::string>> keys;
    for (auto& entry : process) {
      std::string key = entry.first;
      if (!key.empty() && std::all_of(key.begin(), key.end(), ::isdigit)) key = std::string(20 - key.size(), '0') + key;
      keys.push_back({key, entry.first});
    }
    std::sort(keys.begin(), keys.end());
    for (size_t r = 0; r < keys.size(); ++r) process[keys[r].second] = static_cast<int>(r);
    size_t k = 0;
    for (size_t i = 0; i < events.size(); ++i)
      if (is_action(events[i])) actions[k++].rank = process[events[i].contains("pid") ? events[i]["pid"].dump() : ""];
  }
  order_by_start(actions);
  return actions;
}

std::vector<std::vector<TracedAction>> read_trace_ranks(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  std::vector<std::vector<TracedAction>> ranks;
  auto text_of = [](const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw InputError(file.string(), "", "cannot read the trace");
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
  };
  if (!fs::is_directory(path, error)) {
    if (!fs::is_regular_file(path, error)) throw InputError(path, "", "no such trace file or directory");
    for (TracedAction& action : read_traced_actions(text_of(path), path, -1)) {
      if (action.rank >= static_cast<int>(ranks.size())) ranks.resize(action.rank + 1);
      ranks[action.rank].push_back(action);
    }
    if (ranks.empty()) throw InputError(path, "", "no PP: action ranges in the trace");
    return ranks;
  }
  std::map<int, fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
    if (entry.path().extension() != ".json" || entry.path().filename().string()[0] == '.') continue;
    std::string text = text_of(entry.path());
    int rank = rank_of_file(parse_json_text(text, entry.path().string()), entry.path());
    if (rank < 0 || rank > 100000) throw InputError(entry.path().string(), "rank", "out of range");
    if (!files.emplace(rank, entry.path()).second)
      throw InputError(entry.path().string(), "rank", "rank " + std::to_string(rank) + " also in " + files[rank].string());
    if (rank >= static_cast<int>(ranks.size())) ranks.resize(rank + 1);
    ranks[rank] = read_traced_actions(text, entry.path().string(), rank);
  }
  if (ranks.empty()) throw InputError(path, "", "no *.json trace files in the directory");
  for (size_t r = 0; r < ranks.size(); ++r)
    if (!files.count(static_cast<int>(r)))
      throw InputError(path, "", "no trace of rank " + std::to_string(r) + " (ranks 0.." +
                                     std::to_string(ranks.size() - 1) + " expected)");
  return ranks;
}

}  // namespace tessel
