// Cube-and-conquer for one hard period question (docs/algorithms.md,
// "Threads"): when the period race has a single period left that its solver
// has not decided within `after_seconds`, that solver's lookahead splits the
// question into at most 2^depth cubes (Backend::split_into_cubes), and every
// thread of the race takes cubes from one queue, each on its own solver of
// the same encoding, incrementally (a thread keeps what it learned from one
// cube to the next). Why: a refutation is one proof on one core; the cubes
// are independent proofs, so two cores share it. The cubes are very
// unequal (xshape 16/8 period 12: 5 of 64 took all the time), so when a
// thread waits and the queue is empty, a thread on a long cube splits that
// cube again (its sub-cubes replace it in the queue).
//
// What is reported does not depend on timing: the period is refuted only
// when every cube is (the cubes cover every solution), satisfiable as soon
// as one cube has a model, which is decoded and re-checked like any other.
// Only which model (hence which schedule) may differ from the plain path.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <vector>

#include "sat/backend.hpp"

namespace tessel {

// From the tuning table (solver/knobs/tuning.hpp): cube_depth, cube_after_seconds,
// cube_split_seconds.
// The search fills these from its knobs (cube_depth, cube_after_seconds,
// cube_split_seconds, cube_resplit_seconds: solver/knobs/tuning.hpp, whose rows
// hold the defaults); zero here is "never split".
struct CubeSettings {
  int depth = 0;              // 0: never split
  double after_seconds = 0;   // the period's own solver runs this long first (rivals beside it)
  double split_seconds = 0;   // the lookahead's budget (past it: cheap splits)
  double resplit_seconds = 0; // a cube running this long is split again (0: only for a waiting thread)
};

// The cubes of one period and how far the threads are with them.
struct CubeJob {
  int period = 0;
  std::vector<std::vector<Lit>> cubes;
  size_t next = 0;     // first cube not handed out yet
  size_t resolved = 0;  // cubes answered unsat, or split into cubes listed here
  bool ready = false;  // false while the split is being made
  std::chrono::steady_clock::time_point begin = std::chrono::steady_clock::now();
};

// The index of the next cube to solve, none when all are handed out.
std::optional<size_t> take_cube(CubeJob& job);

bool cubes_left(const CubeJob& job);

// Every cube resolved: the period is refuted (a split cube's sub-cubes
// cover it and are in the list).
bool all_refuted(const CubeJob& job);

}  // namespace tessel
