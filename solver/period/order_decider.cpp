// Difference logic behind the PeriodDecider interface (see the header).
#include "solver/period/order_decider.hpp"

#include "solver/difference_logic_period.hpp"
#include "solver/modulo_check.hpp"
#include "solver/period_stretch.hpp"

namespace tessel {

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
  ModuloSolution solution = modulo_solution(window_, static_cast<int>(reply.period), starts);
  // A repetend of a smaller period stretches, one idle step at a time, to
  // the period asked.
  while (solution.period < period) solution = stretched(window_, solution, 0);
  decided.starts = solution.starts;
  return decided;
}

}  // namespace tessel
