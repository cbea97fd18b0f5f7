#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh16: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh14; this file follows incidents_fresh14/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation and list bullets dropped; a few long or wrapped lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the scheduling_capacity layer (KV pool too small or exhausted,
startup OOM from memory fractions / max-model-len / max-num-seqs, parallel slots multiplying the context, partial
CPU offload from a large context, running-request caps and queueing).

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh14/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== scheduling_capacity: startup OOM ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/39713', thread_type='pr',
    engine='SGLang worker launched by the sgl-router e2e tests (engine defaults)', engine_version='Sep 2026',
    gpu='NVIDIA H100 80GB', model='Qwen3-0.6B',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('On engine defaults mem_fraction_static=0.83 hands the KV pool everything except a ~13 GB slack on an idle '
                'H100 (556,202 tokens, 59.4 GB of KV for a 1.18 GB model); that one slack must hold activations and every '
                'CUDA graph, and the prefill CUDA graph capture (58 buckets up to 8192 tokens) runs out of memory, so the '
                'worker is killed during startup.'),
    fix='Give the e2e worker specs a bounded memory budget (smaller KV fraction) and no prefill CUDA graph.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Router] Bound the e2e worker memory budget so prefill graph capture stops OOMing',
        'what': ('The `tier-3 — e2e` job of `pr-test-sgl-router.yml` fails intermittently with a\n'
                 'router test that never reaches the router:'),
        'failure': ['FAILED tests/e2e/chat_completions/test_validation.py::test_chat_streaming_emits_sse_chunks_with_done',
                    'RuntimeError: sglang worker exited during startup with code -9'],
        'fix': ('This gives the e2e worker specs a bounded memory budget and no prefill CUDA\n'
                'graph, which removes the failure class.'),
        'why': 'The workers launch on bare engine defaults. On an idle 80 GB H100:',
        'log': ['Load weight begin.  avail mem=77.24 GB      ← Qwen3-0.6B weighs 1.18 GB',
                'KV Cache allocated. #tokens: 556202, K 29.70 GB, V 29.70 GB',
                'Memory pool end.    avail mem=12.14 GB',
                'Capture target prefill CUDA graph begin. backend=breakable,',
                'num_tokens=[4 … 8192]  (58 buckets)       avail mem=11.54 GB',
                '...8192→11.08GB  7680→5.55  5120→2.74  2048→0.50  640→0.01',
                'torch.AcceleratorError: CUDA error: out of memory   ← bucket 26/58, in graph.capture_end()'],
        'analysis': ('`mem_fraction_static=0.83` gives the KV pool everything except a slack of\n'
                     '`pre_model_load_memory * (1 - mem_fraction_static)`'),
    },
    log=[('failure', 1), 'Load weight begin.  avail mem=77.24 GB', ('log', 1), ('log', 2), ('log', 3),
         'num_tokens=[4 … 8192]  (58 buckets)       avail mem=11.54 GB',
         'torch.AcceleratorError: CUDA error: out of memory'],
    engine_args=None,
    args_model='Qwen3-0.6B',
    args_gpu='H100',
    notes=('the log lines are the test failure and the worker log quoted in the PR, cut before the author\'s "←" '
           'annotations; the per-bucket memory trace is the author\'s condensed summary and is left out; the workers ran '
           'on engine defaults, so no engine_args are passed'),
    leak=("The PR's title and fix, the author's annotations (model size, failing bucket), the per-bucket memory trace and "
          "the mem_fraction_static slack analysis are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/5993', thread_type='issue',
    engine='vLLM (offline LLM(), V0, multi-GPU tensor parallel)', engine_version='Jun 2024',
    gpu='5x NVIDIA GeForce RTX 2080 Ti', model='Qwen2 GPTQ 8bit',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('The model weights alone take ~18 GB per GPU and vLLM must reserve KV cache for the model\'s full default '
                'context (32k for Qwen2), which does not fit in the remainder, so the engine OOMs at startup whatever '
                'gpu_memory_utilization is; lowering max-model-len fixed it.'),
    fix='Set a lower max_model_len (and a high gpu_memory_utilization).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "[Bug]: OOM when loading Qwen2 GPTQ 8bit and modify gpu_memory_utilization didn't help",
        'env': 'GPU 0: NVIDIA GeForce RTX 2080 Ti',
        'log': ['INFO 06-30 18:37:30 model_runner.py:160] Loading model weights took 17.9828 GB',
                '(VllmWorkerProcess pid=332367) INFO 06-30 18:37:30 model_runner.py:160] Loading model weights took 17.9828 GB'],
        'note': 'before loading weight it already consumed 18.7G VRAM ↓',
        'answer': ("Vllm has to have available memory for the entire KV cache which for Qwen 2 is 32k. Try setting "
                   "max-model-len to lower. Also, set gpu_memory_utilization to 0.98. The value is the percentage of total "
                   "GPU memory it's allowed to use. It needs 18 GB/GPU for the model alone, it looks like it's seeing that "
                   "it's using more than 2GB and throws an error."),
        'confirm': ('OK,looks like max-model-len is working, but how can I do this with LLM(), it doesn\'t have a parameter '
                    'called "max_model_len" and "max_seq_len_to_capture" don\'t work'),
        'maintainer': 'You should be able to set `max_model_len` for LLM',
    },
    log=[('log', 0), ('log', 1)],
    engine_args=None,
    args_model=None,
    args_gpu='RTX 2080 Ti',
    notes=('the log lines are the weight-loading lines of the reporter\'s log (the error text itself is not in the stored '
           'excerpt); the model is named only as "Qwen2 GPTQ 8bit", so no model is passed; no flags were given beyond '
           'gpu_memory_utilization, whose values are not stated'),
    leak=("The answer (KV cache for Qwen2's 32k context, lower max-model-len) and the reporter's confirmation are left out."),
    hard=("The default 32k max-model-len that the KV reservation is sized for is not in the inputs; only the ~18 GB of "
          "weights per GPU is.")))

I.append(dict(
    src='https://github.com/vllm-project/recipes/pull/551', thread_type='pr',
    engine='vLLM OpenAI server (recipe command), v0.17.0 and later', engine_version='v0.17.0+',
    gpu='NVIDIA H100', model='Qwen/Qwen3.6-27B-FP8',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('With the default --max-num-seqs 1024 the hybrid (Mamba/linear-attention) model needs one Mamba cache block '
                'per decode sequence, but only 856 blocks fit on a single H100 at --gpu-memory-utilization 0.95, so the '
                'engine refuses to start (CUDA graph capture cannot proceed).'),
    fix='Lower the recipe default --max-num-seqs from 1024 to 512.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Fix `--max-num-seqs 512` for `Qwen/Qwen3.6-27B-FP8`',
        'desc': ("This PR lowers the default value for `--max-num-seqs` from 1024 to 512, as otherwise "
                 "`Qwen/Qwen3.6-27B-FP8` won't fit on a single H100 instance, and it will fail with:"),
        'error': ('ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (856). Each decode sequence requires '
                  'one Mamba cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most 856 or '
                  'increase gpu_memory_utilization.'),
        'cmd': ('all with the command `python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3.6-27B-FP8 '
                '--gpu-memory-utilization 0.95 --tool-call-parser qwen3_coder --reasoning-parser qwen3 '
                '--enable-auto-tool-choice`.'),
    },
    log=[('error', None)],
    engine_args=('--model Qwen/Qwen3.6-27B-FP8 --gpu-memory-utilization 0.95 --tool-call-parser qwen3_coder '
                 '--reasoning-parser qwen3 --enable-auto-tool-choice'),
    args_gpu='H100',
    notes=('the log line is the engine\'s startup error as quoted in the PR (the engine-printed hint is kept, as in the '
           'development set); engine_args is the failing command from the PR without the python module prefix; the '
           'default max_num_seqs of 1024 is implicit'),
    leak="The PR title and description (lower the default --max-num-seqs to 512) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/rwlove/home-ops/pull/13221', thread_type='pr',
    engine='vLLM (two instances, driver and coder, sharing one unified-memory GPU with other services)',
    engine_version='Jul 2026', gpu=None, model=None,
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('The gpu-memory-utilization fractions were budgeted against 128 GiB, but vLLM sees 121.63 GiB and '
                'non-vLLM co-tenants hold ~32 GiB, so 0.42 + 0.35 overshot: the coder instance asked for 42.57 GiB while '
                'only 38.74 GiB was free and failed engine init.'),
    fix='Right-size the fractions from live measurement: driver 0.42 -> 0.36, coder 0.35 -> 0.28.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(ai): right-size vLLM fleet gpu-memory-utilization from live measurement',
        'what': 'Phase-3 on-box tuning. `vllm-coder-spark` failed engine init:',
        'error': 'Free memory on cuda:0 (38.74/121.63 GiB) < desired utilization (0.35, 42.57 GiB)',
        'facts': ['vLLM sees **121.63 GiB** usable (not 128 — ~6 GiB system/firmware)',
                  'Non-vLLM co-tenants (comfyui, tei ×2, pump-cv, av1corrector, bge-m3, CUDA contexts) hold **~32 GiB** — '
                  'more than budgeted'],
        'fix': ('So `0.42 + 0.35` overshot. **Driver 0.42→0.36** (~44 GiB), **coder 0.35→0.28** (~34 GiB): the pair '
                '~78 GiB + co-tenants ~32 leaves **~12 GiB** for comfyui bursts.'),
        'rollout': ('On merge, Flux redeploys both at the new utils — driver reloads from its cache PVC (~1-2 min, no '
                    're-download), coder now fits and completes init.'),
    },
    log=[('error', None)],
    engine_args='--gpu-memory-utilization 0.35',
    args_model=None,
    args_gpu=None,
    notes=('the log line is the engine-init error quoted in the PR; engine_args is rebuilt from the failing coder '
           'instance\'s utilization (0.35); the GPU is not named (121.63 GiB of unified memory), so none is passed, and '
           'the model is named only as "coder"'),
    leak=("The PR's live facts (121.63 GiB usable, ~32 GiB held by co-tenants, 0.42 + 0.35 overshot) and the new "
          "fractions are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/57475', thread_type='issue',
    engine='vLLM OpenAI server (vllm serve, V1, FlashInfer backend)', engine_version='0.29.1rc1.dev339+gda9888462',
    gpu='NVIDIA GeForce RTX 5090 Laptop GPU (24 GB)', model='Qwen3.8-27B NVFP4',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('At --gpu-memory-utilization 0.98 the KV pool is sized so large that the real CUDA-graph capture (run after '
                'the pool is allocated) has no headroom left and hits torch.OutOfMemoryError; the CUDA-graph estimate '
                'taken with a minimal pool under-reserves. Dropping to 0.97 boots and serves fine.'),
    fix='Lower --gpu-memory-utilization to 0.97 (or add headroom to the CUDA graph memory estimate).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Bug] CUDA graph memory estimate under-reserves → OOM during graph capture at high '
                  '`--gpu-memory-utilization`'),
        'summary': ('With `--kv-cache-dtype nvfp4` and `--gpu-memory-utilization 0.98`, the engine passes the\n'
                    'KV-cache allocation check but then crashes during CUDA-graph capture with\n'
                    '`torch.OutOfMemoryError`. Dropping to `0.97` boots and serves fine. The KV pool is sized\n'
                    'using `cudagraph_memory_estimate` from `profile_cudagraph_memory()`, but that estimate does\n'
                    'not leave enough headroom for the *real* capture once the (larger) KV pool is allocated.'),
        'env': ['vLLM: `0.29.1rc1.dev339+gda9888462` (commit `da9888462`)',
                'GPU: NVIDIA GeForce RTX 5090 Laptop GPU (24 GB, SM12x), driver 610.57.04',
                'Model: Qwen3.8-27B NVFP4 (hybrid attention / linear-attention)'],
        'repro': ['VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve <model> \\', '--kv-cache-dtype nvfp4 \\',
                  '--gpu-memory-utilization 0.98 \\', '--max-model-len 124000 \\', '--max-num-seqs 1 \\',
                  '--max-num-batched-tokens 2048 \\', '--enable-prefix-caching \\', '--trust-remote-code --dtype bfloat16'],
        'observed': ['INFO  [gpu_worker.py:642]  Available KV cache memory: 2.97 GiB',
                     'INFO  [kv_cache_utils.py]  GPU KV cache size: 150,745 tokens, Maximum concurrency for 124,000 tokens',
                     'INFO  [model_runner.py]    Graph capturing finished in 1 secs, took 0.46 G'],
        'comment': ("vLLM runs a memory check at startup that's meant to guarantee the model fits. That check passes, vLLM "
                    "commits to a memory layout based on it, and then it runs out of memory anyway."),
    },
    log=[('observed', 0), ('observed', 1), ('observed', 2), 'torch.OutOfMemoryError'],
    engine_args=('--kv-cache-dtype nvfp4 --gpu-memory-utilization 0.98 --max-model-len 124000 --max-num-seqs 1 '
                 '--max-num-batched-tokens 2048 --enable-prefix-caching --trust-remote-code --dtype bfloat16'),
    args_model='Qwen3.8-27B',
    args_gpu='RTX 5090 Laptop',
    notes=('the first three log lines are the startup lines of the failing run (the third is cut in the stored excerpt); '
           'the last is the exception name the summary reports (the full OOM message is not in the issue excerpt); '
           'engine_args is the reproduction command without the env var and the model placeholder'),
    leak=("The title, the summary's explanation (estimate under-reserves for the real capture) and the 0.97 result are "
          "left out."),
    hard=None))

# ============================== scheduling_capacity: KV pool / concurrency ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/36583', thread_type='pr',
    engine='SGLang (TP4 + EAGLE)', engine_version='Aug 2026', gpu='4x NVIDIA H200 (memory held back to emulate 80 GB)',
    model=None,
    symptom='other', layer='scheduling_capacity',
    root_cause=('The KV pool budget was measured right after weight loading while loader temporaries were still '
                'referenced, so it came out orders of magnitude too small (1,741 tokens with 46.9 GB idle); any prompt '
                'above ~1,735 tokens was rejected although --context-length was 65536.'),
    fix='Collect garbage before measuring free memory so the KV pool gets its real budget (349,377 tokens).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Fix KV cache pool sized far too small when weight-loading memory is still referenced',
        'desc': ('The KV pool budget is measured right after weights load, from currently-free GPU memory. '
                 '`get_available_gpu_memory()` calls `empty_cache()`, but that only returns *unreferenced* blocks — loader '
                 'temporaries that are still referenced count as used, so the budget can come out orders of magnitude too '
                 'small while GPU memory sits idle. Collecting before the measurement drops those references first.'),
        'repro': ('Reproduced on 4×H200 with memory held back to emulate 80 GB cards, TP4 + EAGLE, '
                  '`--mem-fraction-static 0.8 --context-length 65536`:'),
        'table': ['| before | 1,741 | 46.9 GB |', '| after | 349,377 | 17.0 GB |'],
        'error': ('Before the fix a 3000-word prompt is rejected with `Input length (3034 tokens) exceeds the maximum '
                  'allowed length (1735 tokens)`; after it, 3000- and 12000-word prompts both complete normally.'),
        'review': 'LGTM',
    },
    log=['Input length (3034 tokens) exceeds the maximum allowed length (1735 tokens)'],
    engine_args='--mem-fraction-static 0.8 --context-length 65536',
    observe={'input_len_mean': (3034, 'Input length (3034 tokens)')},
    args_model=None,
    args_gpu='H200',
    notes=('the log line is the rejection message quoted in the PR; engine_args are the flags of the reproduction (TP4 + '
           'EAGLE not passed); input_len_mean is the rejected prompt\'s length; no model is named'),
    leak=("The PR's explanation (loader temporaries still referenced when the KV budget is measured), the before/after "
          "max_total_num_tokens table and the fix are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/Tandemn-Labs/tandemn-system/issues/11', thread_type='issue',
    engine='vLLM driven by the tandemn runner (asyncio semaphore at max_concurrency)', engine_version='Mar 2026',
    gpu='NVIDIA A10G (g5.xlarge)', model='Qwen/Qwen2.5-7B-Instruct',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('The runner fell back to MAX_NUM_SEQS=256 concurrent requests while the 77,088-token KV cache holds only '
                '~70-80 requests of ~1000+ tokens; vLLM admits them, the KV cache sits at 100%, it preempts aggressively '
                '(480 preemptions in a 5000-request job) and queued requests wait (TTFT p50 60 s).'),
    fix='Derive the concurrency cap from actual KV utilization / blocks (about 70-80 on this GPU) instead of 256.',
    confidence='plausible',
    evidence={
        'title': 'max_concurrency estimation causes excessive vLLM preemptions',
        'problem': ("The runner's `_estimate_max_concurrency_from_metrics()` falls back to `MAX_NUM_SEQS=256` when the "
                    "Prometheus-based estimate fails. Even when the estimate succeeds, it uses a naive formula:"),
        'overestimate': ('On A10G with 77k KV blocks and real workloads (~1000+ token inputs), actual concurrency the KV '
                         'cache supports is ~70-80, not 256'),
        'impact': ['With `max_concurrency=256`, the runner fires 256 concurrent requests via the asyncio semaphore. vLLM '
                   'accepts them but:',
                   'Only ~70-80 fit in KV cache at once', '180+ sit in the waiting queue',
                   'vLLM preempts aggressively to make room for new prefills',
                   '**480 preemptions** observed in a 5000-request job on A10G',
                   'TTFT p50 = 60s (requests stuck waiting)', 'Throughput degrades due to preemption overhead'],
        'observed': ['Model: Qwen/Qwen2.5-7B-Instruct', 'GPU: A10G (g5.xlarge)', '`max_concurrency=256 (source=fallback)`',
                     'KV cache: 77,088 tokens, 100% utilized', 'Running: ~72, Waiting: ~184'],
    },
    log=['max_concurrency=256 (source=fallback)'],
    observe={'running': (72, 'Running: ~72'), 'waiting': (184, 'Waiting: ~184'),
             'kv_usage': (1.0, '100% utilized'), 'ttft_p50_s': (60, 'TTFT p50 = 60s')},
    args_model='Qwen/Qwen2.5-7B-Instruct',
    args_gpu='A10G',
    notes=('the log line is the runner\'s reported setting; observe values are from the "Observed in" list (100% -> 1.0) '
           'and the TTFT p50 of the impact list; the 480 preemptions are a job total, not a rate, so no '
           'preemptions_per_s is passed; the issue is open and self-measured by the project, hence plausible'),
    leak=("The problem section (fallback to 256, naive formula), the ~70-80 capacity estimate and the suggested fix are "
          "left out."),
    hard=None))

# ============================== scheduling_capacity: context / slots / offload ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/11776', thread_type='issue',
    engine='Ollama 0.11.3 (CUDA)', engine_version='0.11.3', gpu=None, model=None,
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('After the upgrade the models ran with num_ctx 131072; the memory graph for that context (32 GiB) cannot '
                'fit in the 22.2 GiB available, so Ollama offloads 0 of 25 layers and the model runs entirely on the CPU.'),
    fix='Use a smaller num_ctx so the graph and KV fit in VRAM.',
    confidence='maintainer_explained',
    evidence={
        'title': 'The latest version does not support GPU.',
        'desc': ("After I updated from version 0.9.3 to the latest version 0.11.3, all the models couldn't enable GPU usage "
                 "and had to run on the CPU. Then we tried to restore the version to 0.9.3, and after that the models could "
                 "use GPU normally again."),
        'other': 'same issue with 0.11.3, all deployed models only run on CPU, while `ollama ps` shows "100% GPU"',
        'maintainer': 'num_ctx of 131072 creates a memory graph that is too large to fit on a GPU.',
        'log': ['time=2025-08-07T19:56:40.556-03:00 level=INFO source=server.go:175 msg=offload library=cuda '
                'layers.requested=-1',
                'layers.model=25 layers.offload=0 layers.split="" memory.available="[22.2 GiB]" memory.gpu_overhead="0 B"',
                'memory.required.full="14.8 GiB" memory.required.partial="0 B" memory.required.kv="3.1 GiB" '
                'memory.required.allocations="[0 B]"',
                'memory.weights.total="11.7 GiB" memory.weights.repeating="10.7 GiB" memory.weights.nonrepeating="1.1 GiB"',
                'memory.graph.full="32.0 GiB" memory.graph.parti'],
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), 'memory.graph.full="32.0 GiB"'],
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the server-log offload record as quoted (wrapped) in the maintainer\'s reply, the last cut '
           'to the part shown in the stored excerpt; no model or GPU name is given (22.2 GiB available); the symptom '
           '(every model runs on the CPU after the upgrade) is passed as tpot_high'),
    leak=("The maintainer's diagnosis (num_ctx 131072 makes the memory graph too large for the GPU) is left out; the "
          "num_ctx value is not in the inputs."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/4468', thread_type='issue',
    engine='Ollama 0.1.38 (Windows, NVIDIA)', engine_version='0.1.38', gpu=None, model=None,
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('OLLAMA_NUM_PARALLEL multiplies the context allocated on the GPU by the number of parallel slots; a model '
                'that only just fit without it has layers pushed off the GPU into system memory, so single-user speed '
                'halves and GPU utilisation drops to ~50%.'),
    fix='Lower OLLAMA_NUM_PARALLEL (or num_ctx) so the model stays fully on the GPU.',
    confidence='plausible',
    evidence={
        'title': 'Ollama speed dropped with setting OLLAMA_NUM_PARALLEL',
        'desc': ('After setting OLLAMA_NUM_PARALLEL in Ollama 0.1.38, the speed of single user access has dropped by half, '
                 'and the GPU utilization rate is only about 50%."'),
        'maintainer': ("@hugefrog can you share some more details?  What does `ollama ps` show with/without the parallel "
                       "setting, and what did you set it to?   We have to multiple the num parallel by the context size "
                       "when loading into the GPU, so if you're loading a model that just barely fit without parallel, "
                       "adding parallel might be pushing layers off the GPU and into system memory which could explain the "
                       "slowdown."),
    },
    observe={'gpu_util': (0.5, 'only about 50%')},
    args_model=None,
    args_gpu=None,
    notes=('the only machine-usable input is the GPU utilisation the reporter states (about 50% -> 0.5); the '
           'OLLAMA_NUM_PARALLEL value is not given, so no engine_args are passed; the cause is the maintainer\'s '
           'explanation without a reply from the reporter, hence plausible'),
    leak=("The title's and description's mention of OLLAMA_NUM_PARALLEL and the maintainer's explanation (num parallel x "
          "context pushes layers off the GPU) are left out."),
    hard=('Neither the parallel setting nor the layer split is in the inputs; only a halved speed and ~50% GPU '
          'utilisation are.')))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/7802', thread_type='issue',
    engine='llama.cpp server (ghcr.io/ggerganov/llama.cpp:server-cuda)', engine_version='Jun 2024', gpu=None, model=None,
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('With -c 65536 split over 4 parallel slots the KV cache that a request attends over grows with each new '
                'sequence in a higher slot, so prompt evaluation in higher-numbered slots is slower even on an idle '
                'server; more slots per context make each evaluation slower.'),
    fix='Use fewer slots for the context (or enable flash attention -fa, as suggested).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Bug: token generation seems to slow down for higher slots',
        'desc': ('I started llama-cpp server with -c 65536 and -parallel 4\nAll layers should run on Cuda.\nIt looks as if '
                 'slots with lower numbers are much faster in prompt evaluation than those with higher numbers, even if '
                 'there is nothing else going on on the server. Is this expected for some reason, or is there an issue '
                 'with the context memory?'),
        'version': 'ghcr.io/ggerganov/llama.cpp:server-cuda from today, which prints a strange version information:',
        'other': ('I use the server command with `-c 49152 -np 12`, which results in 12 slots of 4096 context length each. '
                  'I have noticed that when I reduce the number of slots, each evaluation (measured in tokens/sec) is '
                  'faster, compared to when there are more number of slots. Is this what you are describing too?'),
        'maintainer': 'To some extend it is expected because the KV cache size grows with each new sequence in a new slot:',
    },
    engine_args='-c 65536 -parallel 4',
    args_model=None,
    args_gpu=None,
    notes=('engine_args is rebuilt from the description ("-c 65536 and -parallel 4"); no log, model or GPU name is in '
           'the stored excerpt; slower prompt evaluation is passed as ttft_spike'),
    leak="The maintainer's explanation (KV cache size grows with each new sequence in a new slot) is left out.",
    hard=('Only the context/slot flags are in the inputs; that the slowdown depends on the slot index (KV grows per new '
          'sequence) is not.')))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261216, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
