// A period question as guarded differences over phases (see the header).
#include "solver/period/difference_logic_period.hpp"

#include <climits>
#include <stdexcept>
#include <string>

namespace tessel {
namespace {

// The largest constant a question may hold: the backend's integers are int.
constexpr Time kLargestConstant = INT_MAX / 2;

}  // namespace

PhaseQuestions::PhaseQuestions(Backend& backend, const CyclicOrderEncoding& encoding, const Placement& window)
    : backend_(backend), encoding_(encoding), window_(window) {
  node_.push_back(backend.new_int(0, 0));  // the window's start
  for (size_t b = 0; b < window.blocks.size(); ++b) node_.push_back(backend.new_int(0, kLargestConstant));
}

bool PhaseQuestions::fits(Time period) const {
  Time largest = period;
  for (const Block& block : window_.blocks) largest = std::max(largest, block.span);
  for (const OrderDependency& dependency : encoding_.dependencies)
    largest = std::max(largest, dependency.constant + period * static_cast<Time>(dependency.at_least.size()));
  return largest <= kLargestConstant;
}

std::optional<Lit> PhaseQuestions::at_period(Time period, const Deadline& deadline) {
  auto found = periods_.find(period);
  if (found != periods_.end()) return found->second;
  const Lit selected = backend_.new_bool();
  const std::vector<ImpliedDifference> differences = guarded_differences(backend_, encoding_, window_);
  for (size_t i = 0; i < differences.size(); ++i) {
    // A partial set stays behind its selector, never assumed.
    if (i % 4096 == 0 && deadline.expired()) return std::nullopt;
    const DifferenceEdge& edge = differences[i].edge;
    std::vector<Lit> guard = differences[i].because;
    guard.push_back(selected);
    // phase(to) - phase(from) >= constant - period * crossings
    backend_.add_difference(node_[edge.to], node_[edge.from], static_cast<int>(edge.constant - period * edge.crossings),
                            guard);
  }
  periods_.emplace(period, selected);
  return selected;
}

PeriodReply PhaseQuestions::ask(Time target, const Deadline& deadline) {
  const std::optional<Lit> selected = at_period(target, deadline);
  if (!selected) return {Answer::Unknown, 0, {}, {}};
  ++solver_calls;
  const Answer answer = backend_.solve({*selected}, deadline);
  if (answer != Answer::Sat) return {answer, 0, {}, {}};
  // The orders found, with their own exact period (<= target by the
  // constraints just solved; the graph check below re-derives it).
  const std::vector<ImpliedDifference> differences = implied_differences(backend_, encoding_, window_);
  std::vector<DifferenceEdge> edges;
  for (const ImpliedDifference& difference : differences) edges.push_back(difference.edge);
  const MaxRatio exact =
      max_cycle_ratio(static_cast<int>(window_.blocks.size()) + 1, edges, {encoding_.period_floor, 1});
  if (exact.value.infinite() || exact.value.ceiling() > target)
    throw std::logic_error("difference questions: the orders found at period " + std::to_string(target) +
                           " need a longer period: a bug in the guarded differences");
  PeriodReply reply{Answer::Sat, exact.value.ceiling(), exact.value, {}};
  reply.starts = order_starts(backend_, encoding_, differences, reply.period);
  return reply;
}

SideQuestions side_questions(const Placement& window, const std::vector<long long>& memory_limit,
                             int max_in_flight, const ModuloRules& rules, const Deadline& deadline) {
  SideQuestions side;
  side.backend = make_backend("z3");
  long long pairs = 0;
  std::vector<long long> on_device(window.ndevs, 0);
  for (const Block& block : window.blocks)
    for (int device : block.devices) pairs += on_device[device]++;
  if (pairs > kMaxSidePairs) return side;
  side.encoding = std::make_unique<CyclicOrderEncoding>(
      encode_cyclic_order(*side.backend, window, memory_limit, max_in_flight, rules, deadline));
  if (side.encoding->complete)
    side.questions = std::make_unique<PhaseQuestions>(*side.backend, *side.encoding, window);
  return side;
}

}  // namespace tessel
