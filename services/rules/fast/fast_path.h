// The rules service's fast path: the machinery ApplyMove runs on in the server, fenced off
// from the plain handlers (services/rules/rules_service.h). One include for all of it.
//
// RulesService has two ApplyMove entry points. ApplyMove is the plain handler: protobuf
// parses the request, the handler fills an ApplyMoveResponse, protobuf serializes it.
// ApplyMoveBytes is what the server runs: the same checks and the same game work, but
//   - the request is read in place from gRPC's slice (request.h; anything of an unusual
//     shape goes to protobuf on an arena),
//   - the answer is written as wire bytes straight from the engine's tables
//     (game::WireView, wire.h) into a pooled buffer gRPC sends without a copy
//     (answer_pool.h, raw_call.h),
// and both run over gRPC's callback API with arena-allocated typed calls
// (arena_allocator.h), a decoded-state cache (state_cache.h) and per-thread metric shards
// (apply_metrics.h). wire_test holds ApplyMoveBytes to ApplyMove byte for byte on games of
// every kind; request_test holds the reader to protobuf's parser.
//
// What it buys, measured on the shared 2-core machine (benchmarks/rules/README.md):
//   - The handler in-process on the same recorded requests (rules_apply_bench
//     --path=fast|plain, alternated, 2026-12-03): chess 3.5-3.6 us a call against
//     15.4-15.9 us, shogi4 5.1-5.7 against 23.0-23.5, checkers 4.0-4.7 against 24.5-24.6:
//     4-6 times less CPU, with 2.1 / 2.1 / 4.4 heap allocations a call against
//     109 / 159 / 181 (each one ~100 instructions of malloc and free, on cold lines in a
//     server). The state cache's part of that: 2.1 / 2.1 / 4.4 allocations against
//     5.0 / 4.0 / 6.4 without it, 0.2-1.3 us a call even with warm caches.
//   - Over gRPC (rules_load.sh): ApplyMove runs at a median 81.9% of the calls/s of the
//     empty call on the same server; what is left of an apply's extra cost is about one
//     third our code, two thirds gRPC, the kernel and malloc moving the answer's bytes.
// What it costs: the code in this folder, and the rule that every change to the answer
// or the request in proto/ must be made here too (the tests above fail until it is).
#ifndef TABLERO_SERVICES_RULES_FAST_FAST_PATH_H_
#define TABLERO_SERVICES_RULES_FAST_FAST_PATH_H_

#include "services/rules/fast/answer_pool.h"      // IWYU pragma: export
#include "services/rules/fast/apply_metrics.h"    // IWYU pragma: export
#include "services/rules/fast/arena_allocator.h"  // IWYU pragma: export
#include "services/rules/fast/raw_call.h"         // IWYU pragma: export
#include "services/rules/fast/request.h"          // IWYU pragma: export
#include "services/rules/fast/state_cache.h"      // IWYU pragma: export
#include "services/rules/fast/wire.h"             // IWYU pragma: export

#endif  // TABLERO_SERVICES_RULES_FAST_FAST_PATH_H_
