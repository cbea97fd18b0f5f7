#!/usr/bin/env python3
"""Build the eighth out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh6; this file follows incidents_fresh6/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks, list bullets and quote
markers dropped; a few long lines cut to a verbatim prefix/substring). Log lines and output
samples are taken from the evidence, so check.py can verify they are verbatim substrings of it.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh6/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/8655', thread_type='issue',
    engine='Ollama (Windows desktop)', engine_version='Jan 2025', gpu='NVIDIA RTX 3060 12GB', model='deepseek-r1:32b',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('deepseek-r1 32b needs about 20 GB, more than the RTX 3060\'s 12 GB, so Ollama loaded it only partially on the GPU and ran '
                'the rest on the CPU: GPU use stayed at 1-3% while the CPU sat at 70% and generation was slow.'),
    fix='Use a model that fits in VRAM (the 14b ran flawlessly) or a GPU with more memory.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'GPU process at 1-3% when running Deepseek R1 32b',
        'desc': ['im trying to run deepseek r1 32b locally. It runs but the GPU barely used.',
                 'when it processing a simple tasks like multipying numbers, i saw in task manager that the gpu barely used at 1-3%, while the cpu at 70%.',
                 'i have to add tho that both ram and vram is still used well and both almost full.'],
        'spec': ['GPU; RTX 3060 12gb', 'CPU: Ryzen 5 5600', 'RAM: 16GB'],
        'commenter': 'deepseek r1 32b needs 20G, if you run `ollama ps` you will see that the model is only partially loaded in GPU. 14b, 8b or 7b models should fit in your 12G VRAM. 14b might be a squeeze if you use a large context window.',
        'reporter': 'i tried the 14b model and it work flawlessly. I guess its simply because the 32b not loaded fully.',
        'maintainer': "Yes.  The problem is you don't have enough VRAM to run the 32b model.",
    },
    observe={'gpu_util': (0.03, 'the gpu barely used at 1-3%')},
    args_model='deepseek r1 32b',
    args_gpu='RTX 3060 12gb',
    notes='the GPU usage the reporter reads in Task Manager (1-3%) is passed as gpu_util at the upper end (percent -> fraction); model and GPU from the reporter\'s text; no log is quoted',
    leak="The commenter's size arithmetic (20 GB vs 12 GB, partial load), the reporter's 14b test and rick-github's confirmation are left out.",
    hard='Only GPU utilisation with the model and GPU names; the VRAM shortfall has to be inferred from a 32b model on a 12 GB card.'))

I.append(dict(
    src='https://github.com/LostRuins/koboldcpp/issues/800', thread_type='issue',
    engine='koboldcpp (CuBLAS build)', engine_version='b2710-era release (Apr 2024)', gpu=None, model='Llama 3 8B Instruct GGUF Q4_K_M (bartowski imatrix)',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('Too many layers were offloaded to the GPU for its memory, so generation crawled at about 113 s per token (prompt '
                'processing 110 s for ~450 tokens) and effectively never started.'),
    fix='Offload fewer GPU layers so the model and context fit in VRAM.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Lllama 3 8b instruct and impossible slow speeds for generating tokens.',
        'desc': "Any GGUF quantization I'm using for LLAMA 3 8b instruct is impossible for me to generate a prompt. The time for the model to process the prompt is slower than other models (110 seconds for roughly 450 tokens) but the time to generate tokens is 112813ms per token AKA way less than 0.01tokens per second. I've not received any error messages for RAM or anything else.",
        'stop': "Even stopping the generation takes longer than 2 or 3 minutes, it's no longer instant.",
        'build': "I'm currently using the latest released build of koboldcpp and using bartowski's imatrix gguf Q4KM made for koboldcpp b2710.",
        'maintainer_q': '2. What are the generation params? How many gpu offloaded layers?',
        'resolved': 'Hi, sorry about bothering you but this issue is now resolved. After some help from others I found out it was simply too many GPU layers being offloaded that caused the generation to just never start.',
    },
    observe={'tpot_p50_s': (112.813, '112813ms per token'),
             'ttft_p50_s': (110, '110 seconds for roughly 450 tokens'),
             'input_len_mean': (450, 'roughly 450 tokens')},
    args_model='Llama 3 8B Instruct Q4_K_M GGUF',
    notes=('the reporter\'s per-token time (112813 ms) is passed as tpot_p50_s, the 110 s prompt processing as ttft_p50_s and its ~450 tokens as '
           'input_len_mean (ms -> s); no console log, layer count or GPU is quoted'),
    leak="The reporter's resolution (too many GPU layers offloaded) and the maintainer's questions about offloaded layers are left out.",
    hard='Only the timings; no GPU, VRAM figure, offload line or layer count is in the inputs.'))

I.append(dict(
    src='https://github.com/xorbitsai/inference/issues/1976', thread_type='issue',
    engine='Xinference 0.13.3 with the sglang engine', engine_version='xinference 0.13.3 / sglang 0.1.22', gpu=None, model='llama-3-instruct',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('Xinference did not register sglang as a concurrent model engine, so its model actor served requests one at a time: at '
                'concurrency 10 the output throughput was 84.66 tok/s, versus 611.48 tok/s for bare sglang.'),
    fix='Let the sglang engine accept concurrent requests in Xinference (switched to the sglang runtime later).',
    confidence='maintainer_explained',
    evidence={
        'title': 'sglang 并行速度很慢',
        'version': 'sglang Version: 0.1.22',
        'launch': ['xinference launch \\', '--model-name "llama-3-instruct" \\', '--model-format pytorch \\', '--model-engine sglang'],
        'bench': '参数指定 `num-prompt` = 100，`concurrency` = 10，`request-rate` = 10',
        'xinf': 'xinference + sglang 引擎 output token throughput 大约为 84.66 tok/s',
        'bare': 'sglang 裸跑 output token throughput 大约为 611.48 tok/s',
        'expected': '二者差异应该不会很大，但是并行速度实际很慢，与不并行速度基本一致。',
        'maintainer': 'sglang is not set as a concurrent model engine, refer to',
    },
    engine_args='xinference launch --model-name "llama-3-instruct" --model-format pytorch --model-engine sglang',
    observe={'output_tokens_per_s': (84.66, '大约为 84.66 tok/s'),
             'expected_output_tokens_per_s': (611.48, '大约为 611.48 tok/s')},
    args_model='llama-3-instruct',
    notes=('engine_args joins the launch command lines (continuation backslashes dropped, --size-in-billions/--endpoint omitted); the '
           'benchmark\'s output throughput through Xinference is output_tokens_per_s and the reporter\'s own bare-sglang run is '
           'expected_output_tokens_per_s'),
    leak="The maintainer's explanation (sglang not set as a concurrent engine in model.py) and the reporter's remark that it runs no faster than serial are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/intel/llm-scaler/pull/718', thread_type='pr',
    engine='SGLang (intel/llm-scaler XPU service scripts)', engine_version='Sep 2026', gpu='Intel GPU (XPU)', model='Qwen3.6-27B FP8',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('MEM_FRACTION_STATIC=0.9 left too little transient device memory for 8 concurrent prefill/decode requests, so a GSM8K run '
                'with 8 threads failed with UR_RESULT_ERROR_OUT_OF_RESOURCES; 0.75 completed all 200 requests.'),
    fix='Lower the default MEM_FRACTION_STATIC for Qwen FP8 from 0.9 to 0.75.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'sglang: leave memory headroom for concurrent Qwen FP8 serving',
        'summary': ['lower the default Qwen FP8 `MEM_FRACTION_STATIC` from 0.9 to 0.75',
                    'leave transient device-memory headroom for 8-request concurrent prefill/decode'],
        'validation': 'Qwen3.6-27B FP8 GSM8K, 200 examples, 8 threads: default 0.9 hit `UR_RESULT_ERROR_OUT_OF_RESOURCES`; 0.75 completed 200/200 requests',
    },
    log=['UR_RESULT_ERROR_OUT_OF_RESOURCES'],
    engine_args='MEM_FRACTION_STATIC=0.9',
    args_model='Qwen3.6-27B FP8',
    args_gpu='Intel XPU',
    notes='the error is the only log text (inside the PR\'s validation line); engine_args restates the default the PR names ("default 0.9"); no concurrency figure is passed',
    leak="The PR title (memory headroom), the fix to 0.75 and the 200/200 A/B are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/mit-han-lab/omniserve/issues/18', thread_type='issue',
    engine='QServe (OmniServe) benchmark', engine_version='Jun 2024', gpu='NVIDIA L40S', model='Llama3-70B-Instruct QoQ w4a8kv4 g128',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The benchmark ran with GLOBAL_BATCH_SIZE=4, so the L40S was far from full: about 60 tokens/s instead of the ~280 expected; '
                'the max batch size for a 70B model on an L40S is close to 24.'),
    fix='Raise the global batch size toward the device capacity (about 24 on an L40S for 70B).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Expected speed for llama3-70b-instruct',
        'desc': 'Hello - I quantized Llama3-70B-Instruct with g128 ([model here](https://huggingface.co/crusoeai/llama3-instruct-70b-QoQ-g128), and ran the benchmarking script on an L40s with the below command:',
        'cmd': ['export GLOBAL_BATCH_SIZE=4 NUM_GPU_PAGE_BLOCKS=100',
                'python qserve_benchmark.py --model $MODEL_PATH --benchmarking --precision w4a8kv4 --group-size 128'],
        'result': 'I get ~60 tokens/s, is this the expected throughput? I was hoping for a bit closer to llama2-70b at ~280 tokens/s.',
        'maintainer': "The reason why you get ~60 tokens/s is that you have set the batch size to 4. To maximize the throughput, you'll need to take full advantage of the device's capacity. For example, on L40s, the max batch size for 70B models should be close to 24.",
    },
    engine_args='export GLOBAL_BATCH_SIZE=4 NUM_GPU_PAGE_BLOCKS=100; python qserve_benchmark.py --model $MODEL_PATH --benchmarking --precision w4a8kv4 --group-size 128',
    observe={'output_tokens_per_s': (60, 'I get ~60 tokens/s'),
             'expected_output_tokens_per_s': (280, '~280 tokens/s')},
    args_model='Llama3-70B-Instruct (QoQ g128)',
    args_gpu='L40s',
    notes='engine_args joins the two command lines (shell prompts dropped); the reporter\'s ~60 tokens/s and the ~280 tokens/s they hoped for are output/expected throughput',
    leak="The maintainer's explanation (batch size 4, max batch ~24 on L40S) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/issues/2648', thread_type='issue',
    engine='TensorRT-LLM benchmark', engine_version='Jan 2025', gpu='NVIDIA A100 80GB SXM', model='Llama 3 8B (float16)',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The benchmark ran with a small batch size, so throughput was about 2000 tokens/s against the 6552 tokens/s of the '
                'performance page; raising the batch size gave 5500 tokens/s.'),
    fix='Increase the batch size of the engine/benchmark.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Throughput Measurements',
        'desc': 'My hardware is an A100 GPU. I benchmarked the Llama 3 8B model, and I reached a speed of about 2000 tokens per second for an input of 35 tokens and an output of 250 tokens. However, this page states that for an input of 128 tokens and an output of 128 tokens, it reached 6552.62 tokens.',
        'dtype': 'I achieved 2000 tokens with float16, but there is a significant difference compared to this page.',
        'reporter': 'I increased batch size and reached to 5500 tokens per second.',
        'hw': 'A100 80GB SXM',
    },
    observe={'output_tokens_per_s': (2000, 'about 2000 tokens per second'),
             'expected_output_tokens_per_s': (6552.62, 'it reached 6552.62 tokens'),
             'input_len_mean': (35, 'an input of 35 tokens'),
             'output_len_mean': (250, 'an output of 250 tokens')},
    args_model='Llama 3 8B (float16)',
    args_gpu='A100 80GB SXM',
    notes=('the reporter\'s ~2000 tokens/s and the 6552.62 of the performance page are output/expected throughput, with the request shape '
           '(35 in / 250 out); the GPU variant is from the reporter\'s answer to a maintainer question; no engine build or run command is quoted'),
    leak="The reporter's fix (larger batch size, 5500 tokens/s) is left out.",
    hard='No batch size or engine setting is in the inputs; only throughput against a published figure.'))

I.append(dict(
    src='https://github.com/MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks/issues/43', thread_type='issue',
    engine='GLM-5.3-Flash EXL3 recipe server (2x DGX Spark)', engine_version='Aug 2026', gpu='2x DGX Spark (GB10)', model='GLM-5.3-Flash EXL3',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('With MAX_MODEL_LEN=1000000 the KV pool holds only ~1.5 full-length requests (kv_cache_max_concurrency=1.53), so '
                'interactive clients queued for KV capacity with only 1-2 requests running, although MAX_NUM_SEQS=4 slots were free.'),
    fix='Default MAX_MODEL_LEN to 200K for the interactive profile (pool fits ~7 full-length requests), keep 1M as an opt-in lane, or document it.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Capacity queueing below MAX_NUM_SEQS=4 at 1M context — suggest 200K default or docs note',
        'summary': 'With the default recipe (`MAX_MODEL_LEN=1000000`, `MAX_NUM_SEQS=4`), interactive multi-client traffic queues even when only 1–2 requests are running. The queue reason is `capacity` (KV pool), not the seq slot count — this is surprising if you read `max_num_seqs=4` as "four chats at once".',
        'metrics': 'Live metrics: `num_requests_running=2`, `num_requests_waiting=1` with `num_requests_waiting_by_reason{reason="capacity"}=1`',
        'cache': '`cache_config_info`: `kv_cache_size_tokens=1,526,178`, `kv_cache_max_concurrency=1.53` — i.e. the whole pool fits ~1.5 full-length (1M) requests',
        'block': 'So a single long-context request (a few hundred K tokens) blocks the next admission even with 3 free seq slots',
    },
    log=['`cache_config_info`: `kv_cache_size_tokens=1,526,178`, `kv_cache_max_concurrency=1.53`'],
    engine_args='MAX_MODEL_LEN=1000000 MAX_NUM_SEQS=4',
    observe={'running': (2, '`num_requests_running=2`'), 'waiting': (1, '`num_requests_waiting=1`')},
    args_model='GLM-5.3-Flash EXL3',
    args_gpu='2x DGX Spark (GB10)',
    notes=('engine_args restates the recipe defaults the reporter names; running/waiting from the live metrics line; the cache_config_info '
           'metric is the log line (cut before the reporter\'s reading of it)'),
    leak="The title, the reporter's analysis (queue reason capacity, ~1.5 full-length requests, blocked admission) and the waiting_by_reason{capacity} metric are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/cloudrift-ai/emmy/pull/832', thread_type='pr',
    engine='emmy serving recipe', engine_version='Sep 2026', gpu=None, model=None,
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The recipe capped the server at four concurrent requests, so most of the hardware sat idle (cards drawing about a sixth of '
                'their power budget) and output throughput was 40.8 tok/s; a cap of 16 gave 133.8 tok/s.'),
    fix='Raise the concurrency cap from 4 to 16 (32 for batch/asynchronous workloads).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Serve sixteen concurrent requests instead of four',
        'abstract': 'This recipe served four requests at a time because four is the shape it was qualified at, not because four was measured to be the right number.',
        'sweep': 'Sweeping the cap shows throughput rising almost linearly with it while per-token decode latency barely moves, so four left most of the hardware idle — the cards read busy while drawing about a sixth of their power budget.',
        'header': '| Cap | Output throughput | Median TTFT | P99 TTFT | Median TPOT |',
        'row4': '| 4 (before) | 40.8 tok/s | 1,024 ms | 2,500 ms | 92 ms |',
        'row16': '| 16 (after) | 133.8 tok/s | 3,310 ms | 5,828 ms | 105 ms |',
    },
    observe={'output_tokens_per_s': (40.8, '| 4 (before) | 40.8 tok/s'),
             'ttft_p50_s': (1.024, '1,024 ms'),
             'ttft_p99_s': (2.5, '2,500 ms'),
             'tpot_p50_s': (0.092, '92 ms |')},
    notes='the "before" row of the PR\'s sweep table is passed (ms -> s); no launch flag, model or GPU name is quoted in the stored text',
    leak="The title, the sweep rows for caps 16/32 and the PR's reading (cap of four left the hardware idle, cards at a sixth of power) are left out.",
    hard='Only the throughput/latency row at the old cap; the concurrency cap itself and the low power draw are not in the inputs.'))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/jundot/omlx/pull/3451', thread_type='pr',
    engine='oMLX (MLX engine, Apple Silicon)', engine_version='Sep 2026', gpu='Apple M1 Ultra', model='GLM-5.3-Flash oQ2e',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Apple Silicon lowers the GPU clock when it sits idle, so with paced agent traffic (8 s between requests) every request paid '
                'the clock ramp: 17.5-18.5 tok/s instead of 23.8-24.5 tok/s with the GPU kept warm.'),
    fix='Keep the GPU warm with a tiny idle-time matmul tick in the engine loop (on by default, OMLX_GPU_KEEPWARM=0 to disable).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'feat(engine): keep the GPU warm while the engine loop is idle (+29-40% for paced agent traffic)',
        'what': "Apple Silicon lowers the GPU clock when it sits idle, and the first request after a pause pays the ramp. An agent pauses between turns, so it is exactly the agent's own pattern that pays it.",
        'measured': 'M1 Ultra, GLM-5.3-Flash oQ2e, two rounds per arm, 5×300 tokens per round, **8 s between requests**:',
        'without': 'without   17.5-18.5 tok/s',
        'with': 'with      23.8-24.5 tok/s     (+29% to +40%)',
        'b2b': 'Back-to-back requests (no pause): unchanged. Cost is idle power, not quality — the tick touches no model state.',
    },
    observe={'output_tokens_per_s': (18.5, '17.5-18.5 tok/s')},
    args_model='GLM-5.3-Flash oQ2e',
    args_gpu='Apple M1 Ultra',
    notes='the decode rate under paced traffic (upper end of 17.5-18.5 tok/s) is the only machine input; no log is quoted',
    leak="The title (keep the GPU warm), the clock-ramp explanation, the keep-warm A/B (23.8-24.5 tok/s) and the back-to-back comparison are left out.",
    hard='Only a decode rate; the idle gaps between requests and the GPU clock ramp are not in the inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/9842', thread_type='issue',
    engine='Ollama (Linux cluster node)', engine_version='Mar 2025', gpu='NVIDIA RTX 3090', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The Ollama install on the offline GPU node had no GPU runner libraries at all (installed on another node and copied), '
                'so Ollama fell back to plain non-vector CPU inference: ~4 tok/s instead of ~30 and nothing on the GPU.'),
    fix='Reinstall Ollama with its runner libraries (/usr/local/lib/ollama) on the GPU node.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama not using GPU (RTX 3090) anymore on Ubuntu 20.04 – (it previously worked)',
        'desc': 'ollama does not seem to utilize the GPU (GeFore GTX 3090) at all anymore. It simply ignores that there is a GPU. I could get it to run successfully in the past, reaching around 30 token/s second. Now, I barely reach 4 t/s and when I do `watch nvidia-smi`, while ollama is generating, clearly shows that there is nothing loaded on the GPU, it is not aware of any  process and does not accelerate ollama.',
        'log': 'time=2025-03-18T11:15:57.784+09:00 level=DEBUG source=server.go:259 msg="compatible gpu libraries" compatible=[]',
        'maintainer': 'Your installation has no runners at all, so ollama falls back to using plain non-vector CPU for inference.  What install method did you use?',
        'find': 'find: ‘/usr/local/lib/ollama’: No such file or directory',
        'reporter': 'Ah! I just remembered something maybe important The gpu node is not connected to the internet.',
    },
    log=[('log', None)],
    observe={'output_tokens_per_s': (4, 'I barely reach 4 t/s'),
             'expected_output_tokens_per_s': (30, 'reaching around 30 token/s second')},
    args_gpu='RTX 3090',
    notes=('the log line is the reporter\'s debug log as quoted back by the maintainer (quote marker dropped); the reporter\'s current and '
           'earlier rates are output/expected throughput'),
    leak="The maintainer's diagnosis (no runners, CPU fallback), the find output and the offline-node install story are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/raullenchai/Rapid-MLX/issues/1854', thread_type='issue',
    engine='Rapid-MLX 0.12.10 (MLX, Apple Silicon)', engine_version='0.12.10', gpu='Apple M3 Ultra', model='gemma-4-26b',
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('Rapid-MLX\'s MLLM continuous-batching prefill ran the full VLM forward (vision tower + embed_vision + language) once per '
                'request and never reused the projected image features, adding ~0.35 s to every image message (0.60 s vs 0.25 s TTFT).'),
    fix='Reuse/cache the projected image features in the MLLM prefill path (fixed in #1856).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Vision request TTFT is 2.4x stock mlx-vlm on the same model (0.60s vs 0.25s, gemma-4-26b)',
        'matrix': 'Cross-runtime matrix, vision lane (M3 Ultra, 0.12.10, parity flags, 1024x768 PNG + short prompt, N=3 medians):',
        'row_mlxvlm': '| mlx-vlm 0.6.3 server | **0.25 s** | 114 tok/s |',
        'row_rapid': '| **rapid-mlx 0.12.10** | **0.60 s** | 111 tok/s |',
        'decode': 'Decode is within 3 % of stock — the gap is entirely in time-to-first-token: ~0.35 s of added latency per image message vs the same mlx-vlm stack we sit on.',
        'root': "**Root cause:** rapid's MLLM continuous-batching prefill ran the full VLM forward (`vision_tower` + `embed_vision` + language) once per request and never reused the projected image features.",
        'fixed': 'Fixed in #1856 (merged, squash `e9255e65`).',
    },
    observe={'ttft_p50_s': (0.60, '**0.60 s**'), 'output_tokens_per_s': (111, '**0.60 s** | 111 tok/s')},
    args_model='gemma-4-26b',
    args_gpu='Apple M3 Ultra',
    notes='the rapid-mlx row of the benchmark matrix (median TTFT, decode rate) is passed; the mlx-vlm comparison row is kept out of the machine inputs',
    leak="The title's comparison, the mlx-vlm row, the reporter's attribution of the gap to prefill and the root-cause comment are left out.",
    hard='An engine code-path inefficiency; the inputs only show a sub-second vision TTFT with normal decode, which could read as prompt load.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/3806', thread_type='issue',
    engine='llama.cpp (main, CUDA build, Windows)', engine_version='Oct 2023 (017efe8)', gpu='NVIDIA RTX 3070', model='codellama-13b-instruct.Q6_K.gguf',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('A code regression (first bad commit 017efe8) left the GPU idle during generation on Windows: 2500 ms/token instead of '
                '~170 ms/token with -ngl; it was resolved by the fix in #3906.'),
    fix='Update past the fix in #3906.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'GPU not being utilized on Windows',
        'expected': 'GPU usage goes up with `-ngl` and decent inference performance. Expect to see around 170 ms/tok.',
        'current': 'GPU memory usage goes up but activity stays at 0, only CPU usage increases. Getting around 2500 ms/tok.',
        'env': 'Windows 11 - 3070 RTX',
        'model': 'Attempting to run `codellama-13b-instruct.Q6_K.gguf`',
        'bisect': 'I ran a git bisect which showed [017efe899d8](https://github.com/ggerganov/llama.cpp/commit/017efe899d8fa76118aef88e963210d48da01172) as the first bad commit. I see about a 10x drop in performance between ff5a3f0 and 017efe8, from 170ms/tok to 2500ms/tok.',
        'build': 'build with `cmake .. -DLLAMA_CUBLAS=ON`',
        'resolved': "Resolved by #3906. Not sure what's going on with low GPU usage, maybe CPU was just bottlenecking.",
    },
    observe={'tpot_p50_s': (2.5, 'Getting around 2500 ms/tok.'), 'gpu_util': (0, 'activity stays at 0')},
    args_model='codellama-13b-instruct.Q6_K.gguf',
    args_gpu='RTX 3070 (Windows 11)',
    notes='the per-token time (ms -> s) and the GPU activity the reporter sees are passed; the reporter ran with -ngl but no command line is quoted',
    leak="The git bisect (first bad commit, 10x drop) and the resolution by #3906 are left out.",
    hard='The decisive clue (a bisected code regression) is not in the inputs; CPU-bound decode with an idle GPU could read as layer offload placement.'))

I.append(dict(
    src='https://github.com/Said-Akbar/triton-gcn5/issues/3', thread_type='issue',
    engine='vLLM (vllm-rocm fork with triton-gcn5) on AMD MI100', engine_version='Jan 2025', gpu='AMD Instinct MI100', model='Qwen2.5 7B bf16',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('With the Triton flash-attention path (VLLM_USE_TRITON_FLASH_ATTN=1) the MI100 ran the benchmark at 155.93 output tok/s; '
                'the CK flash-attention path (VLLM_USE_TRITON_FLASH_ATTN=0) gave 1569.15 output tok/s.'),
    fix='Use the CK flash-attention backend (export VLLM_USE_TRITON_FLASH_ATTN=0).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'About MI100',
        'slow': 'I just started this test, but I found it to be extremely slow, only reaching one to two hundred tokens per second.',
        'ck': 'When I installed ck flash-attention, the speed increased to several thousand tokens per second. However, most of the flash attention tests failed （ck FA）, which sometimes results in incorrect inference outputs.',
        'env1': 'When I use : export VLLM_USE_TRITON_FLASH_ATTN=1',
        'res1': 'I got: Throughput: 0.77 requests/s, 323.86 total tokens/s, 155.93 output tokens/s',
        'env0': 'When I use : export VLLM_USE_TRITON_FLASH_ATTN=0',
        'res0': 'I got: Throughput: 7.77 requests/s, 3259.16 total tokens/s, 1569.15 output tokens/s',
        'model': "It's Qwen 7B 2.5，bf16.",
    },
    log=['Throughput: 0.77 requests/s, 323.86 total tokens/s, 155.93 output tokens/s'],
    engine_args='export VLLM_USE_TRITON_FLASH_ATTN=1',
    observe={'output_tokens_per_s': (155.93, '155.93 output tokens/s')},
    args_model='Qwen2.5 7B bf16',
    args_gpu='AMD MI100',
    notes='the benchmark result line of the slow run is the log line; engine_args is the environment setting of that run; the GPU is from the thread title question',
    leak="The reporter's A/B (VLLM_USE_TRITON_FLASH_ATTN=0 at 1569 tok/s, CK flash-attention) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/25434', thread_type='issue',
    engine='vLLM (XPU) on Intel Arc A770', engine_version='Sep 2025', gpu='Intel Arc A770', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('With VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1 the Triton attention kernels are very slow on the A770 (mean TPOT 2.6 s, '
                'TTFT 160 s in the serving benchmark), far slower than the FlashAttn backend on the same card.'),
    fix='Use the FlashAttn backend on the A770 (drop the TRITON_ATTN backend override).',
    confidence='plausible',
    evidence={
        'title': '[Bug]: TritonAttn Backend is very slow on A770',
        'desc': 'When "VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1" is set, vLLM runs very slowly:',
        'bench': ['Successful requests:                     100',
                  'Output token throughput (tok/s):         24.88',
                  'Mean TTFT (ms):                          159865.89',
                  'Mean TPOT (ms):                          2606.34'],
        'flash': 'When using FlashAttnBackend:',
    },
    log=[('bench', 1), ('bench', 2), ('bench', 3)],
    engine_args='VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1',
    observe={'tpot_p50_s': (2.60634, 'Mean TPOT (ms):                          2606.34'),
             'ttft_p50_s': (159.86589, 'Mean TTFT (ms):                          159865.89'),
             'output_tokens_per_s': (24.88, 'Output token throughput (tok/s):         24.88')},
    args_gpu='Intel Arc A770',
    notes='three lines of the slow serving-benchmark summary are the log; means are passed as p50 (ms -> s); engine_args is the backend override the reporter set',
    leak="The title and the reporter's FlashAttn comparison run are left out.",
    hard='Closed as stale with only the reporter\'s A/B against the FlashAttn backend (plausible).'))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/MiaAI-Lab/DeepSeek-v4-Flash-DSpark-2x-DGX-Spark/pull/29', thread_type='pr',
    engine='DSpark recipe (Anemll 0.1.1, vLLM-style engine) on 2x DGX Spark', engine_version='Aug 2026', gpu='2x DGX Spark (GB10)', model='DeepSeek-v4-Flash',
    symptom='other', layer='load',
    root_cause=('The benchmark script sent chat completions with no max_tokens while the server defaulted to max reasoning, so one request '
                'kept generating (~200k tokens over 47 minutes at ~75 tok/s) and stalled the whole sweep; the engine itself was healthy.'),
    fix='Send max_tokens (default 4096) on every benchmark request and record finish_reason/truncation.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: cap benchmark output so unbounded reasoning cannot stall the sweep',
        'problem': ['`scripts/benchmark-0731.py` issues chat completions with no `max_tokens`, relying on',
                    'the model to emit EOS. With `DEFAULT_THINKING=high/max` the server enables reasoning',
                    'by default, and reasoning is not obliged to terminate — so a single lane can generate',
                    'indefinitely and stall the entire sweep behind it.'],
        'setup': ['2× DGX Spark (GB10), Anemll `0.1.1` @',
                  'recipe `cbd719f`, recipe defaults except `GPU_MEMORY_UTILIZATION_TEXT=0.80`, with',
                  '`DEFAULT_THINKING=max`:'],
        'observed': ['One lane of the `2048 × c=6` case ran **47 minutes and ~200k tokens** at a steady',
                     '~75 tok/s while the other five lanes had long finished. No error, no preemption, no',
                     'truncation warning — the engine was perfectly healthy and reported `Running: 1 reqs`'],
        'log': ['Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 77.2 tokens/s,',
                'Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 7.5%, Prefix cache hit rate: 0.0%'],
        'scale': 'For scale: the preceding 7 cases took ~10 minutes *combined*.',
    },
    log=[('log', 0), ('log', 1)],
    engine_args='GPU_MEMORY_UTILIZATION_TEXT=0.80 DEFAULT_THINKING=max',
    observe={'e2e_p99_s': (2820, '**47 minutes and ~200k tokens**'),
             'output_len_mean': (200000, '~200k tokens'),
             'output_tokens_per_s': (77.2, 'Avg generation throughput: 77.2 tokens/s'),
             'running': (1, 'Running: 1 reqs'), 'waiting': (0, 'Waiting: 0 reqs'),
             'kv_usage': (0.075, 'GPU KV cache usage: 7.5%')},
    args_model='DeepSeek-v4-Flash',
    args_gpu='2x DGX Spark (GB10)',
    notes=('the engine status line (wrapped in two lines in the PR) is the log; engine_args restates the recipe settings of the run; the '
           'stalled lane\'s 47 minutes is e2e_p99_s (minutes -> s) and its ~200k tokens output_len_mean; % -> fraction'),
    leak="The title and the PR's explanation (no max_tokens in the benchmark script, unbounded reasoning) are left out.",
    hard='The missing max_tokens is in the benchmark client, not the inputs; they show one healthy request that runs for 47 minutes.'))

I.append(dict(
    src='https://github.com/adolfousier/opencrabs/issues/657', thread_type='issue',
    engine='OpenCrabs agent -> hosted Qwen provider (OpenAI-compatible, prompt caching)', engine_version='Jul 2026', gpu=None, model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('A per-second timestamp in the system prompt changed the cached prefix on every request, so the provider re-prefilled the '
                'full ~55K-token context each turn and the first token took 4-5 s (2.5-6 s gaps in the logs).'),
    fix='Coarsen the Runtime Info timestamp to date granularity so the cached system prefix is byte-stable.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Per-second timestamp in system brain defeats prompt caching -> full context re-prefill every turn',
        'summary': 'A per-second timestamp inside the system brain defeats provider prompt caching on every request. Because the whole system message is the cached prefix, a prefix that changes every second never matches a prior cache entry, so the provider re-prefills the full context (~55K tokens) on every turn. That is the dominant cost of the 4–5s time-to-first-token on a new chat, and it applies to every turn, not just new chats.',
        'render': '`prompt_builder.rs` renders `Timestamp: {chrono::Utc::now() "%Y-%m-%d %H:%M:%S UTC"}` inside the `--- Runtime Info ---` section, in both `build_system_brain` and `build_core_brain`.',
        'logs': "Logs: the gap between our streaming dispatch and the provider's first response is 2.5–6s, consistent with a cold prefill of the full context every time (no cache reuse). Our own pre-model overhead is negligible; a raw curl with the same context is no faster.",
    },
    observe={'ttft_p99_s': (6, "first response is 2.5–6s"),
             'input_len_mean': (55000, '(~55K tokens)')},
    notes='the upper end of the logged dispatch-to-first-response gap (2.5-6 s) is ttft_p99_s and the ~55K-token context input_len_mean; no log line is quoted as text',
    leak="The title, the timestamp source line and the issue's explanation (prefix changes every second, cold re-prefill) are left out.",
    hard='Only a slow first token with a large context; the per-second timestamp in the request prefix is not in the inputs.'))

I.append(dict(
    src='https://github.com/Systemorph/MeshWeaver/pull/2108', thread_type='pr',
    engine='MeshWeaver agents -> Azure Foundry DeepSeek (provider prompt cache)', engine_version='Aug 2026', gpu=None, model='DeepSeek (Azure Foundry)',
    symptom='other', layer='load',
    root_cause=('The current time, rendered to the second, was folded into the system message, the first message of every turn, so the '
                'provider\'s prefix cache missed the whole prompt on every new round (53% hit rate in production, 0% in a test).'),
    fix='Move the timestamp to the tail of the prompt so the prefix stays stable (98.2% cache hit after).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "Keep the prompt PREFIX stable so every AI driver's cache can hit it",
        'bug': 'The clock was the most volatile string in the prompt, sitting in the least volatile place.',
        'detail': "`CurrentTimeContext` renders the UTC instant at **seconds** precision, and it was composed into the block folded into the agent's **system message** — the first message of the turn.",
        'measured': 'Measured against Azure Foundry DeepSeek, same 13,040-token prompt:',
        'row_before': '| timestamp inside the system message (before) | 0% | 0% | — |',
        'row_after': '| stable prefix, timestamp at the tail (after) | 0% | 0% | **98.2%** |',
        'prod': 'Production sat at **53%**: the within-a-round hits — the system message is composed once per round, so tool iterations *did* cache — minus a full-prefix miss on every new round.',
    },
    observe={'prefix_cache_hit_rate': (0.53, 'Production sat at **53%**'),
             'input_len_mean': (13040, 'same 13,040-token prompt')},
    notes='the production cache hit rate (% -> fraction) and the prompt size of the measurement are the machine inputs; no log is quoted',
    leak="The PR's diagnosis (timestamp in the system message), the before/after table and the fix are left out.",
    hard='Only a cache hit rate and prompt size; the volatile timestamp in the request prefix is not in the inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8903', thread_type='issue',
    engine='Ollama (Windows 11 host, two API clients)', engine_version='Feb 2025', gpu=None, model='deepseek-r1:32b',
    symptom='ttft_spike', layer='load',
    root_cause=('One client (of AnythingLLM and Cline) sent "use_mlock":true in its API requests; a change in model parameters forces a '
                'reload, so every switch between the two clients unloaded and reloaded deepseek-r1:32b.'),
    fix='Make both clients send the same model options (drop use_mlock on one, or set it on both).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama reload the same model while switching the clients',
        'setup': 'I hosted the ollama in Windows 11 Pro, with model: deepseek-r1:32b, and here are the environment variables related to ollama:',
        'env': ['OLLAMA_HOST=0.0.0.0:11434', 'OLLAMA_KEEP_ALIVE=-1'],
        'issue': 'When i use one of client connects to ollama, it loads the model as normal, and then if i use another client connects to it, the ollama will offload the model and then reload it again. In such time, if I switched to first client, it would triggered the reload again.',
        'diff': ['the one has an additional parameter `--mlock`', 'another one is two CLIs has different port numbers'],
        'maintainer': 'Port number change is irrelevant.  One of the clients is setting `"use_mlock":true` in the API call.  A change in model parameters causes a model reload.  Either configure the one client using `use_mlock` to not use it, or configure the other client to use it.',
        'warn': 'time=2025-02-07T09:17:16.251+08:00 level=WARN source=runner.go:129 msg="truncating input prompt" limit=2048 prompt=14570 keep=5 new=2048',
    },
    log=[('warn', None)],
    engine_args='OLLAMA_HOST=0.0.0.0:11434 OLLAMA_KEEP_ALIVE=-1',
    args_model='deepseek-r1:32b',
    notes=('engine_args joins the server environment the reporter lists; the log line is from the reporter\'s attached log as quoted by the '
           'maintainer (a separate truncation warning, kept because the operator had it)'),
    leak="The maintainer's explanation (use_mlock request option forces a reload) and the reporter's diff of the two runner command lines (--mlock, ports) are left out.",
    hard='The differing request option is only in the reporter\'s prose; the inputs hold the server environment and an unrelated truncation warning.'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/THUDM/AgentTuning/issues/11', thread_type='issue',
    engine='TGI (text-generation-inference, AgentLM-7B docker config)', engine_version='Oct 2023', gpu=None, model='AgentLM-7B',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The /generate requests set no max_new_tokens, so TGI used its small default (20 new tokens) and every answer was cut '
                'off mid-sentence.'),
    fix='Pass "parameters": {"max_new_tokens": N} in the request JSON.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Model Output Length',
        'desc': "Hi, thanks for the interesting work and awesome codebase. Recently, I tested the 7b model with TGI (used config file: docker/agentlm-7b.yml) and I just found that the model's output seems to be trunked:",
        'query': 'Query: I want to have a journey to California, please help me to build up a tourism plan. Please think step by step.',
        'answer': 'Answer: {"generated_text":"Sure, I\'d be happy to help you plan a tour of California! Here\'s a"}',
        'maintainer': 'You may consider adding `"parameters":{"max_new_tokens":20}}` in request JSON.',
        'reporter': 'thanks, it works.',
    },
    outputs=['{"generated_text":"Sure, I\'d be happy to help you plan a tour of California! Here\'s a"}'],
    args_model='AgentLM-7B',
    notes='the truncated TGI response is the output sample (the "Answer:" label dropped); no request parameters or server log are quoted',
    leak="The maintainer's pointer to max_new_tokens and the reporter's confirmation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/intel/llm-scaler/pull/682', thread_type='pr',
    engine='vLLM 0.26 (Intel llm-scaler and upstream) serving dots.ocr', engine_version='vLLM 0.26.1.dev / 0.26.0', gpu='Intel Arc Pro B60 / NVIDIA RTX 4090', model='dots.ocr',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The chat_template.json shipped with dots.ocr emits no <|user|>/<|endofuser|> role delimiters when the content is an array, '
                'so <|assistant|> follows the image tokens with no role terminator and 53-61 of 300 requests returned hallucinated text '
                'instead of the expected JSON.'),
    fix='Serve with a corrected chat template (chat_template_dots_ocr.jinja): 7/300 failures.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'docs(vllm): fix dots.ocr garbled output by shipping a corrected chat template',
        'desc': 'The chat_template.json shipped with dots.ocr does not emit the <|user|> / <|endofuser|> role delimiters (token ids 151670 / 151671) when the message content is an array, and concatenates the array in the order supplied by the caller.',
        'effect': 'The generation marker <|assistant|> therefore follows the image patch tokens with no role terminator in between, and a significant fraction of requests return hallucinated text instead of the expected JSON object.',
        'measured': 'Measured on a fixed set of 300 document crops at concurrency 8, with prefix caching and the multimodal processor cache disabled:',
        'rows': ['Intel Arc Pro B60, vLLM 0.26.1.dev  53/300 -> 7/300',
                 'NVIDIA RTX 4090,   vLLM 0.26.0      61/300 -> 7/300'],
    },
    observe={'error_rate': (0.177, 'Intel Arc Pro B60, vLLM 0.26.1.dev  53/300')},
    args_model='dots.ocr',
    args_gpu='Intel Arc Pro B60',
    notes='the share of requests with hallucinated output before the fix (53 of 300 on the B60) is passed as error_rate; no output sample or template text is quoted as machine input',
    leak="The title, the template diagnosis (missing role delimiters) and the after-fix counts are left out.",
    hard='Only a failure rate on the B60; no output sample, template or launch flags are in the inputs.'))

I.append(dict(
    src='https://github.com/EricLBuehler/mistral.rs/issues/765', thread_type='issue',
    engine='mistral.rs server 0.3.0 (docker cuda-80)', engine_version='0.3.0', gpu=None, model='meta-llama/Meta-Llama-3.1-8B-Instruct (ISQ Q8_0)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('A bug in mistral.rs\'s no-KV-cache path: with --no-kv-cache the server returned garbage tokens; the same run without the '
                'flag answered normally. The maintainer reproduced it and fixed it in #776.'),
    fix='Upgrade past #776 (or run without --no-kv-cache).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Disabling KV Cache leads to garbage output',
        'desc': 'Disabling KV cache on the `mistralrs-server` bin via `--no-kv-cache` (as a measure to slightly reduce VRAM at the expence of the compute) leads to the garbage output from the model at the API layer (OpenAI-compatible, `/v1/chat/completions` endpoint)',
        'args': ['--no-paged-attn', '--no-kv-cache', '--isq Q8_0', 'plain', '-m meta-llama/Meta-Llama-3.1-8B-Instruct', '-a llama'],
        'sample': 'Assistant: Hello Bakanı titten echangezpeuronsotionEvent echang RTAL salopes limburg vivastreet сторін.arraycopy vivastreet ] ... ',
        'good': 'Assistant: Hello there. How can I assist you today?',
        'version': 'mistralrs-server 0.3.0',
        'maintainer_repro': '@av I have been able to reproduce this with `cargo run --features cuda --release -- -i --isq q4k --no-kv-cache --no-paged-attn plain -m microsoft/Phi-3.5-mini-instruct`.',
        'maintainer_fix': '@av this should be fixed now in #776, can you please confirm it works',
    },
    outputs=['Assistant: Hello Bakanı titten echangezpeuronsotionEvent echang RTAL'],
    engine_args='--no-paged-attn --no-kv-cache --isq Q8_0 plain -m meta-llama/Meta-Llama-3.1-8B-Instruct -a llama',
    args_model='meta-llama/Meta-Llama-3.1-8B-Instruct',
    notes='engine_args joins the reporter\'s argument lines; the garbage answer is cut to a verbatim prefix for the output sample',
    leak="The title, the reporter's run without --no-kv-cache (correct answer) and the maintainer's reproduction and fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/12251', thread_type='issue',
    engine='llama-server (llama.cpp, CUDA build)', engine_version='Mar 2025 (ea00281)', gpu='NVIDIA RTX 4090', model='QwQ-32B GGUF (e.g. IQ4_XS)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The context each slot gets was too small (--ctx-size 1024, split further by --parallel 10), so generation ran past it and '
                'the server shifted/truncated the context (truncated = 1); the model then repeated itself, earlier the smaller the context.'),
    fix='Give each slot enough context (fewer parallel slots or a larger --ctx-size), or use --no-context-shift.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Eval bug: QWQ generates repeated text when running with reduced context length',
        'device': 'Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes',
        'desc': 'When running llama-server with fixed (reduced) context length, the model starts to repeat itself, the less is context length, the earlier it starts to repeat itself.',
        'repro': 'Run the server with --ctx-size 1024, I used some of the settings from',
        'log': ['srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 200',
                'slot      release: id  0 | task 0 | stop processing: n_past = 71, truncated = 1',
                'srv  update_slots: all slots are idle'],
        'maintainer': 'Use `--no-context-shift`',
        'reporter_update': "Update: I think the it is related to the `--parallel` argument, when I change it from 10 to 1, I don't see any repetitions, but people reported this behavior with",
        'maintainer2': 'Increasing `-np` will reduce th',
    },
    log=[('device', None), ('log', 0), ('log', 1), ('log', 2)],
    engine_args='--ctx-size 1024',
    args_model='QwQ-32B GGUF',
    args_gpu='RTX 4090',
    notes='the CUDA device line (leading spaces dropped) and the slot log lines are the log; engine_args is the reproduction setting the reporter states',
    leak="The title, the maintainer's --no-context-shift advice and the reporter's --parallel 10 -> 1 A/B are left out.",
    hard='Could be read as slot configuration (scheduling_capacity): the per-slot context from --parallel 10 is what triggers the shift, and the parallel setting is not in the inputs.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/OpenSecretCloud/opensecret/issues/192', thread_type='issue',
    engine='OpenSecret backend -> tinfoil-proxy -> hosted DeepSeek (OpenAI-compatible), behind nginx', engine_version='Jun 2026', gpu=None, model='DeepSeek',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Long stream:false completions were cut by the path, not the model: first nginx\'s default 60 s upstream read timeout, '
                'then (after raising it) the app\'s own 120 s request timeout to tinfoil and the tinfoil-proxy 2m0s response-start timeout; '
                'stream:true completed after ~305 s.'),
    fix='Raise the app and proxy timeouts for non-streaming completions beyond 120 s (or stream).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Consider raising stream:false completions timeout beyond 120s',
        'context': 'Long non-streaming OpenAI-compatible chat completions currently appear to hit a 120s app-side/provider-side ceiling after nginx is configured past its default 60s upstream read timeout.',
        'before': 'Before nginx timeout changes, production `stream:false` DeepSeek completions failed at about 60s, consistent with nginx closing a response that had not produced upstream bytes yet.',
        'after': 'After applying nginx timeout settings on dev, `stream:false` DeepSeek completions got past 60s but failed around 120.5s.',
        'log_app': 'opensecret::web::openai: Request to tinfoil timed out after 120s',
        'log_proxy': 'tinfoil-proxy: upstream response start timed out ... after 2m0s',
        'stream': 'Dev `stream:true` DeepSeek completed cleanly after about 305s with `[DONE]` and final usage.',
        'code': '- `src/web/openai.rs`: `REQUEST_TIMEOUT_SECS = 120`',
    },
    log=[('log_app', None), ('log_proxy', None)],
    observe={'e2e_p99_s': (120.5, 'failed around 120.5s')},
    args_model='DeepSeek',
    notes='the two Nitro log messages the issue quotes are the log (surrounding backticks dropped); the failure time after the nginx change is e2e_p99_s',
    leak="The title, the issue's reading of the two timeouts, the nginx-before/after story, the code paths and the stream:true comparison are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/tscibilia/home-ops/pull/3589', thread_type='pr',
    engine='home-ops AI router -> llama.cpp backend (llama-qwen), LiteLLM alongside', engine_version='Aug 2026', gpu=None, model='Qwen (llama-qwen, llama.cpp)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The router\'s per-backend timeout for llama-qwen was 5m; for non-streaming chat llama.cpp sends headers only after the full '
                'completion, so long planLineup calls died at exactly 300 s (latencyMs:300007) once the proxy header timeout was fixed.'),
    fix='Raise the llama-qwen router backend timeout to 10m to match LiteLLM\'s request_timeout.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(ai): raise llama-qwen router backend timeout to 10m',
        'desc': ['The proxy response-header timeout fix (#3587) unmasked the backend timeout:',
                 'non-streaming planLineup still died at exactly 300s (latencyMs:300007 in',
                 "router.dispatch) because llama-qwen's `timeout: 5m` caps the per-attempt",
                 'deadline. For non-streaming chat that timeout IS generation time — llama.cpp',
                 "sends headers only after the full completion. Match litellm's request_timeout."],
    },
    log=['latencyMs:300007'],
    engine_args='timeout: 5m',
    observe={'e2e_p99_s': (300, 'died at exactly 300s')},
    notes='the router.dispatch latency field quoted in the PR is the log fragment; engine_args restates the configured per-backend timeout the PR names; no model/GPU detail is given',
    leak="The title and the PR's explanation (the timeout caps generation time for non-streaming chat) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/weave-os/router/pull/275', thread_type='pr',
    engine='weave-os router -> Fireworks serverless (deepseek-v4-pro)', engine_version='Jun 2026', gpu=None, model='deepseek-v4-pro',
    symptom='ttft_spike', layer='gateway_client',
    root_cause=('The router sent no session-affinity hint to the serverless upstream, so consecutive turns of a conversation landed on '
                'whatever replica was free; a turn on a cold replica got no prefix-cache reuse and paid a full 60k-token prefill (26.4 s TTFT).'),
    fix='Forward the session key as the provider\'s affinity hint (x-session-affinity for Fireworks/DeepInfra, x-session-id for OpenRouter, prompt_cache_key for OpenAI).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix(router): pin sessions to a replica via prompt-cache affinity hints',
        'problem': "Serverless upstreams (Fireworks, DeepInfra) fan a single session's turns across replicas, and the prefix KV-cache lives **per replica**. We sent **no stickiness hint**, so consecutive turns of the same conversation were load-balanced to whatever replica was free — and a turn that lands on a cold replica pays a full prefill.",
        'found': 'Found this diagnosing a prod `deepseek-v4-pro`/Fireworks session (`b16c5b9e`):',
        'header': '| input | cache read | TTFT |',
        'row_warm': '| ~29k | ~16k | 2.5–5s (warm replica) |',
        'row_cold': '| **60k** | **0** | **26.4s** (cold replica) |',
        'failover': "The heaviest turns then blew past Fireworks' ~30s idle timeout and failed over — to an OpenRouter binding that's separately out of credits (402).",
    },
    observe={'ttft_p99_s': (26.4, '**26.4s**'),
             'input_len_p99': (60000, '| **60k** |'),
             'prefix_cache_hit_rate': (0, '| **60k** | **0** |')},
    args_model='deepseek-v4-pro',
    notes='the cold turn of the session table is passed (60k input, 0 cached tokens read as hit rate 0, 26.4 s TTFT); no log line is quoted',
    leak="The title, the PR's explanation (no stickiness hint, per-replica KV cache), the warm/cold annotations and the failover story are left out.",
    hard='The inputs show a cold-prefix 60k-token turn and a 26 s first token; that the router sent no affinity hint is not in them.'))

I.append(dict(
    src='https://github.com/modelplaneai/modelplane/pull/174', thread_type='pr',
    engine='Envoy-based inference gateway (Gateway API HTTPRoute) -> model serving pods', engine_version='Jun 2026', gpu='NVIDIA L4', model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The HTTPRoutes in front of the serving pods set no request timeout, so the Envoy gateway applied its 15 s default and cut '
                'token streams mid-generation (a ~60 s 1024-token completion died at 15.2 s); under a benchmark zero long requests completed.'),
    fix='Set timeouts.request: "0s" on the model HTTPRoutes and rely on the stream-idle timeout.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Disable the HTTPRoute request timeout for model traffic',
        'problem': ["The HTTPRoutes that front a replica's serving pods (both the unified",
                    'gateway falls back to its own default. On the Envoy-based inference gateway that',
                    'default is **15s**, which severs token streaming mid-generation. Any response',
                    'longer than 15s dies with:'],
        'err': 'RemoteProtocolError: peer closed connection without sending complete message body',
        'scale': ['LLM generation time scales with output length — a 1024-token completion on an L4',
                  'runs **~60s** — so under a benchmark every long request errored and **zero',
                  'requests completed** on both the unified and disaggregated clusters.'],
        'diag': ['A 1024-token completion through the gateway was cut off at **exactly 15.2s**; the',
                 'HTTPRoute had no `timeouts` and there was no traffic policy. Patching the live',
                 'route with `timeouts.request: "0s"` let the same completion finish (**1014'],
    },
    log=[('err', None)],
    observe={'e2e_p99_s': (15.2, 'cut off at **exactly 15.2s**')},
    args_gpu='NVIDIA L4',
    notes='the client error is the log line; the cut-off time of the live test is e2e_p99_s; the ~60 s full-generation time is kept out',
    leak="The PR's explanation (no request timeout, 15 s gateway default), the live patch result and the fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/12013', thread_type='issue',
    engine='llama-server (llama.cpp 4568) with its web UI in 8 browser windows', engine_version='4568 (a4417ddd)', gpu='Mac Studio M2 Ultra (192GB)', model='DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf',
    symptom='ttft_spike', layer='gateway_client',
    root_cause=('The 8 requests came from browser windows on one host, and the browser allows only 6 concurrent connections per host, so '
                'only 6 inferences ran and the other 2 waited; 8 concurrent requests from Python ran fine with --parallel 8.'),
    fix='Load-test from a client without the browser\'s per-host connection limit (e.g. Python/curl), or use HTTP/2 or several hosts.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Misc. bug: Concurrency Limitation: Only 6 Inferences Run Simultaneously When Setting `--parallel` > 6',
        'desc': 'Even though I set the `--parallel` flag to 8, the server processes only 6 inferences concurrently. The remaining inferences stay in a waiting queue until one of the active processes is completed.',
        'hw': 'Mac Studio M2 Ultra (192GB)',
        'cmd': ['llama-server \\', '-m DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf \\', '--temp 0.6 \\', '--ctx-size 81920 \\', '--parallel 8 \\', '--flash-attn'],
        'steps': 'Open 8 browser windows and navigate to `http://127.0.0.1:8080/`.',
        'maintainer': 'Seems like this may be related to a limitation in browser:',
        'reporter': 'Now I successfully test 8 connections using pure Python:',
    },
    engine_args='llama-server -m DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf --temp 0.6 --ctx-size 81920 --parallel 8 --flash-attn',
    observe={'running': (6, 'the server processes only 6 inferences concurrently')},
    args_model='DeepSeek-R1-Distill-Llama-8B-Q8_0.gguf',
    args_gpu='Mac Studio M2 Ultra (192GB)',
    notes='engine_args joins the launch command lines (continuation backslashes dropped); the 6 concurrent inferences the reporter sees are running; the browser-window steps stay in prose',
    leak="The title, the maintainer's browser-limit pointer and the reporter's Python re-test with 8 connections are left out.",
    hard='The inputs show 6 running of 8 configured slots; that the requests came from browser windows (6 connections per host) is not in them.'))

I.append(dict(
    src='https://github.com/TrainWithShubham/AI-BankApp-DevOps/pull/24', thread_type='pr',
    engine='Envoy Gateway (BackendTrafficPolicy) -> Ollama (TinyLlama)', engine_version='Apr 2026', gpu=None, model='TinyLlama',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Ollama inference (~13 s) plus network overhead (~2-3 s) exceeded Envoy Gateway\'s default ~15 s request timeout, so the '
                'AI assistant\'s requests failed at the gateway.'),
    fix='Set an HTTP requestTimeout of 120s in the BackendTrafficPolicy.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Added request timeout in BackendTrafficPolicy',
        'desc': 'Ollama (TinyLlama model) inference (~13s) plus network overhead (~2–3s) exceeds Envoy Gateway’s default timeout (~15s), causing requests to fail.',
        'fix': 'Added HTTP request timeout of 120s in BackendTrafficPolicy to support long-running requests.',
        'yaml': 'requestTimeout: 120s',
        'result': 'This fixes timeout errors and ensures the AI assistant responds successfully.',
    },
    observe={'e2e_p99_s': (13, 'inference (~13s)')},
    args_model='TinyLlama',
    notes='the Ollama inference time the PR states is the only machine input (e2e_p99_s); no error text is quoted',
    leak="The gateway's ~15 s default, the failing-request statement, the fix (120 s requestTimeout) and its result are left out.",
    hard='Only the inference time; no error line, gateway setting or failure rate is in the inputs.'))

# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261206, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
