#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh21: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh18; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation, list bullets/numbers dropped; a few long lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the engines other than vLLM/SGLang/llama.cpp/Ollama (TGI,
TensorRT-LLM and Triton's TRT-LLM backend, LMDeploy, MLC-LLM, ExLlama, Xinference) and on the operator/hardware layer
of any engine (ROCm, Ascend NPU, Jetson, PCIe P2P and IOMMU, old GPUs), in any layer.

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
    src='https://github.com/mlc-ai/mlc-llm/issues/3024', thread_type='issue',
    engine='MLC-LLM (MLCEngine Python API, CUDA, tensor_parallel_shards 8)', engine_version='Nov 2024',
    gpu=None, model='Liberated-Qwen1.5-14B (qwen2, q-MLC build)',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('gen_config left prefill_chunk_size at its default of 8192 (context_window_size fell back to 32768), so '
                'the compiled model needs a 15,014 MB temporary buffer per GPU; with the default gpu_memory_utilization '
                'of 0.85 only 20,585 MB per GPU is budgeted, less than the 5,977 MB weight shard plus that buffer, so the '
                'engine refuses to start. All 8 GPUs were in use; the reporter read the error as "only CUDA:0 is used".'),
    fix='Raise gpu_memory_utilization (0.88 worked), or regenerate the config with a smaller --prefill-chunk-size.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Question] Could not use multi GPU in chat',
        'desc': ('And as issue https://github.com/mlc-ai/mlc-llm/issues/2562 mentioned, mlc only use CUDA:0 and showed '
                 'OutOfMemory Error.'),
        'gen_config_log': [
            '[2024-11-13 19:37:18] INFO auto_config.py:154: Found model type: qwen2. Use `--model-type` to override.',
            ('[2024-11-13 19:37:18] INFO qwen2_model.py:50: context_window_size not found in config.json. Falling back '
             'to max_position_embeddings (32768)'),
            '[2024-11-13 19:37:18] INFO qwen2_model.py:67: prefill_chunk_size defaults to 8192',
            '[2024-11-13 19:37:18] INFO config.py:107: Overriding max_batch_size from 1 to 128',
            '[2024-11-13 19:37:18] INFO config.py:107: Overriding tensor_parallel_shards from 1 to 8',
        ],
        'model_path': 'qwen/model14B/Liberated-Qwen1.5-14B/config.json',
        'error': [
            ('TVMError: Check failed: (output_res.IsOk()) is false: Insufficient GPU memory error: The available single '
             'GPU memory is 20584.716 MB, which is less than the sum of model weight size (5977.188 MB) and temporary '
             'buffer size (15013.765 MB).'),
            '1. You can set a larger "gpu_memory_utilization" value.',
            ('2. If the model weight size is too large, please enable tensor parallelism by passing '
             '`--tensor-parallel-shards $NGPU` to `mlc_llm gen_config` or use quantization.'),
            ('3. If the temporary buffer size is too large, please use a smaller `--prefill-chunk-size` in '
             '`mlc_llm gen_config`.'),
        ],
        'maintainer': ('Hi @BobH233 thank you for reporting. It is using multiple GPUs. The error is that the model does '
                       'not fit all GPUs with the default `gpu_memory_utilization` value:'),
        'maintainer_fix': 'Could you try a larger `gpu_memory_utilization`? The default value is 0.85. For example you can try',
        'reporter': 'Thank you for your explaination, it works!',
    },
    log=[('gen_config_log', 1), ('gen_config_log', 2), ('gen_config_log', 4),
         ('error', 0), ('error', 1), ('error', 2), ('error', 3)],
    args_model='Liberated-Qwen1.5-14B',
    args_gpu=None,
    notes=('the log lines are the reporter\'s mlc_llm gen_config output and the engine\'s TVMError with its three '
           'printed hints (the error text is quoted in the maintainer\'s reply; the reporter said only "showed '
           'OutOfMemory Error"); the engine is started from Python (MLCEngine), so no flags are passed; the GPU model is '
           'not named (20,585 MB is 0.85 of the per-GPU memory)'),
    leak=("The maintainer's reading (all GPUs are used; the default gpu_memory_utilization 0.85 is too small for weights "
          "plus the temporary buffer) and the 0.88 fix are left out; the reporter's belief that only CUDA:0 is used is "
          "not an input."),
    hard=None))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/2301', thread_type='issue',
    engine='Hugging Face TGI (docker, 4 shards)', engine_version='2.2.0', gpu='4x NVIDIA H100',
    model='meta-llama/Meta-Llama-3.1-70B-Instruct',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('With --max-input-length 131072 and no --max-batch-prefill-tokens, TGI 2.2 sizes the prefill budget at '
                'max-input-length + 50 = 131,122 tokens and warms up one prefill batch of that size; its activations do '
                'not fit on 4x H100 next to the 70B weights, so warmup fails (a 65k input limit starts).'),
    fix=('Set a smaller --max-batch-prefill-tokens (prefill budget below the full context), or leave the token limits '
         'unset on a TGI version with chunked prefill so it sizes them itself.'),
    confidence='plausible',
    evidence={
        'title': "Can't run llama3.1-70b at full context",
        'version': '2.2.0',
        'hardware': 'On 4*H100:',
        'command': ['--model-id meta-llama/Meta-Llama-3.1-70B-Instruct \\', '--max-input-length 131072 \\',
                    '--max-total-tokens 139264 \\', '--max-stop-sequences 6 \\',
                    '--num-shard 4 --sharded true &>> logs.llama3.1-70b.tgi.txt'],
        'error': ('RuntimeError: Not enough memory to handle 131122 prefill tokens. You need to decrease '
                  '`--max-batch-prefill-tokens`'),
        'compare': 'vLLM works fine without errors.',
        'reporter_followup': "At least 65k works, but why doesn't 128k?",
        'maintainer_to_other_user': ("I'd recommend leaving those values undefined, that way TGI chooses them optimally "
                                     "according to your hardware"),
        'maintainer_docs': 'Link to docs: https://huggingface.co/docs/text-generation-inference/conceptual/chunking#zero-config',
    },
    log=[('error', None)],
    engine_args='--max-input-length 131072 --max-total-tokens 139264 --max-stop-sequences 6 --num-shard 4 --sharded true',
    args_model='meta-llama/Meta-Llama-3.1-70B-Instruct',
    args_gpu='4x H100',
    notes=('engine_args are the launcher flags of the reporter\'s docker command (docker options, the HF token and the log '
           'redirection dropped); the log line is the warmup error the reporter quoted; "4*H100" is passed as "4x H100"'),
    leak=("The reporter's follow-up that a 65k input limit works and the maintainer's later advice (leave the limits "
          "unset so TGI chunks the prefill) are left out. The engine's own error names --max-batch-prefill-tokens; no "
          "maintainer answered the reporter directly, hence plausible."),
    hard=None))

I.append(dict(
    src='https://github.com/xorbitsai/inference/issues/3041', thread_type='issue',
    engine='Xinference (docker) with the vLLM engine', engine_version='1.2.2', gpu=None,
    model='Belle-distilwhisper-large-v2-zh (new), qwen2.5-instruct (already running on vLLM)',
    symptom='other', layer='scheduling_capacity',
    root_cause=('The only GPU (index 0) was already held by a running vLLM-engine LLM (qwen2.5-instruct-0); Xinference '
                'gives a vLLM model its GPU exclusively, so no GPU was left to place the new speech model on.'),
    fix='Give the second model its own GPU (or stop/shrink the vLLM model first); the host has no free card for it.',
    confidence='maintainer_explained',
    evidence={
        'title': '准备使用vllm部署另一个语言模型，报错误',
        'version': 'xinference, version 1.2.2',
        'desc': '已经安装了qwen的 语言模型，现在准备安装Belle-distilwhisper-large-v2-zh，报错误{',
        'error': ('"detail": "[address=0.0.0.0:22635, pid=141] GPU index 0 has been occupied with a vLLM model: '
                  'qwen2.5-instruct-0, therefore cannot allocate GPU memory for a new model."'),
        'expected': '能够同时安装qwen的同时，也能部署语音模型',
        'maintainer': '已经部署了 LLM，没有卡部署语音模型。',
    },
    log=[('error', None)],
    args_model='Belle-distilwhisper-large-v2-zh',
    args_gpu=None,
    notes=('the log line is the API error body the reporter pasted (indentation dropped); the model was launched from '
           'the web UI, so no flags are passed; the GPU is not named; a launch refusal, not an OOM, so no --symptom'),
    leak="The maintainer's answer (the LLM already occupies the card; there is no GPU left for the speech model) is left out.",
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/19949', thread_type='issue',
    engine='llama.cpp llama-server (ROCm/HIP build)', engine_version='version: 8171 (c17dce4f5)',
    gpu='AMD Radeon Graphics iGPU, gfx1152', model='AesSedai/Qwen3.5-35B-A3B-GGUF:Q4_K_M',
    symptom='other', layer='operator_hardware',
    root_cause=('The ROCm runtime the build uses ships no code objects for the gfx1152 iGPU, so HIP finds no compatible '
                'kernel and llama-server segfaults at startup; telling ROCm to treat the GPU as gfx1150-class '
                '(HSA_OVERRIDE_GFX_VERSION=11.5.0) makes it load and run.'),
    fix='Export HSA_OVERRIDE_GFX_VERSION=11.5.0 (until a ROCm base with native gfx1152 kernels is used).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Misc. bug: gfx1152 broken unless I manually export HSA_OVERRIDE_GFX_VERSION=11.5.0',
        'version': ['ggml_cuda_init: found 1 ROCm devices:',
                    'Device 0: AMD Radeon Graphics, gfx1152 (0x1152), VMM: no, Wave Size: 32',
                    'version: 8171 (c17dce4f5)'],
        'command': ('./llama-server -hf AesSedai/Qwen3.5-35B-A3B-GGUF:Q4_K_M -fa on --no-context-shift --no-warmup '
                    '--threads-http 8 --ctx-size 262144 --temp 0.6 --top-p 0.95 --top-k 20 --min-p 0.00 -ctk q8_0 '
                    '-ctv q8_0'),
        'problem': ('When I run `llama-server` without setting `HSA_OVERRIDE_GFX_VERSION`, the server crashes with a '
                    'segmentation fault:'),
        'log': [(':1:hip_fatbin.cpp           :687 : 114369963532 us:  No compatible code objects found for: gfx1152, '
                 'value of HIP_FORCE_SPIRV_CODEOBJECT: 0'),
                'zsh: segmentation fault  llama-server -hf AesSedai/Qwen3.5-35B-A3B-GGUF:Q4_K_M -fa on  --no-warmup  8 '],
        'reporter_fix': 'If I manually set the HSA override to 11.5.0, models load and run fine.',
        'later': 'Sounds like this might be fixed for real whenever llama.cpp updates to a newer ROCM 7.13 base!',
    },
    log=[('version', 0), ('version', 1), ('log', 0), ('log', 1)],
    engine_args=('-fa on --no-context-shift --no-warmup --threads-http 8 --ctx-size 262144 --temp 0.6 --top-p 0.95 '
                 '--top-k 20 --min-p 0.00 -ctk q8_0 -ctv q8_0'),
    args_model='AesSedai/Qwen3.5-35B-A3B-GGUF:Q4_K_M',
    args_gpu='AMD Radeon Graphics (gfx1152)',
    notes=('the log lines are the device lines of the version output and the HIP/segfault lines the reporter quoted '
           '(device line indentation dropped; the segfault line keeps its trailing space); engine_args are the server '
           'flags of the command line without -hf; a crash at startup, so no --symptom'),
    leak=("The title and the problem sentence (which name HSA_OVERRIDE_GFX_VERSION) and the reporter's fix (override to "
          "11.5.0) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/unslothai/unsloth/issues/10613', thread_type='issue',
    engine='llama-server launched by Unsloth Studio (multi-GPU, CUDA)', engine_version='Sep 2026',
    gpu='2x NVIDIA RTX 6000 Ada (PCIe, no NVLink)', model='any GGUF model',
    symptom='output_quality', layer='operator_hardware',
    root_cause=('Studio sets GGML_CUDA_P2P=1 for any multi-GPU host whose card names match a datacenter allowlist, which '
                'includes PCIe-only cards; on bare-metal Linux with a translating IOMMU the PCIe peer copies between the '
                'two RTX 6000 Ada are silently dropped (cudaMemcpyPeerAsync still returns success), so tensors never '
                'arrive and every model emits garbage, with nothing logged.'),
    fix='Do not enable GGML_CUDA_P2P without a verified NVLink/peer path (gate it on a real P2P check; unset the variable).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('Studio sets `GGML_CUDA_P2P=1` on non-NVLink GPUs (RTX 6000 Ada), silently corrupting all model '
                  'output'),
        'summary': ('`_apply_datacenter_env()` enables `GGML_CUDA_P2P=1` for any multi-GPU host whose\ncards match '
                    '`_DATACENTER_GPU_RE`.'),
        'symptom': ('On my dual RTX 6000 Ada workstation the result is wrong tokens rather than an\nerror. Every model '
                    'returns `!!!!!!!`, `///////`, a repeated Cyrillic token to an\nEnglish prompt, or word salad. '
                    'Nothing is logged. It took a full day to trace\nbecause the symptom looks exactly like a broken '
                    'quant or chat template.'),
        'optout': ('Setting `GGML_CUDA_P2P=0` enables P2P. A user who finds the flag and tries to\nturn it off gets '
                   'corrupt output and no clue why.'),
        'linked_pr_10646': ['Fixes #10613.',
                            ('On bare-metal Linux with a translating IOMMU, a PCIe peer copy is not slow, '
                            'it is unsupported. The write faults, the IOMMU discards it as an Unsupported Request, and '
                            '`cudaMemcpyPeerAsync` still returns `cudaSuccess` because it has no return code for "the '
                            'platform ate your DMA".')],
    },
    outputs=['!!!!!!!', '///////'],
    args_model=None,
    args_gpu='2x RTX 6000 Ada',
    notes=('the output lines are the two garbage answers the reporter quotes (a repeated "!" and a repeated "/"); the '
           'Cyrillic-token and word-salad answers are not quoted verbatim; the llama-server command line and the '
           'environment Studio sets are not shown, so no engine_args; "dual RTX 6000 Ada" is passed as the GPU'),
    leak=("The title, the summary and the opt-out paragraph (GGML_CUDA_P2P set by Studio) and the maintainer's PR "
          "(#10646: PCIe peer copies dropped under a translating IOMMU) are left out."),
    hard='The GGML_CUDA_P2P=1 environment and the IOMMU are not in the inputs; only the garbage output and the two PCIe GPUs are.'))

I.append(dict(
    src='https://github.com/turboderp/exllama/issues/75', thread_type='issue',
    engine='ExLlama (v1) behind SillyTavern', engine_version='Jun 2023', gpu='NVIDIA Tesla P40 24GB', model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('ExLlama does all its math in FP16 and the Pascal Tesla P40 has very poor FP16 throughput (a small '
                'fraction of its FP32 rate), so generation is slow and the card sits at about 70 W instead of drawing '
                'its power budget.'),
    fix='Use a GPU with fast FP16 (Volta or newer), or a loader with an FP32 path (GPTQ-for-LLaMa/AutoGPTQ) on the P40.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Tesla P40 only using 70W underload',
        'desc': ('So my P40 is only using about 70W while generating responses, its not limited in any way(IE. Power '
                 'delivery or temp)'),
        'maintainer': ("P40 isn't very well supported (yet). ExLlama relies heavily on FP16 math, and the P40 just has "
                       "terrible FP16 performance."),
        'reporter_later': ('My P40 gets stuck every other message and then sillytavern times it out, I get about 3.7 '
                           'tokens a second (On AVG) but it hangs every other message'),
        'other_user': 'As mentioned above by @turboderp, fp16 performance on p40 means exllama is going to be slow.',
    },
    observe={'power_w': (70, 'about 70W'), 'output_tokens_per_s': (3.7, 'about 3.7 tokens a second')},
    args_model=None,
    args_gpu='Tesla P40',
    notes=('power_w is the reporter\'s "about 70W" while generating; output_tokens_per_s is the average 3.7 tokens/s the '
           'reporter measured later in the thread (a measurement, not the answer); no log, flags or model are given; the '
           'slow generation is passed as tpot_high'),
    leak=("The maintainer's explanation (ExLlama relies on FP16 and the P40 has terrible FP16 performance) and the other "
          "user's repeat of it are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/2482', thread_type='issue',
    engine='LMDeploy api_server (PyTorch engine, --device ascend, tp 2)', engine_version='Sep 2024',
    gpu='2x Huawei Ascend 910B (Kylin V10)', model='Qwen2-7B-Instruct',
    symptom='timeout_or_stream_break', layer='operator_hardware',
    root_cause=('On Ascend the tensor-parallel ranks sit in an HCCL collective that torch_npu times out after an idle '
                'period (HCCL_EXEC_TIMEOUT); after 45 min to 1 h of running, the server stops answering and requests '
                'block.'),
    fix='Set HCCL_EXEC_TIMEOUT (the torch_npu HCCL execution timeout) to a suitable value for the deployment.',
    confidence='maintainer_explained',
    evidence={
        'title': ('[Bug] After lmdeploy has been running for a period of time (45min-1h), it requests blocking again'),
        'env': ['env: on Ascend 910B * 2', 'os: Kylin V10'],
        'command': ('lmdeploy serve api_server --backend pytorch --device ascend --server-port 23333 --model-name '
                    'qwen-7B --tp 2 /data/model/qwen/Qwen2-7B-Instruct --max-batch-size 128 --enable-prefix-caching'),
        'maintainer': ('We have investigated this issue and found that it is a problem within torch_npu. It can be '
                       'controlled through the environment variable HCCL_EXEC_TIMEOUT, and the timeout time will be set '
                       'based on the value of this variable.'),
        'reporter': '@yao-fengchen thx! I have tried to s',
    },
    engine_args=('--backend pytorch --device ascend --server-port 23333 --model-name qwen-7B --tp 2 --max-batch-size 128 '
                 '--enable-prefix-caching'),
    args_model='Qwen2-7B-Instruct',
    args_gpu='Ascend 910B',
    notes=('engine_args are the flags of the reporter\'s lmdeploy serve command (model path dropped); the server log '
           'and environment were posted as images only, so there is no log line; blocked requests are passed as '
           'timeout_or_stream_break; the reporter\'s reply is cut in the stored thread'),
    leak=("The maintainer's finding (a torch_npu/HCCL execution timeout, controlled by HCCL_EXEC_TIMEOUT) is left out; "
          "the '45min-1h' onset from the title is not an input."),
    hard='Only the Ascend/tp 2 flags are in the inputs; the idle-time HCCL timeout and the onset after 45-60 min are not.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/12283', thread_type='issue',
    engine='Ollama (Jetson AGX Thor, CUDA, new engine)', engine_version='Sep 2025',
    gpu='NVIDIA Jetson Thor (integrated GPU, unified memory)', model=None,
    symptom='startup_oom', layer='operator_hardware',
    root_cause=('On the unified-memory Jetson Thor the free-memory figure the engine gets (cuMemGetInfo) is the kernel\'s '
                'MemFree, which counts reclaimable page cache as used; once the page cache fills, the model load is '
                'refused for lack of memory although the memory is available, and dropping the page cache lets it load.'),
    fix='Drop the page cache (echo 3 > /proc/sys/vm/drop_caches) or use a build that reads MemAvailable on UMA devices.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Jetson Thor memory release issue',
        'desc': ('When not cleaning up memory on the jetson thor the memory is stays occupied and the calculus of '
                 'available memory is wrong:'),
        'error': '`model requires more system memory (59.8 GiB) than is available (59.8 GiB)`',
        'desc2': 'while there is actually enough memory available that just needs to be reclaimed. ',
        'reporter_fix': ('when using `echo 3 > /proc/sys/vm/drop_caches` the system frees up the memory and ollama is '
                         'able to run properly.'),
        'env': ['OLLAMA_NEW_ENGINE=1', 'OLLAMA_MAX_LOADED_MODELS=1', 'OLLAMA_NEW_ESTIMATES=1', 'OLLAMA_KEEP_ALIVE=24h',
                'OLLAMA_FLASH_ATTENTION=1'],
        'log': ['Sep 14 13:52:26 jetson-thor ollama[3778]: ggml_cuda_init: found 1 CUDA devices:',
                ('Sep 14 13:52:26 jetson-thor ollama[3778]:   Device 0: NVIDIA Thor, compute capability 11.0, VMM: yes, '
                 'ID: GPU-a7c66ad2-6dbb-0ab8-c1a2-37ba6dba3600')],
        'other_user': ('Thanks for the investigation and workaround. Just to clarify: the problem shows up on '
                       'unified-memory devices (UMA/iGPU) because cuMemGetInfo is returning the kernel’s MemFree value, '
                       'which doesn’t discount cached pages.'),
    },
    log=[('log', 0), ('log', 1), 'model requires more system memory (59.8 GiB) than is available (59.8 GiB)'],
    args_model=None,
    args_gpu='NVIDIA Thor',
    notes=('the log lines are the two device lines of the reporter\'s journal and the load error the reporter quoted '
           '(backticks dropped); the OLLAMA_* settings are environment variables, not flags, and are not passed; no '
           'model is named; the refused load is passed as startup_oom'),
    leak=("The reporter's remarks that the memory only needs to be reclaimed and that drop_caches fixes it, and the "
          "explanation (cuMemGetInfo returns MemFree on UMA devices) are left out."),
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/triton-inference-server/tensorrtllm_backend/issues/234', thread_type='issue',
    engine='Triton Inference Server with the TensorRT-LLM backend (ensemble: preprocessing / tensorrt_llm / postprocessing)',
    engine_version='main branch, Dec 2023', gpu=None, model='chatglm2',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The ensemble\'s preprocessing model tokenised the prompt without the model\'s special tokens, which '
                'ChatGLM2 needs; the same engine gives normal output through TensorRT-LLM\'s run script, but through '
                'Triton it returns punctuation garbage until add_special_tokens is enabled in the preprocessing config.'),
    fix='Set add_special_tokens to True in preprocessing/config.pbtxt.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'the output of triton is strange',
        'desc': ('The output is normal when I use the run file of tensorrt-llm. However, when using Triton, the returned '
                 'text_output  are like this.'),
        'client': 'python end_to_end_grpc_client.py -v  -p "how are you"',
        'result': "[b'. with. with.ensens sums sums",
        'other_client': ('run the inflight_batcher_llm_client.py ,The output provided normal information.only a error ,but '
                         'it seems no relation with llm.'),
        'versions': 'the triton and tensorrt-llm are both main branch.',
        'model': 'the model is chatglm2.',
        'resolution': ['well，i solved this problem.',
                       ('i think it is tokenizer problem.so i print the input_id ,then find it do not have special '
                        'token.'),
                       'so ,i set prepocessing-config.pbtxt -add_special-tokens  True', 'the output is normal...'],
    },
    outputs=[('result', None)],
    args_model='chatglm2',
    args_gpu=None,
    notes=('the output line is a verbatim prefix of the text_output the end-to-end client printed (the rest is a long run '
           'of backslashes, slashes and dots); the engine build and Triton configs are not shown, so no engine_args; no '
           'GPU is named'),
    leak=("The reporter's resolution (the input_ids had no special tokens; add_special_tokens set to True in the "
          "preprocessing config) is left out."),
    hard='The preprocessing config and the input_ids without special tokens are not in the inputs; only the garbage output is.'))

I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/1170', thread_type='issue',
    engine='LMDeploy api_server (OpenAI /v1/chat/completions)', engine_version='Feb 2024', gpu=None,
    model='vicuna-13b-v1.5',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The request asked for max_tokens 2048, the whole session length of the vicuna-13b deployment; prompt '
                'plus requested output no longer fits the session length, so the engine returns empty text with '
                'finish_reason "length" instead of generating (values up to about 1700 work).'),
    fix='Request fewer max_tokens (or omit it so the engine derives it from the session length), or raise --session-len.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug] Does setting the max_tokens parameter too high result in an empty output?',
        'desc': ('Calling the /v1/chat/completions API sometimes returns an empty string for the content of the '
                 'assistant. After verification, I found that setting the max_tokens manually to more than 1700 causes '
                 'this issue.'),
        'request': ['"model": "vicuna-13b-v1.5",', '"max_tokens": 2048,', '"temperature": 0.0'],
        'maintainer': ('Yes, if the session length does not support the request output length, it only responds with '
                       'empty text with finish_reason "length".'),
        'reporter': ('The max_tokens limit for Vicuna 13b is 2048. However, when running Vicuna 13b in lmdeploy, I found '
                     'that an empty string is returned if max_tokens is more significant than 1700.'),
    },
    engine_args='"max_tokens": 2048',
    args_model='vicuna-13b-v1.5',
    args_gpu=None,
    notes=('engine_args is the max_tokens field of the reporter\'s request (as earlier sets pass request defaults); the '
           'empty assistant content is described in prose, not quoted, so there is no output line; no server log or GPU '
           'is given'),
    leak=("The title, the reporter's own finding (max_tokens above ~1700 gives empty output) and the maintainer's answer "
          "(the session length cannot hold the requested output; empty text with finish_reason length) are left out."),
    hard='Only the request max_tokens is in the inputs; the session length of 2048 it exhausts is not.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/NVIDIA/TensorRT-LLM/issues/89', thread_type='issue',
    engine='Triton Inference Server with the TensorRT-LLM backend (inflight_batcher_llm ensemble, decoupled mode)',
    engine_version='TensorRT-LLM 0.5.0 / tensorrtllm_backend release/0.5.0', gpu='2x NVIDIA A30', model='Llama',
    symptom='other', layer='gateway_client',
    root_cause=('The model repository was configured with decoupled (streaming) mode, which Triton only serves over the '
                'gRPC streaming endpoint (port 8001), while the client script called client.infer() through the HTTP '
                'endpoint on port 8000; every request was rejected with HTTP 400.'),
    fix=('Call the model through the gRPC streaming API on port 8001, or set decoupled to False in '
         'tensorrt_llm/config.pbtxt for plain HTTP requests.'),
    confidence='maintainer_explained',
    evidence={
        'title': 'Failed to launch Triton for Llama',
        'reporter': 'Hi, I tried that and get similar error.',
        'traceback': ['python send.py',
                      'result = client.infer("ensemble", inputs)',
                      ('File "/usr/local/lib/python3.10/dist-packages/tritonclient/http/_client.py", line 1468, in '
                       'infer'),
                      ('tritonclient.utils.InferenceServerException: [400] HTTP end point doesn\'t support models with '
                       'decoupled transaction policy')],
        'server_log': ['| ensemble       | 1       | READY  |', '| tensorrt_llm   | 1       | READY  |',
                       'I1025 02:47:40.717556 80876 metrics.cc:810] Collecting metrics for GPU 0: NVIDIA A30',
                       'I1025 02:47:40.717579 80876 metrics.cc:810] Collecting metrics for GPU 1: NVIDIA A30'],
        'server_ports': ['I1025 08:16:46.669373 85102 grpc_server.cc:2451] Started GRPCInferenceService at 0.0.0.0:8001',
                         'I1025 08:16:46.669634 85102 http_server.cc:3558] Started HTTPService at 0.0.0.0:8000'],
        'maintainer_1': ('If you intent to use decoupled mode (streaming) for model serving, please use `<ip>:8001` (or '
                         '`localhost:8001`) as endpoint (grpc) instead of `8000` port number (http).'),
        'maintainer_2': ('Please try set here https://github.com/triton-inference-server/tensorrtllm_backend/blob/'
                         'release/0.5.0/all_models/inflight_batcher_llm/tensorrt_llm/config.pbtxt#L32 to `False`.'),
        'reporter_confirm': 'Thank you! It works!',
    },
    log=[('traceback', 2), ('traceback', 3), ('server_log', 0), ('server_log', 1), ('server_log', 2),
         ('server_ports', 0), ('server_ports', 1)],
    args_model=None,
    args_gpu='NVIDIA A30',
    notes=('the log lines are the client traceback (its two decisive lines) and the Triton startup lines the reporter '
           'posted (model table rows, GPU metrics line, and the gRPC/HTTP listener lines from a later restart log in the '
           'same thread); the model configs are not shown, so no engine_args; a rejected request, so no --symptom'),
    leak=("The maintainers' answers (decoupled models need the gRPC endpoint on 8001; or set decoupled to False) and the "
          "reporter's confirmation are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261221, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
