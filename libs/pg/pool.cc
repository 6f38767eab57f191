#include "libs/pg/pool.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tablero::pg {

absl::Status FromException(const std::exception& e) {
  if (const auto* b = dynamic_cast<const pqxx::broken_connection*>(&e)) {
    return absl::UnavailableError(absl::StrCat("database connection: ", b->what()));
  }
  // libpqxx 6 throws serialization failures and deadlocks as transaction_rollback, which
  // is not an sql_error: they are the retryable ones.
  if (dynamic_cast<const pqxx::statement_completion_unknown*>(&e) != nullptr) {
    return absl::UnavailableError(absl::StrCat("database statement outcome unknown: ", e.what()));
  }
  if (dynamic_cast<const pqxx::transaction_rollback*>(&e) != nullptr) {
    return absl::AbortedError(absl::StrCat("database transaction rolled back: ", e.what()));
  }
  if (const auto* s = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string& state = s->sqlstate();
    std::string msg = absl::StrCat("database [", state, "]: ", s->what());
    if (state == "40001" || state == "40P01") return absl::AbortedError(msg);
    if (state == "23505") return absl::AlreadyExistsError(msg);
    if (absl::string_view(state).substr(0, 2) == "23") return absl::FailedPreconditionError(msg);
    if (absl::string_view(state).substr(0, 2) == "08") return absl::UnavailableError(msg);
    return absl::InternalError(msg);
  }
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) {
    return absl::UnavailableError(absl::StrCat("database commit in doubt: ", e.what()));
  }
  return absl::InternalError(absl::StrCat("database: ", e.what()));
}

absl::StatusOr<std::unique_ptr<pqxx::connection>> Connect(const std::string& url) {
  try {
    return std::make_unique<pqxx::connection>(url);
  } catch (const std::exception& e) {
    // libpq messages end with a newline; keep log lines on one line.
    std::string msg = e.what();
    while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
    return absl::UnavailableError(absl::StrCat("cannot connect to PostgreSQL: ", msg));
  }
}

Conn::~Conn() {
  if (pool_ != nullptr) pool_->Return(std::move(c_));
}

Pool::Stats Pool::stats() const {
  absl::MutexLock lock(&mu_);
  return Stats{size_, open_, lent_, waits_, wait_seconds_, timeouts_};
}

void Pool::Return(std::unique_ptr<pqxx::connection> c) {
  absl::MutexLock lock(&mu_);
  --lent_;
  if (c != nullptr && c->is_open()) {
    idle_.push_back(std::move(c));
  } else {
    --open_;  // broken: forget it, a new one is opened on demand
  }
  cv_.Signal();
}

absl::StatusOr<Conn> Pool::Acquire(absl::Duration wait) {
  {
    absl::MutexLock lock(&mu_);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + absl::ToChronoMilliseconds(wait);
    if (idle_.empty() && open_ >= size_) {
      ++waits_;
      while (idle_.empty() && open_ >= size_) {
        const bool timed_out = cv_.WaitWithTimeout(
            &mu_, absl::FromChrono(deadline - std::chrono::steady_clock::now()));
        if (timed_out && idle_.empty() && open_ >= size_) {
          ++timeouts_;
          wait_seconds_ +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          return absl::DeadlineExceededError("database pool: no free connection in time");
        }
      }
      wait_seconds_ +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    ++lent_;
    if (!idle_.empty()) {
      std::unique_ptr<pqxx::connection> c = std::move(idle_.back());
      idle_.pop_back();
      return Conn(this, std::move(c));
    }
    ++open_;
  }
  auto c = Connect(url_);
  if (!c.ok()) {
    absl::MutexLock lock(&mu_);
    --open_;
    --lent_;
    cv_.Signal();
    return c.status();
  }
  return Conn(this, std::move(*c));
}

absl::Status Pool::Tx(const std::function<absl::Status(pqxx::work&)>& fn, int attempts) {
  absl::Status last;
  for (int i = 0; i < attempts; ++i) {
    auto conn = Acquire();
    if (!conn.ok()) return conn.status();
    try {
      pqxx::work w(**conn);
      absl::Status s = fn(w);
      if (!s.ok()) {
        w.abort();
        return s;
      }
      w.commit();
      return absl::OkStatus();
    } catch (const std::exception& e) {
      last = FromException(e);
      // Retry what certainly did not commit: rollbacks, and broken connections before the
      // commit was sent (in-doubt commits and unknown outcomes are not retried).
      bool retry = last.code() == absl::StatusCode::kAborted ||
                   (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr);
      if (!retry) return last;
    }
  }
  return last;
}

// Read and Autocommit: `fn` on a pooled connection outside a transaction, retried while
// `retry` says the failure left nothing done.
absl::Status Pool::Untransacted(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                                int attempts,
                                bool (*retry)(const std::exception&, const absl::Status&)) {
  absl::Status last;
  for (int i = 0; i < attempts; ++i) {
    auto conn = Acquire();
    if (!conn.ok()) return conn.status();
    try {
      pqxx::nontransaction n(**conn);
      return fn(n);
    } catch (const std::exception& e) {
      last = FromException(e);
      if (!retry(e, last)) return last;
    }
  }
  return last;
}

absl::Status Pool::Read(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                        int attempts) {
  // A read may be sent again whatever became of it.
  return Untransacted(fn, attempts, [](const std::exception& e, const absl::Status&) {
    return dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr;
  });
}

absl::Status Pool::Autocommit(const std::function<absl::Status(pqxx::transaction_base&)>& fn,
                              int attempts) {
  // A write only when Postgres rolled it back: a broken connection may hide its commit.
  return Untransacted(fn, attempts, [](const std::exception&, const absl::Status& s) {
    return s.code() == absl::StatusCode::kAborted;
  });
}

absl::Status Pool::Ping() {
  auto conn = Acquire();
  if (!conn.ok()) return conn.status();
  try {
    pqxx::nontransaction n(**conn);
    n.exec("SELECT 1");
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return FromException(e);
  }
}

}  // namespace tablero::pg
