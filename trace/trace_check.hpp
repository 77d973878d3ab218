// A pipeline run checked against its plan: the `PP:` action ranges of each
// rank's trace (model/formats/chrome_trace_read.hpp) matched to the plan's
// schedule (docs/runtime.md).
//
// The planned sequence of a rank is the plan's comms table
// (schedule_comms.csv; the same lowering: write_pytorch_csv_staged with
// sends and receives), so a run must have run every compute action and
// every send and receive in that order, once per training step; a trace
// without any send or receive range (a runtime that does not name them) is
// held to the compute actions alone.
//
// The timing compares the run with the plan on one scale: the median, over
// compute actions, of measured time per planned step (so one slow action
// does not move it). Per rank the step window is split into compute (and
// how much of it went over its planned time), communication (sends, and
// receives once the peer had sent), waiting for a receive (a receive posted
// before the peer's send started), waiting for a dependency (idle until a
// compute action's producer on another rank had finished) and the rest.
#pragma once

#include <string>
#include <vector>

#include "model/formats/chrome_trace_read.hpp"
#include "model/schedule.hpp"

namespace tessel {

// Where the run left the plan; `conforms` is true when nowhere.
struct TraceMismatch {
  bool conforms = true;
  int rank = -1;
  int step = 0;          // 0-based training step
  int position = 0;      // 0-based position in the rank's planned list of that step
  std::string planned;   // the planned action there ("" when the trace has more than planned)
  std::string ran;       // what the trace ran there ("" when it ended early)
  int ran_planned_at = -1;  // where the plan has `ran` in this rank's list, -1 nowhere
  std::string reason;       // one sentence
};

struct RankTime {
  int rank = 0;
  double window = 0;             // the steps' windows, summed (microseconds)
  double compute = 0;            // compute ranges
  double over_plan = 0;          // part of compute beyond scale x planned span
  double communication = 0;      // sends, and receives after the peer had sent
  double receive_wait = 0;       // receives before the peer's send started
  double dependency_wait = 0;    // idle until a remote producer had finished
  double other = 0;              // the rest: overhead, idle without a reason found
};

struct SlowAction {
  int rank = 0;
  int step = 0;
  std::string name;
  double achieved = 0;  // microseconds
  double planned = 0;   // scale x span
  double ratio = 0;
};

struct TraceCheck {
  TraceMismatch mismatch;
  int ranks = 0;
  int steps = 0;                    // training steps found in the trace
  std::vector<double> step_times;   // microseconds, per step: first start to last end over all ranks
  double scale = 0;                 // microseconds per planned step
  long long planned_makespan = 0;   // steps
  long long lower_bound = 0;        // steps (solver/makespan/closed_bound/makespan_bound: proven lower bound)
  std::vector<RankTime> rank_times;
  std::vector<SlowAction> slowest;  // the slowest compute actions against plan, worst first (at most 5)
};

// The planned action list of each rank (the comms table's rows). Throws
// InputError when the schedule cannot be lowered (blocks without stages,
// fused units).
std::vector<std::vector<std::string>> planned_actions(const Schedule& schedule);

// Conformance, then (when the trace conforms) the timing.
TraceCheck check_trace(const Schedule& schedule, const std::vector<std::vector<TracedAction>>& trace);

}  // namespace tessel
