#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh18: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh16; this file follows incidents_fresh16/build.py).
Every evidence string below was copied verbatim from the thread text returned by the
search tool (JSON escapes decoded; leading indentation, list bullets/numbers dropped; a few long lines cut to a
verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can verify they are
verbatim substrings of it. This batch concentrates on the local-inference stacks (llama.cpp, Ollama, llama-cpp-python,
koboldcpp, LM Studio, LocalAI, MLX) and the apps in front of them, in any layer.

Usage: python3 build.py   (then python3 check.py)
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_build  # noqa: E402  (writes cases/ and incidents.jsonl: the sets' shared tail)

# One dict per incident; keys as in incidents_fresh16/build.py:
#   src, thread_type, engine, engine_version, gpu, model, symptom, layer, root_cause, fix, confidence,
#   evidence {name: verbatim string or list}, log/outputs [(key, idx|None) or literal verbatim string],
#   engine_args, args_model, args_gpu, observe {VOCAB name: (value, snippet in evidence)},
#   notes (input_notes), leak (leak_check), hard (reason string or None)
I = []

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://github.com/unslothai/unsloth/pull/4588', thread_type='pr',
    engine='llama-server launched by Unsloth Studio (GGUF inference orchestrator)', engine_version='Mar 2026',
    gpu=None, model='any GGUF model (e.g. Qwen3.5-4B)',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('When the model fits on the selected GPU the orchestrator only sets CUDA_VISIBLE_DEVICES and never passes '
                '-ngl (nor --fit on), so llama-server keeps its default of 0 GPU layers and runs the whole model on the '
                'CPU: near-zero GPU memory, 0% GPU utilisation, 10+ GB of system RAM for a 2.7 GB model.'),
    fix='Pass -ngl -1 (offload all layers) when the model fits on the selected GPU(s).',
    confidence='maintainer_explained',
    evidence={
        'title': 'fix(studio): add -ngl flag for GPU offloading in llama-server',
        'summary': ('When `_select_gpus` in `llama_cpp.py` determines a GGUF model fits on the selected GPU(s), the '
                    'orchestrator sets `CUDA_VISIBLE_DEVICES` but never passes `-ngl` (number of GPU layers) to '
                    '`llama-server`. Without either `-ngl` or `--fit on`, llama-server defaults to **0 GPU layers** and '
                    'runs the entire model on CPU.'),
        'observed': ('This is observable on any machine with a GPU -- `nvidia-smi` shows near-zero GPU memory usage and 0% '
                     'utilization while the llama-server process consumes 10+ GB of system RAM for a 2.7 GB model.'),
        'fix': 'cmd.extend(["-ngl", "-1"])',
        'repro': 'Load any GGUF model (e.g. Qwen3.5-4B) in th',
    },
    observe={'gpu_util': (0.0, '0% utilization')},
    args_model=None,
    args_gpu=None,
    notes=('the only machine-usable input is the GPU utilisation from nvidia-smi (0% -> 0.0); the llama-server command '
           'line is not shown, so no engine_args are passed; no GPU name is given and the model is only an example; '
           'generation running on the CPU is passed as tpot_high'),
    leak=("The PR's title and summary (-ngl never passed, 0 GPU layers by default) and the fix are left out; the "
          "system-RAM observation is left out because it sits in the same sentence as the diagnosis."),
    hard=('Only 0% GPU utilisation is in the inputs; the launch command without -ngl and the CPU-resident model are '
          'not.')))

I.append(dict(
    src='https://github.com/LostRuins/koboldcpp/issues/520', thread_type='issue',
    engine='koboldcpp (GUI launcher, ContextShift enabled)', engine_version='Nov 2023', gpu=None,
    model='wizardLM-7B.ggmlv3.q4_1.bin',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('ContextShift (reusing and shifting the KV cache between turns) only works with GGUF models; with an old '
                'GGML v3 file the cache is not reused, so every "generate more" reprocesses the whole 1480-token prompt.'),
    fix='Use a GGUF model so ContextShift can reuse the KV cache.',
    confidence='maintainer_explained',
    evidence={
        'title': 'What requirements are there for ContextShift/ContextShift not working',
        'desc': ("I've downloaded the newest koboldcpp version, launched the GUI, selected ContextShift (and deselectet "
                 "SmartContext to be sure) and let it load."),
        'log': ['Processing Prompt [BLAS] (1480 / 1480 tokens)', 'Generating (120 / 120 tokens)'],
        'repeat': ('But than I let it generate some more and again it did the BLAS-Processing of the whole 1480 tokens '
                   'every time I hit the "Generate some more"-button.'),
        'model': "Does it only work with certain models (I'm currently using wizardLM-7B.ggmlv3.q4_1.bin)?",
        'maintainer': 'Your model is too old. This only works with GGUF models. Try using a newer one.',
    },
    log=[('log', 0), ('log', 1)],
    observe={'input_len_mean': (1480, '(1480 / 1480 tokens)')},
    args_model='wizardLM-7B.ggmlv3.q4_1.bin',
    args_gpu=None,
    notes=('the log lines are the koboldcpp console lines quoted by the reporter (they repeat on every generation); '
           'input_len_mean is the reprocessed prompt length; ContextShift was selected in the GUI, so no flags are passed; '
           'the full reprocessing before each reply is passed as ttft_spike'),
    leak="The maintainer's answer (the model is too old; ContextShift only works with GGUF models) is left out.",
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/mudler/LocalAI/issues/88', thread_type='issue',
    engine='LocalAI (docker image quay.io/go-skynet/local-ai, llama.cpp backend)', engine_version='May 2023',
    gpu=None, model=None,
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('The server runs with --threads 8 on a 4-vCPU instance (AWS t3a.xlarge); overbooking the CPU threads beyond '
                'the physical cores makes CPU inference ultra slow.'),
    fix='Set the thread count to the number of physical cores (4 or fewer on this instance).',
    confidence='maintainer_explained',
    evidence={
        'report': ('i am running the latest docker image quay.io/go-skynet/local-ai as of 3rd May , and i can confirm that '
                   'response from API is coming, however its ultra slow. This is on AWS t3a.xlarge instance type (4vcpu , '
                   '16gMemory, AVX, AVX2 support) Amazon Linux , running with `--threads 8``'),
        'maintainer_earlier': ('the issue with @LarsBingBong was resolved over discord and was threads overbooking.  lowering '
                               'the number of threads to physical cores was the issue in his case - can you try specifying '
                               'a lower number of threads?'),
        'maintainer': 'I think the real problem here is that you have a 4vcpu, so you sho',
    },
    engine_args='--threads 8',
    args_model=None,
    args_gpu=None,
    notes=('engine_args is rebuilt from the report ("running with `--threads 8`"); CPU-only, no GPU or model named; the '
           'ultra slow responses are passed as tpot_high'),
    leak=("The maintainer's replies (threads overbooking; a 4-vCPU machine should use fewer threads) are left out; the "
          "instance type and its 4 vCPUs are not in the inputs."),
    hard='The thread flag is in the inputs but the 4-vCPU host it overbooks is not.'))

I.append(dict(
    src='https://github.com/LostRuins/koboldcpp/issues/1180', thread_type='issue',
    engine='koboldcpp (Windows, CUDA) behind SillyTavern', engine_version='Release 1.76',
    gpu='NVIDIA GeForce RTX 3050 6GB Laptop GPU', model='8B model (unnamed)',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('On a 12th-gen Intel hybrid CPU, Windows schedules the koboldcpp process onto the slow efficiency (E) cores '
                'when its window is minimised or in the background, so token generation slows down until the window is '
                'brought to the front.'),
    fix='Keep the process on performance cores (high priority / foreground, or affinity to P-cores).',
    confidence='maintainer_explained',
    evidence={
        'title': 'koboldcpp slows down when the program minimized or run on the background.',
        'desc': ('But when it comes into the generation phase, it always slows down with an exception if I opened my '
                 'koboldcpp window, it goes normal again until I minimized it or moved back to my browser.'),
        'settings': ('I usually run koboldcpp by disabling mmap, keep foreground, and runs with 8192 tokens for context size '
                     '(w/ Context Shift).'),
        'system': ['Processor: 12th Gen Intel(R) Core(TM) i5-12450H (12 CPUs), ~2.0GHz',
                   'Card name: NVIDIA GeForce RTX 3050 6GB Laptop GPU', 'koboldcpp Version: Release 1.76'],
        'maintainer': ('This is caused by poor efficiency core scheduling on Intel 12th gen and above CPUs, your PC is '
                       'assigning KoboldCpp lousy "E" cores by mistake.'),
    },
    log=[('system', 0), ('system', 1)],
    engine_args='--nommap --foreground --contextsize 8192',
    args_model=None,
    args_gpu='RTX 3050 6GB Laptop',
    notes=('the log lines are the system-information lines the reporter pasted; engine_args is rebuilt from the prose '
           '("disabling mmap, keep foreground, ... 8192 tokens for context size"); the slowdown while minimised is passed '
           'as tpot_high'),
    leak=("The maintainer's explanation (E-core scheduling on Intel 12th gen) is left out; that the slowdown only happens "
          "while the window is minimised or in the background is in the title/description and is not in the inputs."),
    hard='The minimised-window trigger and the hybrid-core scheduling are not in the inputs; only the CPU model line is.'))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/nirecom/cc-local-llm/issues/49', thread_type='issue',
    engine='mlx_lm.server behind llama-swap (model-swap proxy) and LiteLLM, Claude Code multi-agent client',
    engine_version='Aug 2026', gpu='Apple M5 Max, 128 GB unified memory', model='Laguna S 2.1',
    symptom='other', layer='gateway_client',
    root_cause=('The proxy config entry for laguna-s-2.1 had no concurrencyLimit, so llama-swap enforced its internal '
                'default of 10 parallel requests; Claude Code\'s multi-agent fan-out exceeded it and every request beyond '
                'the 10th was rejected with 429 Too Many Requests.'),
    fix='Set concurrencyLimit for the model in llama-swap/config.yaml (4, sized with a prompt-cache byte cap).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "Laguna S 2.1: 429 (concurrencyLimit) + mlx_lm.server memory growth to Metal's ~116GB wired ceiling",
        'cause_429': ("**429 Too Many Requests** — `llama-sw/config.yaml`'s `laguna-s-2.1` entry had no `concurrencyLimit` "
                      "set, so llama-sw enforced its internal default of 10 parallel requests. Claude Code's multi-agent "
                      "fan-out (Agent/Workflow tools) exceeded that, and requests beyond the 10th were rejected with "
                      "`litellm.RateLimitError: ... Too many requests`."),
        'cause_memory': ("**Python (mlx_lm.server, PID 13405) consuming ~116GB RSS** — `mlx_lm/server.py` calls "
                         "`mx.set_wired_limit(mx.device_info()[\"max_recommended_working_set_size\"])` at startup, which "
                         "on this M5 Max / 128GB Mac equals `115,448,725,504` bytes (~116.0GB, matching Activity Monitor "
                         "exactly)."),
    },
    log=['litellm.RateLimitError: ... Too many requests'],
    args_model=None,
    args_gpu=None,
    notes=('the log line is the client error quoted in the incident record (elided with "..." in the source); the issue '
           'records two independent problems and this case is the 429 one; the memory-growth half is left out; the '
           'model name and the Mac are not passed because the 429 does not depend on them'),
    leak=("The incident record's cause sections (no concurrencyLimit, llama-swap's default of 10, the multi-agent fan-out), "
          "the title naming concurrencyLimit and the second (memory) problem are left out."),
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/ollama/ollama/issues/2861', thread_type='issue',
    engine='Ollama /api/chat (curl client)', engine_version='0.1.2x', gpu=None, model='gemma:7b-instruct-fp16',
    symptom='output_quality', layer='load',
    root_cause=('The request body used the field "message" instead of "messages", so /api/chat received no messages and '
                'always returned an empty assistant content.'),
    fix='Send the conversation in the "messages" field.',
    confidence='maintainer_explained',
    evidence={
        'title': 'use the `/api/chat` API,always response empty content',
        'request': '"message": [',
        'response': '"content": ""',
        'maintainer_first': ('What type of system do you have? Also can you post the server logs? That particular model is '
                             'pretty sizeable so requires a beefy system.'),
        'maintainer': "I just realized it was because you used `message` vs. `messages`. Try:",
        'other_user': 'Yay! message vs messages got me! Now my first ollama scripting adventure is well',
    },
    outputs=[('response', None)],
    args_model='gemma:7b-instruct-fp16',
    args_gpu=None,
    notes=('the output line is the response field the API always returned; the curl request body (with the misspelled '
           'field) is not an engine input and is left out; no log or GPU is given'),
    leak=("The maintainer's finding (`message` vs `messages`) and the request body that shows the misspelled field are "
          "left out."),
    hard='The misspelled request field is only visible in the request body, which is not in the inputs.'))

I.append(dict(
    src='https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/546', thread_type='issue',
    engine='LM Studio OpenAI-compatible server', engine_version='LM Studio 0.3.13 (build 2)', gpu=None, model=None,
    symptom='other', layer='load',
    root_cause=('A chat completion request of 111,490 tokens was sent to a model loaded with its maximum context of 32,768 '
                'tokens; the input cannot fit, so the server rejects it instead of truncating.'),
    fix='Send a shorter input (or chunk/summarise it); the context is already at the model\'s maximum.',
    confidence='plausible',
    evidence={
        'title': 'Error when first message is longer than model context',
        'desc': ('When attempting to run a chat completion request on an input text exceeding 32768 tokens, the API fails '
                 'instead of truncating or returning an appropriate error message.'),
        'log': ('Trying to keep the first 111490 tokens when context the overflows. However, the model is loaded with '
                'context length of only 32768 tokens, which is not enough. Try to load the model with a larger context '
                'length, or provide a shorter input. Error Data: n/a, Additional Data: n/a'),
        'steps': 'Set `num_ctx` in model configuration to maximum supported value (e.g., 32768).',
        'workaround': ('As a workaround, you can specify the default parameters of the models (it took me some time to find '
                       'this out). The parameters are located in the LM Studio UI, under the list of models.'),
    },
    log=[('log', None)],
    observe={'input_len_mean': (111490, 'the first 111490 tokens')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the [ERROR] line of the LM Studio server log; input_len_mean is the token count it reports; '
           'the context was set to the model\'s maximum (32768) in the model configuration, not by a flag; no model or GPU '
           'is named'),
    leak="The other users' workaround is left out.",
    hard=None))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/abetlen/llama-cpp-python/issues/1603', thread_type='issue',
    engine='llama-cpp-python (Llama.create_completion)', engine_version='Jul 2024', gpu=None,
    model='Open-Orca_Mistral-7B-OpenOrca',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The raw completion prompt was not in the prompt format the fine-tuned model expects, so the model only '
                'returned a newline; formatting the prompt as the model\'s user/bot turns gives a real answer.'),
    fix="Format the prompt in the model's expected turn format (or use create_chat_completion with its chat template).",
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'create_completion does return "\\n”',
        'desc': ('I loaded the model "Open-Orca_Mistral-7B-OpenOrca" and want to invoke a response with the '
                 'create_completion method of the Llama class, but i only get a "\\n" as response. I create the model with '
                 'n_ctx=512 and standard args. What do i have to do to get a response from the model? Thanks for your help'),
        'resolution': ('Ok i find out that i have to format the prompt like this:'),
        'resolution_prompt': 'prompt="\'user\':\'My question\'\\n\'bot\':\'\'"',
        'resolution_why': ('So the bot expects this message format and do not know what to do if i harm the format.'),
    },
    outputs=['"\\n"'],
    engine_args=None,
    args_model='Open-Orca_Mistral-7B-OpenOrca',
    args_gpu=None,
    notes=('the output line is the response the reporter got (a lone "\\n", written as in the issue); n_ctx=512 is a '
           'Python argument and is not passed as a flag; no GPU is named'),
    leak="The reporter's finding (the prompt must be formatted in the model's user/bot format) is left out.",
    hard='The unformatted prompt itself is not in the inputs; only the one-newline response is.'))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261218, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
