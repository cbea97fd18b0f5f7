#!/usr/bin/env python3
"""Build the fresh (out-of-sample) incident set: incidents.jsonl and cases/fresh-NNN/.

Same bundle format as the development set in ../incidents (see its README and make_bundles.py).
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

# ------------------------------- scheduling_capacity -----------------------------------------
I.append(dict(
    src='https://github.com/unslothai/unsloth/pull/9392', thread_type='pr',
    engine='llama.cpp llama-server (launched by Unsloth Studio)', engine_version='Unsloth Studio, Aug 2026',
    gpu=None, model=None, symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('Studio launched llama-server with --parallel 4 --kv-unified, i.e. one shared 2048-token KV cache '
                'that every slot is told it owns in full, and admitted generations on free slot count alone, so two '
                'concurrent requests (565 + 1485 tokens) overflowed the shared cache and llama.cpp killed both.'),
    fix='Admit generations against the remaining KV budget (this PR), or give slots private caches / a larger -c.',
    confidence='maintainer_explained',
    evidence={
        'log': ['srv send_error: task id = 1101, error: Context size has been exceeded.',
                'slot   release: id 0 | task 1101 | n_tokens = 565,  truncated = 0',
                'srv send_error: task id = 714,  error: Context size has been exceeded.',
                'slot   release: id 1 | task 714  | n_tokens = 1485, truncated = 0',
                "srv load_model: initializing, n_slots = 4, n_ctx_slot = 2048, kv_unified = 'true'"],
        'flags': '`--parallel 4 --kv-unified` allocates ONE cache of `n_ctx` and then reports the whole of it to every slot:',
        'analysis': '565 + 1485 = 2050 against a 2048-token cache, `truncated = 0` on both, so neither request was too long on its own.',
        'admission': '`core/inference/llama_admission.py` gated on slot count alone.',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4)],
    engine_args='--parallel 4 --kv-unified',
    notes='engine_args are the two launch flags the PR quotes; the rest of the Studio launch line is not shown',
    leak="Only llama-server's log lines and the two launch flags go in; the PR's arithmetic (565 + 1485 = 2050) and its admission-by-slot-count analysis are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/4079', thread_type='issue',
    engine='Ollama (behind Open WebUI)', engine_version='0.1.33-RC5', gpu='Nvidia', model=None,
    symptom='output_quality', layer='scheduling_capacity',
    root_cause=('With OLLAMA_PARALLEL=4 the context Ollama allocated was split across four parallel slots, so the '
                '16000-token num_ctx set in Open WebUI left each request only about 4000 tokens and the front of a '
                'long system prompt was silently dropped.'),
    fix='Run with OLLAMA_PARALLEL=1 (or raise num_ctx to parallel x the needed context).',
    confidence='confirmed_by_reporter',
    evidence={
        'config': 'When `OLLAMA_PARALLEL = 4,` I observed  that model appears to only understand the last 4000 tokens of the DDL.',
        'client': 'My webui is open webui , it can set `num_ctx` to 16000, but useless.',
        'ab_test': 'BUT changing `OLLAMA_PARALLEL=1`,  model can understand the whole DDL !',
        'version': '0.1.33-RC5',
    },
    engine_args='OLLAMA_PARALLEL = 4',
    notes='no log or output sample in the thread; num_ctx 16000 (a per-request option set in Open WebUI) has no vocabulary name and is kept out',
    leak="The reporter's A/B with OLLAMA_PARALLEL=1 and the 16000/4 hypothesis are left out; only the parallel setting goes in.",
    hard='Only the OLLAMA_PARALLEL setting is given; the long prompt and the per-request num_ctx that make the split matter are not in the inputs.'))

I.append(dict(
    src='https://github.com/msramanujam/maya/issues/31', thread_type='issue',
    engine='Ollama (behind LiteLLM)', engine_version=None, gpu=None, model=None,
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('Ollama unloads a model after five minutes idle, so the first request after a gap reloads the 31 GB '
                '27B model, from SSD once it has left the page cache, and waits minutes before the first token.'),
    fix='OLLAMA_KEEP_ALIVE=-1 so the model stays resident.',
    confidence='confirmed_by_reporter',
    evidence={
        'symptom': 'A chat that answers in ~3 seconds while the model is warm takes minutes\nafter a gap. Observed at 270 seconds once, and 78 seconds a few minutes\nlater.',
        'cause': 'Ollama unloads a model after five minutes idle. Reloading the 27B means\nreading 31 GB back in.',
        'gateway': 'Measured warm: 3.33s through LiteLLM against 3.27s\ndirect to Ollama.',
        'fix': '`OLLAMA_KEEP_ALIVE=-1` in `config/launchd/com.maya.ollama-env.plist`,',
    },
    observe={'ttft_p99_s': (270, 'Observed at 270 seconds once')},
    notes='only the worst observed first-response latency is passed; the 78 s case and the warm ~3 s baseline are prose',
    leak='The idle-unload explanation, the gateway-vs-direct measurements and the keep-alive fix are left out; only the 270 s latency goes in.',
    hard='Only one latency number is available; nothing in the inputs shows the idle gap or the model reload.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/15598', thread_type='issue',
    engine='vLLM', engine_version=None, gpu=None, model=None,
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('Capturing CUDA graphs for the default --max-num-seqs (256 in V0, 1024 in V1) needed more memory than '
                'was left after the KV cache was sized, so start-up ran a 44.53 GiB GPU out of memory; --enforce-eager '
                'or a smaller --max-num-seqs/--max-model-len avoids it.'),
    fix='Lower --max-num-seqs (or --max-model-len), or run with --enforce-eager.',
    confidence='maintainer_explained',
    evidence={
        'error': 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 MiB. GPU 6 has a total capacity of 44.53 GiB of which 448.00 KiB is free.',
        'maintainer_1': "If you don't use `--enforce-eager`, CUDA graph is recorded to optimize the performance, but this takes up extra memory.",
        'maintainer_2': 'You can reduce `--max-num-seqs` (default 256 in V0, 1024 in V1) to reduce memory usage. Reducing `--max-model-len` may also help.',
    },
    log=[('error', None)],
    notes='only the issue title (the OOM line) was readable; launch flags, model and GPU model are not in the excerpt read, so they are null',
    leak="The maintainer's CUDA-graph explanation and the reporter's observation that --enforce-eager avoids the OOM are left out.",
    hard='Only the OOM line is given; that it happens during CUDA-graph capture sized by max-num-seqs is not visible (CUDA graphs are also an operator concern).'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/710', thread_type='issue',
    engine='TGI', engine_version=None, gpu='g5.48xlarge', model='Llama2-70b',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('max_batch_total_tokens was set to 16000, a KV-cache token budget that does not fit next to the '
                'Llama-2-70B shards on the 8-GPU g5.48xlarge, so TGI refused to start at warm-up.'),
    fix='Lower --max-batch-total-tokens (and/or --max-batch-prefill-tokens) to what the memory allows.',
    confidence='maintainer_explained',
    evidence={
        'error': 'Not enough memory to handle 16000 total tokens with 2 prefill tokens. You need to decrease `--max-batch-total-tokens` or `--max-batch-prefill-tokens',
        'args': '{ model_id: "/opt/ml/model", revision: None, validation_workers: 2, sharded: None, num_shard: Some(8), quantize: None, dtype: None, trust_remote_code: false, max_concurrent_requests: 128, max_best_of: 2, max_stop_sequences: 4, max_input_length: 3072, max_total_tokens: 4096, waiting_served_ratio: 1.2, max_batch_prefill_tokens: 4096, max_batch_total_tokens: 16000, max_waiting_tokens: 20, hostname: "container-0.local", port: 8080, shard_uds_path: "/tmp/text-generation-server", master_addr: "localhost", master_port: 29500, huggingface_hub_cache: Some("/data"), weights_cache_override: None, disable_custom_kernels: false, json_output: false, otlp_endpoint: None, cors_allow_origin: [], watermark_gamma: None, watermark_delta: None, ngrok: false, ngrok_authtoken: None, ngrok_domain: None, ngrok_username: None, ngrok_password: None, env: false }',
        'hardware': 'ran this on g5.48xlarge',
        'maintainer': 'Why should it run? Have you looked at the error message?',
        'followup': 'whats the ideal value for Llama2-70b',
    },
    log=[('args', None), ('error', None)],
    notes="the launcher's Args dump is passed as a log line (it is what TGI printed); no engine_args beyond it",
    leak="Only TGI's own Args dump and the error (from the title) go in; the maintainer's pointer back to the message is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/GAIR-NLP/LIMO/issues/29', thread_type='issue',
    engine='vLLM (V0, LIMO evaluation scripts)', engine_version=None, gpu=None, model=None,
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('Evaluating 32B models with the configured GPU memory fraction and tensor-parallel size left too '
                'little KV cache, so vLLM kept preempting sequence groups for recomputation.'),
    fix='Raise gpu_memory_utilization or tensor_parallel_size (more KV cache per request).',
    confidence='maintainer_explained',
    evidence={
        'warning': 'Sequence group 221 is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This can affect the end-to-end performance. Increase gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory. total_num_cumulative_preemption=101',
        'maintainer': 'You can consider adjusting `gpu_memory_utilization` or `increasing tensor_parallel_size` to address this problem. And please note that evaluating 32B models requires substantial GPU resources regardless of configuration changes.',
    },
    log=[('warning', None)],
    notes='no flags, model or GPU in the description; the model size (32B) appears only in the maintainer reply and is kept out',
    leak="The maintainer's reply is left out; only vLLM's preemption warning goes in.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/3711', thread_type='issue',
    engine='Ollama', engine_version='0.1.32', gpu=None, model='mixtral:8x22b',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=("Ollama 0.1.32's memory estimate offloaded 51 of mixtral:8x22b's layers to the GPUs, one more than "
                'actually fit, so the runner failed with a CUDA malloc out-of-memory; the same command with 50 layers runs.'),
    fix='Pin the GPU layer count (num_gpu, e.g. 50) in a Modelfile, or upgrade to a release with a corrected estimate.',
    confidence='confirmed_by_reporter',
    evidence={
        'runner_cmd': '/tmp/ollama346288213/runners/cuda_v12/ollama_llama_server --model /media/data/ollama/blobs/sha256-7ec0c94a95cafef2780d00679e83f172ac343bc828aebbe2a5475fbe2daf76ff --ctx-size 2048 --batch-size 512 --embedding --log-disable --n-gpu-layers 51 --port 43359',
        'context': 'in my case the cuda malloc fail inducing command that I see with mixtral:8x22b is, as extracted from the log:',
        'ab_test': 'The same command happily runs if I reduce just 1 layer from the GPU offload: `--n-gpu-layers 50` runs happily.',
        'title': 'CUDA malloc fails on newly supported models in 0.1.32 (dual-GPU setup with 72GB VRAM and 128GB RAM)',
    },
    log=[('runner_cmd', None)],
    notes="incident is the commenter mz2's; the 72GB dual-GPU setup in the title is the original reporter's, so gpu is null",
    leak='The 50-layer A/B and the CPU-library workaround are left out; only the failing runner command from the log goes in.',
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/3280', thread_type='issue',
    engine='LMDeploy (PyTorch engine, VLM)', engine_version=None, gpu='H100*1', model='Qwen2.5-VL-7B-Instruct',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('--cache-max-entry-count 0.99 gave 99% of the memory left after the weights to the KV cache, leaving '
                'about 0.66 GB for activations, so requests with three 1920x1080 images ran out of working memory and '
                'the session ended with an error.'),
    fix='Lower --cache-max-entry-count (0.9, then 0.8) or add GPUs.',
    confidence='plausible',
    evidence={
        'error': '2025-03-19 04:28:52,017 - lmdeploy - ERROR - async_engine.py:777 - session 85 finished, reason "error"',
        'command': 'lmdeploy serve api_server Qwen2.5-VL-7B-Instruct/ --server-port 23333 --model-name Qwen2.5-VL-7B-Instruct --tp 1 --session-len 32768 --eager-mode --cache-max-entry-count 0.99',
        'repro': '我们在H100*1上启动了Qwen2.5-VL-7B，当我们输入三张1920*1080的图像时，出现了这个错误。但是两张图像不会。',
        'maintainer': '--cache-max-entry-count 0.99 有些极限了。它表示加载完权重后，剩余显存的 99% 都要被分配出来用来存 kv cache.',
        'reporter_reply': '默认0.8也崩，很奇怪',
    },
    log=[('error', None)],
    engine_args='lmdeploy serve api_server Qwen2.5-VL-7B-Instruct/ --server-port 23333 --model-name Qwen2.5-VL-7B-Instruct --tp 1 --session-len 32768 --eager-mode --cache-max-entry-count 0.99',
    notes='three 1920*1080 images per request (request content) have no vocabulary name and are kept in notes only',
    leak="The maintainer's 0.66 GB activation-memory arithmetic is left out; the error line (from the title) and the launch command go in.",
    hard=None))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/issues/1188', thread_type='issue',
    engine='TensorRT-LLM (run.py / C++ runtime)', engine_version=None, gpu='Quadro A4000(16GB VRAM)',
    model='qwen2.5-coder-0.5B-instruct/int8', symptom='other', layer='scheduling_capacity',
    root_cause=('Default build and runtime settings (large max_num_tokens and max_batch_size, '
                'kv_cache_free_gpu_memory_fraction 0.9) made TensorRT-LLM pre-allocate runtime buffers, decoder '
                'memory and a paged KV cache from 90% of free memory, so a 0.5B int8 model held about 15 GB.'),
    fix='Build with smaller --max_num_tokens/--max_batch_size and run with a small --kv_cache_free_gpu_memory_fraction.',
    confidence='confirmed_by_reporter',
    evidence={
        'log': ['Loaded engine size: 875 MiB',
                'Allocated 773.51 MiB for execution context memory.',
                ' Allocated 2.66 GB GPU memory for runtime buffers.',
                'Allocated 5.76 GB GPU memory for decoder.',
                'Allocated 4.53 GiB for max tokens in paged KV cache (395776).'],
        'usage': 'In my case: model qwen2.5-coder-0.5B-instruct/int8 on Quadro A4000(16GB VRAM) default value was used around **15 GB** VRAM:',
        'after': 'and became  **1 182** MB VRAM with 512 tokens, batch  1 and gpu memory fraction 0.001',
    },
    log=['Loaded engine size: 875 MiB', 'Allocated 773.51 MiB for execution context memory.',
         'Allocated 2.66 GB GPU memory for runtime buffers.', 'Allocated 5.76 GB GPU memory for decoder.',
         'Allocated 4.53 GiB for max tokens in paged KV cache (395776).'],
    observe={'gpu_mem_used_gib': (15, 'default value was used around **15 GB** VRAM')},
    notes="incident is commenter ayaromenok's; GB read as GiB as in the dev set; no symptom class fits excess memory use, so 'other'",
    leak='The explanation of max_num_tokens/max_batch_size/kv fraction and the 1,182 MB result after changing them are left out.',
    hard=None))

I.append(dict(
    src='https://github.com/lemonade-sdk/lemonade/issues/3591', thread_type='issue',
    engine='Lemonade (llama.cpp llama-server, Vulkan)', engine_version='Lemonade 11.9.0',
    gpu='AMD Radeon RX 9070 XT', model='nomic-embed-text-v1-GGUF', symptom='other', layer='scheduling_capacity',
    root_cause=('Lemonade raised the embedding model context to 8192 but left llama-server\'s physical batch (ubatch) at '
                '512, and a non-causal embedding input must fit in one micro-batch, so any input over 512 tokens failed '
                'with HTTP 500.'),
    fix='Pass --batch-size/--ubatch-size equal to the context for embedding models (reporter PR #3611).',
    confidence='confirmed_by_reporter',
    evidence={
        'command': 'lemonade load nomic-embed-text-v1-GGUF --llamacpp vulkan',
        'error': 'HTTP 500 `input (992 tokens) is too large to process. increase the physical batch size (current batch si',
        'ok_case': '| 452 tokens | HTTP 200, 768-dim embedding |',
        'diagnosis': "The context size gets raised, but the physical/logical batch size stays at llama-server's default of 512, so that becomes the real input limit.",
    },
    log=['input (992 tokens) is too large to process. increase the physical batch size'],
    engine_args='lemonade load nomic-embed-text-v1-GGUF --llamacpp vulkan',
    notes="error line cut to its verbatim prefix (the excerpt truncates it); HTTP 500 error, no symptom class fits, so 'other'",
    leak="The reporter's diagnosis (ctx raised, batch left at 512) and the fix PR are left out; the server's error text and the load command go in.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/4159', thread_type='issue',
    engine='Ollama', engine_version='0.1.33', gpu='Apple', model=None, symptom='other', layer='scheduling_capacity',
    root_cause=('Ollama 0.1.33 capped its scheduler queue of pending requests at a small fixed size (10), so a burst of '
                '30 concurrent requests was rejected with "server busy" instead of queued; later releases raised the '
                'cap to 512 and made it configurable (OLLAMA_MAX_QUEUE).'),
    fix='Upgrade (queue 512, OLLAMA_MAX_QUEUE) or limit client concurrency.',
    confidence='maintainer_explained',
    evidence={
        'errors': ['\\"error\\":\\"server busy, please try again. maximum pending requests exceeded\\"}',
                   '\\"error\\":\\"unexpected server status: llm busy - no slots available\\"}'],
        'load': 'Yesterday, I conducted a test where I spun up 30 concurrent goroutines and sent them as POST requests to Ollama locally.',
        'maintainer': 'Dup of #4124',
        'fix_pr': 'Bump the maximum queued requests to 512 (from 10)',
    },
    log=['server busy, please try again. maximum pending requests exceeded',
         'unexpected server status: llm busy - no slots available'],
    notes="log lines are the error strings without the JSON quoting the reporter pasted; concurrency (30) has no vocabulary name; rejected requests, so 'other'",
    leak='The duplicate link and the fix PR (queue raised from 10 to 512) are left out; only the two server errors go in.',
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/57771', thread_type='issue',
    engine='vLLM (V1)', engine_version='main (0.29.1rc1.dev)', gpu='8×H20', model='DeepSeek-V4.1-Flash',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('A stale --cpu-offload-gb 35 carried over from a 4-GPU setup kept weights offloaded to host memory on an '
                '8-GPU box where all weights fit in VRAM, adding a PCIe transfer every decode step and cutting '
                'throughput about 19x.'),
    fix='Drop --cpu-offload-gb when the weights fit in GPU memory.',
    confidence='confirmed_by_reporter',
    evidence={
        'flag': 'a stale default of `--cpu-offload-gb 35` (left over from a 4-card setup where weights did NOT fit)',
        'numbers': 'dropped throughput from **2434 to 120 tok/s (~19x)** at conc64',
        'setup': 'Repro: 8×H20 (141 GB each), TP8, vLLM main (0.29.1rc1.dev), MXFP4 weights; conc64/mt=256 benchmark, unique markers, 0 errors.',
    },
    engine_args='--cpu-offload-gb 35',
    observe={'output_tokens_per_s': (120, '2434 to 120 tok/s')},
    notes='the 2434 tok/s figure is the rate after removing the flag, so it is not passed as the expected rate',
    leak="The reporter's explanation (weights fit in VRAM; per-step PCIe transfer) and the after-fix throughput are left out.",
    hard=None))

# ------------------------------- numeric_parameter -------------------------------------------
I.append(dict(
    src='https://github.com/ollama/ollama/issues/17614', thread_type='issue',
    engine='Ollama (llama.cpp runner)', engine_version=None, gpu=None, model='MiniCPM-1B',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The server ran with OLLAMA_KV_CACHE_TYPE=q4_0; 4-bit KV-cache quantization degraded these small '
                "models' attention until they emitted degenerate 'AI AI AI' text, while q8_0/f16 KV caches were fine."),
    fix='Use OLLAMA_KV_CACHE_TYPE=q8_0 (or f16) for these models.',
    confidence='confirmed_by_reporter',
    evidence={
        'sample': 'AI AI AI AI: IIA AI AI A AI AIAI A AIAI AI AIA AI AI AI AI AI|\'AI \\"https\\"|</AIIntegersNumbersAI AI AI, AI A AI AI AI AI AI AI AI A AI AI AI AI AI AI AI AI AI AI AI AI AI AI AI AIAI AI AI AI AI AI AI AI AI AI AI AI AI AI AI\\n',
        'switch': 'When I switched ollama server from q8_0 to q4_0 kv quantization, one of my models started emitting strange responses such as',
        'models': "This happened with the 'VibeThinker' and 'MiniCPM-1B' models",
        'config': 'The "AI AI AI" is caused by OLLAMA_KV_CACHE_TYPE=q4_0 (confirmed live in your llama-server processes via --cache-type-k q4_0 --cache-type-v q4_0).',
    },
    outputs=['AI AI AI AI: IIA AI AI A AI AIAI A AIAI AI AIA AI AI AI AI AI|\'AI \\"https\\"|</AIIntegersNumbersAI AI AI, AI A AI AI AI AI AI AI AI A AI AI AI AI AI AI AI AI AI AI AI AI AI AI AI AIAI AI AI AI AI AI AI AI AI AI AI AI AI AI AI'],
    engine_args='OLLAMA_KV_CACHE_TYPE=q4_0',
    notes='output sample kept as printed (with its escaped quotes, trailing \\n dropped); two models affected, MiniCPM-1B named',
    leak="The reporter's note that it began after switching from q8_0 to q4_0 and the KV-type comparison are left out; only the current KV setting and a sample go in.",
    hard=None))

I.append(dict(
    src='https://github.com/defilantech/LLMKube/issues/126', thread_type='issue',
    engine='llama.cpp llama-server (deployed by LLMKube)', engine_version=None, gpu=None, model='Qwen 3 32B',
    symptom='other', layer='numeric_parameter',
    root_cause=('The container args LLMKube generated for llama-server lacked --jinja, so the OpenAI-compatible endpoint '
                'rejected every tool/function-calling request.'),
    fix='Add --jinja to the generated server args (PR #162).',
    confidence='confirmed_by_reporter',
    evidence={
        'error': '500 tools param requires --jinja flag',
        'context': 'Discovered while building a Minecraft bot that uses Qwen 3 32B with function calling for tool selection.',
        'summary': 'Currently, LLMKube does not include this flag in the generated container args, causing tool calls to fail with:',
    },
    log=[('error', None)],
    notes="HTTP 500 on tool calls, no symptom class fits, so 'other'",
    leak="The issue's summary (flag missing from generated args) and the proposed fix are left out; only the server error goes in.",
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/14894', thread_type='issue',
    engine='llama.cpp llama-server', engine_version='5998 (446595b9)', gpu=None,
    model='ggml-org_Qwen3-1.7B-GGUF_Qwen3-1.7B-Q4_K_M.gguf', symptom='output_quality', layer='numeric_parameter',
    root_cause=("With --jinja, llama-server's default reasoning format moves Qwen3's <think> block out of the message "
                'content, so the WebUI showed no thinking trace; --reasoning-format none keeps it in the content.'),
    fix='Add --reasoning-format none.',
    confidence='maintainer_explained',
    evidence={
        'command': '/llama-server -ngl 99 llama.cpp/ggml-org_Qwen3-1.7B-GGUF_Qwen3-1.7B-Q4_K_M.gguf --jinja',
        'symptom': 'llama-server --jinja will omit the thinking tags and content within them',
        'maintainer': "If you mean that you don't see the thinking trace in the WebUI, you also have to add `--reasoning-format none`.",
    },
    engine_args='/llama-server -ngl 99 llama.cpp/ggml-org_Qwen3-1.7B-GGUF_Qwen3-1.7B-Q4_K_M.gguf --jinja',
    notes='no log or response sample in the thread; the command line is the only input',
    leak="The maintainer's --reasoning-format none answer is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/r-spade/ormah/issues/12', thread_type='issue',
    engine='Ollama (via ormah ollama_adapter)', engine_version='ormah 0.9.10', gpu=None, model='gemma3:4b',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=("ormah's Ollama adapter called /api/generate without num_predict, so Ollama's low default output cap "
                'cut the JSON response mid-stream and json.loads failed.'),
    fix='Send options.num_predict (e.g. 4096), ideally configurable.',
    confidence='confirmed_by_reporter',
    evidence={
        'log': ["WARNING: LLM extraction failed: Expecting ',' delimiter: line 1 column 1290 (char 1289)",
                "WARNING: Hippocampus ingestion failed for <file>: LLM extraction failed. Pass pre-extracted memories via the 'memories' parameter instead."],
        'root_cause': '`ollama_adapter.py` sends the `/api/generate` request without specifying `num_predict` in the `options` dict.',
        'model': 'This is especially noticeable with small models like `gemma3:4b` on longer documents (newsletters, notes, etc.).',
    },
    log=[('log', 0), ('log', 1)],
    notes='client-side warnings; no engine flags',
    leak="The issue's root-cause section (missing num_predict, 128-token default) and fix are left out; only the two warnings go in.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/55486', thread_type='issue',
    engine='vLLM (V1)', engine_version='0.28.0', gpu='8× NVIDIA B200', model='DeepSeek V4',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('vLLM 0.28.0 made the V2 model runner the default for DeepseekV4ForCausalLM, and that runner is broken '
                'for this TP8+EP, fp8-KV, FULL_AND_PIECEWISE configuration, so every request returned only '
                '<|begin_of_sentence|> tokens; VLLM_USE_V2_MODEL_RUNNER=0 restores correct output.'),
    fix='Set VLLM_USE_V2_MODEL_RUNNER=0 (or stay on 0.27.1).',
    confidence='confirmed_by_reporter',
    evidence={
        'args': '--tensor-parallel-size 8 --enable-expert-parallel --kv-cache-dtype fp8 --block-size 256 --max-model-len 262144 --compilation-config \'{"pass_config":{"fuse_allreduce_rms":false,"fuse_norm_quant":false,"fuse_act_quant":false},"cudagraph_mode":"FULL_AND_PIECEWISE"}\' --disable-custom-all-reduce',
        'symptom': 'every request to our DeepSeek V4 deployment returns only repeated `<|begin_of_sentence|>` tokens (empty content with `skip_special_tokens=True`)',
        'fix': 'Setting `VLLM_USE_V2_MODEL_RUNNER=0` on 0.28.0 fully restores correct generation',
        'gpu': 'GPU: 8× NVIDIA B200, driver 595.71, CUDA 13',
    },
    engine_args='--tensor-parallel-size 8 --enable-expert-parallel --kv-cache-dtype fp8 --block-size 256 --max-model-len 262144 --compilation-config \'{"pass_config":{"fuse_allreduce_rms":false,"fuse_norm_quant":false,"fuse_act_quant":false},"cudagraph_mode":"FULL_AND_PIECEWISE"}\' --disable-custom-all-reduce',
    notes='no printed response sample (the thread describes BOS-only output in prose), so no outputs.txt',
    leak='The upgrade from 0.27.1, the V2-runner default and the env-var fix are left out; only the flags go in.',
    hard='The decisive clue (the 0.28.0 upgrade and its new default model runner) is not in the inputs; the flags are identical to the working 0.27.1 setup.'))

I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/903', thread_type='issue',
    engine='llama-cpp-python server', engine_version=None, gpu=None, model='llama-2-13b-chat.Q4_0.gguf',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The requests set no max_tokens, and the llama-cpp-python completion endpoint defaults max_tokens to 16 '
                '(the OpenAI completions default), so every answer stopped after 16 tokens.'),
    fix='Send max_tokens in the request.',
    confidence='maintainer_explained',
    evidence={
        'command': 'python3 -m llama_cpp.server --model $MODEL  --n_gpu_layers 1 --host [0.0.0.0](https://0.0.0.0/) --port 8000 --n_ctx=2048 --n_ctx=2048',
        'response': '{  "text": "Once upon a time, in a far-off land, there was a mag",',
        'usage': '"completion_tokens": 16,',
        'maintainer': '@tk-master this is to match the openai api defaults, but yes max_tokens will increase this and there\'s no default limit on the chat completion endpoint',
    },
    outputs=['Once upon a time, in a far-off land, there was a mag'],
    engine_args='python3 -m llama_cpp.server --model $MODEL  --n_gpu_layers 1 --host [0.0.0.0](https://0.0.0.0/) --port 8000 --n_ctx=2048 --n_ctx=2048',
    observe={'output_len_mean': (16, '"completion_tokens": 16')},
    notes='the command is as pasted (with a markdown link in the host); output_len_mean from the response usage block',
    leak="The maintainer's explanation of the 16-token default is left out; the launch command, a truncated response and its token count go in.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/15241', thread_type='issue',
    engine='vLLM (OpenAI server)', engine_version='0.8.0 / 0.8.1', gpu=None, model='Qwen/Qwen2.5-VL-7B-Instruct',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=("From 0.8.0 vLLM applies the model's generation_config.json as its default sampling parameters; "
                "Qwen2.5-VL's sets top_k=1 and top_p=0.001, so sampling became effectively greedy whatever temperature "
                'the request asked for.'),
    fix='Start the server with --generation-config vllm (or pass top_k/top_p explicitly).',
    confidence='maintainer_explained',
    evidence={
        'command': 'python3 -m vllm.entrypoints.openai.api_server   --model Qwen/Qwen2.5-VL-7B-Instruct   --trust-remote-code   --max-model-len 32768 --tensor-parallel-size 2 --gpu-memory-utilization 0.95',
        'symptom': 'Using the docker image 0.8.0 or 0.8.1, no matter the temperature, it always answers something like "It seems like you\'ve entered a string of characters that doesn\'t appear to be a meaningful word, phrase, or question."',
        'maintainer_pr_15281': '#12622 introduced a change to apply `generation_config`, therefore can sometimes silently override default sampling parameters and cause user confusion. See #15241 as an example.',
        'maintainer_pr_log': "INFO 03-21 08:44:05 [serving_chat.py:115] Using default chat sampling params from model: {'repetition_penalty': 1.05, 'temperature': 0.1, 'top_k': 1, 'top_p': 0.001}",
    },
    engine_args='python3 -m vllm.entrypoints.openai.api_server   --model Qwen/Qwen2.5-VL-7B-Instruct   --trust-remote-code   --max-model-len 32768 --tensor-parallel-size 2 --gpu-memory-utilization 0.95',
    notes='explanation is in the maintainer PR that cites this issue (vllm-project/vllm#15281); the response sample is prose-quoted, so no outputs.txt',
    leak="The version comparison (0.7.3 works, 0.8.x does not) and the linked PR's sampling-params log are left out; only the launch command goes in.",
    hard='Only the launch command is given; the version change that began applying generation_config defaults is not in the inputs.'))

I.append(dict(
    src='https://github.com/ml-explore/mlx-lm/issues/106', thread_type='issue',
    engine='mlx-lm (MLX, Apple silicon)', engine_version='mlx 0.25.0 / mlx-lm 0.23.0', gpu=None,
    model='mlx-community/GLM-Z1-32B-0414-4bit', symptom='output_quality', layer='numeric_parameter',
    root_cause=('The 4-bit MLX conversion was made in float16, in which this GLM-4/Z1 model overflows, so generation '
                "degenerated into repeated '!'; requantizing from bfloat16 fixed it."),
    fix='Use the model re-quantized from bf16 with the latest mlx-lm.',
    confidence='maintainer_explained',
    evidence={
        'output': '!' * 100,
        'load': 'model, tokenizer = load("mlx-community/GLM-Z1-32B-0414-4bit")',
        'maintainer': 'This looks like fp16 overflow. We should requantize the model in bf16 to get it to work.',
    },
    outputs=['!' * 100],
    notes='output sample (and its evidence copy) is a 100-character run taken from the printed line of exclamation marks',
    leak="The maintainer's fp16-overflow diagnosis is left out; the model name and the output go in.",
    hard=None))

# ------------------------------- operator_hardware -------------------------------------------
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/6689', thread_type='issue',
    engine='vLLM (multiproc workers)', engine_version=None, gpu=None, model='fp8 llama3.1 405b',
    symptom='other', layer='operator_hardware',
    root_cause=("The container's /dev/shm was too small for NCCL's shared-memory transport between the tensor-parallel "
                'workers, so NCCL failed to create its segment and the workers died at start-up.'),
    fix='Give the container a larger shared memory (docker --shm-size, or --ipc=host).',
    confidence='maintainer_explained',
    evidence={
        'log': ['torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5',
                '[rank0]: ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
                '[rank0]: Last error:',
                '[rank0]: Error while creating shared memory segment /dev/shm/nccl-eQz2sT (size 5767520)',
                'ERROR 07-23 22:46:18 multiproc_worker_utils.py:120] Worker VllmWorkerProcess pid 82 died, exit code: -15'],
        'context': 'Hi team,I am trying deploy fp8 llama3.1 405b model and running into below issue',
        'maintainer': "you don't give enough size for the shared memory. if you are using docker, please see https://docs.vllm.ai/en/latest/serving/deploying_with_docker.html for how to adjust shm size.",
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4)],
    notes="incident is commenter nani1149's in the Llama 3.1 FAQ thread; start-up crash, so 'other'",
    leak="youkaichao's shm-size answer is left out; only the NCCL/worker error lines go in.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/15918', thread_type='issue',
    engine='Ollama', engine_version='0.20.6', gpu='Nvidia', model='qwen3.5:9b',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('After an NVIDIA driver update without a reboot the loaded kernel module no longer matched the new '
                "user-space driver, CUDA initialisation failed ('forward compatibility was attempted on non supported "
                "HW') and Ollama silently ran the whole model on the CPU."),
    fix='Reboot so the kernel module matches the updated driver (Ollama should warn on CPU fallback).',
    confidence='plausible',
    evidence={
        'log': ['ggml_cuda_init: failed to initialize CUDA: forward compatibility was attempted on non supported HW',
                'time=... source=ggml.go:494 msg="offloaded 0/33 layers to GPU"',
                'time=... source=device.go:245 msg="model weights" device=CPU size="6.1 GiB"'],
        'context': 'The model (qwen3.5:9b, Q4_K_M, 6.1 GiB) loaded entirely on CPU, consuming 766% CPU and 16 GB RAM for ~38 minutes, causing the system to reach 101°C, while the API kept returning 500 errors after 60s timeouts.',
        'driver': 'nvidia-smi itself fails with "Driver/library version mismatch" — kernel module still loaded from previous driver version, reboot pending.',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    notes='CPU load and temperature are CPU-side (no vocabulary name); the 60 s API timeouts come from the client tool',
    leak="The reporter's driver-update / reboot-pending explanation is left out; only Ollama's log lines go in.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/9683', thread_type='issue',
    engine='Ollama (Windows)', engine_version=None, gpu='RTX 4090', model='gemma3:4b',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('With flash attention on and a q8_0 KV cache, there was no CUDA flash-attention kernel for Gemma 3\'s '
                'configuration, so attention ran on the CPU and bounced between GPU and CPU, making a 4B model slow on a 4090.'),
    fix='Fixed in a later Ollama release (kernel compiled for those inputs); meanwhile disable KV-cache quantization.',
    confidence='maintainer_explained',
    evidence={
        'command': 'set OLLAMA_FLASH_ATTENTION=1 && set OLLAMA_KV_CACHE_TYPE=q8_0 && ollama serve',
        'stats': ['total duration:       4.7324228s',
                  'prompt eval count:    36 token(s)',
                  'prompt eval rate:     92.07 tokens/s',
                  'eval count:           70 token(s)',
                  'eval duration:        4.297s',
                  'eval rate:            16.29 tokens/s'],
        'context': 'Which is obviously very slow for a 4090, I can run 14b Q8 at 40+ tk/s',
        'maintainer': 'I can confirm that this is caused by the fact that flash attention is being executed on the CPU for some models and cache quantizations, causing us to bounce back and forth between GPU and CPU.',
    },
    log=[('stats', 0), ('stats', 1), ('stats', 2), ('stats', 3), ('stats', 4), ('stats', 5)],
    engine_args='set OLLAMA_FLASH_ATTENTION=1 && set OLLAMA_KV_CACHE_TYPE=q8_0 && ollama serve',
    observe={'output_tokens_per_s': (16.29, 'eval rate:            16.29 tokens/s')},
    notes='the 40+ tok/s for a different (14b) model is not used as an expected rate',
    leak="jessegross's CPU flash-attention explanation is left out; the launch env, the --verbose stats and the rate go in.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/10814', thread_type='issue',
    engine='Ollama (CPU, SLURM job)', engine_version=None, gpu=None, model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The Ollama runner was started with 64 threads (the host core count) while the SLURM job was limited to '
                '24 cores, so the oversubscribed threads thrashed and CPU inference crawled.'),
    fix='Set num_thread to the allocated core count (API option or Modelfile).',
    confidence='maintainer_explained',
    evidence={
        'log': ['time=2025-05-22T15:00:07.111+02:00 level=INFO source=server.go:431 msg="starting llama server"',
                ' cmd="/home/me/local/ollama/bin/ollama runner --model /home/me/.ollama/models/blobs/sha256-828125e28bf46a219fa4f75b6982cb0c41fd9187467abe91c9b175287945b7ef',
                ' --ctx-size 8192 --batch-size 512 --threads 64 --no-mmap --parallel 2 --port 35741"'],
        'maintainer': 'The runner is being started with 64 threads, but the SLURM job is limited to 24 cores.  Try setting `num_thread` in the API call or Modelfile to a lower value.',
        'reporter': 'Ah ok I wondered if it was something like that.',
    },
    log=['time=2025-05-22T15:00:07.111+02:00 level=INFO source=server.go:431 msg="starting llama server"',
         'cmd="/home/me/local/ollama/bin/ollama runner --model /home/me/.ollama/models/blobs/sha256-828125e28bf46a219fa4f75b6982cb0c41fd9187467abe91c9b175287945b7ef',
         '--ctx-size 8192 --batch-size 512 --threads 64 --no-mmap --parallel 2 --port 35741"'],
    notes="log lines are the reporter's server log as quoted (line-wrapped) in the maintainer reply",
    leak="rick-github's explanation (64 threads vs a 24-core SLURM allocation) is left out; only the runner start lines go in.",
    hard='The 24-core cgroup limit is not in the inputs; only --threads 64 is visible.'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/398', thread_type='issue',
    engine='TGI (docker)', engine_version=None, gpu='Tesla V100', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=("The V100 (compute capability 7.0) is not supported by TGI's flash-attention kernels, so TGI fell back to "
                'the slower, padded non-flash model implementations.'),
    fix='Use an Ampere-or-newer GPU for flash-attention models (or accept the slower path).',
    confidence='maintainer_explained',
    evidence={
        'warning': 'GPU with CUDA is capability 7 0 is not supported',
        'reporter': 'Sorry, My GPU is Tesla V100. Is it too old? And my cuda is 12.0',
        'maintainer': 'YEs V100 are not supported by flash attention. TGI will default back to non flash versions, which are slower.',
    },
    log=[('warning', None)],
    notes="start-up warning with no stated symptom, so 'other'",
    leak="Narsil's answer is left out; the warning line and the GPU go in.",
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/3934', thread_type='issue',
    engine='LMDeploy (TurboMind)', engine_version=None, gpu='Tesla V100-SXM2-16GB', model='unsloth/gpt-oss-20b',
    symptom='other', layer='operator_hardware',
    root_cause=('TurboMind had no fused-MoE kernel for MXFP4 (e2m1) weights on sm_70 in this release, so loading '
                'gpt-oss-20b on V100s aborted.'),
    fix='Use a GPU/back-end with MXFP4 MoE support (or a later release adding sm_70 support).',
    confidence='plausible',
    evidence={
        'log': ['2025-09-04 18:37:49,126 - lmdeploy - WARNING - turbomind.py:280 - get 14165 model params',
                'not implemented: dtype=e2m1, is_fused_moe=1, sm=70',
                'not implemented: dtype=e2m1Aborted'],
        'command': 'lmdeploy serve api_server --log-level INFO --tp 2 --model-name gpt-oss-20b /gpt-oss-20b',
        'env': 'GPU 0,1: Tesla V100-SXM2-16GB',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='lmdeploy serve api_server --log-level INFO --tp 2 --model-name gpt-oss-20b /gpt-oss-20b',
    notes="start-up abort, so 'other'; the trailing padding spaces of the log line are dropped",
    leak='No answer in the thread beyond the error itself; nothing needed to be removed.',
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/3974', thread_type='issue',
    engine='vLLM (via LangChain VLLM wrapper)', engine_version=None, gpu=None, model='mixtral-8x7B-instruct-v0.1',
    symptom='other', layer='operator_hardware',
    root_cause=('GPU peer-to-peer transfers used by NCCL did not work on this multi-GPU host, so tensor-parallel (TP=4) '
                'initialisation hung; disabling P2P (NCCL_P2P_DISABLE=1) let the model load.'),
    fix='export NCCL_P2P_DISABLE=1 (workaround, costs performance) and fix the host P2P setup.',
    confidence='confirmed_by_reporter',
    evidence={
        'call': 'llm = VLLM(model="./mixtral-8x7B-instruct-v0.1/snapshots/1e637f2d7cb0a9d6fb1922f305cb784995190a83", tensor_parallel_size=4, trust_remote_code=True, enforce_eager=True)',
        'title': 'LLM is not getting loaded on multiple GPUs but works fine on a single GPU',
        'workaround': 'I set the env variable as `export NCCL_P2P_DISABLE=1`',
        'commenter': 'Disabling P2P will hurt performance, so I\'d like to continue pursuing',
    },
    engine_args='tensor_parallel_size=4, trust_remote_code=True, enforce_eager=True',
    notes="engine_args are the constructor arguments from the reporter's call; hang at load, so 'other'",
    leak='The NCCL_P2P_DISABLE workaround and the NCCL version discussion are left out; only the TP=4 arguments and model go in.',
    hard='Only the TP=4 arguments are given; no log shows where start-up hangs.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/29157', thread_type='issue',
    engine='SGLang', engine_version='0.5.14', gpu='8x H20', model='GLM-5.1-FP8',
    symptom='output_quality', layer='operator_hardware',
    root_cause=("Under CUDA-graph replay, SGLang's fa3 decode attention backend corrupted concurrent multi-LoRA decoding "
                "on GLM-5.1-FP8 (outputs collapse to '!'); the flashmla decode backends, or disabling CUDA graphs, are clean."),
    fix='Use a flashmla decode backend (or --disable-cuda-graph) for multi-LoRA serving.',
    confidence='confirmed_by_reporter',
    evidence={
        'command': 'python3 -m sglang.launch_server \\\n  --model-path /path/to/GLM-5.1-FP8 \\\n  --served-model-name zai-org/glm-5.1 \\\n  --host 0.0.0.0 \\\n  --port 30000 \\\n  --tp 8 \\\n  --reasoning-parser glm45 \\\n  --tool-call-parser glm47 \\\n  --mem-fraction-static 0.93 \\\n  --enable-metrics \\\n  --enable-mfu-metrics \\',
        'summary': 'Under concurrent decode, most requests collapse into repeated `!` tokens, while disabling CUDA graph makes the same workload clean.',
        'finding': 'The garbling seems to depend only on the **decode backend**, not the prefill backend.',
        'setup': '- SGLang: `0.5.14`\n- Model: `GLM-5.1-FP8`\n- CUDA graph: ON\n- Hardware: `8x H20`',
    },
    engine_args='python3 -m sglang.launch_server \\\n  --model-path /path/to/GLM-5.1-FP8 \\\n  --served-model-name zai-org/glm-5.1 \\\n  --host 0.0.0.0 \\\n  --port 30000 \\\n  --tp 8 \\\n  --reasoning-parser glm45 \\\n  --tool-call-parser glm47 \\\n  --mem-fraction-static 0.93 \\\n  --enable-metrics \\\n  --enable-mfu-metrics \\',
    notes='launch command cut where the excerpt ends (the LoRA and backend flags that follow are not visible); the garbled output is described in prose, so no outputs.txt',
    leak="The CUDA-graph A/B and the reporter's backend grid search are left out; only the visible part of the launch command goes in.",
    hard='The LoRA adapters and the decode attention backend are not visible in the truncated launch command.'))

# ------------------------------- gateway_client ----------------------------------------------
I.append(dict(
    src='https://github.com/misospace/pr-reviewer-action/issues/23', thread_type='issue',
    engine='pr-reviewer-action -> Cloudflare Tunnel -> self-hosted LiteLLM/Ollama/llama.cpp', engine_version='v1.0.15',
    gpu=None, model=None, symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("The action sent non-streaming completions through Cloudflare, whose ~100 s edge proxy read timeout cut "
                'every slow self-hosted completion with HTTP 524, exhausting all retries; streaming keeps the connection alive.'),
    fix='Send "stream": true (or bypass Cloudflare for the model endpoint).',
    confidence='confirmed_by_reporter',
    evidence={
        'log': ['Primary model attempt 1/8: <model> @ <url> (openai)',
                'curl: (22) The requested URL returned error: 524',
                'Primary model attempt 1 failed; waiting 15s'],
        'numbers': 'Example from a real run: 8/8 primary attempts returned 524, each after ~125s.',
        'cause': "Cloudflare's edge `proxy_read_timeout` is 100s on Free/Pro/Business plans and cannot be raised.",
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    observe={'e2e_p99_s': (125, 'each after ~125s')},
    notes='the retry count (8/8) is in prose; e2e from the per-attempt duration',
    leak="The Cloudflare 100 s limit and the streaming explanation are left out; the action's log lines and the ~125 s attempt time go in.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/aibrix/issues/1176', thread_type='issue',
    engine='AIBrix gateway (Envoy Gateway) in front of vLLM', engine_version=None, gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("AIBrix's Envoy gateway had a hard-coded 120 s timeout (its EnvoyPatchPolicy and each model's HTTPRoute), "
                'so long non-streaming inference requests were cut at two minutes.'),
    fix='Raise the timeout in the EnvoyPatchPolicy and the model HTTPRoute (or stream).',
    confidence='maintainer_explained',
    evidence={
        'symptom': "I'm observing the APIs get a timeout after 2 minutes.",
        'maintainer': 'Right now, 120s or 2min is configured timeout period.',
    },
    observe={'e2e_p99_s': (120, 'timeout after 2 minutes')},
    notes='only the timeout duration is stated',
    leak="The maintainer's 120 s configuration answer and where to change it are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/Mintplex-Labs/anything-llm/issues/1722', thread_type='issue',
    engine='AnythingLLM (docker swarm) behind haproxy, Ollama backend', engine_version=None, gpu="2x GTX1660's",
    model=None, symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The haproxy doing SSL offload in front of the swarm timed out slow chat API calls with a 504 before the '
                'Ollama-backed AnythingLLM answered.'),
    fix="Raise haproxy's server/client timeouts for the API route.",
    confidence='confirmed_by_reporter',
    evidence={
        'response': ['<html><body><h1>504 Gateway Time-out</h1>', "The server didn't respond in time.", '</body></html>'],
        'rate': 'about 60% of the time.',
        'ui': 'Through the anythingllm interface I always get a response though it can take up to 45 seconds to respond.',
        'hardware': "Im using Ollama on a seperate server that has 8 cores/16 threads, 32g of ram and 2x GTX1660's.",
        'resolution': 'I had completely forgotten that I have haproxy offloading SSL. You were correct, that was the problem.',
    },
    log=[('response', 0), ('response', 1), ('response', 2)],
    observe={'error_rate': (0.6, 'about 60% of the time.'), 'e2e_p99_s': (45, 'it can take up to 45 seconds to respond')},
    notes='the 504 body is what the client received; e2e is the UI path latency the reporter gave',
    leak="The maintainer's pointer to the proxy layer and the reporter's haproxy finding are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/sigoden/aichat/issues/548', thread_type='issue',
    engine='aichat client -> nginx -> Ollama', engine_version='aichat main (May 2024)', gpu=None,
    model='agnosis:llama3:instruct', symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("aichat's Ollama streaming parser assumed each received chunk held whole JSON lines; through the nginx "
                "reverse proxy chunks arrived split across lines, so deserialisation failed ('trailing characters') and "
                'the stream broke.'),
    fix='Buffer the stream and parse complete lines (fixed in aichat PR #549).',
    confidence='confirmed_by_reporter',
    evidence={
        'error': ['Failed to get answer', 'Caused by:', '    trailing characters at line 2 column 1'],
        'nginx': '    location /api/ {\n        proxy_http_version 1.1;\n        proxy_buffering off;\n        proxy_set_header Origin \'\';\n        proxy_set_header Referer \'\';\n        proxy_pass http://localhost:11434/api/;\n    }',
        'description': 'If ollama is run through a reverse proxy, e.g. nginx, the code that handles the streaming response can sometimes fail to parse the JSON response due to the entirety of the JSON line not being available yet.',
        'config': 'model               agnosis:llama3:instruct',
    },
    log=['Failed to get answer', 'Caused by:', 'trailing characters at line 2 column 1'],
    engine_args='    location /api/ {\n        proxy_http_version 1.1;\n        proxy_buffering off;\n        proxy_set_header Origin \'\';\n        proxy_set_header Referer \'\';\n        proxy_pass http://localhost:11434/api/;\n    }',
    notes='engine_args is the nginx location block the reporter gave (the proxy configuration in the path)',
    leak="The reporter's explanation (partial JSON lines across chunks) is left out; the client error and the proxy config go in.",
    hard=None))

I.append(dict(
    src='https://github.com/oobabooga/textgen/issues/4990', thread_type='issue',
    engine='text-generation-webui (Gradio UI over the network)', engine_version=None, gpu='A100 80GB', model=None,
    symptom='tpot_high', layer='gateway_client',
    root_cause=('The web UI pushed an update to the browser for every generated token; accessed over the network, the '
                'front-end streaming became the bottleneck and kept streaming ~20 s after generation had finished.'),
    fix='Throttle UI updates over the network (5/s with --listen/--share, PR #4814).',
    confidence='maintainer_explained',
    evidence={
        'console': 'Output generated in 66.65 seconds (29.99 tokens/s, 1999 tokens, context 2, seed 362849434)',
        'symptom': 'but the frontend continues streaming in text for another 20 seconds or so, even though generation has finished long ago.',
        'system': '* Ubuntu A100 80GB remote',
        'maintainer': 'While accessing the web ui on localhost, streaming is instantaneous, but when accessed from another computer in the local network, it becomes laggy.',
    },
    log=[('console', None)],
    observe={'output_tokens_per_s': (29.99, '29.99 tokens/s')},
    notes='the server-side rate is healthy; the lag is only on the client side',
    leak="oobabooga's localhost-vs-network finding and the throttling workaround are left out; the console line goes in.",
    hard='The server log shows a normal 30 tok/s; the client-side lag is only in the prose.'))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/pull/14888', thread_type='pr',
    engine='Triton + TensorRT-LLM (LLM API backend)', engine_version='main, June 2026', gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('The Triton model was deployed in decoupled (streaming) mode, but the benchmark client called the unary '
                'ModelInfer RPC (client.infer) instead of the streaming RPC, which Triton rejects for decoupled models.'),
    fix='Run the client with --decoupled so it uses async_stream_infer.',
    confidence='maintainer_explained',
    evidence={
        'error': ['tritonclient.utils.InferenceServerException: [StatusCode.UNIMPLEMENTED]',
                  "ModelInfer RPC doesn't support models with decoupled transaction policy"],
        'root_cause': 'Without it, the benchmark uses `client.infer()` (unary ModelInfer RPC) which Triton rejects on decoupled models.',
    },
    log=[('error', 0), ('error', 1)],
    notes="client-side exception; no symptom class fits, so 'other'",
    leak="The PR's root-cause section (missing --decoupled flag in the client) is left out; only the client exception goes in.",
    hard=None))

I.append(dict(
    src='https://github.com/BerriAI/litellm/issues/7518', thread_type='issue',
    engine='LiteLLM proxy (behind a load balancer)', engine_version='v1.56.6', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=("A load balancer in front of the LiteLLM proxy had a 60 s timeout, so long requests got HTTP 504 at 60 s "
                "regardless of LiteLLM's 900 s request_timeout."),
    fix='Raise the load balancer idle/request timeout.',
    confidence='plausible',
    evidence={
        'config': 'litellm_settings: \n  request_timeout: 900\n  \nrouter_settings:\n  timeout: 900',
        'symptom': 'But getting a HTTP 504 error after 60s. There is no log on the Litellm side.',
        'commenter': 'i had the same issue, turns out it was the load balancer timeout, nothing to do with litellm',
    },
    engine_args='litellm_settings: \n  request_timeout: 900\n  \nrouter_settings:\n  timeout: 900',
    observe={'e2e_p99_s': (60, 'HTTP 504 error after 60s')},
    notes='engine_args is the LiteLLM config the reporter gave; the cause comes from another user hitting the same 60 s 504',
    leak="The commenter's load-balancer finding is left out.",
    hard=None))

# ------------------------------- load --------------------------------------------------------
I.append(dict(
    src='https://github.com/gonka-ai/gonka/pull/1171', thread_type='pr',
    engine='vLLM (V1)', engine_version='0.20.0', gpu='4×B300', model='Kimi-K2.6',
    symptom='runtime_oom_or_preemption', layer='load',
    root_cause=('Chat requests carrying prompt_logprobs on long (~6000+ token) prompts made vLLM all-gather '
                'prompt_length x vocab (163,840) logits across the TP ranks, memory not reserved at 0.95 utilization, '
                'so the worker ran out of memory and the engine died.'),
    fix='Strip prompt_logprobs from requests (this PR) or lower gpu-memory-utilization.',
    confidence='maintainer_explained',
    evidence={
        'traceback': ['gpu_model_runner.py:3471, in _bookkeeping_sync',
                      '    prompt_logprobs_dict = self._get_prompt_logprobs_dict(',
                      '    logits = tensor_model_parallel_all_gather(logits)',
                      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB.',
                      'GPU has total 178.35 GiB, 3.22 GiB free, 175.11 GiB in use.'],
        'problem': 'vLLM v1 (confirmed on **0.20.0**, on Kimi-K2.6 with TP=4 on both **4×B300** and **4×B200**) **OOMs and brings down the engine** when a chat completion request includes the `prompt_logprobs` parameter on a sufficiently long prompt (~6000 tokens or more for Kimi-K2.6).',
        'config': 'at typical production memory utilization (`--gpu-memory-utilization 0.95`)',
    },
    log=['logits = tensor_model_parallel_all_gather(logits)',
         'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB.',
         'GPU has total 178.35 GiB, 3.22 GiB free, 175.11 GiB in use.'],
    engine_args='--gpu-memory-utilization 0.95',
    observe={'input_len_mean': (6000, '~6000 tokens or more'), 'gpu_mem_used_gib': (175.11, '175.11 GiB in use')},
    notes='traceback frames naming prompt_logprobs are kept out; input length is the prompt size at which it fails',
    leak='The traceback frames that name prompt_logprobs and the PR description are left out; the OOM, the all-gather frame and the memory line go in.',
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/6148', thread_type='issue',
    engine='Ollama (CPU)', engine_version='v0.4.1', gpu=None, model='llama3.2:3b',
    symptom='ttft_spike', layer='load',
    root_cause=('The client called /api/embed without the num_ctx option it sent to /api/generate (32*1000), so Ollama '
                'unloaded and reloaded the model with a different context every time the two request types alternated.'),
    fix='Send the same num_ctx option on /api/embed as on /api/generate.',
    confidence='confirmed_by_reporter',
    evidence={
        'log': 'time=2025-01-02T21:18:32.366Z level=INFO source=memory.go:343 msg="offload to cpu" layers.requested=-1 layers.model=29 layers.offload=0 layers.split="" memory.available="[22.6 GiB]" memory.gpu_overhead="0 B" memory.required.full="22.7 GiB" memory.required.partial="0 B" memory.required.kv="13.7 GiB" memory.required.allocations="[22.4 GiB]" memory.weights.total="15.2 GiB" memory.weights.repeating="14.9 GiB" memory.weights.nonrepeating="308.2 MiB" memory.graph.full="6.1 GiB" memory.graph.partial="6.6 GiB"',
        'report': 'in my case i was seeing the log file for my ollama v0.4.1 unload and reload a lot. i am doing CPU only processing with llama3.2:3b.',
        'fix': 'my /api/embed did not set the options context value. so i changed my call to /api/embed with the options set to the same context size of 32*1000 as the /api/generate and now my log file shows that the model no longer unloads and reloads --> all fixed.',
    },
    log=[('log', None)],
    notes="incident is commenter trevorboydsmith's; the observed symptom is repeated model reloads (slow first tokens)",
    leak="The commenter's finding (embed calls without num_ctx) and fix are left out; only the offload log line goes in.",
    hard='The mismatch between the two request types\' options is not in the inputs; only one offload estimate line is.'))

I.append(dict(
    src='https://github.com/LostRuins/koboldcpp/issues/810', thread_type='issue',
    engine='koboldcpp (llama.cpp)', engine_version=None, gpu='Tesla V100-SXM2-16GB', model=None,
    symptom='tpot_high', layer='load',
    root_cause=('Requests carried a GBNF grammar (json.gbnf); grammar-constrained sampling is expensive per token and '
                'capped generation near 30 tok/s whatever the GPU.'),
    fix='Drop the grammar and validate/retry JSON client-side, or accept the cost.',
    confidence='maintainer_explained',
    evidence={
        'numbers': 'The token-per-second ratio decreases from 70 to 30 when using Tesla V100-SXM2-16GB (compared to plain text output).',
        'cross_gpu': 'Through testing, I noticed that an RTX3080 generates tokens at the same speed as an RTX3060 (both at 30 tokens per second).',
        'maintainer': 'Yes, that is expected. Grammar sampling is rather expensive to do.',
    },
    observe={'output_tokens_per_s': (30, 'decreases from 70 to 30'),
             'expected_output_tokens_per_s': (70, 'decreases from 70 to 30')},
    notes='expected rate is the same setup without the request feature (plain text output)',
    leak="The grammar parameter and LostRuins's answer are left out; only the rates and GPU go in.",
    hard='Nothing in the inputs says the requests use a grammar; only the slowdown against plain output is visible.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/24871', thread_type='issue',
    engine='llama.cpp llama-cli (CUDA)', engine_version='9746 (8a118ee86)', gpu=None, model='Qwen3.6-27B-Q4_K_M.gguf',
    symptom='tpot_high', layer='load',
    root_cause=('Enabling --repeat-penalty (or --presence-penalty) adds per-token penalty work in sampling that cost about '
                '18-20% of generation speed on this fully offloaded model.'),
    fix='Drop the penalty samplers when not needed (or wait for an optimised sampler).',
    confidence='plausible',
    evidence={
        'params': 'PARAMS="-ngl 99 -n 1024 -b 2048 -ub 2048 -fa on --reasoning off --jinja --top-k 20 --top-p 0.95 --min-p 0.0 --temp 0.6"',
        'penalty_cmd': 'CUDA_VISIBLE_DEVICES=5 $BIN -m $MODEL $PARAMS -p "$PROMPT" --repeat-penalty 1.5',
        'results': '33.1 tok/sec | 27.5 tok/sec | 27.3 tok/sec',
        'claim': 'When using either of `--presence-penalty` or `--repeat-penalty` options I notice a drop about 18-20% in text generation performance.',
    },
    engine_args='PARAMS="-ngl 99 -n 1024 -b 2048 -ub 2048 -fa on --reasoning off --jinja --top-k 20 --top-p 0.95 --min-p 0.0 --temp 0.6"\nCUDA_VISIBLE_DEVICES=5 $BIN -m $MODEL $PARAMS -p "$PROMPT" --repeat-penalty 1.5',
    observe={'output_tokens_per_s': (27.5, '27.5 tok/sec'), 'expected_output_tokens_per_s': (33.1, '33.1 tok/sec')},
    notes='engine_args are the two verbatim script lines of the penalised run; expected rate is the same run without penalties',
    leak="The reporter's statement attributing the drop to the penalty options is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/blazux/qwen3.8-Flash-DGX/issues/9', thread_type='issue',
    engine='vLLM (V1, MTP speculative decoding) on DGX Spark', engine_version=None, gpu=None, model=None,
    symptom='tpot_high', layer='load',
    root_cause=('Other clients sent cold ~72k-token prompts; with chunked prefill each 8,192-token chunk took ~3.5 s and '
                'every step carrying a prefill chunk gives each decoding request only one token, so the decoding '
                'client dropped to ~0.2 tok/s until those prefills finished (worse under memory pressure).'),
    fix='Expected behaviour of chunked prefill with long cold prompts; smaller chunks / fewer concurrent long prompts / more memory headroom.',
    confidence='maintainer_explained',
    evidence={
        'log': ['(APIServer pid=1) INFO 09-07 06:35:40 [loggers.py:310] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.9 tokens/s, Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 63.7%, Prefix cache hit rate: 85.1%',
                '(APIServer pid=1) INFO 09-07 06:35:50 [loggers.py:310] Engine 000: Avg prompt throughput: 7408.7 tokens/s, Avg generation throughput: 20.4 tokens/s, Running: 2 reqs, Waiting: 0 reqs, GPU KV cache usage: 64.0%, Prefix cache hit rate: 85.1%'],
        'title': 'requests from different clients slow down tokens/s from 30+ tokens/s down to 0.2 tokens/s and then back to 30+',
        'maintainer': "**Cause.** vLLM executes one step at a time, and with chunked prefill every step that contains a prefill chunk also carries exactly one token for each request that is decoding. On this model a chunk of 8,192 tokens (`--max-num-batched-tokens 8192`, the default) takes ~3.5 s of compute at ~2,400 tok/s, so a decoding client gets one token per 3.5+ s while any prefill is in flight.",
    },
    log=[('log', 0), ('log', 1)],
    observe={'output_tokens_per_s': (0.9, 'Avg generation throughput: 0.9 tokens/s'),
             'expected_output_tokens_per_s': (30, 'from 30+ tokens/s'),
             'running': (2, 'Running: 2 reqs'), 'waiting': (0, 'Waiting: 0 reqs'),
             'kv_usage': (0.637, 'GPU KV cache usage: 63.7%'),
             'prefix_cache_hit_rate': (0.851, 'Prefix cache hit rate: 85.1%')},
    notes='expected rate from the title (the usual single-client speed); percentages converted to fractions',
    leak="The repository owner's reproduction and chunked-prefill explanation are left out; only the engine metric lines go in.",
    hard='Sits between load (other clients\' long cold prompts) and scheduling (the chunk budget); the other clients\' prompt sizes are not in the inputs.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20260921, prefix='fresh')


if __name__ == '__main__':
    sys.exit(main())
