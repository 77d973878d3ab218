// What the tests share: running the real `tessel` binary, temporary files,
// sending any model::Schedule through the independent verifier, adding
// a block to a placement built by hand, and offering recomputation.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <chrono>
#include <thread>
#include <vector>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "model/input_error.hpp"
#include "model/schedule.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "verify/verify.hpp"

namespace tessel::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

// A fresh directory under the system temp dir, removed at scope end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device random;
    path = std::filesystem::temp_directory_path() / ("tessel-test-" + std::to_string(random()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// CPU seconds (user + system) of every finished child process so far: the
// difference around a command is the work it did. Tests bound work rather
// than wall time where the promise is about work (teardown, building past a
// deadline): a machine shared by parallel tests stretches wall time, not work.
inline double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Runs `tessel ARGS` (ARGS already shell-quoted as needed).
inline CommandResult run_tessel(const std::string& args) {
  TempDir dir;
  std::string command = std::string(TESSEL_BINARY) + " " + args + " >" + dir.file("out") + " 2>" +
                        dir.file("err") + " </dev/null";
  int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(dir.file("out"));
  result.err = read_text(dir.file("err"));
  return result;
}

// A run of `tessel ARGS...` ended by `signal` sent after `delay`: its exit
// code (-1 when the signal killed it), how long it took to end after the
// signal, and its stderr.
struct Signalled {
  int exit_code = -1;
  double seconds_after_signal = 0;
  std::string err;
};

inline Signalled signal_after(const std::vector<std::string>& args, int signal, std::chrono::milliseconds delay,
                              const std::string& err_file) {
  const pid_t child = fork();
  if (child == 0) {
    std::vector<char*> argv{const_cast<char*>(TESSEL_BINARY)};
    for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    if (!std::freopen(err_file.c_str(), "w", stderr) || !std::freopen("/dev/null", "w", stdout)) _exit(126);
    execv(TESSEL_BINARY, argv.data());
    _exit(127);
  }
  std::this_thread::sleep_for(delay);
  kill(child, signal);
  const auto sent = std::chrono::steady_clock::now();
  int status = 0;
  waitpid(child, &status, 0);
  Signalled result;
  result.seconds_after_signal = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = read_text(err_file);
  return result;
}

// The verifier's verdict on a schedule as the model would write it.
inline verify::Report verify_schedule(const Schedule& schedule) {
  return verify::check_schedule(schedule_to_json(schedule));
}

// "field: reason" of the InputError unroll() throws, or "" when it succeeds.
inline std::string unroll_error(const Schedule& schedule, int nmicros) {
  try {
    unroll(schedule, nmicros);
  } catch (const InputError& error) {
    return error.field + ": " + error.reason;
  }
  return "";
}

// The message of the InputError reading `document` as a schedule (file
// "s.json") throws, or "" when it reads.
inline std::string schedule_read_error(const nlohmann::json& document) {
  try {
    schedule_from_json(document, JsonPlace{"s.json", ""});
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// Appends a block and returns its index.
inline int add_block(Placement& placement, const std::string& id, std::vector<int> devices, Time span,
                     Memory memory) {
  Block block;
  block.id = id;
  block.devices = std::move(devices);
  block.span = span;
  block.memory = memory;
  placement.blocks.push_back(block);
  return static_cast<int>(placement.blocks.size()) - 1;
}

// Every forward with memory offers recomputation at its own span, before the
// first later block on its devices that frees its memory (what
// cases/bench/offer_recompute.py does to a file).
inline Placement offering_recompute(Placement placement) {
  const std::vector<std::vector<char>> after = descendants(placement);
  for (size_t f = 0; f < placement.blocks.size(); ++f) {
    Block& block = placement.blocks[f];
    if (block.kind != BlockKind::Forward || block.memory <= 0) continue;
    for (int b : topological_order(placement)) {
      const Block& other = placement.blocks[b];
      if (!after[f][b] || other.devices != block.devices || other.memory > -block.memory) continue;
      block.recompute = RecomputeOffer{block.span, b, 0};
      break;
    }
  }
  return placement;
}

}  // namespace tessel::testing
