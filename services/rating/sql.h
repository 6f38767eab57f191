// Exact text forms for SQL parameters and exact reads of float8 columns. Doubles go to
// Postgres as 17 significant digits (always enough to round-trip an IEEE double through
// float8in) and come back as float8send() bytes, so no setting of the server
// (extra_float_digits) can round a rating.
#ifndef TABLERO_SERVICES_RATING_SQL_H_
#define TABLERO_SERVICES_RATING_SQL_H_

#include <cstdint>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tablero::rating {

std::string SqlFloat(double d);  // "1500", "1464.0506705393013", ...

// Array literals for $n::text[], $n::float8[], $n::int[], $n::bool[].
std::string SqlTextArray(const std::vector<std::string>& v);
std::string SqlFloatArray(const std::vector<double>& v);
std::string SqlIntArray(const std::vector<int>& v);
std::string SqlBoolArray(const std::vector<bool>& v);

// A float8send() column (8 bytes, big-endian IEEE 754) as a double.
double FromBits(const pqxx::field& f);

// Raw double bits as 16 hex digits and back (page tokens).
std::string DoubleHex(double d);
bool ParseDoubleHex(absl::string_view s, double* d);

}  // namespace tablero::rating

#endif  // TABLERO_SERVICES_RATING_SQL_H_
