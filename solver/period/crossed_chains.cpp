// Two crossed mirrored chains' period by a reachability program over the
// devices (see the header for the idea and its two monotonicities).
//
// Stage t is the device of the first chain's level t (walked inward) and of
// the second chain's level L-1-t (walked outward). A state is (a, h, c, k):
// the phases of the two levels' first blocks and their holds. The reachable
// states of stage t are kept as `threshold[t](a, h, c)`: the least hold k of
// the second chain reachable with the others, every larger one reachable too
// (before the device's own rules, which `valid` applies on top).
#include "solver/period/crossed_chains.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "solver/period/circle.hpp"

namespace tessel {
namespace {

constexpr int kUnreachable = std::numeric_limits<int>::max() / 4;

// Steps are counted as stages x (P^3 (H + K) x 2 + P^5), at the developer
// knob program_steps_per_second (solver/knobs/tuning.hpp) a second.

// A hold's cap from memory alone: ceil(hold / P) micro-batches of `amount`
// within `limit`.
long long hold_cap(const CrossedChains::Stage& stage, long long amount, int period) {
  return (stage.limit / amount) * period;
}

bool on_one_device(const Block& a, const Block& b) { return a.devices.size() == 1 && a.devices == b.devices; }

// A chain's levels as (device, amount), outermost first; nullopt when some
// level is not one allocating-and-freeing pair on one device.
std::optional<std::vector<std::pair<int, long long>>> levels_of(const Placement& placement,
                                                                 const std::vector<int>& chain) {
  const int n = static_cast<int>(chain.size());
  if (n == 0 || n % 2 != 0) return std::nullopt;
  std::vector<std::pair<int, long long>> levels;
  for (int level = 0; level < n / 2; ++level) {
    const Block& first = placement.blocks[chain[level]];
    const Block& second = placement.blocks[chain[n - 1 - level]];
    if (!on_one_device(first, second) || first.memory <= 0 || first.memory + second.memory != 0)
      return std::nullopt;
    levels.push_back({first.devices[0], first.memory});
  }
  return levels;
}

class CrossedProgram {
 public:
  CrossedProgram(const Placement& placement, const CrossedChains& chains, int period)
      : placement_(placement), chains_(chains), p_(period), levels_(static_cast<int>(chains.stages.size())) {
    for (const CrossedChains::Stage& stage : chains.stages) {
      first_cap_.push_back(static_cast<int>(hold_cap(stage, stage.first_amount, period)));
      second_cap_.push_back(static_cast<int>(hold_cap(stage, stage.second_amount, period)));
    }
    h_size_ = *std::max_element(first_cap_.begin(), first_cap_.end()) + 1;
    k_size_ = *std::max_element(second_cap_.begin(), second_cap_.end()) + 1;
  }

  ChainPeriod decide(const Deadline& deadline) {
    ChainPeriod result;
    threshold_.assign(levels_, {});
    stage_rules_.assign(levels_, nullptr);
    largest_hold_.assign(levels_, {});
    threshold_[0].assign(p_ * h_size_ * p_, kUnreachable);
    const int innermost = chains_.second_gaps[levels_ - 1];  // the second chain's turn
    for (int h = 0; h <= first_cap_[0]; ++h)
      for (int c = 0; c < p_; ++c) threshold_[0][h * p_ + c] = innermost;  // a = 0: a shift changes nothing
    for (int t = 0;; ++t) {
      if (deadline.expired()) return result;
      largest_holds(t);
      if (t == levels_ - 1) break;
      step(t);
    }
    std::optional<State> last = final_state();
    if (!last) {
      result.answer = Answer::Unsat;
      return result;
    }
    result.answer = Answer::Sat;
    result.starts = starts_of(walk_back(*last));
    return result;
  }

 private:
  struct State {
    int a = 0, h = 0, c = 0, k = 0;
  };

  int first_block(int t, bool second_of_level) const {
    return chains_.first[second_of_level ? 2 * levels_ - 1 - t : t];
  }
  int second_block(int t, bool second_of_level) const {
    return chains_.second[second_of_level ? levels_ + t : levels_ - 1 - t];
  }
  Time span(int block) const { return placement_.blocks[block].span; }
  int rule_index(int a, int x, int c, int y) const { return ((a * p_ + x) * p_ + c) * p_ + y; }
  int threshold_index(int a, int h, int c) const { return (a * h_size_ + h) * p_ + c; }
  int hold_index(int a, int c, int k) const { return (a * p_ + c) * k_size_ + k; }

  // A device's rules for every four phases (a, x: the first chain's level;
  // c, y: the second's): the four arcs apart, and how far above the whole
  // periods held the memory rises within the period.
  struct DeviceRules {
    std::vector<char> apart, any_apart;  // any_apart[(a, c, y)]: some x is apart
    std::vector<long long> rise;
  };

  // Stage t's rules, built once per distinct four spans and two amounts
  // (xshape: once for every device), kept for the walk back.
  const DeviceRules& rules(int t) {
    const std::array<long long, 6> key{span(first_block(t, false)), span(first_block(t, true)),
                                       span(second_block(t, false)), span(second_block(t, true)),
                                       chains_.stages[t].first_amount, chains_.stages[t].second_amount};
    auto [entry, added] = rules_by_shape_.try_emplace(key);
    if (added) entry->second = device_rules(key);
    stage_rules_[t] = &entry->second;
    return entry->second;
  }

  DeviceRules device_rules(const std::array<long long, 6>& shape) const {
    const Time spans[4] = {shape[0], shape[1], shape[2], shape[3]};
    const long long first_amount = shape[4], second_amount = shape[5];
    DeviceRules rules;
    rules.apart.assign(p_ * p_ * p_ * p_, 0);
    rules.rise.assign(p_ * p_ * p_ * p_, 0);
    rules.any_apart.assign(p_ * p_ * p_, 0);
    for (int a = 0; a < p_; ++a)
      for (int x = 0; x < p_; ++x)
        for (int c = 0; c < p_; ++c)
          for (int y = 0; y < p_; ++y) {
            const int phases[4] = {a, x, c, y};
            bool apart = true;
            for (int i = 0; i < 4 && apart; ++i)
              for (int j = i + 1; j < 4 && apart; ++j) apart = !arcs_meet(phases[i], spans[i], phases[j], spans[j], p_);
            if (!apart) continue;
            // A pair allocated at phase a and freed at x holds one more
            // micro-batch over [a, x) than its whole periods, one fewer over
            // [x, a) (modulo_memory's formula); at phase P-1 neither.
            long long rise = 0;
            for (int phi = 0; phi < p_; ++phi)
              rise = std::max(rise, first_amount * ((x > phi) - (a > phi)) + second_amount * ((y > phi) - (c > phi)));
            rules.apart[rule_index(a, x, c, y)] = 1;
            rules.rise[rule_index(a, x, c, y)] = rise;
            rules.any_apart[(a * p_ + c) * p_ + y] = 1;
          }
    return rules;
  }

  // Stage t's rules on a state (after rules(t)): arcs apart, memory within
  // the limit.
  bool valid(int t, int a, int h, int c, int k) const {
    const DeviceRules& rules = *stage_rules_[t];
    const int index = rule_index(a, (a + h) % p_, c, (c + k) % p_);
    if (!rules.apart[index]) return false;
    const CrossedChains::Stage& stage = chains_.stages[t];
    return stage.first_amount * ((a + h) / p_) + stage.second_amount * ((c + k) / p_) + rules.rise[index] <=
           stage.limit;
  }

  bool reachable(int t, int a, int h, int c, int k) const {
    return threshold_[t][threshold_index(a, h, c)] <= k && valid(t, a, h, c, k);
  }

  // largest_hold_[t](a, c, k): the largest first-chain hold of a reachable,
  // valid state, -1 for none. The threshold grows with h, so the holds whose
  // threshold is within k are a prefix; the search goes down from its end.
  void largest_holds(int t) {
    const CrossedChains::Stage& stage = chains_.stages[t];
    const DeviceRules& stage_rules = rules(t);
    std::vector<int>& largest = largest_hold_[t];
    largest.assign(p_ * p_ * k_size_, -1);
    for (int a = 0; a < p_; ++a)
      for (int c = 0; c < p_; ++c) {
        int top = -1;
        for (int k = 0; k <= second_cap_[t]; ++k) {
          while (top < first_cap_[t] && threshold_[t][threshold_index(a, top + 1, c)] <= k) ++top;
          const long long room = stage.limit - stage.second_amount * ((c + k) / p_);
          if (top < 0 || room < 0 || !stage_rules.any_apart[(a * p_ + c) * p_ + (c + k) % p_]) continue;
          int h = std::min<long long>(top, (room / stage.first_amount + 1) * p_ - 1 - a);
          while (h >= 0 && !valid(t, a, h, c, k)) --h;
          largest[hold_index(a, c, k)] = std::max(h, -1);
        }
      }
  }

  // The largest inner first-chain hold reachable from stage t for each
  // (a', c, k): the outer hold less the two least gaps (-1: none).
  std::vector<int> inward_bounds(int t, int a_inner) const {
    std::vector<int> bound(p_ * k_size_, -1);
    const Time forward = chains_.first_gaps[t], backward = chains_.first_gaps[2 * levels_ - 2 - t];
    for (int a = 0; a < p_; ++a) {
      const long long gap = least_gap(forward, a_inner - a, p_) + backward;
      for (int c = 0; c < p_; ++c)
        for (int k = 0; k < k_size_; ++k) {
          const int outer = largest_hold_[t][hold_index(a, c, k)];
          if (outer >= 0) bound[c * k_size_ + k] = std::max<long long>(bound[c * k_size_ + k], outer - gap);
        }
    }
    return bound;
  }

  // least_k[h * P + c]: the least k whose inward bound reaches h.
  std::vector<int> least_second_holds(const std::vector<int>& bound, int h_cap) const {
    std::vector<int> least_k(h_size_ * p_, kUnreachable);
    for (int c = 0; c < p_; ++c) {
      int reached = -1;
      for (int k = 0; k < k_size_; ++k)
        for (; reached < std::min(bound[c * k_size_ + k], h_cap); ++reached) least_k[(reached + 1) * p_ + c] = k;
    }
    return least_k;
  }

  // Stage t to t + 1: the first chain one level inward, then the second one
  // level outward (its new first block earlier, its new second later).
  void step(int t) {
    std::vector<int>& next = threshold_[t + 1];
    next.assign(p_ * h_size_ * p_, kUnreachable);
    const Time forward = chains_.second_gaps[levels_ - 2 - t], backward = chains_.second_gaps[levels_ + t];
    for (int a = 0; a < p_; ++a) {
      const std::vector<int> least_k = least_second_holds(inward_bounds(t, a), first_cap_[t + 1]);
      for (int h = 0; h <= first_cap_[t + 1]; ++h)
        for (int c = 0; c < p_; ++c) {
          const int k = least_k[h * p_ + c];
          if (k >= kUnreachable) continue;
          for (int c_outer = 0; c_outer < p_; ++c_outer) {
            int& slot = next[threshold_index(a, h, c_outer)];
            slot = std::min<long long>(slot, k + least_gap(forward, c - c_outer, p_) + backward);
          }
        }
    }
  }

  // The innermost level of the first chain needs its turn's least gap.
  std::optional<State> final_state() const {
    const int t = levels_ - 1;
    const int turn = chains_.first_gaps[t];
    for (int k = 0; k < k_size_; ++k)
      for (int a = 0; a < p_; ++a)
        for (int c = 0; c < p_; ++c)
          if (largest_hold_[t][hold_index(a, c, k)] >= turn) return smallest_hold(t, a, c, k, turn);
    return std::nullopt;
  }

  // The reachable state of stage t with (a, c, k) and the least hold >= from.
  State smallest_hold(int t, int a, int c, int k, int from) const {
    int h = from;
    while (!reachable(t, a, h, c, k)) ++h;
    return {a, h, c, k};
  }

  // One state per stage, from the last back to the first, each a
  // predecessor of the next (smallest holds, so a short micro-batch).
  std::vector<State> walk_back(State last) {
    std::vector<State> states(levels_);
    states[levels_ - 1] = last;
    for (int t = levels_ - 2; t >= 0; --t) {
      const State& inner = states[t + 1];
      const std::vector<int> bound = inward_bounds(t, inner.a);
      const std::vector<int> least_k = least_second_holds(bound, first_cap_[t + 1]);
      const Time forward = chains_.second_gaps[levels_ - 2 - t], backward = chains_.second_gaps[levels_ + t];
      int c = 0;
      while (c < p_ && (least_k[inner.h * p_ + c] >= kUnreachable ||
                        least_k[inner.h * p_ + c] + least_gap(forward, c - inner.c, p_) + backward > inner.k))
        ++c;
      if (c == p_) throw std::logic_error("crossed chains: a reachable state without a predecessor");
      const int k = least_k[inner.h * p_ + c];
      const Time first_forward = chains_.first_gaps[t], first_backward = chains_.first_gaps[2 * levels_ - 2 - t];
      states[t].h = -1;
      for (int a = 0; a < p_; ++a) {
        const long long from = inner.h + least_gap(first_forward, inner.a - a, p_) + first_backward;
        if (largest_hold_[t][hold_index(a, c, k)] < from) continue;
        states[t] = smallest_hold(t, a, c, k, static_cast<int>(from));
        break;
      }
      if (states[t].h < 0) throw std::logic_error("crossed chains: a reachable state without a predecessor");
    }
    return states;
  }

  // The blocks' starts from the states: each chain's first blocks by least
  // gaps of the phases, its second blocks by the holds; the second chain
  // moved by whole periods to overlap the first most.
  std::vector<int> starts_of(const std::vector<State>& states) const {
    std::vector<long long> start(placement_.blocks.size(), 0);
    long long first_time = states[0].a, second_time = states[0].c;
    for (int t = 0; t < levels_; ++t) {
      start[first_block(t, false)] = first_time;
      start[first_block(t, true)] = first_time + states[t].h;
      start[second_block(t, false)] = second_time;
      start[second_block(t, true)] = second_time + states[t].k;
      if (t + 1 == levels_) break;
      first_time += least_gap(chains_.first_gaps[t], states[t + 1].a - states[t].a, p_);
      second_time -= least_gap(chains_.second_gaps[levels_ - 2 - t], states[t].c - states[t + 1].c, p_);
    }
    const long long first_end = latest_end(chains_.first, start);  // the first chain starts at 0
    const long long earliest = start[chains_.second[0]];
    const long long second_span = latest_end(chains_.second, start) - earliest;
    long long best_shift = 0, best_latency = std::numeric_limits<long long>::max();
    for (long long offset = modulo(earliest, p_) - p_ * (second_span / p_ + 2); offset <= first_end + p_; offset += p_) {
      const long long latency = std::max(first_end, offset + second_span) - std::min(0LL, offset);
      if (latency < best_latency) best_latency = latency, best_shift = offset - earliest;
    }
    for (int block : chains_.second) start[block] += best_shift;
    const long long origin = *std::min_element(start.begin(), start.end());
    std::vector<int> starts;
    for (long long s : start) starts.push_back(static_cast<int>(s - origin));
    return starts;
  }

  long long latest_end(const std::vector<int>& chain, const std::vector<long long>& start) const {
    long long end = 0;
    for (int block : chain) end = std::max<long long>(end, start[block] + span(block));
    return end;
  }

  const Placement& placement_;
  const CrossedChains& chains_;
  const int p_, levels_;
  std::vector<int> first_cap_, second_cap_;
  int h_size_ = 0, k_size_ = 0;
  std::vector<std::vector<int>> threshold_, largest_hold_;
  std::map<std::array<long long, 6>, DeviceRules> rules_by_shape_;
  std::vector<const DeviceRules*> stage_rules_;
};

}  // namespace

std::optional<CrossedChains> crossed_chains(const Placement& placement, const std::vector<long long>& memory_limit,
                                            int max_in_flight) {
  if (memory_limit.empty()) return std::nullopt;  // holds unbounded but by the micro-batches in flight
  std::vector<Time> delay_after;
  const std::vector<std::vector<int>> paths = edge_paths(placement, delay_after);
  if (paths.size() != 2 || paths[0].size() != paths[1].size()) return std::nullopt;
  const auto first_levels = levels_of(placement, paths[0]);
  const auto second_levels = levels_of(placement, paths[1]);
  if (!first_levels || !second_levels) return std::nullopt;
  const int levels = static_cast<int>(first_levels->size());
  CrossedChains chains;
  chains.first = paths[0];
  chains.second = paths[1];
  std::vector<char> seen(placement.ndevs, 0);
  for (int t = 0; t < levels; ++t) {
    const auto [device, first_amount] = (*first_levels)[t];
    const auto [second_device, second_amount] = (*second_levels)[levels - 1 - t];
    if (device != second_device || seen[device] || memory_limit[device] < 0) return std::nullopt;
    seen[device] = 1;
    // The micro-batch's latency is at most a hold, a span and a period
    // beyond its chains' offset; past Kmax the bound could bind.
    const long long most_held = std::max(memory_limit[device] / first_amount, memory_limit[device] / second_amount);
    if (most_held + 3 > max_in_flight) return std::nullopt;
    chains.stages.push_back({device, memory_limit[device], first_amount, second_amount});
  }
  chains.first_gaps = least_gaps_along(placement, chains.first, delay_after);
  chains.second_gaps = least_gaps_along(placement, chains.second, delay_after);
  return chains;
}

bool crossed_chains_affordable(const CrossedChains& chains, int period, double seconds, double steps_per_second) {
  long long most_held = 0;
  for (const CrossedChains::Stage& stage : chains.stages)
    most_held = std::max({most_held, stage.limit / stage.first_amount, stage.limit / stage.second_amount});
  const double holds = static_cast<double>(most_held + 1) * period;
  const double steps = chains.stages.size() * (std::pow(period, 3.0) * 4 * holds + std::pow(period, 5.0));
  return holds < 1e6 && steps <= steps_per_second * seconds;
}

ChainPeriod decide_crossed_period(const Placement& placement, const CrossedChains& chains, int period,
                                  const Deadline& deadline) {
  return CrossedProgram(placement, chains, period).decide(deadline);
}

}  // namespace tessel
