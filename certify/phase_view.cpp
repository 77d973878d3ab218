// The quotient-and-phase view of the starts (see the header for why). Each
// clause below says in a comment why the definition implies it.
#include "certify/phase_view.hpp"

namespace tessel::certify {
namespace {

// q(b) >= j as a literal: s(b) >= j P.
int quotient_ge(const StartLadders& starts, int b, long long j) { return ge(starts, b, j * starts.period); }

// The largest quotient block b can take.
long long top_quotient(const StartLadders& starts, int b) { return starts.last[b] / starts.period; }

// A fresh literal g(v) meaning q(b) - q(a) >= v, defined both ways from the
// quotients: q(a) <= j and q(b) >= j + v give it; it and q(a) >= j give
// q(b) >= j + v.
int quotient_gap(Builder& builder, const StartLadders& starts, int a, int b, long long v) {
  const int gap = builder.fresh();
  for (long long j = 0; j <= top_quotient(starts, a); ++j) {
    add_clause(builder, {quotient_ge(starts, a, j + 1), -quotient_ge(starts, b, j + v), gap});
    add_clause(builder, {-gap, -quotient_ge(starts, a, j), quotient_ge(starts, b, j + v)});
  }
  return gap;
}

}  // namespace

PhaseLadders encode_phase_ladders(Builder& builder, const StartLadders& starts, const std::vector<int>& ph_base) {
  PhaseLadders phases;
  phases.period = starts.period;
  const long long period = starts.period;
  for (size_t i = 0; i < ph_base.size(); ++i) {
    const int b = static_cast<int>(i);
    phases.le_base.push_back(builder.cnf.variables + 1);
    for (long long p = 0; p + 1 < period; ++p) builder.fresh();
    for (long long p = 0; p < period; ++p) {
      const int exact = ph_base[b] + static_cast<int>(p);
      add_clause(builder, {-le(phases, b, p - 1), le(phases, b, p)});  // a ladder
      add_clause(builder, {-exact, le(phases, b, p)});                  // p <= p
      add_clause(builder, {-exact, -le(phases, b, p - 1)});             // not p <= p - 1
      add_clause(builder, {-le(phases, b, p), le(phases, b, p - 1), exact});
    }
    // Within quotient j (jP <= s < (j+1)P) the phase is s - jP.
    for (long long j = 0; j * period <= starts.last[b]; ++j)
      for (long long p = 0; p + 1 < period; ++p) {
        add_clause(builder, {-ge(starts, b, j * period), ge(starts, b, j * period + p + 1), le(phases, b, p)});
        add_clause(builder, {-ge(starts, b, j * period + p + 1), ge(starts, b, (j + 1) * period), -le(phases, b, p)});
      }
  }
  return phases;
}

void encode_phase_occupancy(Builder& builder, const PhaseLadders& phases, int b, long long span, int occ_base) {
  const long long period = phases.period;
  for (long long u = 0; u < period; ++u) {
    const int occupied = occ_base + static_cast<int>(u);
    const long long from = u - span + 1;  // the phases that cover u: from .. u, mod P
    if (from >= 0) {
      add_clause(builder, {le(phases, b, from - 1), -le(phases, b, u), occupied});
      continue;
    }
    add_clause(builder, {-le(phases, b, u), occupied});                     // 0 .. u
    add_clause(builder, {le(phases, b, period + from - 1), occupied});      // P + from .. P - 1
  }
}

void encode_phase_edges(Builder& builder, const StartLadders& starts, const PhaseLadders& phases,
                        const Placement& window) {
  const long long period = starts.period;
  for (const Edge& edge : window.edges) {
    const int a = edge.from, b = edge.to;
    const long long c = window.blocks[a].span + edge.delay;
    // q(b) - q(a) <= g gives p(b) - p(a) >= c - g P, since s(b) - s(a) >= c;
    // void once c - g P <= -(P - 1).
    for (long long g = 0; c - g * period > -(period - 1); ++g) {
      const int wider = quotient_gap(builder, starts, a, b, g + 1);
      for (long long p = 0; p < period; ++p) {
        // p(a) >= p, i.e. not p(a) <= p - 1, gives p(b) >= p + c - g P.
        const long long need = p + c - g * period;
        add_clause(builder, {wider, le(phases, a, p - 1), -le(phases, b, need - 1)});
      }
    }
  }
}

}  // namespace tessel::certify
