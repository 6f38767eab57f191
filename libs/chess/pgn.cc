// PGN export: Seven Tag Roster, SAN movetext, result.
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/chess/notation.h"

namespace tablero::chess {
namespace {

std::string Escape(absl::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

}  // namespace

std::string WritePgn(const Position& start, const std::vector<Move>& moves, const PgnTags& tags) {
  std::vector<std::pair<std::string, std::string>> roster = {
      {"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"}, {"Round", "-"},
      {"White", "?"}, {"Black", "?"}, {"Result", tags.result}};
  std::vector<std::pair<std::string, std::string>> extra;
  for (const auto& [k, v] : tags.tags) {
    bool in_roster = false;
    for (auto& [rk, rv] : roster) {
      if (rk == k && k != "Result") {
        rv = v;
        in_roster = true;
      }
    }
    if (!in_roster && k != "Result") extra.emplace_back(k, v);
  }
  const std::string fen = start.Fen();
  if (fen != kStartFen) {
    extra.emplace_back("SetUp", "1");
    extra.emplace_back("FEN", fen);
  }
  std::string out;
  for (const auto& [k, v] : roster) absl::StrAppend(&out, "[", k, " \"", Escape(v), "\"]\n");
  for (const auto& [k, v] : extra) absl::StrAppend(&out, "[", k, " \"", Escape(v), "\"]\n");
  out += '\n';

  // Movetext tokens, then wrapped.
  std::vector<std::string> tokens;
  Position pos = start;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (pos.side_to_move() == kWhite) {
      tokens.push_back(absl::StrCat(pos.fullmove_number(), "."));
    } else if (i == 0) {
      tokens.push_back(absl::StrCat(pos.fullmove_number(), "..."));
    }
    tokens.push_back(ToSan(pos, moves[i]));
    pos.DoMove(moves[i]);
  }
  if (!tags.comment.empty()) {
    std::string c = tags.comment;
    for (char& ch : c)
      if (ch == '}' || ch == '{') ch = ' ';
    tokens.push_back(absl::StrCat("{", c, "}"));
  }
  tokens.push_back(tags.result);
  size_t col = 0;
  for (const std::string& tok : tokens) {
    if (col > 0 && col + 1 + tok.size() > 79) {
      out += '\n';
      col = 0;
    } else if (col > 0) {
      out += ' ';
      ++col;
    }
    out += tok;
    col += tok.size();
  }
  out += "\n";
  return out;
}

}  // namespace tablero::chess
