// The unit-step modulo encoding as a period decider (docs/architecture.md,
// "The period deciders"): a SAT backend of the search's choice holding one
// period (or a chunk of consecutive ones behind selector literals,
// solver/modulo/modulo_encoding.hpp) is asked whether a repetend of that period
// exists. It promises no time, so the scheduler may race other CaDiCaL
// configurations against it, split a hard period into cubes, and give a
// program the period after a head start. The solver that answered Sat is
// kept: the latency is bisected on it (solver/strategies/latency_bisection.hpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/period/decider.hpp"

namespace tessel {

// A backend with the modulo encoding of some periods on it.
struct ModuloSolver {
  std::unique_ptr<Backend> backend;
  ModuloEncoding encoding;
};

// What every modulo solver of one window is built from.
struct ModuloQuestion {
  const Placement* window = nullptr;  // outlives the decider
  std::vector<long long> memory_limit;
  int max_in_flight = 1;
  ModuloRules rules;
  std::string backend = "cadical";
  BackendSettings settings;
};

class ModuloSatDecider : public PeriodDecider {
 public:
  explicit ModuloSatDecider(ModuloQuestion question) : question_(std::move(question)) {}
  DeciderKind kind() const override { return DeciderKind::ModuloSat; }
  const std::string& name() const override { return name_; }
  DeciderEstimate estimate(int, double) const override { return {false, false}; }
  // One solver of the own configuration deciding the period whole.
  std::shared_ptr<PeriodWork> open(int period) const override;

  // A solver of `configuration` (CaDiCaL's 0-2) holding periods first ..
  // last; its encoding is incomplete when the deadline struck while building.
  ModuloSolver build(int first, int last, int configuration, const Deadline& deadline) const;
  const ModuloQuestion& question() const { return question_; }

 private:
  ModuloQuestion question_;
  std::string name_ = "modulo encoding";
};

}  // namespace tessel
