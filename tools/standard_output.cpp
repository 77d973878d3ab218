// A stdout buffer that keeps the first write error (see the header).
#include "tools/standard_output.hpp"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>

#include <unistd.h>

namespace tessel::cli {

namespace {

class CheckedBuffer : public std::streambuf {
 public:
  int error = 0;  // errno of the first failed write
  // On a terminal each line is shown when complete (as stdio does), so that
  // a long command's table rows appear as they are printed.
  bool by_line = ::isatty(1) == 1;

  bool flush_all() {
    size_t done = 0;
    while (error == 0 && done < pending.size()) {
      const ssize_t n = ::write(1, pending.data() + done, pending.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error = n < 0 ? errno : EIO;
      else done += static_cast<size_t>(n);
    }
    pending.clear();  // after an error the rest is dropped, as it cannot arrive
    return error == 0;
  }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    pending.push_back(static_cast<char>(c));
    if (pending.size() >= kChunk || (by_line && c == '\n')) flush_all();
    return c;
  }
  std::streamsize xsputn(const char* text, std::streamsize n) override {
    pending.append(text, static_cast<size_t>(n));
    if (pending.size() >= kChunk || (by_line && pending.find('\n') != std::string::npos)) flush_all();
    return n;
  }
  int sync() override { return flush_all() ? 0 : -1; }

 private:
  static constexpr size_t kChunk = 1 << 16;
  std::string pending;
};

// Never destroyed: std::cout is flushed after main returns.
CheckedBuffer* buffer = nullptr;

}  // namespace

void check_standard_output() {
  if (buffer) return;
  buffer = new CheckedBuffer;
  std::cout.rdbuf(buffer);
}

std::string standard_output_problem() {
  if (!buffer) return "";
  std::cout.flush();
  buffer->flush_all();
  return buffer->error == 0 ? "" : std::strerror(buffer->error);
}

}  // namespace tessel::cli
