#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh31: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh30; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the GitHub issue/PR thread text returned by the search tool
(corpus "issues"). JSON escapes were decoded; leading indentation, quote markers ("> ") and list bullets/numbers were
dropped; a few long lines were cut to a verbatim prefix/substring. Where the confirming comment sits in another thread
(ollama#9149's reporter wrote it in ollama#9509), it is kept under a key that names that thread and the source stays
the incident's own thread. Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on incidents where what the operator had was an error, a refusal
or a crash line rather than a latency number (a server that will not start, an HTTP 4xx/5xx, an abort, an exception),
on any engine or the proxy/client in front, in any layer.

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
    src='https://github.com/ollama/ollama/issues/9149', thread_type='issue',
    engine='Ollama (Windows, CUDA) with a separate llama.cpp build on the PATH', engine_version='Feb 2025',
    gpu=None, model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('A separately installed llama.cpp release was on the Windows PATH, so the Ollama runner loaded that '
                "build's ggml library instead of its own; the mismatched library aborts on the first graph with "
                'GGML_ASSERT(tensor->op == GGML_OP_UNARY) (exit status 0xc0000409) and every model fails to load (HTTP 500).'),
    fix='Remove llama.cpp from the PATH (or update it to the latest release) and restart Ollama.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Error: llama runner process has terminated: GGML_ASSERT(tensor->op == GGML_OP_UNARY) failed',
        'log': ["llama_kv_cache_init: kv_size = 8192, offload = 1, type_k = 'f16', type_v = 'f16', n_layer = 24, can_shift = 1",
                'llama_kv_cache_init:      CUDA0 KV buffer size =    96.00 MiB',
                'llama_new_context_with_model: KV self size  =   96.00 MiB, K (f16):   48.00 MiB, V (f16):   48.00 MiB',
                'llama_new_context_with_model:  CUDA_Host  output buffer size =     2.33 MiB',
                r'D:\a\llama.cpp\llama.cpp\ggml\src\ggml.c:1726: GGML_ASSERT(tensor->op == GGML_OP_UNARY) failed',
                'time=2025-02-16T21:00:50.881+08:00 level=INFO source=server.go:591 msg="waiting for server to become available" status="llm server error"',
                'time=2025-02-16T21:00:50.900+08:00 level=ERROR source=server.go:421 msg="llama runner terminated" error="exit status 0xc0000409"',
                'time=2025-02-16T21:00:51.131+08:00 level=ERROR source=sched.go:455 msg="error loading llama server" error="llama runner process has terminated: GGML_ASSERT(tensor->op == GGML_OP_UNARY) failed"',
                '[GIN] 2025/02/16 - 21:00:51 | 500 |    1.1672003s |       127.0.0.1 | POST     "/api/generate"'],
        'reporter_in_ollama_9509': ['FYI, I solved it by remove llama.cpp from my Path, #9149',
                                    'Remove llama.cpp from Path or the latest version from https://github.com/ggml-org/llama.cpp/releases.',
                                    'Restart ollama.'],
        'maintainer_in_ollama_9563': ("@manbill similar to https://github.com/ollama/ollama/issues/9149, I'm wondering if "
                                      "you had llama.cpp installed as well?"),
    },
    log=[('log', 1), ('log', 4), ('log', 6), ('log', 7), ('log', 8)],
    args_model=None,
    args_gpu=None,
    notes=("the log lines are the reporter's Ollama server log (leading indentation dropped); the GGML_ASSERT line carries "
           r"the source path of the ggml library that was loaded (D:\a\llama.cpp\llama.cpp\ggml\src\ggml.c, a llama.cpp "
           'release build); no model, GPU name or Ollama flags are given; a model that will not load is not a latency '
           'symptom, so no --symptom is passed'),
    leak=("The reporter's fix (removing llama.cpp from the PATH), written in ollama#9509 with a reference to this issue, "
          "and jmorganca's question in ollama#9563 whether llama.cpp was installed as well are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/predibase/lorax/issues/237', thread_type='issue',
    engine='LoRAX (docker image ghcr.io/predibase/lorax:87412e1) on a runpod.io GPU pod', engine_version='Feb 2024',
    gpu='2x A100 80GB', model='mistralai/Mixtral-8x7B-Instruct-v0.1 (+ adapter antonvo/mixtral-select-v1)',
    symptom='other', layer='operator_hardware',
    root_cause=('The rented host the pod landed on had an unsuitable (old) NVIDIA driver for the container\'s CUDA/Triton '
                'stack, so the Triton kernels could not be loaded ("device kernel image is invalid") and the server failed '
                'at startup; the same image and settings started on a new pod on another host (driver 535.54.03).'),
    fix='Run on a host whose NVIDIA driver matches the image (redeploy the pod on another host / check nvidia-smi driver).',
    confidence='maintainer_explained',
    evidence={
        'title': '"Triton Error [CUDA]: device kernel image is invalid" when running at runpod.io',
        'system': ['Latest official docker image (ghcr.io/predibase/lorax:87412e1)',
                   'www.runpod.io platform (GPU containers)',
                   'GPU pod with 2xA100 80G.'],
        'env': ['MODEL_ID: mistralai/Mixtral-8x7B-Instruct-v0.1', 'ADAPTER_ID: antonvo/mixtral-select-v1', 'DTYPE: float16',
                'PORT: 8080', 'MAX_INPUT_LENGTH: 32767', 'MAX_TOTAL_TOKENS: 32768', 'MAX_BATCH_PREFILL_TOKENS: 32768',
                'MAX_BATCH_TOTAL_TOKENS: 32768', 'NCCL_P2P_DISABLE: 1'],
        'failure': "The server's startup fails with the following error:",
        'maintainer': ('Hey @alexsherstinsky, thanks for reporting this issue. Do you know what Nvidia device driver version '
                       'is running on the node? My first guess here is that it may be an issue with the node environment '
                       '(old device driver, etc.).'),
        'reporter': ["I was going to restart the pod and check the driver version, but I couldn't do that with my old pod as "
                     "the host that it was tired to was already oversubscribed (runpod.io specifics).",
                     'So I created a new pod (which naturally ended up on a different host) and the problem has gone away. It '
                     "sorta suggests that you were correct. I'm just going to leave a note here with the current nvidia-smi "
                     'output which does work:'],
        'working_host': '| NVIDIA-SMI 535.54.03              Driver Version: 535.54.03    CUDA Version: 12.2     |',
    },
    log=['Triton Error [CUDA]: device kernel image is invalid'],
    engine_args=('--model-id mistralai/Mixtral-8x7B-Instruct-v0.1 --adapter-id antonvo/mixtral-select-v1 --dtype float16 '
                 '--port 8080 --max-input-length 32767 --max-total-tokens 32768 --max-batch-prefill-tokens 32768 '
                 '--max-batch-total-tokens 32768'),
    args_model='mistralai/Mixtral-8x7B-Instruct-v0.1',
    args_gpu='2x A100 80GB',
    notes=('the log line is the startup error as quoted in the title (the traceback itself is not in the stored text); '
           'engine_args is rebuilt from the container environment variables (MODEL_ID, ADAPTER_ID, DTYPE, PORT, '
           'MAX_INPUT_LENGTH, MAX_TOTAL_TOKENS, MAX_BATCH_PREFILL_TOKENS, MAX_BATCH_TOTAL_TOKENS; NCCL_P2P_DISABLE=1 is an '
           'environment setting and is not passed); a server that fails to start is not a latency symptom, so no --symptom'),
    leak=("The maintainer's guess (node environment, old device driver), the reporter's follow-up (a new pod on another "
          "host works) and the working host's nvidia-smi line are left out."),
    hard='The host driver version is not in the inputs; only the Triton kernel-load error and the launch settings are.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/heshengtao/comfyui_LLM_party/issues/160', thread_type='issue',
    engine='comfyui_LLM_party API LLM node (OpenAI SDK) -> local Ollama OpenAI-compatible API', engine_version='Mar 2025',
    gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('A system/global proxy on the client machine intercepted the OpenAI SDK\'s requests to the local Ollama '
                'endpoint (http://127.0.0.1:11434/v1) and answered 502 Bad Gateway, so every call failed after the SDK\'s '
                'retries although Ollama itself was fine.'),
    fix='Turn off the proxy for local addresses (close it, or whitelist the Ollama port / set NO_PROXY for 127.0.0.1).',
    confidence='maintainer_explained',
    evidence={
        'title': 'use user\'s api auto add "/chat/completions" in the request url, but it\'s not the service api.',
        'desc': 'use user\'s api auto add "/chat/completions" in request url, but it\'s not the service api.',
        'log': ['HTTP Request: POST http://127.0.0.1:11434/v1/chat/completions "HTTP/1.1 502 Bad Gateway"',
                'Retrying request to /chat/completions in 0.406378 seconds',
                'HTTP Request: POST http://127.0.0.1:11434/v1/chat/completions "HTTP/1.1 502 Bad Gateway"',
                'Retrying request to /chat/completions in 0.819889 seconds',
                'HTTP Request: POST http://127.0.0.1:11434/v1/chat/completions "HTTP/1.1 502 Bad Gateway"',
                'Error code: 502',
                'Prompt executed in 2.07 seconds'],
        'maintainer': ('This is the openai API interface of ollama. There is a high probability that 502 is returned because '
                       'your proxy server is blocking ollama. You may need to close the proxy or add the port of ollama to '
                       "the proxy's whitelist."),
        'reporter': 'perfect，thanks.',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3), ('log', 4), ('log', 5)],
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the client-side httpx/OpenAI SDK lines the reporter pasted (the request messages line before '
           'them is left out); no model, GPU or server flags are given; an HTTP error is not a latency symptom, so no '
           '--symptom is passed'),
    leak=("The maintainer's explanation (a proxy server blocking the local Ollama port) is left out; the title's own "
          "hypothesis (a wrong /chat/completions path) is a wrong guess and is not in the inputs either."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/22407', thread_type='issue',
    engine='vLLM OpenAI-compatible server (gpt-oss build) queried with curl', engine_version='Aug 2025 (gpt-oss release)',
    gpu=None, model='openai/gpt-oss-120b',
    symptom='other', layer='gateway_client',
    root_cause=('VLLM_API_KEY was exported in the operator\'s .bashrc, so the server started with API-key authentication '
                'enabled, while the clients (curl to /v1/chat/completions and /v1/models) sent no Authorization header; '
                'every request was rejected with 401 Unauthorized.'),
    fix='Unset VLLM_API_KEY for the server (or send Authorization: Bearer <key> from the clients).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: gpt oss 401 unauthorized error',
        'request': ["curl -X 'POST' \\", "'http://localhost:8000/v1/chat/completions' \\",
                    "-H 'accept: application/json' \\", "-H 'Content-Type: application/json' \\",
                    '"model": "openai/gpt-oss-120b"'],
        'also': 'This is also the case even to list models:',
        'models_request': ["curl -X 'GET' \\", "'http://localhost:8000/v1/models' \\", "-H 'accept: application/json'"],
        'server': '(APIServer pid=3999075) INFO:     127.0.0.1:46686 - "GET /v1/chat/completions HTTP/1.1" 401 Unauthorized',
        'reporter': 'nevermind I was just dumb and set VLLM_API_KEY=your-key in .bashrc lol',
    },
    log=[('server', None)],
    args_model='openai/gpt-oss-120b',
    args_gpu=None,
    notes=("the log line is the vLLM access-log line the reporter quoted as the server's response; the curl requests "
           '(no Authorization header) are not machine inputs; the serve command is not in the stored text, so no '
           'engine_args; no GPU named; an HTTP error is not a latency symptom, so no --symptom is passed'),
    leak="The reporter's own resolution (VLLM_API_KEY set in .bashrc) is left out.",
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/ByteDance-Seed/Seed-X-7B/issues/7', thread_type='issue',
    engine='vLLM OpenAI-compatible server (docker CMD) serving Seed-X-PPO-7B', engine_version='vllm 0.9.2, transformers 4.52.4',
    gpu=None, model='ByteDance-Seed/Seed-X-PPO-7B',
    symptom='other', layer='numeric_parameter',
    root_cause=('Seed-X-PPO-7B ships no chat template (it is prompted with its own raw format), and with transformers '
                '>= 4.44 vLLM has no default template to fall back to, so every /v1/chat/completions request is refused '
                'with 400; borrowing another template (Mistral) only produced replies containing INST.'),
    fix=("Do not serve the model through the chat endpoint with a borrowed template; send its own prompt format (the "
         "maintainers' vLLM launch guidance in Seed-X-7B#1)."),
    confidence='maintainer_explained',
    evidence={
        'title': 'vllm error requires chat template',
        'command': ('CMD ["python3", "-m", "vllm.entrypoints.openai.api_server", "--host", "0.0.0.0", "--port", "3000", '
                    '"--served-model-name", "Seed-X-PPO-7B", "--model", "/app/models/ByteDance-Seed/Seed-X-PPO-7B", '
                    '"--gpu-memory-utilization", "0.5"]'),
        'error': ('400 As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat '
                  'template if the tokenizer does not define one. None'),
        'reporter_followup': ['Recommended: vllm == 0.8.0, transformers == 4.51.3',
                              'Does the recommended version not have this problem?',
                              'Download a template from:',
                              '`https://raw.githubusercontent.com/vllm-project/vllm/refs/heads/main/examples/tool_chat_template_mistral.jinja`',
                              'Add a param.',
                              '`"--chat_template", "/app/models/tool_chat_template_mistral.jinja"`',
                              'It works fine, but some of the replies contain `INST`. Is this usage correct?'],
        'maintainer': ['Hi, please refer to this [issue](https://github.com/ByteDance-Seed/Seed-X-7B/issues/1) on launching '
                       'server with vLLM.',
                       'As for the chat template, our model does not include one and cannot be combined with other chat '
                       'templates, such as the Mistral template you mentioned.'],
    },
    log=[('error', None)],
    engine_args=('--host 0.0.0.0 --port 3000 --served-model-name Seed-X-PPO-7B --model '
                 '/app/models/ByteDance-Seed/Seed-X-PPO-7B --gpu-memory-utilization 0.5'),
    args_model='ByteDance-Seed/Seed-X-PPO-7B',
    args_gpu=None,
    notes=('the log line is the chat API error the reporter quoted; engine_args is the docker CMD list joined into flags '
           '(python3 -m vllm.entrypoints.openai.api_server dropped); versions vllm 0.9.2 / transformers 4.52.4 from the '
           'report; no GPU named; a refused request is not a latency symptom, so no --symptom is passed'),
    leak=("The maintainer's answer (the model includes no chat template and cannot be combined with others) and the "
          "reporter's later Mistral-template workaround with INST in the replies are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/mozilla-ai/llamafile/issues/730', thread_type='issue',
    engine='llamafile (self-built .llamafile from a GGUF)', engine_version='llamafile 0.9.1',
    gpu=None, model='granite-3.2-8b-instruct-Q6_K.gguf',
    symptom='other', layer='numeric_parameter',
    root_cause=('llamafile 0.9.1 predates support for the granite architecture (added by PR #608, released in 0.9.2), so a '
                'llamafile built from an IBM Granite 3.2 GGUF refuses to load the model.'),
    fix='Use llamafile 0.9.2 (or build from source, which already has the granite architecture).',
    confidence='maintainer_explained',
    evidence={
        'title': "Bug: unknown model architecture: 'granite'",
        'desc': 'I can create a llamafile with an IBM granite model gguf, but when I try to run the llamafile I get an',
        'error': "unknown model architecture: 'granite'",
        'steps': ['wget https://huggingface.co/ibm-research/granite-3.2-8b-instruct-GGUF/resolve/main/granite-3.2-8b-instruct-Q6_K.gguf',
                  'llamafile -convert granite-3.2-8b-instruct-Q6_K.gguf',
                  'chmod +x granite-3.2-8b-instruct-Q6_K.llamafile',
                  './granite-3.2-8b-instruct-Q6_K.llamafile'],
        'version': 'llamafile 0.9.1',
        'maintainer': ['#608 was merged to support.',
                       '0.9.2 is coming out next week with support. if you compile it from source it already has support.'],
    },
    log=[('error', None)],
    args_model='granite-3.2-8b-instruct-Q6_K.gguf',
    args_gpu=None,
    notes=("the log line is the relevant log output the reporter gave; the run command has no flags, so no engine_args; the "
           "version (llamafile 0.9.1) is in the report but has no input field; a model that will not load is not a "
           'latency symptom, so no --symptom is passed'),
    leak="The maintainer's reply (support merged in #608, shipping in 0.9.2) is left out.",
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/pgEdge/pgedge-postgres-mcp/issues/68', thread_type='issue',
    engine='pgEdge KB builder -> Ollama embeddings (nomic-embed-text)', engine_version='Feb 2026',
    gpu=None, model='nomic-embed-text',
    symptom='other', layer='load',
    root_cause=('The KB builder sent a document chunk of 8,727 characters (~3k tokens; a long list section the parser did not '
                'split) to nomic-embed-text, whose context is 2,048 tokens, so Ollama refused the embedding with HTTP 500 '
                '"the input length exceeds the context length" after 5 retries.'),
    fix='Bound the chunk size by the embedding model\'s context (a maximum chunk size parameter), or split such sections.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Add parameter to KB builder for maximum chunk size, or bound by model context size',
        'desc': ('While using the example configuration file for the KB builder, using the default `nomic-embed-text` '
                 'embedding model, I ran into this error:'),
        'log': ['❌ Failed chunk details:',
                'File: bin/doc-source/pgadmin-4-9.11/docs/en_US/release_notes_1_2.rst',
                'Section: Bug fixes',
                'Chars: 8727, Words: 1009',
                'Ollama embeddings failed: failed to make request: failed after 5 retries: HTTP 500: '
                '{"error":"the input length exceeds the context length"}'],
        'analysis': ('The `nomic-embed-text` model has a maximum context length of 2048 tokens. This particular record is '
                     '8727 characters, putting it somewhere around 3k tokens. The source document contains a long section '
                     'of list-items that the parser seems reluctant to separate. This is not the largest document in the '
                     'chunk corpus either. There are 13 document chunks out of 39000 in the default source list that '
                     'exceed 6000 characters according to this query:'),
    },
    log=[('log', 3), ('log', 4)],
    args_model='nomic-embed-text',
    args_gpu=None,
    notes=("the log lines are the KB builder's failed-chunk report (the warning emoji before 'Ollama embeddings failed' is "
           'cut off); the chunk size is reported in characters (8727) and words (1009), not tokens, so no input_len is '
           'passed; no GPU named; a refused request is not a latency symptom, so no --symptom is passed'),
    leak=("The reporter's analysis (2048-token context of nomic-embed-text, ~3k tokens for this chunk) and the title "
          "(a maximum chunk size bound by the model context) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/huggingface/text-embeddings-inference/issues/50', thread_type='issue',
    engine='text-embeddings-inference (TEI) HTTP server, called with requests.post', engine_version='Oct 2023',
    gpu=None, model=None,
    symptom='other', layer='load',
    root_cause=('The request body was larger than the 2 MB default body limit of TEI\'s web server (axum), so TEI answered '
                '413 "Failed to buffer the request body: length limit exceeded" before looking at the batch; raising '
                '--max-client-batch-size did not help because the body size, not the batch count, was over the limit.'),
    fix='Send smaller requests (chunk the inputs into several requests under 2 MB).',
    confidence='maintainer_explained',
    evidence={
        'title': 'why cause 413?',
        'desc': 'I get this "Failed to buffer the request body: length limit exceeded" when use requests.post',
        'desc_question': 'is my inputs too large?',
        'commenter': ('I got this error when sending an input with a batch size that was too large. The default batch size '
                      'set in the command line arguments is 32; you can increase it.'),
        'reporter': 'I have increased --max-client-batch-size  to 1024, but still got this problem..',
        'maintainer': ["Axum's (the webserver we are using internally) default limit is 2MB. How much data are you sending?",
                       'Maybe you can chunk the request into smaller ones?'],
        'reporter_ack': 'thx',
    },
    log=['Failed to buffer the request body: length limit exceeded'],
    engine_args='--max-client-batch-size 1024',
    args_model=None,
    args_gpu=None,
    notes=('the log line is the error body the client received (HTTP 413 per the title); engine_args is rebuilt from the '
           "reporter's reply after the first suggestion (--max-client-batch-size raised to 1024, still failing); no "
           'model or GPU named; a refused request is not a latency symptom, so no --symptom is passed'),
    leak=("The maintainer's explanation (axum's 2 MB default body limit; chunk the request) is left out; the reporter's "
          "question whether the inputs are too large is not in the inputs."),
    hard=None))

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/ddalcu/mlx-serve/issues/40', thread_type='issue',
    engine='mlx-serve multi-model server (--model-dir, Apple silicon, MLX/Metal)', engine_version='Jun 2026',
    gpu='Apple silicon, 96 GB unified memory', model='Qwen3-Coder-Next-4bit (41.8 GB) + Qwen2.5-Coder-32B-8bit (32.4 GB)',
    symptom='runtime_oom_or_preemption', layer='scheduling_capacity',
    root_cause=("The multi-model registry's resident-memory budget gate checked only already-committed resident bytes; an "
                'in-flight load reserved nothing, so two concurrent loads for different models both decided they fit and '
                'both loaded (74 GB of weights against a 62 GB budget), and the Metal out-of-memory exception, uncatchable '
                'across the C ABI, killed the whole server.'),
    fix='Reserve memory for in-flight loads in the budget gate (estimate including KV, multi-victim eviction); until then '
        'avoid concurrent requests for different models whose sum exceeds the budget.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Server crashes (Metal OOM) on model switch under concurrency — memory budget oversubscribes',
        'desc': ('Switching models while another request for a different model is in flight can crash the **entire '
                 'server** with an uncaught Metal out-of-memory error:'),
        'log': ['libc++abi: terminating due to uncaught exception of type std::runtime_error:',
                '[METAL] Command buffer execution failed: Insufficient Memory (kIOGPUCommandBufferCallbackErrorOutOfMemory)'],
        'root_cause': ("The multi-model registry's resident-memory budget gate (`scheduler.ensureLoaded`) checks only "
                       '`registry.current_resident_bytes`, which is updated at `markReadyLocked`. An **in-flight load '
                       'reserves nothing**, so two loads for two different models can each read a stale (pre-commit) '
                       'resident total, both decide they fit, and both load — e.g. 74 GB of weights co-resident against a '
                       '62 GB budget → GPU OOM.'),
        'repro': ('With `--model-dir` holding two large models and a budget that fits only one, send concurrent requests '
                  'for both (or switch models while a long request is running). Observed live with Qwen3-Coder-Next-4bit '
                  '(41.8 GB) + Qwen2.5-Coder-32B-8bit (32.4 GB) on a 96 GB machine, 62 GB budget.'),
    },
    log=[('log', 0), ('log', 1)],
    args_model='Qwen3-Coder-Next-4bit + Qwen2.5-Coder-32B-8bit',
    args_gpu='Apple silicon, 96 GB unified memory',
    notes=('the log lines are the crash the issue quotes (two lines of one abort message); model names/sizes and the '
           "96 GB machine are from the report's observed incident; the 62 GB budget and the --model-dir launch are "
           'not passed as flags (no full command line); the Metal out-of-memory crash during serving is passed as '
           'runtime_oom_or_preemption'),
    leak=("The issue's root-cause section (the budget gate ignores in-flight loads; 74 GB co-resident against 62 GB), the "
          'title\'s "memory budget oversubscribes" and the fix are left out.'),
    hard=('That two model loads ran concurrently against one memory budget is not in the inputs; only the Metal OOM abort '
          'and the two model names on a 96 GB machine are.')))

I.append(dict(
    src='https://github.com/ggml-org/llama.cpp/issues/10080', thread_type='issue',
    engine='llama.cpp llama-server (CUDA build b3985)', engine_version='b3985',
    gpu='NVIDIA GeForce RTX 3060', model='Mistral-7B-Instruct-v0.3.Q4_1.gguf',
    symptom='other', layer='scheduling_capacity',
    root_cause=('Without -c, llama-server sized the context from the model\'s training context (32k for Mistral v0.3), and '
                'its KV cache plus compute buffers with the default batch sizes did not fit in the RTX 3060\'s memory '
                'next to the 31 offloaded layers; the allocation failure surfaced as the misleading "CUDA error: '
                'CUBLAS_STATUS_NOT_INITIALIZED" crash. With -c 8192 (or small batch/ubatch sizes) the server works.'),
    fix='Set a smaller context (-c 8192) or smaller batch/ubatch sizes so KV cache and compute buffers fit in VRAM.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Bug: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED',
        'desc_ok': 'My llama-server can work well with the following command:',
        'cmd_ok': ('/llama.cpp-b3985/build_gpu/bin/llama-server -m ../artifact/models/Mistral-7B-Instruct-v0.3.Q4_1.gguf '
                   '-ngl 31 --threads 16 --batch-size 32 --ubatch-size 8'),
        'desc_fail': 'However, when I keep only the `ngl` parameter, my server crashes with confusing error message:',
        'cmd_fail': './llama.cpp-b3985/build_gpu/bin/llama-server -m ../artifact/models/Mistral-7B-Instruct-v0.3.Q4_1.gguf -ngl 31',
        'error': 'I got an CUDA error: CUBLAS_STATUS_NOT_INITIALIZED:',
        'log': ['ggml_cuda_init: found 1 CUDA devices:',
                'Device 0: NVIDIA GeForce RTX 3060, compute capability 8.6, VMM: yes',
                'system info: n_threads = 6, n_threads_batch = 6, total_threads = 16',
                'main: HTTP server is listening, hostname: 127.0.0.1, port: 8080, http threads: 15'],
        'commenter': ["No, I won't give a technical answer but the default settings will use too much memory for your "
                      "hardware so it won't even start because you will just crash when you pass `n` context length.",
                      'The easiest way to test this was to reduce the context length, you could probably change some other '
                      'setting to a lower value and keep the max context-length.'],
        'reporter_quoted': ['I think you are right. When I start the server with:',
                            './llama.cpp-b3985/build_gpu/bin/llama-server -m ../artifact/models/Mistral-7B-Instruct-v0.3.Q4_1.gguf -ngl 31 -c 8192',
                            'It can work properly.',
                            'May I ask how context size affects GPU memory allocation? My understanding is that conte'],
    },
    log=['CUDA error: CUBLAS_STATUS_NOT_INITIALIZED', ('log', 1), ('log', 3)],
    engine_args='-m ../artifact/models/Mistral-7B-Instruct-v0.3.Q4_1.gguf -ngl 31',
    args_model='Mistral-7B-Instruct-v0.3.Q4_1.gguf',
    args_gpu='RTX 3060',
    notes=('the log lines are the error the reporter names and two lines of the server log he pasted; engine_args is the '
           'failing command (binary path dropped); the GPU memory size is not stated; the crash with a CUBLAS error '
           'is not a latency symptom, so no --symptom is passed'),
    leak=("The commenter's explanation (default settings use too much memory; reduce the context) and the reporter's "
          "confirmation quoted in that reply (-c 8192 works) are left out, as is the reporter's working command with "
          '--batch-size 32 --ubatch-size 8, which would point at memory.'),
    hard=('The context size the server chose without -c and the VRAM it needed are not in the inputs; only the command '
          'without -c, the RTX 3060 and a CUBLAS initialisation error that does not say "out of memory".')))

I.append(dict(
    src='https://github.com/triton-inference-server/tensorrtllm_backend/issues/141', thread_type='issue',
    engine='Triton Inference Server with the TensorRT-LLM backend (Llama engine built with build.py)',
    engine_version='Nov 2023 (TensorRT-LLM release 0.5.0 build.py)',
    gpu=None, model='Llama (converted to a TensorRT-LLM engine)',
    symptom='other', layer='scheduling_capacity',
    root_cause=('The TensorRT-LLM engine was built without --max_input_len, which defaults to 2048, so the built engine '
                'accepts at most 2048 tokens and the backend rejects a 5056-token prompt, although the same model served '
                'long contexts on the Python backend.'),
    fix='Rebuild the engine with --max_input_len (and the matching sequence limits) set to the desired length.',
    confidence='plausible',
    evidence={
        'title': 'Enable more than 2048 Context length',
        'desc': 'I am getting the following error after converting Llama model to TRTLLM. ',
        'error': 'Cannot process new request: Prompt length (5056) exceeds maximum sequence length (2048)',
        'desc2': 'On python backend I am able to process large contexts on the same model.  How can I increase the sequence length for TRTLLM.',
        'commenter': ('When you converted the model with trtllm, did you set the build arg `--max_input_len` to your '
                      'desired lenght ( it defaults to 2048)'),
        'quoted_reply': 'Thanks.. it worked',
    },
    log=[('error', None)],
    observe={'input_len_mean': (5056, 'Prompt length (5056)')},
    args_model='Llama (TensorRT-LLM engine)',
    args_gpu=None,
    notes=('the log line is the backend error the reporter quoted; input_len_mean is the rejected prompt length; the '
           'engine build command is not given, so no engine_args; no GPU named; a rejected request is not a latency '
           'symptom, so no --symptom is passed'),
    leak=("The participant's answer (the --max_input_len build arg defaults to 2048) and the later 'Thanks.. it worked' "
          'are left out; the title (enable more than 2048 context length) is not in the inputs.'),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261231, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
