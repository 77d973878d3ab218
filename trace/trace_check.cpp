// Conformance and timing of a traced run against its plan (trace/trace_check.hpp).
#include "trace/trace_check.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "model/formats/pytorch_csv.hpp"
#include "model/input_error.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"

namespace tessel {

namespace {

bool is_recompute(const std::string& kind) { return kind == kRecomputeKind; }
bool is_compute(const std::string& kind) {
  return kind == "F" || kind == "B" || kind == "I" || kind == "W" || is_recompute(kind);
}
bool is_comm(const std::string& kind) { return kind.rfind("SEND_", 0) == 0 || kind.rfind("RECV_", 0) == 0; }

// `<stage><kind><micro>` split; the kind is the letters between the numbers.
std::string kind_of(const std::string& name) {
  if (name.rfind(kRecomputeRange, 0) == 0) return kRecomputeKind;
  size_t begin = name.find_first_not_of("0123456789");
  size_t end = name.find_last_not_of("0123456789");
  return begin == std::string::npos ? "" : name.substr(begin, end - begin + 1);
}

std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream in(line);
  std::string cell;
  while (std::getline(in, cell, ','))
    if (!cell.empty()) cells.push_back(cell);
  return cells;
}

// The rank's planned list, held to compute actions when the trace names no
// send or receive on that rank.
std::vector<std::string> expected_for(const std::vector<std::string>& planned, const std::vector<TracedAction>& ran) {
  bool comms = std::any_of(ran.begin(), ran.end(), [](const TracedAction& a) { return is_comm(a.kind); });
  if (comms) return planned;
  std::vector<std::string> compute;
  for (const std::string& name : planned)
    if (is_compute(kind_of(name))) compute.push_back(name);
  return compute;
}

TraceMismatch mismatch_at(int rank, int step, int position, const std::vector<std::string>& planned,
                          const std::string& ran) {
  TraceMismatch m;
  m.conforms = false;
  m.rank = rank, m.step = step, m.position = position;
  m.planned = position < static_cast<int>(planned.size()) ? planned[position] : "";
  m.ran = ran;
  auto found = std::find(planned.begin(), planned.end(), ran);
  m.ran_planned_at = found == planned.end() ? -1 : static_cast<int>(found - planned.begin());
  std::ostringstream out;
  out << "rank " << rank << ", step " << step + 1 << ", action " << position + 1 << ": ";
  if (ran.empty())
    out << "the trace ends where the plan has " << range_name(m.planned);
  else if (m.planned.empty())
    out << "ran " << range_name(ran) << " after the last planned action";
  else
    out << "planned " << range_name(m.planned) << ", ran " << range_name(ran)
        << (m.ran_planned_at < 0 ? " (not in this rank's plan)"
                                 : " (planned as action " + std::to_string(m.ran_planned_at + 1) + ")");
  m.reason = out.str();
  return m;
}

// Whether `inner` lies inside `outer`'s range (a recompute inside its backward).
bool nested(const TracedAction& inner, const TracedAction& outer) {
  return inner.start >= outer.start && inner.start + inner.duration <= outer.start + outer.duration;
}

TraceMismatch outside(int rank, int step, int position, const TracedAction& inner, const TracedAction& outer) {
  TraceMismatch m;
  m.conforms = false;
  m.rank = rank, m.step = step, m.position = position;
  m.planned = m.ran = inner.name;
  m.ran_planned_at = position;
  m.reason = "rank " + std::to_string(rank) + ", step " + std::to_string(step + 1) + ", action " +
             std::to_string(position + 1) + ": " + inner.name + " ran outside " + range_name(outer.name) +
             ", the backward that needs it (a recompute runs inside that backward's range)";
  return m;
}

// The first place, rank by rank, where the trace leaves the plan; sets steps.
TraceMismatch conformance(const std::vector<std::vector<std::string>>& planned,
                          const std::vector<std::vector<TracedAction>>& trace, int& steps) {
  const int ranks = static_cast<int>(planned.size());
  steps = 0;
  if (static_cast<int>(trace.size()) != ranks) {
    TraceMismatch m;
    m.conforms = false;
    m.reason = "the trace has " + std::to_string(trace.size()) + " rank(s), the plan " + std::to_string(ranks);
    return m;
  }
  // The steps run are the whole steps of the rank that ran the most: a rank
  // with actions beyond them ran something extra, one with fewer stopped
  // early (rounding a partial step up instead blamed every other rank for
  // "ending" where one rank ran one action too many).
  for (int r = 0; r < ranks; ++r) {
    size_t per_step = expected_for(planned[r], trace[r]).size();
    if (per_step) steps = std::max(steps, static_cast<int>(trace[r].size() / per_step));
  }
  steps = std::max(steps, 1);
  for (int r = 0; r < ranks; ++r) {
    const std::vector<std::string> expected = expected_for(planned[r], trace[r]);
    const size_t per_step = expected.size();
    for (size_t i = 0; i < trace[r].size(); ++i) {
      int step = per_step ? static_cast<int>(i / per_step) : 0;
      int position = per_step ? static_cast<int>(i % per_step) : static_cast<int>(i);
      if (step >= steps) return mismatch_at(r, steps - 1, static_cast<int>(per_step), expected, trace[r][i].name);
      if (position >= static_cast<int>(per_step) || trace[r][i].name != expected[position])
        return mismatch_at(r, step, position, expected, trace[r][i].name);
    }
    for (size_t i = 0; i < trace[r].size(); ++i)
      if (i > 0 && is_recompute(trace[r][i].kind) && !nested(trace[r][i], trace[r][i - 1]))
        return outside(r, static_cast<int>(i / per_step), static_cast<int>(i % per_step), trace[r][i], trace[r][i - 1]);
    if (trace[r].size() < steps * per_step) {
      size_t i = trace[r].size();
      return mismatch_at(r, static_cast<int>(i / per_step), static_cast<int>(i % per_step), expected, "");
    }
  }
  return TraceMismatch{};
}

}  // namespace

namespace {

int stage_of(const std::string& name) { return std::stoi(name.substr(0, name.find_first_not_of("0123456789"))); }
int micro_of(const std::string& name) { return std::stoi(name.substr(name.find_last_not_of("0123456789") + 1)); }

// Puts `<recompute range>` after the first B or I of (stage, micro), on
// whichever row holds it; false when no row does.
bool insert_recompute(std::vector<std::vector<std::string>>& rows, int stage, int micro) {
  for (std::vector<std::string>& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string kind = kind_of(row[i]);
      if ((kind != "B" && kind != "I") || stage_of(row[i]) != stage || micro_of(row[i]) != micro) continue;
      row.insert(row.begin() + i + 1, kRecomputeRange + std::to_string(stage) + "F" + std::to_string(micro));
      return true;
    }
  return false;
}

}  // namespace

std::vector<std::vector<std::string>> planned_actions(const Schedule& schedule) {
  if (!schedule.transfers.empty())
    throw InputError("", "transfers", "copies to host memory leave no range in a run's trace (tessel run offloads "
                                      "through saved-tensor hooks), so a plan that offloads cannot be checked "
                                      "against one; a plan that recomputes can");
  Schedule compute = schedule;
  compute.recomputes.clear();
  std::stringstream table(write_pytorch_csv_staged(compute, true));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(table, line)) rows.push_back(split_row(line));
  rows.resize(schedule.placement.ndevs);
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = schedule.placement.blocks[run.block];
    if (!block.stage || !insert_recompute(rows, *block.stage, run.micro))
      throw InputError("", "recomputes", "the recompute of block '" + block.id + "', micro-batch " +
                                             std::to_string(run.micro) + " has no backward of its stage to run in");
  }
  return rows;
}

namespace {

// What the timing needs to know of the plan and the trace, by name.
struct TimingIndex {
  std::map<std::string, Time> span;  // "<stage><kind>" -> planned span (steps)
  std::map<int, int> rank_of_stage;
  int stages = 0;
  // (step, action name) -> the traced action (names are unique per step)
  std::map<std::pair<int, std::string>, const TracedAction*> ran;
  std::map<const TracedAction*, double> nested;  // time of the recompute inside a backward
  std::vector<std::vector<std::vector<const TracedAction*>>> by_step;  // [rank][step] actions
};

std::string block_key(const TracedAction& a) { return std::to_string(a.stage) + a.kind; }

TimingIndex index_of(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace, int steps) {
  TimingIndex index;
  for (const Block& block : schedule.placement.blocks) {
    if (!block.stage) continue;
    const char* letter = block.kind == BlockKind::Forward ? "F" : block.kind == BlockKind::Backward ? "B"
                       : block.kind == BlockKind::BackwardInput ? "I" : "W";
    index.span[std::to_string(*block.stage) + letter] = block.span;
    if (block.recompute) index.span[std::to_string(*block.stage) + kRecomputeKind] = block.recompute->span;
    index.rank_of_stage[*block.stage] = block.devices.front();
    index.stages = std::max(index.stages, *block.stage + 1);
  }
  index.by_step.assign(trace.size(), std::vector<std::vector<const TracedAction*>>(steps));
  for (size_t r = 0; r < trace.size(); ++r) {
    size_t per_step = (trace[r].size() + steps - 1) / steps;
    for (size_t i = 0; i < trace[r].size(); ++i) {
      int step = static_cast<int>(i / std::max<size_t>(per_step, 1));
      index.by_step[r][step].push_back(&trace[r][i]);
      index.ran[{step, trace[r][i].name}] = &trace[r][i];
      if (i > 0 && is_recompute(trace[r][i].kind)) index.nested[&trace[r][i - 1]] += trace[r][i].duration;
    }
  }
  return index;
}

// An action's time without the recompute nested in it.
double own_time(const TimingIndex& index, const TracedAction& a) {
  auto inside = index.nested.find(&a);
  return a.duration - (inside == index.nested.end() ? 0.0 : inside->second);
}

double median_scale(const TimingIndex& index) {
  std::vector<double> ratios;
  for (const auto& entry : index.ran) {
    const TracedAction& a = *entry.second;
    auto span = index.span.find(block_key(a));
    if (is_compute(a.kind) && span != index.span.end() && span->second > 0)
      ratios.push_back(own_time(index, a) / static_cast<double>(span->second));
  }
  if (ratios.empty()) return 0;
  std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
  return ratios[ratios.size() / 2];
}

// The traced action another rank must finish before `a` can run, or null.
const TracedAction* remote_producer(const TimingIndex& index, const TracedAction& a, int step) {
  std::vector<std::string> names;
  if (a.kind == "F" && a.stage > 0) names = {std::to_string(a.stage - 1) + "F" + std::to_string(a.micro)};
  if ((a.kind == "B" || a.kind == "I") && a.stage + 1 < index.stages)
    for (const char* k : {"B", "I"}) names.push_back(std::to_string(a.stage + 1) + k + std::to_string(a.micro));
  if (a.kind == "RECV_F") names = {std::to_string(a.stage - 1) + "SEND_F" + std::to_string(a.micro)};
  if (a.kind == "RECV_B") names = {std::to_string(a.stage + 1) + "SEND_B" + std::to_string(a.micro)};
  for (const std::string& name : names) {
    auto found = index.ran.find({step, name});
    if (found != index.ran.end() && found->second->rank != a.rank) return found->second;
  }
  return nullptr;
}

// One rank's share of one step window [begin, end).
void account(const TimingIndex& index, double scale, int step, const std::vector<const TracedAction*>& actions,
             double begin, double end, RankTime& time) {
  double cursor = begin;
  for (const TracedAction* a : actions) {
    if (is_recompute(a->kind)) {  // inside its backward: compute, no gap, the cursor already past it
      time.compute += a->duration;
      time.recompute += a->duration;
      auto span = index.span.find(block_key(*a));
      if (span != index.span.end()) time.over_plan += std::max(0.0, a->duration - scale * span->second);
      continue;
    }
    const TracedAction* producer = remote_producer(index, *a, step);
    double gap = std::max(0.0, a->start - cursor);
    double waited = 0;
    if (producer && is_compute(a->kind))
      waited = std::clamp(producer->start + producer->duration - cursor, 0.0, gap);
    time.dependency_wait += waited;
    time.other += gap - waited;
    if (is_compute(a->kind)) {
      time.compute += own_time(index, *a);
      auto span = index.span.find(block_key(*a));
      if (span != index.span.end()) time.over_plan += std::max(0.0, own_time(index, *a) - scale * span->second);
    } else if (a->kind.rfind("RECV_", 0) == 0) {
      double before_send = producer ? std::clamp(producer->start - a->start, 0.0, a->duration) : 0.0;
      time.receive_wait += before_send;
      time.communication += a->duration - before_send;
    } else {
      time.communication += a->duration;
    }
    cursor = std::max(cursor, a->start + a->duration);
  }
  time.other += std::max(0.0, end - cursor);
  time.window += end - begin;
}

void time_run(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace, TraceCheck& check) {
  const TimingIndex index = index_of(schedule, trace, check.steps);
  check.scale = median_scale(index);
  check.rank_times.assign(trace.size(), RankTime{});
  for (size_t r = 0; r < trace.size(); ++r) check.rank_times[r].rank = static_cast<int>(r);
  std::vector<SlowAction> slow;
  for (int step = 0; step < check.steps; ++step) {
    double begin = 1e300, end = -1e300;
    for (size_t r = 0; r < trace.size(); ++r)
      for (const TracedAction* a : index.by_step[r][step])
        begin = std::min(begin, a->start), end = std::max(end, a->start + a->duration);
    if (begin > end) continue;
    check.step_times.push_back(end - begin);
    for (size_t r = 0; r < trace.size(); ++r) {
      account(index, check.scale, step, index.by_step[r][step], begin, end, check.rank_times[r]);
      for (const TracedAction* a : index.by_step[r][step]) {
        auto span = index.span.find(block_key(*a));
        if (!is_compute(a->kind) || span == index.span.end() || check.scale <= 0) continue;
        double planned = check.scale * span->second;
        slow.push_back({a->rank, step, a->name, own_time(index, *a), planned, own_time(index, *a) / planned});
      }
    }
  }
  std::stable_sort(slow.begin(), slow.end(), [](const SlowAction& a, const SlowAction& b) { return a.ratio > b.ratio; });
  if (slow.size() > 5) slow.resize(5);
  check.slowest = slow;
}

}  // namespace

TraceCheck check_trace(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace) {
  TraceCheck check;
  const std::vector<std::vector<std::string>> planned = planned_actions(schedule);
  check.ranks = static_cast<int>(planned.size());
  check.planned_makespan = makespan(schedule);
  // With recomputation or offload offered, the memory arguments (which assume
  // every activation kept) do not bound the plan: only the bound without them.
  check.lower_bound = offers_memory_choice(schedule.placement)
                          ? makespan_lower_bound(schedule.placement, schedule.nmicros)
                          : makespan_lower_bound(schedule.placement, schedule.nmicros, schedule.memory_limit);
  check.mismatch = conformance(planned, trace, check.steps);
  if (check.mismatch.conforms) time_run(schedule, trace, check);
  return check;
}

}  // namespace tessel
