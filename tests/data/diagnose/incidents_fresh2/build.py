#!/usr/bin/env python3
"""Build the second out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the first fresh batch (tests/data/diagnose/incidents_fresh).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks dropped; a few long
lines cut to a verbatim prefix/substring). Log lines and output samples are taken from
the evidence, so check.py can verify they are verbatim substrings of it.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# ---------------------------------------------------------------------------------------------
# One dict per incident. Keys:
#   src, thread_type, engine, engine_version, gpu, model (metadata for incidents.jsonl)
#   symptom (class or 'other'), layer, root_cause, fix, confidence
#   evidence: {name: verbatim string or list of verbatim strings}
#   log, outputs: lists of (evidence_key, index or None) or literal verbatim strings
#   engine_args, args_model, args_gpu: what goes into args.json (as typed in the thread)
#   observe: {VOCAB name: (value, source snippet that occurs in the evidence)}
#   notes (input_notes), leak (leak_check), hard (reason string or None)
# ---------------------------------------------------------------------------------------------
I = []

I.append(dict(
    src='https://github.com/dstackai/dstack/issues/4269', thread_type='issue',
    engine='dstack gateway (nginx) in front of vLLM/SGLang services', engine_version=None, gpu=None, model=None,
    symptom='ttft_spike', layer='gateway_client',
    root_cause=("The dstack gateway's nginx service location kept nginx's default response buffering, so streamed SSE "
                'from a model service was held until about 16 KB had accumulated (or the response ended); first-token '
                'latency through the gateway became ~16.5 s against 0.5 s direct.'),
    fix="Render `proxy_buffering off;` for model services in the gateway's nginx config (PR #4271).",
    confidence='maintainer_explained',
    evidence={
        'setup': '1. Deploy a vLLM or SGLang service behind a gateway with `https` enabled and a `model` configured.',
        'behaviour': 'Through the gateway the response does not stream. Nothing arrives, not even the response headers, until about 16 KB of SSE has accumulated, roughly 65 OpenAI-format chunks. Shorter responses arrive all at once when generation finishes. Directly against the replica, chunks arrive as they are generated.',
        'measurements': ['- Direct: TTFT 0.5 s, one chunk per read.',
                         '- Gateway, 60 tokens: TTFT 16.5 s, the whole response in one read at the end.',
                         '- Gateway, 200 tokens: TTFT 17.5 s, then bursts of 64 to 66 chunks every 16.5 s.'],
        'fix_pr': 'Pass the property into the Nginx service configuration and render `proxy_buffering off;` in the named service location that forwards regular HTTP requests to replicas.',
    },
    observe={'ttft_p50_s': (16.5, 'TTFT 16.5 s')},
    notes='measured by the reporter with a mock OpenAI-compatible service behind the gateway (one chunk every 250 ms); only the through-gateway TTFT is passed; the direct 0.5 s is the comparison, not an input',
    leak="The issue title (which names gateway buffering), the direct-vs-gateway comparison and the proxy_buffering fix are left out; only the gateway TTFT goes in.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/router/issues/179', thread_type='issue',
    engine='vLLM router (cache_aware policy) in front of 8 vLLM engines', engine_version=None, gpu=None, model=None,
    symptom='runtime_oom_or_preemption', layer='gateway_client',
    root_cause=("Requests on non-typed routes such as /inference/v1/generate go through the router's transparent-proxy "
                'path, which never increments or decrements worker load, so the cache_aware policy saw every worker at '
                'load 0, never rebalanced, and sent all prefix-sharing requests to one engine until its KV cache ran out.'),
    fix='Track worker load in route_transparent as route_typed_request does (or use a typed route / another policy).',
    confidence='confirmed_by_reporter',
    evidence={
        'observed': "In an 8-engine deployment we observed one engine serving 100% of requests (480 concurrent) while 7 were idle, and the lone engine eventually OOM'd its KV cache.",
        'route': 'This affects any endpoint that is not a first-class typed route and therefore falls through to the transparent proxy — e.g. `/inference/v1/generate` (used by SLIME/vime-style RL rollout).',
        'summary': 'Requests served through the **transparent proxy** path (`route_transparent`, `src/routers/http/router.rs`) are routed by the configured load-balancing policy but the path **never calls `increment_load` / `decrement_load`**.',
    },
    observe={'running': (480, '(480 concurrent)')},
    notes='the 480 concurrent requests were all on the one engine that ran out of KV cache; that the other 7 engines were idle is not passed (no vocabulary name)',
    leak="The code analysis (route_transparent never tracks load, cache_aware sees load 0) is left out; only the concurrency on the failing engine goes in.",
    hard='Only one engine-side concurrency number is given; the idle peers and the router path that caused the concentration are not in the inputs.'))

I.append(dict(
    src='https://github.com/triton-inference-server/tensorrtllm_backend/issues/640', thread_type='issue',
    engine='Triton + TensorRT-LLM backend (inflight_batcher_llm ensemble)', engine_version='v0.14.0 model repo', gpu='A100', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=("The ensemble's Python postprocessing model (v0.13+) evaluates len(self.tokenizer.vocab) on every execute() "
                'call, about 40 ms of host-CPU work per call, so in streaming mode each token waits on CPU-side '
                'detokenisation and tokens reach the client in slow bursts (the problem reported in #622).'),
    fix='Use tokenizer.vocab_size / cache the vocab size in postprocessing/1/model.py (#622).',
    confidence='confirmed_by_reporter',
    evidence={
        'request': 'curl -X POST my_ip:8000/v2/models/ensemble/generate_stream -d \'{"text_input": "hello", "max_tokens":250, "temperature":0.00001, "top_p":0.95, "top_k":1, "repetition_penalty":1.2, "stream":true, "end_id":128009, "random_seed":1}\'',
        'symptom': 'But the stream is not received smoothly. For example, 100 tokens are received at once every 3 seconds.',
        'workaround': 'if i remove dynamic_batching in:',
        'resolution': 'I solved my problem with #622',
        'cause_622': 'After investigating, I found that the root cause of the issue lies within the **postprocessing model** in the `ensemble`, which is implemented in Python. Specifically, there is a performance bottleneck when calculating the tokenizer\'s vocabulary size on every `execute()` call.',
    },
    engine_args='curl -X POST my_ip:8000/v2/models/ensemble/generate_stream -d \'{"text_input": "hello", "max_tokens":250, "temperature":0.00001, "top_p":0.95, "top_k":1, "repetition_penalty":1.2, "stream":true, "end_id":128009, "random_seed":1}\'',
    notes="engine_args holds the reporter's streaming request (the only command in the thread); '100 tokens are received at once every 3 seconds' has no vocabulary name and stays in notes",
    leak="The partial workaround (removing dynamic_batching from the postprocessing config) and the pointer to #622's root cause are left out.",
    hard='The only machine-readable input is the request; the decisive fact (a CPU-side Python postprocessing step per streamed token) is not visible, and it could also be read as an engine-version regression.'))

I.append(dict(
    src='https://github.com/haohervchb/sglang-V100/pull/2', thread_type='pr',
    engine='SGLang (V100 fork)', engine_version=None, gpu='4x V100 SXM2 32 GB (PCIe PLX switch, no NVLink)', model='Qwen3.8 Flash Next',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The four V100s share one PCIe switch with no NVLink, so SGLang rejects its custom all-reduce for more '
                'than two PCIe-only GPUs and every tensor-parallel all-reduce goes through NCCL at ~20 us each, about '
                '100 times per token, which accounts for most of the gap to the expected decode speed.'),
    fix='Opt-in SGLANG_CUSTOM_AR_ALLOW_PCIE=1 to use the one-shot push custom all-reduce over PCIe P2P (this PR).',
    confidence='plausible',
    evidence={
        'topology': 'Our four V100 SXM2 32 GB sit behind one PCIe (PLX) switch: P2P works at PCIe line rate but there is no NVLink.',
        'numbers': 'which is most of the gap between the README numbers and what we measured (92-97 tok/s with MTP instead of 117).',
        'analysis': 'Inside the decode CUDA graph that costs about 20 us per all-reduce, ~100 times per token,',
        'rejection': '("not supported on more than two PCIe-only GPUs")',
    },
    observe={'output_tokens_per_s': (92, '92-97 tok/s'), 'expected_output_tokens_per_s': (117, 'instead of 117')},
    args_gpu='V100 SXM2 32 GB',
    notes='the lower end of the measured 92-97 tok/s range is passed; expected rate is the fork README figure the author compares against; the 4-GPU PCIe topology is prose (GPU count not in args)',
    leak="The custom-all-reduce rejection message and the NCCL per-all-reduce cost analysis are left out; only the measured and expected decode rates go in.",
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/246', thread_type='issue',
    engine='LMDeploy (PyTorch chat path vs TurboMind)', engine_version='Aug 2023', gpu=None, model='llama-2-7b-chat-hf (AWQ 4-bit)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=("The AWQ 4-bit weights produced by lmdeploy's calibrate/auto_awq were run through the "
                'lmdeploy.pytorch.chat path, which did not handle that quantized format, so output was token salad; the '
                'same weights converted to the TurboMind format answered correctly.'),
    fix='Convert the quantized model to TurboMind format and serve it with TurboMind.',
    confidence='confirmed_by_reporter',
    evidence={
        'steps': ['1. python3 -m lmdeploy.lite.apis.calibrate \\', '2. python3 -m lmdeploy.lite.apis.auto_awq \\'],
        'command': 'and then use this command to infer: `python -m lmdeploy.pytorch.chat`. But the output returned looks like it turned out wrong . Here is the result:',
        'output': ['double enter to end input >>> hi',
                   '雄isceisceieur regimentglegleњ regiment方quergle雄雄gle雄 snapshotgleHLquer Kop方 propag雄雄雄listener propagglegle BegriffeHLraste okres regiment февра雄HL雄gle雄雄њayerOutlet雄雄雄雄рез雄雄onyme雄雄attanattan雄雄雄雄 regimentOutlet雄雄雄雄gleonymeraste雄рез雄isceraste Kop雄雄雄雄 Einzelnach雄gle✓男glerasteseaugleopsis✓雄雄ieur Prima ]]isce方雄њ雄seauрез雄雄雄雄雄rasteisce✓isce雄雄雄雄雄 regiment雄雄雄'],
        'model': 'model: `llama-2-7b-chat-hf`',
        'reporter': "It's fine as expected after converting to `turbomind` format, but it is not ok if using `pytorch.cha",
    },
    log=[('output', 0)],
    outputs=[('output', 1)],
    engine_args='python -m lmdeploy.pytorch.chat',
    notes='the chat prompt line is passed as a console log line and the garbled reply as the output sample; the quantisation steps (calibrate, auto_awq) are prose',
    leak="The maintainer's pointer to the pre-quantized hub model and the reporter's finding that the TurboMind-converted model is fine are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/34623', thread_type='pr',
    engine='SGLang (production fleet)', engine_version=None, gpu=None, model='DeepSeek-V4-Flash',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=("SGLang's PrefillAdder lets at most one request be mid-chunked-prefill at a time, so a 458K-token prompt "
                'held the prefill slot for ~112 consecutive scheduler rounds and every queued request, however small, '
                'waited behind it; TTFT p99 rose to 12-14 s with spikes to 27.7 s. Tuning chunk or prefill budgets does '
                'not change the one-at-a-time rule.'),
    fix='Allow several requests to be mid-prefill concurrently (--long-prefill-token-threshold, this PR).',
    confidence='confirmed_by_reporter',
    evidence={
        'config': '- **DeepSeek-V4-Flash** (`chunked_prefill_size=4096`): 458K-token prompts ⇒ ~112 consecutive scheduler rounds in which no other request can prefill. Rolling TTFT p99 of 12–14 s, spiking to 27.7 s.',
        'kimi': '- **Kimi-K3** (`chunked_prefill_size=8192`): with 642K–912K-token prompts in flight, **10.35% of requests exceeded 60 s TTFT**, vs 0.23–0.56% in adjacent hours without long prompts. p50 was unaffected — a pure tail/QoS failure.',
        'cause': 'SGLang can have at most **one** request mid-prefill at a time. A long prompt therefore monopolizes the prefill batch for its entire prefill, and every queued request — however small, however long it has waited — waits it out.',
        'not_tuning': '**This is a missing mechanism, not a tuning gap.**',
    },
    engine_args='chunked_prefill_size=4096',
    observe={'ttft_p99_s': (27.7, 'spiking to 27.7 s'), 'input_len_p99': (458000, '458K-token prompts')},
    notes='the DeepSeek-V4-Flash deployment is used (the Kimi-K3 one is a second instance of the same failure); engine_args is the chunk setting as the author wrote it; 458K is the long-prompt size, passed as input_len_p99',
    leak="The PR's mechanism statement (one request mid-prefill at a time), the '~112 rounds in which no other request can prefill' reading and the PrefillAdder experiment are left out.",
    hard='Sits between load (rare 458K-token prompts) and scheduling (one-at-a-time chunked prefill); the inputs show long prompts and a TTFT tail, which also fit a pure load reading.'))

I.append(dict(
    src='https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/119', thread_type='issue',
    engine='vLLM (GLM-5.3-Flash EXL3 recipe, 2x DGX Spark)', engine_version=None, gpu='2x GB10', model='GLM-5.3-Flash EXL3',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=("The recipe's default admission gate GLM53_MIXED_PREFILL_CHUNK=skip refuses to mix a new prefill into a "
                'step that has running decodes, so a request arriving while another stream decodes is deferred until '
                'that decode finishes: a 9.5k-token prompt arriving 2 s into a 1500-token decode waited 67-71 s for its '
                'first token.'),
    fix='Change the mixed-prefill policy so newcomers are admitted alongside running decodes.',
    confidence='confirmed_by_reporter',
    evidence={
        'summary': 'With the recipe default `GLM53_MIXED_PREFILL_CHUNK=skip`, a request that arrives while another stream is decoding is **Deferred until that decode finishes** — for a 9.5k-token prompt arriving 2 s into a 1500-token decode that is a **67–71 s TTFT** (the decode\'s remaining ~60 s plus its own prefill), reproduced across 4 boots.',
        'probe': 'Probe: a 1500-token prose decode is running; a 9.5k-token request arrives 2 s later, then a 38k request. Winner-config pair (0.78 / 262144 / rightsize / MNBT 2048), DFlash2 k=7, median of 3.',
    },
    engine_args='GLM53_MIXED_PREFILL_CHUNK=skip',
    observe={'ttft_p50_s': (67, '67–71 s TTFT'), 'input_len_mean': (9500, '9.5k-token request'), 'running': (1, 'a 1500-token prose decode is running')},
    notes='engine_args is the recipe default env var the reporter names (it is the configured admission gate, visible to the operator); TTFT is the low end of the measured 67-71 s; one running decode at arrival',
    leak="The reporter's explanation that the newcomer is Deferred until the running decode finishes, and the A/B table over GLM53_MIXED_PREFILL_CHUNK values, are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/9054', thread_type='issue',
    engine='Ollama (macOS, M3 Pro)', engine_version=None, gpu='Apple M3 Pro', model=None,
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The server ran with OLLAMA_NUM_PARALLEL=1, so Ollama kept a single slot for the loaded model and '
                'served concurrent chat requests one after another instead of batching them; more clients only '
                'lengthened the queue.'),
    fix='Raise OLLAMA_NUM_PARALLEL (Ollama never loads a second copy of the same model).',
    confidence='maintainer_explained',
    evidence={
        'log': ['[GIN] 2025/05/09 - 15:14:30 | 200 |  6.674368042s |       127.0.0.1 | POST     "/api/chat"',
                '[GIN] 2025/05/09 - 15:14:37 | 200 |  6.598018125s |       127.0.0.1 | POST     "/api/chat"',
                '[GIN] 2025/05/09 - 15:14:41 | 200 |     4.321513s |       127.0.0.1 | POST     "/api/chat"'],
        'maintainer': 'From the log we see that queries are processed sequentially, because `OLLAMA_NUM_PARALLEL=1`.  If you increase this, ollama will do concurrent processing, up to the number you specify.',
        'title': 'Ollama Does Not Utilize Multiple Instances of the Same Model for Parallel Processing',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    notes='the GIN request lines are the server log quoted in the triager\'s reply; no flags were given by the reporter (OLLAMA_NUM_PARALLEL was at its value of 1)',
    leak="The reply naming OLLAMA_NUM_PARALLEL=1 and the parallelism test script are left out; only the server's request log lines go in.",
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/192', thread_type='issue',
    engine='LMDeploy (TurboMind, triton_models workspace)', engine_version='Aug 2023', gpu='A800', model='internlm-7b-chat',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=("The converted TurboMind workspace kept the max_batch_size from its config.ini, below the benchmark's 64 "
                'concurrent requests, so the rest queued (first-token latency ~11 s), throughput stayed near 1,470 '
                'token/s and only ~50 GB of the A800 was used.'),
    fix='Raise max_batch_size (and cache_max_entry_count) in workspace/triton_models/weights/config.ini.',
    confidence='plausible',
    evidence={
        'report': 'I run the benchmark on a800,but only get 1500token/second output .the gpu-mem is only use 50GB. I think the max_batch_size could be much larger. so how to change the max_batch_size?',
        'log': ['concurrency: 64, input_tokens: 512, output_tokens: 256',
                'elapsed_time: 114.18s',
                'first_token latency(min, max, ave): 5.57s, 11.93s, 11.12s',
                'token latency(min, max, ave): 5.57s, 11.93s, 11.12s',
                'throughput: 1467.354469605604 token/s'],
        'model': 'run interlm-7b-chat model',
        'maintainer': '`max_batch_size` is configured in `workspace/triton_models/weights/config.ini`',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4)],
    observe={'output_tokens_per_s': (1467.35, 'throughput: 1467.354469605604 token/s'),
             'running': (64, 'concurrency: 64'),
             'ttft_p50_s': (11.12, '11.93s, 11.12s'),
             'input_len_mean': (512, 'input_tokens: 512'),
             'output_len_mean': (256, 'output_tokens: 256'),
             'gpu_mem_used_gib': (50, 'the gpu-mem is only use 50GB')},
    notes='benchmark printout as log lines; client concurrency mapped to running; the average first-token latency is passed as ttft_p50_s; 50GB read as GiB; model name as written in the thread (interlm = internlm)',
    args_model='internlm-7b-chat',
    leak="The reporter's guess that max_batch_size is too small and the maintainer's pointer to config.ini are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/12360', thread_type='issue',
    engine='Ollama (macOS, Metal)', engine_version='0.12.0', gpu='Apple M4 Pro', model='gemma3:12b-it-qat',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=("Google's official Gemma 3 QAT weights specify a wrong RoPE scaling factor, and an Ollama 0.12.0 change "
                'started reading that value, so QAT Gemma 3 models produced incoherent text; non-QAT weights were fine '
                'and 0.12.1 restored the correct scaling.'),
    fix='Upgrade to Ollama 0.12.1 (or use non-QAT Gemma 3 weights).',
    confidence='maintainer_explained',
    evidence={
        'report': 'With the latest Ollama v0.12.0, it appears that Gemma 3 outputs gibberish. I\'m on M4 Pro Mac mini.',
        'console': ['>> ollama run gemma3:12b-it-qat ', '>>> hi', "Hi, I'm3", 'Hi there! How are you do you do you doing?',
                    'end_of_turn_of_of_turn>', "I'm doing_I I'm"],
        'before': 'Last week or so, I was using `gemma3:12b-it-qat` and everything worked fine. ',
        'maintainer': 'Sorry guys. The problem happened because the official QAT weights from Google specified the wrong rope scaling factor, and we made a change which picked up that value. The fix has been merged and will be available in `0.12.1`. The non-QAT weights are working as a work-around.',
    },
    log=[('console', 1)],
    outputs=[('console', 2), ('console', 3), ('console', 4), ('console', 5)],
    engine_args='ollama run gemma3:12b-it-qat',
    notes='the interactive prompt line is the log line and four lines of the reply are the output samples; Ollama version 0.12.0 is in the report (not an args field)',
    leak="The maintainer's explanation (wrong rope scaling in the QAT weights picked up by a 0.12.0 change) and the fix version are left out; the 'worked last week' remark is not an input.",
    hard='The inputs show garbled output and a model name only; that the server upgrade (not the prompt, template or KV settings) is the trigger is not visible.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/27126', thread_type='issue',
    engine='llama.cpp llama-server (CPU-only)', engine_version='b10429 (77918caf3)', gpu=None,
    model='NVIDIA-Nemotron-3.5-Lightning-30B-A3B-UD-Q4_K_XL.gguf', symptom='tpot_high', layer='operator_hardware',
    root_cause=('Build b10429 (PR #27041, letting /metrics and /slots be served during llama_decode) moved llama_decode '
                'onto a yield_to_queue worker thread; on this 48-thread, numactl-pinned CPU-only server that change of '
                'execution thread cut CPU token generation 10-15x. The later thread-model redesign (#27133) restored it.'),
    fix='Use a build with #27133 (re-designed yield_to_queue thread model) or stay on b10428.',
    confidence='plausible',
    evidence={
        'env': ['LLAMA_ARG_CPU_MOE=enabled', 'LLAMA_ARG_PARALLEL=1', 'LLAMA_ARG_N_GPU_LAYERS=0', 'LLAMA_ARG_THREADS=48',
                'LLAMA_ARG_NUMA=numactl', 'LLAMA_ARG_FLASH_ATTN=on', 'LLAMA_ARG_BATCH_SIZE=512'],
        'cmd': './llama-server -m ../models/unsloth-Nemotron-3.5-Lightning-30B-A3B/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-UD-Q4_K_XL.gguf -lv 9',
        'title': 'Misc. bug: Severe generation speed regression (~10-15×) on CPU starting from b10429 (all models)',
        'version': 'version: 0.1.0-dev (build 10429, commit 77918caf3)',
        'later_analysis_pr27062': 'Our tests led us to the execution model introduced by commit 77918caf3. In that state, llama_decode() is executed through the yield_to_queue worker thread.',
    },
    log=[('version', None)],
    engine_args='LLAMA_ARG_CPU_MOE=enabled LLAMA_ARG_PARALLEL=1 LLAMA_ARG_N_GPU_LAYERS=0 LLAMA_ARG_THREADS=48 LLAMA_ARG_NUMA=numactl LLAMA_ARG_FLASH_ATTN=on LLAMA_ARG_BATCH_SIZE=512 ./llama-server -m ../models/unsloth-Nemotron-3.5-Lightning-30B-A3B/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-UD-Q4_K_XL.gguf -lv 9',
    notes='engine_args joins seven of the reporter\'s LLAMA_ARG_* environment lines (verbatim each) with the server command; the version line is the log; the thread excerpt gives no absolute tokens/s, only the 10-15x factor in the title',
    leak="The bisection to PR #27041 and the yield_to_queue analysis (from the llama.cpp PR #27062 discussion) are left out; the title's speed factor is not passed.",
    hard='No rate is passed and the decisive fact (decode moved to another thread in that build) is not in the inputs; only the CPU-only NUMA/thread configuration hints at a CPU path.'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/439', thread_type='issue',
    engine='TGI (text-generation-launcher)', engine_version='commit abd58ff8 (Jun 2023)', gpu='A100-SXM 80GB', model=None,
    symptom='other', layer='scheduling_capacity',
    root_cause=("TGI's router admits at most --max-concurrent-requests (default 128) requests and refuses the rest with "
                "'Model is overloaded' as deliberate back-pressure, so a client firing 500 requests at once had most of "
                'them rejected instead of queued.'),
    fix='Raise --max-concurrent-requests (or shard/scale out, or limit client concurrency).',
    confidence='maintainer_explained',
    evidence={
        'title': 'How to solve "Model is overloaded" when sending 500 requests?',
        'system': '   |   0  NVIDIA A100-SXM...  On   | 00000000:10:00.0 Off |                  Off |',
        'maintainer': 'This is working as intended, this mechanism is called preventing backpressure.',
        'maintainer_2': 'You can change `--max-concurrent-requests` if you want to increase that setting for you (Making it arbitrarily large will give the behavior you want, although I wouldn\'t recommend it in production settings).',
        'doc_default': "- `MAX_CONCURRENT_REQUESTS` - The maximum amount of concurrent requests for this particular deployment. Having a low limit will refuse clients requests instead of having them wait for too long and is usually good to handle backpressure correctly. Default: 128",
    },
    log=['Model is overloaded'],
    observe={'running': (500, 'when sending 500 requests')},
    notes="the error string the client received (quoted in the issue title) is the log line; the 500 simultaneous client requests are mapped to running; no launcher flags were given; the Default: 128 figure is from TGI's launcher docs (PR #872), not an input",
    leak="Narsil's back-pressure explanation and the --max-concurrent-requests advice are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/issues/16827', thread_type='issue',
    engine='TensorRT-LLM trtllm-serve (PyTorch backend)', engine_version='1.2.1', gpu='H200', model='Llama-3.3-70B-FP8',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=("With capacity_scheduler_policy MAX_UTILIZATION the scheduler admits requests whose KV working set "
                'exceeds the KV-cache pool and then pauses/evicts them; under a 16k-token, concurrency-32 workload this '
                'churn raised TPOT p99 ~9x and cut output throughput ~41% versus the default GUARANTEED_NO_EVICT, '
                'while short-context runs were unaffected.'),
    fix='Use the default GUARANTEED_NO_EVICT policy (or keep the KV working set within the pool).',
    confidence='confirmed_by_reporter',
    evidence={
        'sweep': "we swept `scheduler_config.capacity_scheduler_policy` on TensorRT-LLM 1.2.1 (PyTorch backend, `trtllm-serve`) and found that switching from the default `GUARANTEED_NO_EVICT` to `MAX_UTILIZATION` causes a severe performance drop — but **only when the workload's KV working set exceeds the KV-cache pool**:",
        'numbers': '- Under KV pressure (long-context workload, details below): output-token throughput **161.0 → 95.7 tok/s (−40.6%)**, TPOT p99 **122 → 1,111 ms (~9.1×)**, end-to-end p99 **150 → 563 s**.',
        'workload': '- **W-C (KV-pressure arm):** 128 requests, each exactly **16,384 input tokens and up to 512 output tokens** (`ignore_eos` on), **closed-loop concurrency 32**, greedy `temperature=0`, streaming `/v1/completions`,',
        'off_pressure': '- Off pressure (short-context workload, same server config, not pool-bound): the two policies are equivalent within noise — mean output-token throughput 574.7 vs 576.1 tok/s (+0.24%).',
    },
    engine_args='scheduler_config.capacity_scheduler_policy: MAX_UTILIZATION',
    observe={'tpot_p99_s': (1.111, '1,111 ms'), 'output_tokens_per_s': (95.7, '95.7 tok/s'), 'e2e_p99_s': (563, '563 s'),
             'input_len_mean': (16384, '16,384 input tokens'), 'output_len_mean': (512, 'up to 512 output tokens'),
             'running': (32, 'closed-loop concurrency 32')},
    notes='engine_args is the extra_llm_api_options setting of the slow arm, written in the reporter\'s dotted form; only the MAX_UTILIZATION-arm readings are passed (the GUARANTEED_NO_EVICT figures are the after-fix comparison); ms converted to s',
    leak="The GUARANTEED_NO_EVICT comparison numbers, the short-context control and the reporter's framing (drop only when the KV working set exceeds the pool) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/huggingface/llm-vscode/issues/94', thread_type='issue',
    engine='TGI-compatible endpoint behind the llm-vscode extension', engine_version=None, gpu=None, model=None,
    symptom='other', layer='load',
    root_cause=("The extension's context-window setting was about 8096 tokens while the served model accepts 2048 in total, "
                "so completion requests carried 3474-token prompts plus 60 new tokens and the server's input validation "
                'rejected every one.'),
    fix='Set the extension context window to the model window minus max_new_tokens (e.g. 2048 - 60).',
    confidence='maintainer_explained',
    evidence={
        'error': 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 2048. Given: 3474 `inputs` tokens and 60 `max_new_tokens`',
        'report': 'Keep getting this error message when the `llm-vscode` extension is running.',
        'reporter': 'I set the context window to 8096 or something like that... I guess I have to set to smaller amount - like `2048` or should I set it to `2048-60`?',
        'maintainer': 'It depends on the model, check the context window of the model. But yes generally it should be set to `context_window - max_new_tokens`',
    },
    log=[('error', None)],
    observe={'input_len_mean': (3474, '3474 `inputs` tokens'), 'output_len_mean': (60, '60 `max_new_tokens`')},
    notes="the server's validation error (as shown by the extension) is the log; prompt size and max_new_tokens are read from it; the requested max_new_tokens is passed as output_len_mean",
    leak="The reporter's 8096 context-window setting (given only after the maintainer asked) and the maintainer's sizing rule are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/nlzy/vllm-gfx906/issues/11', thread_type='issue',
    engine='vLLM (gfx906 / ROCm fork, V1)', engine_version=None, gpu='8x AMD MI50 (gfx906)', model='gemma-3-27b-it-int4-awq',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=("On ROCm gfx906 this vLLM build had no sliding-window-attention support for Gemma 3, so the model ran on a "
                'slow attention path and decoded at ~12 tok/s even with TP8; once the V1 Triton attention kernel handled '
                'sliding windows (after v0.10.1) the same GPUs gave ~25 tok/s at TP2.'),
    fix='Update to a build whose V1 Triton attention kernel supports sliding-window attention on gfx906.',
    confidence='maintainer_explained',
    evidence={
        'command': "Running: VLLM_USE_V1=1 VLLM_USE_TRITON_FLASH_ATTN=0 vllm serve '/home/eddie/models/gemma-3-27b-it-int4-awq'  --max_model_len 100000 --tensor-parallel-size 8 --gpu_memory_utilization 0.95 --quantization awq --dtype float16",
        'symptom': 'But getting 12 t/s with short context. ',
        'maintainer': 'Gemma 3 not work on ROCm, due to lack of Sliding Window Attention support.',
        'maintainer_later': 'Triton attention kernel in V1 should work well with Sliding Window Attention after v0.10.1.',
        'other_user': 'I am getting 32 t/s for gemma-3-27b-it-int4-awq with 2xMI50.',
    },
    engine_args="VLLM_USE_V1=1 VLLM_USE_TRITON_FLASH_ATTN=0 vllm serve '/home/eddie/models/gemma-3-27b-it-int4-awq'  --max_model_len 100000 --tensor-parallel-size 8 --gpu_memory_utilization 0.95 --quantization awq --dtype float16",
    observe={'output_tokens_per_s': (12, 'getting 12 t/s')},
    args_gpu='AMD MI50',
    notes='engine_args is the reporter\'s launch line without the leading "Running: "; GPU model inferred only from the fork (gfx906 = MI50/MI60) and the follow-up comments, TP8 is in the flags; another user\'s 32 t/s on 2xMI50 with a newer build is an after-fix figure and is not passed',
    leak="The maintainer's sliding-window-attention explanation, the later kernel fix and the other user's faster result are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/4759', thread_type='issue',
    engine='SGLang (EAGLE/NEXTN speculative decoding)', engine_version='Mar 2025', gpu='8 GPUs (TP8)', model='DeepSeek-R1-671B',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('Turning on speculative decoding made SGLang (at that version) default --max-running-requests to 32 '
                '(and disable radix cache / overlap scheduling), so only 32 requests decoded at once while 68 waited '
                'with the KV pool almost empty, and overall throughput fell from 1039 to 321 tok/s.'),
    fix='Set --max-running-requests explicitly (larger) when using speculative decoding, or run without it for throughput-oriented load.',
    confidence='plausible',
    evidence={
        'summary': 'When speculative sampling is not used, the throughput is 1039. However, after using speculative sampling, the throughput drops to 321.',
        'baseline_cmd': '`python3 -m sglang.launch_server --model-path /data/models/DeepSeek-R1-671B/ --trust-remote-code --tensor-parallel-size 8 --mem-fraction-static 0.9 --context-length 4096 --max-total-tokens 524288 --max-prefill-tokens 8192 --disable-cuda-graph`',
        'log': ['[2025-03-24 02:56:26 TP0] Prefill batch. #new-seq: 30, #new-token: 3810, #cached-token: 60, token usage: 0.00, #running-req: 2, #queue-req: 68, ',
                '[2025-03-24 02:56:41 TP0] Decode batch. #running-req: 32, #token: 7352, token usage: 0.01, accept len: 2.54, gen throughput (token/s): 39.33, largest-len: 0, #queue-req: 68, ',
                '[2025-03-24 02:56:43 TP0] Prefill batch. #new-seq: 2, #new-token: 253, #cached-token: 5, token usage: 0.01, #running-req: 30, #queue-req: 66, '],
        'pr3986_code': '+            if self.max_running_requests is None:',
        'pr3986_review': 'This setting may affect throughput, especially for throughput oriented model like DeepSeek. I tried request rate 16 on ShareGPT datasets, the TTFT is higher and throughput is lower with this limit.',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='python3 -m sglang.launch_server --model-path /data/models/DeepSeek-R1-671B/ --trust-remote-code --tensor-parallel-size 8 --mem-fraction-static 0.9 --context-length 4096 --max-total-tokens 524288 --max-prefill-tokens 8192 --disable-cuda-graph',
    observe={'output_tokens_per_s': (321, 'the throughput drops to 321'), 'expected_output_tokens_per_s': (1039, 'the throughput is 1039'),
             'running': (32, '#running-req: 32'), 'waiting': (68, '#queue-req: 68'), 'kv_usage': (0.01, 'token usage: 0.01')},
    args_gpu=None,
    notes='engine_args is the launch line the reporter shows (the speculative flags added on top are not quoted in the excerpt); the scheduler lines are from the speculative run (accept len is printed); expected rate is the same deployment without speculative decoding',
    leak="The default max_running_requests=32 for EAGLE (visible only in sglang PR #3986's diff and review) is left out.",
    hard='The speculative flags themselves are not in engine_args; the 32-request cap is visible only as #running-req: 32 against a near-empty KV pool.'))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/pull/1385', thread_type='pr',
    engine='Triton + TensorRT-LLM (llama convert_checkpoint, ensemble)', engine_version='Apr 2024', gpu=None, model='deepseek-coder-6.7b-base',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=("The engine was built with convert_checkpoint.py arguments given on the command line, which dropped the "
                "model's rope_scaling (linear, factor 4), so RoPE positions were wrong and generation degenerated into "
                'repeated tokens.'),
    fix='Carry rope_scaling into the converted checkpoint (later TRT-LLM reads it from the HF config.json automatically).',
    confidence='maintainer_explained',
    evidence={
        'context': 'In the convert_checkpoint.py of llama, if we define the args with command, the rotary_scaling param can not be missed in some situations, so rotary_scaling param should be added to avoid the special situations.',
        'model': 'For example, [deepseek-coder-6.7b-base](https://huggingface.co/deepseek-ai/deepseek-coder-6.7b-base), it needs the rotary_scaling param. ',
        'request': 'curl -X POST localhost:8620/v2/models/ensemble/generate -d \'{"text_input": "def quick_sort", "max_tokens": 10, "bad_words": "", "stop_words": "", "stream": true, "temperature": 0.2, "return_log_probs": true, "top_p": 0.75, "end_id": [32022]}\'',
        'output': '"text_output":"sortsortsortsortsortsortsortsortsortsort"',
        'maintainer': 'Now, the latest code logic will read the rope_scaling field from hf config.json automatically',
    },
    outputs=['sortsortsortsortsortsortsortsortsortsort'],
    engine_args='curl -X POST localhost:8620/v2/models/ensemble/generate -d \'{"text_input": "def quick_sort", "max_tokens": 10, "bad_words": "", "stop_words": "", "stream": true, "temperature": 0.2, "return_log_probs": true, "top_p": 0.75, "end_id": [32022]}\'',
    notes='engine_args holds the request that produced the output (no build command is quoted); the output sample is the text_output value',
    leak="The PR's statement that rotary_scaling was missing from the converted checkpoint and the maintainer's note about reading rope_scaling automatically are left out.",
    hard='Only a request and a repeated-token output are given; the checkpoint conversion step that lost rope_scaling is not in the inputs.'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/pull/1214', thread_type='pr',
    engine='TGI', engine_version='Oct 2023', gpu=None, model='IDEFICS 80b',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('TGI loaded IDEFICS in float16, whose range the 80b model overflows, so every generated token was <unk> '
                'and the API returned empty text; forcing bfloat16 restores normal output.'),
    fix='Load IDEFICS in bfloat16 (this PR), or pass --dtype bfloat16.',
    confidence='maintainer_explained',
    evidence={
        'summary': 'This forces the use of `bfloat16` for IDEFICS. The issue is that with `float16` the 80b model gives garbage output.',
        'request': "$ curl 127.0.0.1:8080/generate -X POST -d '{\"inputs\":\"What is Deep Learning?\",\"parameters\":{\"max_new_tokens\":20}}' -H 'Content-Type: application/json'",
        'response': '{"generated_text":""}',
        'details': ['### prefill', "'<s>WhatisDeepLearning?'", '### tokens', "'<unk><unk><unk><unk><unk><unk><unk><unk><unk><unk>'"],
        'after': "'\\n\\nDeep Learning is a subset of machine'",
    },
    outputs=['{"generated_text":""}', "'<unk><unk><unk><unk><unk><unk><unk><unk><unk><unk>'"],
    engine_args="curl 127.0.0.1:8080/generate -X POST -d '{\"inputs\":\"What is Deep Learning?\",\"parameters\":{\"max_new_tokens\":20}}' -H 'Content-Type: application/json'",
    notes='the PR description is the incident report (empty generation, all <unk> tokens); engine_args holds the request as shown (no launcher flags quoted); outputs are the response body and the decoded token list',
    leak="The float16-vs-bfloat16 explanation and the after-fix output are left out.",
    hard='No dtype or launcher flags are in the inputs; only an empty response and <unk> tokens point at numeric overflow.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/8498', thread_type='issue',
    engine='llama.cpp llama-server', engine_version='3400 (97bdd26e)', gpu=None, model='DeepSeek-Coder-V2-Lite-Instruct',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('With a small per-slot context (ollama-style 2048-4000 tokens) the server hit its context limit and '
                'performed a context shift (discarding half the KV cache), which DeepSeek-V2 models do not support because '
                'of MLA, so everything generated after the shift was garbage.'),
    fix='Give DeepSeek-V2 a context large enough never to shift (or cap n_predict); do not rely on context shift for MLA models.',
    confidence='maintainer_explained',
    evidence={
        'report': "While testing the Deepseek Coder V2 Lite(https://huggingface.co/deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct) with ollama's default settings(n_ctx 2048), I noticed that the llama.cpp was printing meaningless sentences",
        'cmds': 'llama-server ... -c 16000 -np 4, llama-server ... -c 4000 -np 1, llama-server ... -c 6000 -np 1',
        'observation': 'As shown below, after the n_keep = 1 log occurs, the model prints garbage infinitely ...',
        'log': 'slot context shift | .... n_keep = 1 n_left = 3998 n_discard = 1999 n_ctx=4000 n_past=3999 n_system_tokens=0 n_cache_tokens=2048',
        'ok_case': 'If the n_ctx is greater than 8192 as shown below, there is no problem (I haven\'t tested between 6000~8192)',
        'maintainer': 'DeepSeek V2 models do not support context shift due to MLA. You should never exceed the context size with these mod',
    },
    log=[('log', None)],
    engine_args='llama-server ... -c 4000 -np 1',
    notes='engine_args is one of the reporter\'s three elided launch lines (verbatim fragment); the context-shift line is what the server printed right before the garbage; no output sample is quoted as text',
    leak="The maintainer's statement that DeepSeek-V2 (MLA) cannot context-shift and the reporter's observation that contexts above 8192 are fine are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/jorge-menjivar/unsaged/issues/63', thread_type='issue',
    engine='unSAGED chat app on Vercel -> Nginx Proxy Manager -> Ollama (Hetzner Cloud)', engine_version=None, gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("The chat front-end ran its /api/chat route as a Vercel function, which must send a first response byte "
                'within 25 s; the CPU-hosted Ollama behind it took longer than that for anything beyond a trivial prompt, so '
                'Vercel killed the function before the stream started.'),
    fix='Stream the response from the route immediately (the app-side fix linked in the thread, PR #81), or host the front-end without the 25 s limit.',
    confidence='plausible',
    evidence={
        'error': 'Error: Your function was stopped as it did not return an initial response within 25s',
        'setup': 'Ollama server running on Hetzner Cloud with a Nginx Proxy Manager in front to proxy the ollama server to https and enable Access Lists for HTTP Basic Auth',
        'scope': "But the /api/chat call has the same problem when using Ollama. Everything longer then just a \"Test\" is taking to long to respond and result into the error I have described here.",
        'fix_pointer': "I just saw this, I guess it's fixed here now: https://github.com/jorge-menjivar/unSAGED/pull/81",
        'reporter_guess': 'No not now, I will try to create a more powerfull server with a gpu, maybe that will make ollama more reliable.',
    },
    log=[('error', None)],
    observe={'gateway_timeout_s': (25, 'within 25s')},
    notes='the Vercel error string is the log line; the 25 s in it is passed as the gateway timeout; no model or hardware details beyond the prose',
    leak="The pointer to the app-side fix PR and the reporter's plan to move to a GPU server are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/mostlygeek/llama-swap/issues/1090', thread_type='issue',
    engine='llama-swap vllm-wrapper (reverse proxy) in front of vLLM', engine_version=None, gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("llama-swap's vllm-wrapper built its reverse proxy with a hard-coded 300 s ResponseHeaderTimeout and no flag "
                'to change it, so a reasoning-model request that needed 5-10 minutes before its first byte got a 502 at '
                '300.0 s while vLLM was still generating normally.'),
    fix='Make the response-header deadline configurable (PR #1111 removed the fixed timeout).',
    confidence='maintainer_explained',
    evidence={
        'report': 'I hit this with a reasoning model (`--reasoning-parser qwen3`) doing structured output over a few page images. Those requests need 5-10 minutes before the first token. vLLM is fine throughout: it generates at ~37 tok/s for the full 300s, then the proxy gives up and the request is aborted, so about 11k tokens get computed and thrown away.',
        'client': 'Raising the client timeout does not help, and neither does `timeouts.responseHeader` on the model (that key works, setting it to 4 gives a 502 at 4.00s, it just cannot lift the wrapper\'s own).',
        'repro': 'Easy to reproduce without a GPU: put any server that accepts a POST and delays its headers past 300s behind vllm-wrapper serve, then POST /v1/chat/completions. 502 at 300.0s.',
        'cause': '`cmd/vllm-wrapper/main.go` sets `ResponseHeaderTimeout: 300 * time.Second` and `serve` has no flag for it. Any request that takes longer than 300s to produce its first byte gets a 502.',
        'fix_pr': 'Remove arbitrary timeout values. ',
    },
    observe={'output_tokens_per_s': (37, 'it generates at ~37 tok/s'),
             'e2e_p99_s': (300.0, '502 at 300.0s')},
    engine_args='--reasoning-parser qwen3',
    notes='no log lines are quoted in the thread; the 502 arriving at 300.0 s is passed as the end-to-end time and vLLM\'s own rate during the request as output_tokens_per_s; engine_args is the one vLLM flag the reporter names',
    leak="The reporter's pointer to the hard-coded ResponseHeaderTimeout in main.go and the fix PR are left out; the reporter's note that raising the client timeout does not help is also kept out.",
    hard=None))

I.append(dict(
    src='https://github.com/onyx-dot-app/onyx/pull/10247', thread_type='pr',
    engine='Onyx (browser -> NLB -> ingress-nginx -> nginx -> api-server -> LLM provider)', engine_version=None, gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The Kubernetes ingress-nginx in front of Onyx kept its default proxy_read_timeout of 60 s; a 70K-token '
                'prompt had a first-token wait longer than that, so ingress-nginx reset the HTTP/2 stream and the browser '
                'got ERR_HTTP2_PROTOCOL_ERROR while the request completed behind it.'),
    fix='Set proxy-read/send-timeout annotations on the API ingress (and raise the inner nginx timeouts to 900 s).',
    confidence='maintainer_explained',
    evidence={
        'session': 'Root cause traced from session `Kw6q4ISG` which hit this exact failure: 70K token prompt → long TTFT → ingress-nginx killed the stream at 60s → `ERR_HTTP2_PROTOCOL_ERROR`.',
        'description': 'The ingress-nginx controller defaults to `proxy_read_timeout: 60s`. Long-running SSE streams (chat with large prompts, deep research) can have idle gaps exceeding 60s during LLM TTFT (time-to-first-token) or tool execution phases.',
        'client_error': 'ERR_HTTP2_PROTOCOL_ERROR',
        'inner': 'When this happens, the ingress-nginx resets the HTTP/2 stream, causing `ERR_HTTP2_PROTOCOL_ERROR` on the client — while the server completes the request successfully on the inner nginx hop (which has a 300s timeout).',
    },
    log=[('client_error', None)],
    observe={'input_len_mean': (70000, '70K token prompt')},
    notes='the browser error string is the only log line; the prompt size of the failing session is passed as input_len_mean',
    leak="The ingress-nginx 60 s default, the 'killed the stream at 60s' trace and the server-side completion on the inner hop are left out; only the client error and the prompt size go in.",
    hard='Close in mechanism to dev-018 and dev-013 (nginx/ingress 60 s defaults); the inputs carry no timing at all.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/4602', thread_type='issue',
    engine='SGLang', engine_version='Mar 2025', gpu=None, model='DeepSeek-V3 / DeepSeek-R1',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('With --page-size above 1 the scheduler under-counted the new KV pages the next decode step needs, so '
                'it did not retract requests in time and the allocator failed to find 148 tokens (in whole pages) even '
                'though 2048 free token slots were reported, crashing the server with "Decode out of memory".'),
    fix='Count new pages accurately before decode so retraction triggers (PR #4913); or run with --page-size 1.',
    confidence='maintainer_explained',
    evidence={
        'error': ['RuntimeError: Decode out of memory. Try to lower your batch size.',
                  'Try to allocate 148 tokens.',
                  'Avaliable tokens: 2048',
                  'self.token_to_kv_pool_allocator.available_size()=2048',
                  'self.tree_cache.evictable_size()=0'],
        'server': 'python -m sglang.launch_server  --mem-fraction-static 0.90  --model-path <deepseek-v3/deeseek-r1> --trust-remote-code --tp-size 8 --disable-cuda-graph  --page-size 64',
        'report': 'The SGLang server crashes with the error "Decode out of memory" when the `--page-size` parameter is not set to 1. As shown in the log below, there is sufficient space (2048 tokens) available for new tokens. However, an allocation attempt for 148 tokens fail',
        'fix_pr': 'This PR fix a bug reported in this issue https://github.com/sgl-project/sglang/issues/4602.',
        'fix_mod': 'It triggers decode contract more effectively by accurate new page counting.',
    },
    log=[('error', 0), ('error', 1), ('error', 2), ('error', 3), ('error', 4)],
    engine_args='--mem-fraction-static 0.90 --trust-remote-code --tp-size 8 --disable-cuda-graph --page-size 64',
    args_model='deepseek-v3/deeseek-r1',
    notes='the five error lines are the crash message quoted in the issue; engine_args are the launch flags without --model-path; model as written in the launch line',
    leak="The reporter's observation that it only happens when --page-size is not 1 and the fix PR's page-counting explanation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/pull/37307', thread_type='pr',
    engine='vLLM (V1 scheduler, chunked prefill)', engine_version='Mar 2026', gpu=None, model=None,
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The scheduler admitted a new long request as soon as its first prefill chunk fit, although its full '
                'prompt did not; partway through prefill the KV cache filled, the request was preempted, re-queued and '
                'prefilled again in a loop, and the continuous prefill starved decodes (generation ~100 -> 1.5 tok/s/GPU).'),
    fix='Admit requests against their full input length (the env-var option this PR adds), or cap concurrency / context so full prompts fit.',
    confidence='maintainer_explained',
    evidence={
        'symptom': 'In this particularly bad case, it creates a continuous prefill overhead that starves decode requests, dropping generation throughput from ~100 tok/s/GPU to as low as 1.5 tok/s/GPU.',
        'cycle': 'It prefills in chunks until ~50k tokens are processed and KV cache hits ~100% capacity, triggering a preemption. The preempted request re-enters the queue and gets rescheduled, repeating the cycle.',
        'admission': 'Observed problematic behavior (ISL numbers are mocked because this is customer data): When 4×100k ISL requests already occupy ~90% of the KV cache, the scheduler still admits a 5th 100k ISL request.',
        'default': 'The default behaviour of vLLM is to schedule requests if the first chunk of a request fits.',
    },
    observe={'output_tokens_per_s': (1.5, 'as low as 1.5 tok/s/GPU'),
             'expected_output_tokens_per_s': (100, 'from ~100 tok/s/GPU'),
             'kv_usage': (1.0, 'KV cache hits ~100% capacity')},
    notes='per-GPU generation rates from the PR description; the KV cache reaching ~100% (and the preemption it triggers) is what the engine metrics show; the prompt lengths are mocked in the PR and are not passed',
    leak="The admission rule (first chunk fits), the 4x100k + 5th request story and the preempt-requeue cycle are left out; only the throughput collapse and the full KV cache go in.",
    hard='No log lines; the preemption loop has to be inferred from a full KV cache plus collapsed generation throughput.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/16521', thread_type='pr',
    engine='SGLang (radix cache)', engine_version='Jan 2026', gpu=None, model=None,
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=("cache_finished_req() inserted req.fill_ids (the prompt only, set before decode) as the radix-cache key, so "
                "a finished turn's generated tokens were never cached and every next turn re-prefilled the previous "
                'answer (cache hit 100 of 200 tokens instead of 150).'),
    fix='Insert the prompt+output token_ids as the cache key (this PR).',
    confidence='maintainer_explained',
    evidence={
        'log_before': ['Round 1: Prompt=100, Output=50, Cached=0',
                       'Round 2: Input=200, Cached=100  (only prompt) ❌'],
        'motivation': 'In multi-turn usage, SGLang radix cache currently only reuses the original prompt tokens, but **does not reuse the previous turn’s generated tokens**. This forces unnecessary prefill over already-generated continuation tokens in the next request and significantly hurts multi-turn performance.',
        'root_cause': '`fill_ids` is set at `init_next_round_input()` time (before decode), so it **does not include** `output_ids`',
    },
    log=[('log_before', 0), 'Round 2: Input=200, Cached=100'],
    notes="the two log lines are the PR's minimal multi-turn repro (the second cut before the author's '(only prompt)' verdict); no latency numbers are given",
    leak="The annotation '(only prompt)', the expected-vs-actual cache-hit explanation and the fill_ids root cause are left out.",
    hard='Synthetic 100/50-token repro with no latency figures; the symptom (slower multi-turn prefill) has to be read from the cached-token count alone.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/16415', thread_type='issue',
    engine='Ollama', engine_version='0.30', gpu='5x GeForce GTX 1070 Ti', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Ollama 0.30 bundles a CUDA runtime that needs NVIDIA driver 570 or newer; with driver 535 CUDA failed to '
                'initialise and Ollama fell back to its Vulkan backend on the five Pascal GPUs, which ran much slower '
                '(low clocks and utilisation) than 0.24 had on CUDA.'),
    fix='Upgrade the NVIDIA driver (535 -> 570); CUDA then initialised and speed returned.',
    confidence='confirmed_by_reporter',
    evidence={
        'log': ['Jun 02 13:52:52 debian ollama[88170]: time=2026-06-02T13:52:52.475+03:00 level=TRACE source=llama_server.go:71 msg="running llama-server for discovery" cmd=/usr/local/lib/ollama/llama-server libDirs="[/usr/local/lib/ollama /usr/local/lib/ollama/cuda_v13]"',
                'Jun 02 13:52:53 debian ollama[88170]: time=2026-06-02T13:52:53.784+03:00 level=TRACE source=runner.go:167 msg="supported GPU library combinations before filtering" supported="map[Vulkan:map[/usr/local/lib/ollama/vulkan:map[0:0 1:1 2:2 3:3 4:4]]]"',
                'Jun 02 13:52:53 debian ollama[88170]: time=2026-06-02T13:52:53.784+03:00 level=DEBUG source=runner.go:37 msg="GPU bootstrap discovery took" duration=4.557781248s'],
        'title': 'Performance regression in Ollama v0.30 on 5x GTX 1070 Ti: much slower than v0.24, low GPU clocks/utilization',
        'resolution': '**Update: Root cause was an outdated NVIDIA driver. After upgrading from driver 535 to 570, Ollama works correctly with CUDA/GPU acceleration.**',
        'key_line': 'msg="NVIDIA driver too old" device="NVIDIA GeForce GTX 1070 Ti" compute=6.1 driver=535 required_driver="570 or newer"',
        'cuda_error': 'ggml_cuda_init: failed to initialize CUDA: CUDA driver version is insufficient for CUDA runtime version',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    notes='three discovery lines from the reporter\'s server log; the lines that name the cause (driver too old, CUDA init failure) are withheld; the thread gives no tokens/s figures',
    leak="The 'NVIDIA driver too old' and 'CUDA driver version is insufficient' lines and the reporter's update naming the driver are left out; the remaining log shows only that Vulkan was the sole library found.",
    hard='No throughput numbers; the only signal is that discovery found Vulkan and no CUDA library set.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/12291', thread_type='issue',
    engine='Ollama', engine_version=None, gpu=None, model='gpt-oss:120b',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The calling client had a 5-minute HTTP timeout; with a ~29K-token system prompt (which also pushed more '
                'layers into system RAM) the request took longer than that, so the client gave up while Ollama was still '
                'doing inference.'),
    fix='Raise the client timeout (httpx/requests timeout), or shorten the prompt.',
    confidence='maintainer_explained',
    evidence={
        'title': 'gpt-oss:120b - error - system prompt very long',
        'log': ['Sep 15 12:51:29 serverAI ollama[971332]: time=2025-09-15T12:51:29.763+02:00 level=DEBUG source=cache.go:144 msg="loading cache slot" id=0 cache=0 prompt=29305 used=0 remaining=29305',
                'Sep 15 12:56:25 serverAI ollama[971332]: time=2025-09-15T12:56:25.100+02:00 level=DEBUG source=sched.go:493 msg="context for request finished"'],
        'maintainer': 'Yes, it looks like it takes a long time for the model to respond, and your client has a 5 minute timeout.  The larger context is forcing more layers into system RAM, so the model runs slower.',
        'maintainer2': 'No, it looks like the **client** has a 5 minute timeout.  Nothing to do with `OLLAMA_LOAD_TIMEOUT`.',
        'reporter': 'ah ok. how to set client timeout? in httpx, requests timeout?',
    },
    log=[('log', 0), ('log', 1)],
    observe={'input_len_mean': (29305, 'prompt=29305')},
    args_model='gpt-oss:120b',
    notes='the two server-log lines are the ones the triager quoted from the reporter\'s log; the prompt size comes from the cache-slot line',
    leak="The triager's reading (client 5-minute timeout, layers pushed to system RAM) is left out; only the server log lines and the prompt size go in.",
    hard='Two causes interact (client timeout and partial CPU offload from the larger context); the 5-minute client limit is not stated in the inputs.'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/1599', thread_type='issue',
    engine='TGI (docker, bitsandbytes 8-bit)', engine_version='1.4', gpu='4x L40S', model='mistralai/Mixtral-8x7B-Instruct-v0.1',
    symptom='other', layer='scheduling_capacity',
    root_cause=('TGI sizes its KV cache to take all GPU memory left after the weights (the default cuda-memory-fraction '
                'is 1.0), so every card filled up as soon as the shards started; this is by design, not a leak.'),
    fix='Cap the share with --cuda-memory-fraction (or bound the batch with --max-batch-total-tokens).',
    confidence='maintainer_explained',
    evidence={
        'command': 'docker run -ti --runtime nvidia --shm-size 1g -p 8080:80 ghcr.io/huggingface/text-generation-inference:1.4 --model-id mistralai/Mixtral-8x7B-Instruct-v0.1 --quantize bitsandbytes',
        'report': 'The server downloads (or reuse) weights and starts up shards. As soon as the shards are set up, the GPU memory gets immediately filled up (all 4 cards for a total of >190Gbyte). Same behaviour with smaller models too - i.e. does not depend on Mixtral.',
        'system': 'TGI version 1.4, Ubuntu 22.04 LTS, 4 NVIDIA L40s,  mistralai/Mixtral-8x7B-Instruct-v0.1, quantized 8bit, docker with nvidia runtime',
        'maintainer': 'TGI will always use all available memory for its cache. If you want to limit the amount of memory used by TGI, you can use the `--cuda-memory-fraction` arg.',
    },
    engine_args='--model-id mistralai/Mixtral-8x7B-Instruct-v0.1 --quantize bitsandbytes',
    notes='no log lines; the launch flags and the observation that all four cards filled (>190 GB in total) are the inputs; the total is not passed because the vocabulary has only a per-GPU memory name',
    leak="The maintainer's explanation (TGI uses all available memory for its cache; --cuda-memory-fraction) is left out.",
    hard='Only launch flags go in; nothing in them hints at the memory fraction, and the symptom (memory full, no failure) is not one of the fixed classes.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/10533', thread_type='issue',
    engine='vLLM (two OpenAI servers on one GPU)', engine_version='0.6.4 era (Nov 2024)', gpu='A100 80GB', model='Qwen2.5-14B-Instruct-GPTQ-Int4',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('From vLLM 0.6.4 --gpu-memory-utilization is a global cap on the whole GPU, counting memory held by other '
                'processes; with the 72B server already holding ~68 GiB, the second server\'s 0.20 share left nothing for '
                'KV blocks, so it refused to start although each ran fine alone.'),
    fix='Give the second instance a utilization that covers both (e.g. 0.95), or run a vLLM version where the limit is per instance.',
    confidence='plausible',
    evidence={
        'report': 'Both commands succeed when running separately, consuming approximately 75% and 20% of the vRAM respectively.',
        'order': 'However when you start the 72B first and then 14b. the 14b will refused to start with Exception ',
        'error': 'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
        'profiling': 'Memory profiling results: total_gpu_memory=79.15GiB initial_memory_usage=68.01GiB',
        'cmd_14b': '--gpu-memory-utilization 0.20 \\',
        'docs_0_6_4': 'This is a global gpu memory utilization limit, for example if 50% of the gpu memory is already used before vLLM starts and –gpu-memory-utilization is set to 0.9, then only 40% of the gpu memory will be allocated to the model executor.',
        'related': 'In vLLM 0.6.3, `gpu_memory_utilization` acted as a limit for the memory used by the model itself, making it easier to allocate resources for multiple models running on the same GPU. However, in vLLM 0.6.4, the behavior of this parameter was altered to act as a global GPU memory utilization limit.',
    },
    log=[('profiling', None), ('error', None)],
    engine_args='--gpu-memory-utilization 0.20 --max-model-len=16384 --quantization=gptq --enforce-eager --enable-chunked-prefill --enable-prefix-caching',
    observe={'gpu_mem_used_gib': (68.01, 'initial_memory_usage=68.01GiB')},
    args_model='Qwen2.5-14B-Instruct-GPTQ-Int4',
    notes='the profiling line is cut to a verbatim prefix; engine_args are the second (failing) instance\'s flags; memory already in use at its start is passed as gpu_mem_used_gib',
    leak="The reporter's remark that each instance starts fine alone and only fails when the 72B runs first is left out, as are the 0.6.4 docs and the related issue that explain the global limit.",
    hard='The cause is read from vLLM 0.6.4 documentation and a sibling issue (#10451), not from a reply in this thread.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/8124', thread_type='issue',
    engine='llama.cpp (llama-cli, CPU build)', engine_version='b3222', gpu=None, model='Llama-3-8B-Instruct-Gradient-1048k q5_k',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('Without -c the context defaulted to the model\'s trained 1,048,576 tokens, whose KV cache needs 100+ GB of '
                'RAM; loading crawled and then died when memory filled.'),
    fix='Pass a smaller context, e.g. -c 32768.',
    confidence='confirmed_by_reporter',
    evidence={
        'command': './build/bin/llama-cli -m /content/Llama-3-8B-Instruct-Gradient-1048k.q5_k.gguf -t 2 -ngl 99 -p "User: Hi\\nBot:Hi\\nUser: Tell me all you know about LLMs.\\nBot:"',
        'log': ['warning: not compiled with GPU offload support, --gpu-layers option will be ignored',
                'main: build = 3222 (48e6b92c)',
                'llama_model_loader: - kv   1:                               general.name str              = Llama-3-8B-Instruct-Gradient-1048k'],
        'helper': 'You are loading the model with it\'s default context setting of 1048576, this takes up A LOT of ram (100GB+) and will take a long time, also you are doing it on the CPU only...',
        'reporter': 'my bad... I tried again and it worked. it crashed because the memory was full I think.',
        'reporter2': 'running it with smaller context lengths works.. like `-c 32786`.',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='-t 2 -ngl 99',
    args_model='Llama-3-8B-Instruct-Gradient-1048k.q5_k.gguf',
    notes='log lines from the reporter\'s llama-cli output; engine_args are the flags on the command line (no -c); the crash itself left no log line in the thread',
    leak="The reply naming the 1,048,576-token default context and the reporter's fix (-c 32786) are left out; the model name (which carries '1048k') stays as it is part of the real log.",
    hard='The only hint is the model name ending in 1048k and a missing -c; the crash itself is not logged.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/6914', thread_type='issue',
    engine='llama.cpp (also via Ollama / Open WebUI)', engine_version='Apr 2024', gpu=None, model='Llama 3 8B/70B GGUF',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('llama.cpp tokenized Llama 3 with the wrong BPE pre-tokenizer (no Llama-3 digit/regex splitting), so '
                'numbers such as 3333 were split differently than in training and the GGUFs gave wrong arithmetic; fixed by '
                'the BPE pre-processing update, which also needs the GGUFs to be regenerated.'),
    fix='Update llama.cpp (PR #6920) and reconvert the GGUFs so they carry the llama-bpe pre-tokenizer.',
    confidence='maintainer_explained',
    evidence={
        'query': 'Try this query: "What is 3333+777?"',
        'setup': "Now, here's where things get weird. Using Open WebUI on top of Ollama, let's use llama.cpp to run the GGUFs of Llama 3.",
        'output': ['What is 3333 + 777? ', 'Let me calculate that for you!', '33,333 + 777 = 34,110'],
        'regen': 'The changes made require the GGUFs to be generated again. It isn’t just a change to llama.cpp.',
        'fix_pr': 'llama : improve BPE pre-processing + LLaMA 3 and Deepseek support',
        'confirm': 'After pulling the latest llama.cpp repo, and the latest Llama 3 8B Instruct HF repo, converting and quantizing, I can confir',
    },
    outputs=[('output', 1), ('output', 2)],
    notes='output samples are the reply text quoted in the thread for the prompt "What is 3333 + 777?"; the original screenshots are not text',
    leak="The comments tying it to the GGUF conversion / BPE pre-tokenizer and the fix PR are left out; only the wrong answers go in.",
    hard='Arithmetic errors read like model weakness; nothing in the outputs points at tokenization except the mangled number.'))

I.append(dict(
    src='https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1276', thread_type='issue',
    engine='LM Studio (CUDA 12 llama.cpp runtime)', engine_version='runtime 1.60.0 (LM Studio 0.3.33)', gpu=None, model='TheDrummer Cydonia-Redux-22B v1.1 GGUF',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The CUDA 12 llama.cpp runtime release 1.60.0 broke generation for some models (nonsense tokens); the same '
                'models were fine on 1.59.0 / 1.57.1 and on the fixed 1.61.0 runtime.'),
    fix='Switch to runtime 1.61.0 (or back to 1.59.0).',
    confidence='confirmed_by_reporter',
    evidence={
        'report': "Using CUDA 12 llama.cpp 1.60.0 some models produce total nonsense output. The same problem doesn't occur with 1.59.0",
        'prompt': 'Prompt: Write a story',
        'output': 'Output: the there ** users It C 50 learningy # This. intts (14 The problem is2nd',
        'version': 'LM Studio 0.3.33 (Build 1)',
        'other_user': "I'm seeing the same thing with TheDrummer's Precog 123B V1. Switching back to CUDA 12 llama.cpp 1.57.1 works fine for me too so it's definitely the 1.60.0 CUDA 12 Llama.cpp release doing something weird.",
        'maintainer': 'Hi @Firworksyt and @andynormancx - Would you be able to try out version `1.61.0` that is now available in the beta channel? We believe this issue should be fixed in that version',
        'confirm': '👍 It certainly looks fixed, I’ve only run a couple of prompts, but they both resulted in good output.',
    },
    outputs=['the there ** users It C 50 learningy # This. intts (14 The problem is2nd'],
    args_model='bartowski/TheDrummer_Cydonia-Redux-22B-v1.1-GGUF',
    notes='the output sample is the model reply quoted for the prompt "Write a story"; no server log is given',
    leak="The comparisons with runtimes 1.59.0 / 1.57.1 and the maintainer's pointer to 1.61.0 are left out; only the garbage output goes in.",
    hard='Garbage output alone; the runtime version is not in the inputs.'))

I.append(dict(
    src='https://github.com/ml-explore/mlx-lm/pull/931', thread_type='pr',
    engine='mlx-lm (mlx_lm.generate, native safetensors)', engine_version='Feb 2026', gpu='Apple Silicon', model='Qwen/Qwen3.5-35B-A3B',
    symptom='tpot_high', layer='numeric_parameter',
    root_cause=('Loading the unconverted transformers safetensors did not cast weights to the model dtype, so a float32 '
                'layer pulled the forward pass into float32 and decoding ran at ~3 tok/s instead of ~68.'),
    fix='Cast to the model dtype on load (this PR), or convert the model to bfloat16 first.',
    confidence='confirmed_by_reporter',
    evidence={
        'description': 'When running inference from native transformers safetensors (without converting), casting to the model dtype is not performed. This may cause inadvertently slow inference when a float32 layer pollutes the forward pass.',
        'command': 'mlx_lm.generate --model Qwen/Qwen3.5-35B-A3B --prompt "Why is the sky blue?" -m 200',
        'before': '* **Before**: ~3tps',
        'after': '* **After**: ~68 tps - consistent with the same model converted locally using `bfloat16`, without quantization.',
    },
    observe={'output_tokens_per_s': (3, '~3tps'),
             'expected_output_tokens_per_s': (68, '~68 tps - consistent with the same model converted locally')},
    engine_args='mlx_lm.generate --model Qwen/Qwen3.5-35B-A3B --prompt "Why is the sky blue?" -m 200',
    args_model='Qwen/Qwen3.5-35B-A3B',
    notes='expected rate is the speed of the same model converted locally to bfloat16 (what the operator would compare against); the PR was closed, the before/after figures are the author\'s own test',
    leak="The PR's explanation (no cast to model dtype, float32 layer) is left out; only the command and the two rates go in.",
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/1665', thread_type='issue',
    engine='llama.cpp (main, cuBLAS build)', engine_version='Jun 2023', gpu='RTX A6000 48GB', model='Wizard-Vicuna-30B-Uncensored.ggmlv3.q4_0',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=("llama.cpp's default thread count oversubscribed the host CPU, so the CPU-side part of every token step "
                'stalled and generation fell below 0.1 tok/s even with all layers requested on the GPU; with -t 7 it ran '
                'at 1.6 tok/s on CPU and 8.5 tok/s with GPU offload.'),
    fix='Set -t to the number of physical cores minus one (-t 7 here).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Token generation speed less than 1/minute on A6000 machine (48GB VRAM, 32GB RAM)',
        'table': ['| -ngl 2000000 | N/A (less than 0.1) |', '| -t 7 | 1.6 |', '| -t 7 -ngl 2000000 | 8.5 |'],
        'confirm': 'Running with 7 threads did the trick!',
        'helper': 'I am testing myself right now and it does seem abnormally slow.',
    },
    observe={'output_tokens_per_s': (0.1, 'N/A (less than 0.1)')},
    engine_args='-ngl 2000000',
    args_model='Wizard-Vicuna-30B-Uncensored.ggmlv3.q4_0.bin',
    notes='0.1 tok/s is the upper bound the reporter gives (title: under one token per minute); engine_args is the original flag without -t',
    leak="The -t 7 rows of the reporter's table and the 'Running with 7 threads did the trick' confirmation are left out.",
    hard='No log; only the offload flag and a near-zero rate on a large GPU.'))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/1676', thread_type='issue',
    engine='LMDeploy (TurboMind, W4A16 AWQ)', engine_version='0.4.2', gpu='V100', model='Qwen1.5-1.8B-Chat (finetuned) W4A16',
    symptom='output_quality', layer='operator_hardware',
    root_cause=("TurboMind's W4A16 (AWQ) kernels in LMDeploy 0.4.x did not support Volta (sm70); on the V100 the "
                'quantized model produced wrong answers while the fp16 model and the same W4A16 model on A100 were fine.'),
    fix='Run W4A16 on sm75+ GPUs (T4/20-series, Ampere, Ada) or use a later LMDeploy that added V100 AWQ support (v0.6.0).',
    confidence='maintainer_explained',
    evidence={
        'cmd_fp16': 'lmdeploy chat ./Qwen1.5-1.8B-Chat --model-name qwen',
        'cmd_w4': 'lmdeploy chat ./Qwen1.5-1.8B-Chat-W4A16 --model-format awq --model-name qwen',
        'quantize': 'lmdeploy lite auto_awq Qwen1.5-1.8B-Chat --calib-dataset \'c4\' --calib-samples 64 --calib-seqlen 2048 --w-bits 4 --w-group-size 128 --work-dir Qwen1.5-1.8B-Chat-W4A16',
        'log': ['model.layers.23.mlp.up_proj weight packed.', 'model.layers.23.mlp.down_proj weight packed.'],
        'reporter': "It appears that this is exclusive to the V100 GPUs,  it's fine with the A100 GPUs.",
        'maintainer': "LMDeploy doesn't support w4a16 on V100.",
    },
    log=[('log', 0), ('log', 1)],
    engine_args='--model-format awq --model-name qwen',
    args_model='Qwen1.5-1.8B-Chat-W4A16',
    notes='the two log lines are from the quantization step quoted in the issue; the wrong answers are screenshots, so there is no outputs.txt',
    leak="The reporter's V100-vs-A100 comparison and the maintainer's statement that W4A16 is unsupported on V100 are left out.",
    hard='No text output sample; the GPU model (V100) and the awq flag are the only clues.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/38887', thread_type='issue',
    engine='vLLM', engine_version='0.19.0', gpu='RTX 4090', model='google/gemma-4-e4b-it',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=("Gemma 4's heterogeneous head sizes (256 local, 512 global) made vLLM 0.19.0 force the slower Triton "
                'attention backend for every layer (FlashAttention supports head_size <= 256), so the 4.5B model decoded at '
                '~9 tok/s.'),
    fix='Allow per-layer backend selection (FlashAttention for the head_dim-256 layers; PR #38891), or a later vLLM with FA4 for Gemma 4.',
    confidence='plausible',
    evidence={
        'report': 'Gemma 4 E4B (`google/gemma-4-e4b-it`, 4.5B effective parameters) generates at only **~9 tokens/s** on an RTX 4090 with vLLM v0.19.0. For comparison, a similarly-sized Llama 3.2 3B model on the same hardware with the same vLLM version generates at **100+ tokens/s**.',
        'log': ['INFO [cuda.py:274] Using AttentionBackendEnum.TRITON_ATTN backend.'],
        'cause_log': 'INFO [config.py:104] Gemma4 model has heterogeneous head dimensions (head_dim=256, global_head_dim=512).',
        'reporter_diag': 'The root cause is that Gemma 4\'s heterogeneous attention head dimensions force vLLM to disable FlashAttention and fall back to a much slower Triton attention kernel.',
        'pr': 'Root cause**: Gemma 4 has heterogeneous head dimensions — sliding-window layers use `head_dim=256` and',
    },
    log=[('log', 0)],
    observe={'output_tokens_per_s': (9, '~9 tokens/s')},
    args_model='google/gemma-4-e4b-it',
    args_gpu='RTX 4090',
    notes='the backend-selection line is passed; the preceding config line that explains why Triton was forced is withheld; the Llama 3.2 3B comparison (100+ tok/s) is a different model and is not passed as expected rate',
    leak="The 'heterogeneous head dimensions ... Forcing TRITON_ATTN' config line, the reporter's root-cause paragraph and the fix PR are left out.",
    hard='Diagnosed by the reporter, with a fix PR that was still open; the explanation was not confirmed by a maintainer in the thread.'))

I.append(dict(
    src='https://github.com/joshuadavidthomas/opencode-agent-memory/issues/24', thread_type='issue',
    engine='llama.cpp llama-server (behind OpenCode with the agent-memory plugin)', engine_version='b10470', gpu=None, model='Qwen3.8-27B',
    symptom='ttft_spike', layer='load',
    root_cause=('The plugin injected a <memory_metadata> block with a millisecond-precision timestamp into the system '
                'prompt on every request, so the prompt bytes changed each turn and llama-server could reuse only the '
                '~35K tokens before it; the rest of a ~71K-token prompt was re-prefilled every turn.'),
    fix='Make the injected block byte-stable (date-only timestamps) and append it at the end of the system prompt (PR #25).',
    confidence='confirmed_by_reporter',
    evidence={
        'backend': 'Backend observed: `llama.cpp` b10470, server with `--cache-reuse 1 --slot-prompt-similarity 0.05` and `--no-cache-idle-slots`',
        'model': 'Model: `Qwen3.8-27B`, context 116 000, prompt ~71 000 tokens',
        'symptoms': 'With a long-running session where the system prompt is otherwise stable, the llama-server `lcp_len` metric stays pinned to **40324 tokens** (the position of the `<memory_metadata>` block). The cached-prefix counter stabilises at **~35328 tokens** — i.e. only the part of the system prompt that lives *before* the timestamp block.',
        'cause': 'The `experimental.chat.system.transform` hook inserts a `<memory_metadata>` block whose body contains `new Date().toISOString()`. Since `toISOString()` includes milliseconds, the rendered string is unique on every request',
        'fix_pr': 'Truncate both timestamps to `YYYY-MM-DD` — the XML is now byte-stable across requests within a day',
    },
    observe={'input_len_mean': (71000, 'prompt ~71 000 tokens')},
    engine_args='--cache-reuse 1 --slot-prompt-similarity 0.05 --no-cache-idle-slots',
    args_model='Qwen3.8-27B',
    notes='no log lines are quoted; the server flags and the prompt size go in; the pinned lcp_len / cached-prefix figures are withheld because they are given together with their explanation (the timestamp block position)',
    leak="The timestamp-in-system-prompt diagnosis, the lcp_len position analysis and the fix PR are left out.",
    hard='No latency figures and no cache counters in the inputs; only a long prompt and prefix-cache flags.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/5636', thread_type='issue',
    engine='SGLang (xgrammar backend)', engine_version='Apr 2025', gpu=None, model=None,
    symptom='throughput_low', layer='load',
    root_cause=('Every request carried a complex EBNF grammar for xgrammar-constrained decoding; grammar compilation and '
                'per-token masking for such grammars was still experimental and slow, so generation fell from 60+ to '
                '1-3 tok/s.'),
    fix='Simplify the grammar / use JSON schema, or wait for the optimised grammar path (maintainer: planned).',
    confidence='maintainer_explained',
    evidence={
        'report': "Why does the throughput drop by 60 times when I use the xgrammar syntax compared to when it's not enabled? It goes from over 60 tokens per second down to just 1–3 tokens per second. This performance seems far below expectations.",
        'config': '"concurrency": 80',
        'grammar': 'root           ::= _ "[" _ elements? _ "]" _',
        'maintainer': 'Thanks for asking this! I think currently the grammar generation is an experiment feature, so complex grammars may incur large latency. It\'s on our timeline to optimize the efficiency for general grammars, and is expected in the next month.',
    },
    observe={'output_tokens_per_s': (3, '1–3 tokens per second'),
             'expected_output_tokens_per_s': (60, 'over 60 tokens per second'),
             'running': (80, '"concurrency": 80')},
    notes='output rate passed as the upper end of the stated 1-3 tok/s; the client script\'s concurrency (80) is passed as running; the grammar itself is not an input',
    leak="The with/without-xgrammar comparison, the grammar text and the maintainer's reply are left out.",
    hard='Same cause class as fresh-032 / dev-047 (constrained decoding); nothing machine-readable in the inputs says the requests carry a grammar.'))

I.append(dict(
    src='https://github.com/magnusoverli/opencode/issues/77', thread_type='issue',
    engine='Ollama (CPU, Raspberry Pi 5) behind the OpenCode Home Assistant add-on', engine_version=None, gpu=None, model='qwen2.5-coder:1.5b',
    symptom='ttft_spike', layer='load',
    root_cause=("Each request from the add-on carried OpenCode's agent system prompt, built-in tools, 41 Home Assistant "
                'MCP tool schemas and AGENTS.md, about 20,000-25,000 tokens even for "hello"; prefilling that on a Pi 5 '
                'CPU took about two minutes, against ~3 s for a ten-token curl.'),
    fix='Cut the prompt (disable the MCP tools / home briefing), raise num_ctx, or use a faster backend.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Very slow responses when using local Ollama (direct Ollama responds in ~3 seconds)',
        'maintainer': "**What's happening:** the delay is prompt evaluation, not overhead in the add-on. Your `curl` test sends about ten tokens. A request through OpenCode sends the agent system prompt, its built-in tools, the add-on's 41 Home Assistant MCP tools (~25 KB of JSON on its own), and `AGENTS.md` (~35 KB) before your message is reached — roughly 20,000–25,000 tokens on every request, including \"hello\". On a Pi 5 CPU that prefill is the two minutes.",
        'reporter_quote': 'Earlier Ollama logs showed requests with very large prompts before inference.',
        'model_note': "That suggests qwen2.5-coder:1.5b isn't handling the tool-calling protocol.",
    },
    observe={'ttft_p50_s': (120, 'that prefill is the two minutes')},
    args_model='qwen2.5-coder:1.5b',
    notes='the two-minute wait is the reporter\'s timing as restated in the maintainer reply; the ~3 s direct curl is the comparison and is not passed',
    leak="The maintainer's breakdown of the prompt (tools, MCP schemas, AGENTS.md, 20-25K tokens) and the reporter's remark about very large prompts are left out.",
    hard='Only a two-minute first-token wait and a small model name go in; the prompt size is not in the inputs.'))

I.append(dict(
    src='https://github.com/Blaizzy/mlx-vlm/issues/100', thread_type='issue',
    engine='mlx-vlm (mlx_vlm.generate)', engine_version='Oct 2024', gpu='M3 Max 64GB', model='mlx-community/Llama-3.2-11B-Vision-Instruct-4bit',
    symptom='tpot_high', layer='load',
    root_cause=('The request passed a full-resolution image to Llama-3.2-Vision, whose cross-attention design makes the '
                'image cost grow heavily; memory rose to ~56 GB and generation slowed as it went. Resizing the image '
                '(--resize-image) is the remedy.'),
    fix='Resize the input image (--resize-image), or use a VLM without cross-attention (e.g. Qwen2-VL handled the same image well).',
    confidence='maintainer_explained',
    evidence={
        'report': 'If I run the following with the image below, Python uses around 56GB memory and the generation speed dramatically decreases as it generates more tokens.',
        'command': 'python -m mlx_vlm.generate --model mlx-community/Llama-3.2-11B-Vision-Instruct-4bit --max-tokens 1000 --temp 0.0 --image "$1" --prompt "Describe the image in a comprehensive manner."',
        'hw': "I'm on M3 Max 64GB with 56GB GPU limit.",
        'other': "I'm on M3 Max 36GB and I had exactly the same problem when using mlx-community/Llama-3.2-11B-Vision-Instruct-4bit. The Qwen2_VL handled the same image pretty well.",
        'maintainer': ['This is an issue of the VLM archicture design.', "It uses a cross attention that's why its so heavy and slow.", 'To improve this, you can use `--resize-image`.'],
    },
    observe={'gpu_mem_used_gib': (56, 'uses around 56GB memory')},
    engine_args='--max-tokens 1000 --temp 0.0',
    args_model='mlx-community/Llama-3.2-11B-Vision-Instruct-4bit',
    args_gpu='Apple M3 Max 64GB',
    notes='unified memory used by the Python process is passed as gpu_mem_used_gib; no token rates are given; engine_args are the generation flags from the command (the image argument is a path)',
    leak="The maintainer's explanation (cross-attention architecture, --resize-image) and the other user's Qwen2-VL comparison are left out.",
    hard='Sits between load (image size) and the model architecture; no rate figures, only memory and the model name.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261005, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
