// The names the report's kinds are written by (JSON, text, Python).
#include "solver/types/report_types.hpp"

namespace tessel {

const char* shape_name(Shape shape) {
  switch (shape) {
    case Shape::Repetend: return "repetend";
    case Shape::Staged: return "staged";
    case Shape::Aperiodic: return "aperiodic";
  }
  return "repetend";
}

const char* candidate_note_name(CandidateNote note) {
  switch (note) {
    case CandidateNote::Text: return "text";
    case CandidateNote::RepetendUnrolled: return "repetend_unrolled";
    case CandidateNote::RepetendNone: return "repetend_none";
    case CandidateNote::ModuloCompacted: return "modulo_compacted";
    case CandidateNote::VariantBestOf: return "variant_best_of";
    case CandidateNote::StagedNotShorter: return "staged_not_shorter";
    case CandidateNote::StagedNoTime: return "staged_no_time";
    case CandidateNote::StagedNone: return "staged_none";
    case CandidateNote::StagedBuilt: return "staged_built";
    case CandidateNote::ShiftsFound: return "shifts_found";
    case CandidateNote::WindowsResolved: return "windows_resolved";
    case CandidateNote::FullSearchFrom: return "full_search_from";
    case CandidateNote::ListOutOfTime: return "list_out_of_time";
    case CandidateNote::ListNoRuleFits: return "list_no_rule_fits";
    case CandidateNote::ListBestOfRuns: return "list_best_of_runs";
    case CandidateNote::TradingNoRun: return "trading_no_run";
    case CandidateNote::ReplayBestOf: return "replay_best_of";
    case CandidateNote::EndsTransferred: return "ends_transferred";
    case CandidateNote::OrderMoves: return "order_moves";
    case CandidateNote::RecomputeChosen: return "recompute_chosen";
  }
  return "text";
}

const char* gap_cause_name(GapCause cause) {
  switch (cause) {
    case GapCause::None: return "none";
    case GapCause::ProvenOptimal: return "proven_optimal";
    case GapCause::FullStopped: return "full_stopped";
    case GapCause::Period: return "period";
    case GapCause::Boundary: return "boundary";
    case GapCause::NotTight: return "not_tight";
  }
  return "none";
}

const char* boundary_cause_name(BoundaryCause cause) {
  switch (cause) {
    case BoundaryCause::None: return "none";
    case BoundaryCause::NotShortened: return "not_shortened";
    case BoundaryCause::ProvenMinimal: return "proven_minimal";
    case BoundaryCause::OutOfBudget: return "out_of_budget";
  }
  return "none";
}

const char* window_status_name(WindowStatus status) {
  switch (status) {
    case WindowStatus::Found: return "found";
    case WindowStatus::NotBetter: return "not_better";
    case WindowStatus::Infeasible: return "infeasible";
    case WindowStatus::Timeout: return "timeout";
    case WindowStatus::Undecided: return "undecided";
  }
  return "found";
}

}  // namespace tessel
