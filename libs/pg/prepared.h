// Hot statements as prepared statements, without a registry to keep in step.
//
// Why: exec_params sends the SQL text with every call, so PostgreSQL parses and plans it
// every time; for the joins and CTEs on a move's path that was most of their cost. A
// prepared statement is parsed once per connection and planned once (then its generic
// plan is reused when it is as good).
//
// libpqxx registers a definition with the connection and prepares it on the server on its
// first use; defining it again with the same text is a cheap no-op, so callers just pass
// name and text together at each call site. One name must always carry one text.
#ifndef TABLERO_LIBS_PG_PREPARED_H_
#define TABLERO_LIBS_PG_PREPARED_H_

#include <pqxx/pqxx>
#include <string>
#include <utility>

namespace tablero::pg {

template <typename... Args>
pqxx::result ExecPrepared(pqxx::transaction_base& t, const std::string& name,
                          const std::string& sql, Args&&... args) {
  t.conn().prepare(name, sql);
  return t.exec_prepared(name, std::forward<Args>(args)...);
}

}  // namespace tablero::pg

#endif  // TABLERO_LIBS_PG_PREPARED_H_
