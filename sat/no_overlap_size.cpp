// The two no-overlap encodings' sizes (see the header). The pairs are
// counted by a sweep over the intervals sorted by earliest start, and the
// count stops once pairwise is past the time-indexed size: a device of
// thousands of intervals on wide domains (the full search) costs no
// quadratic count.
#include "sat/no_overlap_size.hpp"

#include <algorithm>

namespace tessel {
namespace {

long long reach_end(const NoOverlapInterval& interval) { return interval.hi + interval.span; }

// Pairwise only when it is this many times smaller: the searches were
// measured with the time-indexed encoding, and a window of the
// neighbourhoods with two free instances per device on unit spans would
// otherwise go pairwise for a few clauses less (a different encoding leads
// the solver to other answers); on measured costs pairwise is 100 times
// smaller (the shift search at N 16, vshape 8 x1000).
constexpr long long kPairwiseMargin = 4;

}  // namespace

PairOrder pair_order(const NoOverlapInterval& a, const NoOverlapInterval& b) {
  if (reach_end(a) <= b.lo || reach_end(b) <= a.lo) return PairOrder::Apart;
  const bool a_first = a.lo + a.span <= b.hi;
  const bool b_first = b.lo + b.span <= a.hi;
  if (a_first && b_first) return PairOrder::Either;
  if (a_first) return PairOrder::FirstBefore;
  if (b_first) return PairOrder::SecondBefore;
  return PairOrder::Impossible;
}

NoOverlapSize no_overlap_size(const std::vector<NoOverlapInterval>& intervals, NoOverlapEncoding forced) {
  NoOverlapSize size = no_overlap_size(intervals);
  size.encoding = forced;
  size.literals = forced == NoOverlapEncoding::TimeIndexed ? size.time_indexed_literals : 0;
  if (forced == NoOverlapEncoding::Pairwise) {
    for (size_t i = 0; i < intervals.size(); ++i)
      for (size_t j = i + 1; j < intervals.size(); ++j)
        if (intervals[i].span > 0 && intervals[j].span > 0 &&
            pair_order(intervals[i], intervals[j]) == PairOrder::Either)
          ++size.literals;
  }
  return size;
}

NoOverlapSize no_overlap_size(const std::vector<NoOverlapInterval>& intervals) {
  NoOverlapSize size;
  std::vector<NoOverlapInterval> sorted;
  for (const NoOverlapInterval& interval : intervals) {
    if (interval.span <= 0) continue;
    size.time_indexed_literals += interval.hi - interval.lo + 1 + interval.span;
    sorted.push_back(interval);
  }
  size.literals = size.time_indexed_literals;
  std::sort(sorted.begin(), sorted.end(),
            [](const NoOverlapInterval& a, const NoOverlapInterval& b) { return a.lo < b.lo; });
  long long order_literals = 0;
  for (size_t i = 0; i < sorted.size(); ++i)
    for (size_t j = i + 1; j < sorted.size() && sorted[j].lo < reach_end(sorted[i]); ++j) {
      const PairOrder order = pair_order(sorted[i], sorted[j]);
      if (order == PairOrder::Apart) continue;
      // A difference is a clause per value of its first start, and one more.
      const long long widths = sorted[i].hi - sorted[i].lo + sorted[j].hi - sorted[j].lo + 2;
      size.pairwise_clauses += order == PairOrder::Either ? widths : widths / 2;
      order_literals += order == PairOrder::Either ? 1 : 0;
      if (kPairwiseMargin * size.pairwise_clauses >= size.time_indexed_literals) return size;
    }
  size.encoding = NoOverlapEncoding::Pairwise;
  size.literals = order_literals;
  return size;
}

}  // namespace tessel
