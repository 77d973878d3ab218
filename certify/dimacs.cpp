// DIMACS and DRAT readers (see the header).
#include "certify/dimacs.hpp"

#include <cctype>
#include <cstdlib>

namespace tessel::certify {
namespace {

// A cursor over text that reads integers and knows its line.
struct Reader {
  const std::string& text;
  const std::string& where;
  size_t at = 0;
  int line = 1;

  void skip_space() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) line += text[at++] == '\n';
  }
  void skip_line() {
    while (at < text.size() && text[at] != '\n') ++at;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw MalformedError(where + ": line " + std::to_string(line) + ": " + what);
  }
  long long integer() {
    size_t begin = at;
    if (at < text.size() && text[at] == '-') ++at;
    const size_t digits = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at == digits || (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at]))))
      fail("'" + text.substr(begin, std::min<size_t>(at + 1 - begin, 20)) + "' is not an integer");
    if (at - digits > 10) fail("an integer too large for a literal");
    return std::atoll(text.c_str() + begin);
  }
};

int literal_within(Reader& reader, long long value, int variables) {
  if (variables >= 0 && (value > variables || -value > variables))
    reader.fail("literal " + std::to_string(value) + " beyond the " + std::to_string(variables) + " variables");
  if (value > (1LL << 30) || -value > (1LL << 30)) reader.fail("literal too large");
  return static_cast<int>(value);
}

bool is_binary(const std::string& bytes) {
  for (size_t i = 0; i < std::min<size_t>(bytes.size(), 64); ++i) {
    const unsigned char c = bytes[i];
    if (c != 'a' && c != 'd' && (c == 0 || c > 127 || (!std::isprint(c) && !std::isspace(c)))) return true;
  }
  return !bytes.empty() && bytes[0] == 'a';
}

std::vector<ProofStep> parse_binary_drat(const std::string& bytes, const std::string& where) {
  std::vector<ProofStep> steps;
  size_t at = 0;
  while (at < bytes.size()) {
    const char kind = bytes[at++];
    if (kind != 'a' && kind != 'd') throw MalformedError(where + ": byte " + std::to_string(at - 1) + ": not 'a' or 'd'");
    ProofStep step{kind == 'd', {}};
    for (;;) {
      unsigned long long value = 0;
      int shift = 0;
      for (;;) {
        if (at >= bytes.size()) throw MalformedError(where + ": the last proof step is cut off");
        const unsigned char byte = bytes[at++];
        value |= static_cast<unsigned long long>(byte & 127) << shift;
        if (!(byte & 128)) break;
        if ((shift += 7) > 35) throw MalformedError(where + ": byte " + std::to_string(at) + ": literal too large");
      }
      if (value == 0) break;
      const long long literal = (value & 1) ? -static_cast<long long>(value >> 1) : static_cast<long long>(value >> 1);
      step.literals.push_back(static_cast<int>(literal));
    }
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace

Cnf parse_dimacs(const std::string& text, const std::string& where) {
  Reader reader{text, where};
  Cnf cnf;
  long long declared = -1;
  std::vector<int> clause;
  for (reader.skip_space(); reader.at < text.size(); reader.skip_space()) {
    if (text[reader.at] == 'c') {
      reader.skip_line();
      continue;
    }
    if (text[reader.at] == 'p') {
      if (declared >= 0) reader.fail("a second 'p cnf' line");
      if (text.compare(reader.at, 5, "p cnf") != 0) reader.fail("not 'p cnf V C'");
      reader.at += 5;
      reader.skip_space();
      cnf.variables = static_cast<int>(reader.integer());
      reader.skip_space();
      declared = reader.integer();
      if (cnf.variables < 0 || declared < 0) reader.fail("negative counts");
      continue;
    }
    if (declared < 0) reader.fail("a clause before the 'p cnf' line");
    const long long value = reader.integer();
    if (value != 0) {
      clause.push_back(literal_within(reader, value, cnf.variables));
      continue;
    }
    cnf.clauses.push_back(std::move(clause));
    clause.clear();
  }
  if (declared < 0) throw MalformedError(where + ": no 'p cnf' line");
  if (!clause.empty()) throw MalformedError(where + ": the last clause has no terminating 0");
  if (static_cast<long long>(cnf.clauses.size()) != declared)
    throw MalformedError(where + ": " + std::to_string(cnf.clauses.size()) + " clauses, the header says " +
                         std::to_string(declared));
  return cnf;
}

std::vector<ProofStep> parse_drat(const std::string& bytes, const std::string& where) {
  if (is_binary(bytes)) return parse_binary_drat(bytes, where);
  Reader reader{bytes, where};
  std::vector<ProofStep> steps;
  ProofStep step;
  bool open = false;
  for (reader.skip_space(); reader.at < bytes.size(); reader.skip_space()) {
    const char c = bytes[reader.at];
    if (c == 'c') {
      reader.skip_line();
      continue;
    }
    if (c == 'd') {
      if (open) reader.fail("'d' inside a clause");
      step.deletion = true;
      ++reader.at;
      continue;
    }
    const long long value = reader.integer();
    open = true;
    if (value != 0) {
      step.literals.push_back(literal_within(reader, value, -1));
      continue;
    }
    steps.push_back(std::move(step));
    step = ProofStep{};
    open = false;
  }
  if (open || step.deletion) throw MalformedError(where + ": the last proof line has no terminating 0");
  return steps;
}

}  // namespace tessel::certify
