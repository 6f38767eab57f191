#include "libs/version/version.h"

#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace tablero {
namespace {

// A flag's file as a path in the repository ("libs/service/config.cc"): the compiler is
// given absolute paths, and the build machine's folders have no place in a help text.
std::string RepositoryPath(absl::string_view file) {
  absl::string_view root = __FILE__;
  if (!absl::ConsumeSuffix(&root, "libs/version/version.cc")) return std::string(file);
  absl::ConsumePrefix(&file, root);
  return std::string(file);
}

}  // namespace

absl::string_view Version() { return TABLERO_VERSION; }

absl::string_view Commit() { return TABLERO_COMMIT; }

std::string VersionLine(absl::string_view program) {
  return absl::StrCat("tablero ", program, " ", Version(), " (commit ", Commit(), ")");
}

void InitFlagsUsage(absl::string_view program, absl::string_view usage,
                    absl::FlagsUsageConfig config) {
  absl::SetProgramUsageMessage(usage);
  config.version_string = [line = VersionLine(program)] { return line + "\n"; };
  if (!config.normalize_filename) config.normalize_filename = RepositoryPath;
  absl::SetFlagsUsageConfig(config);
}

}  // namespace tablero
