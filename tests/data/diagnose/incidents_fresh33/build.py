#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh33: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh30; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the GitHub issue/PR thread text returned by the search tool
(corpus "issues"). JSON escapes were decoded; leading indentation and list bullets/numbers were dropped (markdown
emphasis was kept); lines the thread wrapped are kept as separate strings; a few long lines were cut to a verbatim
prefix/substring. Where the cause was explained in the fix PR that names the issue, that PR's text is kept under a
`fix_pr*` key of the same incident and the source stays the issue (noted per case). Log lines and output samples are
taken from the evidence, so check.py can verify they are verbatim substrings of it. This batch concentrates on LLM
serving on accelerators and hosts other than a single NVIDIA datacenter GPU (AMD Instinct and Radeon/APU under ROCm,
Apple Silicon with Ollama's MLX runner, NVIDIA Jetson and DGX Spark GB10, Rockchip SBC and x86 CPU-only hosts),
in any layer.

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
    src='https://github.com/vllm-project/vllm/issues/29233', thread_type='issue',
    engine='vLLM CPU backend (V1 engine, built with VLLM_TARGET_DEVICE=cpu)', engine_version='Nov 2025 (V1 EngineCore)',
    gpu=None, model='a model whose max seq len is 40960',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('On the CPU backend the KV cache is sized by VLLM_CPU_KVCACHE_SPACE, whose default is only 4 GB; a model '
                'with a 40960-token max seq len needs 4.38 GiB of KV cache for one request, so the engine refuses to start '
                'although the host has plenty of RAM.'),
    fix='Set VLLM_CPU_KVCACHE_SPACE larger (or lower max_model_len); the reporter proposed sizing it from available memory by default.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[CPU Backend] [Bug]: Default VLLM_CPU_KVCACHE_SPACE is too small for CPU Backend',
        'desc': ("If a user tries to run a model with a decent max_model_len, they're very l likely to run into memory issues "
                 "allocating enough kv cache space since the default value is 4GB (too small) for the CPU backend"),
        'log': ("(EngineCore_DP0 pid=64528) ERROR 11-18 13:44:09 [core.py:842] ValueError: To serve at least one request "
                "with the models's max seq len (40960), (4.38 GiB KV cache is needed, which is larger than the available KV "
                "cache memory (4.00 GiB). Based on the available memory, the estimated maximum model length is 37376. Try "
                "increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine."),
        'proposal': ('We should either default to similar behavior as the gpu backend, such as 80% of available memory or '
                     'even 50% of available memory to be conservative. Even if that is not possible, why do we have '
                     'VLLM_CPU_KVCACHE_SPACE instead of using the kv_cache_memory_bytes  argument?'),
        'repro': ['build vllm on CPU: `VLLM_TARGET_DEVICE=cpu python3 setup.py bdist_wheel`',
                  'then run: `vllm bench throughput --input_len 32`'],
    },
    log=[('log', None)],
    observe={},
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log line is the EngineCore error quoted in the issue; the reproducer is `vllm bench throughput --input_len '
           '32` with no engine flags, so no engine_args are passed; the model is not named (only its 40960-token max seq '
           'len); CPU-only host, no GPU'),
    leak=("The title and the description sentence naming the 4 GB VLLM_CPU_KVCACHE_SPACE default, and the reporter's "
          "proposal to size it from available memory, are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/AEON-7/vllm-dflash/issues/1', thread_type='issue',
    engine='vLLM with DFlash speculative decoding (AEON-7/vllm-dflash container, setup.sh-generated .env)',
    engine_version='Apr 2026', gpu='NVIDIA GB10 (single DGX Spark, 128 GB unified memory)',
    model='an NVFP4 model (~20 GB) with a DFlash drafter (~4 GB)',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('setup.sh wrote MAX_NUM_BATCHED_TOKENS=65536 (equal to the max model len) instead of the intended 32768; '
                'vLLM reserves a scheduler buffer for that many tokens in one batch on top of ~20 GB of weights, a ~4 GB '
                'drafter, ~65 GB of KV cache and the graph/autotune workspaces, which exceeds the 128 GB of unified memory '
                'shared with the host OS, so the whole system hangs during startup.'),
    fix='Set MAX_NUM_BATCHED_TOKENS=32768 (fixed in the repo in commit f8de667).',
    confidence='maintainer_explained',
    evidence={
        'title': 'running on a single‑card DGX Spark GB10 device service blocked',
        'desc': ('I am running on a single‑card DGX Spark GB10 device, and the memory keeps getting exhausted, causing the '
                 'system to hang and fail to start. There are no other programs running in the system。'),
        'nvidia_smi': '|   0  NVIDIA GB10                    On  |   0000000F:01:00.0 Off |                  N/A |',
        'maintainer': ('Thanks for the report — this was a repo bug on our side, not something wrong with your hardware or '
                       'setup. Diagnosis + fix below.'),
        'maintainer_log': 'The log shows your container was launched with:',
        'launch': '--max-num-batched-tokens 65536 --max-model-len 65536 --max-num-seqs 1 --gpu-memory-utilization 0.80',
        'maintainer_cause': ('`--max-num-batched-tokens 65536` is the killer. vLLM reserves a scheduler buffer sized for that '
                             'many tokens in a single batch, on top of:'),
        'maintainer_budget': ['Model weights (~20 GB NVFP4)', 'DFlash drafter (~4 GB)',
                              'KV cache allocation (~65 GB at our defaults)', 'CUDA graph capture workspace (~1–2 GB)',
                              'FlashInfer NVFP4 autotune scratch'],
        'maintainer_effect': ('On a 128 GB unified-memory Spark (shared with host OS), that exceeds the budget and the system '
                              'hangs. This matches the "memory keeps getting exhausted" symptom exactly.'),
        'fix': 'MAX_NUM_BATCHED_TOKENS=32768',
    },
    observe={},
    engine_args='--max-num-batched-tokens 65536 --max-model-len 65536 --max-num-seqs 1 --gpu-memory-utilization 0.80',
    args_model=None,
    args_gpu='NVIDIA GB10',
    notes=('engine_args are the launch flags from the reporter\'s container log (quoted by the maintainer); the model is not '
           'named (only its ~20 GB NVFP4 size and a DFlash drafter); the system hung while starting, passed as '
           'startup_oom; the nvidia-smi snapshot taken afterwards (0% utilisation, no memory figure on GB10) is not passed'),
    leak=("The maintainer's diagnosis (the 65536-token batched-token buffer on top of weights, drafter and KV cache "
          "exceeds the unified-memory budget) and the 32768 fix are left out."),
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/ROCm/TheRock/issues/5579', thread_type='issue',
    engine='llama.cpp (HIP/ROCm backend built from source against TheRock ROCm 7.14 nightly)',
    engine_version='ROCm 7.14.0a20260602 nightly, Jun 2026', gpu='AMD Radeon 860M (gfx1152, Ryzen 7 AI 350 APU)',
    model='Qwen and Gemma GGUF models',
    symptom='output_quality', layer='operator_hardware',
    root_cause=('llama.cpp\'s HIP vendor header did not list gfx1152 in its RDNA3.5 architecture macro, so a build for the '
                'Radeon 860M took kernel paths meant for other architectures and produced corrupted logits at full speed '
                '(streams of ? for Qwen, <unused24> for Gemma); Vulkan and CPU backends were correct.'),
    fix='Add gfx1152/gfx1153 to the RDNA3.5 macro in ggml/src/ggml-cuda/vendors/hip.h (llama.cpp#24129) and rebuild.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug]: Corrupted token outputs (`???` / `<unused>`) on ROCm backend with `gfx1152` target (Ryzen AI 350)',
        'desc': ('When running inference with `llama.cpp` using the native ROCm (HIP) 7.14 backend (from tarball '
                 'https://therock-nightly-tarball.s3.amazonaws.com) on a `gfx1152` APU, the execution runs at full speed, '
                 'but the model outputs completely corrupted tokens.'),
        'hardware': '**Hardware:** AMD Ryzen 7 AI 350 with Radeon 860M (`gfx1152`)',
        'rocm': '**ROCm Version:** 7.14.0a20260602 Nightly (built via `rocm-gfx1152-bin`)',
        'build': 'Build `llama.cpp` from source with the `gfx1152` target flag',
        'actual': ['Qwen models: The output is a uniform, infinite stream of ? or ??? characters.',
                   ('Gemma models: The generator gets stuck in an endless loop outputting <unused24> (or similar '
                    'unused/special tokens).')],
        'expected': ('The model should generate coherent text output, matching the results obtained via the Vulkan or CPU '
                     'backends.'),
        'maintainer': ('Hey @soulafein83, was able to repro this on my end and it has to do with a lack of `gfx1152` '
                       'definition over at https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml-cuda/vendors/hip.h#L222.'),
        'fix_pr_title': 'HIP: add gfx1152 and gfx1153 to RDNA3.5',
        'fix_pr_desc': 'Add gfx1152 and gfx1153 definitions to RDNA3.5 macro in `ggml/src/ggml-cuda/vendors/hip.h`.',
        'fix_pr_resolves': ('Resolves https://github.com/ROCm/TheRock/issues/5579 where users report corrupted output with '
                            'TheRock nightlies + llama.cpp build from source. Patching this change in resolves the issue.'),
    },
    outputs=['???', '<unused24>'],
    observe={},
    engine_args=None,
    args_model=None,
    args_gpu='AMD Radeon 860M (gfx1152)',
    notes=('the output lines are the two outputs the reporter describes (Qwen: a stream of ???, Gemma: <unused24> repeated); '
           'no command line is shown, so no engine_args; the models are only named by family, so no model is passed'),
    leak=("The AMD engineer's diagnosis (gfx1152 missing from the RDNA3.5 definition in hip.h) and the fix PR "
          "llama.cpp#24129 (which names the issue) are left out; the comparison with the Vulkan and CPU backends is in the "
          "evidence only."),
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/7176', thread_type='issue',
    engine='llama.cpp main (CPU, Orange Pi 5 / RK3588S)', engine_version='b2787 .. b2826 (May 2024)',
    gpu=None, model='Phi-3-mini-4k-instruct IQ4_XS (PrunaAI imatrix GGUF)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('From b2787 llama.cpp picks its default thread count from all 8 cores; the RK3588S has 4 big and 4 little '
                'cores, so the threads spread onto the slow little cores and both prompt and eval speed halve; -t 4 '
                '(the big cores only) restores 6.9 tok/s.'),
    fix='Pass -t 4 so only the four big cores are used.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'selects too many cores by default on orange pi 5 (2x slower)',
        'desc': "help, i'm on orange pi 5 and i use phi-3 and now it slow :'((((( T_T :cry: :crying_cat_face: :sob:",
        'model': 'model is from PrunaAI/Phi-3-mini-4k-instruct-GGUF-Imatrix-smashed on hugging face :hugs:',
        'cmd': './main -m models/Phi-3-mini-4k-instruct.IQ4_XS.gguf -s 1 -p "Hi! My name is"',
        'before': ['b2750:', 'prompt time: 11t/s', 'eval time: 7t/s - 7.20t/s'],
        'after': ['b2826:', 'prompt time: 4.40t/s', 'eval time: 3.84t/s'],
        'bisect': 'after bisecting, i found b2787 slowing it down very significantly (2x slower!)',
        'finding': ('update: i found the problem! after reading the commit message i realised i had to check htop for the '
                    'core used'),
        'finding_threads': ('llama.cpp selects too many cores!! adding "-t 4" makes it go fast again (eval=6.92 tokens per '
                            'second; prompt=10.77 tokens per second)'),
        'finding_cores': 'rk3588s has 4 BIG and 4 little cores so only choosing 4 same cores seems to be the ideal thing',
    },
    observe={'output_tokens_per_s': (3.84, 'eval time: 3.84t/s'),
             'expected_output_tokens_per_s': (7.2, 'eval time: 7t/s - 7.20t/s')},
    engine_args='-m models/Phi-3-mini-4k-instruct.IQ4_XS.gguf -s 1 -p "Hi! My name is"',
    args_model='Phi-3-mini-4k-instruct.IQ4_XS.gguf',
    args_gpu=None,
    notes=('engine_args are the arguments of the reporter\'s ./main command (no -t); output_tokens_per_s is the eval speed '
           'on b2826, expected_output_tokens_per_s the eval speed on b2750 (7.20 t/s); CPU-only single-board computer, no '
           'GPU'),
    leak=("The title ('selects too many cores by default'), the reporter's update (too many cores, -t 4 fixes it, "
          "4 big + 4 little cores) and the bisect result are left out."),
    hard=('The default thread count spanning the little cores of a big.LITTLE SoC is not in the inputs; only a command '
          'line without -t and an eval speed that halved.')))

I.append(dict(
    src='https://github.com/ROCm/aiter/issues/4855', thread_type='issue',
    engine='vLLM (ROCm nightly image) with AITER kernels, TP=8', engine_version='amd-aiter 0.1.19, vLLM 0.26.1 / rocm nightly (Aug 2026)',
    gpu='8x AMD Instinct MI325X (gfx942)', model='zai-org/GLM-5.2-FP8',
    symptom='output_quality', layer='operator_hardware',
    root_cause=('With VLLM_ROCM_USE_AITER=1 at TP=8, vLLM used AITER\'s CustomAllreduce (and its fused all-reduce + RMSNorm '
                'pass) for tensor-parallel all-reduce; that collective intermittently returned wrong sums, so the logits were '
                'corrupted and replies collapsed mid-generation into chains of single digits (HTTP 200, no warning).'),
    fix='VLLM_ROCM_USE_AITER_CUSTOM_AR=0 as a workaround (~3% slower); resolved by aiter PRs #4346 and #4082.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Issue]: Silent wrong results on gfx942 TP8 with GLM-5.2-FP8: degenerate output, fixed by '
                  'VLLM_ROCM_USE_AITER_CUSTOM_AR=0'),
        'desc': ['Serving `zai-org/GLM-5.2-FP8` on 8x MI325X (gfx942) with `VLLM_ROCM_USE_AITER=1`,',
                 "vLLM selects AITER's `CustomAllreduce` for tensor-parallel all-reduce and enables",
                 'produces **silently wrong output**: a reply starts coherent and on-topic, then',
                 'collapses mid-generation into chains of isolated single digits and never recovers for'],
        'context': 'Verbatim example at 30,940 tokens of context, `temperature=0`, HTTP 200, no warning',
        'output_sample': ["Let's dive deep into these four recommendations. If you want to!0,. The1.1.1",
                          '0 2,1,1,1, and5.1.The1a1.... (0,1,1,0,1,0,1,2,0,4,0,0,0,1,1,8,1,1,1,0,1,0,9,...'],
        'workaround': 'Setting **`VLLM_ROCM_USE_AITER_CUSTOM_AR=0` and changing nothing else eliminates',
        'env_hardware': '| Hardware | 8x AMD MI325X, `gfx942:sramecc+:xnack-`, single node, fully connected |',
        'env_aiter': '| aiter | `amd-aiter 0.1.19` |',
        'comment': ["Short version: on gfx942 TP8 with GLM-5.2-FP8, enabling AITER's custom all-reduce",
                    'makes decode output collapse mid-generation into chains of isolated digits.',
                    '`amd-aiter 0.1.19` — 5 failures in 1,080 turns, four of them in the *same scheduler',
                    'step* across four independent sequences, which is the main reason we suspect a',
                    'collective rather than anything per-sequence.'],
        'resolution': ('Resolved by [#4346](https://github.com/ROCm/aiter/pull/4346) and '
                       'https://github.com/ROCm/aiter/pull/4082. Verified on'),
    },
    outputs=[('output_sample', 0), ('output_sample', 1)],
    observe={},
    engine_args='VLLM_ROCM_USE_AITER=1 --tensor-parallel-size 8',
    args_model='zai-org/GLM-5.2-FP8',
    args_gpu='AMD Instinct MI325X (gfx942)',
    notes=('the output lines are the verbatim degenerate reply quoted in the issue (leading indentation dropped); '
           'engine_args are rebuilt from the prose (VLLM_ROCM_USE_AITER=1 and TP8); the failure is intermittent (5 in '
           '1,080 turns), so no rate or length is passed'),
    leak=("The title's 'fixed by VLLM_ROCM_USE_AITER_CUSTOM_AR=0', the sentences naming AITER's CustomAllreduce and the "
          "fused all-reduce+RMSNorm pass, the suspicion of a collective and the resolution PRs are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/2408', thread_type='issue',
    engine='Ollama 0.1.32 (linux-arm64) on NVIDIA JetPack 5', engine_version='0.1.32 (Apr 2024)',
    gpu='NVIDIA Jetson Orin (8 GB)', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('The Jetson ran JetPack 5, whose GPU driver stack ships CUDA 11.4, but the reporter had installed the CUDA '
                '12.2 packages; Ollama\'s CUDA runner then failed in cuBLAS (CUBLAS_STATUS_EXECUTION_FAILED) and fell back to '
                'the CPU. Removing the CUDA 12 packages (back to 11.4) made GPU inference work.'),
    fix='Uninstall the CUDA 12 packages on JetPack 5 and use the bundled CUDA 11.4.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Add binary support for Nvidia Jetson Orin - JetPack 6',
        'report': ('@dhiltgen I am on ollama 0.1.32 with jetson orin 8gb. I tried with cuda 11.4 and updated to 12.2 '
                   '`ollama run` still has an issue.'),
        'report_fallback': ('What I noticed is that after updating to 0.1.32, now instead of just crashing, it throws the '
                            'below exception and fallback to CPU. I wonder if its my setup or its still an issue.'),
        'log': ['CUDA error: CUBLAS_STATUS_EXECUTION_FAILED',
                ('current device: 0, in function ggml_cuda_mul_mat_batched_cublas at '
                 '/go/src/github.com/ollama/ollama/llm/llama.cpp/ggml-cuda.cu:1848')],
        'contributor': ('@Ahmad-Bunni Which version of Jetpack are you running? JP5 should have cuda-11.4 installed, JP6 '
                        'should have cuda-12.2. If you are running JP5, please uninstall cuda-12 related packages and run it '
                        'again.'),
        'confirmation': ('@remy415 Thank you it works! like you mentioned by default JP5 comes with cuda 11.4, however, that '
                         'does not work before I upgraded ollama to 0.1.32. Now rolling back my cuda to 11.4 + ollama 0.1.32 '
                         'works like charm cheers!'),
    },
    log=[('log', 0), ('log', 1)],
    observe={},
    engine_args=None,
    args_model=None,
    args_gpu='NVIDIA Jetson Orin 8GB',
    notes=('the incident is the reporter\'s comment in the Jetson support thread; the log lines are the two CUDA error lines '
           'of the exception quoted there (leading spaces dropped); the runner falls back to the CPU, passed as other; no '
           'model is named'),
    leak=("The Jetson contributor's diagnosis (JetPack 5 ships CUDA 11.4, remove the CUDA 12 packages) and the reporter's "
          "confirmation are left out; the reporter's remark that CUDA was updated to 12.2 is in the evidence only."),
    hard=('The CUDA 12.2 packages installed on a JetPack 5 (CUDA 11.4) board are not in the inputs; only the cuBLAS '
          'execution failure and the CPU fallback.')))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/llmmanorg/llmman/pull/285', thread_type='pr',
    engine='vllm serve (vLLM 0.27.1 CPU wheel) launched by the llmman vllm-plugin e2e test', engine_version='vLLM 0.27.1 (Aug 2026)',
    gpu=None, model='qwen3.5:0.8b-safetensors (Qwen3.5-0.8B)',
    symptom='other', layer='numeric_parameter',
    root_cause=('The test launched vllm serve with --dtype float16; Qwen3.5 is a hybrid Gated DeltaNet model whose vLLM CPU '
                'attention kernel requires bfloat16 (the model config declares bfloat16), so the server started but the first '
                'chat request crashed the engine and returned HTTP 500.'),
    fix='Use --dtype bfloat16.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(vllm-plugin): use bfloat16, not float16, in the vllm serve e2e test',
        'summary': ("main's CI has been red on every commit since #274 introduced this test: every Linux lane fails `pytest "
                    "-m e2e` with a 500 from the test's own chat request."),
        'root_cause': ("Reproduced locally end-to-end (real vLLM 0.27.1 CPU wheel + real `qwen3.5:0.8b-safetensors` weights, "
                       "no mocks): the server starts fine with `--dtype float16`, but the first real chat request crashes "
                       "vLLM's engine with `AssertionError: CPU GDN attention requires BF16.` Qwen3.5 is a hybrid "
                       "linear-attention (Gated DeltaNet) architecture, and vLLM's CPU kernel for it hard-requires BF16. The "
                       "model's own `config.json` already declares `\"dtype\": \"bfloat16\"` — float16 was just an untested "
                       "guess."),
        'fix': ('`--dtype float16` → `--dtype bfloat16`. Confirmed fixed by running the real test against a real `vllm '
                'serve` subprocess — it now passes and returns `"pong"`.'),
    },
    log=['AssertionError: CPU GDN attention requires BF16.'],
    observe={'error_rate': (1.0, 'every Linux lane fails')},
    engine_args='--dtype float16',
    args_model='Qwen3.5-0.8B',
    args_gpu=None,
    notes=('the log line is the engine assertion the PR quotes; engine_args is the --dtype the test passed; error_rate 1.0 '
           'because every chat request of the test failed with HTTP 500; CPU-only (vLLM CPU wheel), no GPU; a 500 on the '
           'first request is passed as other'),
    leak=("The PR title (use bfloat16, not float16), the explanation that the CPU GDN kernel hard-requires BF16 and that "
          "config.json declares bfloat16, and the fix are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/45562', thread_type='issue',
    engine='vLLM OpenAI server (vllm/vllm-openai-rocm:minimax-m3 image, TRITON_ATTN)',
    engine_version='0.22.1rc1.dev490+g4a560dd8d (Jun 2026)', gpu='8x AMD Instinct MI300X (gfx942)',
    model='MiniMaxAI/MiniMax-M3-MXFP8',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('With --kv-cache-dtype fp8 the MiniMax-M3 sparse-attention backend reinterpreted the byte-backed FP8 KV cache '
                'as torch.float8_e4m3fn, but on ROCm gfx942 the platform FP8 type is float8_e4m3fnuz; FN and FNUZ encode '
                'values differently, so K/V were changed before the kernels read them and GSM8K fell from 0.9666 (BF16 KV) '
                'to 0.0099. The uncalibrated-scale warning was a red herring.'),
    fix='Run with the default (BF16) KV cache, or take the fix that uses the platform FP8 dtype (vLLM PR #45720).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: ROCm MI300X FP8 KV cache MiniMax-M3-MXFP8 accuracy issues',
        'env': ['GPU              : 8x AMD Instinct MI300X (gfx942)', 'Image            : vllm/vllm-openai-rocm:minimax-m3',
                'vLLM             : 0.22.1rc1.dev490+g4a560dd8d', 'Model            : MiniMaxAI/MiniMax-M3-MXFP8',
                'Quantization     : mxfp8', 'Attention backend: TRITON_ATTN',
                'Parallelism      : TP=8, expert parallelism enabled',
                'KV cache         : fp8 (broken) / auto-BF16 (working)'],
        'summary': ['On ROCm/MI300X, `MiniMaxAI/MiniMax-M3-MXFP8` starts successfully with',
                    '`--kv-cache-dtype fp8`, and requests return HTTP 200, but generated output is',
                    'severely corrupted.'],
        'warning': ['Using uncalibrated q_scale 1.0 and/or prob_scale 1.0 with fp8 attention.',
                    'This may cause accuracy issues. Please make sure q/prob scaling factors are',
                    'available in the fp8 checkpoint.'],
        'not_the_warning': ['That warning was initially suspected, but it is not the cause of this failure.',
                            'The failure is a dtype mismatch in the MiniMax-M3 sparse-attention path.'],
        'gsm8k': ['This is not a small accuracy regression. GSM8K strict accuracy drops from',
                  '`0.9666` with the default BF16 KV cache to `0.0099` with FP8 KV cache.'],
        'fix_pr_title': '[Bugfix][ROCm] Fix MiniMax-M3 FP8 KV cache dtype',
        'fix_pr_fixes': 'Fixes #45562.',
        'fix_pr_cause': ["MiniMax-M3's sparse-attention backend reinterprets the byte-backed FP8 KV",
                         'cache as `torch.float8_e4m3fn` for every E4M3 configuration. That is incorrect',
                         'on ROCm gfx942, where `current_platform.fp8_dtype()` is',
                         '`torch.float8_e4m3fnuz`.',
                         'FN and FNUZ use different encodings. Reinterpreting FNUZ cache bytes as FN',
                         'changes the K/V values before the sparse-attention kernels consume them.'],
    },
    log=[('warning', 0)],
    observe={},
    engine_args='--kv-cache-dtype fp8 --tensor-parallel-size 8 --enable-expert-parallel',
    args_model='MiniMaxAI/MiniMax-M3-MXFP8',
    args_gpu='AMD Instinct MI300X (gfx942)',
    notes=('the log line is the first line of the vLLM warning quoted in the issue (the issue wraps it over three lines); '
           'engine_args are rebuilt from the environment block (kv-cache dtype fp8, TP=8, expert parallelism); the '
           'GSM8K drop is not a VOCAB metric and no output sample is quoted, so none is passed'),
    leak=("The reporter's statement that the warning is not the cause and that the failure is a dtype mismatch, the "
          "'fp8 (broken) / auto-BF16 (working)' line and the fix PR (#45720, FN vs FNUZ reinterpretation) are left out."),
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/17804', thread_type='issue',
    engine='Ollama MLX runner (vision, macOS)', engine_version='0.32.13 (Aug 2026)',
    gpu='Apple M5 Pro (48 GB unified memory)', model='Qwen3.8-27-mlx-nv4-thinking:latest',
    symptom='runtime_oom_or_preemption', layer='load',
    root_cause=('The request attached a 5712x4284 (24.5 MP) photo; the vision path turned it into ~125k patches without '
                'capping the resolution, and the attention over them needed a 133.9 GB Metal buffer, far over the ~28 GiB '
                'per-buffer cap, so the runner panicked and the request failed with HTTP 500. The same image resized to '
                '1568 px works.'),
    fix='Resize the image before sending (e.g. sips -Z 1568); cap vision input resolution.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'MLX vision runner requests ~125GB Metal buffer (crash) on high-resolution image input with Qwen3.8-27B',
        'env': ['**Ollama version:** 0.32.13', '**Hardware:** MacBook Pro, Apple M5 Pro, 48GB unified memory',
                '**OS:** macOS 26.6.1 (build 25G76)', '**Model:** Qwen3.8-27-mlx-nv4-thinking:latest'],
        'what': 'Vision inference on a 5712×4284 (24.5MP) JPEG produced:',
        'log': ('Error: 500 Internal Server Error: mlx runner failed: panic: mlx: [metal::malloc] Attempting to allocate '
                '133872076800 bytes which is greater than the maximum allowed buffer size of 30150672384 bytes. at '
                '/Users/runner/work/ollama/ollama/build/darwin-sources/_deps/mlx-c-src/mlx/c/transforms.cpp:73'),
        'sizes': '133,872,076,800 bytes (≈124.7 GiB) requested vs a ~28.1 GiB per-buffer Metal cap.',
        'workaround': ('Resizing the same image to 1568px on the longest edge (`sips -Z 1568`) avoids the crash; inference '
                       'completes normally.'),
        'suspected': ('Vision token count appears to scale directly with raw input resolution rather than being capped '
                      'before patchification (e.g. a missing `max_pixels`-style resize step).'),
    },
    log=[('log', None)],
    observe={},
    engine_args=None,
    args_model='Qwen3.8-27-mlx-nv4-thinking:latest',
    args_gpu='Apple M5 Pro',
    notes=('the log line is the client-side error of the vision request as quoted in the issue; the image size is only in '
           'prose and is not a VOCAB metric, so it is not passed; an allocation failure that kills the runner on one '
           'request is passed as runtime_oom_or_preemption'),
    leak=("The title's 'on high-resolution image input', the 24.5 MP image size, the resize workaround and the "
          "reporter's suspicion (uncapped vision tokens) are left out."),
    hard=('The 24.5 MP input image is not in the inputs; only the Metal allocation failure of 133.9 GB against a '
          '30.2 GB buffer cap.')))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/ragapp/ragapp/issues/29', thread_type='issue',
    engine='RAGapp (Docker Desktop, LlamaIndex httpx client) -> Ollama 0.1.39 on the macOS host', engine_version='May 2024',
    gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('RAGapp\'s HTTP client to Ollama used a short fixed read timeout; on this Mac the local model was slower than '
                'that, so every query ended in httpx.ReadTimeout and the UI showed nothing. A later ragapp PR added a timeout '
                'setting for Ollama.'),
    fix='Raise/configure the Ollama request timeout (a setting was added in a later ragapp PR, ragapp#49) or use faster hardware.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Local Ollama is too slow - increase time out and make it configurable',
        'env': ['I am on MacOS 12.7.4 (Monterey)', 'I have Ollama 0.1.39 installed',
                'I have Docker desktop 26.1.1 with docker console', 'I have a PDF document uploaded for the AI to read'],
        'symptom': ('I am able to get the app loaded on the browser but it doesn’t do anything when I put in the '
                    'query/message'),
        'query': "The query/message is 'In which week do we do pages 30 - 40?' which appears in line 2024-05-31 15:36:01",
        'maintainer_url': 'Using http://host.docker.internal:11434 is correct.',
        'maintainer': ('The log shows that you\'re getting a "httpx.ReadTimeout: timed out" error so your Ollama is too slow '
                       'generating the tokens.'),
        'maintainer_hw': ('I have a M2 with 24GB,  llama3 works ok there, but generally the more GPU compute and RAM the '
                          'better.'),
        'later_pr_title': 'fix update mounting static files and add timeout config for Ollama',
    },
    log=['httpx.ReadTimeout: timed out'],
    observe={},
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log line is the error of the attached terminal output, as the maintainer quotes it; the host is a Mac '
           '(macOS 12.7.4) with Ollama 0.1.39, no GPU or model named'),
    leak=("The title (Ollama too slow, increase the timeout), the maintainer's reading of the log (Ollama too slow "
          "generating the tokens) and the later ragapp PR that added a timeout setting (ragapp#49, title only; it does not name "
          "the issue in the stored text) are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261233, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
