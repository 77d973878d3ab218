// The period decided with recomputation or offload chosen (recompute_choice.hpp).
#include "solver/solve/recompute_choice.hpp"

#include <algorithm>

#include "sat/backend.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/solve/channel_copies.hpp"
#include "solver/modulo/window_placement.hpp"

namespace tessel {

namespace {

// A block of the choice placement: `of`'s devices and stage, memory 0.
int append_block(Placement& placement, const Block& of, const std::string& suffix, BlockKind kind, Time span) {
  Block block;
  block.id = of.id + suffix;
  block.kind = kind;
  block.span = span;
  block.memory = 0;
  block.stage = of.stage;
  block.devices = of.devices;
  placement.blocks.push_back(block);
  return static_cast<int>(placement.blocks.size()) - 1;
}

// Whether some forward on one of `block`'s devices offers offload (then
// copies may start there while `block` runs).
bool copies_beside(const Placement& window, const Block& block) {
  for (const Block& other : window.blocks)
    if (other.offload)
      for (int device : block.devices)
        if (on_device(other, device)) return true;
  return false;
}

// Forward f's recompute run, after a marker of f's end where copies may
// start beside f (optional_recompute.hpp says why).
void append_recompute(RecomputeChoicePlacement& choice, int f) {
  Placement& placement = choice.placement;
  const Block forward = choice.window.blocks[f];
  OptionalRecompute optional{f, 0, forward.memory - forward.recompute->checkpoint_memory, -1};
  int after = f;
  if (copies_beside(choice.window, forward)) {
    optional.release = append_block(placement, forward, "~recomputed", BlockKind::Other, 0);
    placement.edges.push_back({f, optional.release, 0});
    after = optional.release;
  }
  optional.recompute = append_block(placement, forward, "~recompute", forward.kind, forward.recompute->span);
  placement.edges.push_back({after, optional.recompute, 0});
  placement.edges.push_back({optional.recompute, forward.recompute->before, 0});
  choice.optional.push_back(optional);
}

// Forward f's copy out, the marker of its end and its copy in, in a chain
// from f to the offer's `before`.
void append_offload(RecomputeChoicePlacement& choice, int f) {
  Placement& placement = choice.placement;
  const Block forward = choice.window.blocks[f];
  OptionalOffload optional{f, 0, 0, 0, forward.memory};
  optional.out = append_block(placement, forward, "~out", BlockKind::Other, forward.offload->out);
  optional.released = append_block(placement, forward, "~offloaded", BlockKind::Other, 0);
  optional.in = append_block(placement, forward, "~in", BlockKind::Other, forward.offload->in);
  const std::pair<int, int> chain[] = {{f, optional.out}, {optional.out, optional.released},
                                       {optional.released, optional.in}, {optional.in, forward.offload->before}};
  for (const auto& [from, to] : chain) placement.edges.push_back({from, to, 0});
  choice.offloads.push_back(optional);
}

}  // namespace

std::optional<RecomputeChoicePlacement> recompute_choice_placement(const Placement& original, int k) {
  RecomputeChoicePlacement choice;
  choice.micros_per_window = k;
  choice.blocks_per_copy = static_cast<int>(original.blocks.size());
  choice.window = window_placement(original, k);
  choice.placement = choice.window;
  const int blocks = static_cast<int>(choice.window.blocks.size());
  for (int f = 0; f < blocks; ++f)
    if (choice.window.blocks[f].recompute) append_recompute(choice, f);
  // A copy of nothing frees nothing: keeping such a forward is never worse.
  for (int f = 0; f < blocks; ++f)
    if (choice.window.blocks[f].offload && choice.window.blocks[f].memory > 0) append_offload(choice, f);
  if (choice.optional.empty() && choice.offloads.empty()) return std::nullopt;
  for (Block& block : choice.placement.blocks) block.recompute.reset(), block.offload.reset();
  return choice;
}

namespace {

// One micro-batch's first start to last end over the blocks that run.
Time latency_of(const std::vector<int>& starts, const Placement& placement, const ModuloEncoding& encoding,
                const RecomputeChoiceAnswer& answer) {
  long long first = starts.empty() ? 0 : starts[0], last = 0;
  for (size_t b = 0; b < starts.size(); ++b) {
    const int optional = encoding.optional_of[b], offload = encoding.offload_of[b];
    if ((optional >= 0 && !answer.chosen[optional]) || (offload >= 0 && !answer.offloaded[offload])) continue;
    first = std::min<long long>(first, starts[b]);
    last = std::max<long long>(last, starts[b] + placement.blocks[b].span);
  }
  return last - first;
}

void read_answer(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                 RecomputeChoiceAnswer& answer) {
  answer.starts = decode_starts(backend, encoding, period);
  answer.chosen.clear();
  for (Lit lit : encoding.chosen) answer.chosen.push_back(backend.value(lit));
  answer.offloaded.clear();
  for (Lit lit : encoding.offloaded) answer.offloaded.push_back(backend.value(lit));
  answer.latency = latency_of(answer.starts, placement, encoding, answer);
}

// Bisects the latency of one micro-batch at the found period, down to the
// critical path, keeping the last answer found.
// `low`: the critical path without recomputes.
void shorten_latency(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                     Time low, RecomputeChoiceAnswer& answer, const Deadline& deadline) {
  while (low < answer.latency) {
    const Time middle = low + (answer.latency - low) / 2;
    const Lit bounded = latency_literal(backend, encoding, placement, period, static_cast<int>(middle));
    const Answer got = backend.solve({period_assumption(encoding, period), bounded}, deadline);
    if (got == Answer::Unknown) return;
    if (got == Answer::Unsat) low = middle + 1;
    else read_answer(backend, encoding, placement, period, answer);
  }
  answer.latency_minimal = true;
}

// Recomputing costs device time and offloading copy time: where the period
// and latency found hold with every activation kept, keep them all.
void keep_where_possible(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                         RecomputeChoiceAnswer& answer, const Deadline& deadline) {
  if (std::find(answer.chosen.begin(), answer.chosen.end(), true) == answer.chosen.end() &&
      std::find(answer.offloaded.begin(), answer.offloaded.end(), true) == answer.offloaded.end())
    return;
  std::vector<Lit> keep{period_assumption(encoding, period),
                        latency_literal(backend, encoding, placement, period, static_cast<int>(answer.latency))};
  for (Lit lit : encoding.chosen) keep.push_back(~lit);
  for (Lit lit : encoding.offloaded) keep.push_back(~lit);
  if (backend.solve(keep, deadline) == Answer::Sat) read_answer(backend, encoding, placement, period, answer);
}

}  // namespace

double choice_encoding_terms(const RecomputeChoicePlacement& choice, const RecomputeChoiceQuestion& question) {
  const Placement& placement = choice.placement;
  const double periods = std::max(0, question.periods.last - question.periods.first + 1);
  const double longest = std::max(0, question.periods.last);
  const double in_flight = std::max(1, question.max_in_flight);
  // One memory bound per device and phase, a sum over the device's blocks
  // that change its memory, each allocation's quotient gap to its free and
  // each offer's count of releases (both unary up to Kmax): a counter of
  // about its terms squared.
  std::vector<double> terms(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) terms[device] += (block.memory != 0) + (block.memory > 0 ? in_flight : 0);
  auto released_on = [&](int forward) {
    for (int device : placement.blocks[forward].devices) terms[device] += in_flight;
  };
  for (const OptionalRecompute& optional : choice.optional) released_on(optional.forward);
  for (const OptionalOffload& offload : choice.offloads) released_on(offload.forward);
  double sums = 0;
  for (double device_terms : terms) sums += longest * device_terms * device_terms;
  // Every start bounded at every quotient value, per period.
  return sums + periods * static_cast<double>(placement.blocks.size()) * (in_flight + longest);
}

namespace {

// One encoding of the question's periods, asked by assumption.
struct ChoiceSolver {
  const RecomputeChoiceQuestion& question;
  const RecomputeChoicePlacement& choice;
  Backend& backend;
  const ModuloEncoding& encoding;

  Answer ask(int period, const Deadline& deadline) {
    return backend.solve({period_assumption(encoding, period)}, deadline);
  }
  void take(int period, RecomputeChoiceAnswer& answer) {
    answer.period = period;
    read_answer(backend, encoding, choice.placement, period, answer);
  }
};

// From the first period up, until one is found (true) or the deadline
// strikes (false, `undecided` the period asked then); each refuted one
// raises the proven bound. The first question has the whole deadline (the
// first call of a fresh solver is its slowest, and L itself is often found:
// offload); once it is refuted, the rest of the rise has half of what is
// left.
bool rise(ChoiceSolver& solver, const Deadline& deadline, RecomputeChoiceAnswer& answer, int& undecided) {
  Deadline until = deadline;
  for (int period = solver.question.periods.first; period <= solver.question.periods.last; ++period) {
    const Answer got = solver.ask(period, until);
    if (got == Answer::Unknown) {
      undecided = period;
      return false;
    }
    if (got == Answer::Sat) {
      solver.take(period, answer);
      return true;
    }
    answer.proven_lower_bound = period + 1;
    ++answer.refuted;
    if (period == solver.question.periods.first) until = deadline.within(deadline.seconds_left() / 2);
  }
  return true;  // every period refuted
}

// From the last period down to `lowest` (every period below it refuted),
// keeping the least found, until one is not found; decided when `lowest`
// itself is found.
void descend(ChoiceSolver& solver, int lowest, const Deadline& deadline, RecomputeChoiceAnswer& answer) {
  for (int period = solver.question.periods.last; period >= lowest; --period) {
    if (solver.ask(period, deadline) != Answer::Sat) return;
    solver.take(period, answer);
  }
  answer.decided = true;
}

}  // namespace

RecomputeChoiceAnswer decide_periods_choosing_recompute(const RecomputeChoiceQuestion& question,
                                                        const Deadline& deadline) {
  RecomputeChoiceAnswer answer;
  answer.proven_lower_bound = question.periods.first;
  const std::optional<RecomputeChoicePlacement> choice =
      recompute_choice_placement(*question.placement, question.micros_per_window);
  if (!choice || question.periods.last < question.periods.first) return answer;
  std::unique_ptr<Backend> backend = make_backend(question.backend);
  ModuloRules rules;
  rules.optional = choice->optional;
  rules.offloads = choice->offloads;
  rules.without_optional = &choice->window;
  const ModuloEncoding encoding = encode_modulo(*backend, choice->placement, question.memory_limit,
                                                question.periods, question.max_in_flight, rules, deadline);
  answer.decided = false;
  if (!encoding.complete) return answer;
  ChoiceSolver solver{question, *choice, *backend, encoding};
  // Proof first, from L up; then, if that did not end, answers from the
  // top down with the rest: the periods just below the one kept are
  // usually found at once where refuting those near L is the hard part
  // (under --resolution 100 the 15 rounded periods of nnshape 16/16, refuted
  // one by one from L).
  int undecided = question.periods.first;
  answer.decided = rise(solver, deadline, answer, undecided);
  if (!answer.decided) descend(solver, undecided, deadline, answer);
  if (!answer.period) return answer;
  const int period = static_cast<int>(*answer.period);
  if (question.minimise_latency)
    shorten_latency(*backend, encoding, choice->placement, period, critical_path(choice->window), answer, deadline);
  keep_where_possible(*backend, encoding, choice->placement, period, answer, deadline);
  return answer;
}

namespace {

// Window g's chosen copies (those of micro-batches below `nmicros`).
void list_copies(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer, int g, int nmicros,
                 Schedule& schedule) {
  const Time period = *answer.period;
  for (size_t i = 0; i < choice.offloads.size(); ++i) {
    const OptionalOffload& offload = choice.offloads[i];
    const int micro = g * choice.micros_per_window + window_position(choice, offload.forward);
    if (!answer.offloaded[i] || micro >= nmicros) continue;
    const int block = original_block(choice, offload.forward);
    schedule.transfers.push_back({block, micro, TransferDirection::Out, g * period + answer.starts[offload.out]});
    schedule.transfers.push_back({block, micro, TransferDirection::In, g * period + answer.starts[offload.in]});
  }
}

}  // namespace

Schedule unrolled_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                     const Placement& original, const std::vector<Memory>& limits, int nmicros) {
  Schedule schedule = empty_schedule(original, limits, nmicros);
  const Time period = *answer.period;
  const int k = choice.micros_per_window;
  for (int g = 0; g * k < nmicros; ++g) {
    for (size_t w = 0; w < choice.window.blocks.size(); ++w) {
      const int micro = g * k + window_position(choice, static_cast<int>(w));
      if (micro < nmicros) schedule.instances.push_back({original_block(choice, static_cast<int>(w)), micro, g * period + answer.starts[w]});
    }
    for (size_t i = 0; i < choice.optional.size(); ++i) {
      const int forward = choice.optional[i].forward, micro = g * k + window_position(choice, forward);
      if (answer.chosen[i] && micro < nmicros)
        schedule.recomputes.push_back({original_block(choice, forward), micro, g * period + answer.starts[choice.optional[i].recompute]});
    }
    list_copies(choice, answer, g, nmicros, schedule);
  }
  sort_instances(schedule);
  return schedule;
}

namespace {

// The window placement with the chosen recomputes only, as blocks after the
// window's; `forward_of` gets each one's window forward.
Placement window_with_chosen(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                             std::vector<int>& forward_of) {
  Placement chosen = choice.window;
  for (size_t i = 0; i < choice.optional.size(); ++i) {
    if (!answer.chosen[i]) continue;
    const int run = static_cast<int>(chosen.blocks.size()), forward = choice.optional[i].forward;
    chosen.blocks.push_back(choice.placement.blocks[choice.optional[i].recompute]);
    chosen.edges.push_back({forward, run, 0});
    chosen.edges.push_back({run, choice.window.blocks[forward].recompute->before, 0});
    forward_of.push_back(forward);
  }
  // An offloading forward keeps its block; what needs its activation waits
  // at least both copies (lay_copies puts them on the channels afterwards).
  for (size_t i = 0; i < choice.offloads.size(); ++i) {
    if (!answer.offloaded[i]) continue;
    const OffloadOffer& offer = *choice.window.blocks[choice.offloads[i].forward].offload;
    chosen.edges.push_back({choice.offloads[i].forward, offer.before, offer.out + offer.in});
  }
  return chosen;
}

// (forward block, micro-batch) of every chosen offload below `nmicros`.
std::vector<std::pair<int, int>> offloaded_instances(const RecomputeChoicePlacement& choice,
                                                     const RecomputeChoiceAnswer& answer, int nmicros) {
  std::vector<std::pair<int, int>> copied;
  const int k = choice.micros_per_window;
  for (int g = 0; g * k < nmicros; ++g)
    for (size_t i = 0; i < choice.offloads.size(); ++i) {
      const int forward = choice.offloads[i].forward, micro = g * k + window_position(choice, forward);
      if (answer.offloaded[i] && micro < nmicros) copied.push_back({original_block(choice, forward), micro});
    }
  return copied;
}

}  // namespace

Schedule compacted_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                      const Placement& original, const std::vector<Memory>& limits, int nmicros) {
  std::vector<int> forward_of;
  const Placement chosen = window_with_chosen(choice, answer, forward_of);
  const int k = choice.micros_per_window, windows = (nmicros + k - 1) / k;
  const int blocks = static_cast<int>(choice.window.blocks.size());
  const Time period = *answer.period;
  Schedule laid = empty_schedule(chosen, limits, windows);
  for (int g = 0; g < windows; ++g)
    for (int w = 0; w < blocks; ++w) laid.instances.push_back({w, g, g * period + answer.starts[w]});
  for (size_t i = 0, r = 0; i < choice.optional.size(); ++i) {
    if (!answer.chosen[i]) continue;
    for (int g = 0; g < windows; ++g)
      laid.instances.push_back({blocks + static_cast<int>(r), g, g * period + answer.starts[choice.optional[i].recompute]});
    ++r;
  }
  sort_instances(laid);
  const Schedule tight = compacted(laid);
  Schedule back = empty_schedule(original, limits, nmicros);
  for (const Instance& instance : tight.instances) {
    const bool run = instance.block >= blocks;
    const int window_block = run ? forward_of[instance.block - blocks] : instance.block;
    const int micro = instance.micro * k + window_position(choice, window_block);
    if (micro >= nmicros) continue;
    const int block = original_block(choice, window_block);
    if (run) back.recomputes.push_back({block, micro, instance.start});
    else back.instances.push_back({block, micro, instance.start});
  }
  sort_instances(back);
  const std::vector<std::pair<int, int>> copied = offloaded_instances(choice, answer, nmicros);
  if (!copied.empty() && !lay_copies(back, copied)) return unrolled_choosing_recompute(choice, answer, original, limits, nmicros);
  return back;
}

namespace {

// The forwards whose `chosen` holds, each with its window positions, in the
// original placement's block order.
std::vector<ChosenRecompute> chosen_forwards(const RecomputeChoicePlacement& choice, const std::vector<int>& forwards,
                                             const std::vector<bool>& chosen_at) {
  std::vector<std::vector<int>> positions(choice.blocks_per_copy);
  for (size_t i = 0; i < forwards.size(); ++i)
    if (chosen_at[i]) positions[original_block(choice, forwards[i])].push_back(window_position(choice, forwards[i]));
  std::vector<ChosenRecompute> chosen;
  for (int b = 0; b < choice.blocks_per_copy; ++b) {
    if (positions[b].empty()) continue;
    std::sort(positions[b].begin(), positions[b].end());
    const std::string& id = choice.window.blocks[b].id;  // copy 0: "<id>@0" for k > 1
    chosen.push_back({choice.micros_per_window == 1 ? id : id.substr(0, id.rfind('@')), positions[b]});
  }
  return chosen;
}

}  // namespace

std::vector<ChosenRecompute> chosen_recomputes(const RecomputeChoicePlacement& choice,
                                               const RecomputeChoiceAnswer& answer) {
  std::vector<int> forwards;
  for (const OptionalRecompute& optional : choice.optional) forwards.push_back(optional.forward);
  return chosen_forwards(choice, forwards, answer.chosen);
}

std::vector<ChosenRecompute> chosen_offloads(const RecomputeChoicePlacement& choice,
                                             const RecomputeChoiceAnswer& answer) {
  std::vector<int> forwards;
  for (const OptionalOffload& optional : choice.offloads) forwards.push_back(optional.forward);
  return chosen_forwards(choice, forwards, answer.offloaded);
}

}  // namespace tessel
