#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh26: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh24; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the thread text returned by the search tool (corpus "issues";
JSON escapes decoded; leading indentation, list bullets and markdown quote markers dropped; a few long lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the operator/hardware layer on any engine (NCCL collectives and
CUDA graphs, drivers and build targets, ROCm kernels, Triton JIT, vGPU licensing, unified-memory devices such as the
DGX Spark / GB10 and Apple Silicon, non-NVIDIA accelerators) plus a few incidents where a hardware fault was suspected
but the cause was in another layer (tokenizer files, Metal memory, a client timeout, single-stream load).

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

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/2770', thread_type='issue',
    engine='vLLM (Ray workers, tensor parallel, CUDA graphs on by default)', engine_version='v0.2.7 / v0.3.0',
    gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='operator_hardware',
    root_cause=('NCCL collectives captured in CUDA graphs deadlock: NCCL\'s mechanism for mixing graph-captured and '
                'non-captured operations can deadlock CUDA when graphs of several communicators are launched from the '
                'same thread, so a tensor-parallel worker hangs in a collective until the 30-minute watchdog fires '
                '(ALLREDUCE on v0.2.7, GATHER with the custom all-reduce on v0.3.0).'),
    fix='Run with enforce_eager (no CUDA graphs), or disable NCCL graph mixing (NCCL_GRAPH_MIXING_SUPPORT=0).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'NCCL hanging during inference',
        'desc': 'with vllm v0.2.7, I saw the nccl hanging for allreduce:',
        'log_v027': ('(RayWorkerVllm pid=5085) [E ProcessGroupNCCL.cpp:475] [Rank 4] Watchdog caught collective '
                     'operation timeout: WorkNCCL(SeqNum=20518, OpType=ALLREDUCE, NumelIn=106496, NumelOut=106496, '
                     'Timeout(ms)=1800000) ran for 1800270 milliseconds before timing out.'),
        'desc2': 'after switching to v0.3.0(with custom all reduce), it\'s `gather`',
        'log_v030': ('(RayWorkerVllm pid=4775) [E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective '
                     'operation timeout: WorkNCCL(SeqNum=369526, OpType=GATHER, NumelIn=4000, NumelOut=0, '
                     'Timeout(ms)=1800000) ran for 1800252 milliseconds before timing out.'),
        'reporter_finding_quote': ('Having multiple outstanding NCCL operations that are any combination of '
                                   'graph-captured or non-captured is supported. There is a caveat that the mechanism '
                                   'NCCL uses internally to accomplish this has been seen to cause CUDA to deadlock '
                                   'when the graphs of multiple communicators are cudaGraphLaunch()’d from the same '
                                   'thread.'),
        'reporter_fix': ('Looks like there is issue between nccl and cuda graph. I use `enforce_eager` and it seems to '
                         'be fixed.'),
    },
    log=[('log_v027', None), ('log_v030', None)],
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the two watchdog lines the reporter quoted (v0.2.7 and v0.3.0); the launch flags, model '
           'and GPU are not given, so none are passed; the tensor-parallel worker hanging in a collective during '
           'serving is passed as timeout_or_stream_break'),
    leak=("The reporter's follow-up (the NCCL documentation caveat on graph-captured collectives and that enforce_eager "
          "fixed it) is left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/42354', thread_type='issue',
    engine='vLLM 0.25.1, TP=2 across two nodes (mp backend, rank 1 headless), DFlash speculative decoding',
    engine_version='0.25.1', gpu='2x NVIDIA DGX Spark (GB10, aarch64, SM121, unified memory)',
    model='poolside/Laguna-S-2.1-NVFP4',
    symptom='timeout_or_stream_break', layer='operator_hardware',
    root_cause=('The pip-bundled NCCL wheel (nvidia-nccl, 2.28.9) is a different build from the DGX OS system NCCL of '
                'the same version; with it, a cross-node all-reduce wedges after ~20-26 minutes of concurrent load '
                '(one rank blocked in ncclAllReduce, the other spin-waiting at 96% GPU / ~20 W) until the NCCL '
                'watchdog kills the collective. Attention/MoE backend swaps, --enforce-eager and '
                '--disable-custom-all-reduce only shifted the time to failure.'),
    fix='Point the Python NCCL library at the DGX OS system libnccl (same version, different build).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Bug]: Distributed inference hanging on a 2 node DGX spark cluster with Mistral 3.5 Medium 128B '
                  'with TP=2'),
        'setup': ('We can confirm the system-NCCL swap from the report above — and add controlled evidence for it on '
                  '2× DGX Spark (GB10, aarch64, SM121), vLLM 0.25.1, TP=2 via the `mp` backend (`--nnodes 2`, rank 1 '
                  '`--headless`), model poolside/Laguna-S-2.1-NVFP4 + DFlash spec-decode.'),
        'symptom': ('**Symptom (before):** under sustained 4-way concurrent load, generation wedges at ~20–26 min. '
                    'py-spy at the wedge: rank 0 blocked in `ncclAllReduce` (`pynccl_wrapper.py:446`), rank 1\'s GPU '
                    'spinning at 96% util / ~20 W (a spin-wait, no real compute). When the mp path let the watchdog '
                    'fire instead of hanging silently:'),
        'log': ['[Rank 1] Watchdog caught collective operation timeout:',
                'WorkNCCL(SeqNum=12590, OpType=_ALLGATHER_BASE, NumelIn=1404928, NumelOut=2809856,',
                'Timeout(ms)=600000) ran for 600060 milliseconds before timing out.'],
        'tried': ('We first chased the kernel the lagging rank was sitting in (FlashInfer prefill, then FlashInfer '
                  'fused-MoE) and swapped attention/MoE backends, added `--enforce-eager`, tried Ray + '
                  '`--disable-custom-all-reduce` — **every variant only shifted the MTBF** (seconds → ~20 min → ~26 '
                  'min). None survived a 1-hour soak.'),
        'fix': ('**The single change that fixed it:** replacing the pip-bundled NCCL with the DGX-OS system NCCL. On '
                'our nodes both report **version 2.28.9**, but they are **different binaries**:'),
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    observe={'gpu_util': (0.96, '96% util'), 'power_w': (20, '~20 W')},
    engine_args='--tensor-parallel-size 2 --nnodes 2',
    args_model='poolside/Laguna-S-2.1-NVFP4',
    args_gpu='2x DGX Spark (GB10)',
    notes=('the case is the commenter\'s controlled reproduction in the thread (same hang as the original report); the '
           'log lines are the watchdog block it quoted (one message wrapped over three lines); gpu_util and power_w '
           'are rank 1\'s readings at the wedge (96% util, ~20 W); engine_args is rebuilt from the prose (TP=2, '
           '--nnodes 2); the wedged generation under load is passed as timeout_or_stream_break'),
    leak=("The fix paragraph (system NCCL instead of the pip wheel, different binaries of 2.28.9), the setup sentence "
          "that opens with it and the list of levers that did not help are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8200', thread_type='issue',
    engine='Ollama 0.5.4 (Linux VM with an NVIDIA vGPU)', engine_version='0.5.4', gpu='NVIDIA GRID P4-4Q (vGPU)',
    model='llama3.2 / llama3.2:1b',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The VM\'s NVIDIA vGPU (GRID P4-4Q) was not licensed; the vGPU driver\'s software licensing enforcement '
                'degrades an unlicensed vGPU\'s performance, so even a 1B model crawls and requests appear to hang.'),
    fix='License the vGPU (NVIDIA GRID licensing) or use a passthrough/bare-metal GPU.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama hangs when running llama3.2 and llama3.2:1b',
        'log': ('Dec 21 11:09:44 olivi ollama[34220]: [GIN] 2024/12/21 - 11:09:44 | 200 | 20.862331914s |       '
                '127.0.0.1 | POST     "/api/generate"'),
        'version': 'Ollama version\n\n0.5.4',
        'maintainer': 'Is your GRID P4-4Q licensed?',
        'reporter': 'Omg. Is that the issue? Its not licensed. Is there a workaround or do i have to just pay for the license?',
        'maintainer2': 'I have no idea.  See #8023 for a previous issue resolved by licensing.',
    },
    log=[('log', None)],
    engine_args=None,
    args_model='llama3.2:1b',
    args_gpu='GRID P4-4Q',
    notes=('the log line is the GIN request line quoted in the report (a 20.9 s /api/generate); the GPU is the '
           'reporter\'s vGPU profile (GRID P4-4Q), which the maintainer read from the reporter\'s log; the hang/slow '
           'generation of a 1B model is passed as tpot_high'),
    leak=("The maintainer's question (is the GRID P4-4Q licensed?), the reporter's answer (not licensed) and the "
          "pointer to a previous issue resolved by licensing are left out."),
    hard='The vGPU license state is not in the inputs; only the vGPU profile name and one slow request line are.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/8698', thread_type='issue',
    engine='vLLM OpenAI server built from source on ROCm 6.1.2', engine_version='main 1c1bb388 (Sep 2024)',
    gpu='AMD Instinct MI250', model='meta-llama/Meta-Llama-3.1-8B-Instruct',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The ROCm 6.1.2 source build ran without the ROCm-tuned kernel paths (custom paged attention, kernel '
                'argument handling), so with the GPU at 100% an 8B model decoded at 3-6 tok/s, against 85 tok/s for '
                'Ollama on the same ROCm; moving to ROCm 6.2 / vLLM 0.5.5 with the ROCm kernel environment variables '
                'fixed it.'),
    fix=('Upgrade to ROCm 6.2.0 / vLLM 0.5.5 / torch 2.5 / triton 3.0 and set HIP_FORCE_DEV_KERNARG=1 and '
         'VLLM_USE_ROCM_CUSTOM_PAGED_ATTN=1 (among the ROCm env vars).'),
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: Low trhoughput on AMD MI250 using llama 3.1 (6 toks/s)',
        'desc': ("I'm running vllm serve with `vllm serve meta-llama/Meta-Llama-3.1-8B-Instruct --trust-remote-code "
                 "--tokenizer meta-llama/Meta-Llama-3.1-8B-Instruct --max-num-seqs 1024 --max-num-batched-tokens "
                 "1024`."),
        'desc2': ('When I send requests to the vllm api, I monitor the gpu usage, it reaches 100% usage and memory '
                  'usage above 90%, therefore, the GPU is being used but the trhoughput is between 3-6 tok/s.'),
        'desc3': ("I'm using rocm 6.1.2, and I installed vllm from source (main "
                  "1c1bb388e0d35a2d10da5c5cda2edac57bf62591)."),
        'desc4': "To give a comparison, ollama with llama3.1 get's 85 toks/s with the same rocm version.",
        'resolution': ('Hi! I had some help from @daviswer and I was able to achieve better results. In summary, I '
                       'used the following versions:'),
        'resolution_versions': ['ROCm 6.2.0', 'vLLM 0.5.5', 'torch 2.5.0', 'triton 3.0.0'],
        'resolution_env': ['export HIP_FORCE_DEV_KERNARG=1', 'export VLLM_INSTALL_PUNICA_KERNELS=1',
                           'export VLLM_USE_ROCM_CUSTOM_PAGED_ATTN=1'],
    },
    engine_args=('--trust-remote-code --tokenizer meta-llama/Meta-Llama-3.1-8B-Instruct --max-num-seqs 1024 '
                 '--max-num-batched-tokens 1024'),
    observe={'gpu_util': (1.0, 'it reaches 100% usage'), 'output_tokens_per_s': (6, '(6 toks/s)'),
             'expected_output_tokens_per_s': (85, "get's 85 toks/s")},
    args_model='meta-llama/Meta-Llama-3.1-8B-Instruct',
    args_gpu='AMD Instinct MI250',
    notes=('engine_args are the flags of the reporter\'s vllm serve command (model positional dropped); gpu_util is '
           'the reported 100% usage; output_tokens_per_s is the title\'s 6 tok/s (the body says 3-6); '
           'expected_output_tokens_per_s is Ollama\'s 85 tok/s on the same ROCm; ROCm 6.1.2 and the source build are '
           'in the thread but not passed as flags'),
    leak=("The reporter's resolution (newer ROCm/vLLM/torch/triton and the ROCm kernel environment variables) is left "
          "out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/3846', thread_type='issue',
    engine='vLLM OpenAI server (official docker image) with automatic prefix caching', engine_version='Apr 2024 (v0.4.0)',
    gpu='NVIDIA A100 80GB PCIe', model=None,
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('The attention kernel used for a prefix-cache hit (context_attention_fwd) is a Triton kernel that is '
                'JIT-compiled the first time it runs; the warmup did not exercise it, so the first request that hits '
                'the prefix cache (the second request) pays the Triton code generation (~3 s) on the hot path.'),
    fix='Warm up the prefix-caching Triton kernel at startup (vLLM PR #3901); afterwards the spike disappears.',
    confidence='maintainer_explained',
    evidence={
        'title': ("[Bug]: When '--enable-prefix-caching' is on, second request to api server takes much longer when "
                  "using official docker image"),
        'env': ['PyTorch version: 2.1.2+cu121', 'GPU 0: NVIDIA A100 80GB PCIe', 'GPU 1: NVIDIA A100 80GB PCIe'],
        'maintainer': ('The issue is that the attention kernel needed for prefix caching is triton-based. The first '
                       'time this kernel is encountered, it generates code, causing overhead'),
        'maintainer2': 'This is why it occurs on the second request but never again',
        'maintainer3': 'I updated the warmup code to specifically trigger this case',
        'reporter': "That's great, thanks.",
        'fix_pr_docstring': ('with a cache hit is not executed. The triton JIT is generated on the fly, so the first '
                             'call to context_attention_fwd will take ~3s to process. Without this warmup, this JIT '
                             'will occur on the hot path.'),
    },
    engine_args='--enable-prefix-caching',
    args_model=None,
    args_gpu='A100 80GB PCIe',
    notes=('engine_args is the flag named in the report; the slow second request (a one-off TTFT spike) is passed as '
           'ttft_spike; no timings or logs are in the stored excerpt, so none are passed'),
    leak=("The maintainer's explanation (Triton-based prefix-caching kernel generating code on first use) and the "
          "warmup PR are left out."),
    hard=('Only the --enable-prefix-caching flag and the GPU are in the inputs; the one-time Triton JIT on the first '
          'prefix-cache hit is not.')))

I.append(dict(
    src='https://github.com/NVIDIA/dgx-spark-playbooks/issues/79', thread_type='issue',
    engine='vLLM 0.15.1 (nvcr.io/nvidia/vllm:26.02-py3 container)', engine_version='26.02-py3',
    gpu='NVIDIA DGX Spark (GB10, sm_121, 128 GB unified memory)', model='nvidia/Llama-3.3-70B-Instruct-NVFP4',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Not a kernel fallback: the image already selects FlashInfer attention and FlashInfer-CUTLASS NVFP4 '
                'GEMMs. A dense 70B model reads ~40.6 GB of weights per decoded token, and the GB10\'s 273 GB/s unified '
                'memory bandwidth caps single-stream decode at an optimistic ~6.7 tok/s; the MoE models it was '
                'compared with read only a fraction of their weights per token.'),
    fix=('Expect ~4 tok/s single-stream for dense 70B on one Spark; use an MoE model or batch requests for aggregate '
         'throughput.'),
    confidence='plausible',
    evidence={
        'title': 'vLLM 26.02-py3: Llama-3.3-70B-Instruct-NVFP4 serves at ~4 tok/s on GB10 single Spark',
        'summary': ('`nvidia/Llama-3.3-70B-Instruct-NVFP4` on the playbook-recommended `nvcr.io/nvidia/vllm:26.02-py3` '
                    'image, single Spark, produces correct output but at **~4.0-4.2 tok/s** end-to-end across short '
                    'and long prompts. That\'s roughly an order of magnitude below what we see for similar-class '
                    'models on this hardware (Qwen3.6-35B-A3B Q8 via llama.cpp on the same box steady-states 50-56 '
                    'tok/s; GPT-OSS-120B MXFP4 on this same vLLM image steady-states 33-34 tok/s).'),
        'env': ['Hardware: NVIDIA DGX Spark (GB10, sm_121, 128 GB UMA)',
                'Container: `nvcr.io/nvidia/vllm:26.02-py3` (vLLM `0.15.1+befbc472`)',
                'No competing model resident (single-model rule on this box; daily/agent stopped before launch)'],
        'command': ['vllm serve nvidia/Llama-3.3-70B-Instruct-NVFP4 \\', '--port 8012 --max-model-len 16384'],
        'workload': ('# was driven via simple POST to /v1/chat/completions, temperature=0, max_tokens=1024'),
        'pr_91_closes_79': ('I reproduced the reported Llama 3.3 70B result on a single DGX Spark before changing the '
                            'docs. The 4.0–4.2 tokens/s result is real, but it is not an attention-backend fallback: '
                            'both the reported `26.02-py3` image and current `26.06-py3` select FlashInfer attention '
                            'and FlashInfer-CUTLASS for NVFP4 GEMM.'),
        'pr_91_roofline': ('The resulting 40.61 GB/token gives an optimistic 6.72 tokens/s roofline against Spark\'s '
                           '273 GB/s peak bandwidth, before attention, norms, activation quantization, sampling, or '
                           'framework overhead.'),
    },
    engine_args='--max-model-len 16384',
    observe={'output_tokens_per_s': (4.0, '~4.0-4.2 tok/s'),
             'expected_output_tokens_per_s': (33, 'steady-states 33-34 tok/s')},
    args_model='nvidia/Llama-3.3-70B-Instruct-NVFP4',
    args_gpu='DGX Spark GB10 (128 GB unified memory)',
    notes=('engine_args is the serve flag besides --port; output_tokens_per_s is the reported ~4.0-4.2 tok/s; '
           'expected_output_tokens_per_s is what the reporter compared against (GPT-OSS-120B MXFP4 on the same image, '
           '33-34 tok/s); the explanation is from PR #91 of the same repository, which closes this issue (open, not '
           'merged in the stored copy), hence plausible'),
    leak=("PR #91's reproduction and roofline explanation (FlashInfer/CUTLASS already selected; 40.61 GB/token against "
          "273 GB/s) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/787', thread_type='issue',
    engine='llama-cpp-python (upgraded for GGUF)', engine_version='Oct 2023 (0.2.x)', gpu=None, model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The upgrade reinstalled llama-cpp-python from a plain pip build without the cuBLAS backend, so the '
                'library reports BLAS = 0 and runs every layer on the CPU regardless of n_gpu_layers.'),
    fix='Reinstall with the CUDA backend: CMAKE_ARGS="-DLLAMA_CUBLAS=on" pip install llama-cpp-python --force-reinstall --upgrade --no-cache-dir.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'No longer running on GPU after update',
        'desc': ('I recently updated llama-cpp-python to make use of the new gguf format. Since then, i cant seem to '
                 'get GPU to work. It keeps saying "BLAS=0" when starting the model, eventhough it was working '
                 'before. Anything i need to change? I am very confused.'),
        'other_user': 'i am getting same isssue',
        'reporter_fix': ('Hey @talhalatifkhan I run the following command and now it works. try the same if you are '
                         'using a Nvidia GPU with cuda:'),
        'reporter_fix_cmd': ('`CMAKE_ARGS="-DLLAMA_CUBLAS=on" pip install llama-cpp-python --force-reinstall '
                             '--upgrade --no-cache-dir`'),
    },
    log=['BLAS=0'],
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log line is the system-info flag the reporter quoted from the model load ("BLAS=0"; the library prints '
           'it as "BLAS = 0"); no model or GPU name is given; GPU work not happening (CPU-only generation) is passed '
           'as tpot_high'),
    leak="The reporter's fix (reinstalling with CMAKE_ARGS=\"-DLLAMA_CUBLAS=on\") is left out.",
    hard=None))

# ============================== numeric_parameter (hardware suspected) ==============================
I.append(dict(
    src='https://github.com/oobabooga/textgen/issues/931', thread_type='issue',
    engine='text-generation-webui (transformers loader, 8-bit)', engine_version='Apr 2023 (after the transformers bump)',
    gpu='NVIDIA RTX 3090 24GB', model='gpt4-x-alpaca (LLaMA 13B fine-tune)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Not the RTX 3090: after the webui bumped transformers, the LLaMA tokenizer files distributed with the '
                'models (converted for the older LLaMA tokenizer implementation) no longer tokenized prompts the way '
                'the model was trained, so replies started with a comma and wandered off the instruction. The '
                'maintainer reconverted the LLaMA tokenizer files and made the webui use them for all LLaMA models.'),
    fix='Download the reconverted tokenizer (python download-model.py oobabooga/llama-tokenizer); it is used for all LLaMA models.',
    confidence='maintainer_explained',
    evidence={
        'title': ('"Transformers bump" commit ruins gpt4-x-alpaca if using an RTX3090: model loads, but talks '
                  'gibberish'),
        'desc': ('Multiple people in the below linked reddit thread mentioning that the model is not working properly '
                 'on high-end RTX cards. (3090,3090TI,4090) This is seemingly caused by this commit: '
                 'https://github.com/oobabooga/text-generation-webui/commit/113f94b61ee0e85bd791992da024cb5fc6beac93'),
        'desc2': ("I can confirm that using my 3060 and main branch, there's no issue at all - this seemingly only "
                  "affects higher-end cards. It also worth mentioning, that in the case of the 3060 I'm using "
                  "auto-devices and --gpu--memory 8."),
        'case': '3090 24GB 8-bit, model:gpt4-x-alpaca, preset:llama-creative:',
        'prompt': ['Below is an instruction that describes a task. Write a response that appropriately completes the '
                   'request.', '### Instruction:', 'Write a poem about the transformers Python library.',
                   'Mention the word "large language models" in that poem.', '### Response:'],
        'output': [', large language models', "I'm learning to speak English", "I'm trying to learn Python",
                   "But I don't know how to code"],
        'workaround': ('Seemingly `git checkout 5f4f38ca5d11bd1739c0b99e26bb644637a04e0a` and `pip install '
                       'protobuf==3.20` resolve the problem.'),
        'maintainer': ('As a solution to the LLaMA tokenizer problem, I have reconverted the files and uploaded them to '
                       'Hugging Face:'),
        'maintainer2': ('they will be automatically detected and used for all LLaMA models in place of the tokenizer '
                        'files that are distributed with the various models.'),
    },
    outputs=[('output', 0), ('output', 1), ('output', 2)],
    engine_args='--load-in-8bit',
    args_model='gpt4-x-alpaca',
    args_gpu='RTX 3090 24GB',
    notes=('the output lines are the start of the reply the reporter got (the first line begins with a comma); '
           'engine_args is rebuilt from "3090 24GB 8-bit"; the reporter\'s belief that only high-end cards (3090, '
           '3090 Ti, 4090) are affected is not passed (not machine-usable)'),
    leak=("The title and the description sentence that blame the 'Transformers bump' commit, the workaround (checking "
          "out the older commit, protobuf 3.20) and the maintainer's reconverted LLaMA tokenizer are left out."),
    hard=('The tokenizer files / transformers version mismatch is not in the inputs; only the comma-led, off-topic '
          'output and an RTX 3090 are.')))

# ============================== scheduling_capacity (hardware suspected) ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/6632', thread_type='issue',
    engine='Ollama (macOS, Metal backend)', engine_version='Sep 2024 (0.3.x)',
    gpu='Apple Silicon Mac, 32 GB unified memory', model='command-r:35b-08-2024 (4-bit, 18 GB)',
    symptom='output_quality', layer='scheduling_capacity',
    root_cause=('The 18 GB 4-bit command-r weights plus the KV cache of the 8192-token context Ollama actually '
                'allocated (a num_ctx of 2048 in the Modelfile was not applied) exceed what Metal can give the GPU on a '
                '32 GB Mac, so Metal command buffers fail with Insufficient Memory and the model emits repeated '
                'garbage tokens instead of an error.'),
    fix='Use a smaller quant (q3_K_M) or a context that fits (2048), so weights + KV fit the Metal working set.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'New Command-r models output nonsense',
        'desc': ('The new 4-bit quants of command-r (I dont have the VRAM for higher quants) output nonsense.'),
        'cmd': '≻ ollama run command-r',
        'output': ['>>> Hello',
                   (' general obligatoireasıası obligatoireasıasıası obligatoire obligatoireası obligatoireasıasıası '
                    'obligatoireasıasıasıasıası obligatoire')],
        'reporter_after_hint': ('Agh thanks, it looks like the model is running out of memory. I\'m on a 32GB MacOS '
                                'device so I have to use a smaller context size which works fine with llama-cpp-python '
                                'on 4_K_M at 2048 context. When I use a model file like this:'),
        'modelfile': ['FROM command-r:35b-08-2024-q4_K_S', 'PARAMETER num_ctx 2048'],
        'reporter_log_intro': ('I\'d assume that the model would load with a lower context size but looking at the '
                               'logs its trying to load 8192 context size which exceeds my memory (also something I '
                               'thought Ollama would catch):'),
        'server_log': ['llm_load_tensors: offloaded 41/41 layers to GPU',
                       'llm_load_tensors:      Metal buffer size = 17965.92 MiB',
                       'llama_new_context_with_model: n_ctx      = 8192',
                       'ggml_metal_graph_compute: command buffer 7 failed with status 5',
                       'error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)'],
        'workaround': "Using `3_K_M` works for now, so I'll use that to test out this model! Thanks",
    },
    log=[('server_log', 1), ('server_log', 2), ('server_log', 3), ('server_log', 4)],
    outputs=['general obligatoireasıası obligatoireasıasıası obligatoire obligatoireası obligatoireasıasıası '
             'obligatoireasıasıasıasıası obligatoire'],
    engine_args=None,
    args_model='command-r',
    args_gpu='Apple Silicon Mac, 32 GB unified memory',
    notes=('the output line is the first line of the reply to "Hello" (leading space dropped); the log lines are from '
           'the Ollama server log the reporter posted in the thread (the log existed before the diagnosis; it was '
           'pasted after a hint); the Mac\'s 32 GB is the reporter\'s machine; the Modelfile num_ctx 2048 is not '
           'passed because the server ignored it (n_ctx = 8192 in the log)'),
    leak=("The hint that prompted the reporter (not in the stored excerpt), the reporter's conclusion that the model is "
          "running out of memory, the Modelfile discussion and the q3_K_M workaround are left out."),
    hard=None))

# ============================== load (hardware suspected) ==============================
I.append(dict(
    src='https://github.com/tenstorrent/tt-inference-server/issues/40', thread_type='issue',
    engine='tt-inference-server (vLLM on Tenstorrent)', engine_version='Nov 2024',
    gpu='Tenstorrent QuietBox', model='Llama 3.1 70B',
    symptom='throughput_low', layer='load',
    root_cause=('The 400 tok/s tt-metal figure is aggregate throughput over a batch of concurrent users; the reporter '
                'measured one request at a time (1.4 tok/s for a single stream). Run as a batch, the server was very '
                'fast: the offered load, not the hardware, set the number.'),
    fix='Send requests concurrently (batch) when measuring throughput; compare single-stream speed with single-user figures.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Very slow speed',
        'desc': ['Hi, just managed to get the vllm server working for Llama 3.1 70B.', "I'm getting 1.4 tokens / sec."],
        'desc2': ('According to [tt-metal benchmark](https://github.com/tenstorrent/tt-metal/tree/main?tab=readme-ov-file'
                  '#llms), this model should run around 400 tokens / sec on QuietBox (which I am using). I thought on '
                  'vllm the speed would be similar at least.'),
        'desc3': 'Is this speed to be expected?',
        'reporter': 'Nevermind - when I ran it in a batch, it was very fast!',
    },
    observe={'output_tokens_per_s': (1.4, '1.4 tokens / sec'),
             'expected_output_tokens_per_s': (400, 'around 400 tokens / sec')},
    engine_args=None,
    args_model='Llama 3.1 70B',
    args_gpu='Tenstorrent QuietBox',
    notes=('output_tokens_per_s is the reported 1.4 tok/s; expected_output_tokens_per_s is the tt-metal benchmark figure '
           'the reporter expected (~400 tok/s); the request pattern (one at a time) is not stated before the answer, '
           'so no running/concurrency value is passed'),
    leak="The reporter's follow-up (run as a batch it was very fast) is left out.",
    hard='That the measurement was a single sequential stream (no concurrency) is not in the inputs.'))

# ============================== gateway_client (hardware suspected) ==============================
I.append(dict(
    src='https://github.com/gergap/vim-ollama/issues/26', thread_type='issue',
    engine='vim-ollama plugin (Python client) in front of Ollama', engine_version='Feb 2025', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The editor plugin\'s chat client has a 10-second read timeout by default; reviews of a whole buffer '
                'take longer to answer, so the client gives up ("Read timeout occurred") and cuts shorter answers off '
                'mid-sentence. Another user blamed his GPU (GTX 4070 Ti Super) for the same timeouts.'),
    fix='Raise the plugin timeout (let g:ollama_chat_timout = 60).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Timeouts',
        'desc': 'If I try to review an entire buffer, it will simply time out with an error in the Ollama Chat window:',
        'chat_error': 'Read timeout occurred. Please try again.',
        'stderr': '2025-02-12 13:17:03,517 - OllamaLogger - ERROR - Read timeout occurred.',
        'desc2': ("If I try to review a smaller highlighted section of buffer, it often doesn't complete the "
                  "recommendations:"),
        'output': ('"However, it\'s not clear what these objects represent of what their expected types are. It would '
                   'be helpful to add a"'),
        'maintainer': ['Actually, this is a feature, not a bug :-)',
                       'A timeout was requested by another user, so that it does not take forever.',
                       'You can increase it be setting `let g:ollama_chat_timout = 60` in the ollama config file.',
                       'The default is 10s.'],
        'other_user': ('I have a decent GPU (GTX 4070 TI Super) and it seems to be unsufficient to have correct '
                       'response time (using the chat or completion).'),
    },
    log=[('stderr', None), ('chat_error', None)],
    outputs=["However, it's not clear what these objects represent of what their expected types are. It would be "
             "helpful to add a"],
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the plugin\'s stderr line and the chat-window error; the output line is the cut-off '
           'recommendation (quotes dropped); no model or GPU is named by the reporter; the other user\'s GPU is not '
           'passed'),
    leak=("The maintainer's answer (a 10 s default timeout in the plugin, raise g:ollama_chat_timout) and the other "
          "user's GPU remark are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261226, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
