#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh22: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh21; this file follows incidents_fresh18/build.py).
Unlike every earlier set, the sources are not GitHub issue/PR threads: they are forum threads (discuss.vllm.ai) and
public write-ups (blog posts, lab reports, project journals) found with the search tool's "pages" corpus.
Every evidence string below was copied verbatim from the page text returned by the search tool (leading indentation,
list bullets/numbers and table pipes at the line start kept or dropped as returned; a few long lines cut to a verbatim
prefix/substring). Log lines are taken from the evidence, so check.py can verify they are verbatim substrings of it.
This batch concentrates on the datacenter engines (vLLM, SGLang, TensorRT-LLM/Triton, TGI, NIM, LMDeploy) and asks
especially for load and scheduling_capacity cases.

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
    src='https://discuss.vllm.ai/t/the-vllm-server-fails-on-large-max-num-batched-tokens/1602', thread_type='forum',
    engine='vLLM OpenAI API server (V1 engine)', engine_version='0.10.1.dev1+gbcc0a3cbe', gpu=None,
    model='mistralai/Mistral-7B-Instruct-v0.2',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('--max-num-batched-tokens was set to 200000 (used to bound concurrency in profiling experiments); the '
                'engine sizes its profiling/activation memory for a batch of that many tokens, so above some value the '
                'server fails at startup instead of capping the batch at what the GPU memory allows.'),
    fix='Keep --max-num-batched-tokens at a value the GPU memory can hold (limit concurrency with --max-num-seqs).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'The vLLM server fails on large max-num-batched-tokens',
        'desc': ('When specifying large number in max-num-batched-tokens the server fails instead of limiting the '
                 'concurrency (num scheduled). From the log it seems it can get the CUDA available memory and use it to '
                 'cap - a much better behavior. I used max-num-batched-tokens to limit concurrency in profiling '
                 'experiments, and above some limit it fails instead of limiting the concurrency.'),
        'log': [
            'INFO 09-13 13:31:16 [api_server.py:1755] vLLM API server version 0.10.1.dev1+gbcc0a3cbe',
            ("INFO 09-13 13:31:16 [cli_args.py:261] non-default args: {\u2018model_tag\u2019: "
             "\u2018mistralai/Mistral-7B-Instruct-v0.2\u2019, \u2018host\u2019: \u20180.0.0.0\u2019, \u2018model\u2019: "
             "\u2018mistralai/Mistral-7B-Instruct-v0.2\u2019, \u2018trust_remote_code\u2019: True, \u2018max_model_len\u2019: "
             "16384, \u2018block_size\u2019: 32, \u2018enable_prefix_caching\u2019: False, \u2018max_num_batched_tokens\u2019: "
             "200000, \u2018max_num_seqs\u2019: 200, \u2018enable_chunked_prefill\u2019: False}"),
            'INFO 09-13 13:31:28 [config.py:1604] Using max model len 16384',
            'INFO 09-13 13:31:28 [config.py:2434] Chunked prefill is enabled with max_num_batched_tokens=200000.',
            'INFO 09-13 13:31:43 [core.py:71] Initializing a V1 LLM engine (v0.10.1.dev1+gbcc0a3cbe) with config: '
            "model=\u2018mistralai/Mistral-7B-Instruct-v0.2\u2019, speculative_config=None, "
            "tokenizer=\u2018mistralai/Mistral-7B-Instruct-v0.2\u2019, skip_tokenizer_init=False, tokenizer_mode=auto",
        ],
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    engine_args='--max-model-len 16384 --block-size 32 --max-num-batched-tokens 200000 --max-num-seqs 200',
    args_model='mistralai/Mistral-7B-Instruct-v0.2',
    args_gpu=None,
    notes=('the log lines are the startup lines the reporter posted (the stored excerpt ends before the failure '
           'itself); engine_args is rebuilt from the non-default args line; the reporter ties the failure to the CUDA '
           'memory available, so the startup failure is passed as startup_oom; no GPU is named'),
    leak=("The thread title and the first sentence of the post name the large max-num-batched-tokens as the trigger; "
          "both are left out of the inputs (the value itself is in the args line, as the operator would have it)."),
    hard=None))

I.append(dict(
    src='https://discuss.vllm.ai/t/vllm-0-18-0-kv-cache-100-0/2608', thread_type='forum',
    engine='vLLM OpenAI server (vllm serve) under vllm bench serve', engine_version='0.18.0', gpu=None,
    model='Qwen3.5-9B',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('The benchmark kept 18 requests of 80,000 input tokens (+800 output) in flight, sized to fill the KV '
                'cache exactly (45.94 GiB, 5.70x of 262,144 tokens); as the requests decode the pool overflows, the '
                'scheduler preempts the running requests back to the waiting queue and throughput stalls until KV space '
                'frees (the KV usage drops from 100% to 0%).'),
    fix='Admit fewer long requests at once (lower --max-num-seqs / concurrency) or give the KV cache more memory.',
    confidence='plausible',
    evidence={
        'title': 'Vllm-0.18.0 kv cache使用率从100%掉到0%',
        'serve': ('vllm serve Qwen3.5-9B --served-model-name default_model --enable-prompt-tokens-details '
                  '--enable-mfu-metrics --max-num-batched-tokens=64K --max-num-seqs 128 --reasoning-parser qwen3 '
                  '--enable-auto-tool-choice --tool-call-parser qwen3_xml --no-enable-prefix-caching --port 8000 '
                  '--host :: --language-model-only'),
        'log': ['Available KV cache memory: 45.94 GiB',
                'Maximum concurrency for 262,144 tokens per request: 5.70x'],
        'bench': ('vllm bench serve   --seed 42 --disable-shuffle   --backend openai   --endpoint /v1/completions   '
                  '--host $MY_POD_IPV6   --port 8000   --request-rate 18   --max-concurrency 18   --num-prompts 60   '
                  '--input-len 80000   --output-len 800   --temperature 0.0   --top-p 1.0'),
        'sizing': '按80K的输入来算,大概刚好能同时容纳18个请求使kv cache利用率最高。',
        'symptom': ['压测时发现有段时间metrics没有吞吐(vllm log有吞吐)',
                    '这段时间 kv cache 使用率从100%掉到0%,running 队列请求全部变成waiting'],
        'answer_bot': ('When vLLM\u2019s KV cache reaches 100% utilization, new requests are moved from the running to '
                       'the waiting queue, and prompt/generation throughput drops to zero until cache is freed.'),
        'answer_bot_fix': ('If this happens frequently, consider lowering max-num-seqs or max-num-batched-tokens, or '
                           'increasing available GPU memory or parallelism to reduce preemption and improve throughput '
                           'stability'),
    },
    log=[('log', 0), ('log', 1)],
    observe={'kv_usage': (1.0, 'kv cache 使用率从100%掉到0%'),
             'input_len_mean': (80000, '--input-len 80000'),
             'output_len_mean': (800, '--output-len 800'),
             'request_rate': (18, '--request-rate 18')},
    engine_args='--max-num-batched-tokens=64K --max-num-seqs 128 --no-enable-prefix-caching',
    args_model='Qwen3.5-9B',
    args_gpu=None,
    notes=('the log lines are the two startup figures the reporter quoted; engine_args are the capacity flags of the '
           'reporter\'s vllm serve line; kv_usage 1.0 is the "100%" KV usage before the drop; input/output length and '
           'request rate come from the vllm bench serve line (max-concurrency 18); the stall with all running requests '
           'moved to waiting is passed as runtime_oom_or_preemption; no GPU is named'),
    leak=("The forum assistant's answer (KV cache at 100% moves running requests to waiting; lower max-num-seqs or give "
          "KV more memory) is left out, and so is the reporter's own sizing remark (18 requests of 80K just fill the KV "
          "cache)."),
    hard=None))

I.append(dict(
    src='https://tobias-weiss.org/articles/ai/2-node-dgx-spark-deepseek-v4-cluster', thread_type='blog',
    engine='vLLM in Docker, TP=2 across two DGX Spark nodes (NCCL/RDMA)', engine_version='0.21.1rc1',
    gpu='2x NVIDIA DGX Spark (GB10)', model='DeepSeek-V4-Flash',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The cluster ran with max-num-seqs 1 (plus max-num-batched-tokens 4096, gpu-memory-utilization 0.70 and '
                'CUDA graphs off): one request decoded at a time while 37 requests queued, so throughput sat at 5.5 tok/s '
                'with 37% GPU utilisation; raising max-num-seqs (the largest multiplier) with the other limits gave 3x.'),
    fix='Raise max-num-seqs (and gpu-memory-utilization for KV headroom), enable CUDA graphs and FlashInfer autotune.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '2-Node DGX Spark Cluster: Running DeepSeek V4 Flash at 16 TPS',
        'tagline': ('Two NVIDIA DGX Sparks. One 685B-parameter MoE model. A 3\u00d7 throughput improvement without a '
                    'single crash. Here\'s how.'),
        'setup': ('The pair runs DeepSeek-V4-Flash \u2014 a Mixture-of-Experts model with 685B total parameters (37B '
                  'active per token) \u2014 via vLLM 0.21.1rc1 in Docker, using tensor parallelism across both nodes '
                  '(TP=2) over NCCL/RDMA.'),
        'baseline_config': ['| Parameter | Baseline Value |', 'max-num-seqs | 1 |', 'max-num-batched-tokens | 4096 |',
                            'gpu-memory-utilization | 0.70 |', '| FlashInfer autotune | Disabled |',
                            '| CUDA graphs | Disabled (enforce-eager) |'],
        'baseline_perf': ['| Inter-token latency (ITL) | 182 ms/tok |', '| Throughput | 5.5 tokens/second |',
                          '| KV cache capacity | ~482K tokens |', '| TTFT (long context) | 88.5 seconds |',
                          '| GPU utilization (node 2) | 37% |', '| Prefix cache hit rate | 72% |'],
        'load': ('The server handled 37 requests with 896K prompt tokens and 20K generation tokens \u2014 functional but '
                 'far from the hardware\'s potential.'),
        'headroom': 'GPU utilization sat at 37% on the secondary node. Clearly there was headroom.',
        'ranking': ('- Increase\nmax-num-seqs\u2014 single greatest throughput multiplier (3-6\u00d7) - Raise\n'
                    'gpu-memory-utilization\u2014 more KV cache headroom for concurrent request'),
    },
    log=[('baseline_perf', 0), ('baseline_perf', 1), ('baseline_perf', 2), ('baseline_perf', 4)],
    observe={'tpot_p50_s': (0.182, '| Inter-token latency (ITL) | 182 ms/tok |'),
             'output_tokens_per_s': (5.5, '| Throughput | 5.5 tokens/second |'),
             'gpu_util': (0.37, '| GPU utilization (node 2) | 37% |'),
             'prefix_cache_hit_rate': (0.72, '| Prefix cache hit rate | 72% |')},
    engine_args=('--tensor-parallel-size 2 --max-num-seqs 1 --max-num-batched-tokens 4096 '
                 '--gpu-memory-utilization 0.70 --enforce-eager'),
    args_model='DeepSeek-V4-Flash',
    args_gpu='NVIDIA DGX Spark GB10 (x2)',
    notes=('the log lines are rows of the author\'s baseline metrics table; engine_args is rebuilt from the baseline '
           'configuration table (TP=2 from the setup sentence); ITL 182 ms -> tpot_p50_s 0.182, % -> fraction; the '
           'long-context TTFT (88.5 s) is not passed because its statistic is not named'),
    leak=("The author's ranking of the optimisations (max-num-seqs as the greatest multiplier), the 'clearly there was "
          "headroom' remark, the 3x result and the tuned configuration are left out."),
    hard=None))

I.append(dict(
    src='https://kooexperience.com/blog/posts/llm-gauntlet.html', thread_type='blog',
    engine='vLLM on an A100 80GB VM, load-tested with Locust', engine_version='0.17.1', gpu='NVIDIA A100 80GB',
    model='Qwen3.5-35B-A3B (FP8, ~35 GB)',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('The FP8 checkpoint (~35 GB of weights) left only ~39 GB for KV cache on the 80 GB GPU; under the '
                'Locust blast the server ran out of KV cache blocks and queued requests, so no gpu_memory_utilization / '
                'max_num_seqs / max_num_batched_tokens setting got past ~1,070 tok/s.'),
    fix='Serve a smaller quantisation (AWQ ~25 GB, then GPTQ-Int4 ~24.5 GB) to free memory for KV cache: 1,211 then 3,114 tok/s.',
    confidence='confirmed_by_reporter',
    evidence={
        'stack': 'vLLM 0.17.1 A100 80GB Qwen3.5-35B-A3B GPTQ-Int4 Python Redis nginx Prometheus Locust',
        'setup': ('19 of us were each given an A100 80GB GPU VM and tasked with serving Qwen3.5-35B-A3B as fast as '
                  'possible using vLLM. The organizers would blast all servers simultaneously with Locust for 2 hours, '
                  'measuring throughput (RPS), TTFT, median and p95 latency, and error rate.'),
        'phase1': ('I started with the FP8 quantized model (~35 GB). It seemed like the "best quality" option. After '
                   'testing 20+ configurations across gpu_memory_utilization, max_num_seqs, and max_num_batched_tokens, '
                   'the best I got was 1,070 tok/s. Hours of tuning yielded only marginal gains.'),
        'diagnosis': ('The problem: at 35 GB, the model left only ~39 GB for KV cache on an 80 GB GPU. Under high '
                      'concurrency, the server ran out of KV cache blocks and started queuing requests, killing '
                      'throughput.'),
        'phase2': ('Switching to the AWQ model (~25 GB) freed 10 GB of VRAM. Throughput jumped to 1,211 tok/s without '
                   'changing any configuration.'),
        'title_stat': 'The Optimization Journey: 650 to 3,114 tok/s',
    },
    observe={'output_tokens_per_s': (1070, 'the best I got was 1,070 tok/s')},
    engine_args=None,
    args_model='Qwen3.5-35B-A3B-FP8',
    args_gpu='A100 80GB',
    notes=('the only machine-usable input is the best throughput the FP8 deployment reached (1,070 tok/s) under the '
           'Locust load; the tuned flags are named but their values are not given, so no engine_args are passed; the '
           'model is passed as the FP8 checkpoint of Qwen3.5-35B-A3B'),
    leak=("The author's diagnosis (FP8 weights leave ~39 GB of KV cache; the server ran out of KV blocks and queued "
          "requests) and the quantisation switches that fixed it are left out."),
    hard=('Only the throughput, the model (FP8, 35B MoE) and the GPU are in the inputs; the KV-block exhaustion and '
          'queueing under the load test are not.')))

I.append(dict(
    src='https://airelien.dev/en/posts/qwen36-27b-blackwell-mobile', thread_type='blog',
    engine='vLLM (custom image) with MTP speculative decoding', engine_version='0.19.1',
    gpu='NVIDIA RTX 5090 Laptop GPU (24GB, sm_120)', model='sakamakismile/Qwen3.6-27B-Text-NVFP4-MTP',
    symptom='startup_oom', layer='scheduling_capacity',
    root_cause=('With the NVFP4 checkpoint, vLLM\'s Qwen3_5MTP loader allocates a fresh 2.37 GiB BF16 buffer for mtp.fc '
                '(NVFP4 quantises everything in the file); on a 24 GB card the model plus that MTP head does not fit, so '
                'loading with MTP fails with an OOM for 2.37 GiB.'),
    fix='Use Lorbus/Qwen3.6-27B-int4-AutoRound, which keeps mtp.fc dequantised to BF16 in the file (~280 MiB).',
    confidence='confirmed_by_reporter',
    evidence={
        'table_row': '| vLLM v0.19.1 NVFP4 + MTP n=1 | RTX 5090M 24GB | OOM (model OK, MTP head 2.37 GiB doesn\u2019t fit) |',
        'gotcha': ('I tried sakamakismile/Qwen3.6-27B-Text-NVFP4-MTP first. NVFP4 is 2x FP8 throughput on Blackwell '
                   'tensor cores, and the model name says it includes MTP. Loaded fine, but:'),
        'error': 'torch.OutOfMemoryError: Tried to allocate 2.37 GiB. GPU has 2.25 GiB free.',
        'cause': ('Same issue Wasif documents. vLLM\u2019s Qwen3_5MTP loader allocates a fresh 2.37 GiB BF16 buffer for '
                  'mtp.fc because NVFP4 quantizes everything in the file. On 32GB it fits, on 24GB it doesn\u2019t.'),
        'fix': ('Fix: switch to Lorbus/Qwen3.6-27B-int4-AutoRound, which dequantizes only mtp.fc to BF16 in the file '
                '(~280 MiB). vLLM finds it on disk, no fresh buffer.'),
        'hardware': ('an RTX 5090 Laptop GPU (24GB, ~896 GB/s, sm_120 Blackwell), not the 32GB desktop card.'),
    },
    log=[('error', None)],
    engine_args=None,
    args_model='sakamakismile/Qwen3.6-27B-Text-NVFP4-MTP',
    args_gpu='RTX 5090 Laptop GPU 24GB',
    notes=('the log line is the OOM the author got when loading the NVFP4 MTP checkpoint with MTP n=1; the exact '
           'speculative-decoding flags are not quoted, so no engine_args are passed'),
    leak=("The author's explanation (the MTP loader allocates a fresh 2.37 GiB BF16 buffer for mtp.fc with NVFP4 "
          "checkpoints; it fits on 32 GB, not on 24 GB) and the checkpoint switch that fixed it are left out; the table "
          "row naming the MTP head is left out."),
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://ld-singh.github.io/ai-factory-ops-lab/portfolio-lab/06-validation-reports/inference-benchmark-report/',
    thread_type='blog',
    engine='vLLM (vllm/vllm-openai, V1) on k3s, OpenAI-compatible', engine_version='v0.23.0',
    gpu='NVIDIA RTX A6000 (48 GB)', model='Qwen/Qwen2.5-7B-Instruct',
    symptom='ttft_spike', layer='load',
    root_cause=('The load generator drove 512 concurrent requests, past the server\'s knee (~256): throughput stopped '
                'growing (4040 -> 3896 tok/s) and the extra requests only queued, so TTFT p95 jumped from 0.52 s to '
                '3.56 s and goodput fell to 50%.'),
    fix='Keep the offered concurrency at the operating point (~256 in flight) or add capacity.',
    confidence='confirmed_by_reporter',
    evidence={
        'env': ['| GPU | NVIDIA RTX A6000 (48 GB) |',
                '| Model served | Qwen/Qwen2.5-7B-Instruct via vLLM (served name local) |',
                '| vLLM | vllm/vllm-openai:latest (v0.23.0) on k3s, runtimeClassName: nvidia, nvidia.com/gpu: 1 |'],
        'sweep_title': 'Saturation - the knee (CONCURRENCY=64,128,256,512 REQUESTS_PER_LEVEL=512)',
        'sweep': ['conc  reqs  err  gen  ttft_p50  ttft_p95  tpot_p50  e2e_p95  e2e_p99    tok/s  goodput%',
                  '64   512    0   51     0.087     0.163    0.0275    1.678    1.792   2127.6    100.0',
                  '128   512    0   52     0.126     0.325    0.0360    2.291    2.421   3138.1    100.0',
                  '256   512    0   52     0.299     0.517    0.0531    3.535    3.784   4039.9    100.0',
                  '512   512    0   52     1.043     3.564    0.0564    5.828    5.946   3896.1     50.0'],
        'analysis': ('Operating point: conc 256 (~4040 tok/s at 100% goodput). Throughput peaks there and falls at '
                     'conc512 (3896 tok/s) while ttft_p95 spikes 0.52s \u2192 3.56s and goodput cliffs to 50%. Past the '
                     'knee, more load buys no throughput and halves the SLO - the classic throughput-vs-latency '
                     'trade-off, on real hardware.'),
    },
    log=[('sweep', 0), ('sweep', 3), ('sweep', 4)],
    observe={'ttft_p50_s': (1.043, '1.043     3.564'),
             'tpot_p50_s': (0.0564, '0.0564    5.828'),
             'e2e_p99_s': (5.946, '5.828    5.946'),
             'output_tokens_per_s': (3896.1, '5.946   3896.1')},
    engine_args=None,
    args_model='Qwen/Qwen2.5-7B-Instruct',
    args_gpu='RTX A6000 48GB',
    notes=('the log lines are the header and the conc-256 and conc-512 rows of the author\'s saturation sweep (the '
           'loadgen output); observe values are the conc-512 row (ttft_p95 has no VOCAB name and stays in the log); '
           'the server runs vLLM defaults, so no engine_args are passed'),
    leak=("The report's analysis paragraph (operating point conc 256; past the knee more load buys no throughput) is "
          "left out; the offered concurrency is visible only as the conc column of the sweep."),
    hard=None))

I.append(dict(
    src='https://kenrollins.github.io/gemma-forge/journal/gotchas/context-window-edge/', thread_type='blog',
    engine='vLLM (tp=2) behind an ADK multi-turn agent', engine_version='2026 (Gemma 4 support)',
    gpu='2x NVIDIA L4 (24 GB)', model='Gemma 4 31B NVFP4',
    symptom='other', layer='load',
    root_cause=('The agent\'s multi-turn conversation grows every turn (previous messages, tool calls and tool results, '
                'e.g. a truncated STIG scan); by the second or third turn the prompt (3073+ tokens) plus the 1024 '
                'requested output tokens exceeds max_model_len 4096, which had been kept small because the NVFP4 31B '
                'model leaves only ~642 MiB per GPU for KV cache.'),
    fix='Keep tool outputs compact (top 20 failing rules), raise max_model_len to 8192, ask for concise answers.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Gotcha: NVFP4 31B on L4 has minimal KV cache headroom',
        'symptom': ["Error code: 400 - This model's maximum context length is 4096 tokens.",
                    'However, you requested 1024 output tokens and your prompt contains at',
                    'least 3073 input tokens, for a total of at least 4097 tokens.'],
        'when': ('Hits on the second or third turn of a multi-turn conversation, even with max_model_len=4096. The first '
                 'turn works fine.'),
        'root_cause': ('The NVFP4 31B model consumes ~21.9 GB per GPU (of 23.0 GB L4 capacity). After the model weights '
                       'load, only ~642 MiB per GPU remains for KV cache. vLLM allocates 10,432 tokens of KV cache total '
                       '(with FP8 compression).'),
        'root_cause2': ('At max_model_len=4096, vLLM can handle 3.58x concurrent requests. But in a multi-turn '
                        'conversation, the prompt grows with each turn (previous messages + tool calls + tool results). A '
                        'STIG scan result (even truncated) + previous conversation can exceed 3000 tokens by the second '
                        'turn.'),
        'fix': ('Keep tool outputs compact. The full STIG scan is 71K chars (~20K tokens). Truncate to the 20 most '
                'relevant failing rules (~2K chars).'),
        'hw': 'The numbers for NVFP4 31B on 2\u00d7 L4 (tp=2): - Model weights: ~16.3 GiB per GPU',
    },
    log=[('symptom', 0), ('symptom', 1), ('symptom', 2)],
    observe={'input_len_mean': (3073, 'least 3073 input tokens')},
    engine_args='--tensor-parallel-size 2 --max-model-len 4096',
    args_model='Gemma 4 31B NVFP4',
    args_gpu='2x L4 24GB',
    notes=('the log lines are the 400 error the agent got (three lines as returned); engine_args is rebuilt from the '
           'prose ("max_model_len=4096", "2x L4 (tp=2)"); input_len_mean is the prompt length in the error; the '
           'rejected request is an HTTP 400, passed as other'),
    leak=("The gotcha's title (minimal KV cache headroom), the root-cause section (prompt growth across turns, KV "
          "headroom) and the multi-pronged fix are left out; that it happens only from the second turn on is left out."),
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://www.tobias-weiss.org/articles/ai/dgx-spark-vllm-oom-debugging/', thread_type='blog',
    engine='vLLM in Docker, TP=2 + expert parallel across two DGX Spark nodes', engine_version='0.21.1rc1',
    gpu='2x NVIDIA DGX Spark (GB10, unified memory 121/119 GiB)', model='DeepSeek-V4-Flash',
    symptom='startup_oom', layer='operator_hardware',
    root_cause=('On the GB10\'s unified memory, --load-format safetensors memory-maps the 148 GiB checkpoint, so the Linux '
                'page cache holds the shards in the same physical RAM (121 GiB) the GPU allocates from; after the 74 GiB '
                'of weights load, the KV-cache allocation through NVIDIA UVM finds no memory, the driver returns '
                'NV_ERR_NO_MEMORY and the OOM killer kills VLLM::Worker_TP.'),
    fix='Keep the page cache from holding the checkpoint during start (drop/avoid the mmap page cache before KV allocation).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Taming OOM on DGX Spark: Debugging Unified Memory Pressure in a 2-Node vLLM Cluster',
        'intro': ('Your cluster loads the model. Weights land in GPU memory. Then \u2014 crash. NV_ERR_NO_MEMORY. The OOM '
                  'killer takes down VLLM::Worker_TP. You restart. Same thing. Every time.'),
        'cause': ('This is not a memory leak. It is a subtle interaction between Linux page cache, NVIDIA UVM (Unified '
                  'Virtual Memory), and the physics of loading a 148 GiB checkpoint into a system with only 121 GiB of '
                  'physical RAM.'),
        'setup': ('Two NVIDIA DGX Sparks (GB10 Grace Blackwell Superchip) running DeepSeek-V4-Flash via vLLM 0.21.1rc1 in '
                  'Docker. Tensor parallelism across both nodes (TP=2), expert parallelism enabled, NCCL over RDMA.'),
        'load': ('The model is loaded with --load-format safetensors, which memory-maps 46 shard files totaling 148 GiB. '
                 'The model itself takes 74 GiB of GPU memory.'),
        'symptom': ['Model loads successfully (65\u2013106s, 74 GiB allocated)', 'vLLM attempts KV cache allocation'],
        'dmesg': ['NVRM: nvCheckOkFailedNoLog: Check failed: Out of memory [NV_ERR_NO_MEMORY]',
                  'returned from _memdescAllocInternal(pMemDesc) @ mem_desc.c:1359',
                  'VLLM::Worker_TP invoked oom-killer: gfp_mask=0x102cc2(GFP_HIGHUSER)',
                  'oom_kill_process+0x1f8/0x3f0',
                  'sysmemAllocResources+0xa8/0x2a0 [nvidia]',
                  'VLLM::Worker_TP invoked oom-killer: gfp_mask=0x80dc0(GFP_KERNEL|__GFP_ZERO)',
                  'phys_mem_allocate+0x14c/0x230'],
    },
    log=[('dmesg', 0), ('dmesg', 1), ('dmesg', 2), ('dmesg', 4), ('dmesg', 5), ('dmesg', 6)],
    engine_args='--tensor-parallel-size 2 --enable-expert-parallel --load-format safetensors',
    args_model='DeepSeek-V4-Flash',
    args_gpu='NVIDIA DGX Spark GB10 (x2)',
    notes=('the log lines are the dmesg lines the author quoted from both nodes; engine_args is rebuilt from the prose '
           '("TP=2, expert parallelism enabled", "--load-format safetensors"); the crash comes at KV-cache allocation '
           'during start, passed as startup_oom'),
    leak=("The author's one-line diagnosis (page cache + UVM + a 148 GiB checkpoint on 121 GiB of RAM) and the fix are "
          "left out; the 148 GiB / 121 GiB sizes are not in the inputs."),
    hard=('The inputs show a kernel OOM on a unified-memory host and the safetensors load format; that the page cache '
          'of the memory-mapped checkpoint is what fills the shared memory is not shown.')))

I.append(dict(
    src='https://sovgrid.org/blog/fixes-sglang-restart-oom-fix/', thread_type='blog',
    engine='SGLang in Docker on DGX Spark (GB10, ARM64, unified memory)', engine_version='sglang v0.3.0 image (as quoted)',
    gpu='NVIDIA DGX Spark (GB10, 128 GB unified memory)', model='Mistral Small 4 (~90 GB)',
    symptom='startup_oom', layer='operator_hardware',
    root_cause=('On the unified-memory GB10, the ~90 GB that a killed container held is not returned to the pool for '
                'seconds to minutes after docker kill; a restart right away (docker restart, or --rm racing '
                '--restart unless-stopped) starts the new SGLang while the old allocation is still held, so the container '
                'is OOM-killed (exit 137) although free shows memory available.'),
    fix='Wait for unified memory to be released (60+ s) before restarting; do not combine --rm with --restart.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'SGLang Restart OOM Fix: Unified Memory Pitfalls on ARM64 GPUs',
        'quick_take': ['SGLang on DGX Spark/GB10 dies with SIGKILL after restart even when RAM is free',
                       'Docker\u2019s --rm and --restart fight each other like cats in a bag',
                       'Unified memory needs 60+ seconds to fully release after docker kill'],
        'story': ('I watched a 90GB Mistral Small 4 container crash three times in a row after a simple restart. Free '
                  'RAM? Plenty. GPU memory? Cleaned up. Yet Docker killed it with SIGKILL every time.'),
        'cmd': 'docker restart sglang-mistral4',
        'exit': 'Exit code 137. SIGKILL. No logs. Just gone.',
        'free': ['Free memory showed 32GB available:', 'free -h',
                 '# Mem:           128G         96G         32G         2G          0G         28G'],
        'why': ('But the GPU still held ~90GB of unified memory. Why?'),
    },
    log=[('cmd', None), ('exit', None), ('free', 2)],
    engine_args=None,
    args_model='Mistral Small 4',
    args_gpu='NVIDIA DGX Spark GB10',
    notes=('the log lines are the restart command, the author\'s one-line record of the exit (137, SIGKILL, no logs) '
           'and the free -h line; the SGLang launch flags of the failing run are not quoted, so no engine_args are '
           'passed; the kill at start is passed as startup_oom'),
    leak=("The quick-take bullets (unified memory needs 60+ s to release after docker kill; --rm and --restart fight) "
          "and the observation that the GPU still held ~90 GB are left out."),
    hard=('Only the restart command, exit 137 and free -h are in the inputs; that the previous container\'s unified '
          'memory was still held is not.')))

I.append(dict(
    src='https://al-engr.com/minimax-sglang-debug.html', thread_type='blog',
    engine='SGLang, TP=2 across two DGX Spark nodes (QSFP56 bond0, RDMA)', engine_version='v0.5.12',
    gpu='2x NVIDIA DGX Spark (GB10, sm_121)', model='saricles/MiniMax-M2.7-NVFP4-GB10-AC',
    symptom='other', layer='operator_hardware',
    root_cause=('SGLang\'s CUDA graph capture with TP=2 across two nodes deadlocks: both ranks spin inside an NCCL '
                'collective captured in the graph (96% SM, 0% memory bandwidth) and capture never passes 0/36 batch '
                'sizes - a known multi-node CUDA graph capture deadlock.'),
    fix='Launch with --disable-cuda-graph (the SGLANG_DISABLE_CUDA_GRAPH env var does not work in v0.5.12).',
    confidence='confirmed_by_reporter',
    evidence={
        'setup': ['EngineSGLang v0.5.12, TP=2 across both nodes',
                  'Modelsaricles/MiniMax-M2.7-NVFP4-GB10-AC, 141 GB, 29 shards'],
        'launch': ('First launch: both nodes initialized NCCL, loaded 67 GB of weights each in about 5 minutes, allocated '
                   'KV cache. Then SGLang began capturing CUDA graphs for all 36 batch sizes (bs=1 through bs=256).'),
        'hang': ('It never finished. After 34 minutes, both nodes were still at 0/36 batch sizes captured. GPU '
                 'utilization looked busy:'),
        'dmon': ['# nvidia-smi dmon -s u', '# gpu     sm    mem    enc    dec', '0     96      0      0      0'],
        'diagnosis': ('96% SM utilization, 0% memory bandwidth. That\'s a spin-lock, not real compute. Both nodes were '
                      'burning cycles waiting on each other through an NCCL collective operation inside the CUDA graph '
                      '\u2014 a known deadlock pattern in multi-node CUDA graph capture (confirmed in SGLang issue '
                      '#19991).'),
        'fix': ('The SGLang CLI flag --disable-cuda-graph skips graph capture entirely and falls back to eager '
                'execution.'),
    },
    log=[('dmon', 1), ('dmon', 2)],
    observe={'gpu_util': (0.96, '0     96      0      0      0')},
    engine_args='--tp 2 --nnodes 2',
    args_model='MiniMax-M2.7-NVFP4',
    args_gpu='NVIDIA DGX Spark GB10 (x2)',
    notes=('the log lines are the nvidia-smi dmon output the author pasted during the hang (sm 96, mem 0); engine_args '
           'is rebuilt from "TP=2 across both nodes"; the start that never finishes CUDA graph capture (0/36 after 34 '
           'minutes) is passed as other'),
    leak=("The author's diagnosis (spin-lock on an NCCL collective inside the captured graph, known multi-node capture "
          "deadlock) and the --disable-cuda-graph fix are left out; the 0/36-after-34-minutes progress is described in "
          "prose only and is not in the inputs."),
    hard=('The inputs show busy SMs with idle memory on a two-node TP=2 SGLang start; that it is stuck in CUDA graph '
          'capture is not in them.')))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://dielabs.github.io/papers/when-good-gpus-produce-bad-tokens.html', thread_type='blog',
    engine='vLLM (OpenAI-compatible API), homelab node', engine_version='2026', gpu='NVIDIA RTX 4070 Super 12GB',
    model='Qwen/Qwen2.5-7B-Instruct-AWQ',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Degenerative decoding: with the default repetition_penalty = 1.0 nothing penalises tokens already in the '
                'context, so in a long generation the model falls into a high-probability repeated sequence and the '
                'narrative loops; memory, KV cache and scheduler were healthy.'),
    fix='Set a repetition penalty (> 1.0) for long generations (and constrain the language, which then drifted).',
    confidence='confirmed_by_reporter',
    evidence={
        'context': ['Hardware: NVIDIA RTX 4070 Super 12GB VRAM', 'Engine: vLLM (OpenAI-compatible API)',
                    'Model: Qwen/Qwen2.5-7B-Instruct-AWQ', 'max_model_len = 32768',
                    'gpu_memory_utilization = 0.85 (~10.2GB allocated)', 'Concurrency = 1',
                    'KV cache utilization: ~20% during tests'],
        'stable': ('The system was stable throughout the entire test duration. No memory saturation, no KV cache spikes, '
                   'no CUDA errors, no OOM.'),
        'phenomenon': ('During a single long generation, the text began repeating itself. After a certain point the '
                       'narrative entered a loop: phrases and structures replicated cyclically, with no technical error '
                       'detected.'),
        'mechanism': ('With repetition_penalty = 1.0 (default) there is no mechanism to penalize tokens already seen in '
                      'the context. The loop becomes stable and persistent.'),
        'followup': ('Observed data: with repetition_penalty > 1.0 and no explicit language constraint, the text drifted '
                     'toward English beyond ~5000 tokens.'),
    },
    observe={'kv_usage': (0.2, 'KV cache utilization: ~20% during tests'),
             'running': (1, 'Concurrency = 1')},
    engine_args='--max-model-len 32768 --gpu-memory-utilization 0.85',
    args_model='Qwen/Qwen2.5-7B-Instruct-AWQ',
    args_gpu='RTX 4070 Super 12GB',
    notes=('no output sample is quoted (the loop is described in prose), so the inputs are the deployment flags rebuilt '
           'from the context list, the KV usage (~20% -> 0.2) and the single concurrent request; the repeating long '
           'generation is passed as output_quality'),
    leak=("The author's mechanism section (repetition_penalty = 1.0 by default, probabilistic attractor) and the "
          "follow-up with a penalty above 1.0 are left out."),
    hard=('The sampling parameters of the requests (repetition_penalty left at 1.0) are not in the inputs; only healthy '
          'engine metrics and the symptom class are.')))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261222, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
