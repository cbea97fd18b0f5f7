// TGI, llama.cpp server and Ollama log lines.
#include "ingest/log_sink.h"
#include "ingest/log_text.h"

namespace llmtriage::ingest::detail {

Match match_tgi(const LogLineCtx&, LogSink&) { return Match::none; }
Match match_llamacpp(const LogLineCtx&, LogSink&) { return Match::none; }
Match match_ollama(const LogLineCtx&, LogSink&) { return Match::none; }

}  // namespace llmtriage::ingest::detail
