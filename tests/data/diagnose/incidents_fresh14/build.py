#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh14: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh12; this file follows incidents_fresh12/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation and list bullets dropped; a few long or wrapped lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the load layer (request content and parameters: guided decoding,
reasoning output that eats the token budget or the latency, per-request max_tokens, n/logprobs, prompt content that
defeats prefix caching), plus a few numeric_parameter cases found along the way.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh12/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== load ==============================
I.append(dict(
    src='https://github.com/Maximilian-Winter/llama-cpp-agent/issues/36', thread_type='issue',
    engine='llama-cpp-python driven by llama-cpp-agent (structured output agent, grammar-based sampling)',
    engine_version='Apr 2024', gpu='2x NVIDIA A40', model='Llama 3',
    symptom='tpot_high', layer='load',
    root_cause=('The structured-output agent constrains every request with a GBNF grammar; grammar-based sampling costs about '
                '78 ms per token (sample time 11.8 s of the 17 s for 151 tokens) while the model eval itself runs at ~43 tok/s, '
                'so the request type, not the GPU, made generation an order of magnitude slower.'),
    fix='Accept the grammar cost or simplify the grammar / generate without grammar and validate afterwards.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Large portion of time spent on sample time',
        'desc': ("I'm running Llama 3 with two A40s and am finding the `llama-cpp-agent` has a high sample time. To use the book "
                 "example I find my sample time for creating an object is an order of magnitude slower. (I've removed the output "
                 "text below)"),
        'log_structured': [
            'llama_print_timings:        load time =     208.15 ms',
            'llama_print_timings:      sample time =   11775.43 ms /   151 runs   (   77.98 ms per token,    12.82 tokens per second)',
            'llama_print_timings: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)',
            'llama_print_timings:        eval time =    3479.97 ms /   151 runs   (   23.05 ms per token,    43.39 tokens per second)',
            'llama_print_timings:       total time =   17029.76 ms /   152 tokens',
        ],
        'log_plain': [
            'llama_print_timings:      sample time =      11.85 ms /    16 runs   (    0.74 ms per token,  1350.44 tokens per second)',
            'llama_print_timings: prompt eval time =     155.84 ms /    83 tokens (    1.88 ms per token,   532.59 tokens per second)',
            'llama_print_timings:        eval time =     334.33 ms /    15 runs   (   22.29 ms per token,    44.87 tokens per second)',
        ],
        'maintainer': ('Sorry I meant that I tried different versions of the grammar, optimized for performance, and the result is '
                       'always around 12.5 tokens per second. Not 12.5 ms per token. The reason for that is, that the grammar based '
                       'sampling takes a lot of time.'),
        'reporter_q': 'So is it expected that grammar can increase the sampling time per token by an order of magnitude?',
        'maintainer2': 'I would say it depends on the complexity of the grammar.',
    },
    log=[('log_structured', 1), ('log_structured', 3), ('log_structured', 4), ('log_plain', 0), ('log_plain', 2)],
    args_gpu='A40',
    notes=('the first three log lines are the llama_print_timings of the structured-output call (create_object), the last two '
           'those of a plain call of the same model for comparison, both as quoted in the description; no figure is passed as '
           'observe because the per-token numbers are already in the log'),
    leak=("The maintainer's explanation (grammar-based sampling takes most of the time; it depends on the grammar's complexity) "
          "is left out."),
    hard=('That the slow requests are grammar-constrained (structured output) is not in the inputs; only the sample-time line '
          'shows sampling dominating the per-token time.')))

I.append(dict(
    src='https://github.com/nbramia/LifeOS/issues/566', thread_type='issue',
    engine='llama.cpp server b8683 behind a local query router', engine_version='b8683', gpu=None,
    model='Gemma 4 26B-A4B Q8_0',
    symptom='other', layer='load',
    root_cause=('The router calls ran the reasoning model with thinking on, so each routing call generated 731-1148 tokens of '
                'which 70-80% were reasoning_content; every chat query paid 23-32 s in the router, while with thinking disabled '
                'the same routing decisions took 1.7-9 s with 55-93 tokens.'),
    fix='Send chat_template_kwargs {"enable_thinking": false} on router calls (or make the target swappable per caller).',
    confidence='confirmed_by_reporter',
    evidence={
        'setup': ('Benchmarked the running service (Gemma 4 26B-A4B Q8_0, llama.cpp b8683) against the **real** '
                  '`config/prompts/query_router.txt` prompt (~10.9 KB / ~2700 tokens) with three representative queries, at the '
                  "router's actual default `max_tokens=2048`."),
        'thinking_on': [
            '| "what did I discuss with … about the Q3 roadmap last week" | 27.1s | 731 | 388 ch | **2578 ch** |',
            '| "remind me to send the vendor contract on Thursday" | 32.5s | 1148 | 238 ch | **4087 ch** |',
            '| "who is … and when did we last talk" | 23.8s | 805 | 363 ch | **2740 ch** |',
        ],
        'thinking_off_header': 'Thinking disabled (`chat_template_kwargs: {"enable_thinking": false}`)',
        'thinking_off': [
            '| same as above | 9.0s | 93 | 386 ch | 0 |',
            '| same as above | **1.7s** | 55 | 221 ch | 0 |',
            '| same as above | **2.4s** | 82 | 329 ch | 0 |',
        ],
        'same_decisions': ('The routing decisions were **substantively identical** in both modes — same `sources` lists, '
                           'equivalent reasoning strings.'),
        'conclusion': '**Every chat query currently pays 23-32s in the router**, and 70-80% of the generated tokens',
    },
    engine_args='max_tokens=2048',
    observe={'e2e_p99_s': (32.5, '32.5s | 1148'),
             'input_len_mean': (2700, '~2700 tokens'),
             'output_len_mean': (805, '23.8s | 805')},
    args_model='Gemma 4 26B-A4B',
    notes=('figures are from the thinking-on (production) rows of the reporter\'s benchmark: the slowest wall clock (32.5 s) is '
           'passed as e2e_p99_s, the median completion length of the three rows (805 tokens) as output_len_mean, the router '
           'prompt (~2700 tokens) as input_len_mean; engine_args is the request default max_tokens=2048; no server log is quoted'),
    leak=("The reasoning_content column, the thinking-disabled rows and the conclusion (70-80% of tokens are reasoning; disable "
          "thinking) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/joshuadavidthomas/opencode-agent-memory/issues/29', thread_type='issue',
    engine='OpenCode 1.18.18 with the opencode-agent-memory plugin, hosted models via OpenRouter', engine_version='0.2.0',
    gpu=None, model='deepseek/deepseek-v4-pro-0813',
    symptom='other', layer='load',
    root_cause=('The plugin re-rendered its memory metadata with a millisecond timestamp (new Date().toISOString()) into the '
                'system prompt on every request, so the request prefix changed on every call and provider prefix caching stopped '
                'at the memory block: cached_tokens stayed at 24,576 while the context grew to 377K, ~8% hit rate.'),
    fix='Keep the system prompt byte-stable: drop or coarsen the live timestamp in the memory metadata.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Live timestamp in memory metadata re-rendered on every request breaks provider prompt caching',
        'summary': ('renderMemoryMetadata() (src/prompt.ts) embeds new Date().toISOString() (millisecond precision) into the '
                    'system prompt, and the experimental.chat.system.transform hook re-renders the memory XML on every request.'),
        'env': ('OpenCode 1.18.18, plugin pinned at [opencode-agent-memory@0.2.0](mailto:opencode-agent-memory@0.2.0); providers '
                'via OpenRouter: deepseek/deepseek-v4-pro-0813, z-ai/glm-5.3-flash (streaming on).'),
        'byte_diff': ('Byte-diff of two consecutive captured requests (loopback provider stub logging the outgoing payload): the '
                      'only difference in the entire request is 3 characters — the millisecond digits inside <memory_metadata> '
                      '(...T14:58:23.413Z vs ...23.869Z), block similarity 0.999166.'),
        'session': ('Real session, 87 assistant calls, 2.5 h: cached_tokens stuck at a constant 24,576 (the system head before '
                    'the memory block) while context grew 27K → 377K. Total: 22.19M uncached input tokens, ~8% cache hit rate, '
                    '$26.59 — where a working prefix cache yields ~$2–3 for the same session.'),
    },
    observe={'prefix_cache_hit_rate': (0.08, '~8% cache hit rate'),
             'input_len_p99': (377000, 'context grew 27K → 377K')},
    args_model='deepseek-v4-pro',
    notes=('the hit rate (~8%) and the final context size (377K tokens, passed as input_len_p99) are the reporter\'s session '
           'figures; no server log exists because the models are hosted; the symptom is cost/latency of uncached input, so no '
           '--symptom is passed'),
    leak=("The title, the summary (millisecond timestamp re-rendered into the system prompt) and the byte-diff of two requests "
          "are left out."),
    hard=('That the prompt prefix changes on every request (a live timestamp) is not in the inputs; only a low hit rate with a '
          'long, growing context.')))

I.append(dict(
    src='https://github.com/darkmatter/nixmac/issues/199', thread_type='issue',
    engine='OpenAI-compatible chat completions endpoint serving gpt-oss-120b (nixmac log summarizer)', engine_version='May 2026',
    gpu=None, model='gpt-oss-120b',
    symptom='output_quality', layer='load',
    root_cause=('The summarizer requested max completion tokens = 100 from a reasoning model; the reasoning tokens count against '
                'that budget, so all 100 tokens went to reasoning_content and the response came back with content null.'),
    fix='Raise the max completion tokens for the summarizer (reasoning counts towards the budget) or lower the reasoning effort.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'log summarizer cut off',
        'desc': ("We're sending 100 as the max completion tokens - this causes the response to hard cut at 100 which is not "
                 "enough. I think whoever implemented this assumed that reasoning does not count towards this budget but it "
                 "does. Therefore, the model never gets to the point where it generates the desired response:"),
        'response': [
            '"model": "gpt-oss-120b",',
            '"prompt_tokens": 2426,',
            '"completion_tokens": 100,',
            '"content": null,',
            ('"reasoning_content": "We need to produce a single short sentence (max 10 words) describing what\'s happening '
             'right now.'),
        ],
    },
    log=[('response', 1), ('response', 2)],
    outputs=[('response', 3)],
    engine_args='max_completion_tokens=100',
    observe={'output_len_mean': (100, '"completion_tokens": 100'),
             'input_len_mean': (2426, '"prompt_tokens": 2426')},
    notes=('log lines are the usage fields of the returned chat completion, the output sample is its message content; '
           'engine_args is the request\'s max completion tokens, rebuilt from the description ("sending 100 as the max '
           'completion tokens")'),
    leak=("The description's diagnosis (reasoning counts towards the budget, so the model never reaches the answer) and the "
          "reasoning_content field are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/pvliesdonk/markdown-vault-mcp/issues/919', thread_type='issue',
    engine='OpenAI chat completions API (gpt-5-mini) called by the markdown-vault-mcp summarizer', engine_version='Jul 2026',
    gpu=None, model='gpt-5-mini',
    symptom='output_quality', layer='load',
    root_cause=('The summarize tool sent vault-sized prompts to a reasoning model with a 2048-token max_completion_tokens; the '
                'budget covers reasoning plus visible output and was fully consumed by reasoning, so the API returned '
                'finish_reason=length with empty content.'),
    fix='Send reasoning_effort="low" and raise the default SUMMARIZE_MAX_TOKENS from 2048 to 8192.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'summarize fails with empty response (finish_reason=length) on reasoning models',
        'symptom': 'In production against OpenAI with the default model:',
        'log': ['WARNING markdown_vault_mcp.summarizer: summarize_empty_response model=gpt-5-mini finish_reason=length',
                "Error calling tool 'summarize'"],
        'repro': 'Reproduces on any large-ish summarize call.',
        'root_cause': ('`gpt-5-mini` (the default) is a reasoning model, and `max_completion_tokens` covers **reasoning tokens plus '
                       'visible output**. The default `SUMMARIZE_MAX_TOKENS=2048` is fully consumed by internal reasoning on '
                       'vault-sized prompts (input cap is 200k chars), so the API returns `finish_reason=length` with empty '
                       '`content`, which the summarizer correctly surfaces as an error.'),
        'fix': ('Raise the default `MARKDOWN_VAULT_MCP_SUMMARIZE_MAX_TOKENS` from 2048 to 8192 — with reasoning included in the '
                'budget, 2048 is miscalibrated. It is a cap, not a spend.'),
    },
    log=[('log', 0), ('log', 1)],
    engine_args='SUMMARIZE_MAX_TOKENS=2048',
    notes=('the two log lines are the application\'s warning and the tool error as quoted under "Symptom"; engine_args is the '
           'application\'s default output budget (the operator\'s own setting), named in the thread'),
    leak=("The root-cause section (reasoning tokens count towards max_completion_tokens and consume all 2048) and the fix are "
          "left out."),
    hard=None))

I.append(dict(
    src='https://github.com/runpod-workers/worker-vllm/issues/74', thread_type='issue',
    engine='vLLM in the RunPod serverless worker (worker-vllm)', engine_version='Jun 2024', gpu=None,
    model='phi-2 and llama-3-instruct',
    symptom='output_quality', layer='load',
    root_cause=('The requests carried no sampling_params.max_tokens, so vLLM applied its default of 16 output tokens and every '
                'answer stopped after 16 tokens.'),
    fix='Pass "sampling_params": {"max_tokens": N} in the request input.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Only generates 16 tokens',
        'desc': 'I tried phi-2 and llama-3-instruct and they both only generate 16 tokens. How can I change this?',
        'resolution': ('This was confusing to me, but in order to increase the number of tokens to 100 you have to format the '
                       'request like this:'),
        'request': '"max_tokens": 100',
    },
    observe={'output_len_mean': (16, 'only generate 16 tokens')},
    args_model=None,
    notes='the 16-token output length is the reporter\'s observation; no log or request body from before the fix is quoted',
    leak="The reporter's own resolution (set sampling_params.max_tokens in the request) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/17512', thread_type='issue',
    engine='Ollama (stock container, Vulkan iGPU, 49/49 layers offloaded)', engine_version='Aug 2026', gpu='iGPU (Vulkan)',
    model=None,
    symptom='timeout_or_stream_break', layer='load',
    root_cause=('With thinking on, the prompt (an exact word count) made the reasoning model generate ~3,561 tokens instead of '
                '229; at 4.69 tok/s on the iGPU that took 12m39s, which the reporter took for a hang and killed after a few '
                'minutes.'),
    fix='Disable thinking for such prompts (or wait; it terminates normally) on slow hardware.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Thinking models never terminate when the prompt specifies an exact word count; disabling thinking fixes it',
        'retraction': "Retracting this, it isn't a bug, and the fault is mine.",
        'rerun': ('I re-ran on a fully stock container (default f16 KV cache, no forced flash attention, `num_ctx=32768`, 49/49 '
                  'layers on Vulkan) and **let it run to completion** this time. It terminated normally:'),
        'result': '**3,561 tokens, 12m39s, 4.69 tok/s**',
        'comparison': 'Compared to your run: 1,782 tokens, ~15s at 121 tok/s.',
        'killed': ('Every previous run I reported, I killed after a few minutes, so I never actually observed non-termination. '
                   'I mistook "slow" for "hung".'),
        'measurement': ('on the same prompt and model, thinking off produced **229 tokens in 46s** versus **3,561 tokens in '
                        '12m39s** with thinking on (a ~15x difference in generated tokens).'),
    },
    engine_args='num_ctx=32768',
    observe={'output_tokens_per_s': (4.69, '4.69 tok/s')},
    notes=('engine_args and the generation rate are from the reporter\'s stock re-run (same setup as the reported runs); the '
           'symptom is the reported "never terminates"; the original description is not in the stored excerpt'),
    leak=("The retraction (it terminates after 3,561 tokens / 12m39s), the thinking on/off comparison (229 vs 3,561 tokens) and "
          "the other run at 121 tok/s are left out; the title names thinking and is left out too."),
    hard=('The output length (thousands of reasoning tokens) is not in the inputs; only a low generation rate and the '
          '"never terminates" symptom.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm/pull/37594', thread_type='pr',
    engine='vLLM V1 engine (OpenAI server)', engine_version='Mar 2026', gpu='NVIDIA RTX A40', model='Qwen2.5 (~151k vocabulary)',
    symptom='ttft_spike', layer='load',
    root_cause=('One co-scheduled request asking for n=8 completions with logprobs=20 forces a full-vocabulary top-k for every '
                'sequence at every decode step; because the batch runs synchronously, plain 16-token requests sharing the batch '
                'wait for it each step, a 76x-423x TTFT regression for them.'),
    fix='Isolate heavy n x logprobs requests (the PR proposes a max_num_batched_logprobs scheduler budget) or avoid such requests.',
    confidence='plausible',
    evidence={
        'title': '[Bugfix] fixd issue#37343: prevent TTFT regression by adding batched logprobs budget to scheduler',
        'problem': ('In the current V1 scheduler, requests are batched based on token and sequence counts, but it ignores the '
                    'compute overhead of the sampling stage. For models with large vocabularies like Qwen2.5 (~151k), requesting '
                    '`logprobs=20` with `n=8` requires a massive Top-K sort across the full vocabulary for every sequence in '
                    'every decode iteration.'),
        'effect': ('Since batch execution is synchronous, a single "heavy" sampling request forces all other co-scheduled '
                   'requests (even simple 16-token plain requests) to wait for its completion at every step. This leads to a '
                   '**76x–423x** TTFT regression for innocent "victim" requests.'),
        'env': 'NVIDIA RTX A40, CUDA 12.2',
        'trace': [
            'Trace: 5 concurrent requests sharing prefix_len=32',
            'r9  : 512-token prompt, max_tokens=64,  n=1, logprobs=None  ← plain victim (+313ms)',
            'r06 : 512-token prompt, max_tokens=16,  n=8, logprobs=20    ← amplifier  (+578ms)',
            'r01 : 512-token prompt, max_tokens=16,  n=1, logprobs=20                 (+601ms)',
        ],
    },
    log=['Trace: 5 concurrent requests sharing prefix_len=32',
         'r9  : 512-token prompt, max_tokens=64,  n=1, logprobs=None',
         'r06 : 512-token prompt, max_tokens=16,  n=8, logprobs=20',
         'r01 : 512-token prompt, max_tokens=16,  n=1, logprobs=20'],
    observe={'input_len_mean': (512, '512-token prompt')},
    args_model=None,
    args_gpu='A40',
    notes=('the log lines are the request trace the reproducer prints (cut before the role labels and TTFT deltas); the model '
           'name is cut off in the stored excerpt ("Qwen/Qwen2.5"), so no model is passed; the thread is an open PR by a '
           'contributor that names issue #37343, hence plausible'),
    leak=("The PR's problem statement (full-vocabulary top-k for n x logprobs stalls the synchronous batch), the role labels "
          "(victim/amplifier) and the 76x-423x figure are left out."),
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/17939', thread_type='issue',
    engine='Ollama 0.32.13 (macOS, Metal)', engine_version='0.32.13', gpu='Apple Silicon M5 Pro',
    model='hf.co/0bserverx/Muse-Glimmer-30B-Heretic-Uncensored-GGUF:Q5_K_M',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('For HF-imported Muse-Glimmer GGUFs Ollama derived a stop list that includes the structural tokens <|start|> and '
                '<|message|>, which the model writes at the open of every turn, so each request was stopped after ~3 tokens '
                'with an empty or near-empty response.'),
    fix='Remove the structural tokens from the stop parameters (override the derived stop list).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('HF-import derives incorrect `stop` parameters for Muse-Glimmer-30B GGUF pulls — output truncated to ~3 '
                  'tokens'),
        'desc': ('Pulling any third-party `hf.co/*/Muse-Glimmer-30B*-GGUF` model produces an\n'
                 'empty/near-empty response on every prompt.'),
        'cause': ('The model loads fine and\ngenerates correctly — the request is terminated almost immediately because\n'
                  "Ollama's automatic `stop` parameter derivation for this architecture\n"
                  "includes several of the model's own structural framing tokens."),
        'env': ['Ollama 0.32.13', 'macOS (Apple Silicon, M5 Pro), Metal backend'],
        'params_cmd': '`ollama show <model> --parameters` on both confirmed repos shows the\nidentical wrong stop list:',
        'params': ['stop "<|begin_of_text|>"', 'stop "<|start|>"', 'stop "<|message|>"', 'stop "<|eot|>"',
                   'stop "<|start|>user<|message|>"'],
        'explanation': ('`<|start|>` and `<|message|>` are structural tokens the model writes at the\n'
                        'open of *every* turn'),
    },
    log=[('params', 0), ('params', 1), ('params', 2), ('params', 3), ('params', 4)],
    observe={'output_len_mean': (3, '~3 tokens')},
    args_model='Muse-Glimmer-30B',
    notes=('the five log lines are the model\'s parameters as printed by `ollama show <model> --parameters` (the operator\'s '
           'configuration); the ~3-token output length is from the title'),
    leak=("The title's and description's diagnosis (the derived stop list contains the model's own structural framing tokens) "
          "is left out."),
    hard=('The stop list is in the inputs, but not that <|start|> and <|message|> open every turn of this model\'s chat '
          'format.')))

I.append(dict(
    src='https://github.com/nosana-ci/pipeline-templates/pull/162', thread_type='pr',
    engine='Ollama container ollama/ollama:0.32.6 on an RTX 4090', engine_version='0.32.6', gpu='NVIDIA RTX 4090',
    model='muse-glimmer:30b',
    symptom='other', layer='numeric_parameter',
    root_cause=('The template pinned ollama 0.32.6, which predates support for the muse-glimmer architecture on NVIDIA (added in '
                '0.32.8), so the runner could not load the model and every inference request returned 500.'),
    fix='Pin the image to ollama/ollama:0.32.9.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: pin Muse Glimmer to ollama 0.32.9',
        'desc': ('Tested against a live deployment on an RTX 4090. The model pulls fine, but every inference request 500s on '
                 '`ollama/ollama:0.32.6`:'),
        'log': ["llama_model_load: error loading model: unknown model architecture: 'muse-glimmer'",
                'mtmd_get_memory_usage: error: Failed to load CLIP model from .../sha256-f48b4523...'],
        'fix': ('NVIDIA/AMD support for this architecture landed in ollama **0.32.8** (0.32.7 was MLX/Apple Silicon only), and '
                '**0.32.9** adds a fix for a boundary condition in the Muse Glimmer function-calling parser.'),
        'change': 'image `0.32.6` → `0.32.9`',
        'vram': ('the server logs report `predicted_vram=18.2 GiB` against `available_vram=23.0 GiB` at the default 32K '
                 'context, so it fits a 4090'),
    },
    log=[('log', 0), ('log', 1)],
    engine_args='ollama/ollama:0.32.6',
    args_gpu='RTX 4090',
    notes=('the two log lines are the runner errors quoted in the PR; engine_args is the pinned container image of the '
           'failing template; the symptom (HTTP 500 on every request) has no class, so no --symptom is passed'),
    leak="The PR's explanation (muse-glimmer support landed in 0.32.8; pin 0.32.9) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/apple/coreai-models/issues/259', thread_type='issue',
    engine='coreai llm-runner (Swift, release build) on a coreai.llm.export of Gemma 3', engine_version='Sep 2026',
    gpu=None, model='gemma-3-4b-it',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The export lost <end_of_turn> (token 106) as a stop token, so after answering the model kept emitting '
                '<end_of_turn> tokens instead of stopping.'),
    fix='Re-export with the fix that keeps <end_of_turn> among the stop tokens.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Regression: Gemma 3 export again loses `<end_of_turn>` stop token',
        'cmd': ['uv run coreai.llm.export google/gemma-3-4b-it',
                'swift run -c release llm-runner --model ./exports/gemma_3_4b_it_4bit_dynamic --prompt "Hello"'],
        'output': ['Hello there! How can I help you today?',
                   '*   Need help with a task?<end_of_turn>',
                   '<end_of_turn><end_of_turn><end_of_turn><end_of_turn><end_of_turn><end_of_turn><end_of_turn>'],
        'actual': ('After producing the answer, the model repeatedly generates token ID 106: '
                   '`<end_of_turn><end_of_turn><end_of_turn>`...'),
        'expected': 'Generation should stop on either:',
        'regression': ('This appears to be a regression or incomplete fix for #25, which was closed by #36 / commit '
                       '02a8edd.'),
        'resolution': 'Thank you, I verified the fix from my side too!',
    },
    outputs=[('output', 0), ('output', 1), ('output', 2)],
    engine_args='llm-runner --model ./exports/gemma_3_4b_it_4bit_dynamic --prompt "Hello"',
    args_gpu=None,
    notes=('the output samples are the runner\'s printed answer lines; engine_args is the run command without the swift build '
           'prefix; the macOS 27 / Xcode 27 machine is not a GPU name, so no GPU is passed'),
    leak="The title (export loses the <end_of_turn> stop token) and the expected-behaviour section are left out.",
    hard=None))


# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/MiaAI-Lab/Qwen3.8-Flash-Next-Single-DGX-Spark/issues/19', thread_type='issue',
    engine='vLLM recipe for a single DGX Spark (start.sh / .env.sample)', engine_version='Sep 2026',
    gpu='NVIDIA DGX Spark (GB10)', model='Qwen3.8-Flash-Next',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The recipe\'s default MAX_NUM_SEQS=4 caps the running batch at 4 sequences although the fp8 KV pool (~1.43M '
                'tokens) holds far more; with more than 4 clients the rest just queue and aggregate tok/s flatlines, which looks '
                'like GPU saturation (33 tok/s at 2 seqs vs 267 tok/s at 48 seqs in the measurement quoted).'),
    fix='Raise MAX_NUM_SEQS (the issue proposes 8) and watch vllm:num_requests_waiting.',
    confidence='plausible',
    evidence={
        'title': 'Performance: MAX_NUM_SEQS=4 default flatlines aggregate throughput; add a PLE prewarm option',
        'affects': '**Affects:** `.env.sample` (`MAX_NUM_SEQS=4`), `start.sh`',
        'summary': ('The shipped default caps concurrency at 4 sequences. blazux measured on the\n'
                    'same model/hardware that low `--max-num-seqs` makes aggregate tok/s flatline\n'
                    'in a way that is **indistinguishable from GPU saturation** in naive\n'
                    'benchmarks: 33 tok/s aggregate at 2 seqs vs 267 tok/s at 48 seqs. Anyone\n'
                    'load-testing this deployment with >4 clients will conclude the box is\n'
                    'saturated when it is actually just queued.'),
        'kv': ('The KV math supports more: at `KV_TARGET_GIB=22` fp8 the pool holds ~1.43M\n'
               'tokens — 2.78× a full 512k request, and ~45× a typical 32k request. 4 seqs\n'
               'leaves most of that unusable in practice.'),
        'proposal': ("Proposal: default to 8 (blazux's choice) and document the trade-off: more\n"
                     'seqs = more concurrent KV pressure; watch `vllm:num_requests_waiting` (see'),
    },
    engine_args='--max-num-seqs 4',
    observe={'running': (4, 'caps concurrency at 4 sequences')},
    args_model=None,
    args_gpu='GB10',
    notes=('engine_args is rebuilt from the recipe default MAX_NUM_SEQS=4 (passed to vLLM as --max-num-seqs); a load-test with '
           'more than 4 clients fills it, so running=4 (the development set maps a saturated --max-num-seqs to running); the '
           'model is named only by the repository (Qwen3.8-Flash-Next), so no model is passed; the thread is an open proposal '
           'quoting another user\'s measurement, hence plausible'),
    leak=("The summary's reading (low --max-num-seqs flatlines throughput; the box is queued, not saturated), the 2- vs 48-seq "
          "figures and the KV-pool arithmetic are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261214, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
