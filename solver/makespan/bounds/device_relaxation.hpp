// The one-device relaxation (part of the makespan lower bound,
// solver/makespan/closed_bound/makespan_bound): keep one device whole over the whole horizon (its
// blocks never overlap, its memory stays within the limit at every step)
// and relax every other device to unlimited capacity. What is left of the
// others is time: an instance cannot start before the chains that lead to
// it (its head), must leave room for the chains after it (its tail), and
// two instances of the kept device of one micro-batch are as far apart as
// the longest chain between them (a time lag through the other devices).
// Copies of a block run in micro-batch order (the full search's symmetry,
// which keeps every dependency and memory curve), so a head and a tail
// also count the block's earlier and later copies on its own device.
//
// Every schedule of the real problem is a schedule of this one with the
// same makespan, so its least makespan is a lower bound. It sees what the
// formulas and the exact ends, which look at one end at a time, do not: a
// device whose memory fills while the first micro-batches travel, and
// which must keep enough of it for the last ones (V-Half and V-Min at their
// own peaks: the forwards of the last micro-batches wait for memory that
// only the backwards of the first ones free, and those come back only
// after the whole round trip through the other devices).
//
// The questions "makespan <= T?" go to a backend under a deadline; an
// undecided question leaves the bound lower (still a bound).
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "model/schedule.hpp"
#include "solver/makespan/bounds/device_relaxation_input.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct DeviceRelaxation {
  long long value = 0;  // the least makespan proven (0: nothing above the floor)
  int device = -1;
  bool complete = false;  // every device asked had its least makespan decided
};

// The least makespan of `device`'s relaxation, as far as decided before the
// deadline (a lower bound on it); at most `input.target`, at least the floor.
long long device_relaxation_least(const DeviceRelaxationInput& input, int device);

// The best such bound over the devices (first_device, then the highest
// load first), until one reaches the target or the deadline strikes.
DeviceRelaxation device_relaxation_bound(const DeviceRelaxationInput& input);

// `bound` raised by the relaxation for `best`, a makespan in hand, within
// options.relaxation_seconds and at most `left_share` of the time left;
// asked by the exact ends' rule (exact_ends_ask: `best` above `bound` by at
// most one micro-batch's critical path).
MakespanBound raised_by_device_relaxation(const Placement& placement, long long total_micros, const SearchOptions& options,
                                          long long best, const MakespanBound& bound, double left_share,
                                          const Schedule* hint = nullptr);

}  // namespace tessel
