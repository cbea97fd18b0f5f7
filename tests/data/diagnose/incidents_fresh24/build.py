#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh24: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh21; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the text returned by the search tool (stored public web pages,
corpus "pages", first; GitHub issue/PR threads, corpus "issues", as a fallback) or, for two blog/documentation pages
whose stored excerpt stops early, from the page's own source file in its public repository (read_file; noted per
case). JSON escapes were decoded; leading indentation, list bullets/numbers and markdown table pipes at line ends were
kept as returned; a few long lines were cut to a verbatim prefix/substring. Log lines and output samples are taken
from the evidence, so check.py can verify they are verbatim substrings of it. This batch concentrates on the
gateway/client layer and the load layer in front of an LLM server (reverse proxies and gateways, OpenAI SDK /
LangChain clients and their timeouts and connection pools, Kubernetes routers and probes, benchmark clients, bursty or
long requests), drawn from places other than GitHub issue threads where possible.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh18/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== gateway_client ==============================
I.append(dict(
    src='https://docs.nvidia.com/nemo/gym/latest/infrastructure/engineering-notes/aiohttp-vs-httpx.html',
    thread_type='blog',
    engine='NeMo Gym rollout servers (AsyncOpenAI client over httpx/httpcore) in front of data-parallel vLLM workers',
    engine_version='Sep 2025', gpu=None, model=None,
    symptom='ttft_spike', layer='gateway_client',
    root_cause=('The client side, not the model servers: NeMo Gym used httpx/httpcore (the OpenAI client\'s default '
                'async HTTP backend), whose connection-pool routine that assigns queued requests to connections is '
                'O(n^2) in the number of queued requests. Slammed with 16,000 concurrent requests, the client spent '
                '40 minutes in that routine before the first request reached vLLM; earlier users had to cap '
                'concurrency at 32.'),
    fix='Swap the async HTTP backend from httpx/httpcore to aiohttp.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Why use aiohttp backend instead of httpx/httpcore for async HTTP?#',
        'tldr': ('TL;DR: httpx is O(n^2) runtime where n is the number of queued requests (that is, for each request, '
                 'we check all other queued requests). This is terribly inefficient and results in major slowdowns.'),
        'incident': ('On September 17, 2025, inspired by the Deepseek R1 Nature paper, we tried launching a larger '
                     'rollout batch run with up to 16 off policy steps in NeMo RL. Our setting resulted in NeMo Gym '
                     'being slammed with 16,000 concurrent requests. At the time, we were using a single NeMo Gym '
                     'instance with multiple data-parallel vLLM workers, and that setup hung for 40 minutes before '
                     'the first request was processed. Something was wrong.'),
        'earlier_reports': ('Before that time, we had also gotten reports that the rollout collection in NeMo Gym '
                            'could not be used with high concurrency; that is, in some cases people had to set the '
                            'concurrency to 32 requests in parallel.'),
        'cause': ('Eventually, we isolated the issue to our async HTTP backend—httpx and httpcore. We originally '
                  'decided to use httpx for the async HTTP backend in NeMo Gym because the OpenAI client uses it by '
                  'default so we can share the same backend HTTP client. Unfortunately, the httpcore connection pool '
                  'subroutine for pooling connections over requests is O(n^2) where n is the number of queued '
                  'requests.'),
    },
    observe={'running': (16000, '16,000 concurrent requests'),
             'ttft_p50_s': (2400, 'hung for 40 minutes before the first request was processed')},
    args_model=None,
    args_gpu=None,
    notes=('no log line is quoted; running is the 16,000 concurrent requests the rollout client sent (client-side '
           'concurrency, as earlier sets pass "concurrent requests"); ttft_p50_s is the 40-minute wait before the '
           'first request was processed (2400 s, a lower bound for every request); no model or GPU is named'),
    leak=("The TL;DR and the paragraph that isolates the cause (httpx/httpcore's O(n^2) connection-pool routine, the "
          "OpenAI client's default backend) are left out, and so is the title naming httpx; the earlier reports of a "
          "32-request concurrency cap are left out."),
    hard=('Only the huge client concurrency and the 40-minute first-token wait are in the inputs; nothing names the '
          'client HTTP library whose connection pool was the bottleneck, and the same numbers fit an overloaded '
          'server.')))

I.append(dict(
    src=('https://ghkdgus29.github.io/That-Time-Our-In-House-LLM-Kept-Babbling-for-10-Minutes-Straight-An-SSE-'
         'Timeout-Troubleshooting-EN/'),
    thread_type='blog',
    engine='vLLM OpenAI server called through LangChain ChatOpenAI (astream via a Runnable chain) from an AI server behind an ERP server',
    engine_version='Feb 2026', gpu=None, model='Qwen/Qwen3-30B-A3B-Instruct-2507-FP8',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('ChatOpenAI(timeout=45) applies the timeout per socket read, so on a streamed (SSE) response it only '
                'bounds the gap between chunks, never the total response time. When the model occasionally ran on to '
                'its max length, the ERP server in front had already timed out (clients got 5xx) but the AI server '
                'kept the SSE connection open and vLLM kept generating for about 10 minutes, occupying GPU and CPU. '
                'An asyncio.timeout around the stream also failed inside a LangChain Runnable because each chunk is '
                'awaited in a new task.'),
    fix=('Enforce a total-response deadline on the streaming call (a ChatOpenAI subclass that times the whole SSE '
         'stream and closes the connection), so the server aborts the request and frees the GPU.'),
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('That Time Our In-House LLM Kept Babbling for 10 Minutes Straight| An SSE Timeout Troubleshooting '
                  'Story'),
        'setup': ('There are LLMs hosted via vLLM on internal company GPUs. Currently, the Qwen3-30B-A3B-Instruct model '
                  'is primarily used, and the ChatOpenAI class provided by LangChain is utilized to call this model.'),
        'issue': ('There is an issue where this model intermittently generates responses for an extended period until '
                  'it reaches the max-length allowed by the model. Since these are not normal responses, they have no '
                  'practical value, and the ERP server already timed out, clents are met with 5xx errors instead of the '
                  'expected response.'),
        'connection': ('The problem is that in the relationship between the AI server and the GPU server, the '
                       'connection remains active regardless of the ERP server disconnecting the client request. The '
                       'GPU server continues to generate meaningless responses, and the AI server continues to receive '
                       'them.'),
        'client_code': ['model="Qwen/Qwen3-30B-A3B-Instruct-2507-FP8",', 'timeout=45'],
        # from the post's source file (_posts/2026/2026-02-21-That-Time-...-EN.md in ghkdgus29/ghkdgus29.github.io):
        'cause': ('In contrast, in SSE (Server-Sent Events) scenarios where responses are delivered in chunks, the '
                  'server continuously sends data chunks over the socket in short intervals rather than producing one '
                  'complete response over a long period. A timeout occurs if the response time for a single chunk '
                  'exceeds the timeout limit, but it does not function as a timeout for the total response time.'),
    },
    observe={'gateway_timeout_s': (45, 'timeout=45'),
             'e2e_p99_s': (600, 'for 10 Minutes Straight')},
    args_model='Qwen/Qwen3-30B-A3B-Instruct-2507-FP8',
    args_gpu=None,
    notes=('gateway_timeout_s is the client timeout the AI server set on ChatOpenAI (timeout=45); e2e_p99_s is the '
           'roughly 10-minute generation the post reports (600 s); no server log line is quoted; no GPU is named; the '
           'ERP server\'s 5xx errors are passed as timeout_or_stream_break'),
    leak=("The explanation that the ChatOpenAI timeout is per socket read and does not bound an SSE response, the "
          "Runnable/task analysis and the ChatVllm fix are left out; the title is kept only as the source of the "
          "10-minute figure (it names the symptom, not the cause)."),
    hard=None))

I.append(dict(
    src='https://github.com/NVIDIA/aicr/pull/1196', thread_type='pr',
    engine='NVIDIA AICR inference-perf validator (serve-readiness probe) in front of a Dynamo frontend and fresh workers',
    engine_version='Jun 2026 (dynamo 1.0.2 frontend)', gpu='RTX PRO 6000', model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The validator\'s serve-readiness probe used the generic 30 s HTTP client timeout, but a fresh worker\'s '
                'first inference captures CUDA graphs and JIT-warms kernels for about 42 s on RTX PRO 6000; the client '
                'cancelled that legitimate first request mid-warmup every time, so the probe never succeeded and the '
                'phase failed on a healthy cluster (intermittent because RTX cold start straddles 30 s).'),
    fix='Give the readiness probe a timeout longer than the cold-start first inference (robust to cold start).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(validators): update and tune inference performance validation#1196',
        'summary': ('Make the inference-perf validation gate reproducible and robust to cold start, and document the '
                    'investigation behind it. Three changes remove distinct false-negatives, plus a debug aid and a '
                    'contributor report.'),
        'motivation': 'The gate failed on healthy clusters from two unrelated causes:',
        'cause_readiness': ('Serve-readiness cold-start timeout. A fresh worker\'s first inference captures CUDA graphs '
                            '/ JIT-warms kernels — ~42 s measured on RTX PRO 6000. The readiness probe used the generic '
                            '30 s HTTPClientTimeout, which cancelled that legitimate first request mid-warmup, so the '
                            'probe never succeeded and the phase failed with timed out waiting for inference endpoint '
                            'to serve requests. This is the same outer symptom as the (fixed) inference-perf: validator '
                            'times out on healthy cluster when dynamo frontend discovery bootstrap races (false '
                            'negative) #1192 discovery panic but a different root cause — discovery was healthy '
                            '(verified: genuine 1.0.2 frontend by image digest, /v1/models populated, 24 discovery '
                            'instances, no Unfold panic). It\'s intermittent because RTX cold-start straddles 30 s; '
                            'H100/GB200 stay under it.'),
    },
    log=['timed out waiting for inference endpoint to serve requests'],
    observe={'gateway_timeout_s': (30, '30 s HTTPClientTimeout')},
    args_model=None,
    args_gpu='RTX PRO 6000',
    notes=('the log line is the phase failure message quoted in the PR; gateway_timeout_s is the readiness probe\'s '
           'configured client timeout (30 s), which the operator has in the validator configuration; no model is named; '
           'the PR\'s other cause (TTFT-p99 gate jitter at the 2048 saturation knee) is a separate problem and is not '
           'part of this case'),
    leak=("The PR's diagnosis (a fresh worker's first inference takes ~42 s capturing CUDA graphs / JIT-warming "
          "kernels, longer than the probe's timeout; intermittent because RTX cold start straddles 30 s) and the fix "
          "are left out; the 30 s timeout is kept only as configuration."),
    hard=None))

I.append(dict(
    src='https://community.openai.com/t/error-code-524-message-gateway-timeout-param-none-type-cf-gateway-timeout/219369/10',
    thread_type='forum',
    engine='OpenAI API (hosted) behind Cloudflare, non-streaming requests', engine_version='2023', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Cloudflare in front of the API closes an HTTP request that has not answered within 100 seconds and '
                'returns 524 cf_gateway_timeout; long non-streaming completions (server load, tool use) exceed it.'),
    fix='Use streaming so each chunk arrives well within the 100-second limit (or keep requests under 100 s).',
    confidence='plausible',
    evidence={
        'title': "Error {'code': 524, 'message': 'Gateway timeout.', 'param': None, 'type': 'cf_gateway_timeout'}}",
        'reply': ['CloudFlare has a 100-second limit on HTTP requests.',
                  'So, it is necessary to keep your requests under this 100-second limit.',
                  ('Depending on current server load, tool use, etc it’s possible for some requests to take more time '
                   'than this, which is causing this error.'),
                  ('The solution is to use streaming which chunks the response. Since each chunk takes far fewer than '
                   '100-seconds to complete the call does not get interrupted and you won’t get the 524 errors.')],
    },
    log=["Error {'code': 524, 'message': 'Gateway timeout.', 'param': None, 'type': 'cf_gateway_timeout'}"],
    args_model=None,
    args_gpu=None,
    notes=('the log line is the error the API client returned (the thread title, minus a stray closing brace); the '
           'stored page is one reply of the thread, so the request that failed is not shown; no model or GPU is named'),
    leak=("The reply's explanation (Cloudflare's 100-second limit on HTTP requests; streaming avoids it) is left "
          "out; the error type cf_gateway_timeout stays because it is the error the client printed."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/production-stack/issues/1016', thread_type='issue',
    engine='vLLM production-stack router (KV-aware routing, LMCache controller) in front of vLLM on Kubernetes',
    engine_version='Jul 2026 (main)', gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('KvawareRouter.route_request does blocking I/O on the uvicorn event loop for every request '
                '(AutoTokenizer.from_pretrained of the served model name, which never succeeds for an alias like '
                '"default" or with huggingface.co egress blocked and so is retried per request; a synchronous /tokenize '
                'POST of the whole prompt; a controller lookup). With ~30K-token prompts the loop stalls, the router\'s '
                'own /health starves, and the kubelet kills it on liveness failures; the backend stays healthy.'),
    fix='Make the router\'s tokenizer fetch, /tokenize call and controller lookup non-blocking (or cache the tokenizer / use a resolvable tokenizer name).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('KvawareRouter blocks the event loop per request (sync tokenizer fetch + /tokenize POST + controller '
                  'lookup) — health probes starve, router CrashLoops under load'),
        'desc': ('`KvawareRouter.route_request` performs blocking I/O on the uvicorn event loop for every routed '
                 'request, which starves the router\'s own `/health` endpoint. Under Kubernetes liveness/readiness '
                 'probes this makes the router CrashLoop as soon as it receives sustained traffic — we observed 25 '
                 'liveness-kill restarts in ~1h on a single-replica kvaware router receiving one ~30K-token request '
                 'every 15s, with zero requests completing.'),
        'call_1': ('`self.tokenizer = AutoTokenizer.from_pretrained(endpoints[0].model_names[0])` — a synchronous '
                   'network fetch on the event loop. When the served model name is an alias (a common '
                   '`--served-model-name` pattern, e.g. `default`), this can never succeed; in a locked-down cluster '
                   '(egress policy blocking huggingface.co) it blocks until the connection attempt times out — every '
                   'request, since `self.tokenizer` is only assigned on success.'),
        'repro': ('The workload was an exactly 30,000-token prompt every 15 seconds, eight output tokens, and 2-second '
                  'startup/readiness/liveness probe timeouts. With normal router egress, 12/12 completions and 177/177 '
                  'one-second health samples returned 200; health max was 0.221s and the router had zero restarts.'),
        'repro_blocked': ('With external router egress blocked, after proving DNS, backend `/tokenize`, controller, and '
                          'worker reachability, the first long request wedged before the backend fallback. I measured 81 '
                          'health samples over two seconds, 18 readiness failures, six liveness failures, and two '
                          'liveness-triggered router restarts. The backend stayed Ready with zero restarts.'),
    },
    observe={'input_len_mean': (30000, '~30K-token request'),
             'request_rate': (0.0667, 'every 15s'),
             'error_rate': (1.0, 'with zero requests completing')},
    args_model=None,
    args_gpu=None,
    notes=('no log line is quoted; input_len_mean is the ~30K-token prompt, request_rate one request every 15 s '
           '(0.0667/s) and error_rate 1.0 the zero completions the reporter measured; the 25 liveness-kill router '
           'restarts have no VOCAB name and are not passed; the router is not a model engine, so no engine_args; the '
           'crash-looping router is passed as other'),
    leak=("The title and the reporter's analysis (blocking tokenizer fetch, /tokenize POST and controller lookup on "
          "the event loop starving /health) and the second user's reproduction are left out."),
    hard=('The inputs show only a long prompt at a low rate and 100% failures; the router restarts, the healthy '
          'backend and the blocking calls in the router are not machine-readable inputs.')))

I.append(dict(
    src='https://github.com/Aider-AI/aider/issues/276', thread_type='issue',
    engine='aider (openai python client) -> local OpenAI-compatible server at localhost:1234', engine_version='Oct 2023',
    gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The client library (the standard openai python package used by aider) gives up on a request after its '
                'default 600-second read timeout and retries; a slow local model needs longer than 10 minutes for a '
                'reply, and the tool offered no way to raise the timeout.'),
    fix='Expose and raise the client request timeout (aider later added a timeout setting).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Is it possible to set custom timeout?',
        'report': 'I got the following message while working with a slow local model:',
        'log': ['Applied edit to index.html', 'Applied edit to style.css',
                ("Request timed out: HTTPConnectionPool(host='localhost', port=1234): Read timed out. "
                 "(read timeout=600)"),
                'Retry in 0.2 seconds.'],
        'question': 'Is it possible to set custom values for the timeout and retry periods?',
        'maintainer': ('Aider uses the standard openai python library, which apparently does not accept a timeout '
                       'parameter.'),
        'maintainer_later': 'What is the error you are facing? The default of 10 minutes is a pretty long timeout.',
        'other_user': ('I am also running into timeout issues with my locally hosted QwQ model. It\'s EXTREMELY chatty, '
                       'and'),
    },
    log=[('log', 2), ('log', 3)],
    observe={'gateway_timeout_s': (600, '(read timeout=600)')},
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the aider console lines the reporter pasted (the two "Applied edit" lines are left out as '
           'unrelated); gateway_timeout_s is the client read timeout printed in the error (600 s); the local server and '
           'model are not named (port 1234 only); no GPU is given'),
    leak=("The maintainer's replies (aider uses the openai python library's default timeout of 10 minutes, which it "
          "could not set) and the later fix are left out; the report's \"slow local model\" is not passed."),
    hard=None))

I.append(dict(
    src='https://github.com/llm-d/llm-d-benchmark/pull/1787', thread_type='pr',
    engine='llm-d-benchmark workload client (guide_optimized-baseline) against an llm-d deployment of a 32B model',
    engine_version='Aug 2026', gpu=None, model='32B model (unnamed)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The benchmark client\'s request_timeout of 30 s was shorter than the queueing delay the workload itself '
                'produces (7200-token prompts, 1000 output tokens, Poisson stages up to 60 req/s), so the client '
                'aborted requests prematurely and the CI baseline failed.'),
    fix='Raise the workload\'s request_timeout to 300 s, as the other guide workloads use.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(workload): increase request_timeout to 300s for guide_optimized-b…',
        'desc': ('CI for llm-d has been failing for optimized baseline, for example: '
                 'https://github.com/llm-d/llm-d/actions/runs/31587431261/job/94084497061'),
        'cause': ('Generating 1000 output tokens on a 32B model with 7200 prompt tokens under high-rate Poisson stages '
                  '(up to 60 req/s) leads to queuing delays that exceed the previous 30s timeout. Increasing '
                  'request_timeout to 300s aligns with other guide workloads (e.g. predicted-latency-routing) and '
                  'prevents premature client-side aborts.'),
    },
    observe={'input_len_mean': (7200, '7200 prompt tokens'),
             'output_len_mean': (1000, '1000 output tokens'),
             'request_rate': (60, '(up to 60 req/s)'),
             'gateway_timeout_s': (30, 'previous 30s timeout')},
    args_model=None,
    args_gpu=None,
    notes=('observe values are the workload settings named in the PR (prompt and output lengths, the highest Poisson '
           'stage rate, the client request_timeout that was in force); no log line from the failing CI job is quoted; '
           'the CI failure is passed as timeout_or_stream_break; model and GPU are not named'),
    leak=("The PR title (increase request_timeout) and the explanation that queuing delays exceed the 30 s client "
          "timeout and cause premature client-side aborts are left out; the 30 s value is kept as the workload's "
          "configuration."),
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://resume-site-4js.pages.dev/experiments/kv-cache', thread_type='blog',
    engine='LLM server on a live cluster (GPU Inference Decision Lab; scheduler caps max-num-seqs / max-num-batched-tokens)',
    engine_version='May 2026', gpu='AWS g4dn', model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('The arrival rate of long requests (8192-token prompts, 300 output tokens) crossed the service capacity '
                'knee: usable through 1.10 req/s, queueing from 1.15 req/s (16 waiting, p95 42.49 s, p95 queue 14.02 s) '
                'and queue-dominated at 1.20 req/s, with decode roughly unchanged. Scheduler caps (seqs-16, seqs-24, '
                'batched-16384) did not help; admission control removed the queue.'),
    fix='Keep the long-prompt arrival rate below the ~1.10 req/s knee (admission control / rate limiting) or add capacity.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'KV Cache vs Concurrency',
        'question': 'How does longer prompt context change concurrency and throughput?',
        'summary': ('Long prompts can look healthy until arrival rate crosses a narrow boundary. The May 18 '
                    'server-timing follow-up attributes the tail to queue and TTFT inflation, not decode.'),
        'boundary': ('With 8192-token prompts and 300 generated tokens, the profile is usable through 1.10 req/s, '
                     'queues repeatably at 1.15 req/s, and is queue-dominated by 1.20 req/s. Server timing shows '
                     'admission removes queue and TTFT inflation while decode stays roughly unchanged.'),
        'stable': ['Stable repeat', '1.10 req/s', '0 waiting; p95 25.23s; p95 queue 0.285s'],
        'queue_starts': ['Queue starts', '1.15 req/s', '16 waiting; p95 42.49s; p95 queue 14.02s'],
        'cap_variants': ['Cap variants', '0 wins', 'seqs-16, seqs-24, and batched-16384 did not beat baseline'],
        'admission': ['Admission result', '27.98s p95', '59 unserved; p95 queue 0.285s; 32 active'],
        'sweep_1_00': ['Target: 1.00 req/s', 'Outcome: stable but slower', 'p95 latency: 11.92s',
                       'Peak waiting: 0 waiting / 12 active', 'GPU max: 100%'],
        'evidence_line': 'Supported: Long-context knee / Rejected: FP8 KV on g4dn',
    },
    observe={'request_rate': (1.15, '1.15 req/s'),
             'waiting': (16, '16 waiting'),
             'e2e_p99_s': (42.49, 'p95 42.49s'),
             'input_len_mean': (8192, '8192-token prompts'),
             'output_len_mean': (300, '300 generated tokens')},
    args_model=None,
    args_gpu='AWS g4dn',
    notes=('the case is the 1.15 req/s operating point of the sweep: request_rate, waiting (16) and the p95 request '
           'latency (42.49 s, passed as e2e_p99_s, the nearest VOCAB name) are its measured values; input/output '
           'lengths are the workload profile; the engine and model are not named on the page (scheduler caps '
           'seqs/batched-tokens and FP8 KV suggest vLLM); the GPU is only named as the g4dn instance; the queue and '
           'TTFT inflation is passed as ttft_spike'),
    leak=("The page's conclusions (the tail is queue and TTFT inflation, not decode; scheduler caps gave 0 wins; "
          "admission removes the queue) and the other sweep points are left out of the inputs."),
    hard=None))

I.append(dict(
    src='https://stackbytes.beehiiv.com/p/why-your-gpu-is-idle-but-your-requests-are-queued', thread_type='blog',
    engine='vLLM OpenAI server (fixed offered request rate, output length varied)', engine_version='2026',
    gpu='RTX 4090', model='Qwen2.5-7B-Instruct',
    symptom='ttft_spike', layer='load',
    root_cause=('At the same offered request rate only the requested output length grew (128 -> 1,024 tokens). Each '
                'long-output request holds its KV blocks for its whole generation, so the server admits fewer requests '
                'at a time, served throughput falls (0.95 -> 0.24 req/s) below the offered rate and new requests wait '
                'in the queue: mean TTFT 196 ms -> 144 s while TPOT stays at 18 ms.'),
    fix='Lower the output length (max_tokens) or the offered rate for long outputs, or add KV/GPU capacity.',
    confidence='confirmed_by_reporter',
    evidence={
        'intro': ('I ran vLLM on an RTX 4090, loaded Qwen2.5‑7B‑Instruct, and started testing longer outputs. At 1,024 '
                  'tokens, TTFT jumped to 144 seconds. TPOT stayed around 18 ms.'),
        'aside': 'The GPU wasn’t the issue. Something else was off.',
        'setup': 'Same hardware. Same model. Same offered request rate. Only output length changes.',
        'table': ['Output tokens | Actual req/s | Mean TTFT | Mean TPOT |',
                  '128 | 0.95 | 196 ms | 18.2 ms |',
                  '256 | 0.87 | 3,098 ms | 18.2 ms |',
                  '512 | 0.46 | 49,929 ms | 18.0 ms |',
                  '1,024 | 0.24 | 144,074 ms | 18.0 ms |'],
        'reading': ('Those two facts together tell you exactly what\'s happening. The GPU is not slow. Requests are '
                    'waiting to get in.'),
        'cause': ('This means a long-output request is a long-term HBM tenant. It sits in GPU memory for its entire '
                  'generation lifetime, blocking that capacity from anything else.'),
    },
    observe={'ttft_p50_s': (144.074, '144,074 ms'),
             'tpot_p50_s': (0.018, 'TPOT stayed around 18 ms'),
             'output_len_mean': (1024, 'At 1,024 tokens')},
    args_model='Qwen2.5-7B-Instruct',
    args_gpu='RTX 4090',
    notes=('observe values are the 1,024-output-token row of the author\'s table: mean TTFT 144,074 ms (passed as '
           'ttft_p50_s, the nearest VOCAB name) and mean TPOT 18.0 ms; the offered request rate is not stated (only the '
           'served 0.24 req/s, which is not passed); no vLLM flags are given'),
    leak=("The author's reading (the GPU is not slow, requests are waiting to get in) and the KV-cache explanation "
          "are left out, and so are the shorter-output rows that show the trend."),
    hard=None))

I.append(dict(
    src='https://www.isaacnote.com/2026/02', thread_type='blog',
    engine='vLLM OpenAI-compatible server under a self-written benchmark script', engine_version='Feb 2026',
    gpu=None, model=None,
    symptom='throughput_low', layer='load',
    root_cause=('The benchmark client, not the server: requests were sent in batches with time gaps, so the number of '
                'active connections never kept the server loaded and the measured throughput looked lower than the '
                'real capacity. With a fixed connection count and bursts that keep the queue full, requests per second '
                'and token throughput rose until the real capacity limit.'),
    fix='Benchmark with a fixed number of connections and back-to-back requests that keep the server queue full, stepping the connection count up.',
    confidence='confirmed_by_reporter',
    evidence={
        'context': ('Recently I had a chance to benchmark vLLM running on a GPU, to understand how much throughput could '
                    'realistically be expected in a serving setup.'),
        'first_results': ['The first results surprised me.', 'Throughput looked slow.',
                          'GPU utilization stayed around 99%.'],
        'cause': ('In my earlier tests, I was sending requests in batches with time gaps. If the number of active '
                  'connections did not fully load the server, the measured throughput looked lower than it actually '
                  'was.'),
        'new_method': ['Fix the number of connections.',
                       'Send requests quickly in a burst so the server queue stays full.',
                       'Increase the connection count step by step.'],
        'result': ('With this setup, I saw that requests per second increased as connection count increased. Token '
                   'throughput also improved. But after a certain point, adding more connections caused performance to '
                   'drop. That helped me see the real capacity limit of the system.'),
    },
    observe={'gpu_util': (0.99, 'GPU utilization stayed around 99%')},
    args_model=None,
    args_gpu=None,
    notes=('the only machine-usable input is the GPU utilisation the author saw during the first runs (99% -> 0.99); '
           'no benchmark numbers, flags, model or GPU are given; the slow measured throughput is passed as '
           'throughput_low'),
    leak=("The author's finding (requests sent in batches with time gaps did not keep enough connections active) and "
          "the corrected method and its results are left out."),
    hard=('Only the 99% GPU utilisation is in the inputs; the client\'s gapped batches, which under-loaded the server, '
          'are not.')))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261224, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
