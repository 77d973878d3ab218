// The candidates from the period search's answer: its repetend unrolled to
// N (always first: it unrolls to any N, so it wins ties), and while it is
// above the bound its pattern for every micro-batch compacted and other
// windows of its period, each listed only when it beats the repetend at N.
#include <chrono>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/constructions/modulo_compacted.hpp"
#include "solver/makespan/constructions/repetend_variants.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {
namespace {

BuiltCandidate repetend_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "repetend";
  built.summary.shape = Shape::Repetend;
  const std::optional<Schedule>& schedule = input.period->schedule;
  if (!schedule || !schedule->repetend) {
    built.summary.note_kind = CandidateNote::RepetendNone;
    return built;
  }
  try {
    built.at_total = unroll(*schedule, input.total_micros);
    built.schedule = *schedule;
    built.summary.makespan = makespan(*built.at_total);
    built.summary.note_kind = CandidateNote::RepetendUnrolled;
  } catch (const InputError& error) {
    built.summary.note = "does not unroll to " + std::to_string(input.total_micros) + ": " + error.reason;
  }
  built.summary.seconds = seconds_since(begin);
  return built;
}

bool repetend_above_bound(const Portfolio& portfolio) {
  const std::optional<Time> repetend = portfolio.repetend_makespan();
  return repetend && *repetend > portfolio.bound();
}

void run_modulo(Portfolio& portfolio) {
  const auto begin = std::chrono::steady_clock::now();
  const CandidateInput& input = portfolio.input();
  std::optional<Schedule> compact = modulo_compacted(*input.period->schedule, input.total_micros);
  if (!compact || makespan(*compact) >= *portfolio.repetend_makespan()) return;
  BuiltCandidate built = aperiodic_candidate("modulo, compacted", std::move(*compact), begin, "");
  built.summary.note_kind = CandidateNote::ModuloCompacted;
  portfolio.add(std::move(built));
}

void run_variants(Portfolio& portfolio) {
  const CandidateInput& input = portfolio.input();
  const auto begin = std::chrono::steady_clock::now();
  const Tuning& tuning = input.options.tuning;
  VariantRequest request{input.placement, input.period, input.options, input.total_micros,
                         static_cast<int>(tuning.repetend_variants), tuning.variant_seconds};
  request.options.progress = nullptr;
  std::optional<VariantOutcome> variant = best_repetend_variant(request);
  if (!variant || makespan(variant->at_total) >= *portfolio.repetend_makespan()) return;
  BuiltCandidate built;
  built.summary.name = "repetend #" + std::to_string(variant->index);
  built.summary.shape = Shape::Repetend;
  built.summary.makespan = makespan(variant->at_total);
  built.summary.note_kind = CandidateNote::VariantBestOf;
  built.summary.note_numbers = {variant->built};
  built.summary.seconds = seconds_since(begin);
  built.schedule = std::move(variant->schedule);
  built.at_total = std::move(variant->at_total);
  portfolio.add(std::move(built));
}

}  // namespace

Phase repetend_phase() {
  Phase phase;
  phase.name = "repetend";
  phase.past_deadline = true;
  phase.run = [](Portfolio& portfolio) { portfolio.add(repetend_candidate(portfolio.input())); };
  return phase;
}

Phase modulo_phase() {
  Phase phase;
  phase.name = "modulo, compacted";
  phase.past_deadline = true;
  phase.wanted = repetend_above_bound;
  phase.run = run_modulo;
  return phase;
}

Phase variants_phase() {
  Phase phase;
  phase.name = "repetend variants";
  phase.past_deadline = true;
  phase.wanted = [](const Portfolio& portfolio) {
    return repetend_above_bound(portfolio) && portfolio.input().options.tuning.repetend_variants > 0 &&
           !portfolio.input().options.deadline.expired();
  };
  phase.run = run_variants;
  return phase;
}

}  // namespace tessel
