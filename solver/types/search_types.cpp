// The names of the search's enums as the report and the command line spell
// them, and the small rules on a request that callers apply before solve().
#include "solver/types/search_types.hpp"

#include <cstdlib>

#include "model/input_error.hpp"

namespace tessel {

const char* strategy_name(Strategy strategy) {
  switch (strategy) {
    case Strategy::Repetend: return "repetend";
    case Strategy::Full: return "full";
    case Strategy::Fast: return "fast";
  }
  return "repetend";
}

std::optional<Strategy> parse_strategy(const std::string& text) {
  for (Strategy strategy : {Strategy::Repetend, Strategy::Full, Strategy::Fast})
    if (text == strategy_name(strategy)) return strategy;
  return std::nullopt;
}

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::Found: return "found";
    case Outcome::Infeasible: return "infeasible";
    case Outcome::Timeout: return "timeout";
    case Outcome::Interrupted: return "interrupted";
  }
  return "found";
}

const char* budget_phase_name(BudgetPhase phase) {
  switch (phase) {
    case BudgetPhase::Strategy: return "strategy";
    case BudgetPhase::Makespan: return "makespan";
    case BudgetPhase::Answer: return "answer";
    case BudgetPhase::FullStart: return "full_start";
    case BudgetPhase::FullList: return "full_list";
    case BudgetPhase::TradedStart: return "traded_start";
    case BudgetPhase::RecomputeChoice: return "recompute_choice";
    case BudgetPhase::RecomputeAll: return "recompute_all";
    case BudgetPhase::Shifts: return "shifts";
    case BudgetPhase::Transfer: return "end_transfer";
    case BudgetPhase::Orders: return "device_orders";
    case BudgetPhase::Neighbourhoods: return "neighbourhoods";
    case BudgetPhase::TradedNeighbourhoods: return "traded_neighbourhoods";
  }
  return "strategy";
}

const char* budget_limit_name(BudgetLimit limit) {
  switch (limit) {
    case BudgetLimit::None: return "none";
    case BudgetLimit::TimeLimit: return "time_limit";
    case BudgetLimit::AnswerReserve: return "answer_reserve";
    case BudgetLimit::TenthOfLimit: return "tenth_of_limit";
    case BudgetLimit::Plan: return "plan_seconds";
    case BudgetLimit::LeastAfterPeriod: return "least_plan_seconds";
    case BudgetLimit::Grace: return "answer_grace_seconds";
    case BudgetLimit::PhaseSeconds: return "phase_seconds";
    case BudgetLimit::ShareOfLeft: return "share_of_time_left";
    case BudgetLimit::TradedLeast: return "traded_least_seconds";
  }
  return "none";
}

const char* search_note_name(SearchNoteKind kind) {
  switch (kind) {
    case SearchNoteKind::StoppedToVerify: return "stopped_to_verify";
    case SearchNoteKind::AnswerNearLimit: return "answer_near_limit";
    case SearchNoteKind::AnswerBeyondRange: return "answer_beyond_range";
    case SearchNoteKind::InterruptedBeforeAnswer: return "interrupted_before_answer";
    case SearchNoteKind::StoppedBuildingAnswer: return "stopped_building_answer";
    case SearchNoteKind::MemoryTraded: return "memory_traded";
    case SearchNoteKind::BlockAboveLimit: return "block_above_limit";
    case SearchNoteKind::RecomputingFoundNone: return "recomputing_found_none";
    case SearchNoteKind::RecomputingAnswers: return "recomputing_answers";
  }
  return "stopped_to_verify";
}

void apply_nmicros(SearchRequest& request, std::optional<int> nmicros) {
  if (nmicros && *nmicros < 1) throw InputError("", "--nmicros", "must be >= 1");
  if (request.strategy != Strategy::Full) {
    request.in_flight = nmicros;
    return;
  }
  if (!nmicros) throw InputError("", "--nmicros", "strategy full needs the number of micro-batches (--nmicros N)");
  request.total_micros = *nmicros;
}

bool strict_candidates() {
  const char* value = std::getenv("TESSEL_STRICT_CANDIDATES");
  return value && std::string(value) == "1";
}

}  // namespace tessel
