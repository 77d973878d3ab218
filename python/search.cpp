// tessel.search and tessel.verify. The search runs solve() in a worker
// thread with the GIL released; the calling thread wakes every 50 ms to let
// Python see Ctrl-C, and on KeyboardInterrupt raises the search's stop flag
// and waits for it to return (promptly: every solver call watches the flag)
// before the exception propagates.
#include <chrono>
#include <future>
#include <thread>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "certificate/search_claims.hpp"
#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "python/bindings.hpp"
#include "solver/search.hpp"
#include "tools/candidate_note_text.hpp"
#include "tools/gap_text.hpp"
#include "tools/search_note_text.hpp"
#include "verify/verify.hpp"

namespace tessel::python {
namespace {

// What tessel.search returns: the report's answers in the user's units.
struct Result {
  std::string status;  // found | infeasible | timeout | interrupted
  std::string message;
  py::object period = py::none();
  py::object lower_bound = py::none();
  py::object proven_lower_bound = py::none();
  int micros_per_window = 1;
  bool optimal = false;
  py::object makespan = py::none();
  py::object makespan_bound = py::none();
  bool makespan_proven_optimal = false;
  std::string shape;
  std::string construction;
  std::string gap_reason;           // why the makespan stays above its bound (empty within 1%)
  py::dict gap;                     // the same as data: {"cause", "boundary", and its numbers}
  py::list candidates;
  py::list rejected;  // {"phase", "violation"}: candidates the verifier rejected (a bug; dropped)
  py::list budget;    // what the budget granted each phase, as `tessel search --json` prints it
  std::optional<Schedule> schedule;  // the best at total_micros (what -o writes)
  std::optional<Schedule> repetend;  // the unrollable repetend, when there is one
  double seconds = 0;
  py::object certificate = py::none();  // with certify=DIR: what certificate_summary says
};

// Offers each better schedule to a Python callback (under the GIL).
class CallbackProgress : public Progress {
 public:
  explicit CallbackProgress(py::object on_improved) : on_improved_(std::move(on_improved)) {}
  void improved(const Schedule& schedule, Shape shape, Time makespan) override {
    if (on_improved_.is_none()) return;
    py::gil_scoped_acquire acquire;
    on_improved_(schedule, shape_name(shape), number_of(makespan, schedule.placement.time_decimals));
  }

 private:
  py::object on_improved_;
};

SearchReport solve_interruptibly(SearchRequest request, Progress& progress) {
  StopFlag stop{false};
  request.deadline.stop = &stop;
  std::optional<SearchReport> report;
  std::exception_ptr failure;
  std::promise<void> finished;
  std::future<void> done = finished.get_future();
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        report = solve(request, progress);
      } catch (...) {
        failure = std::current_exception();
      }
      finished.set_value();
    });
    // Returns as soon as the search does; otherwise looks at signals every 50 ms.
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (!interrupted && PyErr_CheckSignals() != 0) {
        interrupted = true;  // KeyboardInterrupt is now set; keep it for after the join
        stop = true;
      }
    }
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  if (failure) std::rethrow_exception(failure);
  return *report;
}

// The makespan gap's cause and numbers (tools/gap_text.hpp says them in words).
py::dict gap_dict(const MakespanGap& gap, int t) {
  py::dict out;
  out["cause"] = gap_cause_name(gap.cause);
  out["boundary"] = boundary_cause_name(gap.boundary);
  out["total_micros"] = gap.total_micros;
  out["makespan"] = number_of(gap.makespan, t);
  out["bound"] = number_of(gap.bound, t);
  out["proven_lower_bound"] = number_of(gap.proven_lower_bound, t);
  out["period"] = number_of(gap.period, t);
  out["period_lower_bound"] = number_of(gap.period_lower_bound, t);
  out["micros_per_window"] = gap.micros_per_window;
  out["period_excess"] = number_of(gap.period_excess, t);
  out["boundary_seconds"] = gap.boundary_seconds;
  out["construction"] = gap.construction;
  return out;
}

Result result_of(const SearchReport& report, const Placement& placement) {
  Result result;
  const int t = placement.time_decimals;
  result.status = outcome_name(report.outcome);
  result.message = search_message_text(report);
  result.seconds = report.seconds;
  if (report.period) {
    result.period = number_of(report.period->period, t);
    result.lower_bound = number_of(report.period->lower_bound, t);
    result.proven_lower_bound = number_of(report.period->proven_lower_bound, t);
    result.micros_per_window = report.period->micros_per_window;
    result.optimal = report.period->optimal;
  }
  if (report.makespan) {
    result.makespan = number_of(report.makespan->makespan, t);
    result.makespan_bound = number_of(report.makespan->proven_lower_bound, t);
    result.makespan_proven_optimal = report.makespan->proven_optimal;
    result.shape = shape_name(report.makespan->shape);
    result.construction = report.makespan->construction;
    if (!report.period) result.optimal = report.makespan->proven_optimal;
    result.gap_reason = gap_text(report.makespan->gap, t);
    result.gap = gap_dict(report.makespan->gap, t);
    for (const Candidate& candidate : report.makespan->candidates) {
      py::dict entry;
      entry["name"] = candidate.name;
      entry["shape"] = shape_name(candidate.shape);
      entry["makespan"] = candidate.makespan ? number_of(*candidate.makespan, t) : py::object(py::none());
      entry["note"] = candidate_note_text(candidate, t);
      entry["note_kind"] = candidate_note_name(candidate.note_kind);
      result.candidates.append(entry);
    }
  }
  for (const BudgetGrant& grant : report.budget) {
    py::dict entry;
    entry["phase"] = budget_phase_name(grant.phase);
    entry["from"] = grant.from;
    entry["until"] = grant.until ? py::object(py::float_(*grant.until)) : py::object(py::none());
    entry["limited_by"] = budget_limit_name(grant.limited_by);
    entry["estimate"] = grant.estimate;
    if (grant.ended) {
      entry["ended"] = py::float_(*grant.ended);
      entry["stalled"] = py::bool_(grant.stalled);
      if (grant.stalled) entry["stalled_by"] = grant.gave_up ? "progress" : "seconds";
    }
    result.budget.append(entry);
  }
  for (const RejectedCandidate& candidate : report.rejected) {
    py::dict entry;
    entry["phase"] = candidate.phase;
    entry["violation"] = candidate.violation;
    result.rejected.append(entry);
  }
  result.schedule = report.best;
  result.repetend = report.repetend;
  return result;
}

Result search(Placement placement, py::handle memory, const std::string& strategy, const std::string& backend,
              int total_micros, std::optional<double> time_limit, std::optional<int> threads,
              std::optional<int> nmicros, int micros_per_window, const std::map<std::string, double>& tune,
              py::object on_improved, std::optional<std::string> certify, double certify_seconds) {
  placement = checked(placement);
  SearchRequest request;
  request.memory_limit = memory_limits_of(placement, memory);
  request.placement = placement;
  std::optional<Strategy> parsed = parse_strategy(strategy);
  if (!parsed) throw InputError("", "strategy", "'" + strategy + "' is not one of repetend, full, fast");
  request.strategy = *parsed;
  request.backend = backend;
  request.total_micros = total_micros;
  apply_nmicros(request, nmicros);
  request.micros_per_window = micros_per_window;
  if (time_limit) {
    if (!(*time_limit > 0)) throw InputError("", "time_limit", "must be > 0 seconds (None for no limit)");
    request.deadline = Deadline::after_seconds(*time_limit);
  }
  request.threads = threads.value_or(0);
  // The shortest text that reads back as the same double (std::to_string
  // prints six decimals: 1e-7 became 0).
  for (const auto& [name, value] : tune) apply_tuning(request.tuning, name + "=" + nlohmann::json(value).dump());
  CallbackProgress progress(on_improved);
  const SearchReport report = solve_interruptibly(request, progress);
  Result result = result_of(report, request.placement);
  if (certify) {
    if (!(certify_seconds >= 0)) throw InputError("", "certify_seconds", "must be >= 0 seconds (0: no limit)");
    const certify::Manifest manifest = certify_search(request, report, *certify, certify_seconds, nullptr);
    result.certificate = py::module_::import("json").attr("loads")(certificate_summary(manifest, *certify).dump());
  }
  return result;
}

py::list violations_of(const verify::Report& report) {
  py::list violations;
  for (const verify::Violation& violation : report.violations) {
    py::dict entry;
    entry["kind"] = violation.kind;
    entry["message"] = violation.message;
    entry["devices"] = violation.devices;
    entry["instances"] = violation.instances;
    violations.append(entry);
  }
  return violations;
}

}  // namespace

void bind_search(py::module_& module) {
  py::class_<Result>(module, "Result", "What tessel.search found (see docs/python.md).")
      .def_readonly("status", &Result::status)
      .def_readonly("message", &Result::message)
      .def_readonly("period", &Result::period)
      .def_readonly("lower_bound", &Result::lower_bound)
      .def_readonly("proven_lower_bound", &Result::proven_lower_bound)
      .def_readonly("micros_per_window", &Result::micros_per_window)
      .def_readonly("optimal", &Result::optimal)
      .def_readonly("makespan", &Result::makespan)
      .def_readonly("makespan_bound", &Result::makespan_bound)
      .def_readonly("makespan_proven_optimal", &Result::makespan_proven_optimal)
      .def_readonly("shape", &Result::shape)
      .def_readonly("construction", &Result::construction)
      .def_readonly("gap_reason", &Result::gap_reason)
      .def_readonly("gap", &Result::gap)
      .def_readonly("candidates", &Result::candidates)
      .def_readonly("rejected", &Result::rejected)
      .def_readonly("budget", &Result::budget)
      .def_readonly("schedule", &Result::schedule)
      .def_readonly("repetend", &Result::repetend)
      .def_readonly("seconds", &Result::seconds)
      .def_readonly("certificate", &Result::certificate)
      .def("__repr__", [](const Result& r) {
        return "<tessel.Result " + r.status + ": period " + py::str(r.period).cast<std::string>() + ", makespan " +
               py::str(r.makespan).cast<std::string>() + " (" + r.shape + ")>";
      });
  module.def("search", &search, py::arg("placement"), py::arg("memory"), py::arg("strategy") = "repetend",
             py::arg("backend") = "cadical", py::arg("total_micros") = 128, py::arg("time_limit") = std::nullopt,
             py::arg("threads") = std::nullopt, py::arg("nmicros") = std::nullopt, py::arg("micros_per_window") = 0,
             py::arg("tune") = std::map<std::string, double>{}, py::arg("on_improved") = py::none(), py::arg("certify") = std::nullopt,
             py::arg("certify_seconds") = kDefaultCertifySeconds,
             "Find a schedule (the same search as `tessel search`); see docs/python.md.");
  // The knob table (solver/knobs/tuning.hpp): the names `tune` takes, from the
  // same rows as `tessel search --tune help-all`.
  module.def(
      "tuning_knobs",
      [] {
        py::list knobs;
        for (const TuningKnob& knob : tuning_knobs()) {
          py::dict row;
          row["name"] = knob.name;
          row["default"] = knob.default_value;
          row["minimum"] = knob.minimum;
          row["maximum"] = knob.maximum;
          row["integer"] = knob.integer;
          row["level"] = knob_level_name(knob.level);
          row["phase_budget"] = knob.phase_budget;
          row["meaning"] = knob.meaning;
          knobs.append(row);
        }
        return knobs;
      },
      "The search's knobs (the names `search(tune=...)` takes): name, default, range, level, meaning.");

  py::class_<verify::Report>(module, "Report", "The verifier's verdict.")
      .def_readonly("valid", &verify::Report::valid)
      .def_property_readonly("violations", &violations_of)
      .def_property_readonly("violation_counts", [](const verify::Report& r) { return r.violation_counts; })
      // In the schedule's units, as Schedule.makespan (the verifier counts
      // ticks of the written document's decimals).
      .def_property_readonly("makespan", [](const verify::Report& r) { return number_of(r.makespan, r.time_decimals); })
      .def_readonly("bubble_ratio", &verify::Report::bubble_ratio)
      .def_property_readonly("peak_memory", [](const verify::Report& r) {
        py::list peaks;
        for (long long peak : r.peak_memory) peaks.append(number_of(peak, r.memory_decimals));
        return peaks;
      })
      .def_readonly("notes", &verify::Report::notes)
      .def("text", [](const verify::Report& r) { return verify::report_to_text(r); })
      .def("__repr__", [](const verify::Report& r) {
        return std::string("<tessel.Report ") + (r.valid ? "valid" : "INVALID") + ">";
      });
  module.def("verify", [](const Schedule& schedule, py::handle memory) {
        Schedule copy = schedule;
        if (!memory.is_none()) {
          copy.memory_limit = memory_limits_of(copy.placement, memory);
          copy.uniform_limit = false;
        }
        py::gil_scoped_release release;
        return verify::check_schedule(schedule_to_json(copy));
      }, py::arg("schedule"), py::arg("memory") = py::none(),
      "The independent verifier (`tessel verify`); memory overrides the schedule's limit.");
}

}  // namespace tessel::python
