#include "services/rules/pgn_tags.h"

#include <algorithm>
#include <array>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace tablero::rules {
namespace {

constexpr std::array<absl::string_view, 6> kRoster = {"Event", "Site",  "Date",
                                                      "Round", "White", "Black"};

// Tags whose value the game decides; a caller's value for them is ignored.
bool Computed(absl::string_view name) {
  return name == "Result" || name == "SetUp" || name == "FEN";
}

bool InRoster(absl::string_view name) {
  return std::find(kRoster.begin(), kRoster.end(), name) != kRoster.end();
}

bool IsSymbol(absl::string_view s) {
  if (s.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string Line(absl::string_view name, absl::string_view value) {
  std::string v;
  for (char c : value) {
    if (c == '"' || c == '\\') v += '\\';
    v += c;
  }
  return absl::StrCat("[", name, " \"", v, "\"]\n");
}

// "[Name "value"]" -> "Name".
absl::string_view TagName(absl::string_view line) {
  if (line.empty() || line[0] != '[') return {};
  line.remove_prefix(1);
  return line.substr(0, line.find(' '));
}

}  // namespace

absl::StatusOr<std::string> ApplyPgnTags(absl::string_view pgn,
                                         std::vector<std::pair<std::string, std::string>> tags) {
  for (const auto& [name, value] : tags) {
    if (!IsSymbol(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "PGN tag name \"", name, "\" is not a PGN symbol (letters, digits, '_', letter first)"));
    }
    for (char c : value) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        return absl::InvalidArgumentError(
            absl::StrCat("PGN tag \"", name, "\": the value has a control character"));
      }
    }
  }
  std::sort(tags.begin(), tags.end());
  auto given = [&](absl::string_view name) -> const std::string* {
    for (const auto& [n, v] : tags)
      if (n == name) return &v;
    return nullptr;
  };

  const size_t split = pgn.find("\n\n");
  absl::string_view header = split == absl::string_view::npos ? "" : pgn.substr(0, split + 1);
  absl::string_view movetext = split == absl::string_view::npos ? pgn : pgn.substr(split + 1);
  std::string result_line = Line("Result", "*");
  std::string engine_extra;  // SetUp, FEN and anything else the engine adds
  for (absl::string_view line : absl::StrSplit(header, '\n', absl::SkipEmpty())) {
    absl::string_view name = TagName(line);
    if (name == "Result") {
      result_line = absl::StrCat(line, "\n");
    } else if (!InRoster(name)) {
      absl::StrAppend(&engine_extra, line, "\n");
    }
  }
  std::string out;
  for (absl::string_view name : kRoster) {
    const std::string* v = given(name);
    out += Line(name, v ? absl::string_view(*v) : name == "Date" ? "????.??.??" : "?");
  }
  out += result_line;
  out += engine_extra;
  for (const auto& [name, value] : tags) {
    if (!InRoster(name) && !Computed(name)) out += Line(name, value);
  }
  absl::StrAppend(&out, movetext);
  return out;
}

}  // namespace tablero::rules
