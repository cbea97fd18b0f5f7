#!/usr/bin/env python3
"""Build the eleventh out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh9; this file follows incidents_fresh9/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks, list bullets, quote markers and
leading indentation dropped; a few long or wrapped lines cut to a verbatim prefix/substring). Log lines and
output samples are taken from the evidence, so check.py can verify they are verbatim substrings of it.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh9/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# vLLM benchmark_serving prints `label:<40} value`; the lines below keep that fixed-width layout (value at column 42).
def bench(label, value):
    return f'{label:<40} {value}'

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/6247', thread_type='issue',
    engine='llama.cpp main (CUDA build)', engine_version='Mar 2024', gpu=None, model='qwen1_5-14b-chat-q4_0.gguf',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The model was run without -ngl, so llama.cpp offloaded 0 of the 41 layers to the GPU and ran the whole '
                '14B Q4_0 model on the CPU; the ~8 GB of weights would have fit on the GPU.'),
    fix='Pass -ngl 41 (all layers) so the layers are placed on the GPU.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'qwen1_5-14b-chat-q4_0.gguf can not run on GPU',
        'log': ['llm_load_tensors: offloading 0 repeating layers to GPU', 'llm_load_tensors: offloaded 0/41 layers to GPU'],
        'answer': 'you forgot to include -ngl xx for the number of layers to be offloaded to the gpu.',
        'answer2': ("That GGUF has 41 layers. From what i can tell, its just under 8GB, so you might be able to offload all "
                    "41 layers at 8192CTX"),
        'reporter': 'Thank you very much, you solved the problem !',
    },
    log=[('log', 0), ('log', 1)],
    notes=('the two load lines are the reporter\'s, as quoted back by the commenter who answered; the description is not in '
           'the stored excerpt, so no speed figure, command line or GPU name is available'),
    leak="The title ('can not run on GPU') and the answer (-ngl missing, all 41 layers fit in ~8 GB) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/978', thread_type='issue',
    engine='LMDeploy 0.2.0 (TurboMind pipeline)', engine_version='0.2.0', gpu='NVIDIA RTX 3090 (24 GB)',
    model='internlm/internlm2-chat-7b',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('LMDeploy 0.2.0 sized the TurboMind k/v cache as a ratio of the total GPU memory (cache_max_entry_count, '
                'default 0.5), which on a 24 GB RTX 3090 did not fit next to the 7B fp16 weights, so building the pipeline '
                'ran out of CUDA memory.'),
    fix='Lower the k/v cache share: TurbomindEngineConfig(cache_max_entry_count=0.2).',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug] CUDA runtime error: out of memory',
        'code': 'pipe = pipeline("internlm/internlm2-chat-7b")',
        'desc': '使用 3090 显卡，但还是报错 out of memory',
        'env': 'ubuntu 22.04, python 3.10 lmdeploy==0.2.0 cuda=12.1',
        'maintainer_code': 'backend_config = TurbomindEngineConfig(cache_max_entry_count=0.2)',
        'maintainer': '`cache_max_entry_count` is used to adjust the k/v cache memory ratio of the total GPU memory.',
        'maintainer2': 'The defautl value is 0.5',
    },
    log=['CUDA runtime error: out of memory'],
    engine_args='pipeline("internlm/internlm2-chat-7b")',
    args_gpu='RTX 3090',
    notes=('the error string is the issue title (the traceback is not in the stored excerpt); engine_args is the reporter\'s '
           'pipeline call with no backend_config; the version comes from the environment line'),
    leak="The maintainer's explanation (k/v cache ratio of total memory, default 0.5) and the cache_max_entry_count=0.2 fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8961', thread_type='issue',
    engine='Ollama 0.5.x (llama runner, CUDA) on two ~24 GB GPUs', engine_version='Feb 2025', gpu='2 GPUs with 23.4 / 23.2 GiB free',
    model='DeepSeek R1 Distill Qwen 32B (Q4_K_M)',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The runner was started with a 128000-token context, whose KV cache needed 31.2 GiB, so Ollama could place only '
                '24 of the 65 layers on the two GPUs (12 each) and ran the rest on the CPU, which made generation far slower.'),
    fix='Use a smaller num_ctx so the KV cache and all layers fit on the GPUs.',
    confidence='maintainer_explained',
    evidence={
        'title': 'After ollama upgrade, severe performance drop with deepseek, seems GPU not available',
        'meta': 'Feb 13 11:11:22 NeuralNexus ollama[216839]: llm_load_print_meta: general.name     = DeepSeek R1 Distill Qwen 32B',
        'log': ['Feb 13 11:11:22 NeuralNexus ollama[216839]: time=2025-02-13T11:11:22.234+01:00 level=INFO source=memory.go:356',
                'msg="offload to cuda" layers.requested=-1 layers.model=65 layers.offload=24 layers.split=12,12',
                'memory.available="[23.4 GiB 23.2 GiB]" memory.gpu_overhead="0 B" memory.required.full="77.5 GiB"',
                'memory.required.partial="45.7 GiB" memory.required.kv="31.2 GiB" memory.required.allocations="[22.9 GiB 22.8 GiB]"',
                '--ctx-size 128000 --batch-size 512 --n-gpu-layers 24 --verbose --threads 16 --parallel 1'],
        'maintainer': ('Two cards with 23.4G and 23.2G available respectively.  Ollama allocates 22.9 and 22.8G and offloads 24 '
                       'layers.  Large context size results in large KV cache of 31G.'),
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4)],
    args_model='DeepSeek R1 Distill Qwen 32B',
    args_gpu=None,
    notes=('the five lines are a participant\'s (foloumi) server log as quoted back, re-wrapped, by the maintainer; the model '
           'name is from the same log; the GPU model is not named, only the free memory per card'),
    leak="The title's guess ('seems GPU not available') and the maintainer's reading (large context -> 31 GiB KV cache -> 24 layers offloaded) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/4803', thread_type='issue',
    engine='TensorRT-LLM on Triton (tensorrtllm_backend, tritonserver:24.04-trtllm-python-py3), driven by vLLM benchmark_serving',
    engine_version='tritonserver 24.04', gpu=None, model='llama3-8b',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('The TensorRT-LLM engine/Triton config limited how many tokens the in-flight batcher could schedule (the build-time '
                '--max_num_tokens and the max_tokens_in_paged_kv_cache setting), so at 7 req/s requests queued: TTFT median 45 s, '
                'p99 97 s, while TPOT stayed about 19 ms.'),
    fix='Rebuild with a larger --max_num_tokens / drop max_tokens_in_paged_kv_cache from tensorrt_llm/config.pbtxt.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Performance]: how to test tensorrt-llm serving correctly',
        'desc': ("Hi, how to test tensorrt-llm serving correctly? I've tested on llama2-8b-chat and llama3-8b and the "
                 "performances are too bad for TTFT. Could you tell me where goes wrong? THX"),
        'setup': ('I use docker image `nvcr.io/nvidia/tritonserver:24.04-trtllm-python-py3` and follow this doc '
                  'https://github.com/triton-inference-server/tensorrtllm_backend/blob/main/docs/llama.md'),
        'rate': 'This is the results for request rate=7',
        'bench': ['Traffic request rate: 7.0',
                  bench('Successful requests:', '100'),
                  bench('Benchmark duration (s):', '125.17'),
                  bench('Request throughput (req/s):', '0.80'),
                  bench('Output token throughput (tok/s):', '173.77'),
                  bench('Mean TTFT (ms):', '47395.15'),
                  bench('Median TTFT (ms):', '45446.53'),
                  bench('P99 TTFT (ms):', '96636.63'),
                  bench('Mean TPOT (ms):', '19.38')],
        'reporter_later': ('@geraldstanje hi, you  can refer to this comment '
                           'https://github.com/triton-inference-server/tensorrtllm_backend/issues/453#issuecomment-2111521451'),
        'linked_453': ('@kimbaol hi, thanks for your reply. After some digging, I believe `--max_num_tokens` when build trt engine '
                       'has large influence as per https://nvidia.github.io/TensorRT-LLM/performance/perf-best-practices.html#maximum-number-of-tokens.'),
        'linked_453_kimbaol': 'You can try to remove "max_tokens_in_paged_kv_cache" in tensorrt_llm/config.pbtxt',
    },
    log=[('bench', i) for i in range(9)],
    observe={'ttft_p50_s': (45.44653, '45446.53'), 'ttft_p99_s': (96.63663, '96636.63'), 'request_rate': (7.0, 'request rate=7'),
             'output_tokens_per_s': (173.77, '173.77'), 'tpot_p50_s': (0.01938, '19.38')},
    notes=('the benchmark client output is the log; ttft_p50_s/ttft_p99_s come from the median/P99 TTFT (ms -> s), tpot_p50_s '
           'is the mean TPOT; the cause is stated in the linked tensorrtllm_backend#453 (same reporter), which the reporter points to '
           'as the answer; the GPU is not named in this thread'),
    leak="The reporter's pointer to tensorrtllm_backend#453 and that thread's answer (--max_num_tokens, max_tokens_in_paged_kv_cache) are left out.",
    hard='Only benchmark figures; the engine build/config token budgets that throttle admission are named only in the linked thread.'))

I.append(dict(
    src='https://github.com/ModelTC/LightLLM/issues/13', thread_type='issue',
    engine='LightLLM api_server', engine_version='Aug 2023', gpu='8x NVIDIA A800 80GB', model='Llama-2-13b-chat-hf',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('LightLLM pre-allocates the KV buffers for max_total_token_num tokens at startup; the value in use was too large '
                'for the memory left after the 13B weights, so allocating the value buffers ran out of CUDA memory.'),
    fix='Set a smaller --max_total_token_num (6000 worked).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'my A800 80G*8',
        'desc': 'How can this problem be solved？？',
        'log': ['self.value_buffer = [torch.empty((size, head_num, head_dim), dtype=dtype, device="cuda") for _ in range(layer_num)]',
                ('torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.14 GiB (GPU 0; 79.35 GiB total capacity; '
                 '77.83 GiB already allocated; 711.19 MiB free; 77.83 GiB reserved in total by PyTorch) If reserved memory is >> '
                 'allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management '
                 'and PYTORCH_CUDA_ALLOC_CONF')],
        'maintainer': '@weisihao model weight size?  the max_total_token_num need to set smaller.',
        'model': 'model is Llama-2-13b-chat-hf，',
        'reporter': 'I just tried to set max_total_token_num to 6000 and it worked，thanks！',
    },
    log=[('log', 0), ('log', 1)],
    observe={'gpu_mem_used_gib': (77.83, '77.83 GiB already allocated')},
    args_gpu='A800 80GB',
    notes=('the two traceback lines are the reporter\'s; the model name comes from the reporter\'s reply to the maintainer\'s '
           'question; the max_total_token_num value in use is not quoted, so no engine_args'),
    leak="The maintainer's answer (max_total_token_num must be smaller) and the 6000 that worked are left out.",
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/17290', thread_type='issue',
    engine='Ollama v0.30.0-v0.32.1 (Docker, NVIDIA runtime) on 2x Tesla P40', engine_version='0.30.0-0.32.1',
    gpu='2x NVIDIA Tesla P40 (24 GB, compute capability 6.1)', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('From 0.30.0 Ollama\'s bundled CUDA backend requires NVIDIA driver 550 or newer; the host ran 535.309.01, so '
                'both P40s were silently filtered out (supported=map[]) and every model ran 100% on the CPU.'),
    fix='Upgrade the host driver (535.309.01 -> 580.159.03).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Models fully offloaded to CPU on NVIDIA Tesla P40 after v0.24.0',
        'desc': ('On a system with 2x NVIDIA Tesla P40 (24GB each, 48GB total, compute capability 6.1), Ollama versions v0.30.0 '
                 'through v0.32.1 (latest tested) load models entirely onto CPU regardless of model size, model architecture, or '
                 'configuration — despite both GPUs being correctly detected with ample free VRAM.'),
        'driver': 'Driver: NVIDIA 535.309.01, CUDA 12.2',
        'bisect': ('This is confirmed as a genuine regression via bisection: v0.24.0 works correctly (100% GPU), v0.30.0 is broken '
                   '(100% CPU).'),
        'resolution': 'after enabling debug log, I found the real issue: from 0.30.0 on ollama needs a newer nvidia driver than my installed 535.',
        'resolution2': ('My driver (535.309.01) was below the 550 minimum that newer Ollama builds enforce for the bundled CUDA '
                        'backend, which silently filtered out both GPUs (`supported=map[]`) and fell back to CPU — see the '
                        'OLLAMA_DEBUG=2 log above.'),
        'fix': 'upgraded the host driver from 535.309.01 to 580.159.03',
    },
    log=['supported=map[]'],
    engine_args='Driver: NVIDIA 535.309.01, CUDA 12.2',
    args_gpu='Tesla P40',
    notes=('engine_args is the environment line (driver and CUDA version); the only log text is the supported=map[] fragment of '
           'the reporter\'s OLLAMA_DEBUG=2 log, quoted in the reporter\'s resolution comment'),
    leak="The title, the bisection, and the resolution (driver below the 550 minimum; upgrade to 580) are left out.",
    hard='The driver version is in the inputs, but that Ollama 0.30+ needs a 550+ driver and silently drops older-driver GPUs is not.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/12116', thread_type='issue',
    engine='Ollama 0.11.8 on Fedora (2x RTX 5090)', engine_version='0.11.8', gpu='2x NVIDIA RTX 5090 FE', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('The NVIDIA driver stack installed on the Fedora host (libcuda 575.64.05) did not expose the GPUs to Ollama\'s CUDA '
                'discovery ("no nvidia devices detected by library"), so after the update every model loaded on the CPU; '
                'installing the driver from NVIDIA\'s repository fixed it.'),
    fix='Install the NVIDIA driver from NVIDIA\'s CUDA repository for Fedora 42.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'recent ollama no longer loads on GPU, but only on CPU',
        'desc': 'I made an update to latest versions and when running now models is no longer loaded on the GPUs.',
        'desc2': 'This is a regression, it used to load on GPUs (version 0.11.0).',
        'hw': 'I run 2 GPUs 5090 Nvidia FE, on Linux Fedora Core.',
        'log': ('Aug 29 12:00:56 linux ollama[12550]: time=2025-08-29T12:00:56.249+02:00 level=INFO source=gpu.go:604 '
                'msg="no nvidia devices detected by library /usr/lib64/libcuda.so.575.64.05"'),
        'resolution': ('After some hassle, I managed to install the drivers from Nvidia repo for Fedora 42, following from guide '
                       'described here: https://docs.nvidia.com/cuda/cuda-installation-guide-linux'),
        'resolution2': 'I can confirm that after this, running ollama does use the GPUs.',
        'reporter_q': "Why shouldn't also run with the Nvidia open drivers?",
    },
    log=[('log', None)],
    args_gpu='RTX 5090',
    notes='the log line is the reporter\'s server log as quoted back by a maintainer; no speed figure is given',
    leak="The reporter's fix (drivers from NVIDIA's repository instead of the distribution/open drivers) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ModelTC/LightLLM/issues/104', thread_type='issue',
    engine='LightLLM api_server (tp 1) under benchmark_serving', engine_version='Aug 2023', gpu='NVIDIA H800',
    model='huggyllama/llama-7b',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('LightLLM defaulted to the slow (pure-Python) tokenizer because --tokenizer_mode auto was not set, so CPU-side '
                'tokenization/detokenization throttled serving: 3.60 req/s and 1.26 s per output token on an H800.'),
    fix='Start the server with --tokenizer_mode auto.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Performance Issues with huggyllama on H800',
        'desc': ("I've been experiencing some performance issues when running `llama-7b` on the H800. Specifically, the execution "
                 "seems slower than expected."),
        'launch': ['python -m lightllm.server.api_server \\', '--model_dir /path/to/models--huggyllama--llama-7b \\', '--tp 1 \\',
                   '--max_total_token_num 100000 \\', '--max_req_total_len 100000 \\', '--max_req_input_len 95000'],
        'result': ['total tokens: 494250', 'Total time: 278.14 s', 'Throughput: 3.60 requests/s', 'Average latency: 87.19 s',
                   'Average latency per token: 0.27 s', 'Average latency per output token: 1.26 s'],
        'expected': 'which is far lower than 10.59 requests/s you mentioned',
        'maintainer': '@andy-yang-1  you did not set "--tokenizer_mode auto",  it would use "-tokenizer_mode slow" as default.',
        'reporter': '@hiworldwzj Thx it worked!',
    },
    log=[('result', i) for i in range(6)],
    engine_args=('python -m lightllm.server.api_server --model_dir /path/to/models--huggyllama--llama-7b --tp 1 '
                 '--max_total_token_num 100000 --max_req_total_len 100000 --max_req_input_len 95000'),
    observe={'tpot_p50_s': (1.26, 'Average latency per output token: 1.26 s')},
    args_gpu='H800',
    notes=('engine_args joins the reporter\'s multi-line launch command; the benchmark summary is the log; the average latency '
           'per output token is passed as tpot_p50_s'),
    leak="The maintainer's answer (--tokenizer_mode auto missing, slow tokenizer default) and the published 10.59 req/s comparison are left out.",
    hard='Nothing in the flags or figures shows the tokenizer mode; the slow-tokenizer default is a CPU path visible only to someone who knows it.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/5619', thread_type='issue',
    engine='llama.cpp server (CUDA, build 1037) on 8x Quadro P6000', engine_version='build 1037 (17bf2ed)',
    gpu='8x NVIDIA Quadro P6000 (compute capability 6.1)', model='mistral-7b-instruct-v0.2.Q5_K_M.gguf',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('llama.cpp\'s default multi-GPU mode splits the layers across the GPUs and runs them one after another, so eight '
                'P6000s decode a 7B model no faster than one (40 tok/s with --split-mode none too); the parallel row split has so '
                'much interconnect overhead that it is slower (27 tok/s).'),
    fix='None needed for a model that fits one GPU (use one GPU / --split-mode none); row split only helps with a fast interconnect.',
    confidence='maintainer_explained',
    evidence={
        'title': ('llama.cpp with mistral-7b-instruct-v0.2.Q5_K_M.gguf performance comparison between Intel CPU, nVIDIA GPU and '
                  'Apple M1/M2'),
        'desc': ['On Intel CPU, 8 tokens/s', 'On Apple M1 and M2 (10 core GPU), 20 tokens/s',
                 'On 8 x nVIDIA Quadro P6000, compute capability 6.1, 40 tokens/s'],
        'q': "I'd expect 8 nVIDIA GPUs would be at least 8 times faster? Is this expected or am I doing something wrong?",
        'cmd': './server --host 0.0.0.0 -ngl 33',
        'log': ['ggml_init_cublas: found 8 CUDA devices:', 'Device 0: Quadro P6000, compute capability 6.1, VMM: yes'],
        'maintainer': ("It's an issue with the multi GPU implementation. Currently you can either run the GPUs sequentially "
                       "(default) or you can run them in parallel ( --split-mode row) but the parallel implementation currently has "
                       "so much overhead that it may be slower (depends on interconnect speed)."),
        'reporter': ['--split-mode none    40 tokens/s', '--split-mode row      27 tokens/s', '--split-mode layer    40 tokens/s'],
    },
    log=[('log', 0), ('log', 1)],
    engine_args='./server --host 0.0.0.0 -ngl 33',
    observe={'output_tokens_per_s': (40, 'compute capability 6.1, 40 tokens/s')},
    args_gpu='8x Quadro P6000',
    notes=('the two console lines and the command are the reporter\'s; the 40 tokens/s on the P6000s is output_tokens_per_s; '
           'the CPU and M1/M2 comparison figures are kept out'),
    leak="The maintainer's explanation (layers run sequentially across GPUs; row split overhead) and the reporter's split-mode measurements are left out.",
    hard='Only one tok/s figure against an expectation of linear multi-GPU scaling; that layer split gives no speed-up is the maintainer\'s explanation.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/28299', thread_type='issue',
    engine='SGLang (TP, nccl 2.28.9) serving DeepSeek-V4-Flash on RTX 5090 (SM120)', engine_version='Jun 2026',
    gpu='NVIDIA RTX 5090 (SM120), multi-GPU, no NVLink', model='DeepSeek-V4-Flash',
    symptom='other', layer='operator_hardware',
    root_cause=('NCCL\'s GPU peer-to-peer path does not work between the RTX 5090s (PCIe, no NVLink), so NCCL initialisation for '
                'tensor parallelism crashed with a segmentation fault; with P2P disabled the server starts.'),
    fix='export NCCL_P2P_DISABLE=1 (the reporter also set NCCL_IB_DISABLE=1 and NCCL_NET_GDR_DISABLE=1).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug] deepseek-v4-flash run on RTX 5090(SM120) nccl init Segmentation',
        'desc': 'log error nccl init failed :',
        'log': ['[2026-06-15 19:57:33 TP5] Hybrid swa model: self.hf_config.architectures=[\'DeepseekV4ForCausalLM\']',
                '[2026-06-15 19:57:33 TP5] Init torch distributed begin.',
                '[2026-06-15 19:57:34 TP0] sglang is using nccl==2.28.9',
                'Fatal Python error: Fatal Python error: Segmentation faultSegmentation fault'],
        'reporter': 'nccl is OK。it looks like must have nvlink. when i disable nccl_p2p, it works.',
        'reporter_fix': ['export NCCL_P2P_DISABLE=1', 'export NCCL_IB_DISABLE=1', 'export NCCL_NET_GDR_DISABLE=1'],
        'maintainer': "I think this is not a issue specific relative with DS-v4. It's a general issue on SM120.",
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    args_gpu='RTX 5090',
    notes='the four log lines are the reporter\'s startup log (interleaved multi-process output kept as printed); the launch command is not in the stored excerpt',
    leak="The reporter's finding (works with NCCL P2P disabled, 'must have nvlink') and the maintainer's SM120 remark are left out.",
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/2000', thread_type='issue',
    engine='LMDeploy 0.4.2 serving a swift-fine-tuned InternVL-Chat-V1.5', engine_version='0.4.2', gpu=None,
    model='internvl-chat-v1_5 (swift LoRA fine-tune, merged)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('LMDeploy picks the chat template from the model name/path and did not recognise the fine-tuned checkpoint, so '
                'prompts were built with the wrong template and stop word: generation never stopped and answers read like a base '
                'model\'s.'),
    fix='Write a chat-template JSON for the model and pass it with --chat-template.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug] 部署经过微调的internvl-chat-v1_5模型导致无法停止输出。',
        'desc': '使用swift微调了internvl-chat-v1_5，没有改提示词模板，合并lora后用lmdeploy部署。出现如下问题：',
        'p1': '1. 获取模型输出时会直接卡死，没有任何响应，查阅issue后添加--session-len 32776 --num-tokens-per-iter 8192解决该问题',
        'p2': '2. 模型输出无法停止，看起来像是无法获取stop token',
        'p3': '3. 输出质量相比transformers直接推理下降较多，用起来更像是一个预训练模型，而非chat，一直答非所问',
        'env': '0.4.2版本',
        'reporter': '已经解决了，是因为无法自动识别模型的template，需要自制一份，并以--chat-template指向它。',
    },
    engine_args='--session-len 32776 --num-tokens-per-iter 8192',
    args_model='internvl-chat-v1_5',
    notes=('engine_args are the flags the reporter was serving with (added earlier against a hang); no log or output sample is '
           'quoted, the symptoms (no stop, base-model-like answers) are prose'),
    leak="The title and the reporter's resolution (template not auto-detected; custom --chat-template) are left out.",
    hard='The inputs are only serving flags; the wrong chat template shows only in the reporter\'s prose (output never stops).'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/2421', thread_type='issue',
    engine='TGI (docker sha-0b95693) OpenAI-compatible /v1/chat/completions', engine_version='sha-0b95693', gpu=None,
    model='Qwen2.5-7B-Instruct',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('With max_tokens null, TGI\'s /v1/chat/completions applied a default cap of 100 new tokens, so answers stopped at '
                '100 completion tokens with finish_reason "length" (the tgi-gaudi fork later removed "the original code that '
                'limited max_tokens to 100").'),
    fix='Send an explicit max_tokens, or use a TGI version that derives max_new_tokens automatically.',
    confidence='plausible',
    evidence={
        'title': 'Output truncated when max_tokens is None',
        'version': 'docker version: sha-0b95693',
        'request': '"max_tokens": null',
        'expect': ('If I interpret it correctly, max_tokens=None will automatically calculate the maximum length of the output, but '
                   'sometimes the outputs are truncated with "finish_reason": "length", right?'),
        'example': 'The first output is truncated (num_token is 100), while the second example works perfectly (tokens are more than 150).',
        'output': ['"finish_reason": "length"', '"completion_tokens": 100,',
                   ("In the heart of a bustling city, where skyscrapers reach for the clouds and the hum of activity is a constant "
                    "melody, there lies an almost forgotten place: an old park that seems wrapped in a different era's charm.")],
        'maintainer': ("I'm not a 100% sure I understand your question but if it's \"can the output be truncated even if leaving "
                       "max_tokens == null\" then the answer is yes."),
        'linked_tgi_gaudi_251': 'removed the original code that limited max_tokens to 100',
    },
    log=[('output', 0), ('output', 1)],
    outputs=[('output', 2)],
    engine_args='"max_tokens": null',
    observe={'output_len_mean': (100, 'num_token is 100')},
    notes=('the finish_reason and usage lines come from the reporter\'s response JSON, the output sample is a verbatim prefix of '
           'its content; engine_args is the request field; the 100-token default is stated only in the linked '
           'huggingface/tgi-gaudi#251, hence plausible'),
    leak="The maintainer's reply and the linked PR's statement (default limit of 100) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm-ascend/issues/517', thread_type='issue',
    engine='vLLM-Ascend on Ascend 910B2', engine_version='Apr 2025', gpu='Huawei Ascend 910B2',
    model='qwen2.5 (LoRA fine-tune)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The fine-tuned Qwen2.5 was served in float16, whose activations overflow for this model on the NPU, so every '
                'generated token was "！"; serving in bfloat16 fixed it.'),
    fix='Serve with dtype bfloat16.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: 使用qwen2.5微调的模型，在910B2卡上进行推理，生成的结果都是“！”',
        'desc': '基于LoRA对qwen2.5微调的模型，在910B2卡上进行推理，生成的结果都是“！”',
        'reporter': 'dtype改为bf16即可',
    },
    outputs=['！'],
    args_model='qwen2.5',
    args_gpu='Ascend 910B2',
    notes='the output sample is the character the description says every result consists of; the dtype in use is not quoted',
    leak="The reporter's fix (dtype bf16) is left out.",
    hard='Only the all-"！" output; the float16 dtype behind it is not in the inputs.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/2484', thread_type='issue',
    engine='vLLM OpenAI server (TP 8) behind an API client', engine_version='Jul 2024', gpu='8x NVIDIA RTX 3090',
    model='Qwen/Qwen2-72B-Instruct',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The client\'s request timeout was shorter than the time the TP-8 RTX 3090 server needed for ~500-word prompts, '
                'so the client disconnected and vLLM logged the requests as aborted.'),
    fix='Raise the client request timeout.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Aborted request without reason',
        'comment': ("+1 because I also get this for longer prompts. Confirmed that there's no error if the prompt it just a few "
                    "words. Confirmed that this error occurs if prompt is about 500 words. Useing Qwen2 72B instruct on 8X3090."),
        'cmd': ('python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-72B-Instruct --tensor-parallel-size 8 '
                '--max-model-len 12591 --swap 1'),
        'resolution': 'Found the problem for my issue: the request time out was too short',
    },
    log=['Aborted request'],
    engine_args=('python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen2-72B-Instruct --tensor-parallel-size 8 '
                 '--max-model-len 12591 --swap 1'),
    args_gpu='8x RTX 3090',
    notes=('the thread has several reporters; the case follows commenter carljones3000, whose command and own resolution are '
           'quoted; the only log text is the thread\'s "Aborted request" wording (vLLM\'s log message), no timeout value or timing is given'),
    leak="The commenter's resolution (request timeout too short) is left out.",
    hard='No timeout value or timing; an "Aborted request" on longer prompts reads like a server-side failure.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/39963', thread_type='issue',
    engine='vLLM bench serve (aiohttp client) against a vLLM server (MiniMax-M2.5, EP=8)', engine_version='Apr 2026',
    gpu='8x NVIDIA RTX 6000', model='MiniMax-M2.5',
    symptom='throughput_low', layer='gateway_client',
    root_cause=('The benchmark client\'s aiohttp session (default 64 KB read buffer, one shared session) could not drain long-context '
                'streaming responses at high concurrency, so at 50K context the measured throughput collapsed to 44 tok/s and TTFT to '
                '134 s while another client measured 486 tok/s against the same server.'),
    fix='Give the client a larger read_bufsize (4 MB) and per-request sessions.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'benchmark_serving: throughput collapses at 50K+ context due to aiohttp read buffer and shared session',
        'summary': ('When running `vllm bench serve` with high concurrency at long context lengths (50K+ input tokens), throughput '
                    'collapses dramatically — not because of the server, but because of the benchmark client\'s aiohttp session '
                    'configuration.'),
        'setup': ('We benchmarked the same server (MiniMax-M2.5, 8x RTX 6000, EP=8) with two different bench tools using identical '
                  'parameters (`--random-output-len 256`, `ignore_eos=True`, same prompt sizes):'),
        'header': '| Context (multi-user) | Tool A tok/s | vLLM bench tok/s | Tool A TTFT | vLLM bench TTFT |',
        'rows': ['| 8K | 503 | 494 | 1,493ms | 3,226ms |', '| 32K | 591 | 640 | 790ms | 3,757ms |',
                 '| **50K** | **486** | **44** | 1,331ms | **134,173ms** |', '| **100K** | **298** | **25** | 1,016ms | **97,115ms** |'],
        'cause': '**1. aiohttp `read_bufsize` — default 64KB is too small**',
    },
    engine_args='--random-output-len 256',
    observe={'output_tokens_per_s': (44, '**44**'), 'ttft_p50_s': (134.173, '**134,173ms**'), 'input_len_mean': (50000, '**50K**')},
    args_gpu='8x RTX 6000',
    notes=('the vLLM-bench column of the 50K row gives output_tokens_per_s and ttft_p50_s (ms -> s), 50K is input_len_mean; '
           'engine_args is the bench parameter the reporter lists'),
    leak="The title, the summary, the Tool A column and the root-cause section (aiohttp read buffer, shared session) are left out.",
    hard='Only the slow client-side figures; that the benchmark client, not the server, is the bottleneck is in the A/B the inputs leave out.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/3694', thread_type='issue',
    engine='Ollama 0.1.31 (WSL) reached through Cloudflare by an aiohttp client', engine_version='0.1.31', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Requests to Ollama went through Cloudflare\'s proxy, which answers 524 (origin timeout) when the origin takes '
                'longer than its response limit, so long /api/generate calls failed at the proxy rather than in Ollama.'),
    fix='Bypass the proxy for long generations or use a path without Cloudflare\'s origin timeout.',
    confidence='plausible',
    evidence={
        'title': 'Cloudflare Status code 524',
        'desc': "I'm running into the following error message:",
        'log': ('Ollama call failed with status code 524. Details: <bound method ClientResponse.text of '
                '<ClientResponse(http://chat.tamdu.com/api/generate) [524 None]>'),
        'server': "'Server': 'cloudflare'",
        'maintainer': ("Hi @zhaopengme, we've been working with cloudflare and the issue should hopefully be resolved. Can you "
                       "confirm?"),
    },
    log=[('log', None), ('server', None)],
    notes=('the client error line and the Server response header are the reporter\'s; the maintainer only says they worked with '
           'Cloudflare, the origin-timeout reading of 524 is not spelled out in the thread, hence plausible'),
    leak="The title and the maintainer's reply are left out.",
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/10427', thread_type='issue',
    engine='llama-server (build 4142, CUDA) behind a third-party OpenAI-compatible client', engine_version='4142 (8fd4b7fa)',
    gpu='NVIDIA RTX 3090', model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('The client\'s OpenAI-compatible requests did not set cache_prompt, which llama-server then defaulted to false, so '
                'every request re-processed its whole prompt (n_keep 0, 1957 tokens) instead of reusing the slot\'s cached prefix.'),
    fix='Send cache_prompt: true (later llama-server builds default it to true).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "Why server slot's cache_prompt is false by default?",
        'desc': ("I have no idea whether this is intended or not but it doesn't make much sense to not use cached prompt. It makes "
                 "prompt processing very slow. And it doesn't seem easy to inject explicit parameter to 3rdparty OpenAI-compatible "
                 "request."),
        'device': 'Device 0: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes',
        'version': 'version: 4142 (8fd4b7fa)',
        'log': 'slot update_slots: id  0 | task 365 | new prompt, n_ctx_slot = 8192, n_keep = 0, n_prompt_tokens = 1957',
        'reporter': 'It seems it was fixed, thank you.',
    },
    log=[('log', None)],
    observe={'input_len_mean': (1957, 'n_prompt_tokens = 1957')},
    args_gpu='RTX 3090',
    notes='the slot line is the reporter\'s relevant log output; the prompt length is input_len_mean; no timing figure is quoted',
    leak="The title and the description (which name cache_prompt) and the reporter's confirmation are left out.",
    hard='One slot log line; that the client never sets cache_prompt (so the whole prompt is re-processed each time) is only in the title and prose.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261211, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
