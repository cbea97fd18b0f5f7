#!/usr/bin/env python3
"""Build the seventh out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh5; this file follows incidents_fresh5/build.py).
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

# One dict per incident; keys as in incidents_fresh5/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/2641', thread_type='issue',
    engine='llama.cpp (main, CUDA build)', engine_version='build 992 (Aug 2023)', gpu='NVIDIA A100-SXM4-80GB', model='llama-7b q4 (GGML)',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The model was run without -ngl, so no layers were offloaded to the A100 and generation ran on the CPU '
                '(11.30 tokens/s); with -ngl the same model ran at 75.91 tokens/s.'),
    fix='Offload the layers to the GPU with -ngl (n-gpu-layers).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'A100 GPU generate 11.30 tokens/s with llama.cpp',
        'reporter_fix': "Thank you for quick reply! That works by setting -ngl! Now it infer by 75.91 tokens per second! I'll to try whether to be able to increases performance.",
        'fixed_cmd': '(myenv) [root@alywlcb-lingjun-gpu-0014 llama.cpp]# CUDA_VISIBLE_DEVICES=7 ./build/bin/main -m ./models/llama-7b/ggml-model-q4.bin -n 128 -ngl 1000 -mmq',
        'device': '  Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0',
    },
    log=['Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0'],
    observe={'output_tokens_per_s': (11.30, '11.30 tokens/s')},
    args_model='llama-7b (ggml-model-q4.bin)',
    notes=('the title\'s 11.30 tokens/s is passed as output_tokens_per_s; the only log line is the CUDA device line, which the stored '
           'text shows from the reporter\'s later (fixed) run - the same card was detected in both runs (leading spaces dropped)'),
    leak="The reporter's fix (-ngl, 75.91 tokens/s) and the fixed command line are left out.",
    hard='Only a tok/s figure and the GPU; no offload line or launch command from the slow run is in the stored text.'))

I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/issues/839', thread_type='issue',
    engine='TensorRT-LLM 0.5.0 + Triton trt-llm backend (TP=4)', engine_version='0.5.0', gpu='4x RTX 2080 Ti (12 GB)', model='llama-13B',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The engine was built with max_batch_size 8 (all the 12 GB cards allowed), so in-flight batching never ran more than 8 '
                'requests and throughput stopped growing beyond 8 parallel clients, while vLLM kept scaling.'),
    fix='Build the engine with a larger max_batch_size (needs more GPU memory / smaller per-request budget), or use an engine that sizes the batch from the KV pool.',
    confidence='confirmed_by_reporter',
    evidence={
        'env': 'GPU: 2080Ti * 4（12G mem *4）',
        'desc': "When i use trt-llm to infer llama-13B vs vllm. I found trt-llm use much more gpu mem than vllm when large batch size.  In my experiment, i use 4 * 2080Ti (12G mem * 4) to deploy llama-13B with trt-llm 4 tp. I can ony set the max batch size to 8 when buiding. If use parallel requests(> 8), the throuput will not increase any more. But vllm will perform ok, and throuput will surpasses trt-llm. Even parallel requests > 32, its throuput can also increase a little. ",
        'reporter': 'I know my gpu mem cannot set trt-llm max_batch_size > 8, so have above results.',
        'vllm_row': '| vLLM     | 100.35637203966101 | 175.33636524799965 | 334.88131962239555 | 397.3896368771922  | 491.34020273262286 | 556.8166653073029 | 778.7324831232992 |',
    },
    engine_args='max_batch_size 8',
    args_model='llama-13B',
    args_gpu='4x 2080Ti (12G)',
    notes=('engine_args restates the build setting the reporter gives in prose ("set the max batch size to 8 when buiding"), with the '
           'flag name from the reporter\'s own later comment; the throughput table rows for TRT-LLM are cut off in the stored text, so no figure is passed'),
    leak="The reporter's plateau observation (no gain beyond 8 parallel requests), the vLLM comparison and the reporter's conclusion are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/MiaAI-Lab/DeepSeek-v4-Flash-One-DGX-Spark/issues/7', thread_type='issue',
    engine='vLLM (DeepSeek-v4-Flash kit, one DGX Spark)', engine_version='Aug 2026', gpu='DGX Spark (GB10)', model='DeepSeek-v4-Flash',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('The kit launches vLLM with MAX_NUM_SEQS=1, so concurrent requests are fully serialized: a second request waits in the queue '
                'for the whole generation of the first (minutes with max reasoning effort) before its first token.'),
    fix='Raise MAX_NUM_SEQS to 2-4 (costs ~3% of the KV pool) or ship a concurrency profile.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'MAX_NUM_SEQS=1 default: second concurrent request TTFT = full duration of the first (measured A/B, seqs=4 costs ~3% KV pool)',
        'summary': 'The stock start.sh launches vLLM with MAX_NUM_SEQS=1 ("single-request deep-context server"). Under any concurrent load this serializes completely: a second request\'s **TTFT equals the entire remaining generation time of the first request** — minutes, given the server-side defaults thinking=true / reasoning_effort=max (single-stream decode is ~8–11 tok/s, so one reasoning request can hold the only slot for minutes).',
        'table': '| direct :8888 | 49.9 s | **50.46 s** (first token exactly at R1 finish) |',
        'metrics': '- vllm:num_requests_waiting = 1–2 while running=1 → strict serialization, no batching.',
        'hist': '- Lifetime TTFT histogram after ~2 days of real use: **54/1250 requests >20 s, 38 >40 s, 8 >160 s** — every outlier is a reque',
    },
    engine_args='MAX_NUM_SEQS=1',
    observe={'ttft_p99_s': (50.46, '**50.46 s**'), 'running': (1, 'while running=1'), 'waiting': (2, 'vllm:num_requests_waiting = 1–2')},
    args_gpu='DGX Spark GB10',
    args_model='DeepSeek-v4-Flash',
    notes=('engine_args is the kit\'s default named in the issue (backticks dropped); the second request\'s 50.46 s TTFT is passed as ttft_p99_s, '
           'running=1 and the upper end of waiting=1-2 from the reporter\'s metrics line'),
    leak="The title and the reporter's explanation (full serialization, TTFT equals the first request's remaining time) and the A/B with seqs=4 are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/intel/ipex-llm/issues/11608', thread_type='issue',
    engine='Ollama (ipex-llm build) on Intel iGPU', engine_version='Jul 2024', gpu='Intel iGPU', model=None,
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('Ollama unloads the model from GPU memory after 5 minutes idle by default, so the first question after a pause waited 20-30 s '
                'while the model was reloaded onto the iGPU.'),
    fix='Set OLLAMA_KEEP_ALIVE=-1 to keep the model loaded (verified by the customer).',
    confidence='maintainer_explained',
    evidence={
        'title': 'gpu第一次以及放久了为什么每次询问都要初始化，影响返回值速度',
        'desc': 'gpu第一或者放5分钟以上，必现，用ollama问个问题，要等30多秒或20多秒才会答复，一旦又答复了以后，再进行问答，答复就很快，但是放个5分钟以上，再重新问，就要等20多秒或30多秒',
        'cpu': 'cpu很均衡，都是5，6秒就答复上来了',
        'maintainer': 'Ollama will unload model from gpu memory in every 5 minutes as default.',
        'fix': 'For latest version of ollama, you could set OLLAMA_KEEP_ALIVE=-1 to keep the model loaded in memory.',
        'verified': 'The customer has verified that ”set OLLAMA_KEEP_ALIVE=-1“ was OK',
    },
    observe={'ttft_p50_s': (30, '要等30多秒')},
    args_gpu='Intel iGPU',
    notes='the only machine input is the first-answer wait the reporter gives ("30多秒", 30-odd seconds) passed as ttft_p50_s; no log or settings are quoted as text (screenshots only)',
    leak="The maintainer's explanation (5-minute default unload) and the OLLAMA_KEEP_ALIVE fix are left out; the reporter's 5-minute idle pattern is in prose only.",
    hard='Only a first-token wait; the idle-gap pattern that points at model unloading is not in the machine inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/9753', thread_type='issue',
    engine='Ollama (Windows/Linux desktop)', engine_version='Mar 2025', gpu='NVIDIA RTX A5000 24GB', model='llama 3.3 70B-q4_K_M',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('llama 3.3 70B q4_K_M needs about 53 GB, but the A5000 has 24 GB, so most layers were placed in system RAM and ran on the CPU; '
                'GPU utilization sat near 2% and an answer took ~10 minutes.'),
    fix='Use a smaller model or quantization that fits in 24 GB (or more VRAM).',
    confidence='plausible',
    evidence={
        'title': "Ollama's output speed is too slow compared to the GPU specifications.",
        'desc': 'When I load a model from Ollama and run it on my computer, the GPU does not increase, but only the VRAM increases. When I ask a question, the GPU usage increases for a moment, so it seems that the calculation is finished at that moment. However, after that, the GPU usage is always around 2%, and only the VRAM and RAM memory are full, so it takes 10 minutes to generate the answer.',
        'spec': ['CPU : Intel i9-10920X 3.5GHZ', 'RAM : 32GB * 2', 'GPU: NVIDIA RTX A5000 24GB', 'model : llama 3.3 70B-q4_K_M '],
        'commenter': "for LLaMA 3.3 70B-Q4_K_M, you need 53GB of VRAM. Since your GPU only has 24GB, it's also using system RAM, and as a result, you're likely relying more on CPU than GPU. If you want to achieve optimal performance, I suggest trying smaller models.",
    },
    observe={'gpu_util': (0.02, 'the GPU usage is always around 2%')},
    args_model='llama 3.3 70B-q4_K_M',
    args_gpu='NVIDIA RTX A5000 24GB',
    notes='the reporter\'s GPU usage (~2%) is passed as gpu_util (percent -> fraction); model and GPU from the reporter\'s spec list; no log is quoted',
    leak="The commenter's size arithmetic (53 GB needed vs 24 GB) is left out.",
    hard='Explained by a commenter, not a maintainer (plausible); the only clue is the model size against the GPU size.'))

I.append(dict(
    src='https://github.com/KLL535/ComfyUI_Simple_Qwen3-VL-gguf/issues/49', thread_type='issue',
    engine='ComfyUI_Simple_Qwen3-VL-gguf (llama.cpp GGUF backend)', engine_version='Sep 2026', gpu=None, model='Qwen3-VL GGUF',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('Raising n_ctx from 16384 to 24576 pre-allocated a larger KV cache that no longer fit in VRAM, so part of it moved to system RAM '
                'and generation dropped from 16 to 5 tok/s even though the prompt used less than 16k tokens.'),
    fix='Choose an n_ctx that fits the GPU (the smaller value), or quantize the KV cache.',
    confidence='maintainer_explained',
    evidence={
        'desc': "Hello, I wonder if this is a normal behaviour or bug. When I set n_ctx from 16384 to 24576, with identical inputs and seed, LLM Inference (SQVLM) outputs identical results but in triple the time. Shoudn't n_ctx be the maximum allowable value only? If less than 16384 tokens have been used in both runs, should n_ctx not affect the time (16 tok/sec vs 5 tok/sec)? Thanks.",
        'maintainer': 'The slowdown you are experiencing is likely caused by VRAM exhaustion and the subsequent offloading of some data to standard system RAM.',
        'maintainer2': 'In this situation, the system begins moving the KV cache into system RAM. Accessing system RAM is significantly slower than accessing VRAM, which easily explains a threefold (or greater) drop in speed.',
    },
    engine_args='n_ctx 24576',
    observe={'output_tokens_per_s': (5, '5 tok/sec'), 'expected_output_tokens_per_s': (16, '16 tok/sec')},
    notes='engine_args restates the reporter\'s new n_ctx value; the two rates of the reporter\'s own A/B are passed as output / expected tok/s',
    leak="The maintainer's explanation (VRAM exhaustion, KV cache moved to system RAM) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/14022', thread_type='issue',
    engine='vLLM (offline/server, n=10 sampling)', engine_version='Mar 2025', gpu=None, model='DeepSeek-R1-Distill-Llama-8B',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('With n=10 parallel samples per prompt, the default max_num_seqs of 256 capped the running batch, so the GPU stayed at about '
                '40% utilization; raising max_num_seqs (to 600) increased throughput.'),
    fix='Raise max_num_seqs (e.g. 600), watching for preemption.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Usage]: Low GPU utilization when running Deepseek-r1-distill-llama-8B',
        'c1': 'Thanks for your response. I set enforce_eager=False and disable_custom_all_reduce=False, but the gpu utilization does not grow obviously. I also tried tp=4 and tp=2, and the gpu utilization goes up to around 40%. I think it is still very low.',
        'maintainer': 'Are you passing prompts one at a time or are you passing them in batches?',
        'reporter': 'Based on the logs, I find the default value of max_num_seqs is 256. The throughput will be higher with larger max_num_seqs. However, setting it too high can increase the probability of preemption, which may negatively impact performance. So max_num_seqs=600 might be a suitable balance.',
        'n': 'VLLM_USE_V1=1 is not compatible with n=10 as reported in',
    },
    engine_args='enforce_eager=False disable_custom_all_reduce=False',
    observe={'gpu_util': (0.4, 'the gpu utilization goes up to around 40%')},
    args_model='DeepSeek-R1-Distill-Llama-8B',
    notes='engine_args are the settings the reporter names in the first comment (TP 2/4 tried); GPU utilization ~40% passed as gpu_util; the server log is not quoted as text',
    leak="The reporter's finding (default max_num_seqs 256 caps the batch; higher is faster), the n=10 remark and max_num_seqs=600 are left out.",
    hard='Only a utilization figure and unrelated flags; the n=10 sampling that multiplies sequences per prompt is not in the inputs.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/11681', thread_type='issue',
    engine='llama-server (llama.cpp 4621)', engine_version='4621 (6eecde3c)', gpu=None, model='DeepSeek-V3 Q2_K_XS',
    symptom='other', layer='scheduling_capacity',
    root_cause=('llama-server divides --ctx-size among the --parallel slots, so with --parallel 6 each slot got one sixth of the context '
                '(the model\'s full context when --ctx-size 0), far less per request than expected.'),
    fix='Set --ctx-size to the per-slot context times the number of slots, or use fewer slots (or a unified KV cache).',
    confidence='plausible',
    evidence={
        'title': 'Misc. bug: llama-server --ctx-size is divided by --parallel and cannot be increased?',
        'cmd': ['./llama-server \\', '    --model models/deepseek-v3-q2_k_xs-00001-of-00005.gguf --alias full \\', '    --host 0.0.0.0 \\',
                '    --port 55055 \\', '    --ctx-size 0 \\', '    --cache-type-k q5_0 \\', '    --slot-save-path "saved_slots.kvc" \\',
                '    --threads 94 \\', '    --threads-http 12 \\', '    --parallel 6 \\', '    --mirostat 2 \\', '    --mirostat-ent 5.7 \\',
                '    --mirostat-lr 0.14'],
        'desc': 'Context size is being divided by number of parallel inferences allowed to run on llama-server. This does not make sense. Attempting to rectify it by increasing --ctx-size to compensate for this results in an assertion fail. In order to not break previous behavior, I suggest adding a new command line argument --ctz-size-per-seq to override this behavior.',
        'pr_17767': 'When using --parallel N, the --ctx-size value is the **total** context divided among all slots, not the per-slot context. This is a common source of confusion (see #11681, #5732).',
    },
    engine_args='./llama-server --model models/deepseek-v3-q2_k_xs-00001-of-00005.gguf --alias full --host 0.0.0.0 --port 55055 --ctx-size 0 --cache-type-k q5_0 --slot-save-path "saved_slots.kvc" --threads 94 --threads-http 12 --parallel 6 --mirostat 2 --mirostat-ent 5.7 --mirostat-lr 0.14',
    args_model='deepseek-v3-q2_k_xs',
    notes='engine_args joins the reporter\'s command lines (line continuations dropped); the symptom (per-request context smaller than expected) has no figure in the stored text, so it is other',
    leak="The reporter's statement that the context is divided by --parallel and the docs PR #17767 explanation are left out.",
    hard='Only the launch command; no per-slot n_ctx line or error is in the stored excerpt, and the explanation comes from a closed docs PR (plausible).'))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/rammsguns/llm-rig/issues/100', thread_type='issue',
    engine='llama.cpp llama-server (llm-rig scripts)', engine_version='Aug 2026', gpu='NVIDIA RTX A4000 (16 GB)', model='Qwen3.8-27B-UD-Q3_K_XL.gguf',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The single RTX A4000 was airflow/thermally constrained: heat-soaked, the clock fell to 375 MHz minimum / 628 MHz sustained even '
                'at a 100 W cap, so every tested power limit was a throttled operating point and throughput dropped.'),
    fix='Improve airflow/cooling; verify the applied power limit (read it back) and report requested vs effective cap.',
    confidence='confirmed_by_reporter',
    evidence={
        'summary': 'On a single-GPU RTX A4000 system, the heat-soaked Qwen benchmark shows that **all tested power limits are airflow/thermal constrained**. Reducing the cap lowers throughput and clocks but does not provide sufficient thermal headroom: at 100 W the current threshold-based report says hot, while the heat-soaked clock falls to 375 MHz minimum / 628 MHz sustained. That is still a throttled operating point in practice.',
        'env': ['| GPU | NVIDIA RTX A4000 ×1 (16,376 MiB installed; 15,957 MiB free/usable before model load) |',
                '| Model | Qwen3.8-27B-UD-Q3_K_XL.gguf (27.32B params, 12.23 GiB) |',
                '| Execution | CUDA, -ngl 999, q8_0 K/V cache, Flash Attention enabled |', '| Context | 65,536 tokens |'],
    },
    engine_args='-ngl 999, q8_0 K/V cache, Flash Attention enabled, 65,536-token context',
    observe={'sm_clock_mhz': (628, '628 MHz sustained'), 'power_limit_w': (100, 'at 100 W')},
    args_model='Qwen3.8-27B-UD-Q3_K_XL.gguf',
    args_gpu='NVIDIA RTX A4000 16 GB',
    notes='engine_args joins the execution and context rows of the reporter\'s environment table (backticks dropped); the sustained heat-soaked clock and the 100 W cap are passed as sm_clock_mhz / power_limit_w; no max clock is quoted',
    leak="The reporter's conclusion (all power limits airflow/thermal constrained) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/chatchat-space/Langchain-Chatchat/issues/1526', thread_type='issue',
    engine='Langchain-Chatchat v0.2.4 (local model worker)', engine_version='0.2.4', gpu='multi-GPU server', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('CUDA_VISIBLE_DEVICES=5 named a device index that was not the intended card in the available-device order (it should have been 2), '
                'so the model worker ran on the CPU and answers were very slow.'),
    fix='Use the correct device index (CUDA_VISIBLE_DEVICES=2 in this machine\'s ordering).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'v0.2.4版本，执行CUDA_VISIBLE_DEVICES=5 python startup.py -a，发现回答非常慢，查看日志发现使用的是CPU',
        'fix': '问题已经解决，虽然表面的编号是5，但实际上按可用的顺序来看，为2。',
        'fix2': 'CUDA_VISIBLE_DEVICES=2 python startup.py -a 问题解决',
    },
    engine_args='CUDA_VISIBLE_DEVICES=5 python startup.py -a',
    notes='engine_args is the launch command from the title; the reporter\'s remark that the log showed the CPU being used is prose (no log line quoted), so it is not passed',
    leak="The reporter's resolution (index 5 is really 2 in the available order; CUDA_VISIBLE_DEVICES=2 fixed it) is left out.",
    hard='Only the launch command; the CPU fallback is known only from the reporter\'s prose.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/1863', thread_type='issue',
    engine='vLLM / Ollama in a Proxmox VM (NVIDIA vGPU)', engine_version='May 2024', gpu='Tesla P40 (vGPU, Proxmox VM)', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The VM used an NVIDIA vGPU without an acquired license; after a while the driver degraded the unlicensed vGPU, so generation fell '
                'from ~15 tokens/s to 0.1 tokens/s mid-request, in vLLM and Ollama alike.'),
    fix='Acquire/configure the vGPU license.',
    confidence='plausible',
    evidence={
        'title': 'Ollama stuck after few runs',
        'c1': 'I\'m seeing the same issues with vLLM which indicates a problem with some underlying libraries, e.g. torch or maybe something CUDA. What is fascinating is, that this has apparently nothing to do with time between requests or even "going into sleep mode" since I managed to perform a query to vLLM which was working perfectly with around 15 tokens per second and then slowed to a crawl with 0.1 tokens per second. So even while the generation is running this stuff happens.',
        'c2': 'I have resolved my issue. It had nothing todo with ollama, vllm, or any other part of the software stack. It was a LICENSING  issue. I simply forgot to aquire a license for the vGPU the VM was using. So after a while the nvidia driver degraded the performance of the vGPU to become basically unusable.',
        'c3': "@mchiang0610 I'm unsure what you mean bei VM provider, but I'm running a homelab with PROXMOX as the VM host and Tesla P40. The guest is a Debian 12 instance.",
    },
    observe={'output_tokens_per_s': (0.1, '0.1 tokens per second'), 'expected_output_tokens_per_s': (15, 'around 15 tokens per second')},
    args_gpu='Tesla P40 (Proxmox VM guest)',
    notes='the case is one commenter\'s (jak4) report inside the thread, not the thread opener\'s; the before/after rates are passed as expected / output tok/s; no log is quoted',
    leak="The commenter's resolution (unlicensed vGPU degraded by the driver) is left out; the GPU field does not say vGPU.",
    hard='The cause is a commenter\'s own report in someone else\'s thread (plausible); nothing in the inputs names the vGPU licensing.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/1656', thread_type='issue',
    engine='Ollama (Linux, RTX 3090 + RTX 2060)', engine_version='Dec 2023', gpu='RTX 3090 + RTX 2060', model='solar:q4_0',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Ollama split the model across an RTX 3090 and a much slower RTX 2060; cross-card communication and the weaker card held generation '
                'to 31.5 t/s, while the 3090 alone (CUDA_VISIBLE_DEVICES=0) ran at 79-81 t/s.'),
    fix='Restrict Ollama to the fast GPU when the model fits (CUDA_VISIBLE_DEVICES=0; later OLLAMA_SCHED_SPREAD=0 behaviour).',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': 'I have two GPUs: an RTX 3090 and a 2060. ollama tries to split the load among both, but due to communication speed between the cards being significantly slower than within a GPU, this is counterproductive. Would be great to prioritize using the first GPU only, if it alone has enough VRAM to fit the model.',
        'results': ['Model: solar:q4_0', '- RTX 3090 alone:', '  - 350 W: 81 t/s', '  - 280W: 79 t/s',
                    '- RTX 3090 (280/350 W) and RTX 2060 (128/160 W):', '  - 31.5 t/s'],
        'method': 'To do the test I just changed the value of CUDA_VISIBLE_DEVICES  from 0,1 to 0.',
    },
    observe={'output_tokens_per_s': (31.5, '  - 31.5 t/s')},
    args_model='solar:q4_0',
    args_gpu='RTX 3090 + RTX 2060',
    notes='the two-GPU rate is passed as output_tokens_per_s; the GPU field names both cards; no log is quoted',
    leak="The single-GPU A/B (79-81 t/s on the 3090 alone) and the reporter's explanation are left out.",
    hard='Splitting layers over two cards could also be read as offload placement (scheduling_capacity); the clue is only the mixed GPU pair.'))

I.append(dict(
    src='https://github.com/noonghunna/club-3090/issues/585', thread_type='issue',
    engine='vLLM (club-3090 kit, 2x RTX 3090)', engine_version='v0.24.0 kit (Jul 2026)', gpu='2x RTX 3090 (power-capped 250 W)', model='kit model (262K-context recipe)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The cards were power-capped at 250 W (reference rig 370 W), which made decode and prefill a uniform ~0.90x of the baseline at every '
                'context depth; the remaining decay with context was normal scaling.'),
    fix='Raise the power limit (nvidia-smi -pl 350) while watching temperatures.',
    confidence='maintainer_explained',
    evidence={
        'title': '[bug] degrading tps beyond 100k context',
        'table': ['| | you (250 W) | us (370 W) |', '| decode narr / code | 76 / 95 | 83 / 108 |', '| prefill @240K | 421 t/s | 463 t/s |'],
        'maintainer': "You're a uniform **~0.90× of our baseline across the board** — decode *and* prefill at every depth — which is the clean signature of one thing: your cards are still capped at **250 W** vs our 370 W. It's a ~10% dial, not a fault:",
        'cmd': 'sudo nvidia-smi -pl 350   # watch temps — you ran hot at 250W',
        'resolved': "Resolved: on v0.24.0, jesse's rig is a uniform ~0.90× of the reference baseline (his 250 W power cap vs 370 W), ceiling fixed (214K → 240K), context-decay shape matches ours. No config fault —",
    },
    observe={'output_tokens_per_s': (76, '| decode narr / code | 76 / 95 |'), 'power_limit_w': (250, 'you (250 W)')},
    args_gpu='2x RTX 3090',
    notes='the reporter\'s narrative decode rate and his power cap are read from the maintainer\'s comparison table (the reporter\'s own numbers); the reference rig column is left out',
    leak="The maintainer's reading (uniform 0.90x = the 250 W cap), the 370 W reference and the nvidia-smi -pl fix are left out.",
    hard='The reporter complained about TPS decaying with context, which the maintainer called normal scaling (plus an old image); the power cap explains only the uniform 10% offset.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/4238', thread_type='issue',
    engine='vLLM (tensor parallel, 2 GPUs)', engine_version='Apr 2024', gpu='2 GPUs on a PCIe board without a common bridge', model='Mistral 7B',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The GPU-GPU traffic of tensor parallelism went through the CPU (each PCIe slot attached directly to the CPU, no common bridge, no '
                'NVLink), so the interconnect was the bottleneck and both GPUs sat at ~50% with no gain over one GPU.'),
    fix='Use a single GPU (or data parallel) for a 7B model, or a board/NVLink with a direct GPU-GPU path.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug]: Performance of VLLM - GPU utilization - Mistral 7B',
        'c1': 'Why is GPU underutilized... If it is just using 50% of both GPUs, then why it dosent use 100% of 1 GPU when launched with single GPU?',
        'maintainer': "Your GPU interconnect is slow. That's why you don't see benefit with tensor parallel.",
        'reporter': 'Ideally, in absense of NvLink, the GPU-GPU communication should happen through PCIe. But in this case, its happening through CPU, which is the bottleneck here.',
        'reporter2': 'Upon checking the PCIe topology of our Motherboard, looks like the issue lies there. Each PCIe is directly connected to CPU only... There is no common bridge.',
    },
    observe={'gpu_util': (0.5, 'using 50% of both GPUs')},
    args_model='Mistral 7B',
    args_gpu='2 GPUs',
    notes='the reporter\'s 50% utilization of both GPUs is passed as gpu_util; the issue description with the launch command is not in the stored excerpt',
    leak="The maintainer's answer (slow interconnect) and the reporter's PCIe topology finding are left out.",
    hard='Only a utilization figure and a two-GPU setup; no topology or NCCL line is in the inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8772', thread_type='issue',
    engine='Ollama (Linux service, AMD RX 6750)', engine_version='Feb 2025', gpu='AMD Radeon RX 6750 (gfx1031)', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The RX 6750 is gfx1031, which the bundled ROCm libraries do not support, and the HSA_OVERRIDE_GFX_VERSION override was not in effect '
                'for the service, so Ollama found no compatible GPU and ran on the CPU.'),
    fix='Apply HSA_OVERRIDE_GFX_VERSION=10.3.0 to the service environment correctly (gfx1030 path) and restart.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'ollama run on AMD 6750 GPU. (solved)',
        'desc': '1.modify the Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0", and restart ollama service, pop out warning .',
        'desc2': "try run ollama, found it's still running on CPU.",
        'log': ['2月 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 level=WARN source=amd_linux.go:378 msg="amdgpu is not supported (supported types:[gfx1030 gfx1100 gfx1101 gfx1102 gfx900 gfx906 gfx908 gfx90a gfx940 gfx941 gfx942])" gpu_type=gfx1031 gpu=0 library=/usr/local/lib/ollama',
                '2月 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 level=INFO source=amd_linux.go:404 msg="no compatible amdgpu devices detected"',
                '2月 02 19:28:37 lichao ollama[20609]: time=2025-02-02T19:28:37.628+08:00 level=INFO source=gpu.go:392 msg="no compatible GPUs were discovered"'],
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args='Environment="HSA_OVERRIDE_GFX_VERSION=10.3.0"',
    args_gpu='AMD RX 6750',
    notes='three lines of the reporter\'s journal are passed as log; engine_args is the service setting the reporter made; the symptom (slow, on CPU) has no figure',
    leak="Nothing beyond the reporter's own text; the thread title says solved but the stored text does not show the final step, so the fix is inferred from the log.",
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/3096', thread_type='issue',
    engine='vLLM (benchmark_serving.py, 2x RTX 3090)', engine_version='Mar 2024', gpu='2x RTX 3090', model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('The benchmark offered requests far faster than the node could serve (about 2.3-2.5 req/s on two 3090s): with 1k requests sent '
                'almost at once, pending requests just waited their turn, so TTFT grew with the request rate while throughput stayed flat.'),
    fix='Keep the offered request rate at or below the node\'s capacity (request-rate=3 here) and add nodes for more load.',
    confidence='plausible',
    evidence={
        'title': 'critical slowness to reach first token as concurrency grows -- balance fairness vs. throughput?',
        'c1': '@pseudotensor added request-rate=3 which is the maximum that can handle my 2 RTX 3090.',
        'c2': '- The benchmark sends 1k requests and --request-rate just controls how rapidly we send that payload.',
        'c3': "- So all pending requests just waiting their turn. That shows increasing TTFT when --request-rate gets increased. If we send 1k requests almost instantly (--request-rate=200) and process it with 2.3 req/sec it's gives a total time ~434sec(same order as TTFT). ",
        'c4': '- Just to sum up: If a vLLM node chews requests with a speed 2.5 req/s we should just control that chewing speed stays consistent throughout all possible working scenarios.  And spawn extra nodes to catch up with incoming load.',
        'smi': 'I see some time that GPU is underloaded.',
    },
    engine_args='--request-rate=200 (benchmark_serving.py, 1k requests)',
    observe={'request_rate': (200, '(--request-rate=200)')},
    args_gpu='2x RTX 3090',
    notes='engine_args and request_rate are the benchmark client settings named in the comment (a stray backtick and the markdown backticks dropped); the 2.3 req/s service rate is not passed',
    leak="The commenter's explanation (pending requests wait their turn; node serves ~2.3-2.5 req/s) and the ~434 s total are left out.",
    hard='Explained by a collaborator\'s comment, not a maintainer (plausible); no TTFT figure or server metrics in the inputs.'))

I.append(dict(
    src='https://github.com/NVIDIA-AI-Blueprints/vulnerability-analysis/pull/79', thread_type='pr',
    engine='NVIDIA vulnerability-analysis blueprint (agent pipeline) -> NGC-hosted LLM', engine_version='Feb 2025', gpu=None, model=None,
    symptom='other', layer='load',
    root_cause=('The agent pipeline fired all its LLM calls concurrently with no limit, exceeding the hosted NGC endpoint\'s request budget and '
                'drawing 429 Too Many Requests errors.'),
    fix='Cap agent LLM call concurrency with a max_concurrency option (asyncio.Semaphore).',
    confidence='maintainer_explained',
    evidence={
        'desc': 'Add max_concurrency configuration option to limit agent llm call concurrency using asyncio.Semaphore. This helps mitigate 429 Too Many Requests errors from NGC.',
        'runtime': ['max_concurrency = null', '> Finished chain.', 'Message elapsed time: 58.735384 sec', '====Pipeline Complete====',
                    'Total time: 114.64 sec', 'Pipeline runtime: 104.72 sec'],
    },
    log=['429 Too Many Requests', ('runtime', 2), ('runtime', 4)],
    notes='the error name is passed as a log line (no full client traceback is stored) with two lines of the unthrottled run\'s output',
    leak="The PR's remedy (limit agent concurrency with a semaphore) and the max_concurrency=1/5 runs are left out.",
    hard='Only the 429 error name; an upstream rate limit could also be read as a gateway problem.'))

I.append(dict(
    src='https://github.com/laurigates/claude-plugins/issues/1490', thread_type='issue',
    engine='Claude Code agent fan-out (Workflow tool) -> Anthropic API', engine_version='Jun 2026', gpu=None, model='Opus',
    symptom='other', layer='load',
    root_cause=('A fan-out of 7 concurrent Opus agents tripped Anthropic\'s server-side request rate limiting, killing all 7 within ~26 s; re-running '
                'as sequential waves of 2 agents succeeded.'),
    fix='Start with conservative concurrency (2-3 agents) and back off and retry on the rate-limit signal.',
    confidence='confirmed_by_reporter',
    evidence={
        'evidence': 'This session: a Workflow fan-out of **7 concurrent Opus, worktree-isolated agents** was killed instantly — API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited, 0 subagent tokens, all 7 marked failed within ~26s. Re-running throttled to **4 sequential waves of 2 agents** (and on Sonnet) succeeded.',
        'note': 'User note: this rate limit has been more aggressive than usual for the past couple of days, specifically around **midday Helsinki time**; they have previously run 10 parallel agents without issue. So the right level isn\'t a fixed number — it\'s "start conservative, back off on the rate-limit signal."',
    },
    log=['API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited'],
    observe={'error_rate': (1.0, 'all 7 marked failed')},
    args_model='Opus',
    notes='the client error is passed as log (backticks dropped); all 7 agents failing is passed as error_rate 1.0',
    leak="The successful re-run (4 waves of 2 agents) and the reporter's time-of-day note are left out.",
    hard='Provider-side rate limiting could also be read as a gateway/provider problem; the fan-out size is in prose only.'))

I.append(dict(
    src='https://github.com/amd/gaia/issues/719', thread_type='issue',
    engine='AMD GAIA ChatAgent -> Lemonade server (Vulkan iGPU)', engine_version='Apr 2026', gpu='Radeon 890M iGPU (Vulkan, shared RAM)', model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('Every request carried a ~7,400-token ChatAgent system prompt (duplicated rules and examples), which at the iGPU\'s ~33 ms/token '
                'prefill meant a 249 s cold warmup and ~21 s first-message TTFT even with prompt cache.'),
    fix='Trim the system prompt to ~4,000 tokens (dedupe rules, fewer examples, gate sections on registered tools).',
    confidence='maintainer_explained',
    evidence={
        'problem': 'The ChatAgent system prompt is ~7,400 tokens in the no-docs path. On a Vulkan iGPU (Radeon 890M, shared RAM), prefill runs at ~33ms/token, making the boot-time warmup take **249 seconds** and first-message TTFT **~21 seconds** even with prompt cache.',
        'telemetry': ['prompt_tokens: 7397', 'time_to_first_token: 249.357s  (cold)', 'time_to_first_token: 21.3s     (warm, 516 new tokens after cache hit)'],
        'root': 'The system prompt has verbose duplicate rules and excessive examples:',
    },
    log=[('telemetry', 0), ('telemetry', 1), ('telemetry', 2)],
    observe={'input_len_mean': (7397, 'prompt_tokens: 7397'), 'ttft_p50_s': (21.3, 'time_to_first_token: 21.3s')},
    args_gpu='Radeon 890M iGPU',
    notes='the three Lemonade telemetry lines are passed as log; prompt_tokens as input_len_mean and the warm TTFT as ttft_p50_s',
    leak="The issue's root-cause breakdown (duplicate rules, examples, tool descriptions) and the ~33 ms/token prefill figure are left out.",
    hard='The slow iGPU prefill could also be read as operator_hardware; the prompt size is the only request-side clue.'))

I.append(dict(
    src='https://github.com/rohitg00/pro-workflow/issues/94', thread_type='issue',
    engine='llm-council (Node) -> NVIDIA NIM free / OpenRouter :free (OpenAI-compatible)', engine_version='Jul 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='load',
    root_cause=('The council fired all model calls of a phase concurrently (Promise.allSettled); the free-tier endpoints allow one concurrent request '
                'per key, so the second and third calls were dropped (ETIMEDOUT) or rate-limited (429).'),
    fix='Add a --sequential mode (or reduce to 2 models / use keys with higher concurrency limits).',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': 'Council runs Phase 1 and Phase 2 model calls concurrently via Promise.allSettled. On free-tier endpoints with strict concurrent-request limits (NVIDIA NIM free: 1 concurrent per API key, OpenRouter :free under load), this causes:',
        'errors': ['- **ETIMEDOUT**: TLS socket destroyed because the upstream rejects/drops the second request',
                   '- **429 Too Many Requests**: rate-limit triggered by concurrent calls'],
        'code': 'const phase1Settled = await Promise.allSettled(models.map(m => provider.call(provider, m, sysIndep, query)));',
        'repro': '# On NIM free with 3 models — 2nd/3rd calls hit ETIMEDOUT',
    },
    log=['ETIMEDOUT', '429 Too Many Requests'],
    notes='the two error names are passed as log (no full client output is stored); no figures',
    leak="The reporter's explanation (concurrent calls vs 1-concurrent-per-key free tier) and the --sequential proposal are left out.",
    hard='Only two error names; a per-key concurrency limit at the provider could also be read as gateway_client.'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/3063', thread_type='issue',
    engine='vLLM OpenAI server', engine_version='Feb 2024', gpu=None, model='facebook/opt-125m (also mistral-7B, codellama-13B)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('A temperature between about 1e-5 and 1e-4 is above vLLM\'s _SAMPLING_EPS, so it is treated as random sampling with a near-zero '
                'temperature; dividing the logits by it breaks sampling and every model emits only <s> / whitespace (1e-3 and 1e-6 work).'),
    fix='Use temperature 0 for greedy decoding (or a normal value); vLLM raised/clamped the epsilon handling.',
    confidence='maintainer_explained',
    evidence={
        'desc': 'Setting the temperature in a particular range causes vllm to generate whitespace-only outputs. Values above/below this range work correctly. I have seen this with facebook/opt-125m, fine-tuned mistral-7B models, codellama-13B, and several other models. It seems like this is an issue with vllm rather than the particular model:',
        'cmd': 'python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m',
        'request': ['"max_tokens": 7,', '"temperature": <temperature>'],
        'results': ['1e-3: Generates " great place to live.  I"', '1e-4: Generates "\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>"',
                    '1e-5: Generates "\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>"', '1e-6: Generates " great place to live.  I"'],
        'maintainer': 'The reason it starts working again at 1e-6 is because it is less than _SAMPLING_EPS:',
        'maintainer2': 'This kind of indicates that _SAMPLING_EPS is too small?',
    },
    log=[('results', 1)],
    outputs=['\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>\\<s>'],
    engine_args='python -m vllm.entrypoints.openai.api_server --model facebook/opt-125m',
    args_model='facebook/opt-125m',
    notes='the reporter\'s 1e-4 result line is passed as log and its output as the sample (the markdown escapes before <s> are verbatim; backticks around 1e-4 dropped); the other temperatures of the reporter\'s sweep are not passed',
    leak="The working temperatures (1e-3, 1e-6) of the reporter's sweep and the maintainer's _SAMPLING_EPS explanation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/7015', thread_type='issue',
    engine='vLLM OpenAI server', engine_version='Aug 2024', gpu=None, model='llama3 / llama3.1-8b',
    symptom='output_quality', layer='numeric_parameter',
    root_cause='The request used max_tokens 256, so responses stopped at 256 tokens with finish_reason "length" and looked truncated.',
    fix='Raise max_tokens in the request.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug]: [Bug]: vllm llama3/3.1-8b response is cut',
        'desc': 'When calling llama3 using vllm message is always truncated',
        'desc2': "I have tried to play with different parameters but couldn't found any way to solve this issue.",
        'maintainer': 'Hi @mk-docenty, according to your screen shot, your response is truncated because of the length ("finish_reason": "length"). Please increase max_tokens from 256 (current) to a higher value as @jaymz1439 suggested.',
        'reporter': 'problem is when I set max_tokens = any_size. then response is that much size instead of message context. so max_tokens are never enough',
    },
    log=['"finish_reason": "length"'],
    observe={'output_len_mean': (256, 'max_tokens from 256 (current)')},
    args_model='llama3.1-8b',
    notes='the response fields were in the reporter\'s screenshot; the stored text quotes them only in the maintainer\'s reply, from which finish_reason and the 256-token length are taken (output length = the max_tokens cap it hit)',
    leak="The maintainer's explanation (truncated by max_tokens 256, raise it) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/1154', thread_type='issue',
    engine='llama-cpp-python 0.2.38', engine_version='0.2.38', gpu=None, model=None,
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('In 0.2.38, top_k=0 no longer meant "disabled", so the sampler kept a single candidate and every run produced the same token '
                'sequence despite temperature 1.19 and seed -1 (0.2.37 behaved as before).'),
    fix='Stop passing top_k=0 (use a large top_k or -1), or stay on 0.2.37 until the sampler is fixed.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[0.2.38] Models always produce the same output when setting top_k to 0, still using min_p',
        'desc': 'So I just installed the latest release and immediately realized that it always produces the same token sequence (meaning the same answer for the same question etc.). Tested multiple models, all the same. **Switching back to 0.2.37 fixes the issue.** Reinstalling 0.2.38 makes the issue reappear.',
        'params': ['temperature 1.19', 'repeat_penalty 1.0', 'min_p 0.02', 'top_p 1.0 (disabled)', 'top-k 0 (disabled)'],
        'seed': 'Thanks for asking. For the seed I use -1. The issue only occurs in version 0.2.38, not earlier.',
        'found': "Alright, I found the devil. It's about the top_k parameter. Something must have changed. Setting it to 0 to disable it, seems to be an issue all of a sudden.",
        'maintainer': 'Hey @m-from-space could be a bug, here is the sample method',
    },
    engine_args='temperature 1.19 repeat_penalty 1.0 min_p 0.02 top_p 1.0 (disabled) top-k 0 (disabled)',
    notes='engine_args joins the reporter\'s sampling parameter list; the symptom (identical output every run) has no text sample in the stored thread',
    leak="The title (which names top_k 0), the reporter's finding and the 0.2.37/0.2.38 A/B are left out.",
    hard='Only the parameter list; nothing in the inputs says the output repeats across runs or that the version changed.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/2668', thread_type='issue',
    engine='vLLM OpenAI server', engine_version='Jan 2024', gpu=None, model='Mixtral AWQ',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('max_tokens was set as a server argument instead of in the request, so requests ran with the small per-request default and '
                'responses were cut short with finish_reason "length".'),
    fix='Pass max_tokens in each request body.',
    confidence='plausible',
    evidence={
        'title': 'Mixtral AWQ result cut short',
        'desc': "Whenever I use vLLM with Mixtral AWQ I am finding that the response gets cut short with **'finish_reason': 'length'** ",
        'desc2': 'Even though I have set high values for **--max_tokens** and **--max-model-len**',
        'maintainer': "Where are you setting max_tokens? It should be part of your request but, the way you describe it, it sounds like you're passing it as an argument to the server.",
    },
    log=["'finish_reason': 'length'"],
    engine_args='--max_tokens --max-model-len (set to high values)',
    args_model='Mixtral AWQ',
    notes='the finish_reason the reporter quotes is passed as log; engine_args names the two server flags the reporter set (values not given)',
    leak="The maintainer's question/explanation (max_tokens belongs in the request) is left out.",
    hard='The maintainer\'s reading was not confirmed by the reporter in the stored text (plausible).'))

I.append(dict(
    src='https://github.com/Blaizzy/mlx-vlm/pull/1496', thread_type='pr',
    engine='mlx-vlm (Apple MLX)', engine_version='Jul 2026', gpu='Apple silicon', model='Phi-3.5',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('On load, mlx-vlm replaced the model\'s three stop tokens with the single eos value from generation_config.json, a token Phi-3.5 never '
                'emits, so generation never stopped and printed <|end|><|endoftext|>... until the token limit.'),
    fix='Merge the generation_config eos id into the existing stop tokens instead of overwriting them (fixed by #1501).',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': "For Phi-3.5, after a prompt, and response i'd keep printing <|end|><|endoftext|><|end|><|endoftext|>... until it hit the token limit.",
        'why': 'Why: the model stops when it emits one of the stop tokens in its config. Phi-3.5 has three of them, but while loading the model we replace that list with the single value from generation_config.json, which is a token this model never emits. So nothing ever matched and generation ran until the cap.',
        'fix': 'Fix: add the value from generation_config.json to the existing stop tokens instead of replacing them. Sampling settings like temperature are untouched.',
        'result': 'All tests green and same prompt now stops ',
        'maintainer': 'Fixed by #1501',
    },
    outputs=['<|end|><|endoftext|><|end|><|endoftext|>'],
    args_model='Phi-3.5',
    notes='the repeated end-token run the PR author saw is passed as the output sample (backticks dropped); no log or settings are quoted',
    leak="The PR's explanation (stop-token list overwritten by generation_config.json) and the fix are left out.",
    hard=None))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/0xku/kon/pull/26', thread_type='pr',
    engine='kon coding agent (OpenAI SDK client) -> local llama.cpp server', engine_version='Apr 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The OpenAI SDK client used its default 600 s request timeout, so long-running requests such as context compaction on a local '
                'llama.cpp backend were cut off with "Request timed out" and there was no way to raise the limit.'),
    fix='Make the client request timeout configurable ([llm] request_timeout_seconds) and raise llama.cpp\'s --timeout too.',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': 'Add configurable HTTP request timeout for OpenAI API calls via a [llm] request_timeout_seconds config option',
        'cause': "The default OpenAI SDK's timeout is 600 s. When running on a local llama.cpp backend, long-running requests like context compaction could exceed this and fail with Compaction failed: Request timed out with no way to bump the limit.",
        'server': "In order not to run into any timeouts also set the --timeout N flag on lama.cpp's side.",
        'maintainer': "Looks fine. I'll verify and likely merge this today. Thanks for the PR",
    },
    log=['Compaction failed: Request timed out'],
    notes='the client error the PR quotes is passed as log (backticks dropped); no durations are passed',
    leak="The PR's cause (OpenAI SDK 600 s default timeout) and the config option are left out.",
    hard='Only the client error line; the 600 s SDK default is not in the inputs.'))

I.append(dict(
    src='https://github.com/simonw/llm/issues/1504', thread_type='issue',
    engine='llm CLI 0.32a3 (OpenAI Responses SDK) -> OpenAI gpt-5.5-pro', engine_version='0.32a3', gpu=None, model='gpt-5.5-pro',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The OpenAI Responses SDK client times out after 10 minutes and retries twice, so long xhigh-effort calls (max_tokens >= 25000) '
                'always failed with "Request timed out" after exactly 30 minutes.'),
    fix='Expose --timeout and --max-retries model options (a 17-minute call then succeeded with a longer timeout and no retries).',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': 'In 0.32a3, OpenAI Responses SDK times out by default after 10 minutes and retries twice, leading to 30 minutes wait before time out error for long API calls (e.g. gpt-5.5-pro xhigh with max_tokens > 25,000).',
        'template': ['model: gpt-5.5-pro', 'options:', '  reasoning_effort: xhigh', '  max_tokens: 25000'],
        'obs': 'This currently works for me with max_tokens: 12500, but 25000 and above consistently time out after what seems to be exactly 30 minutes:',
        'cmd': ['cat prompt | llm -t gpt-pro-max > out.pro', 'Error: Request timed out.'],
        'fix': 'After adding model --timeout and --max-retries options (6519b1a06a5c957c9d41de44db0e8e2d240eba1e) and changing the template to the following, I have had a successful 17 minutes command run.',
    },
    log=[('cmd', 0), ('cmd', 1)],
    engine_args='reasoning_effort: xhigh max_tokens: 25000',
    observe={'e2e_p99_s': (1800, 'exactly 30 minutes')},
    args_model='gpt-5.5-pro',
    notes='the command and its error are passed as log; engine_args joins the template options; the 30-minute failure time is passed as e2e_p99_s (minutes -> s)',
    leak="The reporter's diagnosis (10-minute SDK timeout x 3 attempts) and the --timeout/--max-retries fix are left out.",
    hard='The large max_tokens / xhigh effort in the inputs could also be read as load.'))

I.append(dict(
    src='https://github.com/artcc/freelingo/pull/339', thread_type='pr',
    engine='freelingo backend (LLM client) -> shared vLLM engine (35B model)', engine_version='Sep 2026', gpu=None, model='35B-class model',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The LLM client\'s request timeout was hardcoded at 120 seconds; lesson generation on a large local model routinely took longer, so '
                'lessons silently failed and the user saw a content-less page.'),
    fix='Make the timeout configurable (LLM_REQUEST_TIMEOUT, default 600 s).',
    confidence='confirmed_by_reporter',
    evidence={
        'what': "The LLM client's request timeout was hardcoded at 120 seconds. Lesson generation against a large local model (35B class) routinely exceeds that, so lessons silently failed to generate — the user saw a content-less page.",
        'change': '- New setting LLM_REQUEST_TIMEOUT (seconds, default 600) in app/core/config.py.',
        'verified': '- Verified on a real deployment (35B model behind a shared vLLM engine): quiz + lesson generation complete instead of timing out.',
    },
    observe={'gateway_timeout_s': (120, 'hardcoded at 120 seconds')},
    args_model='35B model behind vLLM',
    notes='the configured client timeout (120 s) is the only machine input; the failure shows as an empty page, with no log quoted',
    leak="The PR's reading (generation routinely exceeds the 120 s client timeout) and the verified fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/allenai/open-instruct/pull/1258', thread_type='pr',
    engine='open-instruct (AsyncOpenAI client) -> vLLM OpenAI server', engine_version='Dec 2025', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause='The vLLM OpenAI client was created with a 60 s timeout, so long sequence generations timed out client-side.',
    fix='Raise the client timeout to 3600 s (this PR).',
    confidence='maintainer_explained',
    evidence={
        'desc': 'Now that we go through the OpenAI client for all our inference calls, we get timeouts for long sequence generations. Whoops! This PR removes the timeout.',
        'note': '> Extends the vLLM OpenAI client timeout from 60s to 3600s during initialization to support long-running completions.',
        'change': '>   - Increase OpenAI client timeout in open_instruct/vllm_utils.py (_init_openai_client): set openai.AsyncOpenAI(..., timeout=3600) (was 60.0) to accommodate long generations.',
    },
    observe={'gateway_timeout_s': (60, '(was 60.0)')},
    notes='the configured client timeout (60 s) is the only machine input (taken from the change summary\'s "was 60.0"); no error text is quoted',
    leak="The PR's explanation and the 3600 s fix are left out.",
    hard='Only the configured timeout; no generation length or failure time is in the inputs.'))

I.append(dict(
    src='https://github.com/datarobot/datarobot-user-models/pull/1954', thread_type='pr',
    engine='DRUM chat-completion sidecar (Gunicorn + Gevent) -> NVIDIA NIM', engine_version='Mar 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Stacked client retries: the user\'s OpenAI client (120 s timeout, 2 retries) called DRUM, whose own OpenAI client (3600 s timeout, '
                '2 retries) called NIM; slow or failing requests were re-sent up to 9 times while the originals kept running, exhausting capacity (a retry storm).'),
    fix='Cut DRUM\'s chat-completion timeout to 600 s and drop its internal OpenAI retries (retry only on network errors).',
    confidence='maintainer_explained',
    evidence={
        'summary': '- Reduced timeout from 1 hour for chat completion to 10 minutes (600 seconds)',
        'problem': ['DRUM with chat completion endpoint has Retry storm problem.',
                    'The issue is more apparent in Nim deployments (Gunicorn + Gevent), especially when users explicitly set an OpenAI client timeout in their Python scripts.'],
        'client': ['The Python client calls DRUM using the OpenAI client with:', 'timeout=120s', '2 retries by default'],
        'drum': ['DRUM calls NIM using its own OpenAI client with:', 'default_timeout=3600s', '2 retries'],
        'result': 'Result: up to 9 total requests (3 × 3) reaching NIM.',
        'slow': ['The Python client times out after 120 seconds.', 'It sends a new request to DRUM.',
                 "However, the original request is still being processed by NIM (due to DRUM's 3600s timeout)."],
    },
    engine_args='client: timeout=120s, 2 retries by default; DRUM -> NIM: default_timeout=3600s, 2 retries',
    observe={'gateway_timeout_s': (120, 'timeout=120s')},
    notes='engine_args joins the two client configurations the PR lists; the user client timeout is passed as gateway_timeout_s; no log is quoted',
    leak="The PR's analysis (retry amplification up to 9 requests, originals still running) is left out.",
    hard='The symptom is capacity exhaustion from duplicated requests, which could also be read as load.'))

# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261205, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
