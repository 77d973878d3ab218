// Text and JSON of a trace check. Times are printed in milliseconds (the
// traces hold microseconds); the planned makespan and the bound are given
// in steps and, through the run's scale, in milliseconds beside the
// achieved step time.
#include "trace/trace_report.hpp"

#include <cstdio>
#include <sstream>

namespace tessel {

namespace {

std::string ms(double microseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f ms", microseconds / 1000.0);
  return text;
}

std::string us(double microseconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g us", microseconds);
  return text;
}

std::string share(double part, double whole) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0f%%", whole > 0 ? 100.0 * part / whole : 0.0);
  return text;
}

void rank_line(std::ostringstream& out, const RankTime& t) {
  out << "  rank " << t.rank << ": compute " << ms(t.compute) << " (" << ms(t.over_plan) << " over plan";
  if (t.recompute > 0) out << "; recomputing " << ms(t.recompute);
  out << "), "
      << "communication " << ms(t.communication) << ", waiting for a receive " << ms(t.receive_wait)
      << ", waiting for a dependency " << ms(t.dependency_wait) << ", other " << ms(t.other) << " ("
      << share(t.other, t.window) << " of " << ms(t.window) << ")\n";
}

// The rank that lost the most to compute over its plan, and to waiting.
void attribution(std::ostringstream& out, const TraceCheck& check) {
  if (check.rank_times.empty()) return;
  const RankTime* slow = &check.rank_times.front();
  const RankTime* waits = slow;
  for (const RankTime& t : check.rank_times) {
    if (t.over_plan > slow->over_plan) slow = &t;
    if (t.receive_wait + t.dependency_wait > waits->receive_wait + waits->dependency_wait) waits = &t;
  }
  out << "most compute over plan: rank " << slow->rank << " (" << ms(slow->over_plan) << ")";
  if (!check.slowest.empty()) {
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2fx", check.slowest.front().ratio);
    out << ", slowest action " << range_name(check.slowest.front().name) << " on rank " << check.slowest.front().rank
        << " at " << ratio << " its planned time";
  }
  out << "; most waiting: rank " << waits->rank << " (" << ms(waits->receive_wait + waits->dependency_wait) << ")\n";
}

}  // namespace

std::string trace_check_text(const TraceCheck& check) {
  std::ostringstream out;
  if (!check.mismatch.conforms) {
    out << "does not conform to the plan: " << check.mismatch.reason << "\n";
    return out.str();
  }
  out << "conforms: " << check.ranks << " rank(s), " << check.steps << " step(s), every action in its planned order\n";
  out << "step time:";
  for (double t : check.step_times) out << " " << ms(t);
  out << "\nplanned makespan " << check.planned_makespan << " steps = " << ms(check.scale * check.planned_makespan)
      << ", lower bound " << check.lower_bound << " steps = " << ms(check.scale * check.lower_bound) << " (scale "
      << us(check.scale) << " per step: the median compute action's time per planned step)\n";
  out << "where the time went, per rank (all steps):\n";
  for (const RankTime& t : check.rank_times) rank_line(out, t);
  out << "slowest actions against plan:";
  for (const SlowAction& s : check.slowest) {
    char ratio[16];
    std::snprintf(ratio, sizeof ratio, "%.2fx", s.ratio);
    out << " " << range_name(s.name) << " (rank " << s.rank << ", step " << s.step + 1 << ", " << ratio << ")";
  }
  out << "\n";
  attribution(out, check);
  return out.str();
}

nlohmann::json trace_check_json(const TraceCheck& check) {
  nlohmann::json out = {{"conforms", check.mismatch.conforms}, {"ranks", check.ranks}, {"steps", check.steps}};
  if (!check.mismatch.conforms) {
    const TraceMismatch& m = check.mismatch;
    out["mismatch"] = {{"rank", m.rank}, {"step", m.step}, {"position", m.position}, {"planned", m.planned},
                       {"ran", m.ran}, {"ran_planned_at", m.ran_planned_at}, {"reason", m.reason}};
    return out;
  }
  out["step_times_us"] = check.step_times;
  out["scale_us_per_step"] = check.scale;
  out["planned_makespan_steps"] = check.planned_makespan;
  out["lower_bound_steps"] = check.lower_bound;
  out["planned_makespan_us"] = check.scale * check.planned_makespan;
  out["lower_bound_us"] = check.scale * check.lower_bound;
  nlohmann::json ranks = nlohmann::json::array();
  for (const RankTime& t : check.rank_times)
    ranks.push_back({{"rank", t.rank}, {"window_us", t.window}, {"compute_us", t.compute},
                     {"over_plan_us", t.over_plan}, {"recompute_us", t.recompute}, {"communication_us", t.communication},
                     {"receive_wait_us", t.receive_wait}, {"dependency_wait_us", t.dependency_wait},
                     {"other_us", t.other}});
  out["rank_times"] = ranks;
  nlohmann::json slow = nlohmann::json::array();
  for (const SlowAction& s : check.slowest)
    slow.push_back({{"rank", s.rank}, {"step", s.step}, {"action", s.name}, {"achieved_us", s.achieved},
                    {"planned_us", s.planned}, {"ratio", s.ratio}});
  out["slowest"] = slow;
  return out;
}

}  // namespace tessel
