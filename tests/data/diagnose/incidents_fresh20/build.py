#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh20: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh18; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation, list bullets/numbers dropped; a few long lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on (a) the gateway/client layer in front of the engines (proxies,
routers, SDK and fetch timeouts, retries, rate and concurrency limits) and (b) numeric/parameter and output-quality
problems (chat templates, tool-call and reasoning parsers, sampling defaults, generation_config, quantization, context
length), any engine.

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
    src='https://github.com/THU-MAIC/OpenMAIC/issues/1403', thread_type='issue',
    engine='OpenMAIC (self-hosted Next.js app, Node fetch/undici) calling a hosted GLM thinking model',
    engine_version='Sep 2026', gpu=None, model='glm-5.2 (thinking on, reasoning_effort=max)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Non-streaming LLM calls only receive response headers once the whole completion exists, and Node\'s '
                'global fetch (undici) aborts any request whose headers have not arrived within its default '
                'headersTimeout of 300 s; thinking-model generations longer than 5 minutes therefore died client-side '
                'at exactly 300 s with "Headers Timeout Error".'),
    fix='Route LLM requests through an undici Agent with a 15-minute headersTimeout/bodyTimeout (or stream the response).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Self-hosted: non-streaming LLM calls die at exactly 5 minutes (undici headersTimeout) with thinking models',
        'background': ('On a self-hosted deployment (Docker / `next start`, no platform function timeout), any '
                       '**non-streaming** LLM call to a thinking model that takes longer than **exactly 300 s** fails with:'),
        'error': 'AI_APICallError: Cannot connect to API: Headers Timeout Error',
        'observed': 'Generating a classroom scene with `glm-5.2` (thinking on, `reasoning_effort=max`):',
        'log': ['[06:39:23] [INFO]  [Scene Content API] Generating content: "…" (slide) [model=glm:glm-5.2]',
                '[06:44:23] [ERROR] [Scene Content API] Scene content generation failed …',
                'AI_APICallError: Cannot connect to API: Headers Timeout Error'],
        'diagnosis': "Exactly 300 s apart — that is Node's global fetch (undici) default `headersTimeout`.",
        'mechanism': ('A **non-streaming** completion only receives response headers once the *whole* completion exists, '
                      'so "headers timeout" effectively bounds the total generation time.'),
        'fix_pr_1404': ('This routes every outbound LLM request through an undici `Agent` with a 15-minute '
                        '`headersTimeout`/`bodyTimeout`, attached at the shared `transportFetch` seam so all transports '
                        '(OpenAI-compatible gateways, native OpenAI/Responses, Azure, Anthropic-compatible, Bedrock, Google '
                        '— including the proxied Google transport) inherit it.'),
        'fix_pr_closes': 'Closes #1403',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    observe={'e2e_p99_s': (300, 'Exactly 300 s apart')},
    args_model='glm-5.2',
    args_gpu=None,
    notes=('the log lines are the app log the reporter quoted (the error line was indented under the ERROR line in the '
           'source); the time from request to failure (06:39:23 -> 06:44:23, 300 s) is passed as e2e_p99_s; the model is '
           'a hosted API, so no engine flags or GPU'),
    leak=("The title and background naming undici's headersTimeout and the non-streaming call, the reporter's diagnosis "
          "line, the mechanism section and the fix PR (#1404) are left out; only the log lines and the 300 s are passed."),
    hard=None))

I.append(dict(
    src='https://github.com/tscibilia/home-ops/pull/3587', thread_type='pr',
    engine='llama.cpp (qwen-local) behind a Go router-proxy and LiteLLM (home-ops cluster)', engine_version='Aug 2026',
    gpu=None, model='qwen-local (llama.cpp)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("The router-proxy in front of llama.cpp used Go's ResponseHeaderTimeout default of 120 s; llama.cpp only "
                "sends response headers after the full completion of a non-streaming request, so longer non-streaming "
                "calls died at 2 minutes with 'net/http: timeout awaiting response headers' (an intermittent 502), while "
                "streaming requests passed."),
    fix="Raise the router-proxy's response-header timeout to 10 minutes (matching LiteLLM's request_timeout of 600 s).",
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(ai): raise model router response-header timeout to 10m',
        'description': ("airwave's non-streaming planLineup calls to qwen-local died at 2m with\n"
                        "\"net/http: timeout awaiting response headers\" because the router-proxy's\n"
                        "default ResponseHeaderTimeout (120s) caps non-streaming generation: llama.cpp\n"
                        "only sends headers after the full completion. Streaming requests passed, so\n"
                        "the 502 was intermittent. Match litellm's request_timeout (600s)."),
        'log': 'net/http: timeout awaiting response headers',
    },
    log=[('log', None)],
    observe={'e2e_p99_s': (120, 'died at 2m')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the Go HTTP client error quoted in the PR description; the time to failure (2 minutes) is '
           'passed as e2e_p99_s; the PR author measured the failure and merged the fix; no engine flags, model file or '
           'GPU are named'),
    leak=("The PR title (raise the router's response-header timeout), the cause clause (the router-proxy's default "
          "ResponseHeaderTimeout of 120 s, llama.cpp sending headers only after the completion) and the fix are left "
          "out; that streaming requests passed is not in the inputs."),
    hard=None))

I.append(dict(
    src='https://github.com/VectifyAI/OpenKB/issues/132', thread_type='issue',
    engine='OpenKB (LiteLLM client) calling a local Ollama model', engine_version='Jun 2026', gpu=None,
    model='ollama/<model> (unnamed local model)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('OpenKB called the local Ollama model through LiteLLM without passing a timeout, so LiteLLM\'s default '
                'request timeout of 600 s applied; on larger documents the slow local generation took longer than 10 '
                'minutes and the client gave up with litellm.Timeout, although the server was still working.'),
    fix='Make the client timeout configurable (timeout: 1200 in .openkb/config.yaml, added in OpenKB #134).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Feature] Support passing timeout parameter to LiteLLM',
        'setup': 'I am attempting to run OpenKB using a local Ollama model as LLM backend: ',
        'config': ['language: en', 'model: ollama/<model>', 'pageindex_threshold: 20'],
        'report': ('For larger documents I am running into default (10min) timeout issues: `litellm.Timeout: Connection '
                   'timed out. Timeout passed=600.0`. It would be great if timeouts could be set via the config.yml, e.g.:'),
        'log': 'litellm.Timeout: Connection timed out. Timeout passed=600.0',
        'maintainer': ("Thanks @markus-meingast — that's a reasonable ask. We'll add support for configuring the timeout. "
                       "Will update here once it's in. 🙏"),
        'maintainer_fix': 'Hi @markus-meingast — added in #134.',
        'fix_config': 'timeout: 1200',
    },
    log=[('log', None)],
    observe={'gateway_timeout_s': (600, 'Timeout passed=600.0')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the LiteLLM client exception quoted in the report (backticks dropped); the timeout it names '
           '(600 s) is passed as gateway_timeout_s; the Ollama model is not named and no GPU is given'),
    leak=("The reporter's reading of it as the default (10 min) timeout, the request for a configurable timeout, the "
          "maintainers' replies and the fix (timeout: 1200) are left out; that it happens only for larger documents is "
          "not in the inputs."),
    hard=None))

I.append(dict(
    src='https://github.com/vectorize-io/hindsight/issues/1147', thread_type='issue',
    engine='Hindsight API 0.5 (LLM client with retry wrapper) calling a hosted Gemini model', engine_version='0.5',
    gpu=None, model='gemini-3-flash-preview (free tier, 20 requests/day)',
    symptom='throughput_low', layer='gateway_client',
    root_cause=('The LLM provider answered 429 (quota exceeded / rate limited); the client\'s retry wrapper (10 retries, '
                'backoff up to 60 s) silently consumed its retry budget on every call instead of surfacing the 429, so '
                'the retain/consolidation queue bloated with operations taking 5-25 minutes each while no failure was '
                'ever recorded.'),
    fix='Surface quota/429 errors instead of retrying them silently (and stay within the provider quota).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'LLM quota/429 errors get swallowed by retry wrapper — silent queue bloat + startup crash loop',
        'summary': ("When the configured LLM provider returns 429 (quota exceeded, rate limited), Hindsight's retry wrapper "
                    "silently consumes its retry budget instead of surfacing the condition. This causes two distinct "
                    "failure modes:"),
        'runtime': ('**At runtime:** retain/consolidation queue bloats silently with slow ops. `list_operations` shows '
                    '`failed: 0` and no error messages — just pending ops that eventually complete in 5-25 minutes each.'),
        'hard_to_see': 'Both are hard to diagnose from the outside because operators assume "no failures" = "healthy."',
        'settings': ('Run Hindsight 0.5 with default retry settings (`HINDSIGHT_API_LLM_MAX_RETRIES=10`, '
                     '`HINDSIGHT_API_LLM_TIMEOUT=120`, `HINDSIGHT_API_LLM_INITIAL_BACKOFF=1`, '
                     '`HINDSIGHT_API_LLM_MAX_BACKOFF=60`).'),
        'observe': ('Observe `list_operations`: `pending` count grows, `failed` stays at 0, completed ops show '
                    '5-25-minute durations.'),
        'real_world': ('**Real-world observation (2026-04-18):** a deployment with `gemini-3-flash-preview` (free tier '
                       '20 req/day'),
    },
    engine_args=('HINDSIGHT_API_LLM_MAX_RETRIES=10 HINDSIGHT_API_LLM_TIMEOUT=120 HINDSIGHT_API_LLM_INITIAL_BACKOFF=1 '
                 'HINDSIGHT_API_LLM_MAX_BACKOFF=60'),
    observe={'error_rate': (0.0, '`failed` stays at 0'), 'e2e_p99_s': (1500, '5-25-minute durations')},
    args_model='gemini-3-flash-preview',
    args_gpu=None,
    notes=('engine_args is rebuilt from the client\'s retry settings (environment variables, the defaults the reporter '
           'ran with); no operation ever failed (error_rate 0.0); the slowest operations took 25 minutes (1500 s, passed '
           'as e2e_p99_s); the growing pending queue is passed as throughput_low; hosted model, so no GPU'),
    leak=("The title and summary (429/quota errors swallowed by the retry wrapper), the provider's free-tier quota of 20 "
          "requests per day and the startup crash-loop half of the report are left out; no 429 appears in the inputs."),
    hard='The 429 responses are swallowed by the retry wrapper; the inputs show only retry settings, zero failures and slow operations.'))

I.append(dict(
    src='https://github.com/skye-harris/hass_local_openai_llm/issues/15', thread_type='issue',
    engine='Home Assistant Local OpenAI LLM integration (OpenAI Python SDK) in front of Ollama', engine_version='Jan 2026',
    gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('The integration was configured with the bare Ollama address (http://<host>:11434) as its OpenAI base '
                'URL; the OpenAI SDK appends /models and /chat/completions directly, but Ollama serves its '
                'OpenAI-compatible API under /v1, so every call got 404 page not found although the server was up.'),
    fix='Use http://<host>:11434/v1 as the base URL.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Unable to connect to Ollama API',
        'desc': ('When setting up the integration, I am supplying the base URL to connect to my Ollama server. When I do '
                 'so during the configuration of the integration, I get a failure/error. Here is the log exerpt:'),
        'log': ['OpenAI Error: 404 page not found',
                'Traceback (most recent call last):',
                'File "/config/custom_components/local_openai/config_flow.py", line 146, in async_step_user',
                'await client.models.list()',
                'openai.NotFoundError: 404 page not found'],
        'url': 'For the url I am entering in http://<myserverhostname>:11434',
        'curl_check': ('I confirmed I am able to access the server externally, and did a curl from the HA to '
                       'http://<myserverhostname>:11434/api/version and confirm it replies as expected.'),
        'guess': ("My guess is it can't find the /api/models endpoint; from the research I have done it appears ollama "
                  "does not expose such an endpoint, but I think the OpenAI specification expects it to exist?"),
        'maintainer': "Yep what @NickM-27 has said: Ollamas OpenAI-compatible API is exposed on the",
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4)],
    engine_args='base_url=http://<myserverhostname>:11434',
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the integration\'s log excerpt (the traceback cut to its first frame and the final '
           'exception; indentation dropped); engine_args is the client\'s configured base URL as the reporter entered '
           'it (a client setting, not an engine flag); no model or GPU is named'),
    leak=("The maintainer's answer (Ollama's OpenAI-compatible API is under /v1, as a previous commenter said) is left "
          "out; the reporter's guess about the models endpoint is not in the inputs."),
    hard=None))

I.append(dict(
    src='https://github.com/BerriAI/litellm/issues/13898', thread_type='issue',
    engine='LiteLLM proxy (docker, latest-stable) with team virtual keys', engine_version='Aug 2025', gpu=None,
    model=None,
    symptom='other', layer='gateway_client',
    root_cause=('The proxy\'s rate limiter enforces the limits of the team the virtual key belongs to; that team had a '
                'TPM limit of 5000 (and RPM 15) although the key\'s own limits were set high, so a single request of '
                '12,260 tokens within the minute crossed the team TPM limit and the proxy answered 429.'),
    fix="Raise (or remove) the team's tpm/rpm limits, not only the key's.",
    confidence='plausible',
    evidence={
        'title': '[Bug]: Getting 429: Crossed TPM / RPM / Max Parallel Request Limit',
        'setup': 'I am using docker based proxy server to setup LLM, `latest-stable`',
        'hitting': 'I am hitting `HttpException 429`',
        'confusion': ('I am using Virtual Key for team, for which I have already set all the limits high, not '
                      'understanding where I am getting `tpm limit: 5000,`'),
        'log': ('429: LiteLLM Rate Limit Handler for rate limit type = team. Crossed TPM / RPM / Max Parallel Request '
                'Limit. current rpm: 1, rpm limit: 15, current tpm: 12260, tpm limit: 5000, current '
                'max_parallel_requests: 0, max_parallel_requests: 9223372036854775807'),
    },
    log=[('log', None)],
    args_model=None,
    args_gpu=None,
    notes=('the log line is the proxy\'s 429 error message as quoted; no model, backend or GPU is named; plausible: the '
           'stored thread has no maintainer reply, the proxy\'s own message names the team-level TPM limit it enforced'),
    leak=("Nothing beyond the reporter's confusion about where the 5000 limit comes from is left out; there is no "
          "maintainer diagnosis in the stored excerpt."),
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/12999', thread_type='issue',
    engine='vLLM OpenAI server with the deepseek_r1 reasoning parser', engine_version='0.7.2', gpu=None,
    model='deepseek-ai/DeepSeek-R1-Distill-Qwen-32B',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('DeepSeek updated the model\'s chat template to put the opening <think> token into the prompt, so the '
                'model no longer generates <think>; vLLM 0.7.2\'s deepseek_r1 reasoning parser required both <think> and '
                '</think> in the output, so reasoning_content was always None and the reasoning leaked into content.'),
    fix='Use a reasoning parser that treats output before </think> as reasoning (vLLM PR #13025), or the older template.',
    confidence='maintainer_explained',
    evidence={
        'title': "[Bug]: deepseek reasoning_content is always None , because deepseek change the chat template",
        'environment': 'https://huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Qwen-32B/commit/3865e12a1eb7cbd641ab3f9dfc28c588c6b0c1e9',
        'version': 'vllm version V0.7.2',
        'input': 'input :  hello',
        'output': ['Alright, the user just said "hello." That\'s a friendly greeting. I should respond in a warm and '
                   'welcoming manner. Maybe say something like, "Hello! How can I assist you today?" That way, I\'m open '
                   'to whatever they need help with.',
                   '</think>',
                   'Hello! How can I assist you today?'],
        'observation': "just has '\\</think>' no '\\<think>' , so reasoning_content is None",
        'fix_pr_13025': ('They added the `<think>` token to the chat template, indicating that the first section '
                         'represents the thinking process and won\'t output `<think>` in the final output. This PR aims to '
                         'address the reasoning parser implementation.'),
        'fix_pr_link': 'FIX https://github.com/vllm-project/vllm/issues/12999',
    },
    outputs=[('output', 0), ('output', 1), ('output', 2)],
    args_model='deepseek-ai/DeepSeek-R1-Distill-Qwen-32B',
    args_gpu=None,
    notes=('the output lines are the response the reporter got for the input "hello" (reasoning text, a lone </think>, '
           'the answer); the server command line is not quoted, so no engine_args; no GPU is named'),
    leak=("The title (deepseek changed the chat template), the link to the template commit, the reporter's note that "
          "reasoning_content is None and the fix PR #13025 (the template now puts <think> in the prompt) are left out."),
    hard=None))


I.append(dict(
    src='https://github.com/zai-org/GLM-4/issues/760', thread_type='issue',
    engine='vLLM OpenAI server (V100, --dtype float16)', engine_version='Apr 2025', gpu='NVIDIA V100',
    model='GLM-Z1-32B-0414',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('GLM-Z1-32B-0414 is numerically unstable in float16; served with --dtype float16 (V100 has no bfloat16) '
                'the activations overflow and every response is a string of exclamation marks. The model must run in '
                'bfloat16 (or float32).'),
    fix='Serve the model in bfloat16 (or float32 on GPUs without bfloat16).',
    confidence='maintainer_explained',
    evidence={
        'title': 'GLM-Z1-32B-0414 vLLM部署调用结果为一串感叹号！',
        'desc': '不管是流式还是非流式调用，都遇到一样的问题。',
        'response': ('{"id":"chatcmpl-ba316d97677d4aa69cb980c773edc4a6","object":"chat.completion","created":1745199882,'
                     '"model":"GLM-Z1-32B-0414","choices":[{"index":0,"message":{"role":"assistant",'
                     '"reasoning_content":null,"content":"!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'),
        'same_problem': ('我也碰到一样的问题，指定float16，输出就都是感叹号，因为V100不支持bfloat16，但如果替换为float32即可输出正常，'
                         '怀疑是否不支持float16的类型'),
        'maintainer': '是的，这个模型不支持FP16，必须得用BF16才能运行',
    },
    outputs=['!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'],
    engine_args='--dtype float16',
    args_model='GLM-Z1-32B-0414',
    args_gpu='V100',
    notes=('the output line is a prefix of the content the server returned (a string of several hundred exclamation '
           'marks, cut to 60); engine_args and the GPU are rebuilt from the thread comment ("指定float16", "V100不支持'
           'bfloat16") of a user with the same output, whose setup the maintainer answered; the reporter\'s own launch '
           'command is not quoted'),
    leak=("The commenter's finding that float32 gives normal output and the suspicion that float16 is unsupported, and "
          "the maintainer's answer (the model does not support FP16, use BF16) are left out."),
    hard=None))


I.append(dict(
    src='https://github.com/mudler/vllm.cpp/issues/2077', thread_type='issue',
    engine='vllm.cpp server (vllm-server, C++ engine, ROCm)', engine_version='Aug 2026', gpu=None,
    model='Qwen3.5-4B-Q4_K_M.gguf',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The server loaded the chat template only from tokenizer_config.json; for a .gguf model that file does '
                'not exist, so it fell back to a naive "user: ...\\nassistant:" role-join prompt instead of the '
                'tokenizer.chat_template stored in the GGUF. Qwen3.5 does not understand that format, echoes '
                '"assistant:" and loops on it until max_tokens, so every response is garbage.'),
    fix='Load the chat template from the GGUF metadata (tokenizer.chat_template) when no tokenizer_config.json exists (PR #2079).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('server: GGUF models fall back to the naive role-join prompt because the chat template is never loaded '
                  'from GGUF metadata'),
        'what_is_wrong': ('`server_main.cpp` loads the chat template exclusively from `tokenizer_config.json` via '
                          '`LoadChatTemplateFromConfig`. When `--model` points to a `.gguf` file, the path resolves to '
                          '`<file>.gguf/tokenizer_config.json`, which does not exist. The server falls back to '
                          '`DefaultChatPromptFallback`, a naive `user: <content>\\nassistant:` join.'),
        'impact': ('A GGUF model started with `vllm-server --model <file>.gguf` does not understand the naive prompt '
                   'format. The model interprets the bare `assistant:` as a generation prompt, echoes it back, and loops '
                   'on `\\nassistant:\\n` until `max_tokens` is exhausted. Every response is garbage, and tokens-per-second '
                   'reads as near zero because every token is wasted on the loop.'),
        'observed_on': 'Observed on `kind_tharp` (ROCm 7.14, Qwen3.5-4B-Q4_K_M.gguf):',
        'log': ['server: no chat template (cannot open tokenizer_config.json:',
                '/models/vllm.cpp/Qwen3.5-4B-Q4_K_M.gguf/tokenizer_config.json);',
                'falling back to the simple role-join prompt'],
        'stream_header': 'Streaming response (before fix, `max_tokens=20`):',
        'stream': 'data: {"choices":[{"delta":{"content":"\\n"},...}]}',
        'fix_pr_2079_title': 'fix(#2077): load the chat template from GGUF metadata when no tokenizer_config.json exists',
        'fix_pr_2079': ('`server_main.cpp` now falls back to `LoadChatTemplateFromGguf` when `LoadChatTemplateFromConfig` '
                        'fails and the model is a `.gguf` file.'),
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    outputs=[('stream', None)],
    engine_args='--model Qwen3.5-4B-Q4_K_M.gguf',
    args_model='Qwen3.5-4B-Q4_K_M.gguf',
    args_gpu=None,
    notes=('the log lines are the server start-up message as quoted (one message wrapped over three lines, indentation '
           'dropped); the output line is the first streamed chunk quoted by the reporter (elided with "..." in the '
           'source); engine_args is rebuilt from "vllm-server --model <file>.gguf" with the model file named in the '
           'report; the GPU is only described as ROCm 7.14, so none is passed'),
    leak=("The title and the 'What is wrong' and 'Impact' sections (template read only from tokenizer_config.json, the "
          "naive role-join prompt, the assistant: loop) and the fix PR #2079 are left out."),
    hard=None))


I.append(dict(
    src='https://github.com/aws-samples/bedrock-access-gateway/pull/237', thread_type='pr',
    engine='Bedrock Access Gateway (OpenAI-compatible proxy in front of Amazon Bedrock), agent-framework client',
    engine_version='Apr 2026', gpu=None, model='Claude Opus 4.6 (eu.anthropic.claude-opus-4-6-v1)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('When the client sends no max_tokens, the gateway\'s ChatRequest schema fills in a default of 2048; a '
                'reasoning model spends the whole 2048-token budget on extended thinking and has nothing left for the '
                'answer, so responses come back truncated or empty with finish_reason "length".'),
    fix='Raise the default max_tokens (to 128000, the model\'s output limit) or send max_tokens explicitly.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: increase default max_tokens from 2048 to 128000',
        'summary': 'Increases the default `max_tokens` in `ChatRequest` schema from 2048 to 128000',
        'problem': ("When clients don't explicitly send `max_tokens` (common with agent frameworks like Hermes Agent), the "
                    "gateway defaults to 2048. For reasoning models like Claude Opus 4.6, the model exhausts the entire "
                    "2048-token budget on extended thinking and has no tokens left for the actual response, causing "
                    "`finish_reason: \"length\"` truncation errors."),
        'silent': ('This is a silent failure — the client gets a truncated/empty response with no clear indication that '
                   'the default was too low.'),
        'tests': ['Tested with Claude Opus 4.6 (`eu.anthropic.claude-opus-4-6-v1`) — responses complete successfully',
                  'Tested without `max_tokens` — now defaults to 128000 instead of 2048',
                  'Verified `finish_reason: "stop"` on all tests'],
    },
    outputs=['finish_reason: "length"'],
    observe={'output_len_mean': (2048, '2048-token budget')},
    args_model='eu.anthropic.claude-opus-4-6-v1',
    args_gpu=None,
    notes=('the output line is the finish reason the truncated responses carried; the completion length the budget '
           'allowed (2048 tokens) is passed as output_len_mean; hosted model behind a gateway, so no engine flags or GPU'),
    leak=("The PR title and summary (the gateway's default max_tokens of 2048), the problem paragraph's explanation "
          "(thinking exhausts the budget) and the test results after the fix are left out; that the responses were "
          "truncated or empty is only implied by the finish reason."),
    hard=None))


I.append(dict(
    src='https://github.com/ml-explore/mlx-lm/issues/139', thread_type='issue',
    engine='mlx_lm.generate (MLX, Apple Silicon)', engine_version='May 2025', gpu=None,
    model='mlx-community/Phi-4-reasoning-4bit',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The reasoning model was run with --temp 0 (greedy argmax decoding); Phi-4-reasoning degenerates into '
                'repeating the same sentence under greedy decoding. With the model\'s default generation parameters '
                '(temperature 0.8, top-p 0.95) it works.'),
    fix='Use the model\'s recommended sampling parameters (--temp 0.8 --top-p 0.95) instead of temperature 0.',
    confidence='maintainer_explained',
    evidence={
        'title': 'phi-4 reasoning not working with temp 0',
        'command': ('mlx_lm.generate --model mlx-community/Phi-4-reasoning-4bit --prompt "write a beautiful p5js particles '
                    'animation that reacts to mouse clicks movements" -m 10240 --temp 0'),
        'fails': 'fails with multiple repetitions:',
        'output': ('We need to produce code that is a complete p5.js sketch that uses particles, and reacts to mouse clicks '
                   'and movements. We need to produce code that is a complete p5.js sketch that uses particles, and reacts '
                   'to mouse clicks and movements.'),
        'compare': 'This does not happen with ollama/llama.cpp',
        'maintainer': 'I think you need to use the default generation parameters.',
        'maintainer_cmd': ('mlx_lm.generate --model mlx-community/Phi-4-reasoning-4bit --prompt "write a beautiful p5js '
                           'particles animation that reacts to mouse clicks movements" -m 10240 --temp 0.8 --top-p 0.95'),
        'maintainer_result': 'It works fine if I do that.',
    },
    outputs=[('output', None), ('output', None), ('output', None)],
    engine_args='--model mlx-community/Phi-4-reasoning-4bit -m 10240 --temp 0',
    args_model='mlx-community/Phi-4-reasoning-4bit',
    args_gpu=None,
    notes=('engine_args is the reporter\'s mlx_lm.generate command without the --prompt text; the output lines are the '
           'repeated paragraph as quoted (three identical paragraphs); Apple Silicon, no GPU model named'),
    leak=("The maintainer's answer (use the default generation parameters, --temp 0.8 --top-p 0.95, which works) is left "
          "out; that the same prompt works in ollama/llama.cpp is not in the inputs."),
    hard=None))


I.append(dict(
    src='https://github.com/timothystewart6/vllm-gb10/issues/7', thread_type='issue',
    engine='vLLM OpenAI server (container on NVIDIA DGX Spark)', engine_version='v0.20.0',
    gpu='NVIDIA DGX Spark (Grace-Blackwell GB10, 128 GiB unified memory)', model='Qwen/Qwen3-32B',
    symptom='other', layer='numeric_parameter',
    root_cause=('--max-model-len 131072 was set above Qwen3-32B\'s max_position_embeddings of 40960 (without rope '
                'scaling); vLLM only warned at start-up, and the compiled RoPE kernel hit an index-out-of-bounds '
                'device-side assert on the first inference request, killing the engine (a 15-minute reload crash loop).'),
    fix='Keep --max-model-len at or below 40960 (or enable rope scaling to extend the context).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('Qwen3-32B: --max-model-len above 40960 causes CUDA device-side assert on first inference '
                  '(vLLM v0.20.x)'),
        'summary': ("Running Qwen3-32B with `--max-model-len` set higher than the model's actual "
                    "`max_position_embeddings` (40960) causes a silent CUDA assert on the **first inference request**, "
                    "killing the vLLM process."),
        'environment': ['Hardware: NVIDIA DGX Spark (Grace-Blackwell GB10, 128 GiB unified memory)',
                        'vLLM version: v0.20.0', 'Model: Qwen/Qwen3-32B'],
        'repro': ('Start vLLM with `--max-model-len 131072` (or any value above 40960) for Qwen3-32B. The model loads '
                  'successfully over ~13-15 min. On the first inference request, vLLM logs:'),
        'log': ['Assertion `index out of bounds: 0 <= tmp16 < 40960` failed.',
                "terminate called after throwing an instance of 'c10::AcceleratorError'",
                'what():  CUDA error: device-side assert triggered',
                'EngineDeadError'],
        'crash_loop': ('The container exits. Since the container restarts automatically, this creates a crash loop: load '
                       '(~15 min) → first request → crash → reload → repeat.'),
        'root_cause': ("Qwen3-32B's `max_position_embeddings` is 40960. The compiled Triton/Inductor RoPE kernel enforces "
                       "this bound at runtime. Any position index > 40960 triggers the CUDA assert."),
        'startup_warning': 'vLLM warns at startup:',
        'maintainer': ('Thank you for this!  This one is on upstream vLLM though, the engine should be refusing to start, '
                       'not warning and proceeding. `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1` is misleading since it hides the '
                       'warning without actually making the value safe.'),
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    engine_args='--max-model-len 131072',
    args_model='Qwen/Qwen3-32B',
    args_gpu='NVIDIA GB10 (DGX Spark)',
    notes=('the log lines are the engine output on the first request as quoted (indentation dropped); engine_args is '
           'the --max-model-len from the reproduction; the engine dies instead of answering, so no symptom class is '
           'passed'),
    leak=("The title and summary (max-model-len above max_position_embeddings 40960), the root-cause section, the "
          "start-up warning about the user-specified max_model_len and the maintainer's reply are left out; the "
          "assertion's bound 40960 is in the log."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261220, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
