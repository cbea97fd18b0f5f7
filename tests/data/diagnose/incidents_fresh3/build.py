#!/usr/bin/env python3
"""Build the third out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py),
the first fresh batch (incidents_fresh) and the second (incidents_fresh2).
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

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/1949', thread_type='issue',
    engine='vLLM (OpenAI server, late 2023)', engine_version='Dec 2023', gpu='24 GiB GPU', model=None,
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('The server was started with the model\'s full default context length, so the KV-cache/profiling '
                'allocation did not fit in the ~24 GiB card and start-up died with CUDA OOM; capping the context '
                '(max_model_len 8192) made it fit.'),
    fix='Set --max-model-len 8192 (optionally an AWQ quant with --quantization awq).',
    confidence='plausible',
    evidence={
        'title': 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 0 has a total capacty of 23.64 GiB of which 1.42 GiB is free. Process 2722 has 22.22 GiB memory in use. Of the allocate',
        'fix_comment': 'Fixed by setting `max_seq_len=8192`, thanks to: https://github.com/vllm-project/vllm/issues/188#issuecomment-1785991729',
        'quoted': '> After setting --max-model-len 8192 the OOM went away. I also use an AWQ quant with --quantization awq parameter. Works amazing!',
    },
    log=[('title', None)],
    observe={'gpu_mem_used_gib': (22.22, 'Process 2722 has 22.22 GiB memory in use')},
    notes='the only log line is the OOM message (it is also the issue title, cut off by GitHub at "Of the allocate"); the model and launch flags are not shown in the stored text',
    leak="The fix comment (max_seq_len / --max-model-len 8192) is left out.",
    hard='Only the OOM line; neither the model nor its default context length is in the inputs. The fix is stated by a commenter (probably the reporter), hence plausible.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8393', thread_type='issue',
    engine='Ollama (Windows)', engine_version='Jan 2025', gpu=None, model=None,
    symptom='other', layer='scheduling_capacity',
    root_cause=('Only 31 of 33 layers fit in VRAM, so the rest ran on the CPU; each token waited for the CPU part, '
                'leaving the GPU mostly idle while the CPU was at full load.'),
    fix='Fit the whole model on the GPU (smaller model/quant or context) or accept the partial-offload speed.',
    confidence='maintainer_explained',
    evidence={
        'log': ['llm_load_tensors: offloading 31 repeating layers to GPU',
                'llm_load_tensors: offloaded 31/33 layers to GPU',
                'llm_load_tensors: CUDA_Host model buffer size = 809.84 MiB',
                'llm_load_tensors: CUDA0 model buffer size = 3627.97 MiB'],
        'reporter': "BTW, when running ollama models, I notice from the taskmgr that GPU is not operating and CPU is under full utilization, I'm wondering why is that happening.",
        'maintainer': "The GPU is mach faster than the CPU.  What happens is that the GPU completes its portion of the inference, then waits for the CPU to complete.  The utilization of the GPU is low because it's got nothing to do.",
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    notes='the four load lines are the reporter\'s server log as quoted back in the thread; "GPU not operating, CPU at full utilization" is from a Task Manager screenshot and has no numeric form',
    leak="The maintainer's explanation (GPU waits for the CPU-resident layers) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11790', thread_type='issue',
    engine='Ollama (ROCm, 96 GB GPU allocation)', engine_version='Aug 2025', gpu='AMD GPU with 96 GB allocated (ROCm)', model='gpt-oss',
    symptom='other', layer='scheduling_capacity',
    root_cause=('Three parallel slots of 128k context made the compute graph ~96 GiB, larger than the memory given to '
                'the GPU, so Ollama offloaded 0 layers and scheduled the whole model in system RAM.'),
    fix='Decrease OLLAMA_CONTEXT_LENGTH or OLLAMA_NUM_PARALLEL.',
    confidence='maintainer_explained',
    evidence={
        'title': 'cannot run gpt-oss on my server, no matter 20B or 120B',
        'maintainer': "Your problem is that you are allocating too much context: 3 x 128k.  This increases the size of the memory graph to where it will not fit in the 96G you have allocated to the GPU:",
        'log': ['Aug 07 18:09:53 llama30 ollama[1255]: time=2025-08-07T18:09:53.153Z level=INFO source=server.go:175 msg=offload',
                'library=rocm layers.requested=-1 layers.model=25 layers.offload=0 layers.split="" memory.available="[95.8 GiB]"',
                'memory.weights.nonrepeating="1.1 GiB" memory.graph.full="96.0 GiB" memory.graph.partial="96.0 GiB"'],
        'explanation': "Since the graph can't fit, ollama doesn't allocate any layers to the GPU, so the whole lot is scheduled for system RAM.  You can avoid this by decreasing context (`OLLAMA_CONTEXT_LENGTH`) or decreasing parallelism (`OLLAMA_NUM_PARALLEL`).",
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    args_model='gpt-oss',
    notes='the offload log line is wrapped over three lines in the thread; the three verbatim fragments are passed as three log lines (the middle part with the KV/weights sizes is omitted); the log belongs to the commenter the maintainer answered',
    leak="The maintainer's reading (3 x 128k context, graph does not fit, so everything is scheduled to system RAM) is left out.",
    hard='The context and parallel settings themselves are not in the inputs; only the offload line (0 layers offloaded, 96 GiB graph) shows it.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11722', thread_type='issue',
    engine='Ollama (Windows)', engine_version='0.11.2', gpu='24 GB NVIDIA GPU', model='gpt-oss:120b',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('With a 32k context the gpt-oss compute graph is ~16 GB, which does not fit beside the weights, so only a '
                'few layers went to the GPU (14 of 24 GB used) and the rest ran on the CPU.'),
    fix='Reduce the context size (and upgrade Ollama for the improved gpt-oss memory estimate).',
    confidence='maintainer_explained',
    evidence={
        'title': 'GPT OSS 120b only uses 14gb of vram out of 24gb',
        'body': 'It could be faster if more is loaded into VRAM, right?',
        'version': 'ollama version is 0.11.2',
        'maintainer': "Reduce the size of the context.  A 32k context results in a memory graph of 16GB, which doesn't fit on one GPU and only allows 5 layers on the other.  You could also try upgrading ollama, gpt-oss is a new model and there are some ongoing adjustments to the memory estimation login for this model.",
    },
    observe={'gpu_mem_used_gib': (14, 'only uses 14gb of vram')},
    args_model='GPT OSS 120b',
    args_gpu='24gb',
    notes='the server log was empty in the report; only the VRAM figure from the title is passed (GB read as GiB)',
    leak="The maintainer's explanation (32k context -> 16 GB graph -> few layers on GPU) is left out.",
    hard='No context length, no offload line; only "14 of 24 GB used" and the model name.'))

I.append(dict(
    src='https://github.com/wangzhaode/mnn-llm/issues/29', thread_type='issue',
    engine='mnn-llm (CUDA)', engine_version='Apr 2023', gpu='P104-100 8 GB (mining card, PCIe x1 link)', model=None,
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The 8 GB card could not hold all layers, so part of the model ran on the CPU; generation (~2 characters '
                'per second) was bound by the CPU layers, not by the narrow PCIe link the reporter suspected.'),
    fix='Use a GPU with enough memory for all layers (or a smaller model).',
    confidence='maintainer_explained',
    evidence={
        'report': '我用的是p104-100 8g 矿渣跑 pci 只有1g的速度 是正常pci 3.0 x16的 1/16，速度很慢 一秒两个字那样子。我的处理器是e5 14核 28线程，内存32g ddr4，显卡利用率96%左右但是功耗不高，只有90w，处理只有四个核心占用。有办法优化下吗？',
        'maintainer': 'PCIE带宽应该不是瓶颈，瓶颈是显存不够导致无法把全部层放到显卡推理，所以CPU推理时显卡占用会非常低；',
    },
    observe={'gpu_util': (0.96, '显卡利用率96%左右'), 'power_w': (90, '只有90w')},
    args_gpu='p104-100 8g',
    notes='GPU utilisation (96%) and power (90 W) are the reporter\'s nvidia-smi readings; "2 characters per second" has no vocabulary name; the PCIe x1 link is prose',
    leak="The maintainer's answer (VRAM too small, layers on CPU, PCIe not the bottleneck) is left out.",
    hard='The inputs point at a hardware reading (high util, low power, PCIe x1) while the cause is layer placement; no layer counts are given.'))

I.append(dict(
    src='https://github.com/allenai/olmocr/issues/50', thread_type='issue',
    engine='SGLang (olmOCR pipeline, standalone server)', engine_version='Feb 2025', gpu='RTX 3090', model='allenai/olmOCR-7B-0225-preview',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('Started standalone, SGLang used its default mem-fraction-static, which on a <40 GB card leaves too little '
                'room for the VLM\'s extra activation memory, so large PDF pages ran out of CUDA memory at runtime.'),
    fix='Start with --mem-fraction-static .80 (the olmOCR pipeline does this automatically on small GPUs).',
    confidence='maintainer_explained',
    evidence={
        'title': 'CUDA-ooM with large PDFs',
        'maintainer_first': "Nvm, I see it's a 3090, it's strange I have tested on 4090's please share your PDF if you can.",
        'reporter': 'EDIT: This only happens when SGLang is started standalone:',
        'command': 'python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024',
        'maintainer': "Ahh, I know why. I've noticed that on devices with less than 40GB or so, you need to specify a lower mem fraction static for sglang:",
        'fix': 'python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024 --mem-fraction-static .80',
    },
    engine_args='python -m sglang.launch_server --model-path allenai/olmOCR-7B-0225-preview --port 30024',
    args_gpu='3090',
    notes='engine_args is the reporter\'s standalone launch command; the OOM trace itself is not in the stored text',
    leak="The maintainer's explanation and the --mem-fraction-static .80 fix are left out.",
    hard='No error line or numbers; only the launch command (default memory fraction), the GPU and the title.'))

I.append(dict(
    src='https://github.com/NVIDIA/srt-slurm/issues/172', thread_type='issue',
    engine='SGLang disaggregated decode workers (srt-slurm recipe)', engine_version='May 2026', gpu='GB200 (184 GiB), TP=4', model='deepseek-ai/DeepSeek-R1 (FP4)',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('mem-fraction-static 0.95 reserved ~175 GiB for the KV cache, leaving no room for the 4 GiB symmetric-memory '
                'pool allocated during FlashInfer FP4 autotuning, so decode workers hit CUDA OOM at initialisation.'),
    fix='Lower mem-fraction-static for the decode workers.',
    confidence='confirmed_by_reporter',
    evidence={
        'summary': 'Decode workers fail with CUDA OOM during model initialization because `mem-fraction-static: 0.95` reserves too much GPU memory for KV cache, leaving insufficient room for model weights and the 4 GiB symmetric memory pool preallocation.',
        'error': 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 3 has a total capacity of 184.00 GiB of which 2.21 GiB is free. Including non-PyTorch memory, this process has 181.77 GiB memory in use.',
        'where': 'Error occurs in `prealloc_symmetric_memory_pool` at `model_runner.py:3420` during FlashInfer FP4 kernel autotuning.',
        'config': 'mem-fraction-static: 0.95',
        'model': '- Model: deepseek-ai/DeepSeek-R1 (FP4 quantized)',
    },
    log=[('error', None)],
    engine_args='mem-fraction-static: 0.95',
    observe={'gpu_mem_used_gib': (181.77, 'this process has 181.77 GiB memory in use')},
    args_model='deepseek-ai/DeepSeek-R1 (FP4 quantized)',
    args_gpu='GB200',
    notes='engine_args is the decode section line of the recipe YAML; the "Error occurs in prealloc_symmetric_memory_pool" location is withheld (analysis)',
    leak="The title and summary (which name mem-fraction-static 0.95 as the cause), the memory math and the suggested fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/noonghunna/club-3090/issues/71', thread_type='issue',
    engine='vLLM (club-3090 vllm/long-text compose)', engine_version='May 2026', gpu='RTX 4090 (~23.5 GiB usable)', model=None,
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('The compose default max_model_len=180000 was calibrated for a headless 3090; on the 4090 with ~23.5 GiB '
                'usable the KV pool for that context did not fit, so start-up OOMed.'),
    fix='MAX_MODEL_LEN=90000 (env override added in PR #79).',
    confidence='maintainer_explained',
    evidence={
        'title': '[bench] 4090 vllm/long-text @29718ca (230W power limit)',
        'maintainer': '- The OOM you hit at default `max_model_len=180000` was real KV-pool budget pressure (your 4090 has ~23.5 GiB usable vs the headless 3090 the compose was calibrated for)',
        'fix': 'MAX_MODEL_LEN=90000 bash scripts/switch.sh vllm/long-text',
    },
    engine_args='max_model_len=180000',
    args_gpu='4090',
    notes='engine_args is the compose default the reporter ran; the OOM trace itself is not in the stored text (only the maintainer\'s summary mentions it)',
    leak="The maintainer's KV-pool explanation and the MAX_MODEL_LEN=90000 fix are left out.",
    hard='Only the context setting and the GPU name; no error line or memory figure.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/2766', thread_type='issue',
    engine='Ollama (Windows 11 + WSL2)', engine_version='Feb 2024', gpu='GTX 1080 11 GB', model=None,
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The larger model only fit 26 of 81 layers into the 11 GB card, so most layers ran on the CPU and the GPU '
                'sat idle waiting; "runs on CPU, very slow" was partial offload, not GPU detection failing.'),
    fix='Use a model/quant that fits in VRAM (expected behaviour otherwise).',
    confidence='maintainer_explained',
    evidence={
        'report': 'Ollama models works on CPU, not on GPU (Nvidia 1080 11G). Once upon a time it somehow run on the video card - but the pattern of how and when it works could not be found out, looks that select GPU/CPU randomly. On CPU good/big models works very slow.',
        'maintainer': "It looks like things are behaving as expected, and the models are being loaded into the GPU.  When you load the larger model, it's only able to load `26/81 layers to GPU` given your limited VRAM.  As a result, the GPU spends most of its time idle waiting for the CPU to process the layers it has loaded into system memory.  This is expected behavior.",
    },
    log=['26/81 layers to GPU'],
    args_gpu='Nvidia 1080 11G',
    notes='the attached server.log is not in the stored text; its offload figure survives only as the fragment "26/81 layers to GPU" quoted by the maintainer, which is passed as a log line',
    leak="The maintainer's explanation (GPU idles waiting for CPU-resident layers; expected behaviour) is left out.",
    hard='The only log evidence is a fragment quoted inside the maintainer reply.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11939', thread_type='issue',
    engine='Ollama (Windows)', engine_version='Aug 2025', gpu=None, model='gpt-oss',
    symptom='other', layer='scheduling_capacity',
    root_cause=('With OLLAMA_CONTEXT_LENGTH=131072 the gpt-oss compute graph (~32 GB at 128k) does not fit in VRAM, so '
                'Ollama placed the model on the CPU (100% CPU); it is the graph size, not the model size, that decides.'),
    fix='Lower OLLAMA_CONTEXT_LENGTH for gpt-oss.',
    confidence='maintainer_explained',
    evidence={
        'title': '`gpt-oss` Uses `100% CPU`',
        'quoted_maintainer': "> ollama doesn't use the GPU when OLLAMA_CONTEXT_LENGTH=131072 because the memory graph won't fit in the available VRAM. ",
        'reporter': 'It seems to do so for other, larger models though:',
        'ps': 'huihui_ai/dolphin3-r1-abliterated:24b    05a0492884c8    19 GB    27%/73% CPU/GPU    131072     4 minutes from now',
        'maintainer': "It's not the size of the model that matters, it's the size of the memory graph.",
    },
    engine_args='OLLAMA_CONTEXT_LENGTH=131072',
    args_model='gpt-oss',
    notes='engine_args is the server setting named in the thread; the ollama ps line shown is for a different model and is not passed',
    leak="The maintainer's statements (graph does not fit at 131072; graph size not model size matters) and the per-context graph table are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11731', thread_type='issue',
    engine='Ollama 0.11.3 (Docker, Ubuntu)', engine_version='0.11.3', gpu='RTX 5090 + RTX 5070 Ti (48 GB VRAM)', model='gpt-oss:20b',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('OLLAMA_CONTEXT_LENGTH=131072 made the gpt-oss memory graph too large for the GPUs, so the weights were '
                'scheduled on the CPU (only the KV cache on GPU, 1% GPU use, ~6 tok/s).'),
    fix='Lower OLLAMA_CONTEXT_LENGTH (the commented-out 32768/49152/65536 values).',
    confidence='plausible',
    evidence={
        'report': 'On an RTX 5090 + 5070 Ti (total 48 GB VRAM), it is running almost entirely on CPU. Only storing the KV Cache on the GPU but using just 1% of GPU while it is using all 20 cores of the CPU. That gets it about 6 tokens/second.',
        'env': ['- OLLAMA_CONTEXT_LENGTH=131072', '- OLLAMA_KV_CACHE_TYPE=q8_0', '- OLLAMA_NUM_PARALLEL=1', '- OLLAMA_FLASH_ATTENTION=1'],
        'version': 'Running Ollama 0.11.3, CUDA 12.9.1, Ubuntu 24.04.2 LTS',
        'red_herring': 'Diagnosed with Claude and it says "The gpt-oss:20b model runs on CPU because it uses MXFP4 quantization, which likely lacks GPU acceleration support in',
    },
    engine_args='OLLAMA_CONTEXT_LENGTH=131072 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_NUM_PARALLEL=1 OLLAMA_FLASH_ATTENTION=1',
    observe={'gpu_util': (0.01, 'using just 1% of GPU'), 'output_tokens_per_s': (6, 'about 6 tokens/second')},
    args_model='gpt-oss:20b',
    args_gpu='RTX 5090 + 5070 Ti',
    notes='engine_args joins the four active environment lines of the reporter\'s docker-compose (each verbatim, list markers dropped); the reporter\'s chatbot diagnosis (MXFP4) is not passed',
    leak="No reply in the stored thread; the cause is taken from the same maintainer's statement in ollama#11939 (gpt-oss at 131072 context does not fit) — hence plausible.",
    hard='Cause not confirmed in this thread (plausible); inputs carry the context setting and the 1% GPU / 6 tok/s figures.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11942', thread_type='issue',
    engine='Ollama behind Open WebUI', engine_version='Aug 2025', gpu=None, model='gpt-oss 20b',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The server ran with the default of one parallel request per model, so two to four Open WebUI chats were '
                'answered one by one.'),
    fix='Set OLLAMA_NUM_PARALLEL in the server environment (more KV cache; may spill layers to RAM).',
    confidence='maintainer_explained',
    evidence={
        'report': 'hello i have ollama and i use oss 20b, i make ollama host 0.0.0.0 at my another server nd connect ollama to webui, after it i try make 2 or 4 dialog but they awnswer only 1 by 1 how to fix it?',
        'answer': '> Set [`OLLAMA_NUM_PARALLEL`](https://github.com/ollama/ollama/blob/main/docs/faq.md#how-does-ollama-handle-concurrent-requests) in the server environment.',
        'unit': 'Environment="OLLAMA_HOST=0.0.0.0"',
        'maintainer': 'Looks right.  Note that this will quadruple the amount of KV cache allocated, so can cause layers to spill to system RAM which will result in slower inference.',
    },
    engine_args='Environment="OLLAMA_HOST=0.0.0.0"',
    args_model='oss 20b',
    notes='engine_args is the only server setting the reporter had before the fix (from the pasted systemd unit, without the later OLLAMA_NUM_PARALLEL line); "2 or 4 dialogs answered one by one" has no vocabulary number',
    leak="The OLLAMA_NUM_PARALLEL suggestion and the maintainer's confirmation are left out.",
    hard='No numbers; the decisive fact is a missing setting.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/11688', thread_type='issue',
    engine='Ollama (Fedora)', engine_version='Aug 2025', gpu='RTX 4070 12 GB', model='gpt-oss:20b',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The 18 GB loaded model (weights plus graph/KV at 8192 context) did not fit in the 12 GB card, so 47% ran '
                'on the CPU and decode fell to ~10 tok/s.'),
    fix='Fit the model in VRAM (smaller context/model) or accept partial offload.',
    confidence='plausible',
    evidence={
        'report': ["I'm getting significantly lower throughput than expected running the GPT-OSS:20B model in MXFP4 with a 12GB RTX 4070 on Ollama. (I'm using no additional settings or variables)",
                   '- 18 GB SIZE', '-  47%/53% CPU/GPU (CPU: ryzen 7 7800x3d)', '- context of 8192', '- VRAM usage: ~8–9GB', '- Token throughput: ~10 tokens/sec'],
        'expected': '- Another one reported  25t/s for the 120B on a 3090',
        'log': 'Aug 05 16:02:28 fedora ollama[307353]: time=2025-08-05T16:02:28.371-04:00 level=INFO source=server.go:135 msg="system memory" total="30.5 GiB" free="22.4 GiB" free_swap="5.8 GiB"',
    },
    log=[('log', None), '47%/53% CPU/GPU'],
    observe={'output_tokens_per_s': (10, '~10 tokens/sec'), 'gpu_mem_used_gib': (8, '~8–9GB')},
    args_model='gpt-oss:20b',
    args_gpu='RTX 4070 12GB',
    notes='"47%/53% CPU/GPU" is the PROCESSOR column of ollama ps as the reporter copied it, passed as a log line; the lower end of ~8-9 GB VRAM is passed',
    leak="No maintainer reply in the stored thread; the cause is read from the reporter's own ollama ps figures — hence plausible.",
    hard='Cause not confirmed in the thread (plausible).'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/5700', thread_type='issue',
    engine='SGLang (FA3 attention backend, FP8 KV cache)', engine_version='Apr 2025', gpu=None, model='QwQ-32B (w8a8_fp8)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('With kv_cache_dtype=fp8_e4m3 the FlashAttention-3 backend skipped the q_descale step for the FP8 KV '
                'cache, so attention ran on wrongly scaled values and the output was nonsense (FlashInfer was fine).'),
    fix='Add the q_descale computation in flashattention_backend.py (or use FlashInfer / a bf16 KV cache).',
    confidence='plausible',
    evidence={
        'report': 'When using FP8 KV Cache, the output from FlashAttention3 is nonsense.',
        'fa3_output': 'devil.i#else?;\\n\\nсоб und? ±__',
        'flashinfer_output': '，我想学习如何用Python处理Excel文件',
        'cause': "It seems that it's missing the q_descale calculation in https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/layers/attention/flashattention_backend.py#L667",
        'repro': ['tp_size=4,', 'attention_backend="fa3",', 'kv_cache_dtype="fp8_e4m3",', 'quantization="w8a8_fp8")'],
    },
    outputs=[('fa3_output', None)],
    engine_args='tp_size=4, attention_backend="fa3", kv_cache_dtype="fp8_e4m3", quantization="w8a8_fp8"',
    args_model='QwQ-32B',
    notes='engine_args joins the reporter\'s sgl.Engine keyword lines; the FA3 reply to "hello" is the output sample (the \\n are literal in the thread); the FlashInfer comparison is not passed',
    leak="The reporter's pointer to the missing q_descale and the FlashInfer comparison are left out.",
    hard='Sits between numeric (FP8 KV cache) and operator (a bug in the FA3 kernel path); the cause is the reporter\'s code reading, not confirmed in the thread.'))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/11028', thread_type='issue',
    engine='llama.cpp llama-server', engine_version='Jan 2025', gpu=None, model='granite-3.1-2b-instruct-Q5_K.gguf',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The granite model\'s built-in chat template was not recognised, so llama-server fell back to ChatML and '
                'the model answered badly; --chat-template granite fixed it.'),
    fix='Start llama-server with --chat-template granite.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Eval bug: granite-3.1-2b-instruct-Q5_K.gguf The chat template that comes with this model is not yet supported',
        'log': "main: chat template, built_in: 0, chat_example: '<|im_start|>system",
        'suggestion': 'Hi, I implemented this template a few weeks ago, can you try using:',
        'reporter': 'I have just found it, yes, it works better with it.',
    },
    log=[('log', None)],
    args_model='granite-3.1-2b-instruct-Q5_K.gguf',
    notes='the server start line shows the ChatML example being used for a granite model; no response text is in the stored thread',
    leak="The server warning quoted in the title ('The chat template that comes with this model is not yet supported') names the cause and is left out, as are the --chat-template granite suggestion and the reporter's confirmation.",
    hard='No output sample; the clue is a ChatML example line for a non-ChatML model.'))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/14126', thread_type='issue',
    engine='vLLM (Qwen2 family, GPTQ)', engine_version='Mar 2025', gpu=None, model='Qwen 2.5 (reproduced with Qwen1.5-14B-Chat-GPTQ)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Activations in the Qwen2 model code overflowed in float16 with the GPTQ checkpoint, producing inf/NaN and '
                'an output of only "!" tokens; a maintainer reproduced it and clamped the overflow.'),
    fix='Clamp the overflowing activations in qwen2.py (maintainer branch qwen2-overflow-clamp) or run in bfloat16.',
    confidence='maintainer_explained',
    evidence={
        'title': 'VLLM for Qwen 2.5 produces all !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! outputs, regardless of prompt',
        'maintainer': "@noooop @manitadayon I can reproduce this issue by using Qwen1.5-14B-Chat-GPTQ, and now I've implemented a temporary solution which could fix this issue locally, please see: https://github.com/jeejeelee/vllm/blob/qwen2-overflow-clamp/vllm/model_executor/models/qwen2.py#L237-L246.",
    },
    outputs=['!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!'],
    args_model='Qwen 2.5',
    notes='the output sample is the run of "!" from the title; the maintainer\'s reproduction script (Qwen1.5-14B-Chat-GPTQ, tp=2, enforce_eager) is not passed',
    leak="The maintainer's reproduction and the overflow-clamp branch are left out.",
    hard='Only the "!!!" output and a family name; quantization and dtype are not in the inputs.'))

I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/1056', thread_type='issue',
    engine='llama-cpp-python (Llama.__call__ / create_completion)', engine_version='Dec 2023', gpu='RTX 3090Ti', model='seraph-openchat-3.5-1210-slerp.Q4_K_M.gguf',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The completion call was made without max_tokens, so the library default (16 tokens) cut every answer '
                'off with finish_reason "length".'),
    fix='Pass max_tokens explicitly (e.g. max_tokens=-1).',
    confidence='maintainer_explained',
    evidence={
        'responses': ["'index': 0, 'logprobs': None, 'finish_reason': 'length'}], 'usage': {'prompt_tokens': 2074, 'completion_tokens': 16, 'total_tokens': 2090}}",
                      "'index': 0, 'logprobs': None, 'finish_reason': 'length'}], 'usage': {'prompt_tokens': 1202, 'completion_tokens': 16, 'total_tokens': 1218}}"],
        'report': 'Regardless of the prompt length, the completion tokens is always 16. I am running these models on RTX 3090Ti, so the former fits entirely in GPU and the latter needs some offloading to CPU.',
        'answer': 'The `__call__` of `Llama` has a default value 128 for the parameter `max_tokens`.',
        'maintainer': 'Yes @lukasz-kastelik @zhangchn is correct, very sorr',
    },
    log=[('responses', 0), ('responses', 1)],
    observe={'output_len_mean': (16, "'completion_tokens': 16")},
    args_model='seraph-openchat-3.5-1210-slerp.Q4_K_M.gguf',
    args_gpu='RTX 3090Ti',
    notes='the two response tails are passed as log lines (client output); the tweaked load parameters (n_ctx, n_batch, n_gpu_layers) are not given with values',
    leak="The commenter's default-max_tokens explanation and the maintainer's confirmation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/infiniflow/ragflow/issues/5603', thread_type='issue',
    engine='Xinference with vLLM backend, called by RAGFlow', engine_version='RAGFlow v0.16.0', gpu=None, model=None,
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('RAGFlow sent no max_tokens, so the backend default output limit applied and long answers were cut off; '
                'setting max_tokens in the request fixed it.'),
    fix='Set max_tokens explicitly in the chat assistant / request.',
    confidence='confirmed_by_reporter',
    evidence={
        'report': ' 3. max_tokens disabled\n  4. the output will still be truncated',
        'log': "generate config: {'frequency_penalty': 0.7, 'presence_penalty': 0.4, 'temperature': 0.1, 'top_p': 0.3, 'stream': True, 'stop': ['<｜end?of?sentence｜>'], 'stop_token_ids': [151643]}",
        'question': 'There are no configuration items for max_tokens,but the output is still truncated.This is because max_tokens have a default value or because ignore_eos defaults to False?',
        'reporter': 'Yes, we solved this problem by adding max_tokens',
    },
    log=[('log', None)],
    notes='the Xinference debug line shows the sampling parameters actually sent (no max_tokens); the truncated answer is a screenshot',
    leak="The reporter's question (which names a max_tokens default) and the confirmation that adding max_tokens fixed it are left out.",
    hard='No output text; the clue is the absence of max_tokens in the generate config.'))


# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/flagos-ai/vllm-plugin-FL/issues/396', thread_type='issue',
    engine='vLLM 0.20.2 + vllm-plugin-FL (Moore Threads MUSA)', engine_version='plugin 0.2.0', gpu='Moore Threads S5000', model='FlagRelease/Phi-4-mini-instruct-mthreads-FlagOS',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The upstream README forces --enforce-eager, disabling CUDA-graph capture; every decode step then pays '
                'per-kernel CPU launch cost (EngineCore at 383% CPU) and output throughput is 6-10x below normal.'),
    fix='Drop --enforce-eager once graph capture works on the MUSA backend.',
    confidence='plausible',
    evidence={
        'launch': '- 启动：严格照 modelscope 上游 README —— `VLLM_PLUGINS=fl vllm serve ... --enforce-eager`',
        'hw': '- 硬件：摩尔线程 S5000 单卡（`--tensor-parallel-size 1`）',
        'bench': '- 估算 output 吞吐约 **100~250 tok/s**，同时 `VLLM::EngineCore` 进程 CPU 占用高达 **383%**。',
        'expected': '同规模模型（3.8B 单卡）在 CUDA graph 正常开启时通常 1500+ tok/s，**当前慢约 6~10 倍**。',
        'cause': '上游 README 的 serve 命令强制 `--enforce-eager`，这禁用了 vLLM 的 CUDA graph 捕获：',
    },
    engine_args='VLLM_PLUGINS=fl vllm serve ... --enforce-eager',
    observe={'output_tokens_per_s': (100, '100~250 tok/s'), 'expected_output_tokens_per_s': (1500, '通常 1500+ tok/s')},
    args_model='FlagRelease/Phi-4-mini-instruct-mthreads-FlagOS',
    args_gpu='摩尔线程 S5000',
    notes='lower end of the estimated 100-250 tok/s is passed; the expected 1500 tok/s is the reporter\'s figure for a same-size model with CUDA graphs; the 383% EngineCore CPU has no vocabulary name',
    leak="The reporter's root-cause section (forced --enforce-eager disables CUDA graphs) is left out.",
    hard='Reporter\'s diagnosis; no maintainer reply in the stored thread (plausible).'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/2192', thread_type='issue',
    engine='TGI 2.0.4 (docker, AWQ)', engine_version='2.0.4', gpu='1x L40S', model='TheBloke/Nous-Hermes-2-Mixtral-8x7B-DPO-AWQ',
    symptom='timeout_or_stream_break', layer='operator_hardware',
    root_cause=('A CUDA-graph bug in this TGI version (issue #2099) made the server hang after a few hundred requests: the '
                'queue grew without bound and clients got empty responses; disabling CUDA graphs avoided the hang.'),
    fix='Run with --cuda-graphs 0 (slower) until the CUDA-graph bug is fixed.',
    confidence='maintainer_explained',
    evidence={
        'repro': 'Launch TGI using `max_total_tokens`=`max_batch_prefill_tokens`=16384; `max_input_length`=16383; `quantize`=awq.',
        'report': 'After making a few hundred requests, the pod returns empty packets and only a few seconds after the request a',
        'monitoring': 'Monitoring reveals that `tgi_queue_size` increases steadily but does not ever go down.',
        'maintainer': 'Hey @QLutz , I suspect it may be related to #2099. Can you try to run TGI with `--cuda-graphs 0` see if you still see the hang?',
        'user': 'I had the same problem, and was able to solve it by trying `--cuda-graphs 0` method. This obviously caused major performance problems, but it was at least a better option than being disabled.',
    },
    engine_args='max_total_tokens=max_batch_prefill_tokens=16384; max_input_length=16383; quantize=awq',
    args_model='TheBloke/Nous-Hermes-2-Mixtral-8x7B-DPO-AWQ',
    args_gpu='L40S',
    notes='engine_args is the reporter\'s launch line with the markdown backticks dropped; the growing tgi_queue_size has no value in the thread',
    leak="The maintainer's pointer to the CUDA-graph bug (#2099) and the --cuda-graphs 0 workaround are left out.",
    hard='The maintainer suspected the cause and a second user confirmed the workaround; nothing in the inputs mentions CUDA graphs.'))

I.append(dict(
    src='https://github.com/weicj/vLLM-2080Ti-Definitive/issues/140', thread_type='issue',
    engine='vLLM (2080 Ti fork, TP=2)', engine_version='Aug 2026', gpu='2x RTX 2080 Ti (PCIe 3.0 x16, no NVLink)', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The 2080 Ti lacks a large-BAR BIOS, so PCIe peer-to-peer is impossible without NVLink; tensor-parallel '
                'traffic goes through CPU host staging and caps decode at 40-50 tok/s whatever the profile.'),
    fix='Add an NVLink bridge, or use cards with PCIe P2P (T4/T10/RTX 6000/8000).',
    confidence='maintainer_explained',
    evidence={
        'report': 'decode速度只有40~50，不是只存在int8kv下的， 而是几乎大部分profile差不多都是这个速度 比如作者推荐的profile',
        'log': '**1.启动日志显示vllm_flash_attn rotary extension is unavailable; falling back to native rotary embedding** ',
        'topology': '**2.硬件无nvlink，且未开启p2p(官方驱动好像已经把没link情况下的p2p模式堵死了，暂时还没折腾p2p)**',
        'maintainer': '由于2080ti缺乏大bar bios，pcie下无法实现p2p （即使通过opengpukernel强开mailbox p2p，实际上也是回落host staging的，无法被nccl调用），因此只有nvlink桥接情况下才能实现p2p，走cpu host staging对解码阶段可能会有一些延迟影响。',
    },
    log=['vllm_flash_attn rotary extension is unavailable; falling back to native rotary embedding'],
    observe={'output_tokens_per_s': (40, 'decode速度只有40~50')},
    args_gpu='2080ti',
    notes='the rotary-extension warning is the start-up line the reporter quoted (a red herring); the lower end of 40-50 tok/s is passed; the reporter\'s topology remark (no NVLink, P2P off) is withheld because it came with their own P2P hypothesis',
    leak="The maintainer's explanation (no large-BAR BIOS, no PCIe P2P, host staging) and the reporter's no-NVLink/P2P remark are left out.",
    hard='The decisive fact (no NVLink / no P2P between the two cards) is not in the inputs; the only log line points elsewhere.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/singnet/Omega/pull/351', thread_type='pr',
    engine='Omega agent Docker image: nginx proxy -> OpenAI-compatible LLM endpoint', engine_version='Sep 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Every LLM request went through the image\'s nginx proxy, whose LLM routes used the global 120 s '
                'proxy_read_timeout; slower responses came back as 504, the OpenAI client retried twice and the agent '
                'returned an empty reply.'),
    fix='Set 600 s proxy_read/send timeouts on the LLM routes (this PR).',
    confidence='confirmed_by_reporter',
    evidence={
        'analysis': 'In the Docker image every LLM request goes through the nginx proxy. The LLM routes use the global 120s `proxy_read_timeout`/`proxy_send_timeout`, so a response that takes longer comes back as 504. The OpenAI client retries twice, gets 504 again, and `AIProvider.chat` returns `""`, so the agent never replies. That matches the two 504s two minutes apart in the #321 logs.',
        'test_main': '- `main`: nginx logged `upstream timed out` and returned 504 at 120s, three times, then `Exception while communicating with LLM: 504 Gateway Time-out` and nothing was sent.',
        'test_branch': "- This branch: the proxy returned 200 after 150s with no retries, and the agent's reply reached the channel.",
    },
    log=['upstream timed out', 'Exception while communicating with LLM: 504 Gateway Time-out'],
    observe={'e2e_p99_s': (120, 'returned 504 at 120s')},
    notes='the nginx message and the agent\'s exception are passed as log lines (fragments quoted in the PR test); the 504 arrived after 120 s (passed as e2e); the local test endpoint answered after 150 s',
    leak="The PR's analysis (global 120 s proxy_read_timeout on the LLM routes, client retries) and the fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/mostlygeek/llama-swap/issues/92', thread_type='issue',
    engine='llama-swap (proxy) in front of llama-server', engine_version='Apr 2025', gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('llama-swap\'s health-check timeout (15 s) was shorter than the model load time after a cold start, so the '
                'proxy marked the process failed and refused to proxy requests.'),
    fix='Set healthCheckTimeout: 300 in config.yaml (and restart after the failed state).',
    confidence='confirmed_by_reporter',
    evidence={
        'context': 'After a cold start of llama-swap, I got the following error message when trying to chat with the model over llama-server:',
        'log': ['unable to start process: health check failed after 15s', 'Process can not ProxyRequest, state is failed'],
        'cause': 'This error happens because it takes longer than 15 seconds to load the model.',
        'fix': 'healthCheckTimeout: 300',
    },
    log=[('log', 0), ('log', 1)],
    notes='the two proxy error messages are the inputs; symptom other (request refused at start-up)',
    leak="The reporter's cause section (load takes longer than 15 s) and the healthCheckTimeout fix are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/BerriAI/litellm/issues/30836', thread_type='issue',
    engine='LiteLLM proxy (/v1/messages passthrough) -> Claude on Bedrock / Anthropic API', engine_version='Jun 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The /v1/messages route ignored the configured timeout/stream_timeout and used the built-in 600 s fallback as '
                'the socket read timeout, so any inter-chunk gap over 600 s at peak time killed healthy streams.'),
    fix='Honour per-deployment/router timeout and stream_timeout on /v1/messages.',
    confidence='plausible',
    evidence={
        'peak': 'During peak hours the popular models (Claude on Bedrock and the native Anthropic API) slow down under load, and long-running streaming responses develop silent gaps between chunks.',
        'error': 'The request dies with `aiohttp.client_exceptions.SocketTimeoutError` surfaced as `httpx.ReadTimeout`.',
        'cause': 'The Anthropic `/v1/messages` passthrough route ignores the configured `timeout` and `stream_timeout`, so every request on this route is hard-capped at the built-in 600s default (`COMPLETION_HTTP_FALLBACK_SECONDS`).',
        'config': 'Setting `timeout` / `stream_timeout` on the deployment or router has no effect on this route',
    },
    log=['aiohttp.client_exceptions.SocketTimeoutError', 'httpx.ReadTimeout'],
    notes='the two exception names are the client-visible errors; no timings other than the 600 s cap (withheld) are given',
    leak="The title and the cause paragraph (600 s built-in default, config ignored on /v1/messages) are left out.",
    hard='Reporter\'s code-level diagnosis (plausible); the inputs are two exception names and nothing says which proxy route or limit.'))

I.append(dict(
    src='https://github.com/pydantic/logfire/issues/1882', thread_type='issue',
    engine='Pydantic AI Gateway (Cloudflare Workers) -> Anthropic API', engine_version='Apr 2026', gpu=None, model='claude-opus-4-7',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The hosted gateway cut every streaming response at exactly 180 s even while tokens were flowing; direct '
                'calls to the provider completed (445 s).'),
    fix='Lift the 180 s streaming cap in the gateway.',
    confidence='confirmed_by_reporter',
    evidence={
        'summary': 'The Pydantic AI Gateway (hosted on Cloudflare Workers) terminates streaming LLM responses at exactly 180 seconds, regardless of whether data is actively flowing. This causes `RemoteProtocolError: peer closed connection without sending complete message body` on the client side.',
        'gateway_row': '| **Gateway** (PAIG proxy) | FAILED at 180.5s | 180.5s | 447 chunks (cut mid-stream) |',
        'client': '- Client: `pydantic-ai` with `httpx.AsyncClient` (read timeout: 600s)',
        'sizes': '- Input: ~192k tokens, output: ~54k tokens',
    },
    log=['RemoteProtocolError: peer closed connection without sending complete message body'],
    observe={'e2e_p99_s': (180.5, 'FAILED at 180.5s'), 'input_len_mean': (192000, '~192k tokens')},
    args_model='claude-opus-4-7',
    notes='the client error and the failure time are passed; the direct-to-provider comparison (444.9 s success) is not',
    leak="The summary's claim that the gateway terminates at exactly 180 s and the direct-vs-gateway table are left out (only the gateway failure time is passed).",
    hard=None))

I.append(dict(
    src='https://github.com/voidmind-io/voidllm/pull/224', thread_type='pr',
    engine='VoidLLM gateway -> local vLLM', engine_version='Aug 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The gateway\'s undocumented server.proxy.max_stream_duration capped every streaming response at 5 minutes; '
                'long agentic completions from vLLM were aborted mid-generation, and raising write_timeout (the documented '
                'advice) changed nothing.'),
    fix='Raise server.proxy.max_stream_duration (documented by this PR).',
    confidence='confirmed_by_reporter',
    evidence={
        'problem': '`server.proxy.max_stream_duration` caps every streaming response at 5 minutes by default (`internal/proxy/handler.go:122`), but it is documented nowhere.',
        'incident': 'That is not hypothetical. Serving a local vLLM backend, long agentic completions were being cut mid-generation with `stream aborted` client-side and no error at all from the model. Raising `write_timeout` from 600s to 3600s per the docs changed nothing. The gateway log showed the real cause:',
        'gateway_log': 'WARN stream timeout exceeded, aborting upstream connection',
    },
    log=['stream aborted'],
    engine_args='write_timeout 3600s',
    notes='the client-side error is passed; engine_args is the gateway setting the operator had already raised (from 600 s to 3600 s)',
    leak="The gateway WARN line ('stream timeout exceeded, aborting upstream connection') names the cause and is left out, as is the max_stream_duration explanation.",
    hard='Only "stream aborted" and an already-raised write_timeout; the gateway log line that gives it away is withheld.'))

I.append(dict(
    src='https://github.com/mostlygeek/llama-swap/issues/618', thread_type='issue',
    engine='llama-swap peer proxy -> remote llama-server / image models', engine_version='Apr 2026', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('llama-swap\'s peer proxy hard-coded a 60 s ResponseHeaderTimeout, so models that need minutes before the '
                'first byte (large image models, slow peers) got a 502.'),
    fix='Make connect/response-header timeouts configurable per model and peer.',
    confidence='confirmed_by_reporter',
    evidence={
        'context': 'When using llama-swap with lower-end hardware (slower CPUs, limited RAM, or remote peers on slower networks), users are encountering 502 errors:',
        'log': 'Image API error: 502 - peer proxy error: net/http: timeout awaiting response headers',
        'cause': '- `ResponseHeaderTimeout`: 60 seconds (in `peerproxy.go`)',
        'why': '- Large image generation models that take several minutes to produce the first response',
    },
    log=[('log', None)],
    notes='one client-visible error line; no timings',
    leak="The reporter's code reading (ResponseHeaderTimeout 60 s in peerproxy.go) and the proposed config are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vectorize-io/hindsight/issues/1567', thread_type='issue',
    engine='Hindsight API (client) -> takeover proxy -> small local LLM', engine_version='May 2026', gpu=None, model='~2B local model',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('On timeout the Hindsight API re-sent the same chat request several times without request IDs; the backend '
                'processed the duplicates concurrently, exhausted GPU memory and caused cascading timeouts.'),
    fix='Send one request (no automatic POST retries) or add x-request-id so backends can deduplicate.',
    confidence='confirmed_by_reporter',
    evidence={
        'summary': 'When using small parameter LLMs (e.g., 2B models), Hindsight API sends multiple duplicate requests to the LLM backend upon timeout, but these retry requests contain no unique identifiers (no x-request-id or x-trace-id headers). This causes the backend to process multiple identical requests simultaneously, leading to GPU memory exhaustion and cascading timeouts.',
        'log': ['Request #1 at 2026-05-10T19:44:00.388Z', 'Request #2 at 2026'],
        'setup': '2.Set up a debugging HTTP server that captures all incoming requests without responding (to trigger timeout)',
    },
    log=[('log', 0), ('log', 1)],
    notes='the reporter\'s debug server saw the same POST several times; the second line is cut in the stored text (verbatim prefix)',
    leak="The summary (duplicate retries without IDs cause GPU memory exhaustion) is left out.",
    hard='Only two request-arrival lines from a debug capture; nothing says they are retries of one call.'))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/922', thread_type='issue',
    engine='SGLang', engine_version='Aug 2024', gpu='A6000 48GB', model='llama3.1 70b awq 4 bit',
    symptom='ttft_spike', layer='load',
    root_cause=('16K-token RAG prompts on a 70B AWQ model on a single A6000 spend ~15 s in prefill; SGLang then mostly '
                'accelerated decoding, so the first-token latency was expected for that input size.'),
    fix='Shorter prompts / more GPUs; wait for the prefill optimisations (maintainer).',
    confidence='maintainer_explained',
    evidence={
        'setup': 'I am experimenting with SGLang and vLLM for long context(16K) RAG application which requires real time responses.',
        'hw': 'I am using single Nvidia A6000 48GB GPU and llaam3.1 70b awq 4 bit model.',
        'ttft': 'Currently I am seeing Time for first token latency is around 15 seconds which is very high.',
        'tried': 'Experimented with parameters like --chunked-prefill-size , --mem-frac etc',
        'maintainer': 'SGLang currently mostly accelerates the decoding, so what you observed is expected.',
    },
    observe={'ttft_p50_s': (15, 'around 15 seconds'), 'input_len_mean': (16000, 'long context(16K)')},
    args_model='llama3.1 70b awq 4 bit',
    args_gpu='A6000 48GB',
    notes='TTFT and the 16K context are the reporter\'s figures; the tuned flags have no values',
    leak="The maintainer's reply (prefill not yet optimised, expected) is left out.",
    hard='Could also be read as operator (prefill kernels) — the maintainer calls it expected for the input size.'))

I.append(dict(
    src='https://github.com/jaylfc/taosmd/pull/42', thread_type='pr',
    engine='Ollama (/api/generate, benchmark runner)', engine_version='Apr 2026', gpu=None, model='qwen3.5:9b',
    symptom='throughput_low', layer='load',
    root_cause=('Requests to thinking-capable Qwen3.x models ran with reasoning on by default, so each call generated 200+ '
                'hidden reasoning tokens that Ollama strips from the visible answer; a trivial question took 173.6 s and '
                'the benchmark crawled.'),
    fix='Send think: false in every /api/generate payload (this PR; 173.6 s -> 0.5 s).',
    confidence='confirmed_by_reporter',
    evidence={
        'row_default': '| default (thinking on) | 173.6s | 225 | "On Monday." (10 chars) |',
        'row_fixed': '| \\`think: false\\` top-level | 0.5s | 9 | "2 + 2 equals **4**." (19 chars) |',
        'summary': '- Fixes a benchmark runtime pathology: Qwen3/3.5/3.6 thinking-capable models emit 200+ hidden reasoning tokens per call by default. Ollama strips them from the visible response but bills the full generation time.',
    },
    outputs=['"On Monday." (10 chars)'],
    observe={'e2e_p99_s': (173.6, '173.6s'), 'output_len_mean': (225, '| 225 |')},
    args_model='qwen3.5:9b',
    notes='the default-run row of the author\'s probe: 173.6 s elapsed, eval_count 225, visible answer "On Monday." (passed as the output sample); the think:false row is the fix and is not passed',
    leak="The summary (hidden reasoning tokens) and the think:false comparison row are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/18550', thread_type='issue',
    engine='vLLM 0.8.5 (offline LLM, multi-image)', engine_version='0.8.5', gpu=None, model='Qwen2.5-VL-72B-Instruct-AWQ',
    symptom='startup_oom', layer='load',
    root_cause=('Asking for 12 images per prompt made vLLM size its multimodal budget for 12 x 16384 image tokens at '
                'profiling, and that much data does not fit; the maintainer called the OOM expected for that input.'),
    fix='Fewer images per prompt or smaller per-image token budgets (max_pixels) reflected in the profiling limit.',
    confidence='maintainer_explained',
    evidence={
        'ask': 'I want to run inference of Qwen2.5-VL-72B-Instruct-AWQ with multi images.',
        'maintainer': "That's expected since more data is being passed through the model.",
        'config': ['    gpu_memory_utilization=0.95,', '    max_model_len=32768,', '    max_num_seqs=1,', '    limit_mm_per_prompt={"image": 12, "video": 0},'],
        'analysis': 'I need 12 images in my prompt, but if I set limit_mm_per_prompt={"image": 12, "video": 0}, vLLM will reserve 16384 * 12 tokens for multi-modal embeddings during the profiling stage, which causes an OOM error.',
    },
    engine_args='gpu_memory_utilization=0.95, max_model_len=32768, max_num_seqs=1, limit_mm_per_prompt={"image": 12, "video": 0}',
    args_model='Qwen2.5-VL-72B-Instruct-AWQ',
    notes='engine_args joins the reporter\'s LLM(...) keyword lines; no OOM trace is quoted in the stored text',
    leak="The reporter's profiling analysis (16384 x 12 tokens reserved) and the maintainer's reply are left out.",
    hard='Between load (12 images per prompt) and scheduling (the profiling reservation that follows from limit_mm_per_prompt).'))

I.append(dict(
    src='https://github.com/ml-explore/mlx-swift-lm/issues/396', thread_type='issue',
    engine='mlx-swift-lm (MLXVLM, Qwen3.5/3.6 vision)', engine_version='Jul 2026', gpu='Apple M-series Mac', model='Qwen3.6 27B (quantized)',
    symptom='ttft_spike', layer='load',
    root_cause=('A single full-resolution screenshot was fed uncapped to the ViT, whose global O(patches^2) attention '
                'allocated a ~29 GB score matrix: 47 GB peak memory and 121 s prefill for one image.'),
    fix='Cap per-image vision tokens by default (PR #398), keep full resolution opt-in.',
    confidence='confirmed_by_reporter',
    evidence={
        'measured': 'Measured on an M-series Mac with a 27B Qwen3.6 checkpoint: one full-screen screenshot in the prompt → **47 GB peak memory and 121 s prefill**. With a per-image vision-token cap: **~21 GB peak**, prefill time proportionally down. (The language-model side is already chunked; the blowup is entirely the ViT.)',
        'mechanism': 'The qwen3_5 vision tower runs **global O(patches²) attention** — one SDPA over `P = total patches` with a `[1, P, P]` mask and no window structure.',
    },
    observe={'gpu_mem_used_gib': (47, '47 GB peak memory'), 'ttft_p50_s': (121, '121 s prefill')},
    args_model='Qwen3.6 27B',
    args_gpu='M-series Mac',
    notes='peak unified memory is passed as gpu_mem_used_gib (GB read as GiB) and the prefill time as TTFT; the capped comparison (~21 GB) is not passed',
    leak="The ViT O(patches^2) explanation, the capped comparison and the proposal are left out.",
    hard='Nothing in the inputs says the prompt carried a full-resolution image.'))

# ============================== replacements (second pass) ==============================
I.append(dict(
    src='https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1041', thread_type='issue',
    engine='LM Studio 0.3.27 (Vulkan llama.cpp runtime v1.51.0, Windows)', engine_version='runtime v1.51.0', gpu='AMD Ryzen AI Max+ 395 (16 GB assigned as VRAM)', model='qwen3-30b-a3b',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The Vulkan llama.cpp runtime v1.51.0/1.52.0 loaded the model into system RAM and computed on the CPU instead '
                'of the GPU, so decode fell from ~50 to ~20 tok/s; rolling back to v1.50.2 restored GPU execution.'),
    fix='Roll the Vulkan runtime back to v1.50.2 (until a fixed runtime ships).',
    confidence='confirmed_by_reporter',
    evidence={
        'report': "I'm using AMD AI Max + 395, 16G was assigned as VRAM, running qwen3-30b-a3b through the runtime Vulkan llama.cpp. The older version 1.50.2 was pretty fast, nearly 50 tokens/s, but the testing version 1.51.0 is slow, it's only about 20 tokens/s. I open the Task Manager, the version 1.51.0 would load the model to RAM and computed by CPU, when 1.50.2 load the model to vram, and computed by GPU",
        'title': 'The runtime Vulkan llama.cpp (Windows) v1.51.0 use CPU incorrectly',
        'other_user': "Vulkan engine v1.52.0 (and I guess v1.51.0) doesn't use the GPU/VRAM to do the work, it relies on the CPU, thus x3 worse performance.",
        'rollback': 'Roll it back to Vulkan v1.50.2 and it will work as before and will utilize the GPU/VRAM.',
    },
    engine_args='Vulkan llama.cpp (Windows) v1.51.0',
    observe={'output_tokens_per_s': (20, 'only about 20 tokens/s'), 'expected_output_tokens_per_s': (50, 'nearly 50 tokens/s')},
    args_model='qwen3-30b-a3b',
    args_gpu='AMD AI Max + 395',
    notes='engine_args is the runtime name/version from the title; the expected rate is the same setup on the previous runtime (1.50.2); the Task Manager observation (model in RAM, CPU compute) is withheld',
    leak="The Task Manager observation (RAM/CPU instead of VRAM/GPU), the title's 'use CPU incorrectly' and the rollback confirmations are left out.",
    hard='Runtime regression that moves compute to the CPU: could be read as operator (backend) or as scheduling (weights placed in RAM).'))

I.append(dict(
    src='https://github.com/ggml-org/llama-install.sh/issues/20', thread_type='issue',
    engine='llama.cpp (llama.app installer build, llama serve)', engine_version='Jun 2026', gpu='RTX 5060 8 GB', model='unsloth/gemma-4-E4B-it-GGUF:Q4_K_M',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The Windows installer script downloaded the Vulkan build for an NVIDIA card; the Vulkan backend ran at about '
                '1/10 of the CUDA build\'s speed on the same GPU.'),
    fix='Install the CUDA build for NVIDIA GPUs (installer should pick it).',
    confidence='confirmed_by_reporter',
    evidence={
        'report': "So I was testing this on my pc to see if it's a good place to send newbies, and I ran the install instructions `irm https://llama.app/install.ps1 | iex`. What I got was a vulcan based runtime that ran _very_ slow, 1/10th of the cuda version I downloaded from the github repository.",
        'command': '> llama serve -hf unsloth/gemma-4-E4B-it-GGUF:Q4_K_M -ngl 99 -c 4096',
        'log': ['0.00.662.697 I device_info:', '0.00.663.544 I   - Vulkan0 : NVIDIA GeForce RTX 5060 (7895 MiB, 7127 MiB free)'],
        'expect': 'In my case, I got a 5060 so it should use cuda.',
    },
    log=[('log', 0), ('log', 1)],
    engine_args='llama serve -hf unsloth/gemma-4-E4B-it-GGUF:Q4_K_M -ngl 99 -c 4096',
    args_model='unsloth/gemma-4-E4B-it-GGUF:Q4_K_M',
    args_gpu='RTX 5060',
    notes='the device lines of the installed build are passed; "1/10th of the cuda version" has no absolute rate in the thread',
    leak="The reporter's comparison with the CUDA build and the remark that it should use CUDA are left out.",
    hard='No rates; the clue is a Vulkan device line for an NVIDIA GPU.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/17427', thread_type='issue',
    engine='Ollama 0.32.1 (llama-server runner)', engine_version='0.32.1', gpu='RTX 5060 Ti 16 GB', model='gpt-oss:20b',
    symptom='other', layer='numeric_parameter',
    root_cause=('Prompts longer than the 65536-token context buffer are truncated by design to fill only half the buffer '
                '(room for new tokens and generation), so the model saw ~32770 tokens of a longer prompt.'),
    fix='Keep prompts under num_ctx (or raise num_ctx); truncation to half the buffer is intended behaviour.',
    confidence='maintainer_explained',
    evidence={
        'config': ['- Config: `OLLAMA_CONTEXT_LENGTH=65536`, `OLLAMA_KV_CACHE_TYPE=q8_0`,', '`OLLAMA_FLASH_ATTENTION=1`, `OLLAMA_KEEP_ALIVE=-1`, `OLLAMA_NUM_PARALLEL=1`'],
        'env': ['- Ollama version: `0.32.1`', '- GPU: NVIDIA RTX 5060 Ti, 16 GB VRAM, driver 595.71.05'],
        'maintainer': 'When a prompt is too long, part of it has to thrown away to make room for new prompt tokens and leave room for generated tokens.  This truncation only happens when the prompt exceeds the allocated context buffer.  If the buffer is 65536 tokens and the input prompt is 65530 tokens, then the whole prompt will be used.  If the prompt is longer than the length of the context buffer, then only enough tokens to fill half of the buffer are used, the rest are discarded.',
        'repro': 'prompt eval count:    32770 token(s)',
    },
    log=[('repro', None)],
    engine_args='OLLAMA_CONTEXT_LENGTH=65536 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KEEP_ALIVE=-1 OLLAMA_NUM_PARALLEL=1',
    args_model='gpt-oss:20b',
    args_gpu='RTX 5060 Ti',
    notes='engine_args joins the reporter\'s server config (backticks dropped); the prompt-eval line is the maintainer\'s reproduction of the same symptom (the reporter\'s own figures are in the title: half of num_ctx plus 2)',
    leak="The title (which states the num_ctx/2 observation) and the maintainer's design explanation are left out.",
    hard='The prompt length that exceeded the buffer is not in the inputs; only the config and a 32770-token prompt-eval count.'))

I.append(dict(
    src='https://github.com/posit-dev/chatlas/issues/327', thread_type='issue',
    engine='chatlas / ellmer ChatOllama clients -> Ollama', engine_version='Jul 2026', gpu=None, model='gemma4',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Responses were cut off by the output cap max_tokens=2048 set in the scripts (thinking traces spend output '
                'tokens too), not by the context window num_ctx the reporter suspected; finish_reason was "length".'),
    fix='Raise or drop max_tokens (num_predict); num_ctx was not the limit.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Support configuring context window size (`num_ctx`) for local models in `ChatOllama`',
        'maintainer': "Thanks for the detailed reprex, @bgreenwell — that made this quick to run down. I dug into it, and I think the truncation you're seeing has a different cause than `num_ctx`. Two limits are easy to conflate here:",
        'cause': '`finish_reason="length"` is the **write** limit, and in both of your examples that\'s set explicitly to `max_tokens=2048`.',
        'r_snippet': 'Your R snippet sets the same `max_tokens = 2048`, so ellmer truncates in exactly the same place.',
    },
    engine_args='max_tokens=2048',
    args_model='gemma4',
    notes='engine_args is the output cap the reporter\'s scripts set (as quoted in the reply); the reporter\'s truncated responses are not quoted as text',
    leak="The maintainer's explanation (finish_reason length = max_tokens, not num_ctx) and the qwen3 reproduction are left out.",
    hard='Only the client setting and a model name; the reporter framed it as a context-window problem.'))

I.append(dict(
    src='https://github.com/Metaculus/metaculus/issues/1138', thread_type='issue',
    engine='Metaculus LLM proxy (AI benchmark) -> Claude', engine_version='Oct 2024', gpu=None, model='Claude',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The Metaculus LLM proxy had a 30-second timeout; long tool-calling requests (9 function calls) that took '
                'longer failed with a generic HTTP 503 that looked like an input problem.'),
    fix='Raise the proxy timeout / return a clear timeout error.',
    confidence='confirmed_by_reporter',
    evidence={
        'first': "I *think* the LLM Proxy (for AIB) has a sensitivity to certain input sequences. The one that I think I hit is for the string literal \\\\\\\\n (two backslashes followed by an n). However, I can't be sure because when I trigger this issue, instead of a helpful error message, I just get a generic HTTP 503.",
        'more': "Some more info: I now believe the source of the 503's I'm getting is from a 30-second timeout somewhere on the Metaculus proxy side. I can reliably repro this issue with a complex prompt that instructs Claude to call a function 9 times, and it reliably fails after 30000-31000 ms. If I reduce the number of function calls such that the response takes under 30 seconds, it succeeds.",
        'confirmed': 'Ugh, confirmed the 30-second timeout from Tom on',
    },
    log=['HTTP 503'],
    observe={'e2e_p99_s': (30, 'fails after 30000-31000 ms')},
    args_model='Claude',
    notes='the client sees only a generic HTTP 503; the failure time 30000-31000 ms is passed as e2e (ms -> s, lower end)',
    leak="The reporter's conclusion (30-second proxy timeout) and its confirmation are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/etalab-ia/OpenGateLLM/issues/116', thread_type='issue',
    engine='Albert API (OpenGateLLM) behind nginx -> Llama-3.1-70B backend', engine_version='Dec 2024', gpu=None, model='meta-llama/Meta-Llama-3.1-70B-Instruct',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('The API layer had a 2-minute request timeout; long 70B generations exceeded it and the client got an nginx '
                '504 page instead of a proper timeout error (fixed in the API).'),
    fix='Handle the API timeout and return a clean error (albert-api fix).',
    confidence='maintainer_explained',
    evidence={
        'report': 'I struggle to use this model `meta-llama/Meta-Llama-3.1-70B-Instruct` with suspect error code with a Gateway respoonse timeout from **nginx** not the **albert-api** itself.',
        'log': ['Error: 504 Server Error: Gateway Time-out for url: https://albert.api.etalab.gouv.fr/v1/chat/completions, retrying in 5 seconds...',
                '<center><h1>504 Gateway Time-out</h1></center>', '<hr><center>nginx/1.27.0</center>'],
        'maintainer': "Il y a timeout de 2 min configuré, l'erreur ne doit pas être transmise en réponse je pense, je vais regarder ca",
        'fixed': 'corrigé dans : https://github.com/etalab-ia/albert-api/p',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    args_model='meta-llama/Meta-Llama-3.1-70B-Instruct',
    notes='the client retry line and the nginx 504 page are passed; no timings are given',
    leak="The maintainer's reply (2-minute timeout configured; fixed) and the reporter's GPU-OOM/timeout guesses are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/antoinezambelli/forge/issues/90', thread_type='issue',
    engine='forge proxy + Hermes agent -> llama-server', engine_version='May 2026', gpu=None, model='Ministral-3-8B-Instruct-2512-Q8_0.gguf',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Long agent runs were killed by client-side timeouts: the Hermes agent code had many hard-coded timeouts '
                '(some 1800 s) below the llama-server --timeout 3600, so requests died before the server gave up.'),
    fix='Remove/raise the hard-coded agent timeouts (then the run lasted an hour, up to the 3600 s server timeout).',
    confidence='confirmed_by_reporter',
    evidence={
        'command': 'you asked for the full commandline, here it is: `$ build/bin/llama-server --model ~/models/Ministral-3-8B-Instruct-2512-Q8_0.gguf  --temp 0.05 --jinja -fa on --host 127.0.0.1 --port 18081 --timeout 3600 --reasoning-budget 0`',
        'resolution': "hermes agent's code is full of different timeout values, and it even has 1800 hardcoded in some places. after fixing those, i could finally have the agent run for an hour, until it ran into the 3600s timeout.",
        'title': 'proxy hitting timeouts',
    },
    engine_args='build/bin/llama-server --model ~/models/Ministral-3-8B-Instruct-2512-Q8_0.gguf  --temp 0.05 --jinja -fa on --host 127.0.0.1 --port 18081 --timeout 3600 --reasoning-budget 0',
    args_model='Ministral-3-8B-Instruct-2512-Q8_0.gguf',
    notes='engine_args is the reporter\'s llama-server command; the issue title ("proxy hitting timeouts") is the symptom; no error lines are quoted in the stored text',
    leak="The reporter's resolution (hard-coded 1800 s agent timeouts) is left out.",
    hard='Only the server command (with a generous --timeout 3600); the client-side timeouts are not in the inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/14662', thread_type='issue',
    engine='Ollama 0.17.7 behind Open WebUI', engine_version='0.17.7', gpu='NVIDIA DGX Spark (also RTX 3090)', model='QWEN3.5 35B A3B',
    symptom='ttft_spike', layer='load',
    root_cause=('After each answer Open WebUI sends background task requests (title/tag generation) to the same thinking '
                'model; with thinking on these take 30-60 s and the next user question queues behind them.'),
    fix='Use a small non-thinking task model in Open WebUI, or turn thinking off for tasks.',
    confidence='plausible',
    evidence={
        'first': 'During testing, I noticed that the first prompt responds quickly. OpenWebUI immediately shows “think” and then generates the response.',
        'second': 'However, when I ask a second question, it takes 30 to 60 seconds before the frontend webpage shows “think” and the response begins to appear.',
        'other_model': 'This issue does not occur when I run GPT-OSS 120B.',
        'smi': 'i see the nvidia-smi, it use 100% cuda but not thing to show.',
        'commenter': "I think my experience is Open WebUI related. I don't see it with out API clients + when I turn off thinking in WebUI the issue disappears. Web UI is sending requests in the background after the LLM completes its main response (title generation etc). The Qwen3.5 27B model does a lot of thinking so takes a long time.",
    },
    observe={'ttft_p50_s': (30, 'it takes 30 to 60 seconds'), 'gpu_util': (1.0, 'it use 100% cuda')},
    args_model='QWEN3.5 35B A3B',
    args_gpu='NVIDIA DGX Spark',
    notes='the lower end of the 30-60 s wait for the second question is passed as TTFT; GPU at 100% while nothing is shown is passed as gpu_util',
    leak="The commenter's explanation (Open WebUI background title generation with a thinking model) is left out.",
    hard='Explained by another user, not confirmed by the reporter or a maintainer (plausible); nothing in the inputs shows the background requests.'))

# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261119, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
