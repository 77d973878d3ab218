// Hand-made traces of a plan's schedule for the trace checker's tests: each
// rank runs its planned list (the comms table) in order, as `tessel run`
// does: sends and receives are posted (1 us each), a compute action starts
// no earlier than its planned start (100 us per step) nor before the send
// of the data it received, and lasts its planned span; any compute action
// can be made slower. A planned recompute runs at the start of the backward
// it follows, which grows by the offer's span (as `tessel run` nests it).
// What a real run's trace looks like, with known answers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/formats/chrome_trace_read.hpp"
#include "model/schedule.hpp"
#include "trace/trace_check.hpp"

namespace tessel::testing {

constexpr double kMicrosPerStep = 100;

inline TracedAction action_named(int rank, const std::string& name) {
  TracedAction a;
  a.rank = rank;
  a.name = name;
  if (name.rfind(kRecomputeRange, 0) == 0) {  // `tessel:recompute <stage>F<micro>`
    const std::string cell = name.substr(std::string(kRecomputeRange).size());
    a.kind = kRecomputeKind;
    a.stage = std::stoi(cell.substr(0, cell.find('F')));
    a.micro = std::stoi(cell.substr(cell.find('F') + 1));
    return a;
  }
  size_t begin = name.find_first_not_of("0123456789"), end = name.find_last_not_of("0123456789");
  a.stage = std::stoi(name.substr(0, begin));
  a.kind = name.substr(begin, end - begin + 1);
  a.micro = std::stoi(name.substr(end + 1));
  return a;
}

// `slower`: action name -> factor on its planned time (compute only).
inline std::vector<std::vector<TracedAction>> simulated_trace(const Schedule& schedule,
                                                              const std::map<std::string, double>& slower = {}) {
  const auto planned = planned_actions(schedule);
  std::map<std::string, std::pair<double, double>> plan_time;  // name -> (start, duration)
  for (const Instance& instance : schedule.instances) {
    const Block& block = schedule.placement.blocks[instance.block];
    const char* letter = block.kind == BlockKind::Forward ? "F" : block.kind == BlockKind::Backward ? "B"
                       : block.kind == BlockKind::BackwardInput ? "I" : "W";
    plan_time[std::to_string(*block.stage) + letter + std::to_string(instance.micro)] = {
        instance.start * kMicrosPerStep, block.span * kMicrosPerStep};
  }
  std::vector<std::vector<TracedAction>> trace(planned.size());
  std::vector<size_t> next(planned.size(), 0);
  std::vector<double> cursor(planned.size(), 0);
  std::map<std::string, double> sent;  // "<receiver stage><F|B><micro>" -> send start
  std::vector<std::map<std::string, bool>> posted(planned.size());  // per rank: receives posted
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t r = 0; r < planned.size(); ++r) {
      while (next[r] < planned[r].size()) {
        TracedAction a = action_named(static_cast<int>(r), planned[r][next[r]]);
        a.start = cursor[r], a.duration = 1;
        if (a.kind == kRecomputeKind) {  // nested at the start of the backward before it
          TracedAction& backward = trace[r].back();
          a.start = backward.start;
          for (const Block& block : schedule.placement.blocks)
            if (block.recompute && block.stage == a.stage) a.duration = block.recompute->span * kMicrosPerStep;
          backward.duration += a.duration;
          cursor[r] = backward.start + backward.duration;
          trace[r].push_back(a);
          ++next[r];
          progress = true;
          continue;
        }
        if (a.kind == "RECV_F" || a.kind == "RECV_B") {
          posted[r][std::to_string(a.stage) + a.kind.back() + std::to_string(a.micro)] = true;
        } else if (a.kind == "SEND_F" || a.kind == "SEND_B") {
          int to = a.kind == "SEND_F" ? a.stage + 1 : a.stage - 1;
          sent[std::to_string(to) + a.kind.back() + std::to_string(a.micro)] = a.start;
        } else {
          auto [start, duration] = plan_time.at(a.name);
          auto factor = slower.find(a.name);
          a.start = std::max(cursor[r], start);
          const std::string needs = std::to_string(a.stage) + (a.kind == "F" ? "F" : "B") + std::to_string(a.micro);
          if (a.kind != "W" && posted[r].count(needs)) {
            auto found = sent.find(needs);
            if (found == sent.end()) break;  // its data has not been sent yet
            a.start = std::max(a.start, found->second + 1);
          }
          a.duration = duration * (factor == slower.end() ? 1.0 : factor->second);
        }
        cursor[r] = a.start + a.duration;
        trace[r].push_back(a);
        ++next[r];
        progress = true;
      }
    }
  }
  return trace;
}

}  // namespace tessel::testing
