// Which method decides a repetend's period question (docs/algorithms.md,
// "Measured costs"): the unit-step modulo encoding (modulo_encoding.hpp),
// whose size grows with the time values (a literal per phase, a circle per
// period, one solver call per period between L and the answer), or the
// cyclic orders (order_period_search.hpp), whose size does not. The
// unit-step encoding stays where it is the faster one: small tick counts,
// as the paper's unit-time placements have. The threshold is measured
// (cases/bench/measured_costs.sh).
#pragma once

#include "model/placement.hpp"

namespace tessel {

enum class PeriodMethod { UnitStep, CyclicOrder };

// Automatic (by L, below) unless a test or a measurement forces one (the
// tuning knob `period_method`).
enum class PeriodMethodChoice { Automatic, UnitStep, CyclicOrder };

// Up to this many ticks of L the unit-step encoding decides. Not a knob:
// it picks the encoding by its size (the tuning knob period_method forces
// either).
inline constexpr Time kLargestUnitStepPeriod = 64;

// By L of the (window) placement.
PeriodMethod period_method(const Placement& window, PeriodMethodChoice choice = PeriodMethodChoice::Automatic);

// How the cyclic-order search asks a period question: by Boolean answers
// and learned cycles (order_period_search.hpp), or in one call with the
// phases as guarded differences (difference_logic_period.hpp), which needs
// a backend with arithmetic integers. Automatic: the differences on Z3.
enum class OrderQuestions { Automatic, LearnedCycles, Differences };

}  // namespace tessel
