// Copies laid onto the channels of a fixed schedule (channel_copies.hpp).
#include "solver/solve/channel_copies.hpp"

#include <algorithm>
#include <map>

namespace tessel {
namespace {

// Busy intervals [start, end) of one device's channel, unsorted.
using Channel = std::vector<std::pair<Time, Time>>;

// The first interval of `devices`' channels meeting [start, start + span), or nullptr.
const std::pair<Time, Time>* meeting(const std::vector<Channel>& channels, const std::vector<int>& devices, Time start,
                                     Time span) {
  for (int device : devices)
    for (const std::pair<Time, Time>& busy : channels[device])
      if (busy.first < start + span && start < busy.second) return &busy;
  return nullptr;
}

// The earliest start >= `from` (or, `latest`, the latest <= `from`) where
// the copy fits on every channel of `devices`; -1 when it passes `limit`.
Time fit(const std::vector<Channel>& channels, const std::vector<int>& devices, Time from, Time span, bool latest,
         Time limit) {
  Time start = from;
  while (latest ? start >= limit : start <= limit) {
    const std::pair<Time, Time>* busy = meeting(channels, devices, start, span);
    if (!busy) return start;
    start = latest ? busy->first - span : busy->second;
  }
  return -1;
}

void occupy(std::vector<Channel>& channels, const std::vector<int>& devices, Time start, Time span) {
  for (int device : devices) channels[device].push_back({start, start + span});
}

}  // namespace

bool lay_copies(Schedule& schedule, const std::vector<std::pair<int, int>>& offloaded) {
  const std::vector<Block>& blocks = schedule.placement.blocks;
  const std::vector<Time> ends = instance_ends(schedule);
  std::map<std::pair<int, int>, size_t> index;  // (block, micro) -> instance
  for (size_t i = 0; i < schedule.instances.size(); ++i)
    index[{schedule.instances[i].block, schedule.instances[i].micro}] = i;
  std::vector<Channel> channels(schedule.placement.ndevs);
  std::vector<std::pair<Time, size_t>> outs, ins;  // (forward's end, c) and (before's start, c)
  for (size_t c = 0; c < offloaded.size(); ++c) {
    const auto [block, micro] = offloaded[c];
    const auto forward = index.find({block, micro}), before = index.find({blocks[block].offload->before, micro});
    if (forward == index.end() || before == index.end()) return false;
    outs.push_back({ends[forward->second], c});
    ins.push_back({schedule.instances[before->second].start, c});
  }
  std::sort(outs.begin(), outs.end());
  std::sort(ins.rbegin(), ins.rend());
  std::vector<Time> out_end(offloaded.size());
  for (const auto& [ready, c] : outs) {  // as early as the forwards end, earliest first
    const Block& forward = blocks[offloaded[c].first];
    const Time start = fit(channels, forward.devices, ready, forward.offload->out, false,
                           ins[0].first);  // no copy out starts after the last block needing one
    if (start < 0) return false;
    occupy(channels, forward.devices, start, forward.offload->out);
    out_end[c] = start + forward.offload->out;
    schedule.transfers.push_back({offloaded[c].first, offloaded[c].second, TransferDirection::Out, start});
  }
  for (const auto& [needed, c] : ins) {  // as late as the blocks needing them start, latest first
    const Block& forward = blocks[offloaded[c].first];
    const Time start = fit(channels, forward.devices, needed - forward.offload->in, forward.offload->in, true, out_end[c]);
    if (start < 0) return false;
    occupy(channels, forward.devices, start, forward.offload->in);
    schedule.transfers.push_back({offloaded[c].first, offloaded[c].second, TransferDirection::In, start});
  }
  return true;
}

}  // namespace tessel
