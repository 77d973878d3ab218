// A mirrored chain's period by dynamic programming over its levels (see the
// header for the idea and why least gaps suffice).
#include "solver/period/chain_period.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <limits>
#include <thread>

#include "solver/period/circle.hpp"

namespace tessel {
namespace {

constexpr long long kNone = std::numeric_limits<long long>::max() / 4;

// Inner steps of the program are counted as levels x 2 P^3 per phase
// choice; the phases the all-device blocks leave free make the real count
// several times smaller (nnshape, 64 devices, period 11: 720 choices, 1.3e8
// steps counted, 0.04 s), so the developer knob program_steps_per_second
// (3e9, solver/knobs/tuning.hpp) makes about a second of them.

double per_choice_steps(const MirroredChain& chain, int period) {
  return (chain.blocks.size() / 2.0 + 1) * 2.0 * std::pow(period, 3.0);
}

bool on_every_device(const Block& block, int ndevs) { return static_cast<int>(block.devices.size()) == ndevs; }

// The level's cap on the micro-batches its pair holds, kNone for none; -2
// when the level's memory is not one pair on one device.
long long level_cap(const Placement& placement, const std::vector<long long>& memory_limit, int first, int second) {
  const Block& a = placement.blocks[first];
  const Block& b = placement.blocks[second];
  if (a.memory == 0 && b.memory == 0) return kNone;
  if (first == second || a.devices.size() != 1 || a.devices != b.devices || a.memory + b.memory != 0) return -2;
  // A pair that frees before it allocates never holds more than nothing.
  if (a.memory < 0 || memory_limit.empty()) return kNone;
  return memory_limit[a.devices[0]] / a.memory;
}

// The dynamic program for one period (see the header): blocks' phases
// fixed or free, levels from the middle outward.
class ChainProgram {
 public:
  ChainProgram(const Placement& placement, const MirroredChain& chain, int period, int max_in_flight)
      : placement_(placement), chain_(chain), period_(period), max_in_flight_(max_in_flight),
        n_(static_cast<int>(chain.blocks.size())), pairs_(n_ / 2), middle_(n_ % 2 == 1) {}

  // The least latency with the all-device blocks at `phases` (one per
  // chain.all_device), kNone when no repetend has them; with `rebuild`, the
  // starts of that repetend too. The deadline is looked at between levels
  // (one choice of a long chain at a long period takes seconds: vshape, 256
  // devices); nullopt when it struck.
  std::optional<long long> least_latency(const std::vector<int>& phases, std::vector<int>* rebuild,
                                         const Deadline& deadline) {
    allowed_phases(phases);
    if (pairs_ == 0) return single_block(rebuild);
    choices_x_.assign(pairs_, {});
    choices_y_.assign(pairs_, {});
    std::vector<long long> value = innermost(rebuild != nullptr);
    for (int level = pairs_ - 2; level >= 0; --level) {
      if (deadline.expired()) return std::nullopt;
      value = outward(level, value, rebuild != nullptr);
    }
    long long best = kNone;
    int best_state = -1;
    for (int state = 0; state < period_ * period_; ++state) {
      if (value[state] >= kNone) continue;
      const long long latency = value[state] + span(chain_.blocks[n_ - 1]);
      if (latency > static_cast<long long>(max_in_flight_) * period_ || latency >= best) continue;
      best = latency;
      best_state = state;
    }
    if (rebuild && best_state >= 0) *rebuild = starts_from(best_state);
    return best;
  }

 private:
  Time span(int block) const { return placement_.blocks[block].span; }

  // Each chain position's phases: an all-device block's own, a one-device
  // block's those clear of every all-device block.
  void allowed_phases(const std::vector<int>& phases) {
    fixed_.assign(placement_.blocks.size(), -1);
    for (size_t i = 0; i < chain_.all_device.size(); ++i) fixed_[chain_.all_device[i]] = phases[i];
    allowed_.assign(n_, {});
    for (int position = 0; position < n_; ++position) {
      const int block = chain_.blocks[position];
      if (fixed_[block] >= 0) {
        allowed_[position] = {fixed_[block]};
        continue;
      }
      for (int x = 0; x < period_; ++x) {
        bool clear = true;
        for (size_t i = 0; i < chain_.all_device.size() && clear; ++i)
          clear = !arcs_meet(x, span(block), phases[i], span(chain_.all_device[i]), period_);
        if (clear) allowed_[position].push_back(x);
      }
    }
  }

  // The level's two blocks may take phases x and y: apart on a shared device.
  bool compatible(int level, int x, int y) const {
    const Block& a = placement_.blocks[chain_.blocks[level]];
    const Block& b = placement_.blocks[chain_.blocks[n_ - 1 - level]];
    if (a.devices.size() != 1 || a.devices != b.devices) return true;  // all-device phases are apart already
    return !arcs_meet(x, a.span, y, b.span, period_);
  }

  long long hold_cap(int level) const {
    const long long cap = chain_.held_caps[level];
    return cap < 0 ? kNone : cap * period_;
  }

  std::vector<long long> gap_table(Time least) const {
    std::vector<long long> table(period_);
    for (int residue = 0; residue < period_; ++residue) table[residue] = least_gap(least, residue, period_);
    return table;
  }

  // The innermost pair: its hold is the gap between its blocks, through the
  // middle block when the chain is odd.
  std::vector<long long> innermost(bool record) {
    const int level = pairs_ - 1;
    std::vector<long long> value(period_ * period_, kNone);
    if (record) middle_choice_.assign(period_ * period_, -1);
    const std::vector<long long> first = gap_table(chain_.least_gaps[level]);
    const std::vector<long long> second = middle_ ? gap_table(chain_.least_gaps[level + 1]) : first;
    for (int x : allowed_[level])
      for (int y : allowed_[n_ - 1 - level]) {
        if (!compatible(level, x, y)) continue;
        long long hold = kNone;
        if (!middle_) {
          hold = first[modulo(y - x, period_)];
        } else {
          for (int z : allowed_[level + 1]) {
            const long long through = first[modulo(z - x, period_)] + second[modulo(y - z, period_)];
            if (through >= hold) continue;
            hold = through;
            if (record) middle_choice_[x * period_ + y] = z;
          }
        }
        if (hold <= hold_cap(level)) value[x * period_ + y] = hold;
      }
    return value;
  }

  // From the level inside `level` to `level`: the forward gap first (over
  // the inner x), then the backward gap (over the inner y), each O(P^3).
  std::vector<long long> outward(int level, const std::vector<long long>& inner, bool record) {
    const int p = period_;
    const std::vector<long long> forward = gap_table(chain_.least_gaps[level]);
    const std::vector<long long> backward = gap_table(chain_.least_gaps[n_ - 2 - level]);
    std::vector<long long> through(p * p, kNone), value(p * p, kNone);
    if (record) {
      choices_x_[level].assign(p * p, -1);
      choices_y_[level].assign(p * p, -1);
    }
    for (int x_out : allowed_[level])
      for (int y = 0; y < p; ++y)
        for (int x = 0; x < p; ++x) {
          if (inner[x * p + y] >= kNone) continue;
          const long long hold = inner[x * p + y] + forward[modulo(x - x_out, p)];
          if (hold >= through[x_out * p + y]) continue;
          through[x_out * p + y] = hold;
          if (record) choices_x_[level][x_out * p + y] = x;
        }
    const long long cap = hold_cap(level);
    for (int x_out : allowed_[level])
      for (int y_out : allowed_[n_ - 1 - level]) {
        if (!compatible(level, x_out, y_out)) continue;
        for (int y = 0; y < p; ++y) {
          if (through[x_out * p + y] >= kNone) continue;
          const long long hold = through[x_out * p + y] + backward[modulo(y_out - y, p)];
          if (hold > cap || hold >= value[x_out * p + y_out]) continue;
          value[x_out * p + y_out] = hold;
          if (record) choices_y_[level][x_out * p + y_out] = y;
        }
      }
    return value;
  }

  long long single_block(std::vector<int>* rebuild) const {
    if (allowed_[0].empty()) return kNone;
    if (rebuild) *rebuild = std::vector<int>(placement_.blocks.size(), allowed_[0].front());
    return span(chain_.blocks[0]);
  }

  // The phases back from the outermost state inward, then the starts along
  // the chain by least gaps (the values the program added up).
  std::vector<int> starts_from(int state) const {
    std::vector<int> phase(n_, 0);
    int x = state / period_, y = state % period_;
    for (int level = 0;; ++level) {
      phase[level] = x;
      phase[n_ - 1 - level] = y;
      if (level == pairs_ - 1) break;
      const int inner_y = choices_y_[level][x * period_ + y];
      const int inner_x = choices_x_[level][x * period_ + inner_y];
      x = inner_x;
      y = inner_y;
    }
    if (middle_) phase[pairs_] = middle_choice_[x * period_ + y];
    std::vector<int> starts(placement_.blocks.size(), 0);
    long long time = phase[0];
    starts[chain_.blocks[0]] = static_cast<int>(time);
    for (int position = 1; position < n_; ++position) {
      time += least_gap(chain_.least_gaps[position - 1], phase[position] - phase[position - 1], period_);
      starts[chain_.blocks[position]] = static_cast<int>(time);
    }
    return starts;
  }

  const Placement& placement_;
  const MirroredChain& chain_;
  const int period_, max_in_flight_, n_, pairs_;
  const bool middle_;
  std::vector<int> fixed_;
  std::vector<std::vector<int>> allowed_;
  std::vector<std::vector<int>> choices_x_, choices_y_;
  std::vector<int> middle_choice_;
};

// Every choice of the all-device phases that keeps them apart, the first at
// phase 0 (a shift of all times changes nothing); `visit` returns false to stop.
template <typename Visit>
bool each_phase_choice(const Placement& placement, const MirroredChain& chain, int period, std::vector<int>& phases,
                       Visit&& visit) {
  const size_t next = phases.size();
  if (next == chain.all_device.size()) return visit(phases);
  const Time next_span = placement.blocks[chain.all_device[next]].span;
  for (int x = 0; x < (next == 0 ? 1 : period); ++x) {
    bool clear = true;
    for (size_t i = 0; i < next && clear; ++i)
      clear = !arcs_meet(x, next_span, phases[i], placement.blocks[chain.all_device[i]].span, period);
    if (!clear) continue;
    phases.push_back(x);
    const bool go_on = each_phase_choice(placement, chain, period, phases, visit);
    phases.pop_back();
    if (!go_on) return false;
  }
  return true;
}

}  // namespace

std::vector<std::vector<int>> edge_paths(const Placement& placement, std::vector<Time>& delay_after) {
  const int n = static_cast<int>(placement.blocks.size());
  std::vector<int> next(n, -1), previous(n, -1);
  delay_after.assign(n, 0);
  for (const Edge& edge : placement.edges) {
    if (next[edge.from] != -1 || previous[edge.to] != -1) return {};
    next[edge.from] = edge.to;
    previous[edge.to] = edge.from;
    delay_after[edge.from] = edge.delay;
  }
  std::vector<std::vector<int>> paths;
  int covered = 0;
  for (int head = 0; head < n; ++head) {
    if (previous[head] != -1) continue;
    paths.emplace_back();
    for (int b = head; b != -1 && covered <= n; b = next[b], ++covered) paths.back().push_back(b);
  }
  if (covered != n) return {};  // a cycle
  return paths;
}

std::vector<Time> least_gaps_along(const Placement& placement, const std::vector<int>& path,
                                   const std::vector<Time>& delay_after) {
  std::vector<Time> gaps;
  for (size_t i = 0; i + 1 < path.size(); ++i) gaps.push_back(placement.blocks[path[i]].span + delay_after[path[i]]);
  return gaps;
}

std::optional<MirroredChain> mirrored_chain(const Placement& placement, const std::vector<long long>& memory_limit) {
  for (long long limit : memory_limit)
    if (limit < 0) return std::nullopt;
  std::vector<Time> delay_after;
  std::vector<std::vector<int>> paths = edge_paths(placement, delay_after);
  if (paths.size() != 1) return std::nullopt;
  MirroredChain chain;
  chain.blocks = std::move(paths.front());
  chain.least_gaps = least_gaps_along(placement, chain.blocks, delay_after);
  const int n = static_cast<int>(chain.blocks.size());
  std::vector<int> device_level(placement.ndevs, -1);
  for (int position = 0; position < n; ++position) {
    const int block = chain.blocks[position];
    const Block& data = placement.blocks[block];
    if (on_every_device(data, placement.ndevs)) {
      if (data.memory != 0) return std::nullopt;
      chain.all_device.push_back(block);
      continue;
    }
    if (data.devices.size() != 1) return std::nullopt;
    const int level = std::min(position, n - 1 - position);
    int& seen = device_level[data.devices[0]];
    if (seen != -1 && seen != level) return std::nullopt;
    seen = level;
  }
  for (int level = 0; level < (n + 1) / 2; ++level) {
    const long long cap = level_cap(placement, memory_limit, chain.blocks[level], chain.blocks[n - 1 - level]);
    if (cap == -2) return std::nullopt;
    chain.held_caps.push_back(cap >= kNone ? -1 : cap);
  }
  return chain;
}

bool chain_period_affordable(const Placement& placement, const MirroredChain& chain, int period, double seconds,
                             double steps_per_second) {
  const double affordable = steps_per_second * seconds;
  long long choices = 0;
  std::vector<int> phases;
  each_phase_choice(placement, chain, period, phases, [&](const std::vector<int>&) {
    ++choices;
    return static_cast<double>(choices) * per_choice_steps(chain, period) <= affordable;
  });
  return static_cast<double>(choices) * per_choice_steps(chain, period) <= affordable;
}

ChainPeriodWork::ChainPeriodWork(const Placement& placement, const MirroredChain& chain, int period,
                                 int max_in_flight)
    : placement_(placement), chain_(chain), period_(period), max_in_flight_(max_in_flight), best_(kNone) {
  std::vector<int> phases;
  each_phase_choice(placement, chain, period, phases, [&](const std::vector<int>& choice) {
    choices_.push_back(choice);
    return true;
  });
}

void ChainPeriodWork::help(const Deadline& deadline) {
  ++helping_;
  ChainProgram program(placement_, chain_, period_, max_in_flight_);
  while (!stopped_) {
    const size_t index = next_++;
    if (index >= choices_.size()) break;
    const std::optional<long long> latency =
        deadline.expired() ? std::nullopt : program.least_latency(choices_[index], nullptr, deadline);
    if (!latency) {
      stopped_ = true;  // this choice is left undecided: the answer is Unknown
      break;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (*latency < best_ || (*latency == best_ && index < best_index_)) {
      best_ = *latency;
      best_index_ = index;
    }
    ++decided_;
  }
  --helping_;
}

bool ChainPeriodWork::open() const { return !stopped_ && next_ < choices_.size(); }

ChainPeriod ChainPeriodWork::answer(const Deadline& deadline) {
  // Helpers still on their last choice finish it (a fraction of a second).
  while (helping_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ChainPeriod result;
  result.phase_choices = static_cast<long long>(decided_);
  if (decided_ != choices_.size()) return result;
  if (best_ >= kNone) {
    result.answer = Answer::Unsat;
    return result;
  }
  ChainProgram program(placement_, chain_, period_, max_in_flight_);
  if (!program.least_latency(choices_[best_index_], &result.starts, deadline)) return result;
  result.answer = Answer::Sat;
  return result;
}

ChainPeriod decide_chain_period(const Placement& placement, const MirroredChain& chain, int period,
                                int max_in_flight, const Deadline& deadline) {
  ChainPeriodWork work(placement, chain, period, max_in_flight);
  work.help(deadline);
  return work.answer(deadline);
}

}  // namespace tessel
