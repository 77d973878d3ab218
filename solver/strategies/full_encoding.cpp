// The full problem's encoding (see the header). Memory is a bound per device
// and step over order literals [start <= t], which both backends handle
// natively (Z3 as comparisons, the SAT backend as its order encoding). A
// start whose domain ends at or before the step has certainly begun and
// enters the bound as a constant; one whose domain begins after it is left
// out: on narrow domains a step's sum holds only the few starts that may
// still move across it.
#include "solver/strategies/full_encoding.hpp"

#include <algorithm>

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

bool EncodingSize::within_budget() const {
  return literals <= kMaxOrderLiterals && memory_terms <= kMaxMemoryTerms;
}

EncodingSize full_encoding_size(const Placement& placement, const std::vector<Memory>& memory_limit, int total_micros,
                                const StartDomains& domains) {
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
  for (const std::vector<NoOverlapInterval>& intervals : on_device) size.literals += no_overlap_size(intervals).literals;
  return size;
}

namespace {

struct Allocation {
  Memory memory = 0;
  IntVar start;
  StartDomain domain;
};

// The steps where some allocation may start: the device's memory changes
// only there (every step, on the full search's wide domains).
std::vector<Time> start_steps(const std::vector<Allocation>& allocations, Time horizon) {
  std::vector<Time> steps;
  for (const Allocation& allocation : allocations)
    for (Time step = allocation.domain.earliest; step <= allocation.domain.latest && step < horizon; ++step)
      steps.push_back(step);
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

// The memory of `device` within its limit at every step where it changes;
// false when the deadline passed first.
bool add_memory(Backend& backend, const std::vector<Allocation>& allocations, Time horizon, Memory limit,
                const Deadline& deadline) {
  for (Time step : start_steps(allocations, horizon)) {
    if (deadline.expired()) return false;
    LinearSum sum;
    Memory begun = 0;
    for (const Allocation& allocation : allocations) {
      if (step < allocation.domain.earliest) continue;
      if (step >= allocation.domain.latest) {
        begun += allocation.memory;
        continue;
      }
      sum.bools.push_back({allocation.memory, backend.at_most(allocation.start, static_cast<int>(step))});
    }
    if (sum.bools.empty()) {
      if (begun > limit) backend.add_clause({});
      continue;
    }
    backend.add_linear_at_most(sum, limit - begun);
  }
  return true;
}

}  // namespace

std::optional<FullEncoding> build_full_encoding(const Placement& placement, const SearchOptions& options,
                                                int total_micros, Time horizon, const StartDomains& domains) {
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
  // Symmetry: micro-batches are interchangeable, so the copies of one block
  // may be taken to run in micro-batch order (sorting each block's copies by
  // time keeps every dependency, by a matching argument, and every memory
  // curve); on their shared device each then ends before the next starts.
  for (int b = 0; b < nblocks; ++b)
    for (int micro = 0; micro + 1 < total_micros; ++micro) {
      if (out_of_time()) return std::nullopt;
      backend.add_difference(encoding.start[b][micro + 1], encoding.start[b][micro],
                             static_cast<int>(placement.blocks[b].span));
    }
  for (int device = 0; device < placement.ndevs; ++device) {
    if (out_of_time()) return std::nullopt;
    std::vector<IntVar> starts;
    std::vector<int> spans;
    std::vector<Allocation> allocations;
    for (int b = 0; b < nblocks; ++b) {
      const Block& block = placement.blocks[b];
      if (!on_device(block, device)) continue;
      for (int micro = 0; micro < total_micros; ++micro) {
        starts.push_back(encoding.start[b][micro]);
        spans.push_back(block.span);
        if (block.memory != 0) allocations.push_back({block.memory, encoding.start[b][micro], domains[b][micro]});
      }
    }
    if (starts.size() > 1) backend.add_no_overlap(starts, spans);
    if (allocations.empty() || options.memory_limit.empty() ||
        !memory_can_bind(placement, device, total_micros, options.memory_limit[device]))
      continue;
    if (!add_memory(backend, allocations, horizon, options.memory_limit[device], options.deadline) && out_of_time())
      return std::nullopt;
  }
  if (out_of_time()) return std::nullopt;
  // Built whole: what is added later (by the caller, under its own
  // deadlines) must never be cut short by this one.
  backend.stop_building_at(Deadline::none());
  return encoding;
}

void prefer_schedule(FullEncoding& encoding, const Schedule& schedule) {
  for (const Instance& instance : schedule.instances)
    encoding.backend->prefer(encoding.start[instance.block][instance.micro], static_cast<int>(instance.start));
}

Schedule decode_schedule(const FullEncoding& encoding, const Placement& placement,
                         const std::vector<Memory>& memory_limit, int total_micros) {
  Schedule schedule = empty_schedule(placement, memory_limit, total_micros);
  for (size_t b = 0; b < encoding.start.size(); ++b)
    for (int micro = 0; micro < total_micros; ++micro)
      schedule.instances.push_back({static_cast<int>(b), micro, encoding.backend->value(encoding.start[b][micro])});
  sort_instances(schedule);
  return schedule;
}

}  // namespace tessel
