// The one routine every output goes through (model/output_file.hpp): links
// written through, regular files replaced atomically (the old file whole
// after a failed write), devices written straight into, directories refused,
// and every error reported with the OS reason.
#include <catch2/catch.hpp>

#include <filesystem>

#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "model/input_error.hpp"
#include "model/output_file.hpp"
#include "tests/support.hpp"

using tessel::InputError;
using tessel::write_output_file;
using tessel::testing::read_text;
using tessel::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// Files in `dir` whose name says they are write_output_file's temporaries.
int leftover_temporaries(const TempDir& dir) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir.path))
    if (entry.path().filename().string().find(".tessel-") != std::string::npos) ++count;
  return count;
}

}  // namespace

TEST_CASE("output files: a new file, and a replaced one keeping its permissions", "[output]") {
  TempDir dir;
  write_output_file(dir.file("a.txt"), "first\n");
  CHECK(read_text(dir.file("a.txt")) == "first\n");
  ::chmod(dir.file("a.txt").c_str(), 0640);
  write_output_file(dir.file("a.txt"), "second\n");
  CHECK(read_text(dir.file("a.txt")) == "second\n");
  struct stat status {};
  REQUIRE(::stat(dir.file("a.txt").c_str(), &status) == 0);
  CHECK((status.st_mode & 07777) == 0640);
  CHECK(leftover_temporaries(dir) == 0);
}

TEST_CASE("output files: a symbolic link is written through and stays a link", "[output]") {
  TempDir dir;
  fs::create_directory(dir.path / "sub");
  // A dangling relative link: its target is made, in the link's folder.
  fs::create_symlink("sub/target.json", dir.path / "link.json");
  write_output_file(dir.file("link.json"), "one\n");
  CHECK(fs::is_symlink(dir.path / "link.json"));
  CHECK(read_text(dir.file("sub/target.json")) == "one\n");
  // A chain of two links to an existing file.
  fs::create_symlink("link.json", dir.path / "link2.json");
  write_output_file(dir.file("link2.json"), "two\n");
  CHECK(fs::is_symlink(dir.path / "link2.json"));
  CHECK(fs::is_symlink(dir.path / "link.json"));
  CHECK(read_text(dir.file("sub/target.json")) == "two\n");
  CHECK(leftover_temporaries(dir) == 0);
  // A loop is an error, not a hang.
  fs::create_symlink("loop_b", dir.path / "loop_a");
  fs::create_symlink("loop_a", dir.path / "loop_b");
  CHECK_THROWS_WITH(write_output_file(dir.file("loop_a"), "x"), Catch::Contains("cannot write") &&
                                                                    Catch::Contains("symbolic links"));
}

TEST_CASE("output files: a directory is refused, a missing folder named", "[output]") {
  TempDir dir;
  CHECK_THROWS_WITH(write_output_file(dir.path.string(), "x"), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(write_output_file(dir.file("no/such/file"), "x"),
                    Catch::Contains("cannot write") && Catch::Contains("No such file or directory"));
  CHECK_THROWS_WITH(tessel::check_output_path(dir.file("no/such/file"), "-o"), Catch::Contains("does not exist"));
  tessel::testing::write_text(dir.file("afile"), "x");
  CHECK_THROWS_WITH(tessel::create_output_directory(dir.file("afile")), Catch::Contains("afile is not a directory"));
  CHECK_THROWS_WITH(tessel::create_output_directory(dir.file("afile/out")),
                    Catch::Contains("afile is not a directory"));
  tessel::create_output_directory(dir.file("new/deeper"));
  CHECK(fs::is_directory(dir.path / "new/deeper"));
}

TEST_CASE("output files: devices are written into, never replaced, and a full one is an error", "[output]") {
  if (::geteuid() != 0) {
    WARN("not root: no device node to make");
    return;
  }
  TempDir dir;
  // Made here, never the real /dev/null or /dev/full.
  REQUIRE(::mknod(dir.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
  REQUIRE(::mknod(dir.file("full").c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
  write_output_file(dir.file("null"), "anything\n");
  CHECK(fs::is_character_file(dir.path / "null"));
  CHECK(!tessel::output_is_replaceable(dir.file("null")));
  CHECK(tessel::output_is_replaceable(dir.file("new.json")));
  CHECK_THROWS_WITH(write_output_file(dir.file("full"), "anything\n"),
                    Catch::Contains("cannot write " + dir.file("full") + ": No space left on device"));
  CHECK(fs::is_character_file(dir.path / "full"));
  // Through a link, too.
  fs::create_symlink("full", dir.path / "to_full");
  CHECK_THROWS_WITH(write_output_file(dir.file("to_full"), "x\n"), Catch::Contains("No space left on device"));
  CHECK(fs::is_symlink(dir.path / "to_full"));
}

TEST_CASE("output files: a write that fails leaves the old file whole", "[output]") {
  TempDir dir;
  write_output_file(dir.file("good.json"), "{\"good\": true}\n");
  // A file size limit makes the write fail part way (EFBIG), as a full disk
  // would; SIGXFSZ is ignored so that the write returns the error.
  struct rlimit old {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &old) == 0);
  struct rlimit small = old;
  small.rlim_cur = 1000;
  auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string error;
  try {
    write_output_file(dir.file("good.json"), std::string(5000, 'x'));
  } catch (const InputError& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  CHECK_THAT(error, Catch::Contains("cannot write " + dir.file("good.json") + ": File too large"));
  CHECK(read_text(dir.file("good.json")) == "{\"good\": true}\n");
  CHECK(leftover_temporaries(dir) == 0);
}
