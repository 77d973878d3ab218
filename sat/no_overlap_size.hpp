// Which CNF a no-overlap constraint on a line gets, and how large it is,
// decided before anything is built (the CaDiCaL backend builds the smaller;
// encoding budgets, such as the full encoding's, count the same literals).
//
// Time-indexed: an occupancy literal per interval and step it may cover
// (its domain's width plus its span) and an at-most-one per step. Its size
// grows with the spans: on measured times (spans of thousands of ticks) an
// interval of narrow domain still costs thousands of literals.
// Pairwise: an order literal per pair of intervals that may meet, with the
// two guarded differences it selects (a clause per value of each start):
// its size grows with the domains' widths and the pairs, not the spans.
// Pairs that cannot meet cost nothing, and a pair whose order the domains
// decide costs one unguarded difference.
//
// Pairwise is chosen when its clauses are a quarter of the time-indexed
// occupancy literals or fewer (each of those also carries a clause and a
// place in a step's at-most-one): so unit spans and wide domains (the full
// search, the repetend's and the neighbourhoods' windows) keep the
// time-indexed encoding they were measured with, and long spans on narrow
// domains (the shift search at x1000) go pairwise.
#pragma once

#include <vector>

namespace tessel {

struct NoOverlapInterval {
  long long lo = 0;    // earliest start
  long long hi = 0;    // latest start (>= lo)
  long long span = 0;  // length; 0 occupies nothing
};

enum class NoOverlapEncoding { TimeIndexed, Pairwise };

struct NoOverlapSize {
  NoOverlapEncoding encoding = NoOverlapEncoding::TimeIndexed;
  long long literals = 0;  // new literals of the chosen encoding
  long long time_indexed_literals = 0;
  long long pairwise_clauses = 0;  // counted until pairwise is ruled out
};

// The size of both encodings of `intervals` and the one chosen (`forced`,
// when given, is taken whatever the sizes).
NoOverlapSize no_overlap_size(const std::vector<NoOverlapInterval>& intervals);
NoOverlapSize no_overlap_size(const std::vector<NoOverlapInterval>& intervals, NoOverlapEncoding forced);

// How a pair of intervals on one line is to be kept apart.
enum class PairOrder {
  Apart,       // their domains never let them meet: nothing to add
  Impossible,  // neither order fits the domains: the constraint is false
  FirstBefore,   // only a before b fits: an unguarded difference
  SecondBefore,  // only b before a fits
  Either,        // both fit: an order literal selects one
};
PairOrder pair_order(const NoOverlapInterval& a, const NoOverlapInterval& b);

}  // namespace tessel
