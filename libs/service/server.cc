#include "libs/service/server.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/health_check_service_interface.h>
#include <prometheus/exposer.h>
#include <prometheus/gauge.h>
#include <signal.h>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "libs/service/config.h"
#include "libs/service/log.h"
#include "libs/service/process_metrics.h"
#include "libs/version/version.h"

namespace tablero::service {
namespace {

sigset_t StopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

ServerOptions OptionsFromFlags() {
  ServerOptions o;
  o.listen = absl::GetFlag(FLAGS_listen);
  o.metrics_listen = absl::GetFlag(FLAGS_metrics_listen);
  o.drain = absl::Seconds(absl::GetFlag(FLAGS_drain_seconds));
  o.max_message_bytes = absl::GetFlag(FLAGS_max_message_bytes);
  o.threads = absl::GetFlag(FLAGS_grpc_threads);
  o.max_threads = absl::GetFlag(FLAGS_grpc_max_threads);
  o.max_connection_age = absl::Seconds(absl::GetFlag(FLAGS_grpc_max_connection_age_seconds));
  o.max_connection_age_grace =
      absl::Seconds(absl::GetFlag(FLAGS_grpc_max_connection_age_grace_seconds));
  Level level;
  if (ParseLogLevel(absl::GetFlag(FLAGS_log_level), &level)) SetLogLevel(level);
  return o;
}

Server::Server(std::string name, ServerOptions options)
    : name_(std::move(name)),
      options_(std::move(options)),
      registry_(std::make_shared<prometheus::Registry>()),
      metrics_(std::make_unique<RpcMetrics>(*registry_)),
      ops_(name_) {
  SetLogService(name_);
  LogLibraryMessages();
  prometheus::BuildGauge()
      .Name("tablero_build_info")
      .Help("The build a replica runs: always 1, labelled with its version and git commit")
      .Register(*registry_)
      .Add({{"version", std::string(Version())}, {"commit", std::string(Commit())}})
      .Set(1);
  collectables_.push_back(ProcessMetrics());
  // Every thread created from now on inherits the mask, so only Wait() sees the signals.
  sigset_t set = StopSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

Server::~Server() {
  if (server_ != nullptr && !queue_threads_.empty()) {
    server_->Shutdown();
    StopQueues();
  }
}

std::vector<grpc::ServerCompletionQueue*> Server::completion_queues() const {
  std::vector<grpc::ServerCompletionQueue*> out;
  for (const auto& q : queues_) out.push_back(q.get());
  return out;
}

void Server::StopQueues() {
  for (auto& q : queues_) q->Shutdown();
  for (std::thread& t : queue_threads_) t.join();
  queue_threads_.clear();
}

void Server::AddService(grpc::Service* service, std::string full_name) {
  services_.emplace_back(service, std::move(full_name));
}

absl::Status Server::Start() {
  if (!options_.metrics_listen.empty()) {
    try {
      exposer_ = std::make_unique<prometheus::Exposer>(options_.metrics_listen);
      exposer_->RegisterCollectable(registry_);
      for (const auto& c : collectables_) exposer_->RegisterCollectable(c);
    } catch (const std::exception& e) {
      LogError("cannot serve metrics", {{"addr", options_.metrics_listen}, {"error", e.what()}});
      return absl::UnavailableError(
          absl::StrCat("metrics listen ", options_.metrics_listen, ": ", e.what()));
    }
  }
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options_.listen, grpc::InsecureServerCredentials(), &port_);
  // A port already in use is an error, not a second server sharing it (gRPC sets
  // SO_REUSEPORT by default: two processes on one port would each get some connections).
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  if (options_.max_message_bytes > 0) {
    builder.SetMaxReceiveMessageSize(options_.max_message_bytes);
  }
  if (options_.threads > 0) {
    // The sync server ends a worker once more than MAX_POLLERS are idle and starts a new
    // one when all are busy; with gRPC's default (2) a steady load of many calls in flight
    // creates and destroys threads all the time (seen as a third of the rules service's
    // CPU in clone/mmap/munmap under its load benchmark).
    builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS,
                                options_.threads);
  }
  if (options_.max_connection_age > absl::ZeroDuration()) {
    // Clients balance over the addresses they resolved (channel.h) and resolve again only
    // when a connection ends: ending every connection after an age is what lets replicas
    // started later (autoscaling, a rollout) take their share. gRPC adds +-10% jitter.
    builder.AddChannelArgument(
        GRPC_ARG_MAX_CONNECTION_AGE_MS,
        static_cast<int>(absl::ToInt64Milliseconds(options_.max_connection_age)));
    if (options_.max_connection_age_grace > absl::ZeroDuration()) {
      builder.AddChannelArgument(
          GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
          static_cast<int>(absl::ToInt64Milliseconds(options_.max_connection_age_grace)));
    }
  }
  if (options_.max_threads > 0) {
    // The sync server otherwise starts a thread for every call in flight: a burst of
    // thousands of calls would be thousands of threads. Callback methods (Watch, the
    // rules service) do not count against this.
    grpc::ResourceQuota quota("sync-server");
    quota.SetMaxThreads(options_.max_threads);
    builder.SetResourceQuota(quota);
  }
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> icpt;
  std::vector<std::string> names = {"tablero.v1.Ops"};
  for (const auto& entry : services_) names.push_back(entry.second);
  methods_ = MethodTable::ForServices(names);
  icpt.push_back(std::make_unique<BoundaryInterceptorFactory>(&methods_, metrics_.get(),
                                                              &health_gate_, &drain_started_));
  builder.experimental().SetInterceptorCreators(std::move(icpt));
  builder.RegisterService(&ops_);
  for (auto& [svc, full_name] : services_) builder.RegisterService(svc);
  for (int i = 0; i < queue_count_; ++i) queues_.push_back(builder.AddCompletionQueue());
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port_ == 0) {
    health_gate_.Notify();
    LogError("cannot listen", {{"addr", options_.listen}});
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options_.listen));
  }
  for (auto& q : queues_) {
    queue_threads_.emplace_back([cq = q.get()] {
      void* tag = nullptr;
      bool ok = false;
      while (cq->Next(&tag, &ok)) static_cast<AsyncTag*>(tag)->Proceed(ok);
    });
  }
  SetReady(false);
  // Liveness is apart from readiness: a replica waiting for its database is alive and
  // must not be restarted for it, only kept out of the load balancer.
  if (auto* health = server_->GetHealthCheckService()) {
    health->SetServingStatus(std::string(kLivenessService), true);
  }
  health_gate_.Notify();  // health checks held since the port was bound now answer
  LogInfo("listening", {{"addr", options_.listen},
                        {"port", absl::StrCat(port_)},
                        {"metrics", options_.metrics_listen}});
  return absl::OkStatus();
}

void Server::SetReady(bool ready) {
  if (server_ == nullptr) return;
  grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
  if (health == nullptr) return;
  absl::MutexLock lock(&mu_);
  if (ready && draining_) return;
  health->SetServingStatus("", ready);
  for (auto& [svc, full_name] : services_) health->SetServingStatus(full_name, ready);
  if (ready != ready_) LogInfo(ready ? "serving" : "not serving");
  ready_ = ready;
}

bool Server::ready() const {
  absl::MutexLock lock(&mu_);
  return ready_;
}

int Server::Wait() {
  sigset_t set = StopSignals();
  int sig = 0;
  sigwait(&set, &sig);
  LogInfo("draining", {{"signal", sig == SIGTERM ? "SIGTERM" : "SIGINT"},
                       {"deadline_s", absl::StrCat(absl::ToDoubleSeconds(options_.drain))}});
  {
    absl::MutexLock lock(&mu_);
    draining_ = true;
  }
  drain_started_.Notify();
  SetReady(false);
  for (auto& fn : on_drain_) fn();
  server_->Shutdown(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(options_.drain));
  server_->Wait();
  StopQueues();
  LogInfo("stopped");
  return 0;
}

}  // namespace tablero::service
