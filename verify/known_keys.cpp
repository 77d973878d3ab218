// Unknown keys in a verified document, with the nearest known key.
#include "verify/known_keys.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "verify/verdict.hpp"

namespace tessel::verify {

namespace {

size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A plausible typo: a few edits, fewer than half the word.
std::string nearest(const std::string& word, std::initializer_list<const char*> known) {
  std::string best;
  size_t best_distance = 1000;
  for (const char* name : known) {
    const size_t d = distance(word, name);
    if (d < best_distance) best_distance = d, best = name;
  }
  if (best_distance > 3 || best_distance * 2 > std::max(word.size(), best.size())) return "";
  return best;
}

}  // namespace

void require_known_keys(const nlohmann::json& object, std::initializer_list<const char*> known,
                        const std::string& path) {
  if (!object.is_object()) return;
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (std::any_of(known.begin(), known.end(), [&](const char* name) { return key == name; })) continue;
    std::string list;
    for (const char* name : known) list += (list.empty() ? "" : ", ") + std::string(name);
    const std::string guess = nearest(key, known);
    throw FormatError{path.empty() ? key : path + "." + key,
                      "unknown key" + (guess.empty() ? "" : " (did you mean '" + guess + "'?)") + "; the keys here are " +
                          list};
  }
}

}  // namespace tessel::verify
