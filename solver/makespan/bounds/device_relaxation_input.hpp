// What the one-device relaxation (solver/makespan/bounds/device_relaxation)
// and its two ends (solver/makespan/bounds/device_ends) are asked: a header of
// its own because the relaxation calls the ends and the ends read the same
// question, so neither may include the other's header for it.
#pragma once

#include "model/schedule.hpp"
#include "solver/makespan/bounds/bound_question.hpp"

namespace tessel {

struct DeviceRelaxationInput : BoundQuestion {
  long long floor = 0;   // a makespan bound already known (the questions start above it)
  long long target = 0;  // the best makespan found: nothing above it is asked
  int first_device = -1;  // asked first (the device of the bound known); then by load
  // A schedule of the same N with makespan at most the target, if in hand:
  // its starts are the solver's first guesses (a hint, no constraint), which
  // makes the target's question easy (V-Min, 16 stages, 128 micro-batches:
  // not answered in 170 s without it).
  const Schedule* hint = nullptr;
  // Refused above this many order literals (instances x horizon).
  long long most_literals = 2000000;
};

}  // namespace tessel
