#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh19: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh18; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation and list bullets dropped; a few long lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on vLLM (V0 and V1 era) and SGLang in production serving:
throughput, chunked prefill budgets, runtime OOM under CUDA graphs, tensor/data parallel deployments, structured
output and KV-cache dtype, in any layer.

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
    src='https://github.com/vllm-project/vllm/issues/7604', thread_type='issue',
    engine='vLLM offline benchmark_throughput.py (V0, chunked prefill, tensor parallel 8)', engine_version='0.5.4',
    gpu='8x NVIDIA H100 SXM', model='Llama-3-70B-Instruct-Gradient-1048k',
    symptom='throughput_low', layer='scheduling_capacity',
    root_cause=('With --enable-chunked-prefill the per-step token budget was set to --max_batched_tokens 4096 while every '
                'prompt is 40,000 tokens, so each prompt is prefilled in ~10 small chunks and the offline throughput drops '
                'below the run without chunked prefill; chunked prefill does not raise offline throughput and the budget '
                'should be as large as the inter-token latency target allows.'),
    fix='Raise max_num_batched_tokens as far as the ITL target permits (or do not use chunked prefill for offline throughput).',
    confidence='maintainer_explained',
    evidence={
        'title': '[Usage]: Seeing perf regression using chunked_prefill on VLLM 0.5.4',
        'desc': ('I want to experiment how chunked_prefill can increase throughput but see perf regression when enabling '
                 'chunked_prefill. I am testing on [Llama-3-70B-Instruct-Gradient-1048k ]'
                 '(https://huggingface.co/gradientai/Llama-3-70B-Instruct-Gradient-1048k) on 8 H100 SXM GPUs.  I am '
                 'benchmarking using `/benchmark/benchmark_throughput.py` and Tensor Parallel size 8'),
        'question': 'Is there any guidance how to choose `max_batched_tokens` properly?',
        'cmd': ['python3 ./benchmarks/benchmark_throughput.py \\', '--model hf_model_path \\',
                '--tokenizer hf_model_path \\', '--tensor-parallel-size 8 \\', '--num-prompts 50 \\',
                '--input-len 40000 \\', '--output-len 256 \\', '--enable-chunked-prefill \\',
                '--max_batched_tokens 4096', '--trust-remote-code'],
        'maintainer': ('The rationale of picking max_batched_tokens: make it as large as possible, as long as your '
                       'inter-token latency permits.'),
        'maintainer_2': ('Also, chunked prefill does not improve offline throughput. The main goal of chunked prefill '
                         'is:'),
    },
    engine_args='--tensor-parallel-size 8 --enable-chunked-prefill --max_batched_tokens 4096 --trust-remote-code',
    observe={'input_len_mean': (40000, '--input-len 40000'), 'output_len_mean': (256, '--output-len 256')},
    args_model='Llama-3-70B-Instruct-Gradient-1048k',
    args_gpu='H100 SXM',
    notes=('engine_args are the engine flags of the benchmark_throughput.py command (the --model/--tokenizer path '
           'placeholders and the script-only --num-prompts/--input-len/--output-len are left out; --max_batched_tokens '
           'is spelled as the reporter typed it); input_len_mean/output_len_mean are the fixed synthetic prompt and output '
           'lengths; the benchmark result table is an image, so no throughput number is passed'),
    leak=("The maintainer's replies (make max_batched_tokens as large as the ITL allows; chunked prefill does not improve "
          "offline throughput) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/issues/1455', thread_type='issue',
    engine='SGLang launch_server (main branch after v0.3.0, triton attention backend for DeepSeek-V2) + bench_serving',
    engine_version='main (commit 7c162fa, Sep 2024)', gpu=None, model='DeepSeek-Coder-V2-Lite-Instruct',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=('After CUDA graphs were enabled for the triton attention backend, the default server (no cap on running '
                'requests) admits a decode batch far larger than the memory left next to the KV pool and the captured '
                'graphs, so a 5000-prompt ShareGPT benchmark hits CUDA out of memory; capping the batch '
                '(--max-running-request 2560) or disabling CUDA graph avoids it.'),
    fix='Limit the running batch (--max-running-request 2560), or run with --disable-cuda-graph.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bug] OOM when runing `bench_serving` with DeepSeekCoder-V2-Lite.',
        'desc': ('I install the main branch of SGLang(commit id: 7c162fa), and run `bench_serving` according to your '
                 '[blog](https://lmsys.org/blog/2024-09-04-sglang-v0-3/).'),
        'cmd_server': 'python3 -m sglang.launch_server --model ./DeepSeek-Coder-V2-Lite-Instruct --trust-remote-code',
        'cmd_bench': ('python3 -m sglang.bench_serving --backend sglang --num-prompts 5000  --dataset-path '
                      './ShareGPT_V3_unfiltered_cleaned_split.json'),
        'symptom': ('However, I keep encountering a "CUDA out of memory" error, preventing the process from completing '
                    'all 5000 prompts.'),
        'maintainer': ('Thanks for reporting. I confirmed that the OOM is due to enabling the Cuda graph for the triton '
                       'attention backend (https://github.com/sgl-project/sglang/pull/1401). That PR is after v0.3.0, so '
                       'the old command in the blog now causes OOM.'),
        'method_2': ('### Method 2: enable cuda graph but limit the batch size. The final speed is 33.68 req/s on an '
                     'H100, so this method is faster.'),
        'method_2_cmd': ('python3 -m sglang.launch_server --model deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct '
                         '--trust-remote-code --max-running-request 2560'),
        'maintainer_later': ('It is not possible. batch size 2560 is already very large. This is the limit of the '
                             'memory capacity.'),
    },
    log=['CUDA out of memory'],
    engine_args='--model ./DeepSeek-Coder-V2-Lite-Instruct --trust-remote-code',
    args_model='DeepSeek-Coder-V2-Lite-Instruct',
    args_gpu=None,
    notes=('the traceback is an image; the log line is the error name the reporter quotes; engine_args is the launch '
           'command without the python module prefix (server defaults otherwise); the 5000-prompt ShareGPT benchmark is '
           'the load; the reporter\'s GPU is not in the stored excerpt (the maintainer reproduced on an H100), so none is '
           'passed'),
    leak=("The maintainer's diagnosis (CUDA graph enabled for the triton backend, batch must be limited) and both "
          "workaround commands are left out."),
    hard=('Only a generic CUDA OOM during a benchmark on default flags is in the inputs; the unbounded running batch and '
          'the CUDA-graph memory of the triton backend are not.')))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/llm-d/llm-d/issues/352', thread_type='issue',
    engine='vLLM V1 workers in an llm-d deployment (Kubernetes, data parallel 16)', engine_version='Oct 2025 (NCCL 2.27)',
    gpu='NVIDIA B200 (GCP, gIB 1.10)', model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('When vLLM crashes, NCCL leaves its large (~32 MB) shared-memory segments in /dev/shm; the pod\'s /dev/shm '
                'volume is not cleaned between restarts, so after a few crashes it is full and NCCL init fails with an '
                'unhandled system error, turning a transient crash into a permanent crashloop.'),
    fix='Clear /dev/shm before the process starts (llm-d PR #364).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: DP=16 nodes eventually run out of /dev/shm space due to NCCL and crashloop',
        'what': ('There appears to be a cleanup error in NCCL, leaving large (~32MB in my env) files in the directory, '
                 'eventually leading to a failure to initialize.'),
        'env': 'Observed in a DP=16 / NCCL 2.27 / GCP B200 with gIB 1.10 environment:',
        'log': ['ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] RuntimeError: NCCL error: unhandled system '
                'error (run with NCCL_DEBUG=INFO for details)',
                'ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] WorkerProc failed to start.',
                'ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] Traceback (most recent call last):',
                'ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597]     self.worker.init_device()'],
        'fix_pr_364': ('When vLLM crashes there is no guarantee that /dev/shm will\nbe cleaned up. Since we are the only '
                       'consumer of the volume\nensure it is empty before the process starts. Otherwise we\nmay run out of '
                       'shm for NCCL init during subsequent crashes\nconverting temporary crashes to a permanent one.'),
    },
    log=[('log', 0), ('log', 1), ('log', 3)],
    args_model=None,
    args_gpu='B200',
    notes=('the log lines are the vLLM worker error lines quoted in the issue; the fix text is from the linked PR '
           'llm-d/llm-d#364 (by the same author, "Fixes issue #352"); no launch flags or model are given; the crashloop at '
           'worker start is passed as symptom other'),
    leak=("The title (/dev/shm exhaustion from NCCL), the description's diagnosis (NCCL leaves ~32 MB files) and the fix PR "
          "are left out."),
    hard=('Only the generic NCCL "unhandled system error" at worker init is in the inputs; the full /dev/shm left by '
          'earlier crashes is not.')))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/689', thread_type='issue',
    engine='vLLM offline LLM() (early V0)', engine_version='Aug 2023', gpu=None, model='mosaicml/mpt-7b-instruct',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('For a 7B model the all-reduce communication between GPUs costs more than tensor parallelism saves in '
                'compute, so tensor_parallel_size=2 is slower than one GPU.'),
    fix='Serve a small model on one GPU (replicate instead of sharding) unless the interconnect is fast enough.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Question] Why does using multiple gpus lead to slower performance?',
        'desc': ('When I set tensor_parallel_size to > 1, the wall time increases though everything else is down. Am I '
                 'doing something wrong in my setup where using multiple gpus is actually slower than using one?'),
        'tp1': ['model="mosaicml/mpt-7b-instruct", ', 'tensor_parallel_size=1,',
                'CPU times: user 3.66 s, sys: 262 ms, total: 3.93 s', 'Wall time: 1.11 s'],
        'tp2': ['trust_remote_code=True,', 'dtype="float16",', 'tensor_parallel_size=2,', 'gpu_memory_utilization=.95,',
                'CPU times: user 65.5 ms, sys: 32.2 ms, total: 97.7 ms', 'Wall time: 1.27 s'],
        'maintainer': ('The cost of inter-GPU communication outweighs the parallelisation of the compute for smaller '
                       'models'),
    },
    log=[('tp1', 3), ('tp2', 5)],
    engine_args='--tensor-parallel-size 2 --dtype float16 --gpu-memory-utilization 0.95 --trust-remote-code',
    args_model='mosaicml/mpt-7b-instruct',
    args_gpu=None,
    notes=('engine_args is rebuilt from the LLM() keyword arguments of the slower run (tensor_parallel_size=2, '
           'dtype="float16", gpu_memory_utilization=.95, trust_remote_code=True); the log lines are the notebook %%time '
           'outputs of the TP=1 and TP=2 runs; the GPU type and interconnect are not stated'),
    leak="The maintainer's explanation (communication cost outweighs the compute split for small models) is left out.",
    hard=('Only the TP=2 flags and two wall times are in the inputs; the model being too small for the interconnect '
          'is not stated.')))

I.append(dict(
    src='https://github.com/tonyd2wild/DeepSeek-v4-Flash-Vision-Exp-DSpark-1M-NVFP4-KV-2x-DGX-Spark/pull/5',
    thread_type='pr',
    engine='vLLM V1 launched by a 2x DGX Spark recipe (speculative decoding, 3 draft tokens, max 6 sequences)',
    engine_version='Jul 2026', gpu='2x NVIDIA DGX Spark (GB10)', model='DeepSeek-V4-Flash-Vision-Exp (NVFP4 KV)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The launcher passes --max-cudagraph-capture-size equal to the sequence count (6), but with speculative '
                'decoding every decode sequence carries 1 + num_spec_tokens query tokens, so vLLM truncates the capture '
                'size to 4 and any batch of two or more concurrent requests falls out of the captured CUDA graph path into '
                'eager/piecewise execution; combined throughput collapses to under 1 tok/s.'),
    fix='Size --max-cudagraph-capture-size as max_num_seqs x (1 + num_speculative_tokens).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('Fix max-cudagraph-capture-size truncation - more than 1 concurrent req causes drop from CUDA graph path '
                  'into eager/piecewise execution - causes slowdown'),
        'profile': 'Running the validated seqs=6, num_speculative_tokens=3 profile, boot logs show:',
        'log': 'WARNING [vllm.py:1719] Truncating max_cudagraph_capture_size to 4',
        'saw': ('When a single request is decoding, everything\'s fast (15-40 tok/s). The moment a second concurrent '
                'request joins the batch — in our case, an agent\'s own context-compression pass kicking off '
                'mid-generation — combined throughput falls to well under 1 tok/s across all running requests and stays '
                'there for the full duration of the concurrent window.'),
        'not_crash': ('KV cache usage keeps climbing normally the whole time and generation never stops entirely '
                      '(SpecDecoding metrics show real, fluctuating accept rates throughout), so this isn\'t a crash or a '
                      'hang — it\'s every decode step falling out of the captured CUDA graph path into eager/piecewise '
                      'execution.'),
        'root_cause': ('`--max-cudagraph-capture-size ${MAX_NUM_SEQS:-6}` passes a raw sequence count. But vLLM\'s own '
                       'CUDA Graphs design doc defines speculative decode batches as uniform decode batches with query '
                       'length `1 + num_spec_tokens`'),
    },
    log=[('log', None)],
    engine_args='--max-num-seqs 6 --max-cudagraph-capture-size 6',
    observe={'running': (2, 'a second concurrent request joins the batch')},
    args_model='DeepSeek-V4-Flash-Vision-Exp',
    args_gpu='GB10',
    notes=('the log line is the boot warning quoted in the PR; engine_args is rebuilt from the launcher default '
           '("--max-cudagraph-capture-size ${MAX_NUM_SEQS:-6}") and the "seqs=6" profile; the 3 speculative tokens are '
           'not passed as a flag (the speculative config JSON is not shown); running=2 is the second concurrent request '
           'that triggers the slowdown; the collapse of decode speed is passed as tpot_high'),
    leak=("The PR title, the author's diagnosis (decode steps fall out of the CUDA graph path; the capture size must "
          "account for 1 + num_spec_tokens) and the fix are left out; the single-request speed and the sub-1 tok/s "
          "figure sit in the same paragraph as the diagnosis and are not passed as numbers."),
    hard=None))

I.append(dict(
    src='https://github.com/1CatAI/1Cat-vLLM/issues/27', thread_type='issue',
    engine='1Cat-vLLM (vLLM fork for Volta) OpenAI server, tensor parallel 2', engine_version='May 2026',
    gpu='NVIDIA V100', model='Qwen3.6-35B-A3B-AWQ',
    symptom='other', layer='operator_hardware',
    root_cause=('--kv-cache-dtype fp8 selects the e4m3 (fp8e4nv) format, which Triton cannot use on the V100 (sm70) '
                'architecture, so the workers fail at startup; the V100 only supports the e5m2 format, and '
                '--kv-cache-dtype fp8_e5m2 works.'),
    fix='Use --kv-cache-dtype fp8_e5m2 on V100.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Usage]: can not use --kv-cache-dtype fp8',
        'cmd': ('start cmd:  python -m vllm.entrypoints.openai.api_server --model Qwen3.6-35B-A3B-AWQ --served-model-name '
                'Qwen3.6-35B-A3B-AWQ --trust-remote-code --quantization awq --dtype float16 --tensor-parallel-size 2 '
                '--gpu-memory-utilization 0.88 --max-model-len 33000 --max-num-seqs 1  --max-num-batched-tokens 16384 '
                '--skip-mm-profiling --reasoning-parser qwen3 --default-chat-template-kwargs \'{"enable_thinking": true}\' '
                '--compilation-config \'{"cudagraph_mode":"full_and_piecewise","cudagraph_capture_sizes":[1,2]}\' '
                '--kv-cache-dtype fp8 --host 0.0.0.0 --port 8000'),
        'where': 'error occured on v100 gpu:',
        'log': ('(Worker_TP0 pid=60352) ERROR 05-06 06:47:41 [multiproc_executor.py:852] ValueError("type fp8e4nv not '
                'supported in this architecture. The supported fp8 dtypes are (\'fp8e4b15\', \'fp8e5\')")'),
        'resolution': 'recompile the code and pip install, the param --kv-cache-dtype fp8_e5m2 worked currently',
    },
    log=[('log', None)],
    engine_args=('--model Qwen3.6-35B-A3B-AWQ --served-model-name Qwen3.6-35B-A3B-AWQ --trust-remote-code --quantization '
                 'awq --dtype float16 --tensor-parallel-size 2 --gpu-memory-utilization 0.88 --max-model-len 33000 '
                 '--max-num-seqs 1  --max-num-batched-tokens 16384 --skip-mm-profiling --reasoning-parser qwen3 '
                 '--kv-cache-dtype fp8 --host 0.0.0.0 --port 8000'),
    args_model='Qwen3.6-35B-A3B-AWQ',
    args_gpu='V100',
    notes=('the log line is the worker error the reporter pasted; engine_args is the start command without the python '
           'module prefix and without the two JSON-valued flags (--default-chat-template-kwargs, --compilation-config), '
           'which are not relevant and contain quotes; the startup failure is passed as symptom other'),
    leak="The reporter's resolution (recompile, and --kv-cache-dtype fp8_e5m2 works) is left out.",
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/10081', thread_type='issue',
    engine='vLLM OpenAI server (V0) with guided decoding (structured outputs, outlines default backend)',
    engine_version='0.6.3/0.6.4 (Nov 2024)', gpu=None, model=None,
    symptom='timeout_or_stream_break', layer='numeric_parameter',
    root_cause=('Structured-output requests ran on the default outlines guided-decoding backend, whose per-token '
                'processing for JSON schemas with several fields is very slow (about 30 tokens/s across 11 running '
                'requests) until requests time out and the engine crashes; switching the guided decoding backend '
                '(xgrammar) or upgrading to 0.6.5 removes it.'),
    fix="Use a guided decoding backend other than outlines (xgrammar), or upgrade to vLLM 0.6.5.",
    confidence='maintainer_explained',
    evidence={
        'title': ('[Bug]:Structured outputs inference often took a very long time,and eventually causing a timeout and '
                  'vLLM engine crushing.'),
        'observation': ('Structured Output seems to function correctly only with simple structures (fewer than 3 fields). '
                        'With 4 or more fields, there is a high likelihood of causing a crash. I tested one task, and it '
                        'worked fine when I split it into multiple tasks; otherwise, the task would crash.'),
        'stats': ('tokens/second(Avg generation throughput) was showing on terminal by vllm:Avg prompt throughput: 38.8 '
                  'tokens/s, Avg generation throughput: 30.4 tokens/s, Running: 11 reqs, Swapped: 0 reqs, Pending: 0 '
                  'reqs, GPU KV cache usage: 34.7%, CPU KV cache usage: 0.0%.'),
        'maintainer': 'You can try using guided decoding backends other than `outlines`. cc @mgoin',
        'user_confirm': ('Worked for us on first glance, and faster too. Will evaluate more elaborately early next year. '
                         'Thanks a lot!'),
        'maintainer_2': 'Please try using the latest `vllm==0.6.5`! We have greatly improved performance.',
    },
    log=['Avg prompt throughput: 38.8 tokens/s, Avg generation throughput: 30.4 tokens/s, Running: 11 reqs, Swapped: 0 '
         'reqs, Pending: 0 reqs, GPU KV cache usage: 34.7%, CPU KV cache usage: 0.0%.'],
    observe={'output_tokens_per_s': (30.4, 'Avg generation throughput: 30.4 tokens/s'),
             'running': (11, 'Running: 11 reqs'),
             'kv_usage': (0.347, 'GPU KV cache usage: 34.7%')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the vLLM stats line a participant (hpx502766238, who describes the structured-output crashes) '
           'quoted from the terminal, without its leading prose; the issue description itself is not in the stored '
           'excerpt, so no flags, model or GPU are passed; kv_usage is 34.7% -> 0.347; the timeouts and engine crash are '
           'passed as timeout_or_stream_break'),
    leak=("The maintainers' advice (another guided decoding backend; vLLM 0.6.5) and the user's confirmation that "
          "xgrammar worked are left out; the title names the symptom (structured outputs slow, timeout), not the cause, "
          "and is not an input either."),
    hard=('The guided-decoding backend (outlines, the default) is not in the inputs; only a slow stats line with low KV '
          'usage is.')))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261219, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
