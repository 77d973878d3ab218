// Reading and writing the memory choices of a `tessel.schedule/1` file
// (docs/formats.md, "Memory traded for time"): the marks on forward
// instances ("recompute": true, "offload": true) and the lists "recomputes"
// and "transfers". The model's reader is strict: a mark without its runs, a
// run without its mark, a choice the placement does not offer or a
// duplicate is bad input. (The verifier reads the same fields on its own and
// reports such schedules as invalid instead.)
#pragma once

#include <map>
#include <set>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/json_file.hpp"
#include "model/schedule.hpp"

namespace tessel {

struct ReadChoiceRun {
  int block = 0;
  int micro = 0;
  int kind = 0;  // 0 recompute, 1 copy out, 2 copy in
  Decimal start;
  JsonPlace place;
};

struct ReadChoices {
  std::vector<ReadChoiceRun> runs;
  std::set<std::pair<int, int>> marked_recompute, marked_offload;  // (block, micro)
  std::map<std::pair<int, int>, JsonPlace> mark_place;
};

// Reads the optional boolean marks of one instance entry.
void read_instance_marks(const nlohmann::json& entry, int block, int micro, ReadChoices& choices,
                         const JsonPlace& place);

// Reads the optional "recomputes" and "transfers" lists.
void read_choice_lists(const nlohmann::json& document, const std::map<std::string, int>& index, long long nmicros,
                       ReadChoices& choices, const JsonPlace& place);

// Puts the runs on the schedule (whose placement is scaled to
// `time_decimals`) after checking them against the marks and the offers.
void place_choices(const ReadChoices& choices, int time_decimals, Schedule& schedule, const JsonPlace& place);

// Adds the marks to the written instances (in schedule.instances order) and
// the two lists, when the schedule has choices.
void choices_to_json(const Schedule& schedule, nlohmann::json& document);

}  // namespace tessel
