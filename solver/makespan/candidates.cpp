// The candidates at N: the repetend unrolled, and when it is above the
// bound its pattern for every micro-batch compacted and other windows of
// its period; the cheap aperiodic ones
// always (the best list schedule of the portfolio, the best replay of a
// hand-made family's order), since the repetend's warmup and cooldown are
// built around one window and lose to them at small N; the staged schedule
// when the repetend is more than a percent above the bound; then, while the
// best is above the bound, the large-neighbourhood search re-solves windows
// of the candidates (any size: each window is small), and last the full
// search started from the shortest schedule so far (small problems only: its
// encoding grows with N x the makespan), which shortens it or proves it
// optimal. The search before the proof: the proof's bisection starts from
// the shorter schedule, and on the hand-made families the neighbourhoods,
// not the full search, found every shorter schedule (papers/g_handmade).
#include "solver/makespan/candidates.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/full_search.hpp"
#include "solver/makespan/end_transfer.hpp"
#include "solver/makespan/exact_ends.hpp"
#include "solver/makespan/solved_bounds.hpp"
#include "solver/makespan/family_replay.hpp"
#include "solver/makespan/list_scheduling.hpp"
#include "solver/makespan/memory_trading.hpp"
#include "solver/makespan/modulo_compacted.hpp"
#include "solver/makespan/neighbourhood.hpp"
#include "solver/makespan/order_moves.hpp"
#include "solver/makespan/repetend_variants.hpp"
#include "solver/makespan/shift_search.hpp"
#include "solver/makespan_bound.hpp"
#include "solver/makespan_gap.hpp"
#include "solver/schedule_check.hpp"
#include "solver/staged_schedule.hpp"

namespace tessel {
namespace {

// An aperiodic schedule at N, listed as a candidate.
BuiltCandidate aperiodic_candidate(std::string name, Schedule schedule,
                                   std::chrono::steady_clock::time_point begin, std::string note) {
  BuiltCandidate built;
  built.summary.name = std::move(name);
  built.summary.shape = Shape::Aperiodic;
  built.summary.makespan = makespan(schedule);
  built.summary.seconds = seconds_since(begin);
  built.summary.note = std::move(note);
  built.schedule = schedule;
  built.at_total = std::move(schedule);
  return built;
}

BuiltCandidate repetend_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "repetend";
  built.summary.shape = Shape::Repetend;
  const std::optional<Schedule>& schedule = input.period->schedule;
  if (!schedule || !schedule->repetend) {
    built.summary.note = "no repetend schedule";
    return built;
  }
  try {
    built.at_total = unroll(*schedule, input.total_micros);
    built.schedule = *schedule;
    built.summary.makespan = makespan(*built.at_total);
    built.summary.note = "warmup, the window repeated, cooldown";
  } catch (const InputError& error) {
    built.summary.note = "does not unroll to " + std::to_string(input.total_micros) + ": " + error.reason;
  }
  built.summary.seconds = seconds_since(begin);
  return built;
}

// The repetend's pattern for every micro-batch, compacted
// (modulo_compacted.hpp); listed only when it beats the repetend at N.
std::optional<BuiltCandidate> modulo_candidate(const CandidateInput& input, Time repetend_makespan) {
  const auto begin = std::chrono::steady_clock::now();
  std::optional<Schedule> compact = modulo_compacted(*input.period->schedule, input.total_micros);
  if (!compact || makespan(*compact) >= repetend_makespan) return std::nullopt;
  return aperiodic_candidate("modulo, compacted", std::move(*compact), begin,
                             "the repetend's pattern for every micro-batch, each instance then as early as it can");
}

// Listed only when a variant beats the search's own window at N.
std::optional<BuiltCandidate> variant_candidate(const CandidateInput& input, Time repetend_makespan) {
  if (input.repetend_variants <= 0 || input.options.deadline.expired()) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  VariantRequest request{input.placement, input.period, input.options, input.total_micros, input.repetend_variants,
                         input.variant_seconds};
  request.options.progress = nullptr;
  std::optional<VariantOutcome> variant = best_repetend_variant(request);
  if (!variant || makespan(variant->at_total) >= repetend_makespan) return std::nullopt;
  BuiltCandidate built;
  built.summary.name = "repetend #" + std::to_string(variant->index);
  built.summary.shape = Shape::Repetend;
  built.summary.makespan = makespan(variant->at_total);
  built.summary.note = "another window of the same period and latency (best of " + std::to_string(variant->built) +
                       " built), warmup and cooldown shortened around it";
  built.summary.seconds = seconds_since(begin);
  built.schedule = std::move(variant->schedule);
  built.at_total = std::move(variant->at_total);
  return built;
}

// Built only when it could beat `best` (the shortest candidate so far):
// its middle's repetend search takes up to staged_seconds (nnshape, 16
// devices, memory 16: 2 s of the default search's 5.4, for 1367 against
// the modulo schedule's 1348), and its bound is free.
BuiltCandidate staged_candidate(const CandidateInput& input, std::optional<Time> best) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "staged";
  built.summary.shape = Shape::Staged;
  const long long bound = staged_lower_bound(*input.placement, input.options.memory_limit, input.total_micros);
  if (best && bound >= *best) {
    built.summary.note = "not built: no staged schedule is shorter than " + std::to_string(bound) + ", the best has " +
                         std::to_string(*best);
    return built;
  }
  SearchOptions options = input.options;
  options.deadline = input.options.deadline.within(input.staged_seconds);
  options.boundary_seconds = std::min(options.boundary_seconds, input.staged_seconds / 2);
  options.progress = nullptr;
  if (options.deadline.expired()) {
    built.summary.note = "no time left";
    return built;
  }
  std::optional<StagedSchedule> staged = staged_schedule(*input.placement, options, input.total_micros);
  built.summary.seconds = seconds_since(begin);
  if (!staged) {
    built.summary.note = "no memory-free all-device block to batch, or its middle search found nothing in time";
    return built;
  }
  built.summary.makespan = makespan(staged->schedule);
  built.summary.note = std::to_string(staged->prefix_blocks) + " block(s) batched first, " +
                       std::to_string(staged->suffix_blocks) + " last, the rest a repetend of period " +
                       std::to_string(staged->middle_period);
  built.schedule = staged->schedule;
  built.at_total = staged->schedule;
  return built;
}

BuiltCandidate list_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  BuiltCandidate built;
  built.summary.name = "list";
  built.summary.shape = Shape::Aperiodic;
  const Deadline deadline = input.options.deadline.within(input.list_seconds);
  std::optional<ListBest> best =
      best_list_schedule(*input.placement, input.options.memory_limit, input.total_micros, deadline);
  built.summary.seconds = seconds_since(begin);
  if (!best) {
    // Out of time is not "nothing fits": the runs stop at the deadline.
    built.summary.note = deadline.expired()
                             ? "none within the memory limits before its time ran out (--tune list_seconds)"
                             : "no rule fits the memory limits";
    return built;
  }
  return aperiodic_candidate(std::string("list: ") + list_rule_name(best->run.rule) + " rule, cap " +
                                 std::to_string(best->run.cap) + (best->run.guarded ? "" : " unguarded"),
                             std::move(best->schedule), begin,
                             "best of " + std::to_string(best->runs) + " list-scheduling runs within the memory limits");
}

// Only a placement that offers recomputation gives one (memory_trading.hpp),
// within the list schedules' budget again; its note says what it recomputed.
std::optional<BuiltCandidate> trading_candidate(const CandidateInput& input) {
  if (!offers_memory_choice(*input.placement)) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline = input.options.deadline.within(input.list_seconds);
  std::optional<TradingBest> best =
      best_trading_schedule(*input.placement, input.options.memory_limit, input.total_micros, deadline);
  if (!best) {
    BuiltCandidate built;
    built.summary.name = "list, memory traded";
    built.summary.shape = Shape::Aperiodic;
    built.summary.seconds = seconds_since(begin);
    built.summary.note = "no run finished within the memory limits";
    return built;
  }
  const std::string note = choices_summary(best->schedule) + " (best of " + std::to_string(best->runs) + " runs)";
  return aperiodic_candidate(std::string("list, memory traded: ") + (best->run.backward_first ? "1f1b" : "zb") +
                                 " rule, cap " + std::to_string(best->run.cap) + ", pressure " +
                                 std::to_string(static_cast<int>(best->run.pressure * 100)) + "%",
                             std::move(best->schedule), begin, note);
}

// Only a placement of a family's stage shape gives one; otherwise nothing
// is listed.
std::optional<BuiltCandidate> replay_candidate(const CandidateInput& input) {
  const auto begin = std::chrono::steady_clock::now();
  std::vector<Replay> replays = family_replays(*input.placement, input.options.memory_limit, input.total_micros);
  if (replays.empty()) return std::nullopt;
  const Replay* best = nullptr;
  for (const Replay& replay : replays)
    if (!best || makespan(replay.schedule) < makespan(best->schedule)) best = &replay;
  return aperiodic_candidate("replay: " + best->family, best->schedule, begin,
                             "the family's own order run on this placement (best of " +
                                 std::to_string(replays.size()) + " fitting families)");
}

// The judge's verdict on a candidate before anything else sees it (the
// offers, the choice, the improvements that start from the best): a
// rejected one keeps its name in the list, loses its schedule, and is
// recorded in `rejected`. A repetend's unrollable form is judged too: it is
// what -o writes when the candidate wins.
bool admitted(const CandidateInput& input, BuiltCandidate& built, std::vector<RejectedCandidate>& rejected) {
  // Past the deadline no improvement starts from it: solve() judges only
  // the one it chooses, once (its cost grows with N x blocks).
  if (!input.judge || !built.at_total || input.options.deadline.expired()) return true;
  std::optional<std::string> violation = input.judge(*built.at_total);
  if (!violation && built.schedule && built.schedule->repetend) violation = input.judge(*built.schedule);
  if (!violation) return true;
  rejected.push_back({built.summary.name, *violation});
  built.summary.note = "rejected by the verifier (a bug in this phase): " + *violation;
  built.summary.makespan.reset();
  built.schedule.reset();
  built.at_total.reset();
  built.proven_lower_bound.reset();
  return false;
}

// Judged, then listed; whether it was admitted.
bool add(const CandidateInput& input, BuiltCandidate built, std::vector<BuiltCandidate>& candidates,
         std::vector<RejectedCandidate>& rejected) {
  const bool valid = admitted(input, built, rejected);
  candidates.push_back(std::move(built));
  return valid;
}

// The constructions that need no solver, appended: the list schedules and
// the family replays at input.total_micros.
void append_constructions(const CandidateInput& input, std::vector<BuiltCandidate>& candidates,
                          std::vector<RejectedCandidate>& rejected) {
  add(input, list_candidate(input), candidates, rejected);
  if (std::optional<BuiltCandidate> traded = trading_candidate(input))
    add(input, std::move(*traded), candidates, rejected);
  if (std::optional<BuiltCandidate> replay = replay_candidate(input))
    add(input, std::move(*replay), candidates, rejected);
}

// The shortest schedule at N among the candidates that has no fused units
// (the full search's encoding has none).
const Schedule* best_plain(const std::vector<BuiltCandidate>& candidates) {
  const Schedule* best = nullptr;
  for (const BuiltCandidate& built : candidates)
    if (built.at_total && built.at_total->fused.empty() && built.at_total->recomputes.empty() &&
        built.at_total->transfers.empty() && (!best || makespan(*built.at_total) < makespan(*best)))
      best = &*built.at_total;
  return best;
}

std::optional<BuiltCandidate> improved_candidate(const CandidateInput& input, const Schedule& start,
                                                 const Candidates& so_far) {
  if (input.improve_seconds <= 0 || input.options.deadline.expired()) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  SearchOptions options = input.options;
  options.total_micros = input.total_micros;
  // Given a time limit and `improve_share`, a share of what is left: the
  // full search's first question, one step below the best, can take tens of
  // seconds on 16 ranks (interleaved zero bubble, N 16: 10 s to go below
  // the hand-made 205, 41 s to prove 200 optimal).
  options.deadline = input.options.deadline.within_budget(input.improve_seconds, input.improve_share);
  options.progress = nullptr;
  Schedule plain = start;
  plain.repetend.reset();
  if (input.options.progress)
    input.options.progress("improve: the full search from the best (" + std::to_string(makespan(start)) + ")");
  SearchResult result;
  try {
    const bool settled = so_far.ends_settled(makespan(start));
    result = search_full(*input.placement, options, plain, settled ? &so_far.bound : nullptr);
  } catch (const InputError&) {
    return std::nullopt;  // an encoding past its budget: too large to improve this way
  }
  if (!result.schedule) return std::nullopt;
  const bool proven = result.status == SearchStatus::Found;
  BuiltCandidate built = aperiodic_candidate(
      "improve: full search", std::move(*result.schedule), begin,
      "the full encoding started from the best candidate (" + std::to_string(makespan(start)) + ")" +
          (proven ? ", optimal for this N" : ", stopped by its time budget"));
  if (proven) built.proven_lower_bound = result.proven_lower_bound;
  return built;
}

// Offers each schedule an improvement finds as it comes, those shorter than
// `below` only (see CandidateInput::offer).
OnShorter offer_below(const CandidateInput& input, Time below, const char* phase) {
  if (!input.offer) return {};
  return [&input, below, phase](const Schedule& shorter) {
    if (makespan(shorter) < below) input.offer(shorter, Shape::Aperiodic, makespan(shorter), phase);
  };
}

// Every instance of the best moved a little at once (shift_search.hpp);
// listed only when it shortened the best.
std::optional<BuiltCandidate> shift_candidate(const CandidateInput& input, const Schedule& start, Time bound) {
  if (input.shift_seconds <= 0 || input.options.deadline.expired()) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  SearchOptions options = input.options;
  options.deadline = input.options.deadline.within_budget(input.shift_seconds, input.shift_share);
  ShiftStats stats;
  Schedule improved = improve_by_shifts(start, options, bound, &stats, offer_below(input, makespan(start), "improve: shifts"));
  if (makespan(improved) >= makespan(start)) return std::nullopt;
  return aperiodic_candidate(
      "improve: shifts", std::move(improved), begin,
      "every instance of the best (" + std::to_string(makespan(start)) + ") free within " +
                       std::to_string(stats.largest_shift) + " steps of its start, all at once: " +
                       std::to_string(stats.improvements) + " shorter schedules in " +
                       std::to_string(stats.encodings) + " encodings" +
                       (stats.questions_out_of_time ? " (" + std::to_string(stats.questions_out_of_time) +
                                                          " questions out of their share)"
                                                    : ""));
}

// The ends of a schedule of kTransferMicros shortened there and moved into
// the best at N (end_transfer.hpp): list schedules and replays at that N,
// the shift search from the best of them (most of the budget), then the
// splice. Listed only when it shortened the best.
constexpr int kTransferMicros = 16;

std::optional<BuiltCandidate> transfer_candidate(const CandidateInput& input, const Schedule& start,
                                                 std::vector<RejectedCandidate>& rejected) {
  if (input.transfer_seconds <= 0 || input.total_micros < 2 * kTransferMicros || input.options.deadline.expired())
    return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  CandidateInput small = input;
  small.total_micros = kTransferMicros;
  small.options.deadline = input.options.deadline.within_budget(input.transfer_seconds, input.transfer_share);
  small.options.total_micros = kTransferMicros;
  small.options.progress = nullptr;
  small.list_seconds = std::min(input.list_seconds, small.options.deadline.seconds_left() / 4);
  small.offer = nullptr;
  if (input.options.progress)
    input.options.progress("ends: shortening a schedule of " + std::to_string(kTransferMicros) +
                           " micro-batches to move its warmup or cooldown into the best (" +
                           std::to_string(makespan(start)) + ")");
  std::vector<BuiltCandidate> smaller;
  std::vector<RejectedCandidate> rejected_small;
  append_constructions(small, smaller, rejected_small);
  for (RejectedCandidate& bad : rejected_small)
    rejected.push_back({bad.phase + " (ends of N " + std::to_string(kTransferMicros) + ")", std::move(bad.violation)});
  const Schedule* small_start = best_plain(smaller);
  if (!small_start) return std::nullopt;
  const Time small_bound = makespan_lower_bound(*input.placement, kTransferMicros, input.options.memory_limit);
  SearchOptions shifting = small.options;
  shifting.deadline = small.options.deadline.within(0.8 * small.options.deadline.seconds_left());
  const Schedule small_best = improve_by_shifts(*small_start, shifting, small_bound);
  TransferStats stats;
  std::optional<Schedule> spliced = transfer_ends(start, small_best, small.options.deadline, &stats);
  if (!spliced) return std::nullopt;
  return aperiodic_candidate(
      "improve: ends of N " + std::to_string(kTransferMicros), std::move(*spliced), begin,
      "the best (" + std::to_string(makespan(start)) + ") with the warmup or cooldown of a " +
                       std::to_string(kTransferMicros) + "-micro-batch schedule shortened to " +
                       std::to_string(makespan(small_best)) + " (from " + std::to_string(makespan(*small_start)) +
                       "), " + std::to_string(stats.fitted) + " of " + std::to_string(stats.tried) +
                       " spliced orders within the limits");
}

// The best's device orders changed one move at a time (order_moves.hpp);
// listed only when it shortened the best.
std::optional<BuiltCandidate> order_candidate(const CandidateInput& input, const Schedule& start, Time bound) {
  if (input.order_seconds <= 0 || input.options.deadline.expired() || !order_moves_apply(start)) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  const Deadline deadline = input.options.deadline.within_budget(input.order_seconds, input.order_share);
  if (input.options.progress)
    input.options.progress("device orders: tabu search from the best (" + std::to_string(makespan(start)) + ")");
  OrderMovesStats stats;
  Schedule improved = improve_by_order_moves(start, input.options.memory_limit, deadline, bound, &stats,
                                             offer_below(input, makespan(start), "improve: device orders"));
  if (makespan(improved) >= makespan(start)) return std::nullopt;
  return aperiodic_candidate(
      "improve: device orders", std::move(improved), begin,
      "the best's (" + std::to_string(makespan(start)) +
                       ") device orders, one instance moved per step along the longest path (tabu search): " +
                       std::to_string(stats.improvements) + " shorter schedules in " + std::to_string(stats.steps) +
                       " steps, " + std::to_string(stats.evaluations) + " orders run, " +
                       std::to_string(stats.restarts) + " restarts");
}

// With two threads or more, the tabu search on device orders runs on its
// own thread beside the solver phases that follow the constructions (the
// solved bounds, the shift search, the end transfer), which keep one core
// busy and leave the other idle (16 ranks: 2-3 s of a default search's 4.5):
// from a copy of the best, for at least its budget and until those phases
// are done. Its schedule is offered from this thread when it is collected.
class OrdersBeside {
 public:
  static bool wanted(const CandidateInput& input, const Schedule& start) {
    return input.options.threads >= 2 && input.order_seconds > 0 && order_moves_apply(start) &&
           !input.options.deadline.sibling_stop;
  }
  OrdersBeside(const CandidateInput& input, const Schedule& start, Time bound)
      : input_(input), start_(start), begin_(std::chrono::steady_clock::now()) {
    budget_ = input.options.deadline.within_budget(input.order_seconds, input.order_share).seconds_left();
    CandidateInput own = input;
    own.offer = nullptr;
    own.order_seconds = 3600;  // until stopped: the plan's deadline or the flag
    own.order_share = 0;
    own.options.deadline = input.options.deadline.with_sibling_stop(&stop_);
    worker_ = std::thread([this, own, bound] {
      try {
        found_ = order_candidate(own, start_, bound);
      } catch (...) {
        failure_ = std::current_exception();
      }
      done_ = true;
    });
  }
  ~OrdersBeside() { stop(); }
  // Waits until the search had its budget (or ended, or `settled`: the best
  // is at the bound), stops it and returns its candidate.
  std::optional<BuiltCandidate> collect(bool settled) {
    while (!done_ && !settled && seconds_since(begin_) < budget_ && !input_.options.deadline.expired())
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stop();
    if (failure_) std::rethrow_exception(failure_);
    if (found_) found_->summary.note += " (beside the solver phases)";
    return std::move(found_);
  }

 private:
  void stop() {
    stop_ = true;
    if (worker_.joinable()) worker_.join();
  }
  const CandidateInput& input_;
  const Schedule start_;  // a copy: the candidates it came from may move
  const std::chrono::steady_clock::time_point begin_;
  double budget_ = 0;
  StopFlag stop_{false};
  std::atomic<bool> done_{false};
  std::optional<BuiltCandidate> found_;
  std::exception_ptr failure_;
  std::thread worker_;
};

// Windows of the candidates re-solved one at a time (neighbourhood.hpp),
// from the shortest once each is compacted (a longer one may hide more
// slack), the others as restarts; listed only when it shortened the best.
std::optional<BuiltCandidate> neighbourhood_candidate(const CandidateInput& input,
                                                      const std::vector<BuiltCandidate>& candidates, Time bound) {
  if (input.lns_seconds <= 0 || input.options.deadline.expired()) return std::nullopt;
  const auto begin = std::chrono::steady_clock::now();
  std::optional<Time> before;
  std::vector<Schedule> starts;
  for (const BuiltCandidate& built : candidates) {
    if (!built.at_total) continue;
    starts.push_back(*built.at_total);
    starts.back().repetend.reset();
    if (!before || makespan(*built.at_total) < *before) before = makespan(*built.at_total);
  }
  if (starts.empty()) return std::nullopt;
  // Given a time limit and `lns_share`, the search may use a share of what
  // is left: the neighbourhoods keep finding shorter schedules long after
  // their default half second (interleaved 1F1B, 4 ranks, N 32: 332 -> 331
  // in 10 s), and they stop at the bound.
  SearchOptions options = input.options;
  options.deadline = input.options.deadline.within_budget(input.lns_seconds, input.lns_share);
  NeighbourhoodStats stats;
  // A line as it starts: the heartbeat repeats the last one, which would
  // otherwise still name the shift search's last question.
  if (options.progress)
    options.progress("neighbourhoods: re-solving windows of " + std::to_string(starts.size()) +
                     " candidates, from the shortest (" + std::to_string(*before) + ")");
  Schedule improved = improve_by_neighbourhoods(starts, options, bound, &stats, offer_below(input, *before, "improve: neighbourhoods"));
  if (improved.instances.empty() || makespan(improved) >= *before) return std::nullopt;
  return aperiodic_candidate(
      "improve: neighbourhoods", std::move(improved), begin,
      "candidates compacted, then windows re-solved: " + std::to_string(stats.improvements) +
                       " shortened it, " + std::to_string(stats.moves) + " moves of " +
                       std::to_string(stats.windows) + " windows (" + std::to_string(stats.timeouts) + " out of time) in " +
                       std::to_string(stats.rounds) +
                       " rounds, " + std::to_string(stats.restarts) + " restarts");
}

// With two threads or more, the two improvements run side by side: the
// neighbourhoods on this thread, the full search from the same start on
// another. They find different schedules: on the hand-made families the
// neighbourhoods found every shorter schedule of 124 rows of
// papers/g_handmade, the full search the only shorter ones of four ties
// (interleaved zero bubble and 1F1B, 16 ranks, N 16), where its first
// question takes 8-15 s, more than it gets after the neighbourhoods. Side by
// side, the full search has the neighbourhoods' budget (their share of a
// time limit, if either has one; without a limit their seconds: in the
// default search it found nothing shorter in any row of
// cases/bench/handmade_table.md and makespan_table.md, and its 2 s after the
// neighbourhoods were the slowest rows' last seconds), and the first to
// settle the question stops the other: the neighbourhoods at the bound, the
// full search with its answer proven optimal.
bool side_by_side(const CandidateInput& input) {
  return input.options.threads >= 2 && input.lns_seconds > 0 && input.improve_seconds > 0 &&
         !input.options.deadline.sibling_stop;  // one sibling flag per deadline: already a sibling, run in turn
}

struct SideBySide {
  std::optional<BuiltCandidate> neighbourhoods;  // listed only when it shortened the best
  std::optional<BuiltCandidate> full;
};

SideBySide improved_side_by_side(const CandidateInput& input, const Candidates& so_far, const Schedule& start) {
  const std::vector<BuiltCandidate>& candidates = so_far.built;
  const Time bound = so_far.bound.value;
  StopFlag stop_neighbourhoods{false}, stop_full{false};
  CandidateInput lns_input = input;
  lns_input.options.deadline = input.options.deadline.with_sibling_stop(&stop_neighbourhoods);
  CandidateInput full_input = input;
  full_input.options.threads = 1;
  full_input.improve_share = std::max(input.improve_share, input.lns_share);
  full_input.improve_seconds = input.lns_seconds;
  full_input.options.deadline = input.options.deadline.with_sibling_stop(&stop_full);
  full_input.offer = nullptr;  // offered from this thread once both are done

  SideBySide improved;
  std::optional<BuiltCandidate>& full = improved.full;
  std::exception_ptr failure;
  std::thread full_thread([&] {
    try {
      full = improved_candidate(full_input, start, so_far);
      if (full && full->proven_lower_bound) stop_neighbourhoods = true;
    } catch (...) {
      failure = std::current_exception();
      stop_neighbourhoods = true;
    }
  });
  std::optional<BuiltCandidate>& neighbourhoods = improved.neighbourhoods;
  try {
    neighbourhoods = neighbourhood_candidate(lns_input, candidates, bound);
  } catch (...) {
    stop_full = true;
    full_thread.join();
    throw;
  }
  if (neighbourhoods && *neighbourhoods->summary.makespan <= bound) stop_full = true;
  full_thread.join();
  if (failure) std::rethrow_exception(failure);

  if (full) full->summary.note += " (side by side with the neighbourhoods)";
  return improved;
}

// Offers the candidates appended since `offered` that are shorter than all
// before (see CandidateInput::offer).
void offer_new(const CandidateInput& input, const std::vector<BuiltCandidate>& candidates, size_t& offered,
               std::optional<Time>& shortest) {
  for (; offered < candidates.size(); ++offered) {
    const BuiltCandidate& built = candidates[offered];
    if (!built.schedule || !built.summary.makespan || (shortest && *built.summary.makespan >= *shortest)) continue;
    shortest = built.summary.makespan;
    if (input.offer) input.offer(*built.schedule, built.summary.shape, *built.summary.makespan, built.summary.name);
  }
}

}  // namespace

Candidates build_candidates(const CandidateInput& input) {
  Candidates result;
  std::vector<BuiltCandidate>& candidates = result.built;
  std::vector<RejectedCandidate>& rejected = result.rejected;
  // `start` below points into the list: no reallocation (a dozen at most).
  candidates.reserve(32);
  MakespanBound& bound = result.bound;
  size_t offered = 0;
  std::optional<Time> shortest;
  add(input, repetend_candidate(input), candidates, rejected);
  offer_new(input, candidates, offered, shortest);
  const std::optional<Time> repetend_makespan = candidates.front().summary.makespan;
  bound = makespan_bound(*input.placement, input.total_micros, input.options.memory_limit);
  if (repetend_makespan && *repetend_makespan > bound.value) {
    if (std::optional<BuiltCandidate> modulo = modulo_candidate(input, *repetend_makespan))
      add(input, std::move(*modulo), candidates, rejected);
    if (std::optional<BuiltCandidate> variant = variant_candidate(input, *repetend_makespan))
      add(input, std::move(*variant), candidates, rejected);
  }
  const bool close = repetend_makespan && relative_gap(*repetend_makespan, bound.value) <= input.gap_to_try_others;
  offer_new(input, candidates, offered, shortest);
  if (!close) add(input, staged_candidate(input, shortest), candidates, rejected);
  offer_new(input, candidates, offered, shortest);
  if (input.options.deadline.expired()) return result;
  append_constructions(input, candidates, rejected);
  offer_new(input, candidates, offered, shortest);
  const Schedule* start = best_plain(candidates);
  if (!start || makespan(*start) <= bound.value) return result;
  // The solved bounds first when the gap is wide, where it lies in the ends
  // and they may prove the best optimal, so that no improvement runs for
  // nothing; a gap within the staged schedule's 1% is usually closed by the
  // improvements (nnshape, 8 devices, memory 16: 1053 against 1052, which
  // the ends cannot prove and the neighbourhoods reach), and the report
  // asks them afterwards if it is not.
  const bool wide = relative_gap(makespan(*start), bound.value) > input.gap_to_try_others;
  const SearchOptions& options = input.options;
  std::optional<OrdersBeside> orders;
  if (OrdersBeside::wanted(input, *start)) orders.emplace(input, *start, bound.value);
  if (wide && !options.deadline.expired() && solved_bounds_on(options)) {
    result.ends_asked_at = makespan(*start);
    bound = raised_by_solved_bounds(*input.placement, input.total_micros, options, makespan(*start), bound, 0.5,
                                    &result.ends_ran, start);
  }
  // An improvement's candidate becomes the start of the next one only when
  // the judge admits it; its gains were offered as they came (each judged
  // by the offer), except those collected from another thread.
  auto take = [&](BuiltCandidate built, bool offered_as_found) {
    if (!add(input, std::move(built), candidates, rejected)) {
      offered = candidates.size();
      return;
    }
    if (offered_as_found) {
      offered = candidates.size();
      shortest = candidates.back().summary.makespan;
    } else {
      offer_new(input, candidates, offered, shortest);
    }
    start = &*candidates.back().at_total;
  };
  const bool settled = makespan(*start) <= bound.value;
  if (!settled) {
    if (std::optional<BuiltCandidate> shifted = shift_candidate(input, *start, bound.value)) take(std::move(*shifted), true);
  }
  if (!settled && makespan(*start) > bound.value) {
    if (std::optional<BuiltCandidate> transferred = transfer_candidate(input, *start, rejected))
      take(std::move(*transferred), false);
  }
  std::optional<BuiltCandidate> reordered = orders ? orders->collect(makespan(*start) <= bound.value)
                                            : makespan(*start) > bound.value ? order_candidate(input, *start, bound.value)
                                                                             : std::nullopt;
  if (reordered && *reordered->summary.makespan < makespan(*start)) {
    take(std::move(*reordered), !orders);
  } else if (reordered) {
    add(input, std::move(*reordered), candidates, rejected);  // listed: it shortened the start it was given
    offer_new(input, candidates, offered, shortest);
  }
  if (makespan(*start) <= bound.value) return result;
  if (side_by_side(input)) {
    SideBySide improved = improved_side_by_side(input, result, *start);
    if (improved.neighbourhoods) take(std::move(*improved.neighbourhoods), true);
    if (improved.full) add(input, std::move(*improved.full), candidates, rejected);
    offer_new(input, candidates, offered, shortest);
    return result;
  }
  if (std::optional<BuiltCandidate> improved = neighbourhood_candidate(input, candidates, bound.value)) {
    take(std::move(*improved), true);
    if (makespan(*start) <= bound.value) return result;
  }
  if (std::optional<BuiltCandidate> improved = improved_candidate(input, *start, result)) {
    add(input, std::move(*improved), candidates, rejected);
    offer_new(input, candidates, offered, shortest);
  }
  return result;
}

}  // namespace tessel
