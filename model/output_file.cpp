// Writing output files through links, into devices, or by atomic replace,
// with every error reported (see output_file.hpp for the rules and why).
#include "model/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>  // std::rename
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/input_error.hpp"

namespace tessel {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw InputError("", "", "cannot write " + shown_token(path, 200) + ": " + reason);
}

[[noreturn]] void fail_errno(const std::string& path, int error) { fail(path, std::strerror(error)); }

// Where the text goes: the file to replace (links followed), or the path to
// open and write straight into.
struct Target {
  bool direct = false;  // a device, FIFO or /proc link: open and write
  fs::path file;        // direct: the path as given; else the file to replace
};

// Follows symbolic links one by one, so that a dangling link still names the
// file to make. A link under /proc (/dev/stdout -> /proc/self/fd/1) names an
// open file rather than a path and is written straight into.
Target resolve(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    if (S_ISDIR(status.st_mode)) fail(path, "it is a directory");
    if (S_ISBLK(status.st_mode)) fail(path, "it is a block device (tessel writes no disks)");
    if (S_ISSOCK(status.st_mode)) fail(path, "it is a socket");
    return {true, path};
  }
  fs::path file = path;
  for (int hops = 0; hops < 40; ++hops) {
    if (file.string().rfind("/proc/", 0) == 0) return {true, path};
    std::error_code error;
    if (!fs::is_symlink(fs::symlink_status(file, error))) return {false, file};
    const fs::path target = fs::read_symlink(file, error);
    if (error) fail_errno(path, error.value());
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  fail_errno(path, ELOOP);
}

// 0, or the errno of the first failing write.
int write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

void write_direct(const std::string& path, const std::string& text) {
  // No O_TRUNC: a pipe or terminal has nothing to cut, and a /proc link may
  // be a shell's `>> log`; O_APPEND keeps that append.
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) fail_errno(path, errno);
  int error = write_all(fd, text);
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) fail_errno(path, error);
}

// A new file beside `target`, unique to this process and call.
int open_temporary(const fs::path& target, std::string& name, const std::string& shown) {
  static std::atomic<unsigned> counter{0};
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string base = target.filename().string().substr(0, 100);
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = (folder / ("." + base + ".tessel-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter.fetch_add(1)) + ".tmp")).string();
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) return fd;
    if (errno != EEXIST) fail_errno(shown, errno);
  }
  fail_errno(shown, EEXIST);
}

void replace_file(const fs::path& target, const std::string& shown, const std::string& text) {
  std::string temporary;
  const int fd = open_temporary(target, temporary, shown);
  struct stat old {};
  // The replaced file keeps its permissions (the new one gets 0666 & ~umask).
  if (::stat(target.c_str(), &old) == 0) (void)::fchmod(fd, old.st_mode & 07777);
  int error = write_all(fd, text);
  // fsync: some file systems report a full disk only here, and the rename
  // must not put an unwritten file in place of a good one after a crash.
  if (error == 0 && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && std::rename(temporary.c_str(), target.c_str()) != 0) error = errno;
  if (error == 0) return;
  ::unlink(temporary.c_str());
  fail_errno(shown, error);
}

}  // namespace

void write_output_file(const std::string& path, const std::string& text) {
  if (path.empty()) throw InputError("", "", "cannot write a file with an empty name");
  const Target target = resolve(path);
  if (target.direct) return write_direct(path, text);
  replace_file(target.file, path, text);
}

bool output_is_replaceable(const std::string& path) {
  try {
    return !resolve(path).direct;
  } catch (const InputError&) {
    return false;  // refused: the write itself will say why
  }
}

void check_output_path(const std::string& path, const std::string& field) {
  if (path.empty()) throw InputError("", field, "the file name is empty");
  Target target;
  try {
    target = resolve(path);
  } catch (const InputError& error) {
    throw InputError("", field, error.reason);
  }
  if (target.direct) return;
  const fs::path folder = target.file.has_parent_path() ? target.file.parent_path() : fs::path(".");
  std::error_code error;
  if (!fs::is_directory(folder, error))
    throw InputError(path, field, "the directory " + folder.string() + " does not exist");
  if (::access(folder.c_str(), W_OK) != 0)
    throw InputError(path, field, "the directory " + folder.string() + " is not writable");
}

void check_output_directory(const std::string& directory, const std::string& field) {
  if (directory.empty()) throw InputError("", field, "the directory name is empty");
  fs::path part = directory;
  std::error_code error;
  // The deepest part that exists must be a folder we may write into.
  while (!part.empty() && !fs::exists(part, error)) part = part.parent_path();
  if (part.empty()) part = ".";
  if (!fs::is_directory(part, error)) throw InputError("", field, part.string() + " is not a directory");
  if (::access(part.c_str(), W_OK) != 0)
    throw InputError("", field, "the directory " + part.string() + " is not writable");
}

void create_output_directory(const std::string& directory) {
  check_output_directory(directory, "");
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) throw InputError(directory, "", "cannot create the directory: " + error.message());
}

}  // namespace tessel
