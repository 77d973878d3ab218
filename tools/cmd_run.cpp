// `tessel run PLAN_DIR MODEL.py:FACTORY [--steps S] [--trace-dir T] ...`:
// the pipeline runtime is Python (python/tessel/runtime.py: torch.distributed
// processes, autograd, the profiler), so this command only finds the
// interpreter and the package and hands it the arguments. The interpreter is
// $TESSEL_PYTHON or /usr/bin/python3 (Debian's, the one with torch); the
// package is build/python beside this binary, put first on PYTHONPATH.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

namespace {

// build/python when this binary sits in build/ with the package beside it.
std::string package_directory() {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "";
  std::filesystem::path python = self.parent_path() / "python";
  return std::filesystem::exists(python / "tessel" / "runtime.py", error) ? python.string() : "";
}

}  // namespace

int run_run(int argc, char** argv) {
  const char* chosen = std::getenv("TESSEL_PYTHON");
  const std::string interpreter = chosen && *chosen ? chosen : "/usr/bin/python3";
  const std::string package = package_directory();
  if (!package.empty()) {
    const char* path = std::getenv("PYTHONPATH");
    std::string value = package;
    if (path && *path) value.append(":").append(path);
    setenv("PYTHONPATH", value.c_str(), 1);
  }
  // Not `-m tessel.runtime`: a missing package (this binary away from its
  // build directory) or a missing torch would end in Python's own exit 1,
  // which `tessel run` spends on "a gradient differs".
  const std::string bootstrap =
      "import sys\n"
      "try:\n"
      "    import tessel.runtime as runtime\n"
      "except ImportError as error:\n"
      "    print('tessel run: error: ' + str(error) + ' (' + sys.executable + ' needs torch and the tessel package: "
      "run the tessel binary of a build directory, or put the package on PYTHONPATH)', file=sys.stderr)\n"
      "    sys.exit(2)\n"
      "sys.exit(runtime.main())\n";
  std::vector<std::string> words = {interpreter, "-c", bootstrap};
  for (int i = 1; i < argc; ++i) words.push_back(argv[i]);
  std::vector<char*> arguments;
  for (std::string& word : words) arguments.push_back(word.data());
  arguments.push_back(nullptr);
  std::cout.flush();
  execv(interpreter.c_str(), arguments.data());
  std::cerr << "tessel run: error: cannot start " << interpreter << ": " << std::strerror(errno)
            << " (set TESSEL_PYTHON to a python3 with torch and the tessel package)\n";
  return kBadInput;
}

}  // namespace tessel::cli
