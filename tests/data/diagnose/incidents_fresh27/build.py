#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh27: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh24; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the GitHub issue/PR thread text returned by the search tool
(corpus "issues"). JSON escapes were decoded; leading indentation and list bullets/numbers were dropped (markdown
emphasis was kept); a few long lines were cut to a verbatim prefix/substring. Log lines and output samples are
taken from the evidence, so check.py can verify they are verbatim substrings of it. This batch concentrates on the
engines and serving stacks whose repositories the earlier sets barely used (LMDeploy, vllm-ascend, LocalAI,
CTranslate2, Ray Serve LLM, text-generation-webui, llama-cpp-python, TGI, Xinference, MLC-LLM on Jetson), in any
layer and symptom.

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

# ============================== load ==============================
I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/550', thread_type='issue',
    engine='LMDeploy api_server (TurboMind), OpenAI-style /v1/chat/completions', engine_version='Oct 2023',
    gpu=None, model='internlm-chat-20b',
    symptom='output_quality', layer='load',
    root_cause=('The requests were sent with renew_session=false, so the stateful api_server kept appending every turn '
                'to the same session\'s history; once the session length was reached the engine answered a 23-token '
                'prompt with empty content, 0 completion tokens and finish_reason "length" (total_tokens 8223).'),
    fix='Renew the session (renew_session=true / a new session id) so the history does not exhaust the session length.',
    confidence='maintainer_explained',
    evidence={
        'title': 'chat-api "finish_reason": "length" [Bug]',
        'desc': 'chat api output overflow, `max_tokens` does no effect',
        'request': ['"model": "internlm-chat-20b",', '"max_tokens": 512,', '"renew_session": false,'],
        'response': ['"role": "assistant",', '"content": ""', '"finish_reason": "length"', '"prompt_tokens": 23,',
                     '"total_tokens": 8223,', '"completion_tokens": 0'],
        'maintainer': 'Session length is reached. Please renew the session.',
        'reporter_after': 'it means that if `renew_session=false`，the completions will keep History？',
    },
    outputs=[('response', 1), ('response', 2), ('response', 4)],
    observe={'input_len_mean': (23, '"prompt_tokens": 23,'), 'output_len_mean': (0, '"completion_tokens": 0')},
    engine_args=None,
    args_model='internlm-chat-20b',
    args_gpu=None,
    notes=('the output lines are lines of the JSON response the reporter pasted (empty content, finish_reason length, '
           'total_tokens 8223); input_len_mean is the response\'s prompt_tokens and output_len_mean its completion_tokens; '
           'no launch flags or GPU are given; an empty answer is passed as output_quality'),
    leak=("The maintainer's answer (the session length is reached; renew the session) and the reporter's follow-up about "
          "renew_session=false keeping history are left out; the request body (renew_session: false) is not in the "
          "inputs, as earlier sets keep out request bodies that show the mistake."),
    hard='The request flag that keeps the session history (renew_session: false) is not in the inputs; only the '
         'response with total_tokens 8223 against a 23-token prompt is.'))

I.append(dict(
    src='https://github.com/microsoft/graphrag/issues/416', thread_type='issue',
    engine='Xinference OpenAI-compatible API (transformers backend, chatglm3-6b) called by GraphRAG indexing',
    engine_version='Jul 2024', gpu=None, model='chatglm3-6b',
    symptom='other', layer='load',
    root_cause=('The GraphRAG indexing client sent its requests with temperature 0.0; Xinference\'s transformers '
                'backend samples with do_sample and rejects a temperature that is not strictly positive, so every '
                'entity-extraction request failed with a ValueError.'),
    fix='Send a small positive temperature (or greedy decoding / do_sample=False) from the client.',
    confidence='plausible',
    evidence={
        'settings': ['api_base: http://0.0.0.0:9997/v1', 'type: openai_chat # or azure_openai_chat',
                     'model: chatglm3-6b # gpt-4-turbo-preview', 'max_tokens: 4096'],
        'desc': ('I use xinference api to run `python -m graphrag.index --root ./ragtest`,   \n'
                 'but in  `create_base_extracted_entities` step have bug in xinference:   '),
        'error': ("ValueError:  `temperature` (=0.0) has to be a strictly positive float, otherwise your next token "
                  "scores will be invalid. If you're looking for greedy decoding strategies, set `do_sample=False`."),
        'ask': 'How to solve it?',
    },
    log=[('error', None)],
    engine_args=None,
    args_model='chatglm3-6b',
    args_gpu=None,
    notes=('the log line is the error the reporter quoted from xinference; the GraphRAG settings (api_base, model, '
           'max_tokens 4096) are client settings, not engine flags, and are not passed; no GPU is named; a rejected '
           'request is passed as other (no --symptom)'),
    leak=('No maintainer or reporter resolution is in the stored excerpt (plausible: the engine\'s own error message '
          'names the temperature=0.0 request parameter as the cause); nothing else was left out.'),
    hard=None))

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/InternLM/lmdeploy/issues/365', thread_type='issue',
    engine='LMDeploy OpenAI api_server (TurboMind workspace, tp 4)', engine_version='0.0.6 / 0.0.7',
    gpu=None, model='llama2-70b (play70binstruct)',
    symptom='other', layer='scheduling_capacity',
    root_cause=('The TurboMind workspace was converted with llama2\'s default session_len of 4K, so any request longer '
                'than 4k tokens overran the session length and the api_server aborted (core dumped) instead of '
                'rejecting it.'),
    fix='Raise session_len to 8K in workspace/triton_models/weights/config.ini (the server should also reject such requests).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Coredump - llama2-70b - 8k tokens',
        'desc': ('When using the http API but also the chat, the service crashes if I send long sequences. I tested it '
                 'in on version 0.0.6 and 0.0.7.'),
        'crash': ('./launchLmDeploy: line 2: 3385755 Aborted                 (core dumped) python3 -m '
                  'lmdeploy.serve.openai.api_server ./workspace 127.0.0.1 8020 --instance_num 1 --tp 4'),
        'deploy': 'python3 -m lmdeploy.serve.turbomind.deploy --model-name llama2 --model-path ./play70binstruct/  -tp 4',
        'repro': 'And send any sequence longer than 4k',
        'maintainer': ['The default `session_len` of llama2 is 4K.',
                       'You can change it to 8K in file `workspace/triton_models/weights/config.ini`'],
        'reporter': 'Thanks, it solves ethe problem, but it Is risky a long sequence to be able to crash the API.',
    },
    log=[('crash', None)],
    engine_args='--instance_num 1 --tp 4',
    observe={'input_len_mean': (8000, '8k tokens')},
    args_model='llama2-70b',
    args_gpu=None,
    notes=('the log line is the launcher script\'s abort line the reporter pasted; engine_args are the api_server flags '
           'from that line; input_len_mean 8000 is the title\'s "8k tokens" (the reporter: any sequence longer than '
           '4k); no GPU is named; the crash is passed as other (no --symptom)'),
    leak=("The maintainer's answer (llama2's default session_len is 4K; raise it to 8K in config.ini) and the reporter's "
          "confirmation are left out."),
    hard='The 4K default session_len baked into the converted workspace is not in the inputs.'))

I.append(dict(
    src='https://github.com/huggingface/text-generation-inference/issues/695', thread_type='issue',
    engine='Hugging Face text-generation-inference (text-generation-launcher, 4 shards)', engine_version='Jul 2023',
    gpu='AWS "g4 24x large" instance (as written)', model='mosaicml/mpt-30b-instruct',
    symptom='other', layer='scheduling_capacity',
    root_cause=('The launcher was started without --max-input-length, so the router kept its default input limit of '
                '1024 tokens and rejected a 1168-token prompt although the model accepts longer inputs.'),
    fix='Pass larger --max-input-length / --max-total-tokens on the launcher command line.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('I am facing this error - ValidationError: Input validation error: `inputs` must have less than 1024 '
                  'tokens. Given: 1168.'),
        'desc': ('I am currently working with mpt 30b instruct on g4 24x large instance. How can I change the limit for '
                 'the input tokens? Any advice is much appreciated..'),
        'repro': 'Load a text file with which has more than 1024 tokens and change the no of tokens.',
        'tried': ('I tried changing the main rs and running the model. However, the values are not getting updated. Is '
                  'there any step did I miss? I bascially updated the value and started running the model using the '
                  'command - text-generation-launcher --model-id mosaicml/mpt-30b-instruct --num-shard 4 --port 8888.'),
        'resolution': ('I figured out the solution. We can pass arguments along with the command. And the values in the '
                       'argument could be used t'),
    },
    log=['ValidationError: Input validation error: `inputs` must have less than 1024 tokens. Given: 1168.'],
    engine_args='--model-id mosaicml/mpt-30b-instruct --num-shard 4 --port 8888',
    observe={'input_len_mean': (1168, 'Given: 1168')},
    args_model='mosaicml/mpt-30b-instruct',
    args_gpu=None,
    notes=('the log line is the validation error (from the title); engine_args is the launcher command the reporter '
           'ran (no --max-input-length); input_len_mean is the rejected prompt length; the instance type is not a GPU '
           'name and is not passed; a rejected request is passed as other (no --symptom)'),
    leak=("The reporter's resolution (pass the limits as launcher arguments) is left out; the reporter's attempt to "
          "edit the router source (main.rs) is left out."),
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm-ascend/issues/2446', thread_type='issue',
    engine='vllm-ascend (vLLM on Ascend NPUs), 2 nodes, DP2 x TP8 with expert parallel', engine_version='0.10.1rc1',
    gpu='2 x 8 Ascend 910B', model='ZhipuAI/GLM-4.5',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('In vllm-ascend 0.10.1rc1 only the DeepSeek and Qwen MoE models were routed to the optimised '
                'AscendFusedMoe kernels; GLM-4.5\'s MoE layers ran on the generic path, so the inter-token latency '
                'stayed above 400 ms even at one concurrent request.'),
    fix='Make GLM-4.5 use the AscendFusedMoe ops (or wait for the release with the common MoE improvement).',
    confidence='maintainer_explained',
    evidence={
        'title': '[Performance]: 在两台8卡910B上跑glm4.5吞吐极低',
        'desc': ['vllm-ascend版本：0.10.1rc1', '模型：ZhipuAI/GLM-4.5',
                 '输入序列长度3K~4K，单并发或者8并发输出token间时延都是400ms以上，肉眼可见的慢，请问如何定位并解决问题呢'],
        'maintainer': ['only DeepSeek and Qwen moe model is improved currently. We\'re working common moe imporveoment for '
                       'all moe model. It\'ll be done soon.',
                       'If you want to do it locally, please just find a way to let GLM4.5 model use AscendFusedMoe ops, '
                       'otherwise please wait for a new release of vLLM Ascend'],
        'cmd_node0': ['vllm serve ${VLLM_MODEL_PATH} \\', '--api-server-count 1 \\', '--data-parallel-size 2 \\',
                      '--data-parallel-size-local 1 \\', '--tensor-parallel-size 8 \\', '--enable-expert-parallel \\',
                      '--max-num-seqs 16 \\', '--max-num-batched-tokens 4096 \\', '--trust-remote-code \\',
                      '--no-enable-prefix-caching \\', '--gpu-memory-utilization 0.9 \\', '--enforce_eager \\',
                      '--additional-config \'{"ascend_scheduler_config":{"enabled":true}}\''],
    },
    engine_args=('--api-server-count 1 --data-parallel-size 2 --data-parallel-size-local 1 --tensor-parallel-size 8 '
                 '--enable-expert-parallel --max-num-seqs 16 --max-num-batched-tokens 4096 --trust-remote-code '
                 '--no-enable-prefix-caching --gpu-memory-utilization 0.9 --enforce_eager '
                 '--additional-config \'{"ascend_scheduler_config":{"enabled":true}}\''),
    observe={'tpot_p50_s': (0.4, '输出token间时延都是400ms以上')},
    args_model='ZhipuAI/GLM-4.5',
    args_gpu='Ascend 910B',
    notes=('engine_args are the node-0 vllm serve flags the reporter posted (host/port/address placeholders and --seed '
           'dropped); tpot_p50_s 0.4 is "inter-token latency above 400 ms" at 1 or 8 concurrent requests; the input is '
           '3K-4K tokens (not passed, a range); the reporter ran with --enforce_eager, which is in the inputs'),
    leak=("The maintainer's explanation (only DeepSeek and Qwen MoE use the improved AscendFusedMoe path) is left out."),
    hard='That GLM-4.5 is not on the fused-MoE kernel path is not in the inputs; only the model name, the flags and '
         'the latency are.'))

I.append(dict(
    src='https://github.com/OpenNMT/CTranslate2/issues/1200', thread_type='issue',
    engine='CTranslate2 Generator (Python API)', engine_version='Apr 2023',
    gpu='Tesla T4', model='EleutherAI/gpt-j-6B (converted with --quantization float16)',
    symptom='other', layer='operator_hardware',
    root_cause=('The Generator was created without device="cuda"; CTranslate2 loads models on the CPU by default, so the '
                'float16 model was converted to float32 for the CPU backend and inference ran on the CPU although the '
                'T4 was available.'),
    fix='Create the generator with device="cuda".',
    confidence='maintainer_explained',
    evidence={
        'title': 'GPT-J on Tesla T4: the target device or backend do not support efficient float16 computation',
        'convert': ('`ct2-transformers-converter --model EleutherAI/gpt-j-6B --revision float16 --quantization float16 '
                    '--output_dir gptj_ct2`'),
        'load': 'Then I used `generator = ctranslate2.Generator("gptj_ct2")`',
        'warning': ('`[ctranslate2] [thread 144] [warning] The compute type inferred from the saved model is float16, '
                    'but the target device or backend do not support efficient float16 computation. The model weights '
                    'have been automatically converted to use the float32 compute type instead.`'),
        'observed': 'Then inference runs on CPU only.',
        'gpu': 'The GPU is properly detected by PyTorch (`torch.cuda.is_available() = True`).',
        'maintainer': ['Models are loaded on the CPU by default. You should configure the device:',
                       'generator = ctranslate2.Generator("gptj_ct2", device="cuda")'],
        'reporter': 'Thank you @guillaumekln it worked 👍🏻',
    },
    log=['[ctranslate2] [thread 144] [warning] The compute type inferred from the saved model is float16, but the '
         'target device or backend do not support efficient float16 computation. The model weights have been '
         'automatically converted to use the float32 compute type instead.'],
    engine_args=None,
    args_model='EleutherAI/gpt-j-6B',
    args_gpu='Tesla T4',
    notes=('the log line is the CTranslate2 warning the reporter quoted (backticks dropped); the Generator is built in '
           'Python, so there are no engine flags; "inference runs on CPU only" is the reporter\'s observation and is '
           'passed only as the case\'s other symptom (no --symptom)'),
    leak=("The maintainer's answer (models load on the CPU by default; pass device=\"cuda\") and the reporter's "
          "confirmation are left out; the Python line that builds the generator without a device is not an input."),
    hard=None))

I.append(dict(
    src='https://github.com/dusty-nv/jetson-containers/issues/532', thread_type='issue',
    engine='MLC-LLM (jetson-containers mlc image, benchmark per the MLC guide)', engine_version='May 2024',
    gpu='Jetson AGX Orin 32GB', model='Llama2-7b (MLC)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The published numbers were measured on an AGX Orin 64GB in the MAX-N power mode; the reporter\'s board '
                'ran in a lower power mode, so decode was about 19 tokens/s instead of 47 (the smaller 32GB variant '
                'accounts for only part of the gap).'),
    fix='Switch the Jetson to the MAX-N power mode (nvpmodel) before benchmarking.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Cannot Reproduce the Published Benchmarking Result on Jetson AI Lab Webpage',
        'desc': "I'm having a hard time matching the reported numbers. I get 3-4x lower performance.",
        'numbers': ['For Llama2-7b, I get ~19 tokens/sec (versus 47).', 'For Gemma, I get ~23 tokens/sec (versus 75).'],
        'variant': ('I have an AGX Orin 32GB, so partially these lower numbers might be related to the lower memory and '
                    'TOPS difference of the two AGX variants (~1.4x). However, I don\'t think this is the main reason.'),
        'maintainer': ('Hi Ramyad, this was with AGX Orin 64GB in MAX-N power mode.  Other folks typically have to '
                       'change to this power mode (u'),
    },
    observe={'output_tokens_per_s': (19, 'I get ~19 tokens/sec'),
             'expected_output_tokens_per_s': (47, '(versus 47)')},
    engine_args=None,
    args_model='Llama2-7b',
    args_gpu='Jetson AGX Orin 32GB',
    notes=('output_tokens_per_s is the reporter\'s Llama2-7b decode rate and expected_output_tokens_per_s the published '
           'one; no launch flags are given (the MLC guide was followed); the low decode rate is passed as tpot_high'),
    leak=("The maintainer's answer (the benchmark ran on a 64GB board in MAX-N power mode; others have to switch to it) "
          "is left out."),
    hard='The power mode of the board is not in the inputs; only the device name and the two rates are.'))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/oobabooga/textgen/issues/4453', thread_type='issue',
    engine='text-generation-webui OpenAI-compatible API extension (used by AutoGen)', engine_version='Nov 2023',
    gpu=None, model=None,
    symptom='other', layer='numeric_parameter',
    root_cause=('The OpenAI API extension of this text-generation-webui version did not take the truncation length from '
                'the loaded model: it used the hard-coded default of 2048, so requests a little over 2048 tokens were '
                'rejected although the model has a longer context (fixed by PR #4430).'),
    fix='Update to the version with PR #4430 (truncation_length follows the model\'s context in the OpenAI API).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Truncation Length Causing Issues With API',
        'desc': ('The truncation length is hard coded to be context of 2048. However, a model could have context of '
                 'more. This should be dynamically decided based on the context length provided in the web ui. '),
        'error': ('Most using Autogen get the error "openai.error.InvalidRequestError: This model\'s maximum context '
                  'length is 2048 tokens. However, your messages resulted in over 2061 tokens." which stems from the '
                  'line above.'),
        'other_user': ('That is updated from model metadata and can be set via the API. In silly tavern it\'s working '
                       'fine. You can also manually change it in the textgen interface and it will apply to the API.'),
        'maintainer': ['This is a known issue that will be fixed once '
                       'https://github.com/oobabooga/text-generation-webui/pull/4430 gets merged.',
                       '@Ph0rk0z the problem happens with the openai API.',
                       'I think that it should be fixed now. @rbur0425 could you verify?'],
    },
    log=["openai.error.InvalidRequestError: This model's maximum context length is 2048 tokens. However, your messages "
         "resulted in over 2061 tokens."],
    observe={'input_len_mean': (2061, 'over 2061 tokens')},
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log line is the client-side error AutoGen users got (quoted in the report); input_len_mean is the '
           'rejected request size; the model, GPU and launch flags are not given; a rejected request is passed as '
           'other (no --symptom)'),
    leak=("The title and the description (the truncation length is hard coded to 2048), the trailing \"which stems from "
          "the line above\" and the maintainer's answer (a known issue of the OpenAI API, fixed by PR #4430) are left "
          "out."),
    hard='That the served model has a longer context than the 2048 the API enforces is not in the inputs.'))

I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/800', thread_type='issue',
    engine='llama-cpp-python chat completion (chat-format handling)', engine_version='0.2.9 (0.2.11 also)',
    gpu=None, model='vicuna 7b',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The configurable chat formats introduced between 0.2.7 and 0.2.9 (#711) broke the BOS/EOS/system '
                'handling of chat sequences: the first call returned the prompt itself and later turns leaked '
                '[INST] <<SYS>> markers into the answers; 0.2.7 behaves correctly.'),
    fix='Pin llama-cpp-python 0.2.7 (or a release with the chat-format token handling fixed).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '0.2.9 broke the bos/eos/sys handling for chat sequences',
        'desc': 'recent changes (0.2.7 -> 0.2.9.) to the chat framework broke things (this is vicuna 7b)',
        'first': ['first call always returns the prompt:', '[INST] <<SYS>> You are a helpful assistant. <|endoftext|>'],
        'second': ['second call works:', ('Once upon a time in a faraway land, there lived a silly frog named Freddy who '
                                          'loved to hop around on lily pads and croak loudly.')],
        'third': ['third and continuing calls get odder, and show the bos tokens, etc:', '[INST] <<SYS>>',
                  'You are a helpful assistant.', '<</SYS>>',
                  'The silly frog hops around on the lily pad, croaking loudly.'],
        'bisect': ['trying different versions.', '**0.2.7** fixes it', '**0.2.9** breaks it', '**0.2.11** still broken',
                   'its a token handling issue.   gonna try to figure out what broke between 0.2.7 and 0.2.9',
                   'looks like it was this:', '"+- Add configurable chat formats by @abetlen in #711"'],
        'later': ('easy to reproduce, just specify a longer chat conversation.   at least 3 user and 2 assistant '
                  'messages result in weird results'),
    },
    outputs=[('first', 1), ('third', 1), ('third', 3), ('third', 4)],
    engine_args=None,
    args_model='vicuna 7b',
    args_gpu=None,
    notes=('the output lines are the responses the reporter pasted (the first call echoing the prompt, a later call '
           'starting with the [INST] <<SYS>> block); the library version is not an input; no GPU or flags are given'),
    leak=("The title and description (0.2.9 broke it; changes from 0.2.7 to 0.2.9), the reporter's version bisect and "
          "the suspected PR #711 are left out."),
    hard=None))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/mudler/LocalAI/pull/10868', thread_type='pr',
    engine='LocalAI (model loader in front of a gRPC backend serving large NVFP4/FP8 models)', engine_version='Jul 2026',
    gpu=None, model='large NVFP4 / FP8 model (unnamed)',
    symptom='other', layer='gateway_client',
    root_cause=('LocalAI\'s readiness handshake with a freshly spawned backend polls health only grpc.attempts (20) x '
                'grpc.attempts_sleep_time (2 s), about 40 s; a large NVFP4/FP8 model still loading shards (or capturing '
                'CUDA graphs) after that window is killed (exitCode=120, context canceled), which looks like a backend '
                'crash.'),
    fix='Raise grpc.attempts / grpc.attempts_sleep_time in the model config so the readiness window covers the load time.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'docs(config): document grpc.attempts timing + tuning guidance',
        'defaults': ('It doesn\'t say what the defaults are (they\'re `20` and `2` in `pkg/model/loader_options.go`), '
                     'what timing behavior they produce end-to-end, or when a user should touch them.'),
        'why': ('In practice the default `20 × 2 s ≈ 40 s` window is too tight for large NVFP4 / FP8 models on slow '
                'storage or first-run CUDA-graph capture. The resulting kill shows up in the LocalAI log as '
                '`exitCode=120` plus `rpc error: code = Canceled desc = context canceled` — which reads like a backend '
                'crash even though the backend\'s own stderr shows continued forward progress (e.g. '
                '`Multi-thread loading shards: 3/10 [01:22<03:43]`). Without knowing the timing math, users spend time '
                'chasing the wrong root cause (I did, before I traced it back to `pkg/model/initializers.go:145-160`).'),
    },
    log=['exitCode=120', 'rpc error: code = Canceled desc = context canceled',
         'Multi-thread loading shards: 3/10 [01:22<03:43]'],
    engine_args=None,
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the three log fragments the PR author quotes from their own incident (LocalAI\'s exit '
           'code and gRPC error, the backend\'s shard-loading progress); no model, GPU or flags are named; the failed '
           'model load is passed as other (no --symptom)'),
    leak=("The PR's title (grpc.attempts), its explanation of the default 20 x 2 s ~ 40 s readiness window and the "
          "author's trace to initializers.go are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/ray-project/ray/issues/54070', thread_type='issue',
    engine='Ray Serve LLM (LLMServer.as_deployment) with the vLLM V0 engine', engine_version='Jun 2025',
    gpu=None, model='Qwen3-32B',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Ray Serve\'s controller marks a replica unhealthy when its health check does not answer within the '
                'default 10 s (DEFAULT_HEALTH_CHECK_TIMEOUT_S); a spike of 1280 requests kept the vLLM engine busy '
                'long enough to miss the check, so healthy replicas were restarted about every half hour.'),
    fix='Raise HEALTH_CHECK_TIMEOUT_S for the deployment (600 s resolved it).',
    confidence='confirmed_by_reporter',
    evidence={
        'desc': ('When serving a LLM (Qwen3-32B) using `LLMServer.as_deployment`, we noticed some health check timeout '
                 'causing replica(s) to restart from time to time (around every half hour). No error message was thrown '
                 'in the logs. When serving the model using vLLM serve with the same configs it worked without any '
                 'issue (we were using vLLM v0 engine).'),
        'config': ['deployment_config:', 'num_replicas: 2', 'engine_kwargs:', 'tensor_parallel_size: 4',
                   'dtype: bfloat16', 'enforce_eager: True', 'gpu_memory_utilization: 0.8', 'max_model_len: 32768',
                   'enable_prefix_caching: True'],
        'log': ["1758 -- Didn't receive health check response for replica Replica(id='rut1591v', "
                "deployment='vLLM:Qwen--Qwen3-32B', app='RayServeApp') after 10.0s, marking it unhealthy.",
                '(_EngineBackgroundProcess pid=194388) INFO 06-25 04:39:52 [metrics.py:486] Avg prompt throughput: '
                '27408.8 tokens/s, Avg generation throughput: 4.9 tokens/s, Running: 49 reqs, Swapped: 0 reqs, '
                'Pending: 951 reqs, GPU KV cache usage: 16.8%, CPU KV cache usage: 0.0%. [repeated 2x across cluster]',
                '(_EngineBackgroundProcess pid=194388) INFO 06-25 04:39:52 [metrics.py:502] Prefix cache hit rate: '
                'GPU: 12.55%, CPU: 0.00% [repeated 2x across cluster]'],
        'root_cause_reporter': ('btw with some digging, we also found the root cause of this issue. The vLLM engine '
                                'didn\'t crash in this case, instead, seems like it was blocked by spiky incoming '
                                'requests (we got 1280 requests at once) and it wasn\'t able to response the '
                                'health_check signal within the default 10s timeout configured in '
                                '`DEFAULT_HEALTH_CHECK_TIMEOUT_S`.'),
        'fix_reporter': 'Once changing `HEALTH_CHECK_TIMEOUT_S` to 600s for the deployment it resolved the issue.',
        'maintainer': 'Nice @mark-myzhao, thanks for sharing the root cause and workaround!',
    },
    log=[('log', 0), ('log', 1), ('log', 2)],
    engine_args=('--tensor-parallel-size 4 --dtype bfloat16 --enforce-eager --gpu-memory-utilization 0.8 '
                 '--max-model-len 32768 --enable-prefix-caching'),
    observe={'running': (49, 'Running: 49 reqs'), 'waiting': (951, 'Pending: 951 reqs'),
             'kv_usage': (0.168, 'GPU KV cache usage: 16.8%'),
             'prefix_cache_hit_rate': (0.1255, 'Prefix cache hit rate: GPU: 12.55%')},
    args_model='Qwen3-32B',
    args_gpu=None,
    notes=('the log lines are the Ray Serve controller line and the two vLLM metrics lines the reporter pasted; '
           'engine_args are rebuilt as vLLM flags from the engine_kwargs of the Ray Serve config; observe values are '
           'read from the metrics line (% -> fraction); the replica restarts are passed as timeout_or_stream_break'),
    leak=("The reporter's root cause (a 1280-request spike kept the engine from answering the default 10 s health check) "
          "and fix (HEALTH_CHECK_TIMEOUT_S=600) and the maintainer's acknowledgement are left out; the title mentions "
          "high incoming traffic and is left out too."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261227, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
