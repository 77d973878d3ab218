// The order encoding of bounded integers (see order_encoding.hpp).
#include "sat/order_encoding.hpp"

namespace tessel::cnf {

OrderVar make_order_var(Sink& sink, int lo, int hi) {
  OrderVar x{lo, hi, {}};
  x.le.reserve(hi > lo ? hi - lo : 0);
  for (int v = lo; v < hi; ++v) x.le.push_back(sink.new_var());
  // [x <= v] -> [x <= v + 1]: the chain that makes the literals an order.
  for (size_t i = 0; i + 1 < x.le.size(); ++i) sink.add_clause({~x.le[i], x.le[i + 1]});
  return x;
}

Lit order_at_most(const Sink& sink, const OrderVar& x, long long value) {
  if (value < x.lo) return sink.falsity();
  if (value >= x.hi) return sink.truth();
  return x.le[value - x.lo];
}

// One clause per value of x: if x is at most v then y is at most v - c. The
// value v = hi also counts ([x <= hi] is true), which bounds y from above
// whatever x is; values below lo need nothing since [x <= v] is false there.
void add_order_difference(Sink& sink, const OrderVar& x, const OrderVar& y, long long c,
                          const std::vector<Lit>& guard) {
  for (long long v = x.lo; v <= x.hi; ++v) {
    Lit x_le = order_at_most(sink, x, v);
    Lit y_le = order_at_most(sink, y, v - c);
    if (sink.is_true(y_le)) continue;
    sink.add_clause(guarded_clause(guard, {~x_le, y_le}));
    // Once [x <= v] is the true constant, the clause for larger v is implied.
    if (sink.is_true(x_le)) break;
  }
}

}  // namespace tessel::cnf
