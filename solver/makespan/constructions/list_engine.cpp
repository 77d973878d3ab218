// The shared list-scheduling event loop (list_engine.hpp).
#include "solver/makespan/constructions/list_engine.hpp"

#include <algorithm>

namespace tessel {

ListEngine::ListEngine(int ndevs, size_t nodes, const Deadline& deadline)
    : start_(nodes, -1), ready_at_(nodes, 0), waiting_(nodes, 0), free_at_(ndevs, 0), deadline_(deadline),
      ready_(ndevs) {}

bool ListEngine::run_events() {
  Time now = 0;
  for (long long events = 0; remaining_ > 0; ++events) {
    if (events % 256 == 255 && deadline_.expired()) return false;
    release_until(now);
    while (start_free_devices(now)) release_until(now);
    std::optional<Time> next = next_event(now);
    if (!next) return false;  // stalled on memory or the cap
    now = *next;
  }
  return true;
}

void ListEngine::expect(long long id, int inputs) {
  waiting_[id] = inputs;
  if (inputs == 0) pending_.push({ready_at_[id], id});
}

void ListEngine::satisfy(long long id, Time ready) {
  ready_at_[id] = std::max(ready_at_[id], ready);
  if (--waiting_[id] == 0) pending_.push({ready_at_[id], id});
}

void ListEngine::occupy(long long id, Time now, Time end) {
  const Ready entry{key(id), id};
  for (int device : devices(id)) {
    ready_[device].erase(entry);
    free_at_[device] = end;
  }
  start_[id] = now;
  --remaining_;
  ends_.push(end);
}

void ListEngine::release_until(Time now) {
  settle(now);
  while (!pending_.empty() && pending_.top().first <= now) {
    const long long id = pending_.top().second;
    pending_.pop();
    const Ready entry{key(id), id};
    for (int device : devices(id)) ready_[device].insert(entry);
  }
}

// One pass over the free devices; true when something started.
bool ListEngine::start_free_devices(Time now) {
  bool any = false;
  for (int device = 0; device < static_cast<int>(free_at_.size()); ++device) {
    if (free_at_[device] > now) continue;
    for (const Ready& entry : ready_[device]) {
      bool devices_free = true;
      for (int other : devices(entry.id)) devices_free = devices_free && free_at_[other] <= now;
      if (!devices_free || !accepts(entry.id, now)) continue;
      start(entry.id, now);
      any = true;
      break;
    }
  }
  return any;
}

std::optional<Time> ListEngine::next_event(Time now) {
  while (!ends_.empty() && ends_.top() <= now) ends_.pop();
  std::optional<Time> next;
  if (!ends_.empty()) next = ends_.top();
  if (!pending_.empty() && (!next || pending_.top().first < *next)) next = std::max(now + 1, pending_.top().first);
  return next;
}

}  // namespace tessel
