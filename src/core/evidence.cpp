#include "core/evidence.h"

namespace llmtriage::core {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::startup_memory: return "startup_memory";
    case EventKind::engine_args: return "engine_args";
    case EventKind::preemption: return "preemption";
    case EventKind::oom: return "oom";
    case EventKind::max_len_exceeds_kv: return "max_len_exceeds_kv";
    case EventKind::engine_dead: return "engine_dead";
    case EventKind::request_aborted: return "request_aborted";
    case EventKind::context_truncated: return "context_truncated";
    case EventKind::kv_cache_full: return "kv_cache_full";
    case EventKind::error: return "error";
    case EventKind::warning: return "warning";
  }
  return "warning";
}

}  // namespace llmtriage::core
