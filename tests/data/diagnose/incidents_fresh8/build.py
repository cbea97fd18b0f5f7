#!/usr/bin/env python3
"""Build the ninth out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh7; this file follows incidents_fresh7/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks, list bullets and quote
markers dropped; a few long or wrapped lines cut to a verbatim prefix/substring). Log lines and output
samples are taken from the evidence, so check.py can verify they are verbatim substrings of it.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh7/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ranxianglei/billion-context/pull/1', thread_type='pr',
    engine='billion-context compression proxy in front of a prefix-caching LLM endpoint', engine_version='Aug 2026', gpu=None, model=None,
    symptom='other', layer='load',
    root_cause=('A per-turn nudge (token count, growth %, a dynamic example) was merged into the system prompt, so the first bytes of '
                'every request changed each turn and the provider prefix cache never matched: the cache hit rate collapsed to ~0%.'),
    fix='Keep the system block byte-stable (static compress prompt only) and append the nudge as a trailing user message.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: keep system prompt byte-stable for prefix cache',
        'problem': 'Cache hit rate collapsed to ~0% across turns. Root cause: the nudge (which changes every turn — token count, growth %, dynamic compress example) was merged into the **system prompt**. The system prompt is the prefix-cache anchor; any byte change at its tail invalidates the entire cached prefix.',
        'reproduce': 'Before fix, consecutive requests saw `system_len` jump every turn:',
        'before': 'system_len=17501 → 23432 → 17501 → ...',
        'fix': "Mirror pai-acp's design: the system block carries ONLY the static compress prompt (byte-stable); the nudge is appended as a separate trailing user message.",
        'after': 'system_len=16871 → 16871 → 16871   ✅ stable',
    },
    log=[('before', None)],
    observe={'prefix_cache_hit_rate': (0.0, 'Cache hit rate collapsed to ~0% across turns')},
    notes=('the per-request system_len trace the author logged before the fix is the log line; the ~0% hit rate is prefix_cache_hit_rate '
           '(percent -> fraction); no engine, model or GPU is named'),
    leak="The root-cause sentence (nudge merged into the system prompt), the fix and the after-fix system_len trace are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/anomalyco/opencode/issues/4488', thread_type='issue',
    engine='Ollama on a CPU laptop behind the opencode agent (OpenAI-compatible /v1/chat/completions)', engine_version='Nov 2025', gpu=None, model='gpt-oss (also qwen2.5-coder:7b-32k)',
    symptom='ttft_spike', layer='load',
    root_cause=('opencode sends a large system prompt and tool definitions with every request (~8.8k prompt tokens even for "what is the '
                'capital of France?"), and on a CPU-only host that prefill took minutes: one answer took 6m59s.'),
    fix='Use a smaller agent prompt / fewer tools, a GPU, or a hosted model; raise num_ctx so the prompt is not also truncated.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Ollama integration: API returns HTTP 200 but responses not displayed',
        'reporter': "Ok, I think I get the problem. It's just slow. ",
        'reporter_cause': 'opencode is probably adding a ton of system prompt as context, and I am on a CPU, so, it takes long to generate a response.',
        'switch': "I switched to gpt-oss model (I think that's irrelevant, though, with qwen2.5-coder:7b-32k it took almost 30 minutes) with ",
        'cmd': 'opencode run "what is the capital of France?" --print-logs --log-level DEBUG --model ollama/gpt-oss',
        'took': 'and it took 7 minutes to get the answer, during which ollama logged this:',
        'log': ['nov 20 09:20:22 thinkpadx1 ollama[1204759]: [GIN] 2025/11/20 - 09:20:22 | 200 |  20.14332306s |       127.0.0.1 | POST     "/v1/chat/completions"',
                'nov 20 09:20:22 thinkpadx1 ollama[1204759]: time=2025-11-20T09:20:22.491+01:00 level=WARN source=runner.go:186 msg="truncating input prompt" limit=4096 prompt=8797 keep=4 new=4096',
                'nov 20 09:27:01 thinkpadx1 ollama[1204759]: [GIN] 2025/11/20 - 09:27:01 | 200 |         6m59s |       127.0.0.1 | POST     "/v1/chat/completions"'],
        'reading': "seems to be revealing that the prompt being sent is around 9k tokens, even to know the capital of France ... and it's being truncated notwithstanding the 32k of context the model has (",
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    observe={'e2e_p99_s': (419, '6m59s'), 'input_len_mean': (8797, 'prompt=8797')},
    args_model='gpt-oss',
    notes=('the three Ollama journal lines the reporter pasted are the log; 6m59s is passed as e2e_p99_s (419 s) and the prompt=8797 of the '
           'truncation warning as input_len_mean; the reporter says the host is a CPU, no GPU is named'),
    leak="The reporter's reading (opencode adds a ton of system prompt, CPU host; ~9k tokens for a one-line question) is left out.",
    hard=('The log also carries a num_ctx truncation warning that points at a context setting; that the 8.8k-token prompt comes from the '
          'client\'s own system prompt and tools on a CPU host is not in the inputs.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/8086', thread_type='issue',
    engine='vLLM (offline batch, V2 block manager)', engine_version='Sep 2024 (PyTorch 2.3.1)', gpu=None, model='Llama 3 family',
    symptom='ttft_spike', layer='load',
    root_cause=('A 100k-request batch was submitted at once; prefill is compute bound, so TTFT (which includes the wait for earlier '
                'prefills) grows with the total number of batched tokens: ~2 min at 200 tokens per request, ~10 min at 2000.'),
    fix='Set a TTFT objective and lower the offered load (QPS) per vLLM instance.',
    confidence='plausible',
    evidence={
        'title': '[Performance]: TTFT increases linearly with the number of batched tokens',
        'desc': 'I have observed that TTFT increases linearly with a total number of batched tokens.',
        'batch': 'For example, given 100k batch',
        'ex1': 'TTFT is around 2min when an average prompt+completion length is 200',
        'ex2': 'TTFT is around 10min (increase 5X) when an average prompt+completion length is 2000 (increase 10x)',
        'params': ['enable_prefix_caching=True, block_size=3', 'max_num_batched_tokens=16000', 'max_model_len=16000', 'use_v2_block_manager=True'],
        'commenter': 'Since prefill stage is compute bound, GPU is achieving the highest efficiency, so increasing the workload (batched tokens in your case) will increase TTFT.',
        'commenter2': 'In real use case, maybe you should set a TTFT objective and try to decrease the QPS for a single vLLM instance.',
    },
    engine_args='enable_prefix_caching=True, block_size=3 max_num_batched_tokens=16000 max_model_len=16000 use_v2_block_manager=True',
    observe={'ttft_p50_s': (600, 'TTFT is around 10min'), 'input_len_mean': (2000, 'average prompt+completion length is 2000')},
    args_model='Llama 3',
    notes=('engine_args joins the four engine parameters the reporter lists; the ~10 min TTFT of the longer-prompt run is ttft_p50_s (minutes -> s) '
           'and its average prompt+completion length of 2000 is passed as input_len_mean (the reporter gives only the sum)'),
    leak="The commenter's explanation (compute-bound prefill, lower the QPS per instance) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/peonist-ai/halogen-flash-server/issues/21', thread_type='issue',
    engine='halogen-flash-server 0.5.6 (reasoning model server) behind the Zoo Code agent harness', engine_version='0.5.6', gpu=None, model=None,
    symptom='output_quality', layer='load',
    root_cause=('The harness sent max_tokens 8192 with ~89.5k tokens of context and no reasoning_effort, so the template default '
                '(xhigh) spent the whole budget thinking: content came back empty with finish_reason "length", and the harness retried the '
                'identical request (each attempt ~215 s), which looked like a loop.'),
    fix='Send a lower reasoning_effort or a larger max_tokens budget, and handle finish_reason "length" in the harness.',
    confidence='maintainer_explained',
    evidence={
        'title': '0.5.6 Enters a loop easily during agentic work',
        'investigated': "Investigated at the maintainer's direction. This is ours, not the template and not context rot.",
        'budget': 'The budget is being spent inside the thinking block. Your harness sends `max_tokens: 8192`, and here that budget covers thinking plus answer.',
        'default': "The chat template's own default is `reasoning_effort=xhigh` when a client does not send one, and at 89,557 tokens of context the thinking overruns 8192 before the model emits `</think>`.",
        'splitter': 'The splitter then finds no closing marker, so `content` is `""`, the whole reply sits in `reasoning_content`, and `finish_reason` comes back `"length"`. Zoo Code reports that as MODEL_NO_ASSISTANT_MESSAGES.',
        'timestamps': 'Your timestamps confirm the model ran to the cap rather than stopping short. Attempt 1 took 214.1 s, attempt 2 215.3 s, attempt 3 216.8 s.',
        'rate': 'At 8192 tokens that is 37.8 to 38.3 tok/s, which is our published serial decode rate.',
        'retry': 'Three attempts within 2.7 s of each other, with an identical reasoning opening each time.',
    },
    log=['MODEL_NO_ASSISTANT_MESSAGES'],
    engine_args='max_tokens: 8192',
    observe={'e2e_p99_s': (216.8, 'attempt 3 216.8 s'), 'input_len_mean': (89557, '89,557 tokens of context')},
    notes=('the harness error code is the only log text; engine_args is the max_tokens the harness sends; the three attempt times the '
           'reporter\'s timestamps give (largest as e2e_p99_s) and the context size are the observe values; they are quoted back by the '
           'investigator'),
    leak="The explanation (thinking overruns the 8192 budget at the template's default reasoning_effort=xhigh, empty content, finish_reason length, retries of an identical truncation) is left out.",
    hard=('The fix sits in the client request (max_tokens, reasoning_effort), but the default reasoning_effort comes from the chat template, '
          'so the call could also go to numeric_parameter.')))

I.append(dict(
    src='https://github.com/ml-explore/mlx-swift-lm/pull/398', thread_type='pr',
    engine='mlx-swift-lm (MLXVLM Qwen3VL processor, Apple Silicon)', engine_version='Jul 2026', gpu='Apple Silicon (unified memory)', model='Qwen3.6 27B (qwen3_5 VL)',
    symptom='ttft_spike', layer='load',
    root_cause=('An uncapped full-resolution image (a full-screen screenshot) expands to a huge number of vision patches and the ViT runs '
                'global O(patches^2) attention, so one image took 121 s of prefill and 47 GB peak memory.'),
    fix='Default each image (and video frame) to a 1,280 vision-token budget, with an explicit maxPixels override for full resolution.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Qwen3VL: default per-image resolution to a 1,280 vision-token budget',
        'why': 'The qwen3_5 ViT runs global O(patches²) attention with no window structure, so an uncapped full-resolution image (several published configs ship a ~16 MP longest_edge that never clamps) can allocate a tens-of-GB attention score matrix.',
        'measured': 'Measured on a 27B Qwen3.6 checkpoint: 47 GB peak / 121 s prefill for one full-screen screenshot; ~21 GB with a 2,560-token cap, lower still at the current default.',
        'fix': 'Default each image — and each video frame — to a 1,280 vision-token budget: `min(config.maxPixels, 1280 * factor²)`, mirroring the Qwen2.5-VL clamp.',
    },
    observe={'ttft_p50_s': (121, '121 s prefill'), 'gpu_mem_used_gib': (47, '47 GB peak')},
    args_model='Qwen3.6 27B (VL)',
    args_gpu='Apple Silicon',
    notes='the prefill time of one full-screen screenshot is ttft_p50_s and its peak memory gpu_mem_used_gib (GB read as GiB); no log or image size is quoted',
    leak="The explanation (uncapped image, global O(patches^2) ViT attention), the 2,560-token-cap comparison and the fix are left out.",
    hard=('Only a prefill time and a memory peak; that the request carried an uncapped full-resolution image is not in the inputs, and the '
          'fix is an engine default, so the call could also go to scheduling_capacity.')))

I.append(dict(
    src='https://github.com/1jehuang/jcode/issues/1019', thread_type='issue',
    engine='jcode agent CLI against a local MLX server (27B, 8-bit) / OpenAI-compatible endpoint', engine_version='jcode v0.78.0', gpu='macOS aarch64 (local MLX server)', model='27B 8-bit (local MLX)',
    symptom='ttft_spike', layer='load',
    root_cause=('jcode advertised every tool of a 94-tool MCP server as a separate tool definition on every request, growing each request '
                'from ~13k to ~50k tokens; on a local model that per-request prefill dominates and makes the agent unusable.'),
    fix='Opt-in deferred MCP tool exposure (a generic MCP executor plus a discovery tool) instead of all schemas on every request.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Feature request: opt-in deferred MCP tool exposure (--mcp-tools=deferred)',
        'problem': 'When any MCP server is configured, jcode advertises every one of its tools as a separate top-level tool definition on **every** request. With a single MCP server exposing 94 tools, that is the dominant cost of the request:',
        'row_lite': '| `--tool-profile lite`, no MCP | 9 | 7.8 KB | 42.8 KB | 51.9 KB | ~13.0 k |',
        'row_mcp': '| default profile + one 94-tool MCP server | 125 | 165.0 KB | 42.8 KB | **199.9 KB** | **~50.0 k** |',
        'measured': 'The MCP server alone contributes 165 KB of tool schema. Measured by pointing jcode at a mock OpenAI-compatible endpoint that records the exact request body (jcode v0.78.0, macOS aarch64).',
        'why': 'On a hosted model with fast prefill and prompt caching this is mostly invisible. On a local model it is the difference between working and not working.',
        'local': 'Measured on a local MLX server (27B, 8-bit) on',
    },
    observe={'input_len_mean': (50000, '**~50.0 k**')},
    args_model='27B 8-bit (local MLX server)',
    notes='the ~50k-token request body of the default profile with one MCP server is input_len_mean; the local prefill measurement is cut off in the stored excerpt, so no latency figure is passed',
    leak="The reporter's breakdown (165 KB of MCP tool schema, 94 tools advertised per request, the comparison with a deferred-tool agent) is left out.",
    hard='Only the request size; the local prefill time is cut off in the stored excerpt and no server log is quoted.'))

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/lemonade-sdk/lemonade/issues/3276', thread_type='issue',
    engine='Lemonade 11.7.0 -> llama-server (llama.cpp, ROCm)', engine_version='Lemonade 11.7.0', gpu='2x AMD gfx1201 (ROCm0 / ROCm1)', model=None,
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('Lemonade did not pass --parallel, so llama-server picked 4 slots, each advertised the full 131072 --ctx-size while one '
                'shared (unified) KV buffer backed all of them; concurrent requests oversubscribed the cache and failed with "Context size '
                'has been exceeded" 500s and KV-space warnings, which clients saw as hung requests.'),
    fix='Pass --parallel explicitly and size --ctx-size for the slot count (ctx-size per slot x slots).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'llama.cpp: --ctx-size is applied per slot, so concurrent requests exhaust the KV cache',
        'env': ['Linux/Ubuntu', '11.7.0', '2x AMD gfx1201 (ROCm0 / ROCm1)'],
        'bug': "Lemonade never passes `--parallel` to `llama-server`, so the slot count falls to llama.cpp's auto heuristic. On this host that resolves to 4:",
        'log': "srv load_model: initializing, n_slots = 4, n_ctx_slot = 131072, kv_unified = 'true'",
        'effect': '`--ctx-size` is applied **per slot**, so the `ctx_size` recipe option is advertised to every slot while a single shared KV buffer backs all of them. Concurrent requests then oversubscribe the cache and fail as HTTP 500 `Context size has been exceeded` (with `truncated = 0`, i.e. rejected rather than trimmed), plus `failed to find free space in the KV cache` warnings and a batch-size death spiral (2048 -> 1024 -> ... -> 32).',
        'client': 'Because the failure surfaces to the client as a request that never returns, it reads as a client timeout rather than a backend resource error. My log had 0 curl timeouts, 50 context-exceeded 500s, and 190 KV-pressure warnings.',
        'steps': ['`lemonade run <model> --ctx-size 131072 --llamacpp-device ROCm0`', 'Confirm the backend log shows `n_slots = 4`.'],
    },
    log=[('log', None), 'Context size has been exceeded', 'failed to find free space in the KV cache'],
    engine_args='lemonade run <model> --ctx-size 131072 --llamacpp-device ROCm0',
    args_gpu='2x AMD gfx1201',
    notes=('the slot line from the backend log and the two error/warning texts the reporter quotes are the log; engine_args is the reproduction '
           'command; counts of errors are left as prose'),
    leak="The title, the reporter's reading (ctx-size applied per slot over one shared KV buffer, auto --parallel 4) and the client-timeout framing are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/joryirving/home-ops/pull/7550', thread_type='pr',
    engine='llama.cpp server (qwen3-embedding pod) behind LiteLLM, Kubernetes home-ops', engine_version='Jun 2026', gpu=None, model='qwen3-embedding',
    symptom='other', layer='scheduling_capacity',
    root_cause=('llama-server divides --ctx-size across --parallel slots (32768 / 8 = 4096 per slot), so embed inputs over 4096 tokens '
                'failed with a context error and LiteLLM retried and fell back, stretching every rotation to ~9 minutes.'),
    fix='parallelSlots: 4 with contextSize: 65536 (16384 tokens per slot).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(llm): qwen3-embedding 16k/slot context (fixes litellm rotation stall)',
        'what': "The litellm rotation was taking ~9 min because the semantic filter's embed calls were 400ing:",
        'error': 'ContextWindowExceededError: request (4574 tokens) exceeds the available context size (4096 tokens)',
        'pod_logs': ['n_ctx_seq (4096) < n_ctx_train (32768) -- the full capacity of the model will not be utilized',
                     'slot load_model: id 0..7 | new slot, n_ctx = 4096'],
        'cause': 'llama.cpp **divides** `--ctx-size` across `--parallel` slots: `32768 / 8 = 4096` per slot. So any embed input over 4096 (semantic-filter queries / tool descriptions) failed, litellm retried + fallback-failed, dragging startup out. It recurs on every rotation — not one-time.',
        'not_cpu': "It is **not** CPU-bound (the embed pod sits at ~4m CPU) and **not** model-capped (the model's `n_ctx_train` is 32768).",
        'fix': '`parallelSlots: 4` + `contextSize: 65536` → **16384 tokens per slot** (4× the failing query, well under the 32768 model cap), with the 4-way concurrency requested.',
    },
    log=[('error', None), ('pod_logs', 0), ('pod_logs', 1)],
    args_model='qwen3-embedding',
    notes='the client error and the two pod log lines the PR quotes are the log; the ~9 min rotation stays in prose (not a request latency)',
    leak="The PR's reading (ctx-size divided across 8 parallel slots), the not-CPU/not-model-capped checks and the fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/30294', thread_type='issue',
    engine='SGLang (DP attention, chunked prefill)', engine_version='main, Jul 2026', gpu=None, model='GLM-5-FP8',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('Under DP attention with chunked prefill the scheduler never admits the last request slot: every DP rank plateaus one below '
                'its max_running_requests share (#running-req 15 of 16) while requests wait in the queue.'),
    fix='Fix the admission accounting for the chunked-prefill request so the last slot can be used.',
    confidence='plausible',
    evidence={
        'title': '[Bug] Decode running batch pinned at `max_running_requests - 1` under Chunked Prefill',
        'desc': ['Under DP attention the steady-state number of running requests never reaches `--max-running-requests`;',
                 'it plateaus exactly **one below**, on every DP rank. With `--data-parallel-size D` the fleet therefore',
                 'caps at `max_running_requests // D - 1` concurrent requests, leaving one slot per rank permanently idle',
                 'even while requests are queued.'],
        'observed': ['Observed on GLM-5-FP8 with `--enable-dp-attention --data-parallel-size 8 --max-running-requests 128`',
                     '(a `128 // 8 = 16` per-rank ceiling): every rank plateaus at **`#running-req: 15`** and holds there for',
                     'the whole run, while `#queue-req` is ≥ 1 (requests are waiting but not admitted).'],
        'log_note': 'All eight DP ranks pinned at 15 at the same decode step (server log),',
    },
    engine_args='--enable-dp-attention --data-parallel-size 8 --max-running-requests 128',
    observe={'running': (15, '`#running-req: 15`'), 'waiting': (1, '`#queue-req` is ≥ 1')},
    args_model='GLM-5-FP8',
    notes='engine_args are the reporter\'s flags; the per-rank running count and the queue depth from the reporter\'s server-log reading are running/waiting',
    leak="The title (pinned at max_running_requests - 1 under chunked prefill) and the reporter's per-rank arithmetic are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm-omni/pull/5071', thread_type='pr',
    engine='vLLM-Omni (VoxCPM2 TTS stage) on vLLM 0.25.1', engine_version='vLLM 0.25.1 / VoxCPM 2.0.3', gpu='NVIDIA RTX 3090 (24 GiB)', model='VoxCPM2',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The VoxCPM2 stage config capped max_num_seqs at 8, so with 32 concurrent requests most waited for a slot: audio throughput '
                'was 47.81 audio-s/s and median time to first audio 2.51 s, against 62.75 and 1.07 s with max_num_seqs 32.'),
    fix='Restore max_num_seqs to 32 for VoxCPM2.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bugfix][VoxCPM2] Restore max_num_seqs to 32 to fix throughput regression (#5064)',
        'env': 'Thanks for your patience. I’ve got the environment running and completed an initial comparison on an RTX 3090 (24 GiB, driver 575.57.08).',
        'setup': 'For this comparison, I used a local checkout at `98229b0` and changed only `max_num_seqs` from 8 to 32, reproducing the configuration change proposed here rather than benchmarking the PR head directly. The KV cache remained at 6 GiB, `max_model_len` at 4096, and `unified_decode_graph_max_batch_size` at 8.',
        'load': 'Both configurations received the same 32 English text requests from the bundled `seed_tts_smoke` dataset (30 entries, oversampled to 32), using the default voice, client concurrency of 32, and `request_rate=inf`.',
        'table': ['| Metric | `max_num_seqs=8` | `max_num_seqs=32` |',
                  '| Audio throughput (audio seconds/s) | 47.81 | 62.75 |',
                  '| Median time to first audio packet | 2.51 s | 1.07 s |',
                  '| P99 time to first audio packet | 4.60 s | 1.07 s |',
                  '| Median end-to-end latency | 3.50 s | 3.77 s |'],
    },
    engine_args='max_num_seqs=8 max_model_len=4096',
    observe={'ttft_p50_s': (2.51, '| Median time to first audio packet | 2.51 s'),
             'ttft_p99_s': (4.60, '| P99 time to first audio packet | 4.60 s')},
    args_model='VoxCPM2',
    args_gpu='RTX 3090 (24 GiB)',
    notes=('engine_args restates the stage settings of the failing arm (max_num_seqs 8, max_model_len 4096); its median/P99 time to first '
           'audio packet are passed as ttft_p50_s/ttft_p99_s; the audio throughput (audio seconds/s) has no observe name'),
    leak="The PR title (restore max_num_seqs to 32) and the max_num_seqs=32 arm of the comparison are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/Mesh-LLM/mesh-llm/issues/1613', thread_type='issue',
    engine='mesh-llm (llama.cpp lanes) on Windows CUDA', engine_version='v0.76.0-rc9 / v0.76.0', gpu='NVIDIA RTX 4070 Ti 12 GB', model='Qwen3-8B Q4_K_M',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The default configuration opened 4 parallel lanes at ctx 32768 on a 12 GB card, so a single stream got only a lane\'s share '
                '(~32 tok/s, flat across concurrency) and on v0.76.0 a 9.8 GB KV buffer that did not fit; with parallel = 1 or --ctx-size 8192 '
                'the same card does 65-67 tok/s single-stream.'),
    fix='Use [defaults] parallel = 1 for a solo user, or a smaller --ctx-size so the 4-lane KV cache fits.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'v0.76.0-rc9 single-stream decode drops from 55 to 32 tok/s on Windows CUDA (RTX 4070 Ti), per-stream rate now constant regardless of concurrency',
        'measured': 'Measured v0.76.0 on the same box as the original report (Windows 11, RTX 4070 Ti 12 GB, same Qwen3-8B Q4_K_M file, same method: 200 generated tokens, temperature 0, `timings.predicted_per_second`). Short version: the decode regression is fixed and then some, but the default configuration hides it on a 12 GB card.',
        'header': '| Host and config | single stream | 4 streams, per stream | aggregate | CUDA0 KV buffer | open line |',
        'rows': ['| rc9, defaults | 32.2 / 32.4 / 32.4 | 31.9 to 32.4 | 124.0 | 2448 MiB | `ctx=32768 lanes=4` |',
                 '| v0.76.0, defaults | 25.6 / 25.4 / 25.5 | 18.1 to 18.8 | 70.3 | 9792 MiB | `ctx=32768 lanes=4` |',
                 '| v0.76.0, `--ctx-size 8192` | 64.5 / 66.6 / 67.3 | 54.6 to 55.6 | 206.3 | 2448 MiB | `ctx=8192 lanes=4` |',
                 '| v0.76.0, `[defaults] parallel = 1` | 64.9 / 66.8 / 67.2 | 66.7 to 67.4, serialized | 66.2 | 2448 MiB | `ctx=32768 lanes=1` |'],
        'reference': 'For reference, the numbers in the first post were rc8 55.3 and rc9 32.7 single stream. So when the KV cache fits, v0.76.0 does 65 to 67 single stream, better than rc8 ever did here.',
    },
    log=['ctx=32768 lanes=4'],
    observe={'output_tokens_per_s': (32.7, 'rc9 32.7 single stream'), 'expected_output_tokens_per_s': (55.3, 'rc8 55.3')},
    args_model='Qwen3-8B Q4_K_M',
    args_gpu='RTX 4070 Ti 12 GB',
    notes=('the open line of the default configuration is the log; the first post\'s rc9 single-stream rate is output_tokens_per_s and the '
           'rc8 rate on the same box expected_output_tokens_per_s'),
    leak="The later measurement table (ctx 8192 and parallel = 1 arms, KV buffer sizes) and the reporter's reading are left out.",
    hard=('Part of the rc9 drop was a code regression that v0.76.0 fixed; the inputs show only the lane/ctx line and the two rates, and the '
          'KV buffer size that shows the spill is not in them.')))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/1369', thread_type='issue',
    engine='SGLang (MLA on the Triton attention backend)', engine_version='Sep 2024 (v0.3.0 era)', gpu='NVIDIA A100 (also L20)', model='DeepSeek-Coder-V2-Lite-Base',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('With --enable-mla the DeepSeek-V2 attention ran on Triton kernels and the Triton runtime did not yet support CUDA graphs, so '
                'small-batch decode paid full kernel-launch overhead: 31 ms/token against 8 ms/token on the MHA path.'),
    fix='Use the PR that adds CUDA graph support to the Triton attention backend (sglang#1401).',
    confidence='maintainer_explained',
    evidence={
        'title': 'deepseek-v2 enable-mla 4x slower',
        'desc': 'The DeepSeek-Coder-V2-Lite-Base  inference with --enable-mla on A100(the same L20)，but get 4x slower than mha, the server command:',
        'cmd_mla': 'python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-Coder-V2-Lite-Base --enable-mla --disable-radix --trust-remote-code',
        'speed_mla': 'speed: 31ms/token',
        'cmd_mha': 'python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-Coder-V2-Lite-Base --trust-remote-code',
        'speed_mha': 'speed: 8ms/token',
        'maintainer': 'We have improved the maximum throughput. But with small batch sizes, due to Triton Runtime not yet supporting CUDA Graph, there will be higher latency.',
        'maintainer2': 'Try this PR https://github.com/sgl-project/sglang/pull/1401',
    },
    engine_args='python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-Coder-V2-Lite-Base --enable-mla --disable-radix --trust-remote-code',
    observe={'tpot_p50_s': (0.031, 'speed: 31ms/token')},
    args_model='DeepSeek-Coder-V2-Lite-Base',
    args_gpu='A100',
    notes='engine_args is the failing launch command; the per-token time is tpot_p50_s (ms -> s); the MHA comparison run is kept out',
    leak="The title (enable-mla 4x slower), the 8 ms/token MHA run and the maintainer's explanation (Triton runtime without CUDA graphs) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/1449', thread_type='issue',
    engine='LMDeploy 0.3.0 PyTorch engine (api_server)', engine_version='0.3.0', gpu='NVIDIA A100', model='Qwen 14B',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The PyTorch engine had no custom kernel for Qwen\'s rotary embedding (Qwen was not fully optimized), so at the benchmark\'s '
                'concurrency 4 it produced 93.32 output tokens/s against 169.28 for vLLM.'),
    fix='Use the PR that replaces apply_rotary_pos_emb with the custom kernel (lmdeploy#1451), and benchmark at a larger concurrency.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug] PyTorch Engine poor performance compared to vllm',
        'desc': 'I tried to benchmark the PyTorch Engine performance and find it very poor...',
        'pytorch': ['# PyTorch Engine', 'concurrency: 4', 'input token Throughput: 101.53 tokens/s', 'output token Throughput: 93.32 tokens/s', 'total token Throughput: 194.85 tokens/s'],
        'vllm': ['vllm', 'concurrency: 4', 'input token Throughput: 184.18 tokens/s', 'output token Throughput: 169.28 tokens/s', 'total token Throughput: 353.46 tokens/s'],
        'repro': ['model: Qwen14B', 'GPU: A100', 'LMDeploy: 0.3.0', 'Dataset: ShareGPT_V3_unfiltered_cleaned_split.json', 'profile_restful_api.py'],
        'maintainer': "`concurrency: 4` is too small for benchmark. It's better to enable a large concurrency.",
        'maintainer2': 'Qwen has not been fully optimized, we have not apply custom kernel on rotary embedding. [this pr](https://github.com/InternLM/lmdeploy/pull/1451) replace `apply_rotary_pos_emb` with our custom kernel. Please have a try.',
    },
    log=[('pytorch', 1), ('pytorch', 3), ('pytorch', 4)],
    observe={'output_tokens_per_s': (93.32, 'output token Throughput: 93.32 tokens/s'),
             'expected_output_tokens_per_s': (169.28, 'output token Throughput: 169.28 tokens/s')},
    args_model='Qwen14B',
    args_gpu='A100',
    notes=('lines of the reporter\'s PyTorch-engine benchmark result are the log; its output throughput and the reporter\'s own vLLM run on the '
           'same setup are output/expected throughput'),
    leak="The maintainer's answer (concurrency 4 too small; no custom rotary-embedding kernel for Qwen yet, PR #1451) is left out.",
    hard='The maintainer gives two reasons: the missing rotary kernel (operator) and a too-small benchmark concurrency (load).'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/33483', thread_type='issue',
    engine='SGLang (FlashInfer backend)', engine_version='Aug 2026', gpu='1x NVIDIA L40 (46 GB)', model='Qwen/Qwen2.5-0.5B-Instruct',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The default cuda_graph_max_bs (32) is far below the default max_running_requests (4096); once the running batch crosses 32 '
                'decode leaves the CUDA-graph path and per-request inter-token latency jumps, and the slower decode keeps the batch above '
                'the ceiling (19/20 runs transition after a median 17 s and none recover).'),
    fix='Raise --cuda-graph-max-bs to cover the reachable batch (128 cost 0.22 GB) or clamp --max-running-requests.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug] `max_running_requests` (4096) and `cuda_graph_max_bs` (32) defaults are derived independently; crossing the graph ceiling is an absorbing state',
        'repro': ['**Model:** `Qwen/Qwen2.5-0.5B-Instruct`', '**Dataset:** ShareGPT via `sglang.benchmark.serving`', '**Hardware:** 1x NVIDIA L40 (46 GB), driver CUDA 13.2, FlashInfer backend'],
        'arms': 'Only `--cuda-graph-max-bs` differs between the two arms.',
        'cmd': ['python -m sglang.launch_server \\', '  --model-path Qwen/Qwen2.5-0.5B-Instruct \\', '  --host 127.0.0.1 --port 30000 \\',
                '  --cuda-graph-max-bs 32 \\', '  --mem-fraction-static 0.80'],
        'followup': ['Reproduces with **no tunning flags at all** — 32 is the default ceiling for this card (L40, tp=1)',
                     'The actual defect looks broader than the ceiling value: `max_running_requests` defaults to 4096 on the same machine, derived by an unrelated code path. 128x gap.',
                     '19/20 runs transition at a median of 17 s; none recover. With the workload held fixed, T is identical to within 0.25 s, so the variance is the arrival process, not the machine.',
                     'Both mitigations verified; raising the ceiling is better at the tail than clamping admission.'],
        'headroom': 'Full coverage to 128 cost 0.22 GB here and left 6.68 GB free, so there appears to be headroom the current default does not use on small models.',
    },
    engine_args='python -m sglang.launch_server --model-path Qwen/Qwen2.5-0.5B-Instruct --host 127.0.0.1 --port 30000 --cuda-graph-max-bs 32 --mem-fraction-static 0.80',
    args_model='Qwen/Qwen2.5-0.5B-Instruct',
    args_gpu='1x NVIDIA L40 (46 GB)',
    notes=('engine_args joins the launch command of the default-ceiling arm (32 is also the card\'s default, continuation backslashes '
           'dropped); no ITL figure is in the stored excerpt, so no observe value is passed'),
    leak="The title, the 128x gap analysis, the transition statistics and both verified mitigations are left out.",
    hard=('Only the launch flags; no latency figure is in the inputs, and the cause sits between CUDA-graph coverage (operator) and the '
          'admission default (scheduling).')))

I.append(dict(
    src='https://github.com/FlashML-org/FreeToken/pull/169', thread_type='pr',
    engine='FreeToken inference engine (flashinfer attention, CPU offload)', engine_version='Aug 2026', gpu='NVIDIA H100 (also 2x RTX 6000 Ada)', model='nvidia/Qwen3.6-35B-A3B-NVFP4',
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('Triton prefill kernels were compiled and module-loaded on the request path (fla/l2norm specialised on the prompt length, so '
                'every unseen length built a new module), so the first request after boot waited 15.1 s for TTFT on a cold cache.'),
    fix='Stop specialising l2norm on T and warm up the prefill kernels over all size buckets at startup (first-request TTFT 15.1 s -> 0.6 s).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(engine): load prefill triton kernels at startup, not mid-request',
        'desc': 'Two changes, one goal: no triton compile / cuModuleLoadData on the request path.',
        'change1': '1. `fla/l2norm`: `do_not_specialize=["T"]`, `T` was `tl.constexpr`: a new module per unseen prompt length, forever.',
        'suspected': 'Suspected trigger of the sm_89 silent hangs (#123, #72; #31 has a py-spy stack inside cuModuleLoadData): a first-launch module load mid-forward on the scheduler thread.',
        'tested': 'Tested on H100 (driver 580.95.05, torch 2.11.0+cu130), `nvidia/Qwen3.6-35B-A3B-NVFP4`, offload + fi: l2norm bitwise equal, same latency; a 11..2560-token sweep loads zero in-repo kernels at request time (main: 4-10 per new size); first-request TTFT on a cold cache 15.1 s -> 0.6 s; warmup adds 4.1 s to startup on a warm cache.',
        'sm89': 'Tested on sm_89 (2x RTX 6000 Ada), which is the card this PR most wants a data point from:',
    },
    observe={'ttft_p99_s': (15.1, 'first-request TTFT on a cold cache 15.1 s')},
    args_model='nvidia/Qwen3.6-35B-A3B-NVFP4',
    args_gpu='H100',
    notes='the cold-cache first-request TTFT on main is ttft_p99_s (the worst request after boot); no log is quoted',
    leak="The title, the kernel-loading explanation (JIT compile / cuModuleLoadData mid-request, l2norm specialised on T) and the 0.6 s after-fix figure are left out.",
    hard='Only one TTFT figure; that it is a first-request JIT compile is not in the inputs.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm-omni/issues/7960', thread_type='issue',
    engine='vLLM-Omni (Qwen2.5-Omni thinker/talker stages)', engine_version='Sep 2026', gpu='2x NVIDIA A800 80GB (first report on H200)', model='Qwen2.5-Omni-7B',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The bundled deploy YAML runs the thinker and talker stages in eager mode on CUDA (no CUDA graphs), so decode paid per-token '
                'launch overhead: thinker TPOT ~22 ms and talker ~19 ms, against ~13 ms and ~6 ms with graphs on.'),
    fix='Set enforce_eager: false for stages 0 and 1 (enable CUDA graphs) in the deploy YAML.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Performance]: Qwen2.5-Omni thinker/talker run eager on CUDA; enabling cudagraph gives ~4-5x faster decode on H200',
        'update': 'Update: I tested the 7B model now, on a different GPU, and also ran the e2e test with graph on.',
        'setup': '**Qwen2.5-Omni-7B, 2x A800 80GB**, bundled deploy YAML (eager) vs the same YAML with `enforce_eager: false` for stage 0 and 1. 3 requests each, run back to back on the same 2 GPUs, same command as in the first post:',
        'rows': ['| use_audio | ~22 -> ~13 ms (1.7x) | ~19 -> ~6 ms (3.2x) | 52.9 -> 22.0 s |',
                 '| text | ~23 -> ~13 ms (1.8x) | ~20 -> ~5.4 ms (3.6x) | 57.6 -> 22.9 s |'],
    },
    observe={'tpot_p50_s': (0.022, '~22 -> ~13 ms'), 'e2e_p99_s': (52.9, '52.9 -> 22.0 s')},
    args_model='Qwen2.5-Omni-7B',
    args_gpu='2x A800 80GB',
    notes=('the thinker TPOT of the bundled (eager) YAML is tpot_p50_s (ms -> s) and the wall time for 3 requests e2e_p99_s; the graph-on '
           'side of each pair is kept out; the deploy YAML itself is not quoted'),
    leak="The title (eager on CUDA, cudagraph 4-5x faster), the enforce_eager: false arm and the speed-ups are left out.",
    hard='Only TPOT and wall time; that the stages run eager is in the bundled deploy YAML, which is not quoted.'))

I.append(dict(
    src='https://github.com/noonghunna/club-3090/issues/142', thread_type='issue',
    engine='club-3090 dual.yml compose (2x RTX 3090, tensor parallel)', engine_version='v0.7.x (May 2026)', gpu='2x NVIDIA RTX 3090 (PCIe Gen 4 x4 + x8, 300 W cap)', model=None,
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The two cards sat on asymmetric PCIe lanes (Gen 4 x4 to one card, x8 to the other), so cross-card traffic of the dual-GPU '
                'compose was link-limited: 75.80 narrative wall TPS against 89.24 on a same-compose Gen 4 x16 control (-15%).'),
    fix='Put both cards on wide (x16) links, or accept the interconnect-bound figure for this topology.',
    confidence='maintainer_explained',
    evidence={
        'title': '[bench] 2× 3090 (PCIe Gen 4 x8, 300W cap) — 75.80 narr / 99.04 code TPS',
        'maintainer': "You're **the first cross-rig data point on asymmetric PCIe-lane configuration** — Gen 4 x4 to one card, x8 to the other.",
        'control': "Comparing to the closest control (@danbedford's same-compose Gen 4 x16 PCIe-only A/B at [#77](https://github.com/noonghunna/club-3090/issues/77) → 89.24 / 114.57):",
        'row': '| Narr wall TPS | 89.24 | 75.80 | **−15%** |',
    },
    observe={'output_tokens_per_s': (75.80, '75.80 narr'), 'expected_output_tokens_per_s': (89.24, '→ 89.24 / 114.57')},
    args_gpu='2× 3090 (PCIe Gen 4 x8, 300W cap)',
    notes=('the reporter\'s narrative wall TPS is output_tokens_per_s and the published same-compose reference figure expected_output_tokens_per_s; '
           'args_gpu is the reporter\'s own rig description from the title'),
    leak="The maintainer's reading (asymmetric x4/x8 lanes, -15% against the Gen 4 x16 control) is left out.",
    hard='The inputs show a throughput gap and the rig line (x8, 300 W cap); that one card runs at x4 is not in them, and the power cap is a competing explanation.'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/haoxiang-xu/PuPu/issues/227', thread_type='issue',
    engine='Ollama (daemon default context) behind the PuPu client', engine_version='Aug 2026', gpu=None, model='local Ollama models (e.g. deepseek-r1:14b)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('PuPu never set num_ctx on Ollama requests, so a ~15,750-token prompt ran in the daemon default window: Ollama kept '
                '2051 tokens and silently dropped ~87% from the front (system prompt and tool definitions first), so local models ignored '
                'instructions and failed to call tools.'),
    fix='Send an explicit num_ctx (a safe floor, per-model window) on every Ollama request.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Set an explicit context window on Ollama requests',
        'what': '**What & Why** — PuPu never sets `num_ctx` on Ollama requests, so every local-model call inherits the daemon default.',
        'measured': 'Measured on a dev machine: sending a ~15,750-token prompt, Ollama reported `prompt_eval_count: 2051` with no `num_ctx` and `14024` with `num_ctx: 16384` — roughly 87% of the input was discarded, silently, behind HTTP 200 and a normal finish reason.',
        'effect': 'Ollama truncates from the front, so the system prompt and the tool definitions are the first things lost, which plausibly explains local models appearing to ignore instructions and failing to call tools (#129).',
    },
    log=['prompt_eval_count: 2051'],
    observe={'input_len_mean': (15750, '~15,750-token prompt')},
    notes='the prompt_eval_count Ollama returned is the log text and the size of the prompt sent input_len_mean; the symptom (models ignore instructions, fail tool calls) is from the linked report #129',
    leak="The title, the reporter's reading (no num_ctx, daemon default, front truncation) and the num_ctx 16384 comparison are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/6902', thread_type='issue',
    engine='Ollama (Linux, RAG client)', engine_version='Sep 2024', gpu='NVIDIA A30', model=None,
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The model\'s advertised 131072 context is its training length, not num_ctx: Ollama allocated a small window (2048 by default; '
                '5000 per slot when it ran 4 parallel slots), so the referenced documents were cut from the prompt and no model could use them.'),
    fix='Set num_ctx for the request/model large enough for the referenced material (and mind OLLAMA_NUM_PARALLEL multiplying the KV).',
    confidence='maintainer_explained',
    evidence={
        'title': 'No ollama model can recognize the referenced information.',
        'log': ['9月 22 13:15:38 gpu ollama[54696]: Device 0: NVIDIA A30, compute capability 8.0, VMM: yes',
                '9月 22 13:16:16 gpu ollama[54696]: llm_load_tensors: offloaded 47/47 layers to GPU'],
        'maintainer': 'The screen shot that shows context length of 131072 is the context length that the model was trained with.  This is different from `num_ctx`, which is the size of the context window that ollama allocates for processing queries.',
        'maintainer_default': 'For this reason, the default context window that ollama allocates is smaller that the context window that the model was trained with.  By default, it is 2048 tokens.',
        'test1': '1st test:  the llama runner is running one thread (`--parallel 1`) so the total space for context is 120000 (`--ctx-size 120000`).',
        'test2': '2nd test: the llama runner is running four threads (`--parallel 4`) each with a context window of 5000, so the total space for context is 20000 (`--ctx-size 20000`).',
    },
    log=[('log', 0), ('log', 1)],
    args_gpu='NVIDIA A30',
    notes='two lines of the reporter\'s server log (GPU found, all layers offloaded) are the log; no context setting or output sample is quoted',
    leak="The maintainer's explanation (training length vs num_ctx, 2048 default, per-slot context of the parallel runs) is left out.",
    hard='The inputs show only a healthy full GPU load; the small per-request context window that cut the referenced text is not in them.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/4054', thread_type='issue',
    engine='Ollama 0.1.32 (macOS, Apple GPU)', engine_version='0.1.32', gpu='Apple Silicon', model='llama-3-chinese-8b-instruct GGUF q8_0',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Ollama 0.1.32 did not stop a Llama-3-based GGUF at its end-of-turn token despite the stop parameters, so generation ran on '
                'forever; Ollama 0.1.33 fixed it.'),
    fix='Upgrade to Ollama 0.1.33 (or add a stop on <|reserved_special_token as a workaround).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'llama-3-chinese-8b-instruct model infinite loop generate & cannot stop',
        'desc': 'Hey, I found an issue of infinite generation that cannot be stopped, when deploying a [Chinese fine-tuned model of llama3 ](https://huggingface.co/hfl/llama-3-chinese-8b-instruct-gguf)',
        'modelfile': ['FROM /llama-3-chinese-8b-instruct/ggml-model-q8_0.gguf', 'PARAMETER num_keep 24', 'PARAMETER stop <|start_header_id|>',
                      'PARAMETER stop <|end_header_id|>', 'PARAMETER stop <|eot_id|>', 'PARAMETER stop assistant'],
        'env': ['macOS', 'Apple', '0.1.32'],
        'maintainer': 'Can you try running it in the REPL and adding:',
        'maintainer_cmd': '/set parameter stop <|reserved_special_token',
        'reporter': '0.1.33 is fix',
    },
    engine_args='FROM /llama-3-chinese-8b-instruct/ggml-model-q8_0.gguf; PARAMETER num_keep 24; PARAMETER stop <|start_header_id|>; PARAMETER stop <|end_header_id|>; PARAMETER stop <|eot_id|>; PARAMETER stop assistant',
    args_model='llama-3-chinese-8b-instruct q8_0 GGUF',
    args_gpu='Apple',
    notes='engine_args joins the Modelfile lines (TEMPLATE block omitted); the Ollama version (0.1.32) is in the report but has no input field; no output sample is quoted',
    leak="The maintainer's stop-token workaround and the reporter's resolution (0.1.33 fixes it) are left out.",
    hard='The cause is the Ollama version; the inputs carry a correct-looking Modelfile and no version.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/unslothai/unsloth/issues/9037', thread_type='issue',
    engine='Unsloth Studio -> llama.cpp llama-server (GGUF)', engine_version='Aug 2026', gpu=None, model='Qwen3.8 GGUF',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Studio\'s first-token watchdog (20 minutes, counted from request start and not reset by prefill progress) cancelled a '
                '~154k-token prefill that was still advancing at ~130 tok/s and 93-94% done.'),
    fix='Let prefill progress events keep the request alive (Studio requests return_progress; unsloth#10172).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Studio Bug] Long Qwen3.8 GGUF chats lose reusable prompt state after model reload, causing ~11 minute full prefill',
        'confirmed': '## Confirmed: 20-minute first-token timeout cancels an actively progressing long-context prefill',
        'progress': 'The long request triggered after changing Thinking/Reasoning to High continued making steady prompt-processing progress:',
        'log': ['task 5331 | prompt processing, n_tokens = 150541, progress = 0.92, t = 1157.75 s / 130.03 tok/s',
                'task 5331 | prompt processing, n_tokens = 152589, progress = 0.93, t = 1184.24 s / 128.85 tok/s',
                'srv stop: cancel task, id_task = 5331',
                'slot release: id 0 | task 5331 | stop processing: n_tokens = 154065, truncated = 0'],
        'ui': ['The model is still processing the prompt but did not produce a first token within 20 minutes.',
               'Try reducing context length, using more GPU offload, or loading a smaller model.'],
        'judgement': 'This is a problematic false-positive timeout in this case: the backend was not hung. It was demonstrably making continuous progress through a very large prompt and had reached roughly 94% before Studio killed it.',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('ui', 0)],
    observe={'gateway_timeout_s': (1200, 'did not produce a first token within 20 minutes'), 'input_len_mean': (154065, 'n_tokens = 154065')},
    args_model='Qwen3.8 GGUF',
    notes=('the llama.cpp prompt-processing/cancel lines and the Studio UI message are the log; the UI\'s 20 minutes is gateway_timeout_s and '
           'the slot\'s n_tokens input_len_mean'),
    leak="The reporter's heading (20-minute first-token timeout cancels an active prefill) and judgement are left out; the title is about a different (reload) problem and is not an input.",
    hard=None))

I.append(dict(
    src='https://github.com/unslothai/unsloth/pull/4409', thread_type='pr',
    engine='Unsloth Studio -> llama.cpp llama-server (--parallel 1)', engine_version='Mar 2026', gpu=None, model=None,
    symptom='ttft_spike', layer='gateway_client',
    root_cause=('Studio\'s stream helper used a 0.5 s read timeout and re-sent a brand-new POST on every timeout, so during a prefill of a few '
                'seconds it fired 10-60 duplicate requests; with --parallel 1 each one could restart processing, and users saw "Generating" '
                'for 10-20 s before the first token.'),
    fix='Send the request once with a 120 s header timeout and cancel via a background watcher.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Fix inference stall during prefill (retry storm)',
        'problem': 'When chatting in Studio, clicking Send shows "Generating" for 10-20 seconds with no progress before tokens start appearing. Clicking Refresh during generation makes it worse.',
        'root': 'Root cause: `_stream_with_retry` in `llama_cpp.py` used a 0.5s read timeout on the httpx connection and retried by sending a **brand new POST request** on every timeout. During prompt prefill (which takes seconds for long contexts or reasoning models), this caused a retry storm:',
        'steps': ['httpx sends POST to llama-server', 'llama-server starts prefilling (processing the prompt)', 'After 0.5s, httpx times out',
                  '`_stream_with_retry` catches the timeout and sends a NEW POST request',
                  'llama-server receives the new request, may cancel the old one, starts over',
                  'Repeat every 0.5s -- 10-60 duplicate requests during a single prefill'],
        'parallel': 'With `--parallel 1`, each new request can force llama-server to restart processing, making prefill take much longer than it should.',
    },
    engine_args='--parallel 1',
    observe={'ttft_p50_s': (20, '"Generating" for 10-20 seconds')},
    notes='the user-visible delay before the first token is ttft_p50_s (upper end of 10-20 s); engine_args restates the llama-server setting the PR names; no log is quoted',
    leak="The title (retry storm), the root cause (0.5 s read timeout, re-sent POSTs) and the fix are left out.",
    hard='Only the delay and the server\'s --parallel 1; the client\'s 0.5 s read timeout and duplicate POSTs are not in the inputs.'))

I.append(dict(
    src='https://github.com/marin-community/marin/issues/7173', thread_type='issue',
    engine='Iris proxy -> marin-serve (TPU v5litepod-8), LiteLLM client in an agent harness', engine_version='Jul 2026', gpu='TPU v5litepod-8', model='Qwen/Qwen3-0.6B',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The Iris proxy in front of marin-serve gives an upstream request 30 seconds and then returns 504, so any completion longer '
                'than that (Qwen3 thinking on an AIME problem) failed regardless of model health: one trial in three died with 0 output tokens.'),
    fix='Raise the upstream timeout for /serve/* endpoints (ideally settable per job); meanwhile cap generation and turn thinking off.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Iris proxy times out served-model requests after 30s (504), breaking long generations',
        'desc': ['The Iris proxy in front of a `marin-serve` endpoint gives an upstream request 30 seconds',
                 'and then returns `504 {"error": "Upstream timeout after 30s"}`. Any single completion that',
                 'takes longer than that fails, no matter how healthy the model or the slice is.'],
        'scenario': ['This is easy to hit with a reasoning model doing exactly what it is meant to do. Serving',
                     '`Qwen/Qwen3-0.6B` on a v5litepod-8 (`marin-serve --access link`) and driving it with an',
                     "agent on an AIME problem, Qwen3's default thinking mode emits a long chain of thought, the",
                     'completion runs past 30 seconds, and the client sees:'],
        'log': ['litellm.Timeout: Timeout Error: OpenAIException - Error code: 504 -', "{'error': 'Upstream timeout after 30s'}"],
        'rate': ["One trial in three died this way in harbor's nightly end-to-end run", '(marin-community/harbor#5), with 0 output tokens recorded for it.'],
    },
    log=[('log', 0), ('log', 1)],
    engine_args='marin-serve --access link',
    observe={'error_rate': (0.333, 'One trial in three died this way')},
    args_model='Qwen/Qwen3-0.6B',
    args_gpu='TPU v5litepod-8',
    notes='the client error the reporter quotes is the log; one trial in three is error_rate; engine_args is the serve command',
    leak="The title and the reporter's explanation (the proxy's 30 s upstream timeout) are left out; the 504 body in the log names the timeout itself.",
    hard=None))

I.append(dict(
    src='https://github.com/aarora79/agentic-coding-harness-benchmarks/pull/27', thread_type='pr',
    engine='LiteLLM proxy -> bedrock-mantle (Qwen3-Coder-480B), claude -p agent harness', engine_version='Jul 2026', gpu=None, model='Qwen3-Coder-480B',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The LiteLLM proxy had only request_timeout: 300, which governs the initial connection, and no stream_timeout; when the upstream '
                'stalled mid-stream on a large-context request the open stream hung until the harness wall clock (1800 s) killed the run.'),
    fix='Add stream_timeout: 120 to litellm_settings so a silent stream is killed and surfaced as a retryable error.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Add stream_timeout to LiteLLM proxy config',
        'summary': ['Adds `stream_timeout: 120` to `litellm_settings` in the bedrock-mantle proxy config',
                    'Prevents hung connections when bedrock-mantle stalls mid-stream on large-context requests'],
        'problem': 'bedrock-mantle can accept a streaming request (HTTP 200) but then go silent -- no more SSE events arrive. The existing `request_timeout: 300` only governs the initial connection, not an already-opened stream. Without a stream timeout, `claude -p` waits indefinitely for the next event, eventually hitting the harness wall-clock timeout (1800s) with 0 artifacts.',
        'fix': '`stream_timeout: 120` tells LiteLLM to kill a silent stream after 2 minutes and surface a retryable error, so the agent can recover instead of hanging forever.',
        'testing': 'Discovered and validated while benchmarking Qwen3-Coder-480B on mcp-gateway-registry. Before the fix, the run hung after 159 successful API calls when a large-context streaming request stalled. After the fix, the same task completed successfully (4/4 artifacts, 37 turns, 649s).',
    },
    engine_args='litellm_settings: request_timeout: 300',
    observe={'gateway_timeout_s': (300, '`request_timeout: 300`'), 'e2e_p99_s': (1800, 'harness wall-clock timeout (1800s)')},
    args_model='Qwen3-Coder-480B',
    notes=('engine_args restates the proxy setting that was in place; it is gateway_timeout_s and the harness wall clock the hung run hit is '
           'e2e_p99_s; no log is quoted'),
    leak="The title, the explanation (request_timeout covers only the connection, no stream timeout), the fix and its validation are left out.",
    hard='The trigger is the upstream stalling mid-stream; the missing stream timeout at the proxy is why it hung, and only a config line and a wall-clock limit are in the inputs.'))

I.append(dict(
    src='https://github.com/ray-project/ray/issues/59681', thread_type='issue',
    engine='Ray Serve LLM (build_openai_app) in front of vLLM', engine_version='Dec 2025 (ray 2.56.0 / vLLM 0.22.0 in the measurement)', gpu=None, model='Qwen/Qwen3-30B-A3B-Instruct-2507',
    symptom='ttft_spike', layer='gateway_client',
    root_cause=('Ray Serve LLM\'s response Batcher waits out the full MODEL_RESPONSE_BATCH_TIMEOUT_MS (50 ms) before its first drain, so the '
                'first token of every streamed request sits in the queue until the timer ticks, adding fixed TTFT and making inter-token gaps '
                'bursty (P50 0 ms, P90 50 ms) compared with bare vLLM.'),
    fix='Drain the first chunk immediately (or set stream_batching_interval_ms to 0); ray#64534.',
    confidence='plausible',
    evidence={
        'title': 'Additional Overhead in Ray Serve LLM than Bare vLLM images',
        'obs': ['1. There is a ~200token/s total throughput decrease in Ray Serve LLM.(~30 tok/s difference in output throughput).',
                '2. Continuing on the above, ~20ms increase in mean TTFT and ~50ms in P90 TTFT.',
                '3. Also, I can see abrupt variation in Inter-Token Latency, P50 showing 0ms and P90 showing 50ms. Meanwhile, vllm shows a smoother variation, 12ms and 13ms respectively.'],
        'bench': ['vllm bench serve --backend=vllm --base_url="https://0.0.0.0:8000" \\',
                  '--model="Qwen/Qwen3-30B-A3B-Instruct-2507" --served-model-name="qwen3" --endpoint="/v1/completions" \\',
                  '--dataset-name=random --num-prompts=200 --random-input-len=4096 --random-output-len=512 \\',
                  '--max-concurrency=10 --request-rate=inf --num-warmups=10 \\'],
        'contributor': 'Ran a controlled single-node comparison to quantify this, found the dominant root cause, and opened a fix: #64534.',
        'table': ['| bare vLLM | 16.9 / 21.2 | 35.0 / 45.4 | 84.1 / 103.2 |', '| Serve LLM (default) | 64.8 / 67.6 | 66.2 / 78.7 | 158.1 / 472.7 |'],
        'root': '**Root cause of the fixed TTFT overhead:** the response `Batcher` (`ray/llm/_internal/serve/utils/batcher.py`) waits out the full `MODEL_RESPONSE_BATCH_TIMEOUT_MS` (default **50 ms**) before its first drain, so the first token of every streaming request sits in the queue until the first timer tick.',
    },
    observe={'tpot_p50_s': (0.0, 'P50 showing 0ms'), 'tpot_p99_s': (0.05, 'P90 showing 50ms'), 'input_len_mean': (4096, '--random-input-len=4096')},
    args_model='Qwen/Qwen3-30B-A3B-Instruct-2507',
    notes=('the reporter gives only deltas for TTFT (+20 ms mean, +50 ms P90), so no TTFT value is passed; the ITL P50/P90 through Ray Serve '
           'are tpot_p50_s/tpot_p99_s (P90 passed as p99, ms -> s) and the benchmark input length input_len_mean'),
    leak="The contributor's measurement table and root cause (response Batcher's 50 ms first drain) and the fix PR are left out.",
    hard='Only ITL percentiles and the request shape; the serving layer\'s response batching is not in the inputs.'))

I.append(dict(
    src='https://github.com/tashfeenahmed/freellmapi/issues/584', thread_type='issue',
    engine='freellmapi proxy -> NVIDIA NIM hosted models, Kilo Code client', engine_version='Jul 2026', gpu=None, model='deepseek-ai/deepseek-v4-pro (also minimaxai/minimax-m2.7)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The proxy\'s NVIDIA NIM provider had a hard-coded 90-second stream-stall limit, so large-context requests (~100k+ tokens) '
                'whose first token took longer than 90 s were aborted by the proxy.'),
    fix='Make the NIM stall/inactivity timeout configurable or larger for long-context requests.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug] NVIDIA NIM stream stalled timeout (90000ms) still occurs on large context requests',
        'desc': 'Despite recent updates aimed at fixing timeout issues (such as PR #567), the freellmapi proxy still terminates connections on large context requests after exactly 90 seconds if no data chunks are received from the NVIDIA NIM stream.',
        'heavy': 'When working with heavy context (e.g., around 100k+ input tokens), the model takes longer than 90 seconds to generate the first token or process chunks, triggering a hardcoded stream stall timeout.',
        'log': ['[server] [Proxy] 12:44:14 fail 0dd9bf a0 nvidia - deepseek-ai/deepseek-v4-pro lat=121418ms err="NVIDIA NIM stream stalled: no data for 90000ms (timeout)"',
                '[server] [Proxy] 13:01:09 fail a25550 a0 nvidia - minimaxai/minimax-m2.7 lat=90005ms err="The operation was aborted (nvidia, chat, 90s)"'],
        'context': 'It seems the previous fix might have addressed other providers or timeouts, but the NVIDIA NIM provider still has a hardcoded 90-second stall/inactivity limit (90000ms).',
    },
    log=[('log', 0), ('log', 1)],
    observe={'input_len_mean': (100000, 'around 100k+ input tokens')},
    args_model='deepseek-ai/deepseek-v4-pro',
    notes='the two proxy log lines the reporter pasted are the log; the ~100k-token context is input_len_mean',
    leak="The title and the reporter's reading (hard-coded 90 s NIM stall limit in the proxy) are left out; the proxy log names the stall itself.",
    hard=None))

I.append(dict(
    src='https://github.com/huggingface/tgi-gaudi/issues/148', thread_type='issue',
    engine='TGI-Gaudi 2.0.0 with the examples/run_generation.py benchmark client', engine_version='tgi-gaudi 2.0.0', gpu='Intel Gaudi (HPU)', model='meta-llama/Llama-2-7b-hf',
    symptom='throughput_low', layer='gateway_client',
    root_cause=('The benchmark client computed throughput from the responses with an incompatible huggingface_hub version in the client '
                'environment, so it printed 0.0 tokens/s and 0.0 queries/s although the server was generating (output token latency ~14 ms).'),
    fix='Install the huggingface_hub version the example script expects in the client environment.',
    confidence='maintainer_explained',
    evidence={
        'title': 'TGI Performance script run_generation.py missing Throughput Info',
        'env': ['Ubuntu 22.04', 'ghcr.io/huggingface/tgi-gaudi   2.0.0'],
        'cmd': '`python run_generation.py --model_id meta-llama/Llama-2-7b-hf --max_concurrent_requests 50 --max_input_length 200 --max_output_length 200 --total_sample_count 200`',
        'output': ['Throughput: 0.0 tokens/s', 'Throughput: 0.0 queries/s', 'First token latency:', '\tMedian: \t18783.24ms', '\tAverage: \t16835.90ms',
                   'Output token latency:', '\tMedian: \t14.22ms', '\tAverage: \t15.22ms'],
        'overloaded': 'btw, if not specify ',
        'error': '`Thread failed with error: Model is overloaded`',
        'maintainer': '@jingkang99 I think I know what is the issue in your case -- please check what version of `huggingface_hub` you have installed in your env. The',
    },
    log=[('output', 0), ('output', 1)],
    engine_args='python run_generation.py --model_id meta-llama/Llama-2-7b-hf --max_concurrent_requests 50 --max_input_length 200 --max_output_length 200 --total_sample_count 200',
    observe={'output_tokens_per_s': (0.0, 'Throughput: 0.0 tokens/s'), 'ttft_p50_s': (18.78324, '18783.24ms'), 'tpot_p50_s': (0.01422, '14.22ms')},
    args_model='meta-llama/Llama-2-7b-hf',
    args_gpu='Gaudi',
    notes=('the two throughput lines of the client summary are the log; its throughput, median first-token and output-token latencies are '
           'output_tokens_per_s, ttft_p50_s and tpot_p50_s (ms -> s); engine_args is the benchmark command; the separate "Model is overloaded" '
           'error without --max_concurrent_requests is kept out'),
    leak="The maintainer's pointer (the huggingface_hub version in the client environment) is left out.",
    hard='The inputs show a 0.0 throughput next to normal latencies; that the client library version breaks the computation is not in them.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261207, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
