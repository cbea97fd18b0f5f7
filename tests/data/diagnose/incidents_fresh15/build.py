#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh15: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh14; this file follows incidents_fresh14/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation and list bullets dropped; a few long, wrapped or cut-off lines kept
as a verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the operator_hardware layer (kernels and their compile/autotune cost,
attention backends a GPU generation does not support, CUDA graphs with a custom all-reduce, interconnect for tensor
parallelism, GPU not used because of the host CPU or the package, host-side tokenizer/detokenizer bottleneck).

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

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/NVlabs/Jet-Nemotron/issues/12', thread_type='issue',
    engine='Jet-Nemotron inference script jetai/inference/measure_throuput.py (JetBlock kernels written in Triton)',
    engine_version='Nov 2025', gpu=None, model='Jet-Nemotron-2B',
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('JetBlock is implemented in Triton; its kernels are auto-tuned and JIT-compiled the first time each shape is '
                'used, so the first prefill iteration pays a one-time compile/autotune cost (57 s vs 10 s at chunk 128) that '
                'later iterations do not.'),
    fix='Warm the model up before it serves users so all Triton kernels are compiled and cached; report steady-state numbers.',
    confidence='maintainer_explained',
    evidence={
        'title': 'First iteration of prefilling in measure_throuput.py is slow',
        'cmd': ('python3 jetai/inference/measure_throuput.py --model_name_or_path ~/Jet-Nemotron-2B/ --prompt_len 4096 '
                '--batch_size 32 --prefill_chunk_size 32'),
        'chunks': 'I tried other chunk sizes and it seems to be the worst for 128. ',
        'table': ['|chunk|1st|2nd|', '|32|32s|27s|', '|64|18s|13s|', '|128|57s|10s|', '|256|31s|25s|', '|512|31s|8s|'],
        'question': ("Is this due to some sort of caching mechanism? Does that mean in real life usage, the speed advantage of "
                     "Jet-Nemotron won't show up for first time use?"),
        'qwen': 'On the other hand, there is no slow down in the first iteration for Qwen3-1.7B',
        'maintainer': ("As JetBlock's primary implementation is written in Triton, its kernels require auto-tuning and "
                       "compilation the first time they are used, which incurs a one-time startup latency."),
        'maintainer2': ('In real-world deployment, we can handle this issue by warming up the model before it serves users. '
                        'This warm-up process pre-compiles and caches all necessary Triton kernels, ensuring users get an '
                        'instant response right from the start without waiting for the compilation to finish.'),
        'reporter': 'Thanks for your clarification.',
    },
    engine_args=('jetai/inference/measure_throuput.py --model_name_or_path ~/Jet-Nemotron-2B/ --prompt_len 4096 '
                 '--batch_size 32 --prefill_chunk_size 32'),
    observe={'ttft_p99_s': (57, '|128|57s|10s|')},
    args_model='Jet-Nemotron-2B',
    args_gpu=None,
    notes=('engine_args is the reporter\'s command without the python3 prefix; ttft_p99_s is the worst first-iteration '
           'prefill time of the reporter\'s table (chunk 128: 57 s first, 10 s second); the table is the reporter\'s own '
           'markdown, not tool output, so it is not passed as a log; no GPU is named in the stored excerpt'),
    leak=("The maintainer's explanation (Triton auto-tuning and compilation on first use; warm up before serving) and the "
          "second-iteration column of the table are left out."),
    hard=('Only the first-iteration time is passed; that the second iteration of the same shape is 5x faster (the sign of '
          'a one-time compile) has no VOCAB field.')))

I.append(dict(
    src='https://github.com/LMCache/LMCache/issues/412', thread_type='issue',
    engine='vLLM v0.8.0rc2 OpenAI server with the LMCache (dev branch) KV connector', engine_version='vllm-v0.8.0rc2',
    gpu='NVIDIA Tesla T4', model='LLM-Research/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4',
    symptom='other', layer='operator_hardware',
    root_cause=('The T4 (Turing) cannot run the FlashAttention-2 backend, so vLLM fell back to XFormers, but the LMCache '
                'connector only supports the FlashAttention backend; the first request failed with an AssertionError and HTTP '
                '500.'),
    fix='Run LMCache on a GPU that supports FlashAttention (Ampere or newer), or wait for other backends to be supported.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Only FlashAttention backend is supported for now',
        'desc': 'I started vllm+lmcache on t4 and performed inference test.',
        'cmd': ("LMCACHE_CONFIG_FILE=/root/LMCache/config/lmcache.yaml LMCACHE_USE_EXPERIMENTAL=True VLLM_USE_MODELSCOPE=True "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True python3 -m vllm.entrypoints.openai.api_server --model "
                "LLM-Research/Meta-Llama-\n3.1-8B-Instruct-GPTQ-INT4 --port 8100 --max-model-len 10000 --kv-transfer-config "
                "'{\"kv_connector\":\"LMCacheConnector\",\"kv_role\":\"kv_both\"}'"),
        'log': ['INFO 03-19 11:53:56 [cuda.py:234] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.',
                'INFO 03-19 11:53:56 [cuda.py:282] Using XFormers backend.',
                'INFO:     127.0.0.1:41950 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error',
                "ERROR 03-19 11:54:51 [engine.py:158] AssertionError('Only FlashAttention backend is supported for now.')"],
        'question': 'It seems that my GPU is not running in flash-attention mode？',
        'gpu': 'GPU: NVIDIA Corporation TU104GL [Tesla T4] (rev a1)',
        'maintainer': '@qiucy Thanks for bringing this issue up! \nYeah, currently we only support FlashAttentio',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    engine_args=("--port 8100 --max-model-len 10000 --kv-transfer-config "
                 "'{\"kv_connector\":\"LMCacheConnector\",\"kv_role\":\"kv_both\"}'"),
    args_model='Meta-Llama-3.1-8B-Instruct-GPTQ-INT4',
    args_gpu='Tesla T4',
    notes=('the four log lines are the server lines quoted in the issue (trailing blanks dropped); engine_args is the '
           'single-line tail of the launch command (the model path is wrapped in the stored text, so the model is passed '
           'separately); the symptom (HTTP 500 on the first request) has no class, so no --symptom is passed; the '
           'maintainer\'s reply is cut off in the stored excerpt'),
    leak="The maintainer's reply (only the FlashAttention backend is supported for now) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/9922', thread_type='issue',
    engine='vLLM 0.6.3.post1 offline LLM batch inference', engine_version='0.6.3.post1', gpu='Quadro RTX 4000',
    model='google/gemma-2-27b-it',
    symptom='other', layer='operator_hardware',
    root_cause=('Gemma-2 needs attention logits soft-capping; on a Turing GPU (Quadro RTX 4000) vLLM cannot use FlashAttention '
                'and falls back to XFormers, which does not support soft-capping, and FlashInfer also requires Ampere or newer, '
                'so the model cannot be loaded on this GPU generation.'),
    fix='Use an Ampere-or-newer GPU for Gemma-2 on this vLLM version (or a later vLLM that lets XFormers take the soft cap).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: ValueError: XFormers does not support attention logits soft capping for GPU Quadro RTX 4000',
        'env': ['vllm version: 0.6.3.post1', 'gpu type: Quadro RTX 4000'],
        'desc': ('I try to use gamme series such as `google/gemma-2-27b-it` in the vllm offline batch inference, but it '
                 'seems that gemma is not supported for this GPU type ?'),
        'trace': "[rank0]:     llm = LLM(model= args.llm_name, dtype='half', max_model_len= 4096,",
        'suggestion': 'export VLLM_ATTENTION_BACKEND=FLASHINFER',
        'flashinfer_err': 'RuntimeError: Error in model execution: FlashAttention only supports Ampere GPUs or newer.',
        'reporter': 'So i guess the root reason is that my GPU is out of date as it is Turing .',
        'commenter': ('Yes, Turing does not support FLASH-ATTN, which is currently the fundamental reason why vllm inference '
                      'gemma2 cannot be used on Turing architecture graphics cards: '
                      'https://github.com/vllm-project/vllm/issues/8189#issuecomment-2332350166'),
        'reporter2': '@HelloCard  thanks. make sense.',
    },
    log=['ValueError: XFormers does not support attention logits soft capping',
         ('trace', None),
         ('flashinfer_err', None)],
    engine_args="LLM(model= args.llm_name, dtype='half', max_model_len= 4096,",
    args_gpu='Quadro RTX 4000',
    notes=('the first log line is the error message of the title; the second is the traceback line with the LLM() call; the '
           'third is the error the reporter got after switching to VLLM_ATTENTION_BACKEND=FLASHINFER as a commenter suggested '
           '(before anyone named the cause); engine_args is the LLM() call as quoted; the load failure has no class, so no '
           '--symptom is passed'),
    leak=("The reporter's conclusion (the GPU is Turing, too old) and the commenter's explanation (Turing does not support "
          "FlashAttention, the reason Gemma-2 cannot run) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/5035', thread_type='issue',
    engine='Ollama 0.1.43 (Windows installer)', engine_version='0.1.43', gpu='NVIDIA GeForce GTX 1050 Ti',
    model='llama3 8B',
    symptom='other', layer='operator_hardware',
    root_cause=('The host CPU has neither AVX nor AVX2, and this Ollama build disables GPU support on such CPUs, so the model ran '
                'on the CPU only although a CUDA-capable GTX 1050 Ti and CUDA were installed.'),
    fix='Run on a host CPU with AVX/AVX2 (or a build that does not require it for the GPU runner).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama not use GPU',
        'desc': ('I am using Ollama , it use CPU only and not use GPU, although I installed cuda v 12.5 and cudnn v 9.2.0 and '
                 'I can check that python using gpu in liabrary like pytourch'),
        'gpu': 'I have Nvidia 1050 ti and I am trying to runn llama3 8B model',
        'log_sentence': ('i found this warning in ollamam server log "level=WARN source=gpu.go:177 msg="CPU does not have AVX '
                         'or AVX2, disabling GPU support."'),
        'env': ['Windows', 'Nvidia', 'AMD', '0.1.43'],
        'maintainer': "Unfortunately you're running this on some pretty old",
    },
    log=['level=WARN source=gpu.go:177 msg="CPU does not have AVX or AVX2, disabling GPU support."'],
    args_model='llama3:8b',
    args_gpu='GTX 1050 Ti',
    notes=('the log line is the server warning the reporter quoted in the description; the symptom (CPU-only inference) has '
           'no class, so no --symptom is passed; the maintainer\'s reply is cut off in the stored excerpt'),
    leak="The maintainer's reply (the hardware, a CPU without AVX, is too old) is left out.",
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/8303', thread_type='issue',
    engine='vLLM 0.6.0 OpenAI server (WSL)', engine_version='0.6.0', gpu='2x NVIDIA GeForce RTX 3090 (NVLink bridge)',
    model='hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4',
    symptom='other', layer='operator_hardware',
    root_cause=('After a recent NVIDIA driver update the two NVLinked 3090s could no longer do P2P, so vLLM tensor parallelism '
                '(custom all-reduce over P2P) failed although nvidia-smi showed the NVLink links up.'),
    fix='Use a driver that allows P2P, or disable custom all-reduce (small cost for 2 GPUs), or use pipeline parallel -pp 2.',
    confidence='plausible',
    evidence={
        'title': '[Bug]: 3090 P@P',
        'nvlink': ['training@Training:/mnt/c/Users/bobni$ nvidia-smi nvlink --status',
                   'GPU 0: NVIDIA GeForce RTX 3090 (UUID: GPU-d38e6300-de5a-ae7b-585f-d6f65b3d442a)',
                   'Link 0: 14.062 GB/s',
                   'GPU 1: NVIDIA GeForce RTX 3090 (UUID: GPU-b0128e9f-5d00-c9cb-97fe-269bce44cdee)'],
        'cmd': ('python3 -m vllm.entrypoints.openai.api_server --model hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4 '
                '--dtype auto --api-key token-abc123 --quantization marlin --max-num-batched-tokens 32000 --max-model-len 8192 '
                '--num-scheduler-steps 8 --tensor-parallel-size 2'),
        'log': ['INFO 09-09 13:07:37 api_server.py:459] vLLM API server version 0.6.0'],
        'desc': ("Since updating to v0.6.0, my two Nvlinked 3090's can not do p2p and work with tensor parallel. But as you "
                 "can see at the top with the 'nvidia-smi nvlink --status' nvlink is enabled and working. I did see on another "
                 "issue I could disable p2p, but that would come at a big performance penalty especially since I'm using pcei "
                 "gen 3, on only 8 lanes per gpu.( #308 )"),
        'maintainer': ('I can see your cuda driver version is very new, and maybe this driver does not allow you to use p2p. '
                       'did you update the driver version recently?'),
        'maintainer2': ('if you just have 2 GPUs, and connected with nvlink, I think disabling custom allreduce might not hurt '
                        'that much. do you have specific numbers to compare?'),
        'maintainer3': ('at the last resort, you can use pipeline parallel with `-pp 2` , which does not require strong GPU '
                        'communications.'),
        'reporter': ('@youkaichao i have recently updated driver, and updated vllm, so I’m going to have to compare, last I '
                     'tried using tensor parallel was >0.5.3 and it was working, but you are absolutely right I'),
    },
    log=[('nvlink', 1), ('nvlink', 2), ('nvlink', 3), ('log', 0)],
    engine_args=('--model hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4 --dtype auto --api-key token-abc123 '
                 '--quantization marlin --max-num-batched-tokens 32000 --max-model-len 8192 --num-scheduler-steps 8 '
                 '--tensor-parallel-size 2'),
    args_gpu='RTX 3090',
    notes=('the log lines are the nvidia-smi nvlink --status output (indentation dropped) and the server\'s version line; the '
           'error the server printed is not in the stored excerpt; engine_args is the launch command without the python3 -m '
           'prefix; the failure to start with TP has no class, so no --symptom is passed; plausible because the maintainer '
           'hedges ("maybe this driver does not allow you to use p2p") and the reporter\'s agreement is cut off'),
    leak=("The maintainer's reading (a very new driver that may not allow P2P; disable custom all-reduce or use -pp 2) and the "
          "reporter's reply (driver recently updated) are left out."),
    hard=('The driver version and the recent driver update, the decisive clue, are not in the inputs; only TP=2 on two '
          'NVLinked 3090s is.')))

I.append(dict(
    src='https://github.com/turboderp-org/exllamav3/issues/295', thread_type='issue',
    engine='exllamav3 1.4.2 behind tabbyAPI (Windows)', engine_version='1.4.2',
    gpu='2x NVIDIA RTX 3080 20 GB (PCIe, no NVLink)', model='Qwen3.8-27B EXL3 3.50bpw',
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('With tensor parallelism across two PCIe-only RTX 3080s (no NVLink), prefill is bound by the inter-GPU '
                'all-reduce traffic over PCIe rather than by compute: each GPU draws only ~150 W and a 107k-token prefill that '
                'takes ~3.5 min with layer split was still running after 7+ min.'),
    fix='Use autosplit (layer split) instead of tensor parallelism on PCIe-only consumer GPUs.',
    confidence='plausible',
    evidence={
        'title': '[Performance] TP prefill significantly slower than autosplit on 2x RTX 3080 (sm_86)',
        'summary': ('Tensor parallelism (TP) across 2× RTX 3080 makes prefill (prompt processing) dramatically slower than '
                    'autosplit (layer split) on the same hardware, while consuming *less* total power.'),
        'env_gpu': '| GPU | 2× NVIDIA RTX 3080 20 GB (Ampere, sm_86), PCIe — no NVLink |',
        'env_ver': '| exllamav3 | 1.4.2 (prebuilt `exllamav3-1.4.2+cu128.torch2.9.0-cp312-cp312-win_amd64.whl`) |',
        'env_model': '| Model | Qwen3.8-27B EXL3 3.50bpw |',
        'autosplit': ('**Autosplit** (`gpu_split_auto: true`, `tensor_parallel: false`): prefill completed in **~3.5 min** at '
                      '**~513 T/s** (107,253 tokens). GPU 0 ~300 W, GPU 1 ~70 W (total ~370 W).'),
        'tp': ('**Tensor parallel** (`tensor_parallel: true`, `tensor_parallel_backend: native`): prefill was **still running '
               'after 7+ minutes** for the same prompt — I had to abort it. GPU 0 ~150 W, GPU 1 ~150 W (total ~300 W).'),
        'analysis': ('TP uses *less* total power for *less* throughput — the signature of inter-GPU communication (PCIe '
                     'all-reduce, no NVLink on 3080) dominating over compute, so the second GPU isn\'t addi'),
    },
    engine_args='tensor_parallel: true, tensor_parallel_backend: native',
    observe={'ttft_p99_s': (420, 'still running after 7+ minutes'),
             'input_len_mean': (107253, '107,253 tokens'),
             'power_w': (150, 'GPU 0 ~150 W, GPU 1 ~150 W')},
    args_model='Qwen3.8-27B EXL3 3.50bpw',
    args_gpu='RTX 3080',
    notes=('engine_args are the two tabbyAPI settings of the slow run, joined; ttft_p99_s is the 7+ minutes after which the '
           'TP prefill was aborted (a lower bound); input_len_mean is the 107,253-token prompt; power_w is the per-GPU draw '
           'during the TP prefill (the board limit is not given); the issue is open and the cause is the reporter\'s own '
           'reading of the power figures, hence plausible'),
    leak=("The reporter's analysis (PCIe all-reduce without NVLink dominating over compute), the autosplit comparison and the "
          "'PCIe — no NVLink' environment row are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/CachyOS/CachyOS-PKGBUILDS/issues/1364', thread_type='issue',
    engine='Ollama 0.23.0 from the CachyOS packages ollama + ollama-cuda 0.23.0-1.1 (cachyos-extra-znver4)',
    engine_version='0.23.0-1.1', gpu='NVIDIA GeForce RTX 5070', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('The distribution\'s ollama-cuda package was empty (0 files), so no CUDA backend library was installed and '
                'Ollama loaded only its CPU backends: 0 layers offloaded, weights and KV cache on the CPU.'),
    fix='Install a correctly built ollama-cuda package (one that ships the CUDA backend libraries).',
    confidence='plausible',
    evidence={
        'title': '[Bug]: Ollama-CUDA not using GPU despite NVIDIA RTX 5070 detected with CUDA drivers',
        'package': ['ollama-cuda', '0.23.0-1.1'],
        'desc': ('The cachyos-extra-znver4/ollama-cuda package (v0.23.0-1.1) installs 0 files despite being marked as a '
                 'dependency for NVIDIA CUDA support. The package has Installed Size: 0.00 B and pacman -Qkl ollama-cuda '
                 'returns "0 total files".'),
        'desc2': ('This causes Ollama to use CPU-only backends even on systems with NVIDIA GPUs and CUDA drivers installed. The '
                  '/usr/lib/ollama/ directory only contains libggml-cpu-*.so files, no CUDA backends are present.'),
        'steps': ('3. Check logs - GPU is not detected (device=CPU). Also tried nvidia-smi and GPU utilization remained '
                  'flat.'),
        'log': ['May 05 00:38:34 lappie ollama[72622]: time=2026-05-05T00:38:34.106-07:00 level=INFO source=ggml.go:502 '
                'msg="offloaded 0/31 layers to GPU"',
                'May 05 00:38:34 lappie ollama[72622]: time=2026-05-05T00:38:34.106-07:00 level=INFO source=device.go:245 '
                'msg="model weights" device=CPU size="17.3 GiB"',
                'May 05 00:38:34 lappie ollama[72622]: time=2026-05-05T00:38:34.106-07:00 level=INFO source=device.go:256 '
                'msg="kv cache" device=CPU size="880.0 MiB"'],
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    args_model=None,
    args_gpu='RTX 5070',
    notes=('the three log lines are the journal lines quoted in the issue; no model is named; the symptom (CPU-only '
           'inference, GPU utilisation flat) has no class and no number, so no --symptom and no observe are passed; the '
           'cause is the reporter\'s own finding (an empty package) with no reply in the stored excerpt, hence plausible'),
    leak=("The description's diagnosis (the ollama-cuda package installs 0 files; /usr/lib/ollama holds only CPU backends) is "
          "left out."),
    hard=None))

I.append(dict(
    src='https://github.com/1CatAI/1Cat-vLLM/issues/430', thread_type='issue',
    engine='1Cat-vLLM 1.3.0 (vLLM fork for V100/SM70), OpenAI-compatible server', engine_version='1.3.0',
    gpu='2x Tesla V100-SXM2-32GB', model='Qwen3.8-27B AWQ (compressed-tensors)',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('With TP=2 on Volta (SM70) the custom all-reduce path is taken although it is unsupported there: piecewise '
                'CUDA-graph capture never converges, decode collapses to ~0.1 tok/s and both GPUs raise Xid 62; with '
                '--disable-custom-all-reduce (NCCL) capture finishes in ~3 min and decode runs at 50.5 tok/s.'),
    fix='Pass --disable-custom-all-reduce on V100 (PR #431 makes the platform disable it on SM70).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Bug][SM70][TP2] 2xV100 without --disable-custom-all-reduce: capture never converges, decode collapses to '
                  '~0.1 tok/s, Xid 62 on both GPUs'),
        'env': ['2x Tesla V100-SXM2-32GB (SM70, PCIe, no NVLink)',
                '1Cat-vLLM 1.3.0 wheel (cp312), CUDA 12.8, torch 2.10.0+cu128, driver 570.x',
                'Model: Qwen3.8-27B AWQ (compressed-tensors), TP=2, max-model-len 262144, max-num-seqs 4',
                'Workload: OpenAI-compatible streaming bench, greedy, 4 concurrent clients, prompts up to ~108K tokens'],
        'capture': ['**Piecewise CUDA-graph capture never converges**: stuck at',
                    'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 0/3',
                    'for 45+ minutes',
                    'on both attempts (cold and warm Triton caches). GPUs at 100% util the whole time.'],
        'decode': ('If the server is forced up, **decode collapses**: ~0.1 tok/s on a workload that\n'
                   'sustains 50 tok/s single-stream (and 157 tok/s aggregate at 4x) on the same engine.'),
        'xid': ('**Xid 62 raised on BOTH GPUs at the same second** (kernel log), after which\n'
                '`nvidia-smi` hangs and leftover processes end in D-state holding /dev/nvidia*.'),
        'workaround': ['`--disable-custom-all-reduce`:',
                       'piecewise capture completes in ~3 minutes total, FULL decode graphs in ~1 s',
                       '50.5 tok/s single-stream decode, 157 tok/s aggregate at 4-way concurrency'],
    },
    log=[('capture', 1)],
    engine_args='--tensor-parallel-size 2 --max-model-len 262144 --max-num-seqs 4',
    observe={'output_tokens_per_s': (0.1, '~0.1 tok/s on a workload'),
             'gpu_util': (1.0, 'GPUs at 100% util the whole time')},
    args_model='Qwen3.8-27B-AWQ',
    args_gpu='Tesla V100-SXM2-32GB',
    notes=('the log line is the capture progress line the server stayed at for 45+ minutes; engine_args is rebuilt from the '
           'environment line (TP=2, max-model-len 262144, max-num-seqs 4); output_tokens_per_s is the collapsed decode rate '
           'and gpu_util the 100% utilisation during the stuck capture; the reporter measured the failure and the workaround'),
    leak=("The title's naming of --disable-custom-all-reduce, the workaround section (capture in ~3 min, 50.5 tok/s, 157 tok/s "
          "aggregate), the 50 tok/s baseline and the Xid 62 kernel-log finding are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/23393', thread_type='issue',
    engine='SGLang server with DP attention', engine_version='Apr 2026', gpu=None, model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('At a global batch of 1024 the host-side tokenizer/detokenizer path (a slow tokenizer on the CPU) cannot keep '
                'up, so the client-side ITL is several times the ITL the scheduler achieves on the GPU; skipping tokenizer '
                'init drops p50 ITL from 180 ms to 39 ms.'),
    fix='Use --skip-tokenizer-init (pre-tokenised requests) or a fast tokenizer / more detokenizer capacity.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Bug] Client-side ITL much larger than scheduler-side ITL at large batch sizes (tokenizer / detokenizer '
                  'bottleneck) + DP attention'),
        'desc': ("At large global batch sizes (e.g. 1024), the ITL observed on the client side (via `/metrics` or reported by "
                 "the tokenizer manager) is several times larger than the ITL implied by the scheduler's `gen throughput` in "
                 "the engine logs. The gap does **not** appear at small batch sizes (e.g. 128), where client ITL and "
                 "engine-implied ITL agree."),
        'fix': ('Passing `--skip-tokenizer-init` largely eliminates the gap (p50 ITL at bs=1024 drops from **180 ms → 39 '
                'ms**, ~4.6x), which strongly suggests the tokenizer / detokenizer path is the bottleneck rather than the '
                'scheduler or GPU execution.'),
        'warning': ('A `UserWarning: Using a slow tokenizer. This might cause a significant slowdown. Consider using a fast '
                    'tokenizer instead.` is emitted at startup and may be related. Enabling multi-tokenizer mode did **not** '
                    'help.'),
    },
    log=['UserWarning: Using a slow tokenizer. This might cause a significant slowdown. Consider using a fast tokenizer '
         'instead.'],
    observe={'tpot_p50_s': (0.18, '180 ms'),
             'running': (1024, '(e.g. 1024)')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the startup warning quoted in the description; tpot_p50_s is the client-side p50 ITL at '
           'bs=1024 before the fix (the snippet lies in the sentence that reports the fix); running is the global batch '
           'size 1024 at which the gap appears; no model or GPU is named in the stored excerpt'),
    leak=("The title's parenthetical (tokenizer / detokenizer bottleneck), the --skip-tokenizer-init measurement (180 ms -> "
          "39 ms) and the comparison with the scheduler-side ITL are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261215, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
