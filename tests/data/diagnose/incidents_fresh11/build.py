#!/usr/bin/env python3
"""Build the twelfth out-of-sample incident set: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh10; this file follows incidents_fresh10/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks, bold markers, list bullets and
leading indentation dropped; a few long or wrapped lines cut to a verbatim prefix/substring). Log lines and
output samples are taken from the evidence, so check.py can verify they are verbatim substrings of it.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh10/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []


# Benchmark clients print `label:<40} value`; the lines below keep that fixed-width layout (value at column 42).
def bench(label, value):
    return f'{label:<40} {value}'


# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/15018', thread_type='issue',
    engine='vLLM OpenAI server 0.7.4.dev (ROCm) serving a GGUF Q4_K_M model', engine_version='0.7.4.dev442+gfd8e055f',
    gpu='AMD Radeon RX 7900 XTX (24 GB)', model='DeepSeek-R1-Distill-Qwen-32B-Q4_K_M.gguf',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The model was served from a Q4_K_M GGUF file; vLLM\'s GGUF dequantisation kernels do not batch well, so '
                'as soon as two requests ran together the aggregate generation rate fell from 19.3 tok/s (one request) to '
                '0.4 tok/s, while the same model in FP16 (and HF-format checkpoints) batched normally.'),
    fix='Serve an FP16 / HF-format (or a batched-kernel quantisation such as AWQ/GPTQ-Marlin) checkpoint instead of the GGUF file.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Performance]: only 0.4 tokens/s when running 2 or more request',
        'desc': ('I was tring to run DeepSeek-R1-Distill-Qwen-32B-Q4_K_M.gguf with 7900 XTX（24G) and it works,I have got 19.3 '
                 'tokens/s when it run with one request.However，the throughput was only 0.4 tokens/s   when it running two or '
                 'more requsets.The GPU KV cache usage  is enought,is there any parameters i have to set?'),
        'platform': 'INFO 03-18 08:46:00 [__init__.py:256] Automatically detected platform rocm.',
        'version': 'INFO 03-18 08:46:01 [api_server.py:912] vLLM API server version 0.7.4.dev442+gfd8e055f',
        'args': ("INFO 03-18 08:46:01 [api_server.py:913] args: Namespace(subparser='serve', model_tag='/app/model/"
                 "DeepSeek-R1-Distill-Qwen-32B-GGUF/DeepSeek-R1-Distill-Qwen-32B-Q4_K_M.gguf', config='', host='0.0.0.0', port=8199"),
        'log': ['INFO 03-18 09:04:46 [metrics.py:481] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.4 tokens/s, '
                'Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.6%, CPU KV cache usage: 0.0%.',
                'INFO 03-18 09:04:56 [metrics.py:481] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.4 tokens/s, '
                'Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.6%, CPU KV cache usage: 0.0%.'],
        'commenter': ("I've observed a similar problem with GGUF files. Standard HF-format files seemed to work correctly. "
                      "I'm using an NVidia RTX3090."),
        'reporter': 'It may be the  problem with quantization，i fought that FP16 works correctly，but it was terrible with Q4_K_M',
    },
    log=[('platform', None), ('version', None), ('args', None), ('log', 0), ('log', 1)],
    observe={'output_tokens_per_s': (0.4, 'Avg generation throughput: 0.4 tokens/s'), 'running': (2, 'Running: 2 reqs'),
             'kv_usage': (0.006, 'GPU KV cache usage: 0.6%'), 'expected_output_tokens_per_s': (19.3, '19.3 tokens/s')},
    args_gpu='7900 XTX',
    notes=('the five lines are the reporter\'s server log (the args line cut to a verbatim prefix that names the GGUF file); '
           'expected_output_tokens_per_s is the reporter\'s own one-request rate (19.3 tokens/s); the GPU is the stated "7900 XTX"'),
    leak=("The commenter's GGUF-vs-HF-format observation and the reporter's conclusion (FP16 fine, Q4_K_M terrible) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/2980', thread_type='issue',
    engine='vLLM OpenAI server (Ray workers, TP 4) serving an AWQ model', engine_version='Feb 2024',
    gpu='4x NVIDIA RTX A6000', model='yi-34b-chat (AWQ 4-bit)',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The AWQ-quantised model ran through vLLM\'s AWQ GEMM kernels, whose dequantisation overhead grows with the batch, '
                'so under high concurrency (16 sequences, TP 4) it delivered less throughput than the unquantised fp16 model.'),
    fix='Serve the fp16 model (or a faster quantised kernel) for high-concurrency traffic; AWQ only pays off at small batch sizes.',
    confidence='maintainer_explained',
    evidence={
        'setup': ['A6000 * 4', 'max_token = 512', 'yi-34b-chat vs yi-34b-chat_awq_int'],
        'cmd_fp16': ('python3 -m vllm.entrypoints.openai.api_server   --model /output/yi-34b-chat/   --engine-use-ray   --host 0.0.0.0   '
                     '--port 8080   --worker-use-ray   --max-num-seqs 16   --tensor-parallel-size 4  --max-model-len 32768'),
        'cmd_awq': ('python3 -m vllm.entrypoints.openai.api_server   --model /output/yi_awq_4_dataset_16/   --engine-use-ray   --host 0.0.0.0   '
                    '--port 8080   --worker-use-ray   --max-num-seqs 16   --tensor-parallel-size 4  --max-model-len 32768 --quantization awq'),
        'maintainer': ('Hi @Uhao-P, this is expected. Quantized models scale worse than full precision models due to the additional '
                       'overhead of dequantization.'),
        'reporter': 'Thank you, I will close this issue',
    },
    engine_args=('python3 -m vllm.entrypoints.openai.api_server   --model /output/yi_awq_4_dataset_16/   --engine-use-ray   --host 0.0.0.0   '
                 '--port 8080   --worker-use-ray   --max-num-seqs 16   --tensor-parallel-size 4  --max-model-len 32768 --quantization awq'),
    observe={'running': (16, '--max-num-seqs 16')},
    args_model='yi-34b-chat AWQ', args_gpu='A6000',
    notes=('engine_args is the reporter\'s AWQ launch command; the high-concurrency benchmark fills --max-num-seqs 16, mapped to '
           'running as in the development set; the throughput figures are only in a chart image, so no throughput value is passed'),
    leak=("The title (AWQ slower than unquantised under high concurrency), the fp16 launch command used as the A/B, the chart and "
          "the maintainer's explanation (dequantisation overhead) are left out."),
    hard='Only the AWQ launch flags and a high-concurrency symptom; that the quantised kernel scales worse than fp16 is the maintainer\'s explanation and the A/B chart.'))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/1137', thread_type='issue',
    engine='SGLang (TP 4) under sglang.bench_serving', engine_version='Aug 2024',
    gpu='4x NVIDIA A100 PCIe', model='Llama3 70B',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('The TP-4 A100 PCIe server ran under a hypervisor (KVM), so GPU-to-GPU traffic for the tensor-parallel all-reduce '
                'crossed a slow virtualised PCIe path (PHB), which throttled every decode step: 10 requests took 42.87 s and a '
                '1000-prompt ShareGPT run never progressed.'),
    fix='Run on a host without the hypervisor GPU passthrough (bare-metal PCIe / P2P path), or use fewer TP ranks.',
    confidence='plausible',
    evidence={
        'title': '[Bug] Llama3 70B A100 PCIE TP4 slow speed',
        'desc': ['When using ShareGPT 1k, no results can be obtained.',
                 '10 is normal, but it keeps getting stuck after changing to 1000.'],
        'bench': [bench('Backend:', 'sglang'),
                  bench('Traffic request rate:', 'inf'),
                  bench('Successful requests:', '10'),
                  bench('Benchmark duration (s):', '42.87'),
                  bench('Total input tokens:', '1369'),
                  bench('Total generated tokens:', '2278'),
                  bench('Request throughput (req/s):', '0.23')],
        'commenter': ("It's possible that the server is using some kind of hypervisor, which causes the link between the gpus to be "
                      "very slow, which can seriously affect performance. I'm in a similar situation when using multiple L40S+vllm "
                      "on a server that uses KVM. May help."),
        'commenter2': "Replace a machine that doesn't use KVM and the speed will be normal.",
        'commenter3': 'Note：when I change the machine,  PHB -> SYS',
        'reporter': 'Thanks!',
    },
    log=[('bench', i) for i in range(7)],
    args_model='Llama3 70B', args_gpu='A100 PCIe',
    notes=('the benchmark lines are the reporter\'s bench_serving output, rebuilt in the tool\'s fixed-width layout (bench()); the '
           'model, GPU and TP 4 come from the title; no launch command is in the stored excerpt'),
    leak="The commenter's hypervisor/KVM diagnosis (PHB link, a machine without KVM runs at normal speed) is left out.",
    hard=('Only a slow benchmark on TP-4 A100 PCIe; the hypervisor-routed GPU link is a commenter\'s analogous experience that the '
          'reporter (a maintainer) accepted, not confirmed on this machine.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/2971', thread_type='issue',
    engine='vLLM OpenAI server 0.3.2 (single RTX 4090)', engine_version='0.3.2',
    gpu='NVIDIA RTX 4090', model='OpenHermes-2.5-Mistral-7B',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('After the upgrade to vLLM 0.3.2 the default CUDA-graph decode path ran far slower on this setup (generation '
                '15.5 tok/s against 273.8 tok/s on 0.2.7); upgrading to 0.3.3 and running with --enforce-eager (no CUDA graphs) '
                'restored the speed.'),
    fix='Upgrade to vLLM 0.3.3 and start the server with --enforce-eager.',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': "Recently upgraded to the latest version 0.3.2 and I've noticed a total slowdown in outputs.",
        'before': 'Avg prompt throughput: 1006.0 tokens/s, Avg generation throughput: 273.8 tokens/s,',
        'after': 'Avg prompt throughput: 175.5 tokens/s, Avg generation throughput: 15.5 tokens/s,',
        'cmd': ['python -m vllm.entrypoints.openai.api_server \\',
                '--model code/hf-models/OpenHermes-2.5-Mistral-7B --max-model-len 8192'],
        'gpu': 'On a single 4090.',
        'maintainer': ("Can you try 0.3.1 so we can figure out whether it's a recent regression or not, additionally, try setting "
                       "`enforce_eager=False`?"),
        'commenter': 'slow inference occurs when tp >1. i switched back to tp = 1 and it works normally.',
        'reporter': "I upgraded to 0.3.3 and started explicitly adding --enforce-eager, and it's back to speedy. thanks.",
    },
    log=[('after', None)],
    engine_args='python -m vllm.entrypoints.openai.api_server --model code/hf-models/OpenHermes-2.5-Mistral-7B --max-model-len 8192',
    observe={'output_tokens_per_s': (15.5, 'Avg generation throughput: 15.5 tokens/s'),
             'expected_output_tokens_per_s': (273.8, 'Avg generation throughput: 273.8 tokens/s')},
    args_model='OpenHermes-2.5-Mistral-7B', args_gpu='RTX 4090',
    notes=('the log line is the reporter\'s 0.3.2 stats line; expected_output_tokens_per_s is the same server\'s rate on 0.2.7, '
           'which the reporter had before the upgrade; engine_args joins the two-line launch command'),
    leak="The maintainer's suggestions, the commenter's TP>1 observation and the reporter's fix (0.3.3 + --enforce-eager) are left out.",
    hard=('A generic slowdown after an upgrade; that the CUDA-graph decode path is the slow part (fixed by --enforce-eager) is only in '
          'the reporter\'s fix, and the call between an engine-version regression and a kernel/graph path could go two ways.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/8847', thread_type='issue',
    engine='vLLM OpenAI server (V0, --enforce-eager)', engine_version='Sep 2024',
    gpu=None, model='meta-llama/Meta-Llama-3-8B-Instruct',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The GPU itself was in a faulted state (nvidia-smi -q showed "Reset Required: Yes"), so a single request decoded '
                'at 0.8 tok/s; after the GPU was reset the same server generated about 20 tok/s.'),
    fix='Reset the GPU (or drain the node and reboot) after the fault that set "Reset Required".',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Performance]: Extremely low throughput',
        'cmd': 'python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Meta-Llama-3-8B-Instruct --enforce-eager --max-num-seqs 16',
        'desc': 'However, the throughput seems to be extremely low (0.8, 0.9 token/s):',
        'log': ['INFO 09-26 11:35:31 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.8 tokens/s, '
                'Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.2%, CPU KV cache usage: 0.0%.',
                'INFO 09-26 11:35:37 metrics.py:351] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.8 tokens/s, '
                'Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.2%, CPU KV cache usage: 0.0%.'],
        'reporter': 'It was a GPU issue :) from `nvidia-smi -q`:',
        'nvsmi': ['GPU Reset Status', 'Reset Required                    : Yes', 'Drain and Reset Recommended       : No'],
        'reporter2': "Now it's up to 20 tokens/s!",
    },
    log=[('log', 0), ('log', 1)],
    engine_args='python3 -m vllm.entrypoints.openai.api_server --model meta-llama/Meta-Llama-3-8B-Instruct --enforce-eager --max-num-seqs 16',
    observe={'output_tokens_per_s': (0.8, 'Avg generation throughput: 0.8 tokens/s'), 'running': (1, 'Running: 1 reqs'),
             'kv_usage': (0.002, 'GPU KV cache usage: 0.2%')},
    notes=('the two stats lines and the launch command are the reporter\'s; the GPU model is not named in the stored excerpt; '
           '--enforce-eager is in the command but is not the cause'),
    leak="The reporter's nvidia-smi -q output (Reset Required: Yes) and the 20 tokens/s after the reset are left out.",
    hard=('One request at 0.8 tok/s with --enforce-eager in the flags; the faulted GPU state is only in the nvidia-smi -q output '
          'the reporter posted with the answer.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm-ascend/issues/7193', thread_type='issue',
    engine='vLLM-Ascend (main-openeuler image, TP/EP workers)', engine_version='main, Mar 2026',
    gpu='Ascend NPU', model='Qwen3-Next',
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('For Qwen3-Next / Qwen3-Coder-Next / Qwen3.5 the server JIT-compiles its Triton-Ascend kernels (bisheng, clang-17) '
                'on the first request instead of at startup, so the first request after bootstrapping has a large TTFT.'),
    fix='Warm the server up with a dummy request after startup (or pre-compile the kernels / cache them) before taking traffic.',
    confidence='confirmed_by_reporter',
    evidence={
        'env': 'docker image today: main-openeuler',
        'desc': 'After bootstrapping the `vllm serve` for Qwen3-Next, Qwen3-Coder-Next and Qwen3.5 models, ',
        'desc_cause': 'it will do some compiling (using bisheng and clang-17) when receive the first request.',
        'desc2': 'That will obviously increase the TTFT.',
        'log': ['(APIServer pid=87) INFO:     Application startup complete.',
                '(APIServer pid=87) INFO:     xx.xx.xx.xx:14167 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
                "(Worker_TP0_EP0 pid=370) [WARNING] Please DO NOT tune args ['num_warps', 'num_stages']!",
                "(Worker_TP1_EP1 pid=371) [WARNING] Please DO NOT tune args ['num_warps', 'num_stages']!"],
    },
    log=[('log', i) for i in range(4)],
    args_model='Qwen3-Next', args_gpu=None,
    notes=('the four lines are the reporter\'s server log around the first request; no TTFT figure is quoted; the NPU model is '
           'not named (vLLM-Ascend)'),
    leak="The title (asks for a warm-up after startup) and the reporter's account of bisheng/clang-17 compiling on the first request are left out.",
    hard='Only startup and Triton tuning warnings around the first request; the on-first-request kernel compilation is only in the prose.'))

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/716', thread_type='issue',
    engine='LMDeploy TurboMind api_server (TP 2)', engine_version='Nov 2023',
    gpu=None, model=None,
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('TurboMind\'s batch size is bounded by max_batch_size in the converted workspace config, not by --instance_num, so '
                'raising the server instances and the client concurrency to 1000 left the running batch (and GPU memory use) '
                'unchanged and 1000 requests took the same time.'),
    fix='Raise max_batch_size (and the KV cache entries) in workspace/triton_models/weights/config.ini.',
    confidence='maintainer_explained',
    evidence={
        'desc': '当增加服务并发，请求并发后，同样1000个样本请求耗时不变',
        'cmd': 'lmdeploy serve api_server ./workspace --server_name 0.0.0.0 --server_port 8000 --instance_num 1000 --tp 2',
        'client': '--concurrency 1000',
        'maintainer': '显存的占用是受配置约束的。',
        'reporter_q': '是更改max_batch_size这个值吗',
        'maintainer2': '是的。',
    },
    engine_args='lmdeploy serve api_server ./workspace --server_name 0.0.0.0 --server_port 8000 --instance_num 1000 --tp 2',
    notes=('engine_args is the reporter\'s server command; the client ran profile_restful_api.py with --concurrency 1000; the '
           'model (a converted ./workspace) and the GPU are not named; timings are only in screenshots'),
    leak="The maintainer's pointer to the TurboMind config and the max_batch_size question/answer are left out.",
    hard='Only the server command and "same time at higher concurrency"; the batch cap lives in the workspace config.ini, not in the inputs.'))

I.append(dict(
    src='https://github.com/triton-inference-server/tensorrtllm_backend/issues/120', thread_type='issue',
    engine='TensorRT-LLM on Triton (tensorrtllm_backend, in-flight batching, ensemble generate route)', engine_version='Nov 2023',
    gpu=None, model='Llama-based model',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The in-flight batcher ran with the max_utilization batch scheduler policy, which admits requests greedily and '
                'pauses/evicts them when the paged KV cache fills, so aggregate tokens/s collapsed around 16 concurrent requests and '
                'requests timed out at about 20; switching tensorrt_llm/config.pbtxt to guaranteed_no_evict removed the degradation.'),
    fix='Set batch_scheduler_policy to guaranteed_no_evict in tensorrt_llm/config.pbtxt.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Bad performance above certain batch size',
        'desc': ('it seems that when I benchmark the model using short prompts (about 10 tokens), it does very well but than the '
                 'performance (measured by tokens/s generated for the whole batch) decreases significantly at around 16 concurrent '
                 'requests, and then at around 20 concurrent requests my requests get timeout (of 30 seconds).'),
        'desc2': ('The weird thing is that when benchmarking using longer prompts (about 1000 tokens), this happens only at around '
                  '50 or more concurrent requests.'),
        'desc3': ("The way I'm making requests to the model is simply using the `generate` route of the `ensemble` model defined in "
                  "the example model repository, not using any special parameters (I keep stop words and bad words as empty lists), "
                  "and limiting the generated tokens to 64."),
        'commenter': ('I encountered the same problem, and the performance degradation problem was solved by modifying the '
                      'tensorrtllm/config.pbtxt configuration.'),
        'commenter2': 'batch_scheduler_policy should use guaranteed_no_ev',
    },
    observe={'running': (20, 'around 20 concurrent requests'), 'gateway_timeout_s': (30, 'timeout (of 30 seconds)'),
             'input_len_mean': (10, 'short prompts (about 10 tokens)'), 'output_len_mean': (64, 'limiting the generated tokens to 64')},
    args_model='Llama-based model', args_gpu=None,
    notes=('no log or config is in the stored excerpt; observe holds the reporter\'s concurrency at failure (20, as running), the '
           'client timeout (30 s), the ~10-token prompts and the 64-token cap; the cause is from a commenter who hit the same '
           'failure and fixed it (his comment is cut in the stored excerpt after "guaranteed_no_ev")'),
    leak="The commenter's fix (batch_scheduler_policy -> guaranteed_no_evict in tensorrtllm/config.pbtxt) is left out.",
    hard=('Only the reporter\'s prose figures (a 30 s client timeout among them); the scheduler policy is named only in a '
          'commenter\'s fix.')))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/670', thread_type='issue',
    engine='LMDeploy TurboMind restful api_server (TP 1)', engine_version='Nov 2023 (pre-0.0.14)',
    gpu='NVIDIA V100 32GB', model=None,
    symptom='throughput_low', layer='load',
    root_cause=('The load script sent every request with the same session_id, so the server treated all 100 concurrent requests '
                'as one conversation and served them one after another (GPU half used, single-request speed unchanged).'),
    fix='Give every concurrent request its own session_id (and use a build with the api_server concurrency fixes).',
    confidence='plausible',
    evidence={
        'title': '[Bug] restful api服务并发请求，请求速度慢',
        'desc': ('使用lmdeploy serve api_server ./workspace --server_name 0.0.0.0 --server_port 8093 --instance_num 256 --tp 1建立'
                 'restapi服务，并发100个请求同时请求模型服务，GPU占用只能达到一半，调整instance_num无变化，看日志单次请求速度无变化，'
                 '但1并发100请求完成速度慢'),
        'cmd': 'lmdeploy serve api_server ./workspace --server_name 0.0.0.0 --server_port 8093 --instance_num 256 --tp 1',
        'env': 'v100 32G',
        'client': '每个test.sh里面都是10000个问题的循环请求restful_api',
        'maintainer': 'session_id得不同才行，不然会被认为是同一个对话序列的',
        'maintainer2': '等我们发了v0.0.14后，你再试试',
        'reporter_last': '在调整了sess',
    },
    engine_args='lmdeploy serve api_server ./workspace --server_name 0.0.0.0 --server_port 8093 --instance_num 256 --tp 1',
    args_gpu='V100 32G',
    notes=('engine_args is the reporter\'s server command; the load script (test.sh) is only a screenshot; the model (a converted '
           './workspace) is not named'),
    leak="The maintainer's answer (session_id must differ per request) and the reporter's follow-up are left out.",
    hard=('Only the server command and "100 concurrent requests complete slowly, GPU half used"; the shared session_id is in the '
          'client script screenshot and the maintainer\'s answer. The reporter\'s follow-up is cut in the stored excerpt and the '
          'maintainer also pointed to the next release, hence plausible.')))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/3173', thread_type='issue',
    engine='TGI 3.1.1 (Kubernetes pod) serving grammar-constrained (JSON schema) requests', engine_version='3.1.1',
    gpu=None, model='llama3_3_70b_instruct',
    symptom='ttft_spike', layer='load',
    root_cause=('Every request carried a grammar parameter with a large nested JSON schema (Generation.schema()); building the '
                'constrained-decoding state for it kept requests in TGI\'s queue for about 161 s before the first token, while the '
                'same container without grammar queued for milliseconds.'),
    fix='Simplify or cache the JSON schema (or drop grammar-constrained generation for these requests).',
    confidence='plausible',
    evidence={
        'system': ['Running TGI on a kubernetes pod with the following arguments:',
                   'image: ghcr.io/huggingface/text-generation-inference:3.1.1',
                   'args: ["--model-id", "/models/llama3_3_70b_instruct", "--dtype", "bfloat16"]'],
        'repro': ['Use AsyncClient (text_generation) with generate and grammar Parameters',
                  'Grammar parameters  "{"type": "json", "value": Generation.schema()}"'],
        'log': 'validation_time="5.669107ms" queue_time="161.454300714s"',
        'expected': 'Expected queue time to be similar to normal inference or slightly longer.',
        'ab': 'Behaviour using same container without guidance or structured generation gets the following:',
    },
    log=[('log', None)],
    engine_args='--model-id /models/llama3_3_70b_instruct --dtype bfloat16; request: grammar={"type": "json", "value": Generation.schema()}',
    args_model='llama3_3_70b_instruct', args_gpu=None,
    notes=('the log line is the reporter\'s TGI router timing; engine_args joins the pod args with the request\'s grammar field '
           '(as the earlier sets did for request fields); the GPU is not named'),
    leak="The title (names guidance/grammar) and the reporter's A/B without structured generation are left out.",
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261213, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
