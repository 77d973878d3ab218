// `tessel bench`: the same schedule problems on several backends (and
// strategies), one table. Every problem is run once per backend with its own
// time limit; the table gives the answer (optimum, a proven bound, timeout),
// the solve time and the ratio to the fastest backend that decided the
// problem, so that one run shows how the SAT encoding compares with Z3.
// Every schedule found is passed through the independent verifier.
//
// Problems are the product cases x device counts x memory limits x
// strategies, or the built-in "hard" list (--hard): the 6- and 8-device
// mshape, nnshape, xshape and kshape, where the repetend search spends its
// time proving periods impossible, and the full search on 4-8 micro-batches.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cases/builtin_cases.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/schedule_json.hpp"
#include "sat/backend.hpp"
#include "solver/search.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/search_note_text.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {

namespace {

struct Problem {
  std::string case_name;
  int ndevs = 0;
  bool infer = false;
  std::optional<long long> memory;  // none: no limit (inference)
  std::string strategy;             // repetend | full
  int nmicros = 0;                  // full only
  int in_flight = 0;                // repetend: fixed micro-batches in flight (0: the search decides)

  std::string label() const {
    std::ostringstream text;
    text << case_name << (infer ? "-infer" : "") << " D=" << ndevs;
    text << " M=" << (memory ? std::to_string(*memory) : std::string("-"));
    text << " " << strategy;
    if (strategy == "full") text << " N=" << nmicros;
    if (strategy == "repetend" && in_flight > 0) text << " K=" << in_flight;
    return text.str();
  }
};

struct Row {
  Problem problem;
  std::string backend;
  std::string result;   // optimum | bound | timeout | infeasible | error
  Time value = 0;       // the period (repetend) or makespan (full) found, 0 if none
  Time proven_bound = 0; // largest bound proven impossible + 1 (or the simple bound)
  double seconds = 0;   // the whole search
  double decide_seconds = 0;  // repetend: deciding the period; full: everything
  std::string verified; // valid | INVALID | UNREADABLE | - (no schedule)
  std::string ratio;    // to the fastest backend that decided the problem
  std::string note;
};

std::vector<std::string> split(const std::string& text, const std::string& option) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (item.empty()) throw InputError("", option, "empty item in '" + text + "'");
    items.push_back(item);
  }
  if (items.empty()) throw InputError("", option, "give at least one value");
  return items;
}

std::vector<int> split_ints(const std::string& text, const std::string& option, int minimum) {
  std::vector<int> values;
  for (const std::string& item : split(text, option)) {
    size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || value < minimum)
      throw InputError("", option, "'" + item + "' is not an integer >= " + std::to_string(minimum));
    values.push_back(value);
  }
  return values;
}

// The built-in hard list: the placements where deciding the period means
// proving smaller ones impossible, and the full search's exponential growth.
std::vector<Problem> hard_problems() {
  std::vector<Problem> problems;
  for (int ndevs : {6, 8})
    for (const char* name : {"mshape", "nnshape", "xshape", "kshape"})
      for (long long memory : {(long long)ndevs, (long long)ndevs * 3 / 2})
        problems.push_back({name, ndevs, false, memory, "repetend", 0});
  for (int nmicros : {4, 6, 8}) problems.push_back({"mshape", 4, false, 4, "full", nmicros});
  return problems;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Progress for one bench row: the lines only with --verbose.
class RowProgress : public Progress {
 public:
  explicit RowProgress(bool verbose) : verbose_(verbose) {}
  void line(const std::string& text) override {
    if (verbose_) std::cerr << "\n  " << text;
  }

 private:
  bool verbose_;
};

Row run_problem(const Problem& problem, const std::string& backend, double time_limit, bool verbose) {
  Row row{problem, backend, "error", 0, 0, 0, 0, "-", "", ""};
  SearchRequest request;
  request.placement = make_case(problem.case_name, problem.ndevs, problem.infer);
  request.backend = backend;
  // No limit is a limit no schedule reaches.
  request.memory_limit.assign(request.placement.ndevs, problem.memory ? *problem.memory : kMaxTicks);
  request.strategy = problem.strategy == "full" ? Strategy::Full : Strategy::Repetend;
  if (problem.strategy == "full") request.total_micros = problem.nmicros;
  if (problem.strategy == "repetend" && problem.in_flight > 0) request.in_flight = problem.in_flight;
  request.micros_per_window = problem.strategy == "repetend" ? 1 : 0;
  request.deadline = time_limit > 0 ? Deadline::after_seconds(time_limit) : Deadline::none();
  RowProgress progress(verbose);
  auto start = std::chrono::steady_clock::now();
  SearchReport report;
  try {
    report = solve(request, progress);
  } catch (const InputError& error) {
    row.note = error.what();
    return row;
  }
  row.seconds = seconds_since(start);
  row.decide_seconds = row.seconds;
  for (const PhaseTime& phase : report.phases)
    if (phase.phase == "period") row.decide_seconds = phase.seconds;
  Time lower_bound = 0;
  if (report.period) {
    row.value = report.period->period;
    row.proven_bound = report.period->proven_lower_bound;
    lower_bound = report.period->lower_bound;
  } else if (report.makespan) {
    row.value = report.makespan->makespan;
    row.proven_bound = report.makespan->proven_lower_bound;
    lower_bound = report.makespan->bound.value;
  }
  const bool decided = report.period ? report.period->optimal : report.makespan && report.makespan->proven_optimal;
  if (report.outcome == Outcome::Infeasible) {
    row.result = "infeasible";
    row.value = 0;
  } else if (report.best && decided) {
    row.result = "optimum";
  } else if (row.proven_bound > lower_bound) {
    row.result = "bound";
  } else {
    row.result = "timeout";
  }
  if (report.outcome == Outcome::Timeout) row.note = search_message_text(report);
  // solve() verified every schedule it reports.
  if (report.best) row.verified = "valid";
  return row;
}

// Ratios to the fastest backend that decided the problem (optimum or
// infeasible); an undecided row gets ">x" (it was at least that much slower).
void fill_ratios(std::vector<Row>& rows, size_t first, size_t end) {
  std::optional<double> fastest;
  auto decided = [](const Row& row) { return row.result == "optimum" || row.result == "infeasible"; };
  for (size_t i = first; i < end; ++i)
    if (decided(rows[i]) && (!fastest || rows[i].seconds < *fastest)) fastest = rows[i].seconds;
  for (size_t i = first; i < end; ++i) {
    std::ostringstream text;
    text << std::fixed << std::setprecision(1);
    // Times below a millisecond are noise: they count as one millisecond.
    double base = fastest ? std::max(*fastest, 1e-3) : 0;
    double ratio = fastest ? std::max(rows[i].seconds, 1e-3) / base : 0;
    if (!fastest) text << "n/a (none decided)";
    else if (decided(rows[i])) text << ratio << "x";
    else text << ">" << ratio << "x";
    rows[i].ratio = text.str();
  }
}

// Backends that decided the same problem must agree; a difference is a bug.
std::vector<std::string> disagreements(const std::vector<Row>& rows, size_t first, size_t end) {
  std::vector<std::string> found;
  for (size_t i = first; i < end; ++i)
    for (size_t j = i + 1; j < end; ++j) {
      const Row& a = rows[i];
      const Row& b = rows[j];
      bool both_optimal = a.result == "optimum" && b.result == "optimum";
      bool feasibility_differs = (a.result == "infeasible" && b.result == "optimum") ||
                                 (a.result == "optimum" && b.result == "infeasible");
      bool bound_contradicts = (a.result == "optimum" && b.proven_bound > a.value) ||
                               (b.result == "optimum" && a.proven_bound > b.value);
      if ((both_optimal && a.value != b.value) || feasibility_differs || bound_contradicts)
        found.push_back(a.problem.label() + ": " + a.backend + " and " + b.backend + " disagree");
    }
  return found;
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(seconds < 10 ? 2 : 1) << seconds;
  return text.str();
}

std::string result_text(const Row& row) {
  if (row.result == "optimum") return "optimum " + std::to_string(row.value);
  if (row.result == "bound") return "timeout, >= " + std::to_string(row.proven_bound);
  return row.result;
}

nlohmann::json row_json(const Row& row) {
  return {{"problem", row.problem.label()},
          {"case", row.problem.case_name},
          {"ndevs", row.problem.ndevs},
          {"infer", row.problem.infer},
          {"memory", row.problem.memory ? nlohmann::json(*row.problem.memory) : nlohmann::json()},
          {"strategy", row.problem.strategy},
          {"nmicros", row.problem.strategy == "full" ? nlohmann::json(row.problem.nmicros) : nlohmann::json()},
          {"backend", row.backend},
          {"result", row.result},
          {"value", row.value},
          {"proven_lower_bound", row.proven_bound},
          {"solve_seconds", seconds_to_json(row.seconds)},
          {"decide_seconds", seconds_to_json(row.decide_seconds)},
          {"ratio_to_fastest", row.ratio},
          {"verified", row.verified},
          {"note", row.note}};
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

void print_table(const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> cells{
      {"problem", "backend", "result", "proven >=", "solve s", "period s", "ratio", "verified"}};
  for (const Row& row : rows)
    cells.push_back({row.problem.label(), row.backend, result_text(row), std::to_string(row.proven_bound),
                     seconds_text(row.seconds),
                     row.problem.strategy == "repetend" ? seconds_text(row.decide_seconds) : "-", row.ratio,
                     row.verified});
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
  for (size_t r = 0; r < cells.size(); ++r) {
    for (size_t c = 0; c < cells[r].size(); ++c)
      std::cout << std::left << std::setw(width[c] + 2) << cells[r][c];
    std::cout << "\n";
    if (r == 0) {
      for (size_t c = 0; c < width.size(); ++c) std::cout << std::string(width[c], '-') << "  ";
      std::cout << "\n";
    }
  }
}

// The problems the flags ask for (the hard list, or cases x devices x
// strategies x memory), each checked: an unknown case exits 2 naming it.
std::vector<Problem> asked_problems(const po::variables_map& values) {
  std::vector<Problem> problems;
  if (values["hard"].as<bool>()) {
    if (values.count("cases")) throw InputError("", "--hard", "give either --hard or --cases, not both");
    problems = hard_problems();
  } else {
    if (!values.count("cases")) throw InputError("", "--cases", "give --cases A,B or --hard");
    std::vector<int> ndevs = split_ints(values["ndevs"].as<std::string>(), "--ndevs", 1);
    std::vector<int> memories = split_ints(values["memory"].as<std::string>(), "--memory", 0);
    std::vector<int> nmicros = split_ints(values["nmicros"].as<std::string>(), "--nmicros", 1);
    std::vector<std::string> strategies = split(values["strategies"].as<std::string>(), "--strategies");
    for (const std::string& strategy : strategies)
      if (strategy != "repetend" && strategy != "full")
        throw InputError("", "--strategies", "unknown strategy '" + strategy + "' (repetend or full)");
    for (std::string name : split(values["cases"].as<std::string>(), "--cases")) {
      bool infer = name.size() > 6 && name.ends_with("-infer");
      if (infer) name.resize(name.size() - 6);
      for (int d : ndevs) {
        make_case(name, d, infer);  // unknown case or device count: exit 2 naming it
        for (const std::string& strategy : strategies) {
          std::vector<int> counts = strategy == "full" ? nmicros : std::vector<int>{0};
          for (int n : counts) {
            int in_flight = values["in-flight"].as<int>();
            if (in_flight < 0) throw InputError("", "--in-flight", "must be >= 0");
            if (infer) problems.push_back({name, d, true, std::nullopt, strategy, n, in_flight});
            else
              for (int m : memories) problems.push_back({name, d, false, m, strategy, n, in_flight});
          }
        }
      }
    }
  }
  return problems;
}

// Every problem on every backend; the answers compared across backends.
std::vector<Row> run_problems(const std::vector<Problem>& problems, const std::vector<std::string>& backends,
                              double time_limit, bool verbose, std::vector<std::string>& conflicts) {
  std::vector<Row> rows;
  for (const Problem& problem : problems) {
    size_t first = rows.size();
    for (const std::string& backend : backends) {
      std::cerr << "bench: " << problem.label() << " on " << backend << " ..." << std::flush;
      rows.push_back(run_problem(problem, backend, time_limit, verbose));
      std::cerr << " " << result_text(rows.back()) << " (" << seconds_text(rows.back().seconds) << " s)\n";
    }
    fill_ratios(rows, first, rows.size());
    for (const std::string& conflict : disagreements(rows, first, rows.size())) conflicts.push_back(conflict);
  }
  return rows;
}

void print_csv(const std::vector<Row>& rows) {
  std::cout << "problem,case,ndevs,memory,strategy,nmicros,backend,result,value,proven_lower_bound,"
               "solve_seconds,decide_seconds,ratio_to_fastest,verified\n";
  for (const Row& row : rows) {
    std::cout << csv_field(row.problem.label()) << "," << row.problem.case_name << "," << row.problem.ndevs
              << "," << (row.problem.memory ? std::to_string(*row.problem.memory) : "") << ","
              << row.problem.strategy << ","
              << (row.problem.strategy == "full" ? std::to_string(row.problem.nmicros) : "") << ","
              << row.backend << "," << row.result << "," << row.value << "," << row.proven_bound << ","
              << row.seconds << "," << row.decide_seconds << "," << csv_field(row.ratio) << ","
              << row.verified << "\n";
  }
}

}  // namespace

int run_bench(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("hard", po::bool_switch(), "the built-in hard list: mshape/nnshape/xshape/kshape on 6 and 8 devices, "
                                  "memory D and 1.5 D, repetend; mshape 4 devices memory 4, full, 4/6/8 micro-batches")
      ("cases", po::value<std::string>(), "comma-separated built-in cases (append '-infer' for inference, no memory limit)")
      ("ndevs", po::value<std::string>()->default_value("4"), "comma-separated device counts")
      ("memory", po::value<std::string>()->default_value("6"), "comma-separated memory limits (per device)")
      ("strategies", po::value<std::string>()->default_value("repetend"), "comma-separated: repetend, full")
      ("nmicros", po::value<std::string>()->default_value("4"), "comma-separated micro-batch counts for full")
      ("in-flight", po::value<int>()->default_value(0),
       "repetend: fix the most micro-batches in flight K (0: the search's default); a smaller K is a "
       "different, more constrained question")
      ("backends", po::value<std::string>()->default_value("cadical,z3"), "comma-separated: cadical, z3")
      ("time-limit", po::value<double>()->default_value(60), "seconds per problem and backend")
      ("verbose", po::bool_switch(), "print every solver call of the searches to stderr")
      ("json", po::bool_switch(), "one JSON object on stdout instead of the table")
      ("csv", po::bool_switch(), "CSV on stdout instead of the table");
  po::positional_options_description positional;
  po::variables_map values;
  const std::string usage =
      "tessel bench (--hard | --cases A,B [--ndevs 4,8] [--memory 6,8] [--strategies repetend,full]\n"
      "              [--nmicros 4,6] [--in-flight K]) [--backends cadical,z3] [--time-limit SECONDS] [--json | --csv]\n\n"
      "Runs every problem on every backend with its own time limit and prints one table: the problem,\n"
      "the backend, the result (optimum, 'timeout, >= B' with the bound proven so far, timeout or\n"
      "infeasible), the solve time, the time to decide the period (repetend), the ratio to the fastest\n"
      "backend that decided the problem ('>x' for one that did not), and the verifier's verdict on the\n"
      "schedule. Progress goes to stderr. Exit 0 when the backends agree, 4 when two decided answers differ.";
  if (auto code = parse(argc, argv, usage, options, positional, values)) return *code;
  return guarded("bench", [&] {
    if (values["json"].as<bool>() && values["csv"].as<bool>())
      throw InputError("", "--json/--csv", "choose one of --json and --csv");
    double time_limit = values["time-limit"].as<double>();
    if (!(time_limit > 0)) throw InputError("", "--time-limit", "must be a positive number of seconds");
    std::vector<std::string> backends = split(values["backends"].as<std::string>(), "--backends");
    std::vector<std::string> known = backend_names();
    for (const std::string& backend : backends)
      if (std::find(known.begin(), known.end(), backend) == known.end())
        throw InputError("", "--backends", "unknown backend '" + backend + "' (choose from cadical, z3)");
    std::vector<Problem> problems = asked_problems(values);
    std::vector<std::string> conflicts;
    std::vector<Row> rows = run_problems(problems, backends, time_limit, values["verbose"].as<bool>(), conflicts);

    bool invalid = false;
    for (const Row& row : rows) invalid |= row.verified == "INVALID" || row.verified == "UNREADABLE";
    if (values["json"].as<bool>()) {
      nlohmann::json document = {{"time_limit", time_limit}, {"rows", nlohmann::json::array()},
                                 {"disagreements", conflicts}};
      for (const Row& row : rows) document["rows"].push_back(row_json(row));
      std::cout << document.dump(1) << "\n";
    } else if (values["csv"].as<bool>()) {
      print_csv(rows);
    } else {
      print_table(rows);
    }
    for (const std::string& conflict : conflicts) std::cerr << "bench: DISAGREEMENT: " << conflict << "\n";
    for (const Row& row : rows)
      if (row.verified == "INVALID" || row.verified == "UNREADABLE") std::cerr << "bench: INVALID schedule: " << row.problem.label() << " on " << row.backend << "\n";
    return conflicts.empty() && !invalid ? kSuccess : kInternal;
  });
}

}  // namespace tessel::cli
