// The chain and crossed-chains programs behind the PeriodDecider interface
// (see the header): each wraps its program's period work and its estimate.
#include "solver/period/program_decider.hpp"

namespace tessel {

ChainProgramDecider::ChainProgramDecider(const Placement& window, MirroredChain chain, int max_in_flight,
                                         double steps_per_second)
    : window_(window), chain_(std::move(chain)), max_in_flight_(max_in_flight), steps_per_second_(steps_per_second) {}

DeciderEstimate ChainProgramDecider::estimate(int period, double seconds) const {
  return {chain_period_affordable(window_, chain_, period, seconds, steps_per_second_), true};
}

std::shared_ptr<PeriodWork> ChainProgramDecider::open(int period) const {
  return std::make_shared<ChainPeriodWork>(window_, chain_, period, max_in_flight_);
}

CrossedChainsDecider::CrossedChainsDecider(const Placement& window, CrossedChains chains, double steps_per_second)
    : window_(window), chains_(std::move(chains)), steps_per_second_(steps_per_second) {}

DeciderEstimate CrossedChainsDecider::estimate(int period, double seconds) const {
  return {crossed_chains_affordable(chains_, period, seconds, steps_per_second_), true};
}

std::shared_ptr<PeriodWork> CrossedChainsDecider::open(int period) const {
  // The crossed chains' walk is one sequence of devices: decided whole by
  // the thread that helps first.
  const Placement& window = window_;
  const CrossedChains& chains = chains_;
  return std::make_shared<WholePeriodWork>(
      [&window, &chains, period](const Deadline& deadline) { return decide_crossed_period(window, chains, period, deadline); });
}

std::unique_ptr<PeriodDecider> period_program(const Placement& window, const std::vector<long long>& memory_limit,
                                              int max_in_flight, double steps_per_second) {
  if (std::optional<MirroredChain> chain = mirrored_chain(window, memory_limit))
    return std::make_unique<ChainProgramDecider>(window, std::move(*chain), max_in_flight, steps_per_second);
  if (std::optional<CrossedChains> chains = crossed_chains(window, memory_limit, max_in_flight))
    return std::make_unique<CrossedChainsDecider>(window, std::move(*chains), steps_per_second);
  return nullptr;
}

int last_affordable(const PeriodDecider& decider, int first, int last, double seconds) {
  int affordable = first - 1;
  while (affordable < last && decider.estimate(affordable + 1, seconds).within) ++affordable;
  return affordable;
}

}  // namespace tessel
