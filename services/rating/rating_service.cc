#include "services/rating/rating_service.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "libs/service/log.h"
#include "libs/service/service_key.h"
#include "libs/service/status.h"
#include "services/rating/page.h"

namespace tablero::rating {
namespace {

namespace v1 = tablero::v1;

using service::ToGrpc;

void SetTime(int64_t us, google::protobuf::Timestamp* t) {
  int64_t sec = us / 1000000, rem = us % 1000000;
  if (rem < 0) rem += 1000000, --sec;
  t->set_seconds(sec);
  t->set_nanos(static_cast<int32_t>(rem * 1000));
}

void SetValue(const glicko2::Player& p, v1::RatingValue* v) {
  v->set_rating(p.rating);
  v->set_rd(p.rd);
  v->set_volatility(p.vol);
}

bool ValidPool(int pool) { return pool >= 1 && pool <= kPools; }

absl::Status CheckPool(int pool) {
  if (pool == v1::RATING_POOL_UNSPECIFIED) return absl::InvalidArgumentError("pool is required");
  if (!ValidPool(pool)) return absl::InvalidArgumentError(absl::StrCat("unknown pool ", pool));
  return absl::OkStatus();
}

}  // namespace

RatingService::RatingService(Store* store, prometheus::Registry& registry) : store_(store) {
  auto& reports = prometheus::BuildCounter()
                      .Name("tablero_rating_reports_total")
                      .Help("ReportGame calls by outcome")
                      .Register(registry);
  applied_ = &reports.Add({{"result", "applied"}});
  replay_ = &reports.Add({{"result", "replay"}});
  unranked_ = &reports.Add({{"result", "unranked"}});
  invalid_ = &reports.Add({{"result", "invalid"}});
  error_ = &reports.Add({{"result", "error"}});
  auto& updates = prometheus::BuildCounter()
                      .Name("tablero_rating_updates_total")
                      .Help("Rated games applied, by rating pool")
                      .Register(registry);
  updates_[0] = nullptr;
  for (int p = 1; p <= kPools; ++p) updates_[p] = &updates.Add({{"pool", PoolName(p)}});
  auto& retries = prometheus::BuildCounter()
                      .Name("tablero_rating_tx_retries_total")
                      .Help(
                          "Rating transactions run again: reason=new_player (a new player's "
                          "first games raced), deadlock (never expected)")
                      .Register(registry);
  retry_new_player_ = &retries.Add({{"reason", "new_player"}});
  retry_deadlock_ = &retries.Add({{"reason", "deadlock"}});
}

grpc::Status RatingService::ReportGame(grpc::ServerContext* ctx, const v1::ReportGameRequest* req,
                                       v1::ReportGameResponse* resp) {
  // Internal: only the matchmaking service reports results.
  if (absl::Status s = service::CheckServiceKey(*ctx); !s.ok()) return ToGrpc(s);
  if (!req->ranked()) {
    unranked_->Increment();
    resp->set_applied_now(false);
    return grpc::Status::OK;
  }
  absl::StatusOr<Report> report = ParseReport(*req, absl::Now());
  if (!report.ok()) {
    invalid_->Increment();
    return ToGrpc(report.status());
  }
  absl::StatusOr<Applied> applied = store_->Apply(*report);
  if (!applied.ok()) {
    if (applied.status().code() == absl::StatusCode::kFailedPrecondition) {
      invalid_->Increment();
    } else {
      error_->Increment();
      service::LogWarn("report not applied", {{"game_id", report->game_id},
                                              {"error", std::string(applied.status().message())}});
    }
    return ToGrpc(applied.status());
  }
  if (applied->attempts > 1) {
    retry_deadlock_->Increment(applied->deadlocks);
    retry_new_player_->Increment(applied->attempts - 1 - applied->deadlocks);
  }
  if (applied->applied_now) {
    applied_->Increment();
    updates_[report->pool]->Increment();
  } else {
    replay_->Increment();
  }
  resp->set_applied_now(applied->applied_now);
  for (const Change& c : applied->changes) {
    v1::RatingChange* out = resp->add_changes();
    out->set_player_id(c.player);
    out->set_seat(c.seat);
    SetValue(c.before, out->mutable_before());
    SetValue(c.after, out->mutable_after());
    out->set_provisional(c.provisional);
    out->set_score(c.score);
  }
  return grpc::Status::OK;
}

grpc::Status RatingService::GetRatings(grpc::ServerContext*, const v1::GetRatingsRequest* req,
                                       v1::GetRatingsResponse* resp) {
  if (absl::Status s = CheckId(req->player_id(), "player_id"); !s.ok()) return ToGrpc(s);
  absl::StatusOr<std::vector<Standing>> rows = store_->Standings(req->player_id());
  if (!rows.ok()) return ToGrpc(rows.status());
  const glicko2::Config& c = store_->config();
  resp->set_player_id(req->player_id());
  size_t next = 0;
  for (int pool = 1; pool <= kPools; ++pool) {
    Standing st;
    st.pool = pool;
    st.value = glicko2::Initial(c);
    if (next < rows->size() && (*rows)[next].pool == pool) st = (*rows)[next++];
    v1::PoolRating* out = resp->add_ratings();
    out->set_pool(static_cast<v1::RatingPool>(pool));
    out->set_rating(st.value.rating);
    out->set_rd(st.value.rd);
    out->set_volatility(st.value.vol);
    out->set_games(st.games);
    out->set_provisional(glicko2::IsProvisional(st.value, c));
    if (st.last_us.has_value()) SetTime(*st.last_us, out->mutable_last_game_time());
  }
  return grpc::Status::OK;
}

grpc::Status RatingService::GetLeaderboard(grpc::ServerContext*,
                                           const v1::GetLeaderboardRequest* req,
                                           v1::GetLeaderboardResponse* resp) {
  if (absl::Status s = CheckPool(req->pool()); !s.ok()) return ToGrpc(s);
  absl::StatusOr<int> size = PageSize(req->page_size());
  if (!size.ok()) return ToGrpc(size.status());
  absl::StatusOr<BoardRow> after;
  if (!req->page_token().empty()) {
    after = ParseBoardToken(req->pool(), req->page_token());
    if (!after.ok()) return ToGrpc(after.status());
  }
  auto rows = store_->Leaderboard(req->pool(), after.ok() ? &*after : nullptr, *size + 1);
  if (!rows.ok()) return ToGrpc(rows.status());
  bool more = static_cast<int>(rows->size()) > *size;
  if (more) rows->pop_back();
  for (const BoardRow& r : *rows) {
    v1::LeaderboardEntry* e = resp->add_entries();
    e->set_rank(r.rank);
    e->set_player_id(r.player);
    e->set_rating(r.rating);
    e->set_rd(r.rd);
    e->set_games(r.games);
  }
  if (more) resp->set_next_page_token(BoardToken(req->pool(), rows->back()));
  return grpc::Status::OK;
}

grpc::Status RatingService::GetHistory(grpc::ServerContext*, const v1::GetHistoryRequest* req,
                                       v1::GetHistoryResponse* resp) {
  if (absl::Status s = CheckId(req->player_id(), "player_id"); !s.ok()) return ToGrpc(s);
  if (absl::Status s = CheckPool(req->pool()); !s.ok()) return ToGrpc(s);
  absl::StatusOr<int> size = PageSize(req->page_size());
  if (!size.ok()) return ToGrpc(size.status());
  absl::StatusOr<HistoryRow> after;
  if (!req->page_token().empty()) {
    after = ParseHistoryToken(req->pool(), req->page_token());
    if (!after.ok()) return ToGrpc(after.status());
  }
  auto rows =
      store_->History(req->player_id(), req->pool(), after.ok() ? &*after : nullptr, *size + 1);
  if (!rows.ok()) return ToGrpc(rows.status());
  bool more = static_cast<int>(rows->size()) > *size;
  if (more) rows->pop_back();
  for (const HistoryRow& r : *rows) {
    v1::HistoryEntry* e = resp->add_entries();
    e->set_game_id(r.game_id);
    SetTime(r.us, e->mutable_time());
    SetValue(r.before, e->mutable_before());
    SetValue(r.after, e->mutable_after());
    e->set_place(r.place);
    e->set_seats(r.seats);
  }
  if (more) resp->set_next_page_token(HistoryToken(req->pool(), rows->back()));
  return grpc::Status::OK;
}

}  // namespace tablero::rating
