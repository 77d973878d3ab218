// The makespan portfolio (see portfolio.hpp). The order of the list is the
// strategy (phases/phase_list.cpp); what is kept here is the rules every
// phase obeys: judged before seen, offered when shorter, improvements from
// the best and only above the bound, nothing started past the deadline but
// what lists why it built nothing, and on two threads one phase beside.
#include "solver/makespan/portfolio/portfolio.hpp"

#include "solver/makespan/portfolio/side_thread.hpp"

namespace tessel {

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

const Schedule* best_plain(const std::vector<BuiltCandidate>& candidates) {
  const Schedule* best = nullptr;
  for (const BuiltCandidate& built : candidates)
    if (built.at_total && built.at_total->fused.empty() && built.at_total->recomputes.empty() &&
        built.at_total->transfers.empty() && (!best || makespan(*built.at_total) < makespan(*best)))
      best = &*built.at_total;
  return best;
}

bool admitted(const CandidateInput& input, BuiltCandidate& built, std::vector<RejectedCandidate>& rejected) {
  // Past the deadline no improvement starts from it: solve() judges only
  // the one it chooses, once (its cost grows with N x blocks). A
  // repetend's unrollable form is judged too: it is what -o writes.
  if (!input.judge || !built.at_total || input.options.deadline.expired()) return true;
  std::optional<std::string> violation = input.judge(*built.at_total);
  if (!violation && built.schedule && built.schedule->repetend) violation = input.judge(*built.schedule);
  if (!violation) return true;
  rejected.push_back({built.summary.name, *violation});
  built.summary.note = "rejected by the verifier (a bug in this phase): " + *violation;
  built.summary.note_kind = CandidateNote::Text;
  built.summary.note_numbers.clear();
  built.summary.makespan.reset();
  built.schedule.reset();
  built.at_total.reset();
  built.proven_lower_bound.reset();
  return false;
}

// The phase running early on the side thread: its own input (offers off,
// its deadline the side's), when it started and the seconds it is owed.
struct Portfolio::Early {
  const Phase* phase = nullptr;
  CandidateInput own;
  std::chrono::steady_clock::time_point begin;
  double seconds = 0;
  std::unique_ptr<SideThread> side;
};

Portfolio::Portfolio(const CandidateInput& input, const PlacementFacts& facts)
    : own_input_(input), input_(&input), facts_(facts) {
  // `start_` points into the list: no reallocation (a dozen at most).
  result_.built.reserve(64);
  result_.bound = facts.bound;
  result_.closed = facts.bound;
}

Portfolio::~Portfolio() {
  if (early_ && early_->side) early_->side->stop();
}

std::optional<Time> Portfolio::repetend_makespan() const {
  if (result_.built.empty()) return std::nullopt;
  return result_.built.front().summary.makespan;
}

bool Portfolio::add(BuiltCandidate built) {
  const bool valid = admitted(own_input_, built, result_.rejected);
  result_.built.push_back(std::move(built));
  const BuiltCandidate& listed = result_.built.back();
  if (!valid || !listed.schedule || !listed.summary.makespan) return valid;
  if (shortest_ && *listed.summary.makespan >= *shortest_) return valid;
  shortest_ = listed.summary.makespan;
  if (own_input_.offer)
    own_input_.offer(*listed.schedule, listed.summary.shape, *listed.summary.makespan, listed.summary.name);
  return valid;
}

void Portfolio::take(BuiltCandidate built, bool offered_as_found) {
  if (offered_as_found) {
    // Its gains went out as they came (each judged by the offer): listed
    // without a second offer.
    const bool valid = admitted(own_input_, built, result_.rejected);
    result_.built.push_back(std::move(built));
    if (!valid) return;
    shortest_ = result_.built.back().summary.makespan;
  } else if (!add(std::move(built))) {
    return;
  }
  start_ = &*result_.built.back().at_total;
}

OnShorter Portfolio::offer_below(Time below, const char* phase) {
  const CandidateInput* input = &own_input_;
  Portfolio* self = this;
  return [self, input, below, phase](const Schedule& shorter) {
    self->gained();
    if (input->offer && makespan(shorter) < below) self->offer_or_hold(shorter, phase);
  };
}

void Portfolio::offer_or_hold(const Schedule& shorter, const char* phase) {
  const auto now = std::chrono::steady_clock::now();
  const double interval = own_input_.options.tuning.offer_interval_seconds;
  if (interval > 0 && std::chrono::duration<double>(now - last_offer_).count() < interval) {
    held_ = Held{shorter, phase};
    return;
  }
  held_.reset();
  last_offer_ = now;
  own_input_.offer(shorter, Shape::Aperiodic, makespan(shorter), phase);
}

// The gain held back goes out (the phase returned).
void Portfolio::offer_held() {
  if (!held_) return;
  const Held held = std::move(*held_);
  held_.reset();
  last_offer_ = std::chrono::steady_clock::now();
  own_input_.offer(held.schedule, Shape::Aperiodic, makespan(held.schedule), held.phase);
}

// Whether a phase budget was set by hand (a budget asked for is honoured
// whole: no stall, as the plan yields to it).
static bool budget_set_by_hand(const Tuning& tuning) {
  for (const TuningKnob& knob : tuning_knobs())
    if (knob.phase_budget && tuning.*knob.field != knob.default_value) return true;
  return false;
}

Deadline Portfolio::grant_improvement(BudgetPhase phase, double seconds, double share, bool stalls) {
  // A stall with no stretch in seconds still carries the phases' progress
  // rules (order_stall_steps, lns_stall_windows), which read it.
  const Tuning& tuning = own_input_.options.tuning;
  stalls = stalls && !budget_set_by_hand(tuning) &&
           (tuning.improve_stall_seconds > 0 || tuning.order_stall_steps > 0 || tuning.lns_stall_windows > 0);
  stall_ = stalls ? std::make_unique<Stall>(tuning.improve_stall_seconds) : nullptr;
  size_t entry = 0;
  granted_ = tessel::grant_improvement(own_input_.budget_log, phase, input_->options.deadline, seconds, share,
                                       stall_.get(), &entry);
  if (own_input_.budget_log) grant_entry_ = entry;
  return granted_;
}

void Portfolio::gained() {
  if (stall_) stall_->gained();
}

// The improvement phase returned: its end logged, its stall dropped, its
// gain held back offered.
void Portfolio::end_grant() {
  offer_held();
  if (grant_entry_ && own_input_.budget_log) log_return(*own_input_.budget_log, *grant_entry_, granted_);
  grant_entry_.reset();
  stall_.reset();
}

void Portfolio::raise(const MakespanBound& bound, Time asked_at, bool ends_ran) {
  result_.ends_asked_at = asked_at;
  result_.ends_ran = ends_ran;
  result_.bound = bound;
}

bool Portfolio::side_allowed() const {
  // One sibling flag per deadline: a portfolio run as a sibling runs in turn.
  return own_input_.options.threads >= 2 && !own_input_.options.deadline.sibling_stop;
}

// Starts `phase` on a side thread from the best and the bound as they are
// now; `stops_main` (may be empty) is told, as it ends, whether it settled
// the question (proved its candidate optimal, or failed).
std::unique_ptr<SideThread> Portfolio::start_side(const Phase& phase, std::function<void(bool)> stops_main) {
  SideCall call;
  call.facts = &facts_;
  call.start = *start_;
  call.bound = bound();
  call.so_far.bound = result_.bound;
  call.so_far.ends_asked_at = result_.ends_asked_at;
  call.so_far.ends_ran = result_.ends_ran;
  CandidateInput base = own_input_;
  base.offer = nullptr;  // offered from the main thread once collected
  base.judge = nullptr;
  auto work = [call, base, beside = phase.beside](const StopFlag& stop) mutable {
    CandidateInput own = base;
    own.options.deadline = base.options.deadline.with_sibling_stop(&stop);
    call.input = &own;
    return beside(call);
  };
  SideThread::OnDone on_done;
  if (stops_main)
    on_done = [stops_main](const std::optional<BuiltCandidate>& found, bool failed) {
      stops_main(failed || (found && found->proven_lower_bound));
    };
  return std::make_unique<SideThread>(std::move(work), std::move(on_done));
}

bool Portfolio::begin_improvements(const std::vector<Phase>& phases) {
  improving_ = true;
  start_ = best_plain(result_.built);
  if (!above_bound()) return false;
  if (!side_allowed()) return true;
  for (const Phase& phase : phases) {
    if (!phase.early || !phase.beside || !phase.wanted(*this)) continue;
    early_ = std::make_unique<Early>();
    early_->phase = &phase;
    early_->begin = std::chrono::steady_clock::now();
    early_->seconds = phase.side_seconds ? phase.side_seconds(own_input_) : 0;
    early_->side = start_side(phase, {});
    return true;
  }
  return true;
}

// The early phase collected: waited for until it had its seconds (unless
// the best is at the bound or the time is up), stopped, and its candidate
// taken as the start when it shortens it, else listed.
void Portfolio::collect_early() {
  if (!early_ || !early_->side) return;
  const bool settled = !above_bound();
  const Early& early = *early_;
  std::optional<BuiltCandidate> found = early_->side->collect([&] {
    return !settled && seconds_since(early.begin) < early.seconds && !own_input_.options.deadline.expired();
  });
  const Phase& phase = *early_->phase;
  early_.reset();
  if (!found) return;
  found->summary.note += phase.side_note;
  if (start_ && found->summary.makespan && *found->summary.makespan < makespan(*start_))
    take(std::move(*found), false);
  else
    add(std::move(*found));
}

// `main` on this thread with `side` beside it: the first to settle the
// question stops the other (the side by proving its candidate optimal, the
// main by reaching the bound); the side's candidate is listed after.
void Portfolio::run_pair(const Phase& main, const Phase& side) {
  StopFlag main_stop{false};
  CandidateInput main_input = own_input_;
  main_input.options.deadline = own_input_.options.deadline.with_sibling_stop(&main_stop);
  std::unique_ptr<SideThread> thread = start_side(side, [&main_stop](bool settled) {
    if (settled) main_stop = true;
  });
  input_ = &main_input;
  try {
    main.run(*this);
  } catch (...) {
    input_ = &own_input_;
    thread->stop();
    throw;
  }
  end_grant();
  input_ = &own_input_;
  const bool settled = !above_bound();
  std::optional<BuiltCandidate> found = thread->collect([settled] { return !settled; });
  if (!found) return;
  found->summary.note += side.side_note;
  add(std::move(*found));
}

void Portfolio::run_phase(const std::vector<Phase>& phases, size_t& index) {
  const Phase& phase = phases[index];
  if (index + 1 < phases.size()) {
    const Phase& next = phases[index + 1];
    if (next.beside && !next.early && side_allowed() && next.wanted(*this)) {
      run_pair(phase, next);
      ++index;
      return;
    }
  }
  phase.run(*this);
  end_grant();
}

Candidates Portfolio::run(const std::vector<Phase>& phases) {
  for (size_t index = 0; index < phases.size(); ++index) {
    const Phase& phase = phases[index];
    if (own_input_.options.deadline.expired() && !phase.past_deadline) break;
    if (phase.stage == Stage::Improvement && !improving_ && !begin_improvements(phases)) break;
    if (early_ && early_->phase == &phase) {
      collect_early();
      continue;
    }
    // Stop at the bound: nothing improves a best that is there.
    if (phase.stage == Stage::Improvement && !above_bound()) continue;
    if (phase.wanted && !phase.wanted(*this)) continue;
    run_phase(phases, index);
  }
  collect_early();
  return std::move(result_);
}

}  // namespace tessel
