#include "libs/service/boundary.h"

#include <google/protobuf/descriptor.h>

#include <chrono>
#include <iterator>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/service/client_address.h"
#include "libs/service/log.h"
#include "libs/service/request_id.h"
#include "libs/service/status.h"

namespace tablero::service {
namespace {

using grpc::experimental::InterceptionHookPoints;

class BoundaryInterceptor : public grpc::experimental::Interceptor {
 public:
  BoundaryInterceptor(const MethodTable* methods, RpcMetrics* metrics,
                      const absl::Notification* draining, grpc::experimental::ServerRpcInfo* info)
      : ctx_(info->server_context()),
        // One request message, read by gRPC before the handler: no message there means
        // it did not parse. (A client stream's reads end with no message too.)
        single_request_(info->type() == grpc::experimental::ServerRpcInfo::Type::UNARY ||
                        info->type() == grpc::experimental::ServerRpcInfo::Type::SERVER_STREAMING),
        methods_(methods),
        metrics_(metrics),
        draining_(draining),
        path_(info->method()),
        known_(methods->Known(path_)),
        start_(std::chrono::steady_clock::now()) {
    metrics_->Started(Label());
  }

  void Intercept(grpc::experimental::InterceptorBatchMethods* m) override {
    if (m->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_INITIAL_METADATA)) {
      TakeRequestId(m->GetRecvInitialMetadata());
    }
    if (single_request_ &&
        m->QueryInterceptionHookPoint(InterceptionHookPoints::POST_RECV_MESSAGE) &&
        m->GetRecvMessage() == nullptr) {
      malformed_ = true;  // gRPC could not deserialize the request
    }
    if (m->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      Finish(m);
    }
    m->Proceed();
  }

 private:
  const std::string& Label() const {
    static const std::string* other = new std::string(kOtherMethod);
    return known_ ? path_ : *other;
  }

  void TakeRequestId(std::multimap<grpc::string_ref, grpc::string_ref>* md) {
    auto [first, last] = md->equal_range(kRequestIdHeader);
    if (first != last && std::next(first) == last &&
        ValidRequestId(absl::string_view(first->second.data(), first->second.size()))) {
      request_id_.assign(first->second.data(), first->second.size());
      return;
    }
    md->erase(first, last);  // none, several, or unfit: a new one replaces them
    request_id_ = NewRequestId();
    // The handler reads it from its context (RequestId): the map refers to strings this
    // interceptor keeps, and it lives as long as the call.
    md->emplace(grpc::string_ref(kRequestIdHeader), grpc::string_ref(request_id_));
  }

  void Finish(grpc::experimental::InterceptorBatchMethods* m) {
    grpc::Status s = m->GetSendStatus();
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (malformed_ && !s.ok() && s.error_code() != grpc::StatusCode::INVALID_ARGUMENT) {
      s = grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, MalformedMessage());
      m->ModifySendStatus(s);
    }
    metrics_->Handled(Label(), s.error_code(), secs);
    if (s.ok()) return;
    std::string detail;
    if (IsServerError(s.error_code())) {
      detail = s.error_message();
      m->ModifySendStatus(
          grpc::Status(s.error_code(),
                       PublicMessage(s.error_code(), request_id_, draining_->HasBeenNotified())));
    }
    if (auto* trailers = m->GetSendTrailingMetadata()) {
      trailers->emplace(kRequestIdHeader, request_id_);
    }
    Level level = Level::kDebug;
    if (IsServerError(s.error_code())) {
      bool ours = s.error_code() == grpc::StatusCode::INTERNAL ||
                  s.error_code() == grpc::StatusCode::UNKNOWN ||
                  s.error_code() == grpc::StatusCode::DATA_LOSS;
      level = ours ? Level::kError : Level::kWarn;
    }
    Log(level, "rpc failed",
        {{"method", path_.substr(0, 200)},
         {"code", StatusCodeName(s.error_code())},
         {"request_id", request_id_},
         {"duration_ms", absl::StrCat(static_cast<int64_t>(secs * 1000))},
         {"client", ctx_ != nullptr ? ClientAddress(*ctx_) : ""},
         {"error", IsServerError(s.error_code()) ? detail : s.error_message()}});
  }

  std::string MalformedMessage() const {
    const std::string& type = methods_->InputType(path_);
    return absl::StrCat("request is not a valid ", type.empty() ? "message" : type,
                        " (malformed protobuf, or invalid UTF-8 in a string field)");
  }

  const grpc::ServerContextBase* ctx_;
  const bool single_request_;
  const MethodTable* methods_;
  RpcMetrics* metrics_;
  const absl::Notification* draining_;
  std::string path_;
  bool known_;
  bool malformed_ = false;
  std::string request_id_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

MethodTable MethodTable::ForServices(const std::vector<std::string>& full_service_names) {
  MethodTable t;
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  for (const std::string& name : full_service_names) {
    const google::protobuf::ServiceDescriptor* svc = pool->FindServiceByName(name);
    if (svc == nullptr) continue;
    for (int i = 0; i < svc->method_count(); ++i) {
      const auto* method = svc->method(i);
      t.input_[absl::StrCat("/", name, "/", method->name())] = method->input_type()->full_name();
    }
  }
  // gRPC's own services (the health service is not in the generated pool).
  t.input_.emplace("/grpc.health.v1.Health/Check", "grpc.health.v1.HealthCheckRequest");
  t.input_.emplace("/grpc.health.v1.Health/Watch", "grpc.health.v1.HealthCheckRequest");
  t.input_.emplace("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
                   "grpc.reflection.v1alpha.ServerReflectionRequest");
  return t;
}

const std::string& MethodTable::InputType(const std::string& path) const {
  static const std::string* none = new std::string;
  auto it = input_.find(path);
  return it == input_.end() ? *none : it->second;
}

grpc::experimental::Interceptor* BoundaryInterceptorFactory::CreateServerInterceptor(
    grpc::experimental::ServerRpcInfo* info) {
  // The call's handler runs only after its interceptors exist: waiting here holds it.
  if (!health_gate_->HasBeenNotified() &&
      absl::StartsWith(info->method(), "/grpc.health.v1.Health/")) {
    health_gate_->WaitForNotification();
  }
  return new BoundaryInterceptor(methods_, metrics_, draining_, info);
}

}  // namespace tablero::service
