// The cyclic orders behind the PeriodDecider interface (see the header).
#include "solver/period/order_decider.hpp"

#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/period_stretch.hpp"
#include "solver/period/difference_logic_period.hpp"
#include "solver/period/order_period_search.hpp"

namespace tessel {

namespace {

// A repetend of a smaller period stretched, one idle step at a time, to the
// period asked, so that Sat always comes with starts at that period.
std::vector<int> stretched_to(const Placement& window, ModuloSolution solution, int period) {
  while (solution.period < period) solution = stretched(window, solution, 0);
  return solution.starts;
}

}  // namespace

CyclicOrdersDecider::CyclicOrdersDecider(const Placement& window, int copies, int max_in_flight,
                                         const SearchOptions& options)
    : window_(window), copies_(copies), max_in_flight_(max_in_flight), options_(options) {
  options_.progress = nullptr;  // a decider's calls are reported by whoever asks it
}

std::shared_ptr<PeriodWork> CyclicOrdersDecider::open(int period) const {
  return std::make_shared<WholePeriodWork>([this, period](const Deadline& deadline) { return decide(period, deadline); });
}

ChainPeriod CyclicOrdersDecider::decide(int period, const Deadline& deadline) const {
  ChainPeriod decided;
  if (deadline.expired()) return decided;
  std::vector<SolverCall> calls;
  const OrderPeriodAnswer found =
      search_order_period({&window_, copies_, max_in_flight_, period, ""}, options_, deadline, calls);
  if (found.solution) {
    decided.answer = Answer::Sat;
    decided.starts = stretched_to(window_, *found.solution, period);
  } else if (!found.gave_up) {
    decided.answer = Answer::Unsat;
  }
  return decided;
}

DifferenceLogicDecider::DifferenceLogicDecider(const Placement& window, std::vector<long long> memory_limit,
                                               int max_in_flight, ModuloRules rules)
    : window_(window), memory_limit_(std::move(memory_limit)), max_in_flight_(max_in_flight), rules_(rules) {}

std::shared_ptr<PeriodWork> DifferenceLogicDecider::open(int period) const {
  return std::make_shared<WholePeriodWork>([this, period](const Deadline& deadline) { return decide(period, deadline); });
}

ChainPeriod DifferenceLogicDecider::decide(int period, const Deadline& deadline) const {
  ChainPeriod decided;
  SideQuestions side = side_questions(window_, memory_limit_, max_in_flight_, rules_, deadline);
  if (!side.questions || !side.questions->fits(period)) return decided;
  const PeriodReply reply = side.questions->ask(period, deadline);
  decided.answer = reply.answer;
  if (reply.answer != Answer::Sat) return decided;
  std::vector<int> starts(reply.starts.begin(), reply.starts.end());
  decided.starts = stretched_to(window_, modulo_solution(window_, static_cast<int>(reply.period), starts), period);
  return decided;
}

}  // namespace tessel
