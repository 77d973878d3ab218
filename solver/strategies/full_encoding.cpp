// The full problem's encoding (see the header). Memory is a bound per device
// and step over order literals [start <= t], which both backends handle
// natively (Z3 as comparisons, the SAT backend as its order encoding). A
// start whose domain ends at or before the step has certainly begun and
// enters the bound as a constant; one whose domain begins after it is left
// out: on narrow domains a step's sum holds only the few starts that may
// still move across it.
#include "solver/strategies/full_encoding.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

#include "sat/no_overlap_size.hpp"
#include "solver/knobs/encoding_budget.hpp"

namespace tessel {

bool memory_can_bind(const Placement& placement, int device, int total_micros, Memory limit) {
  Memory most = 0;
  for (const Block& block : placement.blocks)
    if (block.memory > 0 && on_device(block, device))
      most += block.memory * total_micros;
  return most > limit;
}

namespace {

bool may_bind_on(const Placement& placement, const Block& block, const std::vector<Memory>& memory_limit,
                 int total_micros) {
  if (memory_limit.empty()) return false;
  for (int device : block.devices)
    if (memory_can_bind(placement, device, total_micros, memory_limit[device])) return true;
  return false;
}

const HeldChoice& held_at(const HeldChoices& held, int f, int micro) {
  static const HeldChoice free;
  if (held.empty() || held[f].empty()) return free;
  return held[f][micro];
}

// Where the recompute run of forward f for `micro` may start: from the
// forward's earliest end (not chosen, it sits at the forward's end) to the
// latest start that still ends before the offer's `before` block; a held
// choice: where it was, or at the forward's end (not recomputed).
StartDomain recompute_domain(const Placement& placement, const StartDomains& domains, const HeldChoices& held, int f,
                             int micro) {
  const Block& block = placement.blocks[f];
  const StartDomain forward = domains[f][micro];
  const StartDomain before = domains[block.recompute->before][micro];
  const int span = static_cast<int>(block.span);
  const int run_span = static_cast<int>(block.recompute->span);
  const HeldChoice& choice = held_at(held, f, micro);
  if (choice.kind == HeldKind::Recompute) return {choice.at, std::max(choice.at, choice.at_latest)};
  if (choice.kind != HeldKind::Free) return {forward.earliest + span, forward.latest + span};
  return {forward.earliest + span, std::max(forward.latest + span, before.latest - run_span)};
}

// Where the copies of forward f for `micro` may start, as recompute_domain:
// the copy out from the forward's earliest end, the copy in from the copy
// out's earliest end, each late enough to end before the offer's `before`.
std::pair<StartDomain, StartDomain> copy_domains(const Placement& placement, const StartDomains& domains,
                                                 const HeldChoices& held, int f, int micro) {
  const Block& block = placement.blocks[f];
  const StartDomain forward = domains[f][micro];
  const StartDomain before = domains[block.offload->before][micro];
  const int span = static_cast<int>(block.span);
  const int out = static_cast<int>(block.offload->out), in = static_cast<int>(block.offload->in);
  const HeldChoice& choice = held_at(held, f, micro);
  if (choice.kind == HeldKind::Offload)
    return {{choice.at, std::max(choice.at, choice.at_latest)}, {choice.back, std::max(choice.back, choice.back_latest)}};
  if (choice.kind != HeldKind::Free)
    return {{forward.earliest + span, forward.latest + span}, {forward.earliest + span + out, forward.latest + span + out}};
  const StartDomain copy_out{forward.earliest + span, std::max(forward.latest + span, before.latest - in - out)};
  const StartDomain copy_in{copy_out.earliest + out, std::max(copy_out.latest + out, before.latest - in)};
  return {copy_out, copy_in};
}

}  // namespace

std::vector<int> recompute_forwards(const Placement& placement, const std::vector<Memory>& memory_limit,
                                    int total_micros) {
  std::vector<int> forwards;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.recompute && block.memory - block.recompute->checkpoint_memory > 0 &&
        may_bind_on(placement, block, memory_limit, total_micros))
      forwards.push_back(static_cast<int>(b));
  }
  return forwards;
}

std::vector<int> offload_forwards(const Placement& placement, const std::vector<Memory>& memory_limit,
                                  int total_micros) {
  std::vector<int> forwards;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.offload && block.memory > 0 && may_bind_on(placement, block, memory_limit, total_micros))
      forwards.push_back(static_cast<int>(b));
  }
  return forwards;
}

bool EncodingSize::within_budget() const {
  return literals <= kMaxOrderLiterals && memory_terms <= kMaxMemoryTerms;
}

EncodingSize full_encoding_size(const Placement& placement, const std::vector<Memory>& memory_limit, int total_micros,
                                const StartDomains& domains, bool with_choices, const HeldChoices& held) {
  std::vector<bool> binds(placement.ndevs, false);
  if (!memory_limit.empty())
    for (int device = 0; device < placement.ndevs; ++device)
      binds[device] = memory_can_bind(placement, device, total_micros, memory_limit[device]);
  EncodingSize size;
  std::vector<std::vector<NoOverlapInterval>> on_device(placement.ndevs);
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    long long binding = 0;
    for (int device : block.devices) binding += binds[device] ? 1 : 0;
    for (const StartDomain& domain : domains[b]) {
      size.literals += static_cast<long long>(domain.latest) - domain.earliest + 1;
      for (int device : block.devices) on_device[device].push_back({domain.earliest, domain.latest, block.span});
      if (block.memory != 0) size.memory_terms += binding * (static_cast<long long>(domain.latest) - domain.earliest + 1);
    }
  }
  // With choices a device that may recompute or copy takes the time-indexed
  // occupancy (add_optional_no_overlap): counted so on every device.
  for (const std::vector<NoOverlapInterval>& intervals : on_device)
    size.literals += with_choices ? no_overlap_size(intervals, NoOverlapEncoding::TimeIndexed).literals
                                  : no_overlap_size(intervals).literals;
  if (!with_choices) return size;
  // A recompute run per micro-batch: its start over the steps from the
  // forward's end to its `before` block's latest start, occupancy on the
  // forward's devices, and two memory terms a step (release and allocation).
  for (int f : recompute_forwards(placement, memory_limit, total_micros)) {
    const Block& block = placement.blocks[f];
    long long binding = 0;
    for (int device : block.devices) binding += binds[device] ? 1 : 0;
    const long long devices = static_cast<long long>(block.devices.size());
    for (int micro = 0; micro < total_micros; ++micro) {
      const StartDomain run = recompute_domain(placement, domains, held, f, micro);
      const long long width = static_cast<long long>(run.latest) - run.earliest + 1;
      size.literals += 1 + width + devices * (width + block.recompute->span);
      size.memory_terms += 2 * binding * width;
    }
  }
  // Copies: two starts per micro-batch, occupancy on each device's channel.
  for (int f : offload_forwards(placement, memory_limit, total_micros)) {
    const Block& block = placement.blocks[f];
    const long long devices = static_cast<long long>(block.devices.size());
    for (int micro = 0; micro < total_micros; ++micro) {
      const auto [out, in] = copy_domains(placement, domains, held, f, micro);
      const long long out_width = static_cast<long long>(out.latest) - out.earliest + 1;
      const long long in_width = static_cast<long long>(in.latest) - in.earliest + 1;
      size.literals += 1 + out_width + in_width + devices * (out_width + in_width + block.offload->out + block.offload->in);
      size.memory_terms += 2 * devices * (out_width + in_width);
    }
  }
  return size;
}

namespace {

// `memory` changes the device's memory at start + offset (offset 0: at the
// start; a recomputed forward's release: at its end).
struct Allocation {
  Memory memory = 0;
  IntVar start;
  StartDomain domain;
  int offset = 0;
};

// The steps where some allocation may start: the device's memory changes
// only there (every step, on the full search's wide domains). A release at
// a forward's end is left out: memory only falls there.
std::vector<Time> start_steps(const std::vector<Allocation>& allocations, Time horizon) {
  std::vector<Time> steps;
  for (const Allocation& allocation : allocations) {
    if (allocation.memory < 0 && allocation.offset > 0) continue;
    for (Time step = allocation.domain.earliest + allocation.offset;
         step <= allocation.domain.latest + allocation.offset && step < horizon; ++step)
      steps.push_back(step);
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

// The memory of `device` within its limit at every step where it changes;
// false when the deadline passed first.
bool add_memory(Backend& backend, const std::vector<Allocation>& allocations, Time horizon, Memory limit,
                const Deadline& deadline) {
  // What has certainly happened by a step is a constant, summed in step
  // order; only the allocations still movable there are visited (held
  // ones, at one step, never are: a window of the traded neighbourhoods
  // then costs its own steps, not the whole schedule's).
  std::vector<std::pair<Time, Memory>> certain;  // (the step from which it has happened, memory)
  std::vector<const Allocation*> movable;
  for (const Allocation& allocation : allocations) {
    certain.push_back({static_cast<Time>(allocation.domain.latest) + allocation.offset, allocation.memory});
    if (allocation.domain.earliest < allocation.domain.latest) movable.push_back(&allocation);
  }
  std::sort(certain.begin(), certain.end());
  size_t next = 0;
  Memory begun = 0;
  for (Time step : start_steps(allocations, horizon)) {
    if (deadline.expired()) return false;
    while (next < certain.size() && certain[next].first <= step) begun += certain[next++].second;
    LinearSum sum;
    for (const Allocation* allocation : movable) {
      const Time at = step - allocation->offset;  // the change has happened: start <= at
      if (at < allocation->domain.earliest || at >= allocation->domain.latest) continue;
      sum.bools.push_back({allocation->memory, backend.at_most(allocation->start, static_cast<int>(at))});
    }
    if (sum.bools.empty()) {
      if (begun > limit) backend.add_clause({});
      continue;
    }
    backend.add_linear_at_most(sum, limit - begun);
  }
  return true;
}

// A recompute chosen per micro-batch of each forward of recompute_forwards
// (see RecomputeChoices): the run after the forward; chosen, before the
// offer's `before` block; not chosen, at the forward's end.
void add_recompute_choices(FullEncoding& encoding, const Placement& placement, const std::vector<Memory>& memory_limit,
                           int total_micros, const StartDomains& domains, const HeldChoices& held) {
  Backend& backend = *encoding.backend;
  for (int f : recompute_forwards(placement, memory_limit, total_micros)) {
    const Block& block = placement.blocks[f];
    const int span = static_cast<int>(block.span);
    RecomputeChoices choices;
    choices.forward = f;
    for (int micro = 0; micro < total_micros; ++micro) {
      const StartDomain domain = recompute_domain(placement, domains, held, f, micro);
      // A held choice is a constant: its run is then no-overlap's constant too.
      const HeldKind kind = held_at(held, f, micro).kind;
      const Lit chosen = kind == HeldKind::Free        ? backend.new_bool()
                         : kind == HeldKind::Recompute ? backend.true_lit()
                                                       : ~backend.true_lit();
      const IntVar run = backend.new_int(domain.earliest, domain.latest);
      const IntVar forward = encoding.start[f][micro];
      backend.add_difference(run, forward, span);
      backend.add_difference(forward, run, -span, {~chosen});
      backend.add_difference(encoding.start[block.recompute->before][micro], run,
                             static_cast<int>(block.recompute->span), {chosen});
      choices.chosen.push_back(chosen);
      choices.start.push_back(run);
      choices.domain.push_back(domain);
    }
    encoding.recomputes.push_back(std::move(choices));
  }
}

// An offload chosen per micro-batch of each forward of offload_forwards (see
// OffloadChoices); never beside a recompute of the same micro-batch.
void add_offload_choices(FullEncoding& encoding, const Placement& placement, const std::vector<Memory>& memory_limit,
                         int total_micros, const StartDomains& domains, const HeldChoices& held) {
  Backend& backend = *encoding.backend;
  for (int f : offload_forwards(placement, memory_limit, total_micros)) {
    const Block& block = placement.blocks[f];
    const int span = static_cast<int>(block.span);
    const int out_span = static_cast<int>(block.offload->out), in_span = static_cast<int>(block.offload->in);
    const RecomputeChoices* recompute = nullptr;
    for (const RecomputeChoices& choices : encoding.recomputes)
      if (choices.forward == f) recompute = &choices;
    OffloadChoices choices;
    choices.forward = f;
    for (int micro = 0; micro < total_micros; ++micro) {
      const auto [out_domain, in_domain] = copy_domains(placement, domains, held, f, micro);
      const HeldKind kind = held_at(held, f, micro).kind;
      const Lit chosen = kind == HeldKind::Free      ? backend.new_bool()
                         : kind == HeldKind::Offload ? backend.true_lit()
                                                     : ~backend.true_lit();
      const IntVar out = backend.new_int(out_domain.earliest, out_domain.latest);
      const IntVar in = backend.new_int(in_domain.earliest, in_domain.latest);
      const IntVar forward = encoding.start[f][micro];
      backend.add_difference(out, forward, span);
      backend.add_difference(forward, out, -span, {~chosen});
      backend.add_difference(in, out, out_span);
      backend.add_difference(out, in, -out_span, {~chosen});
      backend.add_difference(encoding.start[block.offload->before][micro], in, in_span, {chosen});
      if (recompute) backend.add_clause({~chosen, ~recompute->chosen[micro]});
      choices.chosen.push_back(chosen);
      choices.out.push_back(out);
      choices.in.push_back(in);
      choices.out_domain.push_back(out_domain);
      choices.in_domain.push_back(in_domain);
    }
    encoding.offloads.push_back(std::move(choices));
  }
}

// What one device holds: every interval on it (a recompute run present only
// when chosen) and every change of its memory.
struct DeviceParts {
  std::vector<IntVar> starts;
  std::vector<int> spans;
  std::vector<Lit> present;
  std::vector<StartDomain> domains;
  bool optional = false;  // some interval is a recompute run
  std::vector<Allocation> allocations;
  // The copy channel: every copy out and in, present when chosen.
  std::vector<IntVar> copy_starts;
  std::vector<int> copy_spans;
  std::vector<Lit> copy_present;
  std::vector<StartDomain> copy_domains;
};

// The copies of the forwards on `device`: on its channel, and the memory
// freed at the copy out's end and allocated again at the copy in's start
// (not chosen, both at one step: they cancel).
void add_copies(const FullEncoding& encoding, const Placement& placement, int device, DeviceParts& parts) {
  for (const OffloadChoices& choices : encoding.offloads) {
    const Block& block = placement.blocks[choices.forward];
    if (!on_device(block, device)) continue;
    const int out_span = static_cast<int>(block.offload->out), in_span = static_cast<int>(block.offload->in);
    for (size_t micro = 0; micro < choices.chosen.size(); ++micro) {
      const StartDomain out_domain = choices.out_domain[micro], in_domain = choices.in_domain[micro];
      parts.copy_starts.insert(parts.copy_starts.end(), {choices.out[micro], choices.in[micro]});
      parts.copy_spans.insert(parts.copy_spans.end(), {out_span, in_span});
      parts.copy_present.insert(parts.copy_present.end(), {choices.chosen[micro], choices.chosen[micro]});
      parts.copy_domains.insert(parts.copy_domains.end(), {out_domain, in_domain});
      parts.allocations.push_back({-block.memory, choices.out[micro], out_domain, out_span});
      parts.allocations.push_back({block.memory, choices.in[micro], in_domain});
    }
  }
}

DeviceParts device_parts(const FullEncoding& encoding, const Placement& placement, const StartDomains& domains,
                         int device, int total_micros) {
  DeviceParts parts;
  const Lit always = encoding.backend->true_lit();
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (!on_device(block, device)) continue;
    for (int micro = 0; micro < total_micros; ++micro) {
      parts.starts.push_back(encoding.start[b][micro]);
      parts.spans.push_back(static_cast<int>(block.span));
      parts.present.push_back(always);
      parts.domains.push_back(domains[b][micro]);
      if (block.memory != 0) parts.allocations.push_back({block.memory, encoding.start[b][micro], domains[b][micro]});
    }
  }
  for (const RecomputeChoices& choices : encoding.recomputes) {
    const Block& block = placement.blocks[choices.forward];
    if (!on_device(block, device)) continue;
    const Memory saved = block.memory - block.recompute->checkpoint_memory;
    for (int micro = 0; micro < total_micros; ++micro) {
      parts.starts.push_back(choices.start[micro]);
      parts.spans.push_back(static_cast<int>(block.recompute->span));
      parts.present.push_back(choices.chosen[micro]);
      parts.domains.push_back(choices.domain[micro]);
      parts.optional = true;
      // Released at the forward's end, allocated again at the run's start:
      // not chosen, both at the forward's end, they cancel.
      parts.allocations.push_back({-saved, encoding.start[choices.forward][micro], domains[choices.forward][micro],
                                   static_cast<int>(block.span)});
      parts.allocations.push_back({saved, choices.start[micro], choices.domain[micro]});
    }
  }
  add_copies(encoding, placement, device, parts);
  return parts;
}

// The copies of each block in micro-batch order (see build_full_encoding).
// Micro-batches are interchangeable, so the copies of one block may be taken
// to run in micro-batch order (sorting each block's copies by time keeps
// every dependency, by a matching argument, and every memory curve); on
// their shared device each then ends before the next starts.
void add_micro_order(FullEncoding& encoding, const Placement& placement, int total_micros) {
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    for (int micro = 0; micro + 1 < total_micros; ++micro)
      encoding.backend->add_difference(encoding.start[b][micro + 1], encoding.start[b][micro],
                                       static_cast<int>(placement.blocks[b].span));
}

// Intervals on one line (a device, or its copy channel).
struct Line {
  std::vector<IntVar>& starts;
  std::vector<int>& spans;
  std::vector<Lit>& present;
  std::vector<StartDomain>& domains;
};

// Drops from `line` what no constraint needs: an interval held at one step
// (a held instance, or a held run or copy, whose presence is a constant)
// that no movable interval can reach. Held intervals are checked against
// each other here, once (an overlap is a contradiction); without this the
// time-indexed no-overlap would span the whole schedule for a window of
// the traded neighbourhoods (N = 128: most of a window's building time).
void drop_held_apart(Backend& backend, Line line) {
  const Lit always = backend.true_lit();
  std::vector<std::pair<long long, long long>> reach, held;  // [from, to) per movable and per held interval
  for (size_t i = 0; i < line.starts.size(); ++i) {
    const StartDomain& domain = line.domains[i];
    if (line.spans[i] <= 0 || line.present[i] == ~always) continue;
    const bool fixed = domain.earliest == domain.latest && line.present[i] == always;
    (fixed ? held : reach).push_back({domain.earliest, static_cast<long long>(domain.latest) + line.spans[i]});
  }
  std::sort(held.begin(), held.end());
  for (size_t k = 1; k < held.size(); ++k)
    if (held[k].first < held[k - 1].second) backend.add_clause({});
  std::sort(reach.begin(), reach.end());
  std::vector<std::pair<long long, long long>> merged;  // the reach as disjoint ranges
  for (const auto& range : reach) {
    if (!merged.empty() && range.first <= merged.back().second) merged.back().second = std::max(merged.back().second, range.second);
    else merged.push_back(range);
  }
  auto reached = [&](long long from, long long to) {
    auto after = std::upper_bound(merged.begin(), merged.end(), std::make_pair(from, std::numeric_limits<long long>::max()));
    if (after != merged.end() && after->first < to) return true;
    return after != merged.begin() && std::prev(after)->second > from;
  };
  size_t kept = 0;
  for (size_t i = 0; i < line.starts.size(); ++i) {
    const StartDomain& domain = line.domains[i];
    if (line.spans[i] <= 0 || line.present[i] == ~always) continue;
    const bool fixed = domain.earliest == domain.latest && line.present[i] == always;
    if (fixed && !reached(domain.earliest, static_cast<long long>(domain.earliest) + line.spans[i])) continue;
    line.starts[kept] = line.starts[i];
    line.spans[kept] = line.spans[i];
    line.present[kept] = line.present[i];
    line.domains[kept] = domain;
    ++kept;
  }
  line.starts.resize(kept);
  line.spans.resize(kept);
  line.present.resize(kept);
  line.domains.resize(kept);
}

// Exclusivity and memory on every device; false when the deadline passed.
bool add_devices(FullEncoding& encoding, const Placement& placement, const SearchOptions& options, int total_micros,
                 Time horizon, const StartDomains& domains) {
  Backend& backend = *encoding.backend;
  for (int device = 0; device < placement.ndevs; ++device) {
    if (options.deadline.expired()) return false;
    DeviceParts parts = device_parts(encoding, placement, domains, device, total_micros);
    drop_held_apart(backend, {parts.starts, parts.spans, parts.present, parts.domains});
    drop_held_apart(backend, {parts.copy_starts, parts.copy_spans, parts.copy_present, parts.copy_domains});
    if (parts.starts.size() > 1 && parts.optional) backend.add_optional_no_overlap(parts.starts, parts.spans, parts.present);
    else if (parts.starts.size() > 1) backend.add_no_overlap(parts.starts, parts.spans);
    if (parts.copy_starts.size() > 1)
      backend.add_optional_no_overlap(parts.copy_starts, parts.copy_spans, parts.copy_present);
    if (parts.allocations.empty() || options.memory_limit.empty() ||
        !memory_can_bind(placement, device, total_micros, options.memory_limit[device]))
      continue;
    if (!add_memory(backend, parts.allocations, horizon, options.memory_limit[device], options.deadline)) return false;
  }
  return !options.deadline.expired();
}

}  // namespace

std::optional<FullEncoding> build_full_encoding(const Placement& placement, const SearchOptions& options,
                                                int total_micros, Time horizon, const StartDomains& domains,
                                                bool with_choices, const HeldChoices& held) {
  const int nblocks = static_cast<int>(placement.blocks.size());
  FullEncoding encoding;
  encoding.backend = make_backend(options.backend, options.backend_settings);
  Backend& backend = *encoding.backend;
  backend.stop_building_at(options.deadline);
  auto out_of_time = [&]() {
    if (!options.deadline.expired()) return false;
    // Abandoned, not freed: tearing down a half-built encoding of this size
    // takes as long as building it, and the caller is out of time.
    (void)encoding.backend.release();
    return true;
  };
  encoding.start.assign(nblocks, {});
  for (int b = 0; b < nblocks; ++b)
    for (int micro = 0; micro < total_micros; ++micro) {
      if (out_of_time()) return std::nullopt;
      encoding.start[b].push_back(backend.new_int(domains[b][micro].earliest, domains[b][micro].latest));
    }
  for (const Edge& edge : placement.edges)
    for (int micro = 0; micro < total_micros; ++micro) {
      if (out_of_time()) return std::nullopt;
      backend.add_difference(encoding.start[edge.to][micro], encoding.start[edge.from][micro],
                             placement.blocks[edge.from].span + edge.delay);
    }
  if (with_choices) {
    add_recompute_choices(encoding, placement, options.memory_limit, total_micros, domains, held);
    add_offload_choices(encoding, placement, options.memory_limit, total_micros, domains, held);
  }
  if (encoding.recomputes.empty() && encoding.offloads.empty()) add_micro_order(encoding, placement, total_micros);
  if (out_of_time()) return std::nullopt;
  if (!add_devices(encoding, placement, options, total_micros, horizon, domains) && out_of_time())
    return std::nullopt;
  // Built whole: what is added later (by the caller, under its own
  // deadlines) must never be cut short by this one.
  backend.stop_building_at(Deadline::none());
  return encoding;
}

void prefer_schedule(FullEncoding& encoding, const Schedule& schedule) {
  for (const Instance& instance : schedule.instances)
    encoding.backend->prefer(encoding.start[instance.block][instance.micro], static_cast<int>(instance.start));
  for (const RecomputeChoices& choices : encoding.recomputes)
    for (const RecomputeRun& run : schedule.recomputes)
      if (run.block == choices.forward) encoding.backend->prefer(choices.start[run.micro], static_cast<int>(run.start));
  for (const OffloadChoices& choices : encoding.offloads)
    for (const Transfer& copy : schedule.transfers)
      if (copy.block == choices.forward)
        encoding.backend->prefer(copy.direction == TransferDirection::Out ? choices.out[copy.micro] : choices.in[copy.micro],
                                 static_cast<int>(copy.start));
}

Schedule decode_schedule(const FullEncoding& encoding, const Placement& placement,
                         const std::vector<Memory>& memory_limit, int total_micros) {
  Schedule schedule = empty_schedule(placement, memory_limit, total_micros);
  for (size_t b = 0; b < encoding.start.size(); ++b)
    for (int micro = 0; micro < total_micros; ++micro)
      schedule.instances.push_back({static_cast<int>(b), micro, encoding.backend->value(encoding.start[b][micro])});
  for (const RecomputeChoices& choices : encoding.recomputes)
    for (int micro = 0; micro < total_micros; ++micro)
      if (encoding.backend->value(choices.chosen[micro]))
        schedule.recomputes.push_back({choices.forward, micro, encoding.backend->value(choices.start[micro])});
  std::sort(schedule.recomputes.begin(), schedule.recomputes.end(), [](const RecomputeRun& a, const RecomputeRun& b) {
    return std::tie(a.start, a.block, a.micro) < std::tie(b.start, b.block, b.micro);
  });
  for (const OffloadChoices& choices : encoding.offloads)
    for (size_t micro = 0; micro < choices.chosen.size(); ++micro) {
      if (!encoding.backend->value(choices.chosen[micro])) continue;
      const int m = static_cast<int>(micro);
      schedule.transfers.push_back({choices.forward, m, TransferDirection::Out, encoding.backend->value(choices.out[micro])});
      schedule.transfers.push_back({choices.forward, m, TransferDirection::In, encoding.backend->value(choices.in[micro])});
    }
  std::sort(schedule.transfers.begin(), schedule.transfers.end(), [](const Transfer& a, const Transfer& b) {
    return std::tie(a.start, a.block, a.micro) < std::tie(b.start, b.block, b.micro);
  });
  sort_instances(schedule);
  return schedule;
}

}  // namespace tessel
