// Text and JSON of a SearchReport (see the header).
#include "tools/search_note_text.hpp"
#include "tools/search_output.hpp"

#include <iomanip>
#include <sstream>

#include "model/placement_json.hpp"
#include "model/json_file.hpp"
#include "model/timeline_text.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "tools/candidate_note_text.hpp"
#include "tools/gap_text.hpp"
#include "tools/recompute_choice_text.hpp"

namespace tessel::cli {
namespace {

std::string join(const std::vector<long long>& values, int decimals) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + format_ticks(values[i], decimals);
  return text;
}

std::string percent(double fraction) {
  std::ostringstream text;
  text << std::setprecision(3) << 100 * fraction << "%";
  return text.str();
}

// The gap's cause and numbers (the sentence is makespan_gap_reason).
nlohmann::json gap_json(const MakespanGap& gap, int decimals) {
  auto t = [&](Time value) { return time_to_json(value, decimals); };
  nlohmann::json out = {{"cause", gap_cause_name(gap.cause)}, {"boundary", boundary_cause_name(gap.boundary)}};
  if (gap.cause == GapCause::FullStopped || gap.cause == GapCause::Period)
    out["proven_lower_bound"] = t(gap.proven_lower_bound);
  if (gap.cause == GapCause::Period) {
    out["period"] = t(gap.period);
    out["period_lower_bound"] = t(gap.period_lower_bound);
    out["micros_per_window"] = gap.micros_per_window;
    out["period_excess"] = t(gap.period_excess);
  }
  if (gap.boundary == BoundaryCause::OutOfBudget) out["boundary_seconds"] = seconds_to_json(gap.boundary_seconds);
  if (gap.cause == GapCause::NotTight) out["construction"] = gap.construction;
  return out;
}

// Offered recomputation: what deciding the shorter periods with a recompute
// chosen per forward gave (docs/algorithms.md, "Memory traded for time").
template <typename Format>
void recompute_choice_line(std::ostream& out, const PeriodReport& period, const Format& t) {
  const char* choices = period.offload_offers > 0 ? (period.recompute_offers > 0 ? "recomputing or offloading"
                                                                                  : "offloading")
                                                   : "recomputing";
  if (period.recompute_period && period.recompute_decided)
    out << "with recompute   period " << t(*period.recompute_period) << " (" << recompute_choice_text(period)
        << "; every shorter period refuted for every choice of " << choices << ")\n";
  else if (period.recompute_period)  // found on the way down from the kept period, the time then out
    out << "with recompute   period " << t(*period.recompute_period) << " (" << recompute_choice_text(period)
        << "; the shorter ones not all decided in its time, none below " << t(period.proven_lower_bound)
        << ")\n";
  else if (period.recompute_decided)
    out << "with recompute   every shorter period refuted for every choice of " << choices << "\n";
  else if (period.recompute_skipped_terms > 0)
    out << "with recompute   not decided: its encoding (about " << period.recompute_skipped_terms
        << " terms) is more than its budget affords (--tune recompute_choice_seconds, encoding_terms_per_second)\n";
}

void period_text(std::ostream& out, const SearchReport& report, const Placement& placement) {
  const PeriodReport& period = *report.period;
  auto t = [&](Time value) { return format_ticks(value, placement.time_decimals); };
  const int k = period.micros_per_window;
  if (period.construction) {
    const Time gap = period.period - period.lower_bound;
    out << "period           " << t(period.period) << "  (lower bound L = " << t(period.lower_bound) << ", gap to L "
        << t(gap) << " = " << percent(double(gap) / double(std::max<Time>(1, period.lower_bound))) << ", "
        << (gap == 0 ? "proven optimal (P = L)" : "not proven optimal: constructed, not searched") << ")\n";
    out << "construction     " << period.construction->name;
    if (period.construction->window_shortened)
      out << " (period " << t(period.construction->constructed_period)
          << "), window shortened by the solver (--tune fast_improve_seconds)";
    out << "\n";
    recompute_choice_line(out, period, t);
  } else if (k == 1) {
    out << "period           " << t(period.period) << "  (lower bound L = " << t(period.lower_bound)
        << ", proven lower bound " << t(period.proven_lower_bound) << ", "
        << (period.optimal ? "proven optimal" : "not proven optimal") << ")\n";
    recompute_choice_line(out, period, t);
  } else {
    out << "period           " << t(period.period) << " for a window of k = " << k << " micro-batches, average "
        << std::setprecision(4) << ticks_to_double(period.period, placement.time_decimals) / k << "  (lower bound k L = " << t(period.lower_bound)
        << ", proven lower bound " << t(period.proven_lower_bound) << ", "
        << (period.optimal ? "proven optimal" : "not proven optimal") << " for this k)\n";
    recompute_choice_line(out, period, t);
  }
  if (period.windows.size() > 1 || k > 1) {
    out << "windows tried    k  status      P_k  average  proven P_k >=  seconds\n";
    for (const WindowAttempt& attempt : period.windows) {
      out << "                 " << std::left << std::setw(3) << attempt.k << std::setw(12)
          << window_status_name(attempt.status) << std::right << std::setw(3)
          << (attempt.period ? t(attempt.period) : "-") << "  " << std::setw(7);
      if (attempt.period)
        out << std::fixed << std::setprecision(2) << ticks_to_double(attempt.period, placement.time_decimals) / attempt.k;
      else out << "-";
      out << "  " << std::setw(13) << t(attempt.proven_lower_bound) << "  " << std::setw(7) << std::fixed
          << std::setprecision(2) << attempt.seconds << std::defaultfloat << "\n";
    }
  }
  out << "in flight        K = " << period.in_flight << " micro-batches, latency " << t(period.latency) << "\n";
  out << "warmup/cooldown  " << t(period.warmup) << " / " << t(period.cooldown) << "\n";
}

void makespan_text(std::ostream& out, const SearchReport& report, const Placement& placement) {
  const MakespanReport& at = *report.makespan;
  auto t = [&](Time value) { return format_ticks(value, placement.time_decimals); };
  out << "peak memory      " << join(at.peak_memory, placement.memory_decimals) << "\n";
  out << "at " << at.total_micros << " micro-batches: makespan " << t(at.makespan) << " (" << shape_name(at.shape)
      << (at.construction == shape_name(at.shape) ? "" : ", " + at.construction) << "), bubble ratio " << std::setprecision(4) << at.bubble_ratio << ", bound "
      << t(at.proven_lower_bound) << " (gap " << t(at.makespan - at.proven_lower_bound) << ", "
      << percent(relative_gap(at.makespan, at.proven_lower_bound)) << ")"
      << (at.proven_optimal ? ", proven optimal" : "") << "\n";
  if (at.bound.value != at.bound.simple) {
    const MakespanBound& bound = at.bound;
    out << "                 bound: ";
    if (bound.argument == BoundArgument::CriticalPath) out << "the critical path";
    else out << "device " << bound.device;
    if (bound.argument == BoundArgument::IdleAware)
      out << " idles >= " << t(bound.idle_head) << " before and " << t(bound.idle_tail) << " after";
    else if (bound.argument == BoundArgument::ExactEnds)
      out << " idles >= " << t(bound.idle_head) << " in the first " << t(bound.head_window) << " steps and "
          << t(bound.idle_tail) << " in the last " << t(bound.tail_window) << " (exact ends)";
    else if (bound.argument != BoundArgument::CriticalPath)
      out << ", " << bound_argument_name(bound.argument) << " argument";
    out << " (simple bound " << t(bound.simple) << ")\n";
  }
  if (at.candidates.size() > 1) {
    out << "candidates       ";
    for (size_t i = 0; i < at.candidates.size(); ++i) {
      const Candidate& candidate = at.candidates[i];
      // Long names ("list: zb rule, cap 8") keep two spaces before the makespan.
      const int width = static_cast<int>(std::max<size_t>(10, candidate.name.size() + 2));
      out << (i ? "                 " : "") << std::left << std::setw(width) << candidate.name << std::right
          << (candidate.makespan ? t(*candidate.makespan) : "-") << "  " << candidate_note_text(candidate, placement.time_decimals) << "\n";
    }
  }
  if (at.gap.cause != GapCause::None) out << "gap above 1%     " << gap_text(at.gap, placement.time_decimals) << "\n";
}

// Candidates the verifier rejected: dropped from the choice, listed because
// each is a bug in the phase that built it.
void rejected_text(std::ostream& out, const SearchReport& report) {
  for (size_t i = 0; i < report.rejected.size(); ++i)
    out << (i ? "                 " : "rejected         ") << report.rejected[i].phase << ": "
        << report.rejected[i].violation << " (dropped; a bug in tessel's search, please report it)\n";
}

// The timeline's excerpt: the answer's first lines must stay readable, and
// with BLOCK:MICRO cells 200 steps were ~1,800 columns. It shows the
// warmup, the repetend and the start of the cooldown, as far as 120 columns
// allow; `tessel show` on the written file shows any part.
constexpr int kExcerptColumns = 120;

std::string timeline_excerpt(const Schedule& schedule) {
  const std::vector<std::string> tags = block_tags(schedule.placement);
  size_t tag = 1;
  for (const std::string& text : tags) tag = std::max(tag, text.size());
  const size_t cell = tag + 1 + std::to_string(std::max(schedule.nmicros - 1, 0)).size() + 1;  // "b0:12" and a gap
  const size_t prefix = 4 + std::to_string(std::max(schedule.placement.ndevs - 1, 0)).size();
  const int fit = static_cast<int>(std::max<size_t>(10, (kExcerptColumns - prefix) / cell));
  TimelineOptions options;
  options.max_steps = fit;
  if (schedule.placement.time_decimals > 0) {
    // Measured times: cells of several ticks; the excerpt is a time window.
    if (schedule.repetend) options.to = schedule.repetend->end + schedule.repetend->period / 2;
  } else {
    const Time end = makespan(schedule);
    const Time wanted = schedule.repetend ? schedule.repetend->end + std::min<Time>(10, schedule.repetend->period) : end;
    options.to = std::min<Time>({end, wanted, fit});
  }
  std::string text = render_timeline(schedule, options);
  if (options.to > 0 && options.to < makespan(schedule))
    text += "(the whole timeline: tessel show FILE, or a part: tessel show FILE --start T --end T, on the file -o "
            "writes)\n";
  return text;
}

}  // namespace

std::string report_text(const SearchRequest& request, const SearchReport& report) {
  std::ostringstream out;
  const Placement& placement = request.placement;
  if (report.best) out << timeline_excerpt(*report.best) << "\n";
  out << "placement        " << placement.name << " (" << placement.ndevs << " devices, " << placement.blocks.size()
      << " blocks), memory limit " << join(request.memory_limit, placement.memory_decimals) << "\n";
  out << "strategy         " << strategy_name(report.strategy) << " (backend " << report.backend << ")\n";
  if (!report.resolution_note.empty()) out << "resolution       " << report.resolution_note << "\n";
  if (report.period) period_text(out, report, placement);
  if (report.strategy == Strategy::Full && report.makespan) {
    const MakespanReport& at = *report.makespan;
    out << "micro-batches    " << at.total_micros << "\n";
    out << "makespan         " << format_ticks(at.makespan, placement.time_decimals) << "  (lower bound "
        << format_ticks(at.bound.value, placement.time_decimals) << ", proven lower bound "
        << format_ticks(at.proven_lower_bound, placement.time_decimals) << ", "
        << (at.proven_optimal ? "proven optimal" : "not proven optimal") << ")\n";
  }
  if (report.makespan) makespan_text(out, report, placement);
  if (report.best && offers_memory_choice(placement))
    out << "memory traded    " << choices_summary(*report.best) << "\n";
  rejected_text(out, report);
  out << "solve time       " << std::setprecision(3) << report.seconds << " s (";
  for (size_t i = 0; i < report.phases.size(); ++i)
    out << (i ? ", " : "") << report.phases[i].phase << " " << report.phases[i].seconds << " s";
  out << ")\n";
  if (report.best) out << "verified         valid\n";
  return out.str();
}

namespace {

// solve()'s notes as data (the message says them in words): the kind and
// the numbers it has.
nlohmann::json notes_json(const SearchReport& report) {
  nlohmann::json notes = nlohmann::json::array();
  for (const SearchNote& note : report.notes) {
    nlohmann::json row = {{"kind", search_note_name(note.kind)}, {"headline", note.headline}};
    if (note.total_micros > 0) row["total_micros"] = note.total_micros;
    if (note.seconds > 0) row["seconds"] = seconds_to_json(note.seconds);
    if (note.ticks > 0) row["ticks"] = note.ticks;
    if (note.kind == SearchNoteKind::StoppedBuildingAnswer) row["interrupted"] = note.interrupted;
    if (note.kind == SearchNoteKind::BlockAboveLimit) {
      row["block"] = note.block;
      row["device"] = note.device;
    }
    notes.push_back(row);
  }
  return notes;
}

}  // namespace

// What the budget granted each phase (solver/solve/budget.hpp): seconds since
// the search began; "until" null when only an interrupt ends it.
static nlohmann::json budget_json(const SearchReport& report) {
  nlohmann::json budget = nlohmann::json::array();
  // An improvement phase adds when it returned ("ended"), whether it gave
  // back the rest after a stretch without a gain ("stalled") and, if so, by
  // which rule ("stalled_by": "seconds" of wall time, or the phase's own
  // "progress": steps or windows without a gain).
  for (const BudgetGrant& grant : report.budget) {
    nlohmann::json entry = {{"phase", budget_phase_name(grant.phase)},
                            {"from", seconds_to_json(grant.from)},
                            {"until", grant.until ? seconds_to_json(*grant.until) : nlohmann::json(nullptr)},
                            {"limited_by", budget_limit_name(grant.limited_by)},
                            {"estimate", grant.estimate}};
    if (grant.ended) {
      entry["ended"] = seconds_to_json(*grant.ended);
      entry["stalled"] = grant.stalled;
      if (grant.stalled) entry["stalled_by"] = grant.gave_up ? "progress" : "seconds";
    }
    budget.push_back(entry);
  }
  return budget;
}

nlohmann::json report_json(const SearchRequest& request, const SearchReport& report) {
  const Placement& placement = request.placement;
  auto t = [&](Time value) { return time_to_json(value, placement.time_decimals); };
  nlohmann::json out = {{"status", outcome_name(report.outcome)},
                        {"strategy", strategy_name(report.strategy)},
                        {"backend", report.backend},
                        {"message", search_message_text(report)},
                        {"resolution", report.resolution_note.empty() ? nlohmann::json(nullptr)
                                                                      : nlohmann::json(report.resolution_note)},
                        {"solve_seconds", seconds_to_json(report.seconds)},
                        {"verified", report.best.has_value()}};
  const std::optional<PeriodReport>& period = report.period;
  out["period"] = period ? t(period->period) : nlohmann::json(nullptr);
  out["micros_per_period"] = period ? period->micros_per_window : 0;
  out["lower_bound"] = period ? t(period->lower_bound) : report.makespan ? t(report.makespan->bound.value) : nlohmann::json(0);
  out["proven_lower_bound"] = period ? t(period->proven_lower_bound)
                              : report.makespan ? t(report.makespan->proven_lower_bound) : nlohmann::json(0);
  out["optimal"] = period ? period->optimal : report.makespan && report.makespan->proven_optimal;
  out["average_period"] = period ? nlohmann::json(double(period->period) / period->micros_per_window /
                                                  double(power_of_ten(placement.time_decimals)))
                                 : nlohmann::json(nullptr);
  // K; for strategy full (no period) the old key carries N, as it always has.
  out["nmicros_in_flight"] = period ? period->in_flight : report.best ? report.best->nmicros : 0;
  out["in_flight"] = period ? nlohmann::json(period->in_flight) : nlohmann::json(nullptr);
  out["latency"] = period ? t(period->latency) : nlohmann::json(0);
  out["latency_minimal"] = period ? nlohmann::json(period->latency_minimal) : nlohmann::json(nullptr);
  out["recompute_period"] = period && period->recompute_period ? t(*period->recompute_period) : nlohmann::json(nullptr);
  out["recompute_decided"] = period ? nlohmann::json(period->recompute_decided) : nlohmann::json(nullptr);
  out["warmup_steps"] = period ? t(period->warmup) : nlohmann::json(0);
  out["cooldown_steps"] = period ? t(period->cooldown) : nlohmann::json(0);
  nlohmann::json windows = nlohmann::json::array();
  if (period)
    for (const WindowAttempt& attempt : period->windows)
      windows.push_back({{"k", attempt.k},
                         {"status", window_status_name(attempt.status)},
                         {"period", attempt.period ? t(attempt.period) : nlohmann::json(nullptr)},
                         {"proven_lower_bound", t(attempt.proven_lower_bound)},
                         {"optimal", attempt.period != 0 && attempt.period == attempt.proven_lower_bound},
                         {"latency", t(attempt.latency)},
                         {"seconds", seconds_to_json(attempt.seconds)}});
  out["windows"] = windows;
  if (period && period->construction) {
    out["construction"] = period->construction->name;
    out["constructed_period"] = t(period->construction->constructed_period);
    out["window_shortened_by_solver"] = period->construction->window_shortened;
    out["gap_to_lower_bound"] = t(period->period - period->lower_bound);
  }
  const std::optional<MakespanReport>& at = report.makespan;
  out["total_micros"] = at ? at->total_micros : request.total_micros;
  out["shape"] = at ? nlohmann::json(shape_name(at->shape)) : nlohmann::json(nullptr);
  out["best_construction"] = at ? nlohmann::json(at->construction) : nlohmann::json(nullptr);
  out["makespan_at_total"] = at ? t(at->makespan) : nlohmann::json(nullptr);
  out["bubble_ratio_at_total"] = at ? nlohmann::json(at->bubble_ratio) : nlohmann::json(nullptr);
  // The best bound, as the text says it and the gap counts from: the proven
  // one (the closed bound, or a solved bound or full search above it).
  out["makespan_bound_at_total"] = at ? t(at->proven_lower_bound) : nlohmann::json(nullptr);
  out["makespan_closed_bound_at_total"] = at ? t(at->bound.value) : nlohmann::json(nullptr);
  out["makespan_simple_bound_at_total"] = at ? t(at->bound.simple) : nlohmann::json(nullptr);
  out["makespan_bound_argument"] = at ? nlohmann::json(bound_argument_name(at->bound.argument)) : nlohmann::json(nullptr);
  out["makespan_gap_at_total"] = at ? t(at->makespan - at->proven_lower_bound) : nlohmann::json(nullptr);
  out["makespan_proven_optimal"] = at && at->proven_optimal;
  out["makespan_gap_reason"] = at ? gap_text(at->gap, placement.time_decimals) : "";
  out["makespan_gap"] = at ? gap_json(at->gap, placement.time_decimals) : nlohmann::json(nullptr);
  nlohmann::json peak = nlohmann::json::array();
  if (at)
    for (Memory value : at->peak_memory) peak.push_back(time_to_json(value, placement.memory_decimals));
  out["peak_memory"] = peak;
  nlohmann::json candidates = nlohmann::json::array();
  if (at)
    for (const Candidate& candidate : at->candidates)
      candidates.push_back({{"name", candidate.name},
                            {"shape", shape_name(candidate.shape)},
                            {"makespan", candidate.makespan ? t(*candidate.makespan) : nlohmann::json(nullptr)},
                            {"note", candidate_note_text(candidate, placement.time_decimals)},
                            {"note_kind", candidate_note_name(candidate.note_kind)},
                            {"seconds", seconds_to_json(candidate.seconds)}});
  out["candidates"] = candidates;
  nlohmann::json rejected = nlohmann::json::array();
  for (const RejectedCandidate& candidate : report.rejected)
    rejected.push_back({{"phase", candidate.phase}, {"violation", candidate.violation}});
  out["rejected_candidates"] = rejected;
  out["makespan"] = report.best ? t(makespan(*report.best)) : nlohmann::json(nullptr);
  nlohmann::json phases = nlohmann::json::object();
  for (const PhaseTime& phase : report.phases) phases[phase.phase] = seconds_to_json(phase.seconds);
  out["phase_seconds"] = phases;
  out["budget"] = budget_json(report);
  out["notes"] = notes_json(report);
  nlohmann::json calls = nlohmann::json::array();
  for (const SolverCall& call : report.calls)
    calls.push_back({{"question", call.what}, {"answer", answer_name(call.answer)}, {"seconds", seconds_to_json(call.seconds)}});
  out["solver_calls"] = calls;
  return out;
}

nlohmann::json provenance(const SearchRequest& request, const SearchReport& report) {
  const int decimals = request.placement.time_decimals;
  nlohmann::json search = {{"strategy", strategy_name(report.strategy)},
                           {"backend", report.backend},
                           {"solve_seconds", seconds_to_json(report.seconds)}};
  if (report.period) {
    search["proven_lower_bound"] = time_to_json(report.period->proven_lower_bound, decimals);
    search["micros_per_window"] = report.period->micros_per_window;
  }
  if (report.makespan) {
    search["shape"] = shape_name(report.makespan->shape);
    search["construction"] = report.makespan->construction;
    search["total_micros"] = report.makespan->total_micros;
    search["makespan_bound"] = time_to_json(report.makespan->proven_lower_bound, decimals);
  }
  return search;
}

}  // namespace tessel::cli
