#include "libs/version/version.h"

#include "absl/flags/usage.h"
#include "absl/strings/str_cat.h"

namespace tablero {

absl::string_view Version() { return TABLERO_VERSION; }

absl::string_view Commit() { return TABLERO_COMMIT; }

std::string VersionLine(absl::string_view program) {
  return absl::StrCat("tablero ", program, " ", Version(), " (commit ", Commit(), ")");
}

void InitFlagsUsage(absl::string_view program, absl::string_view usage,
                    absl::FlagsUsageConfig config) {
  absl::SetProgramUsageMessage(usage);
  config.version_string = [line = VersionLine(program)] { return line + "\n"; };
  absl::SetFlagsUsageConfig(config);
}

}  // namespace tablero
