// The version of tablero a binary was built from: the project version of the top-level
// CMakeLists.txt and the git commit it was configured from ("unknown" without git).
#ifndef TABLERO_LIBS_VERSION_VERSION_H_
#define TABLERO_LIBS_VERSION_VERSION_H_

#include <string>

#include "absl/flags/usage_config.h"
#include "absl/strings/string_view.h"

namespace tablero {

absl::string_view Version();  // "0.2.0"
absl::string_view Commit();   // "abc1234" or "unknown"

// "tablero rules 0.2.0 (commit abc1234)" for program "rules".
std::string VersionLine(absl::string_view program);

// Sets Abseil's usage message and usage config (`config`, whose version_string is replaced:
// --version prints VersionLine(program); without a normalize_filename, help texts name a
// flag's file by its path in the repository). Call once, before absl::ParseCommandLine.
void InitFlagsUsage(absl::string_view program, absl::string_view usage,
                    absl::FlagsUsageConfig config = {});

}  // namespace tablero

#endif  // TABLERO_LIBS_VERSION_VERSION_H_
