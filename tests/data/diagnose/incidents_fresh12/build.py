#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh12: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh10; this file follows incidents_fresh10/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; surrounding markdown backticks, list bullets, quote markers and
leading indentation dropped; a few long or wrapped lines cut to a verbatim prefix/substring). Log lines and
output samples are taken from the evidence, so check.py can verify they are verbatim substrings of it.
This batch is restricted to the local/home-lab stack: llama.cpp, Ollama, llama-cpp-python, koboldcpp,
LocalAI, Open WebUI, mlx-examples and a home-lab project wrapping Ollama.

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

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/Crosstalk-Solutions/project-nomad/issues/675', thread_type='issue',
    engine='Ollama (container managed by Project N.O.M.A.D.)', engine_version='Apr 2026', gpu='NVIDIA RTX 3090 Ti (24 GB)',
    model='gemma4:31b',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('The Ollama container ran with the default 32768-token context, whose KV cache (about 6 GB) left too little of the '
                '24 GB for all 61 layers of gemma4:31b, so the output layer (3.3 GiB of weights) was placed on the CPU and every '
                'token made a CPU round trip: about 19 tok/s instead of 40-50.'),
    fix='Set OLLAMA_CONTEXT_LENGTH explicitly and use a model that fits fully on the GPU at that context (gemma4:26b at 32768).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Bug]: Poor inference performance on RTX 3090 Ti with gemma4:31b - possible KV cache VRAM issue',
        'desc': ("I installed NOMAD on a fairly capable machine and loaded gemma4:31b. The model loads into VRAM fine (about 20GB), "
                 "but inference is much slower than I'd expect -- around 19 tokens/sec on a simple prompt. For this GPU the expected "
                 "throughput should be closer to 40-50 tokens/sec."),
        'log': ['msg="offloading output layer to CPU"', 'msg="offloaded 60/61 layers to GPU"',
                'msg="model weights" device=CPU size="3.3 GiB"'],
        'reporter_guess': ("It looks like the KV cache is being allocated at the default size of 32768 tokens, which eats up about "
                           "6GB of VRAM. That doesn't leave enough room for all 61 model layers, so the last one gets pushed to CPU."),
        'resolution': 'OK, some mistakes were made.  The correct environment variable is OLLAMA_CONTEXT_LENGTH.',
        'resolution2': ('This also means that I need to use the gemma4:26b (or other similarly size model) because of the increase '
                        'in context length, and the model fits fully on the GPU.'),
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    observe={'output_tokens_per_s': (19, 'around 19 tokens/sec'),
             'expected_output_tokens_per_s': (40, 'closer to 40-50 tokens/sec')},
    args_gpu='RTX 3090 Ti',
    notes=('the three log fragments are the reporter\'s Ollama log lines as quoted in the description; 19 tok/s is the measured '
           'rate, the expectation 40-50 tok/s is passed at its low end'),
    leak=("The title's and the description's own hypothesis (KV cache at the default 32768 tokens pushes the last layer to CPU) and "
          "the reporter's follow-up (OLLAMA_CONTEXT_LENGTH, a smaller model that fits) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/14308', thread_type='issue',
    engine='Ollama 0.16.02 on six 24 GB NVIDIA GPUs', engine_version='0.16.02', gpu='6x NVIDIA GPUs with 24 GB each',
    model=None,
    symptom='other', layer='scheduling_capacity',
    root_cause=('With the very large context in use (OLLAMA_CONTEXT_LENGTH around 256k), the compute graph needed 32 GiB per '
                'device, more than each 24 GB GPU holds, so Ollama could not place the model on the GPUs at all and ran it on the '
                'CPU.'),
    fix='Use a much smaller OLLAMA_CONTEXT_LENGTH (or quantize the KV cache) so the per-device graph fits in 24 GB.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama not offloading to GPU',
        'log': [('Feb 18 19:17:52 pm-quant-linux-gpu ollama[279305]: time=2026-02-18T19:17:52.312Z level=INFO source=server.go:1388 '
                 'msg="llama runner started in 37.34 seconds"'),
                ('Feb 18 19:17:52 pm-quant-linux-gpu ollama[279305]: [GIN] 2026/02/18 - 19:17:52 | 200 | 38.764625903s |       '
                 '127.0.0.1 | POST     "/api/generate"')],
        'graph': ('Feb 18 19:17:14 pm-quant-linux-gpu ollama[279305]: time=2026-02-18T19:17:14.971Z level=INFO source=device.go:262 '
                  'msg="compute graph" device=CUDA0 size="32.0 GiB"'),
        'version': '0.16.02',
        'maintainer': ("You don't have 144GB VRAM, you have 6x24GB VRAM.  The graph for each device with full context is 32GB:"),
        'maintainer2': ("32 is more than 24, so the model cannot be loaded on the GPUs.  Because the beginning of the log was not "
                        "available, I assumed the problem was caused by the new tiered context scaling.  If you have deliberately set "
                        "`OLLAMA_CONTEXT_LENGTH` to 256k with a view to running the model with maximum possible context, I'm afraid "
                        "you will have to scale back."),
    },
    log=[('graph', None), ('log', 0), ('log', 1)],
    notes=('the compute-graph line is the reporter\'s server log as quoted back by the maintainer; the other two lines are the tail '
           'of the reporter\'s log; the GPU model and the context setting are not quoted; the GPU field is the operator\'s own hardware (six 24 GB cards, stated as "6x24GB" in the maintainer\'s reply)'),
    leak="The maintainer's reading (32 GiB graph per device > 24 GB per GPU; scale back the 256k context) is left out.",
    hard=('The context setting is not in the inputs; the 32 GiB compute-graph line has to be set against the 24 GB per GPU, which '
          'the inputs give only as a free-text GPU description.')))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/7198', thread_type='issue',
    engine='Ollama (Windows, NVIDIA 8 GB)', engine_version='Oct 2024', gpu='NVIDIA GPU with 8 GB VRAM',
    model='llama3.2:3b-instruct-q8_0',
    symptom='other', layer='scheduling_capacity',
    root_cause=('A request num_ctx of 128000 made the context-dependent structures that must sit on the GPU for any GPU inference '
                'larger than the 8 GB card, so instead of a partial CPU/GPU split Ollama put the whole 3B model on the CPU.'),
    fix='Reduce num_ctx to a value whose KV cache fits the GPU alongside the model.',
    confidence='maintainer_explained',
    evidence={
        'title': 'num_ctx forces entire model to CPU',
        'desc': ('For context, my GPU has 8GB VRAM, and the model I "discovered" this with was `llama3.2:3b-instruct-q8_0`, but it '
                 'seems to occur for any other.'),
        'desc2': '`ollama ps` shows the model as `3.4 GB`',
        'desc3': ("When setting `num_ctx` to a number that'll force it to exceed my VRAM size, we'll get something like `10 GB    "
                  "33%/67% CPU/GPU` as expected (num_ctx of 40000 in that instance)."),
        'desc4': 'However, when I set it to 128000, the result is:',
        'commenter': 'Reduce num_ctx to a value that allows for the model to be loaded into VRAM fully.',
        'maintainer': ('The context size has a direct impact on the amount of VRAM required to run the model.  Ollama supports '
                       'spilling over into system memory and splitting inference between the GPU and CPU, up to a point.  There are '
                       'some data structures that have to be allocated in the GPU to support any GPU inference.'),
    },
    engine_args='num_ctx 128000',
    args_gpu=None,
    notes=('engine_args is rebuilt from the prose ("when I set it to 128000", the num_ctx request option); the resulting 100% CPU '
           'placement is only in a screenshot; the GPU is named only as "8GB VRAM"'),
    leak="The title (forces entire model to CPU) and the maintainer's and commenter's explanation are left out.",
    hard='Only the num_ctx value is machine-readable; the 8 GB GPU and the 100% CPU outcome are prose and a screenshot.'))

I.append(dict(
    src='https://github.com/LostRuins/koboldcpp/issues/1717', thread_type='issue',
    engine='KoboldCpp (CUDA) on an RTX 5070', engine_version='Aug 2025', gpu='NVIDIA RTX 5070 (12 GB)', model='a 27B GGUF model',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('A 27B model does not fit in the RTX 5070\'s 12 GB, so most of its layers ran on the CPU and generation crawled at '
                '1.6 T/s.'),
    fix='Use a smaller model or quant that fits in 12 GB (the maintainer suggested gemma-3-12b Q4_K_S).',
    confidence='maintainer_explained',
    evidence={
        'title': 'GPU is not loading',
        'desc': 'My GPU is RTX 5070 and CPU i5-14600kf. I tried all that i know and have no results. Please help me..',
        'reporter': 'I have no error, generation speed on 27B model is 1.6 T/s. I think it is slow. My GPU probably not working on full..',
        'maintainer_q': 'Did you select the cuda option? How many layers did it pick? ',
        'maintainer': 'RTX 5070 only has 12GB, so you will need to use a smaller quant or model.',
    },
    observe={'output_tokens_per_s': (1.6, '1.6 T/s')},
    args_model=None,
    args_gpu='RTX 5070',
    notes='the generation speed is the reporter\'s figure; the model is named only as "27B model", so no model is passed; no log is quoted',
    leak="The maintainer's answer (12 GB is too small for a 27B model; use a smaller quant or model) is left out.",
    hard='The model is only "27B" in prose; that it cannot fit the 12 GB card needs the model size, which the inputs lack.'))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/9415', thread_type='issue',
    engine='Ollama 0.5.13-rc1 (CUDA) with OLLAMA_FLASH_ATTENTION enabled', engine_version='0.5.13-rc1', gpu=None, model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Changes in the 0.5.13 release candidate made the flash-attention path slow, so with flash attention enabled '
                'inference speed dropped sharply although all 43 layers were on the GPU; disabling flash attention restored it.'),
    fix='Set OLLAMA_FLASH_ATTENTION=0 (until the flash-attention regression was fixed).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Extreme drop in inference speed.',
        'env': '0.5.12 Windows 11 RTX 4070 TI SUPER - 5900X',
        'rc': '0.5.13-rc1',
        'log': ['Feb 28 12:44:32 ai-server ollama[854770]: load_tensors: offloaded 43/43 layers to GPU',
                'Feb 28 12:44:33 ai-server ollama[854770]: llama_init_from_model: n_seq_max     = 4',
                'Feb 28 12:44:33 ai-server ollama[854770]: llama_init_from_model: n_ctx         = 8192',
                'Feb 28 12:44:33 ai-server ollama[854770]: llama_init_from_model: flash_attn    = 1'],
        'maintainer': ("Thanks for reporting the issue. It appears there's some changes impacting flash attention. Can you verify "
                       "this by rerunning your test prompt without flash attention?"),
        'reporter': 'Setting OLLAMA_FLASH_ATTENTION=0 restored the speed to normal.',
    },
    log=[('log', 0), ('log', 1), ('log', 2), ('log', 3)],
    args_gpu=None,
    notes=('the case follows commenter MMaturax, whose server log (ai-server) gives the four lines; the before/after speeds are '
           'only in screenshots, so no figure is passed; the Windows RTX 4070 Ti Super line is another machine of the same commenter, '
           'so no GPU is passed'),
    leak="The maintainer's suspicion (changes impacting flash attention) and the reporter's confirmation (OLLAMA_FLASH_ATTENTION=0 restores speed) are left out.",
    hard='Only load lines with flash_attn = 1; that the 0.5.13 release candidate made flash attention slow is not in the inputs.'))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/10798', thread_type='issue',
    engine='Ollama 0.7.0 (Linux, manual tarball install)', engine_version='0.7.0', gpu='NVIDIA GPU with 22.4 GiB free',
    model=None,
    symptom='other', layer='operator_hardware',
    root_cause=('Ollama had been unpacked by hand into /usr while the install script manages /usr/local/lib/ollama, so the runner '
                'found no CPU or GPU backend libraries (msg=system shows only LLAMAFILE) and, although the scheduler planned to '
                'offload all 29 layers, everything ran on the CPU at 100%.'),
    fix='Reinstall Ollama so that the ggml CPU/CUDA backend libraries are in place (the official install script layout).',
    confidence='maintainer_explained',
    evidence={
        'title': 'In version 0.7.0, the GPU is not working, and the CPU usage rate is 100%',
        'log': ['5月 21 17:49:23 ubuntu ollama[1576]: time=2025-05-21T17:49:23.790+08:00 level=INFO source=server.go:168',
                'msg=offload library=cuda layers.requested=-1 layers.model=29 layers.offload=29 layers.split=""',
                'memory.available="[22.4 GiB]" memory.gpu_overhead="0 B" memory.required.full="2.1 GiB"',
                '5月 21 17:49:23 ubuntu ollama[1576]: time=2025-05-21T17:49:23.905+08:00 level=INFO source=ggml.go:104',
                'msg=system CPU.0.LLAMAFILE=1 compiler=cgo(gcc)'],
        'maintainer': 'ollama wanted to offload all 29 layers.',
        'maintainer2': ("But it didn't find any CPU or GPU backends, which would normally be in `/usr/local/lib/ollama`.  How did you "
                        "install ollama?"),
        'install': 'sudo tar -C /usr -xzf ollama-linux-amd64.tgz',
        'reporter': 'Console output: Cleaning up old version at /usr/local/lib/ollama',
    },
    log=[('log', i) for i in range(5)],
    notes=('the five lines are the reporter\'s server log as quoted back, re-wrapped, by the maintainer; the manual install '
           'command is the reporter\'s answer to the maintainer and is kept out'),
    leak="The maintainer's reading (no CPU/GPU backends found where they should be) and the reporter's install steps are left out.",
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/1202', thread_type='issue',
    engine='llama-cpp-python (Llama.create_chat_completion)', engine_version='Feb 2024', gpu=None,
    model='mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The automatic chat format picked for the Mixtral GGUF did not load the chat eos/bos tokens, so the prompt was '
                'formatted wrongly and the model stopped after one token with empty content; passing chat_format explicitly fixed it.'),
    fix='Pass chat_format explicitly when creating the Llama object.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Auto chat format not loading chat eos_token and bos_token for mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf',
        'desc': 'Please note the last two lines, in which there is no chat eos_token or bos_token. ',
        'call': 'llm.create_chat_completion(',
        'log': ['llama_print_timings: prompt eval time =    1252.16 ms /    21 tokens (   59.63 ms per token,    16.77 tokens per second)',
                'llama_print_timings:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)'],
        'response': ["'message': {'role': 'assistant', 'content': ''},", "'finish_reason': 'stop'}],",
                     "'usage': {'prompt_tokens': 21, 'completion_tokens': 1, 'total_tokens': 22}}"],
        'reporter': "On the other hand, if I run (where the only change I've made is adding the `chat_format` arg):",
    },
    log=[('log', 0), ('log', 1), ('response', 1), ('response', 2)],
    outputs=[('response', 0)],
    observe={'output_len_mean': (1, "'completion_tokens': 1")},
    args_model='mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf',
    notes=('the timings, finish_reason and usage lines are the reporter\'s console/response output; the output sample is the empty '
           'message; the model name is taken from the title, whose cause statement is kept out'),
    leak="The title's diagnosis (auto chat format not loading eos/bos tokens) and the reporter's comparison run with chat_format are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/8099', thread_type='issue',
    engine='Ollama 0.5.1 (ollama run CLI)', engine_version='0.5.1', gpu=None, model='llama3.2',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('Ollama\'s default 2048-token context window truncated the 3858-token prompt (the file passed to ollama run), so '
                'the model summarized only part of the file; the CLI has no way to raise num_ctx.'),
    fix='Raise the context window (num_ctx via the API or a Modelfile) above the prompt length.',
    confidence='maintainer_explained',
    evidence={
        'title': 'ollama run silently truncating prompt',
        'desc': 'The documentation shows us how to use `ollama run` to summarize a file, see',
        'cmd': '$ ollama run llama3.2 "Summarize this file: $(cat README.md)"',
        'desc2': ("What's not obvious here is that by default the prompt (and therefore the file passed in) gets truncated to 2048 "
                  "tokens. "),
        'log': ('time=2024-12-14T18:01:09.338Z level=WARN source=runner.go:129 msg="truncating input prompt" limit=2048 prompt=3858 '
                'keep=5 new=2048'),
        'version': '0.5.1',
        'maintainer': 'https://github.com/ollama/ollama/blob/main/docs/faq.md#how-can-i-specify-the-context-window-size',
        'maintainer2': 'The CLI is a simple frontend to the API and has limited functionality',
    },
    log=[('log', None)],
    engine_args='ollama run llama3.2 "Summarize this file: $(cat README.md)"',
    observe={'input_len_mean': (3858, 'prompt=3858')},
    notes='the WARN line is the reporter\'s server log; engine_args is the reporter\'s command; the prompt length is input_len_mean',
    leak="The title and the description's own finding (truncated to 2048 tokens by default) and the maintainer's pointer to num_ctx are left out.",
    hard=None))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/mudler/LocalAI/issues/11046', thread_type='issue',
    engine='LocalAI behind an OpenResty/nginx edge proxy, .NET OpenAI SDK client', engine_version='Jul 2026', gpu=None,
    model=None,
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Long non-streaming multimodal Responses calls outlived the edge reverse proxy\'s upstream read timeout '
                '(proxy_read_timeout), so OpenResty closed the wait and returned its own 504 Gateway Time-out page while LocalAI was '
                'still generating.'),
    fix='Raise the proxy upstream timeouts (proxy_read_timeout or equivalent) or stream / bypass the public proxy for long jobs.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Docs: reverse-proxy guide should cover upstream timeouts (OpenResty/nginx 504 on long vision/Responses)',
        'env': ('Observed against a self-hosted LocalAI deployment exposing OpenAI-compatible `/v1` (including Responses). Edge returns '
                '`server: openresty`. Client is .NET OpenAI SDK / Microsoft.Extensions.AI calling non-streaming Responses with '
                'multimodal (vision) content.'),
        'workload': ('Workload: multi-page PDF vision OCR via `/v1` Responses (image/jpeg page renders, ~60–70KB+ per page, '
                     'non-streaming)'),
        'log': ['ClientResultException: Service request failed.', 'Status: 504 (Gateway Time-out)'],
        'body': ('The HTML body is a classic reverse-proxy gateway timeout page (`504 Gateway Time-out`), not a structured '
                 'LocalAI/OpenAI error.'),
        'cause': 'The **edge reverse proxy** closes the upstream wait first (`proxy_read_timeout` / equivalent).',
    },
    log=[('log', 0), ('log', 1), 'server: openresty'],
    notes=('the two client error lines are the reporter\'s; "server: openresty" is the response header the reporter quotes; no '
           'timing or timeout value is given'),
    leak="The title and the reporter's analysis (the edge proxy's proxy_read_timeout closes the wait first) are left out.",
    hard=None))

I.append(dict(
    src='https://github.com/open-webui/open-webui/issues/8254', thread_type='issue',
    engine='Open WebUI v0.5.2 (Cloudron) streaming from a fast OpenAI-compatible provider', engine_version='v0.5.2', gpu=None,
    model='llama 3.3 (groq)',
    symptom='throughput_low', layer='gateway_client',
    root_cause=('Open WebUI\'s own streaming delivery throttled the token stream (an environment setting of the front-end, per the '
                'maintainer\'s pointer to the env configuration), so streamed answers arrived at an ordinary rate although the '
                'provider generates about 250 tokens/s and non-streamed answers return in under a second.'),
    fix='Tune the Open WebUI streaming environment setting described in its env configuration docs.',
    confidence='plausible',
    evidence={
        'title': 'Streaming mode is slow even with fast LLM providers (groq.com for example)',
        'desc': ('I found out that streaming mode in Open WebUI is actually a bottleneck : the token rate is greatly lower that what '
                 'can provide the LLM provider.'),
        'desc2': ('Take for example https://groq.com/ which provide extremely fast inference for LLama models (250 token/second for '
                  'llama 3.3)'),
        'desc3': 'If you disable the stream response mode, the model response is less than a second for long responses.',
        'version': 'v0.5.2',
        'maintainer': 'Please read the changelogs: https://openwebui.com/getting-started/advanced-topics/env-configuration/',
        'commenter': 'I also met the same issue and the ENV Variable really solve the issue. ',
    },
    observe={'expected_output_tokens_per_s': (250, '250 token/second')},
    args_model=None,
    notes=('the only figure is the provider\'s 250 tokens/s (expected_output_tokens_per_s); no log is quoted; the variable that '
           'fixed it is not named in the thread, hence plausible'),
    leak=("The description's conclusion (streaming mode in Open WebUI is the bottleneck), the maintainer's pointer to the env "
          "configuration and the commenter's confirmation are left out."),
    hard='Only the provider\'s expected rate; that the front-end\'s streaming setting is the bottleneck is in prose the inputs leave out.'))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ml-explore/mlx-examples/issues/1183', thread_type='issue',
    engine='mlx_lm.server (mlx 0.21.1)', engine_version='0.21.1', gpu=None, model=None,
    symptom='ttft_spike', layer='load',
    root_cause=('Several requests were sent to mlx_lm.server at the same time; the server answers one request at a time, so each '
                'request waited for the earlier one to finish and the reply started 2-4 s late.'),
    fix='Send requests one at a time (mlx_lm.server could not parallelize them at the time) or use a server with concurrent batching.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'mlx_lm.server is slow to generate a response',
        'desc': ('When I use mlx_lm.chat with a model, it responds to my prompt instantly. But when I use mlx_lm.server, it takes 2 to '
                 '4 seconds to reply. Why is there a delay? I use mlx version 0.21.1'),
        'reporter': ('I figured it out, it was because there were several simultaneous requests to **mlx_lm.server**, it was waiting '
                     'for the earlier one to finish. Is there a way to parallelize answering to the prompts instead of waiting for '
                     'earlier one to finish?'),
        'maintainer': 'At the moment no.',
    },
    observe={'ttft_p50_s': (4, 'it takes 2 to 4 seconds to reply')},
    args_gpu=None,
    notes='the reply delay "2 to 4 seconds" is passed at its upper end as ttft_p50_s; no log or command is quoted',
    leak="The reporter's finding (several simultaneous requests queued behind each other) and the maintainer's reply are left out.",
    hard=('Only a reply delay; the concurrent requests are not in the inputs, and the call between load (offered traffic) and '
          'scheduling (a one-request-at-a-time server) could go two ways.')))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/3154', thread_type='issue',
    engine='Ollama (Python client, format="json")', engine_version='Mar 2024', gpu=None, model='mistral',
    symptom='tpot_high', layer='load',
    root_cause=('The requests put non-schema instructions into the system message together with the JSON schema while asking for '
                'format="json"; with that request content the JSON-constrained generation became very slow, and keeping only the '
                'schema in the system message made the time acceptable.'),
    fix='Keep only the JSON schema in the system message (move other instructions elsewhere).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Why Ollama is so terribly slow when I set format="json"',
        'reporter': 'After lots of trails and errors, I finally what can make it very slow or make it faster.',
        'finding': ('Previously, I included BOTH  a JSON schema AND some other important information in the system messages.  The '
                    'results were very slow.'),
        'fix': ('Now, I took away all non-schema information in the system message, i.e. leaving ONLY schema in the system message '
                'like the workable example below.  The time becomes acceptable.'),
        'code': 'import ollama, json, traceback',
    },
    engine_args='format="json"',
    args_model=None,
    notes=('engine_args is the request option named in the title; no log or speed figure is in the stored excerpt; the model '
           '(mistral) appears only in the reporter\'s later example code'),
    leak="The reporter's trial-and-error finding (schema plus other system-message content is slow; schema only is fine) is left out.",
    hard='Only format="json"; the request content (system message mixing schema and other instructions) is not in the inputs.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261212, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
