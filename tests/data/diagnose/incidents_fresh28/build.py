#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh28: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh27; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the GitHub issue/PR thread text returned by the search tool
(corpus "issues"). JSON escapes were decoded; leading indentation, list bullets and markdown list markers were dropped;
a few long lines were cut to a verbatim prefix/substring. Log lines and output samples are taken from the evidence,
so check.py can verify they are verbatim substrings of it. This batch concentrates on llama.cpp (llama-server,
llama-cli and servers built on it: llama-box, ik_llama.cpp) and Ollama, with settings the earlier sets mined little:
physical batch size for rerankers, quantized KV cache and flash attention, per-slot context with parallel slots,
multi-GPU tensor split, direct I/O and NUMA, SYCL, keep_alive and model eviction, OLLAMA_ORIGINS, tool-call grammars,
and the clients and Kubernetes deployments in front of them.

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

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/joryirving/home-ops/pull/9770', thread_type='pr',
    engine='llama.cpp llama-server reranker (memini, Kubernetes home-ops deployment, CPU)', engine_version='Sep 2026',
    gpu=None, model=None,
    symptom='other', layer='scheduling_capacity',
    root_cause=('The reranker\'s physical batch size (uBatchSize) had been cut from 4096 to 2048 to reclaim GTT memory on '
                'Strix; a reranker must fit the whole query+document pair in one physical batch, so real recalls of '
                '2,793 tokens were rejected with HTTP 500.'),
    fix='Raise both batch sizes above the context size (with a matching memory bump).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(memini): restore the rerank batch size and widen the embed timeout',
        'desc': ('Rerank began returning 500 on real recalls — `input (2793 tokens) is too large to process (current batch '
                 'size: 2048)` — because uBatchSize was cut 4096→2048 to reclaim GTT on Strix, and rerank now runs on CPU '
                 'where memory is ordinary node RAM, so that reduction only truncates work; a reranker needs a physical '
                 'batch at least as large as its longest query+document pair, so both batch sizes now sit above '
                 'contextSize with a matching memory bump.'),
        'other_half': ('The embed timeouts were the other half of the alert: CPU embed latency is p50 4ms / p95 507ms / p99 '
                       '1.72s, so the 5s ceiling sat inside the tail and two of ~358 calls exceeded it, degrading one '
                       'recall to keyword-only — 15s clears the tail without masking a genuine outage.'),
    },
    log=['input (2793 tokens) is too large to process (current batch size: 2048)'],
    engine_args='--ubatch-size 2048',
    observe={'input_len_mean': (2793, 'input (2793 tokens)')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the reranker error quoted in the operator\'s incident record (the HTTP 500 body); '
           'engine_args is rebuilt from the prose ("uBatchSize was cut 4096→2048") as the llama-server flag; '
           'input_len_mean is the rejected input length; the 500s are passed with no symptom (other)'),
    leak=("The PR's explanation (ubatch cut to reclaim GTT; a reranker needs a physical batch at least as large as its "
          "longest pair), the title and the fix are left out; the independent embed-timeout half of the alert is left "
          "out."),
    hard=None))

I.append(dict(
    src='https://github.com/gpustack/gpustack/issues/1241', thread_type='issue',
    engine='llama-box (llama.cpp-based server) deployed by GPUStack, OpenAI /v1/chat/completions', engine_version='Feb 2025',
    gpu=None, model='DeepSeek-R1-Q4_KM',
    symptom='timeout_or_stream_break', layer='scheduling_capacity',
    root_cause=('GPUStack started llama-box with its default total context split across parallel slots (the context size '
                'is divided by --parallel, 4 by default), so each conversation had only a fraction of the context; once a '
                'reply grew past ~2,400 tokens the slot was full and, with context shift disabled, generation stopped '
                'with "context shift is disabled" and later requests were rejected.'),
    fix='Set --context-size=8192 and --parallel=1 (or a larger context) in the deployment\'s advanced settings.',
    confidence='maintainer_explained',
    evidence={
        'title': 'llama-box promp： context shift is disabled',
        'desc': ('My model is DeepSeek-R1-Q4_KM. Whenever my reply token exceeds a certain range, around 2400, the log '
                 'prompt is as follows. The current conversation cannot continue to answer. Can anyone help me?'),
        'request': ('[...]","seed":null,"stop":null,"temperature":1,"top_p":1,"max_tokens":819.2,"model":"Q4_K_M",'
                    '"stream":true,"stream_options":{"include_usage":true}}'),
        'log': ['44.54.717.867 E srv                send_error: task 2 | error = context shift is disabled',
                '44.54.718.067 I srv       log_server_response: rid 234984009963 | POST /v1/chat/completions '
                '172.22.10.6:47768 | status 200 | cost 80.17s',
                '73.17.515.187 I srv        log_server_request: rid 236766973537 | POST /v1/chat/completions '
                '172.22.10.6:48362',
                '73.17.574.546 E srv                send_error: task 3 | error = the request exceeds the available '
                'context size. try increasing the context size or enable context shift'],
        'maintainer': ['Please edit the model deployment and set the following parameters in advanced settings:',
                       '--context-size=8192', '--parallel=1',
                       'The first one is the total context size for this llama-box process, which will be divided by the '
                       'number of parallel (which is 4 by default) . You can adjust the number'],
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    observe={'output_len_mean': (2400, 'around 2400')},
    args_model='DeepSeek-R1-Q4_KM',
    args_gpu=None,
    notes=('the log lines are the llama-box server log the reporter pasted; the llama-box command line (GPUStack '
           'defaults) is not shown, so no engine_args are passed; output_len_mean is the reply length at which the '
           'conversation stops ("around 2400"); the reply breaking off mid-stream is passed as timeout_or_stream_break'),
    leak=("The maintainer's answer (set --context-size=8192 and --parallel=1; the total context is divided by the "
          "number of parallel slots, 4 by default) is left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/13227', thread_type='issue',
    engine='Ollama (CPU-only server, systemd) with Open WebUI', engine_version='0.13.0',
    gpu=None, model='gemma3:1b and gemma3:27b',
    symptom='other', layer='scheduling_capacity',
    root_cause=('Ollama 0.13.0\'s scheduler evicts a loaded model whenever another model is loaded and the new model '
                'cannot place all its layers in VRAM; on a CPU-only system no layer can ever go to VRAM ("loaded '
                'layers"=0), so every model load evicted the previous model although 498 GiB of RAM was free.'),
    fix='Upgrade to the release with the scheduler fix (do not always evict models on CPU-only systems).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama evicts previously loaded model, although system memory is suficient',
        'desc': 'I am running Ollama v0.13.0 CPU only, on a dedicated ubuntu server with 512 GB RAM.',
        'desc2': ('Although in previous versions I could keep multiple models loaded in memory '
                  '(Environment="OLLAMA_KEEP_ALIVE=-1"), after the last update it only keeps one model in memory, even '
                  'when using only small models. Model eviction happens as soon as I load another model.'),
        'desc3': ('For example, it can not have gemma3:1b & gemma3:27b loaded at the same time, although the total ram '
                  'they consume is small, compared to my free RAM.'),
        'log': ['Nov 24 13:55:06 llm ollama[7189]: time=2025-11-24T13:55:06.999Z level=INFO source=sched.go:443 '
                'msg="system memory" total="503.6 GiB" free="498.1 GiB" free_swap="8.0 GiB"',
                'Nov 24 13:55:06 llm ollama[7189]: time=2025-11-24T13:55:06.999Z level=INFO source=server.go:702 '
                'msg="loading model" "model layers"=63 requested=-1',
                'Nov 24 13:55:06 llm ollama[7189]: time=2025-11-24T13:55:06.999Z level=INFO source=server.go:974 '
                'msg="model requires more memory than is currently available, evicting a model to make space" '
                '"loaded layers"=0'],
        'fix_pr': ('Model eviction happens when we have at least one other model loaded and are unable to load all layers '
                   'into VRAM. However, on CPU-only systems we can never load layers into VRAM, so this constantly '
                   'triggered eviction.\n\nFixes #13227'),
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='Environment="OLLAMA_KEEP_ALIVE=-1"',
    args_model='gemma3:27b',
    args_gpu=None,
    notes=('the log lines are the journald lines the reporter pasted; engine_args is the systemd Environment line '
           'quoted in the description; the fix_pr evidence is the description of the maintainer\'s fixing PR '
           '(ollama/ollama#13242, "llm: Don\'t always evict models on CPU-only systems"), which names this issue; '
           'the models being evicted on every switch is passed with no symptom (other)'),
    leak=("The maintainer's fixing PR (the eviction check requires all layers in VRAM, which never holds on CPU-only "
          "systems) is left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/28506', thread_type='issue',
    engine='llama.cpp llama-server (CUDA, 2 GPUs, -sm tensor)', engine_version='build 10825 (9e0e22059)',
    gpu='2x RTX 5070 Ti 16GB', model='Qwen3.8-27B-Q5_K_M (with vision encoder)',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('With --split-mode tensor each tensor\'s split point is floored to a fixed granularity, so the actual '
                'device split drifts far from the requested -ts 0.49,0.51 and biases the whole model towards one GPU; '
                'that GPU runs out of memory although the two 16 GB cards together have room.'),
    fix='Use -ts 0.5,0.5 (which fits) or the PR that dithers the rounding so the split follows the requested ratio.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Misc. bug: tensor split drifts from requested -ts ratio and results in OOM',
        'version': 'version: 0.4.0-dev (build 10825, commit 9e0e22059)',
        'command': ['llama-server --host 0.0.0.0 --port 11080 \\', '-dev CUDA0,CUDA1 \\',
                    '-m unsloth-qwen3.8-27b/Qwen3.8-27B-Q5_K_M.gguf \\', '-ngl 999 \\', '-sm tensor \\',
                    '-ts 0.49,0.51 \\', '-c 190000 \\', '--cache-type-k q8_0 \\', '--cache-type-v q8_0 \\',
                    '--spec-type draft-mtp \\', '--spec-draft-n-max 3 \\', '-fa on \\', '-np 1 \\',
                    '--reasoning-preserve \\', '--jinja'],
        'desc': ('I was trying to fit Qwen3.8-27B with vision encoder on two RTX 5070 Ti 16GB. One thing I noticed is that '
                 'the tensor split drifts largely away from what is requested by `-ts`. This is caused by each tensor\'s '
                 'split point being floored to a fixed granularity, and therefore biases the whole model towards one '
                 'device. It could be fixed by dithering the rounding so that the bias cancels out over the full model. '
                 '(PR coming up).'),
        'works': ('The command above runs without issue if changed to `-ts 0.5,0.5` (14642MiB of 16303MiB total on each '
                  'device without the vision encoder). Ideally it would have enough room to fit the model with the '
                  'vision encoder tightly with something like `-ts 0.474,0.526` (the v'),
        'fix_pr': ('Currently each tensor\'s split point is floored to a fixed granularity, and therefore biases the whole '
                   'model towards one device. The resulting device split drifts largely from the requested ratio, even '
                   'with a tiny change to it.'),
    },
    engine_args=('-dev CUDA0,CUDA1 -ngl 999 -sm tensor -ts 0.49,0.51 -c 190000 --cache-type-k q8_0 --cache-type-v q8_0 '
                 '--spec-type draft-mtp --spec-draft-n-max 3 -fa on -np 1 --reasoning-preserve --jinja'),
    args_model='Qwen3.8-27B-Q5_K_M',
    args_gpu='2x NVIDIA GeForce RTX 5070 Ti 16GB',
    notes=('engine_args is the reporter\'s llama-server command line joined onto one line (host, port and model path '
           'dropped); no log lines were posted; the failure to fit is passed as startup_oom'),
    leak=("The title (the split drifts from the requested -ts ratio), the reporter's diagnosis (split points floored to "
          "a fixed granularity) and the working -ts 0.5,0.5 measurement are left out, as is the fixing PR."),
    hard='Neither the per-device buffer sizes nor the drifted split are in the inputs; only the requested -ts is.'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/10378', thread_type='issue',
    engine='llama.cpp llama-cli (CUDA)', engine_version='Nov 2024',
    gpu=None, model='chatglm4-9B (GGUF)',
    symptom='other', layer='numeric_parameter',
    root_cause=('A quantized V cache (-ctv q8_0) requires flash attention in llama.cpp; the command asked for '
                '-ctk q8_0 -ctv q8_0 without -fa, so context creation failed and the model did not load (installing the '
                'Python flash-attn package has no effect on llama.cpp).'),
    fix='Add -fa (enable llama.cpp flash attention) or keep the V cache in f16.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "Bug: flash-attn can't use",
        'desc': 'I want to quantize KV cache in the form of q8_0, but the following error occurs: ',
        'log': ['llama_new_context_with_model: V cache quantization requires flash_attn',
                "common_init_from_params: failed to create context with model "
                "'/home/albert/work/code/models/chatglm4-9B.guff'",
                'main: error: unable to load model'],
        'tried': 'After installing the flash-attn package, this error still occurs',
        'command': ('command :  ./llama-cli -m ~/work/code/models/chatglm4-9B.guff -b 1024 -ctk q8_0 -ctv q8_0 -ngl 256 '
                    '-p 给我讲个笑话吧'),
        'versions': ['torch version:2.5.1', 'cuda version:12.4', 'flash-attn version:2.7.0.post2'],
        'answer': "llama.cpp doesn't use python. Try the `-fa` argument to enable flash attention",
        'reporter': 'Got it ,thank you',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='-b 1024 -ctk q8_0 -ctv q8_0 -ngl 256',
    args_model='chatglm4-9B',
    args_gpu=None,
    notes=('the log lines are the llama-cli error lines the reporter pasted; engine_args is the reporter\'s command '
           'without the model path and prompt; the failed start (not an out-of-memory) is passed with no symptom '
           '(other)'),
    leak="The answer (llama.cpp does not use Python; pass -fa) and the reporter's thanks are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ikawrakow/ik_llama.cpp/issues/1917', thread_type='issue',
    engine='ik_llama.cpp llama-server (split mode graph)', engine_version='head (Jun 2026)',
    gpu=None, model='Step 3.5 Q4_K_XL',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The server ran with -grt bf16 (bf16 graph reduce type for split mode graph); for this model the bf16 '
                'reduction breaks the output, which turns to nonsense, while -grt f32 (or split by layer) is correct.'),
    fix='Use -grt f32 (slower) or split mode layer.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Bug: Step 3.5 Q4K_XL now outputs nonsense',
        'desc': ("I haven't run this model in a while but it seems that something broke and now it outputs nonsense."),
        'desc2': ("Is the new one supported? I have just tried it in split mode graph, I'll have to test split by layer."),
        'desc3': 'Split by layer works fine.',
        'maintainer_first': ("It looks like I have deleted the Step-3.5 model that I had for testing. The Step-3.5 compute "
                             "graph looks totally standard, so I wouldn't know why it would be broken."),
        'maintainer': ('I had another model not work with `-grt bf16`. IIRC, this is exactly what you always use. Can you '
                       'try with `-grt f32` and let me know if this fixes the issue?'),
        'reporter': ("Your suspicion was correct. F32 outputs are fine. Next time I will check that. Saved a bunch of work. "
                     "ofc it's slower."),
    },
    engine_args='-sm graph -grt bf16',
    args_model='Step 3.5 Q4_K_XL',
    args_gpu=None,
    notes=('engine_args is rebuilt from the thread: split mode graph is in the description and -grt bf16 is the graph '
           'reduce type the reporter always runs with (as the maintainer recalls); no log or output sample was posted; '
           'the nonsense output is passed as output_quality'),
    leak=("The maintainer's suggestion to try -grt f32 and the reporter's confirmation are left out; that split by layer "
          "works is left out too."),
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/pull/18166', thread_type='pr',
    engine='llama.cpp llama-server (CUDA GPU 0, MoE experts on CPU, dual-socket NUMA host)', engine_version='Jan 2026 master',
    gpu=None, model='Kimi-K2 (Q4_K MoE tensors off-loaded to CPU)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('After a rebuild, model loading used Direct I/O by default (the new --direct-io flag, which overrules '
                'mmap); on the dual Xeon Gold 6248 NUMA host the weights were no longer placed properly into the NUMA '
                'buffers during warm-up, so generation with CPU-resident MoE experts fell from 7-8 to ~4 tokens/s.'),
    fix='Run with --no-direct-io (Direct I/O was later disabled by default upstream).',
    confidence='confirmed_by_reporter',
    evidence={
        'pr_title': 'Adding --direct-io flag for model loading',
        'pr_desc': ('To enable Direct IO model reading by default on Linux and Windows, but to stay with `--mmap` as default '
                    'on Mac, this PR adds an additional flag for enabling/disabling Direct IO. This flag is by default true '
                    'and overrules the mmap parameter.'),
        'report': ('Just recompiled today and found this is causing a big performance regression for NUMA on my dual '
                   '`Xeon Gold 6248` system, so might be worth investigating and/or turning off as default for NUMA too:'),
        'before': ('Before this change I got around 7-8 tokens/s generation using Kimi-K2 (with `Q4_K` MoE tensors '
                   'off-loaded to CPU) by always dropping caches before loading.'),
        'after': ("I now only get around 1/2 this (~4 tokens/s) and it doesn't appear to be loading the data properly into "
                  "the NUMA buffers during warmup (ie: dropping caches containing ~500GB after loading is instant now, "
                  "rather than taking 20-30s before)."),
        'workaround': ('Adding `--no-direct-io` gets me back to the original 7-8 tokens/s generation and everything seems '
                       'to work as before.'),
        'script': ['echo 0 | sudo tee /proc/sys/kernel/numa_balancing > /dev/null',
                   'echo 3 | sudo tee /proc/sys/vm/drop_caches > /dev/null',
                   'CUDA_VISIBLE_DEVICES=0 GGML_OP_OFFLOAD_MIN_BATCH=2560 ~'],
        'later_fix': ['llama : disable Direct IO by default',
                      '- Update `llama_model_params::use_direct_io == false` by default'],
    },
    engine_args='CUDA_VISIBLE_DEVICES=0 GGML_OP_OFFLOAD_MIN_BATCH=2560',
    observe={'output_tokens_per_s': (4, '(~4 tokens/s)'),
             'expected_output_tokens_per_s': (7.5, 'around 7-8 tokens/s')},
    args_model='Kimi-K2',
    args_gpu=None,
    notes=('the case is one commenter\'s report in the PR thread that made Direct I/O the default; engine_args is the '
           'verbatim environment prefix of the commenter\'s launch line (the llama-server flags are cut off in the '
           'stored text); output_tokens_per_s is the new rate (~4) and expected_output_tokens_per_s the midpoint of the '
           'old 7-8 tokens/s; the later_fix evidence is ggml-org/llama.cpp#19109 (ggerganov) that disabled Direct I/O '
           'by default; no GPU model is named'),
    leak=("The PR description (Direct I/O on by default, overruling mmap), the commenter's observation about the NUMA "
          "buffers, the --no-direct-io workaround and the later upstream change are left out; the dual-socket NUMA host "
          "is not in the inputs."),
    hard='Only the halved token rate is in the inputs; the recompile that switched loading to Direct I/O and the NUMA host are not.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/25881', thread_type='issue',
    engine='llama.cpp llama-server (SYCL backend, Intel oneAPI)', engine_version='10068 (571d0d540)',
    gpu='Intel Arc Pro B70 (Battlemage)', model='gemma-4-31B-it-qat-UD-Q4_K_XL.gguf (with MTP draft model)',
    symptom='other', layer='operator_hardware',
    root_cause=('With -fa on, the SYCL backend used its oneDNN flash-attention path, which has a known bug on this GPU: '
                'the first generated token was invalid (<unused49>) and the server failed ("invalid token = -1").'),
    fix='export GGML_SYCL_FA_ONEDNN=0 (skip the oneDNN flash-attention path) until the fix lands.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Eval bug: SYCL fails with "invalid token = -1" on Intel Arc Pro B70',
        'version': ['version: 10068 (571d0d540)', 'built with IntelLLVM 2026.0.0 for Linux x86_64'],
        'hardware': 'AMD EPYC 7551P + Intel Arc Pro B70 (Battlemage)',
        'desc': ('SYCL backend produces invalid first token (<unused49>) causing pre_decode() to access index -1 on Intel '
                 'Arc Pro B70(please see below log)'),
        'sycl_ls': ('[level_zero:gpu][level_zero:0] Intel(R) oneAPI Unified Runtime over Level-Zero V2, Intel(R) Arc(TM) '
                    'Pro B70 Graphics 20.2.0 [1.15.38646+4]'),
        'cmake': ['-DGGML_SYCL=ON \\', '-DGGML_SYCL_F16=ON \\', '-DGGML_RPC=ON \\'],
        'command': ['./llama-server -m ~/models/unsloth/gemma-4-31B/gemma-4-31B-it-qat-UD-Q4_K_XL.gguf \\',
                    '--host 0.0.0.0 --temp 1 --top-p 0.95 --top-k 64 \\',
                    '--port 9294 --alias gemma4-31b-it -fa on --jinja -n 81920 -c  108000 \\',
                    '--mmproj ~/models/unsloth/gemma-4-31B/mmproj-BF16.gguf \\',
                    '--model-draft ~/models/unsloth/gemma-4-31B/mtp-gemma-4-31B-it.gguf \\',
                    '--spec-type draft-mtp --spec-draft-n-max 1 \\', '-ngl 99 \\', '--mlock --no-mmap \\',
                    '--prio 2  \\', '-np 1 \\', '-dev SYCL0 --spec-draft-device SYCL0 -lv 5'],
        'maintainer_ask': 'Could you execute follow groups of cmds and test again?',
        'maintainer_cmd': '`export GGML_SYCL_FA_ONEDNN=0`',
        'reporter': 'oh! it works well now by adding "export GGML_SYCL_FA_ONEDNN=0".',
        'maintainer': 'There is known issue of FA oneDNN path.\nThe fix/PR is ongoing.',
    },
    log=[('sycl_ls', None)],
    engine_args=('--temp 1 --top-p 0.95 --top-k 64 -fa on --jinja -n 81920 -c 108000 --mmproj mmproj-BF16.gguf '
                 '--model-draft mtp-gemma-4-31B-it.gguf --spec-type draft-mtp --spec-draft-n-max 1 -ngl 99 --mlock '
                 '--no-mmap --prio 2 -np 1 -dev SYCL0 --spec-draft-device SYCL0 -lv 5'),
    args_model='gemma-4-31B-it-qat-UD-Q4_K_XL',
    args_gpu='Intel Arc Pro B70',
    notes=('engine_args is the reporter\'s llama-server command joined onto one line (model/mmproj/draft paths '
           'shortened to file names, host/port/alias dropped); the log line is the sycl-ls device line the reporter '
           'posted; the llama-server log itself was attached as a file and is not in the stored text; the failed '
           'generation is passed with no symptom (other)'),
    leak=("The maintainer's suggestion (GGML_SYCL_FA_ONEDNN=0), the reporter's confirmation and the maintainer's note "
          "about the known oneDNN flash-attention bug are left out; the title (which names only the symptom) is not an "
          "input."),
    hard='The oneDNN flash-attention path is not named in the inputs; only -fa on with a SYCL device is.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/agent0ai/space-agent/issues/10', thread_type='issue',
    engine='Space Agent (Node web agent) in front of Ollama', engine_version='ollama v0.20.2',
    gpu=None, model='qwen3.5:27b-q4_K_M',
    symptom='other', layer='gateway_client',
    root_cause=('The agent was pointed at an Ollama endpoint whose (newline-delimited, multi-object) response body the '
                'client parses as a single JSON document, so every reply failed in JSON.parse at line 2 column 1 although '
                'Ollama answered; the OpenAI-compatible /v1/chat/completions endpoint works.'),
    fix='Configure the agent with http://127.0.0.1:11434/v1/chat/completions.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Reply from agent is always Unexpected non-whitespace character after JSON at position 15x (line 2 column 1)',
        'actual': ['chat message sent successfully', 'ollama  receives request and replies',
                   'in space agent interface error pops up'],
        'errors': ['store.js:454 [onscreen-agent] running the submission loop SyntaxError: Unexpected non-whitespace '
                   'character after JSON at position 156 (line 2 column 1)',
                   '[onscreen-agent] running the submission loop SyntaxError: Unexpected non-whitespace character after '
                   'JSON at position 155 (line 2 column 1)',
                   'logOnscreenAgentError\t@\tstore.js:454'],
        'environment': ['LLM engine: ollama v0.20.2', 'model: qwen3.5:27b-q4_K_M', 'num_ctx: 100 000',
                        'temperature: 0.2 - 0.6', 'node version: 20'],
        'answer': ('try this for the end point http://127.0.0.1:11434/v1/chat/completions I was facing the same but this '
                   'works.'),
        'reporter': 'Thanks a lot @timbo1975! Worked.',
    },
    log=[('errors', 0), ('errors', 1)],
    args_model='qwen3.5:27b-q4_K_M',
    args_gpu=None,
    notes=('the log lines are the browser-console errors of the agent the reporter pasted; Ollama itself answered, so '
           'there is no server error; no engine flags (num_ctx 100000 is a client option) are passed; the broken '
           'replies are passed with no symptom (other)'),
    leak="The other user's answer (use the /v1/chat/completions endpoint) and the reporter's confirmation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/2425', thread_type='issue',
    engine='Ollama OpenAI-compatible API (Docker, port 5310) called from a Chrome extension', engine_version='Feb 2024 (0.1.2x)',
    gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('Ollama\'s origin check rejects cross-origin requests whose Origin is not allowed; the browser extension '
                'sends Origin: chrome-extension://..., which was not in the allowed origins, so every API call got 403 '
                'Forbidden immediately.'),
    fix='Allow the extension origin with the OLLAMA_ORIGINS environment variable (e.g. chrome-extension://*).',
    confidence='maintainer_explained',
    evidence={
        'title': "OpenAI API 403 error with 'Origin' http request header",
        'desc': ("When testing the API I found when the browser extension sends 'Origin' header, the API always return "
                 "403 error immediately, like bellow:"),
        'curl': ['curl http://localhost:5310/v1/chat/completions \\',
                 '-H "Origin: chrome-extension://bpoadfkcbjbfhfodiogcnhade..f" \\'],
        'response': ['HTTP/1.1 403 Forbidden\\r', 'Date: Fri, 09 Feb 2024 09:15:22 GMT\\r', 'Content-Length: 0\\r'],
        'server_log': ('[GIN] 2024/02/09 - 09:21:34 | 403 |      14.458µs |      172.19.0.1 | POST     '
                       '"/v1/chat/completions"'),
        'maintainer': ('Hi @wizd have you tried the `OLLAMA_ORIGINS` environment variable to allow chrome extension '
                       'access? https://github.com/ollama/ollama/blob/main/docs/faq.md'
                       '#how-can-i-allow-additional-web-origins-to-access-ollama'),
        'maintainer2': ("Sorry this isn't easier – improving access permissions for browser/extensions is a work in "
                        "progress"),
    },
    log=['HTTP/1.1 403 Forbidden', ('server_log', None)],
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the HTTP status line of the curl reproduction (cut before the literal "\\r" the reporter '
           'pasted) and the Ollama GIN access-log line; the request headers (the extension Origin) are request content '
           'and are left out; the immediate 403s are passed with no symptom (other)'),
    leak=("The maintainer's answer (OLLAMA_ORIGINS), the title and description naming the Origin header, and the curl "
          "command carrying the chrome-extension Origin are left out."),
    hard='The chrome-extension Origin header that triggers the 403 is not in the inputs; only the 403 responses are.'))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/7773', thread_type='issue',
    engine='Ollama /api/chat (Windows, ollama-python client, streaming)', engine_version='0.4.2',
    gpu=None, model='gemma2:27b-instruct-q4_0',
    symptom='ttft_spike', layer='load',
    root_cause=('A request arrived with different model parameters (probably a different num_ctx) from the one the '
                'loaded runner was started with, so Ollama reset the loaded model to expire immediately and reloaded it; '
                'keep_alive=-1 does not prevent a reload when a request changes load-time parameters.'),
    fix='Send the same num_ctx (and other load-time options) on every request, or fix them in the Modelfile.',
    confidence='maintainer_explained',
    evidence={
        'title': ('Ollama unloads model after ~30 seconds per message with api/chat despite setting keep_alive=-1 and '
                  'setting OLLAMA_KEEP_ALIVE=-1 in Windows environment variables.'),
        'desc': ("Based on this I don't know if the issue lies in actually timing out or if Ollama is auto-unloading the "
                 "model due to resource usage and if its the latter than what can I do about it? I have plenty of VRAM "
                 "leftover but Ollama keeps unloading the model for whatever reason."),
        'ollama_ps': ['NAME                        ID              SIZE     PROCESSOR    UNTIL',
                      'gemma2:27b-instruct-q4_0    53261bc9c192    31 GB    100% GPU     Forever'],
        'code': ['context_length: int = 32000,', 'keep_alive=-1,'],
        'log': ['time=2024-11-20T21:26:53.535-05:00 level=DEBUG source=sched.go:575 msg="evaluating already loaded" '
                'model=C:\\Users\\me\\.ollama\\models\\blobs\\'
                'sha256-d7e4b00a7d7a8d03d4eed9b0f3f61a427e9f0fc5dea6aeb414e41dee23dc8ecc',
                'time=2024-11-20T21:26:53.535-05:00 level=DEBUG source=sched.go:283 msg="resetting model to expire '
                'immediately to make room" modelPath=C:\\Users\\me\\.ollama\\models\\blobs\\'
                'sha256-d7e4b00a7d7a8d03d4eed9b0f3f61a427e9f0fc5dea6aeb414e41dee23dc8ecc refCount=0'],
        'maintainer': ('ollama received a request that changed the parameters of the model, probably a different '
                       '`num_ctx`.'),
    },
    log=[('log', 0), ('log', 1)],
    engine_args='OLLAMA_KEEP_ALIVE=-1',
    args_model='gemma2:27b-instruct-q4_0',
    args_gpu=None,
    notes=('the log lines are the two OLLAMA_DEBUG scheduler lines from the reporter\'s server log as quoted in the '
           'thread; engine_args is the environment variable named in the title; the reload before each reply is passed '
           'as ttft_spike; the client code (num_ctx from context_length=32000 on some calls) is request content and is '
           'left out'),
    leak=("The maintainer's finding (a request changed the model's parameters, probably num_ctx) is left out; the "
          "client code that passes the context length is not an input."),
    hard='The request whose num_ctx differs is not in the inputs; only the scheduler line that resets the model is.'))

I.append(dict(
    src='https://github.com/flagdizero/jenny-android-ai-agent/issues/2', thread_type='issue',
    engine='llama.cpp llama-server on Android/Termux behind the Jenny agent app (OpenAI tools API)',
    engine_version='llama.cpp b10229, Jenny v0.3.0',
    gpu=None, model='Qwen2.5-3B-Instruct Q4_K_M',
    symptom='other', layer='load',
    root_cause=('The app sent its full tool set with every request; some tool schemas declared large string maxLength '
                'bounds, which llama-server\'s JSON-schema-to-grammar conversion expands into repetitions above its sanity '
                'threshold (MAX_REPETITION_THRESHOLD, also applied to repetitions times rule complexity), so grammar '
                'parsing failed and every message was rejected with HTTP 400 before inference.'),
    fix='Drop the schema maxLength bounds (check lengths in the tool instead); fixed in Jenny v0.3.1.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Local llama.cpp provider fails on every message: "failed to parse grammar" (independent of --jinja)',
        'setup': ['Jenny v0.3.0, sideloaded',
                  'Provider: local `llama-server` (llama.cpp, build tag `b10229`, built same day from source)',
                  'Model: Qwen2.5-3B-Instruct, Q4_K_M GGUF', 'Server run via Termux on-device (Samsung S23)'],
        'command': '~/llama.cpp/build/bin/llama-server -m ~/models/qwen2.5-3b.gguf --host 127.0.0.1 --port 8080',
        'what': ('Every message fails, 100% reproducible across multiple separate test messages ("hi", "hey", etc.):'),
        'client_error': ('HTTP 400: {"code":400,"message":"Failed to initialize samplers: failed to parse grammar",'
                         '"type":"invalid_request_error"}'),
        'server_log': ('parse: error parsing grammar: number of repetitions exceeds sane defaults, please reduce the number '
                       'of repetitions'),
        'jinja': ("Tested identically with and without `--jinja`. Same error both times, byte-for-byte. So this isn't a "
                  "chat-template issue — `llama-server` builds and applies the tool-call grammar unconditionally whenever "
                  "tools are present in the request, regardless of that flag."),
        'maintainer': ('Fixed in **v0.3.1** — APK attached to the release. Thanks for a report that was basically a patch '
                       'waiting to happen.'),
        'maintainer_detail': ('One detail worth adding, because it caught me out. llama.cpp guards the repetition count '
                              '**twice** against `MAX_REPETITION_THRESHOLD` (2000): once on the count itself, and once on '
                              '`n_prev_rules * total_rules` — the count multiplied by how complex the repeated rule is.'),
        'maintainer_fix': ('Both fields now drop the schema bound entirely and check the length in `execute()` instead'),
    },
    log=[('client_error', None), ('server_log', None)],
    engine_args='--host 127.0.0.1 --port 8080',
    args_model='Qwen2.5-3B-Instruct Q4_K_M',
    args_gpu=None,
    notes=('the log lines are the HTTP 400 body the app showed and the llama-server log line the reporter pasted; '
           'engine_args is the reporter\'s llama-server command without the model path; the request bodies (the tool '
           'schemas) are not in the thread; the rejected messages are passed with no symptom (other)'),
    leak=("The reporter's root-cause section, the --jinja analysis (the grammar is built whenever tools are present) and "
          "the maintainer's fix and explanation (maxLength bounds over the repetition threshold) are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261228, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
