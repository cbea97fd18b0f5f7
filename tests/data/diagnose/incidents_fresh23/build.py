#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh23: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh21; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the page text returned by the search tool (JSON escapes
decoded; leading indentation, list bullets/numbers and markdown emphasis markers at line starts dropped; a few long
lines cut to a verbatim prefix/substring). Log lines and output samples are taken from the evidence, so check.py can
verify they are verbatim substrings of it. Unlike every earlier set, this batch was drawn mostly from places other than
GitHub issue threads -- blog posts that debug a concrete problem, a Reddit post (as reposted by a news aggregator) and
a vendor forum thread, found with the search tool's "pages" corpus -- with three GitHub issues as the fallback. It
concentrates on the local-inference stacks (llama.cpp / llama-server, Ollama, LM Studio quants, GPT4All, MLX, Open
WebUI in front of Ollama, Apple's on-device model), in any layer.

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

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://baa.ai/articles/04-mlx-quantization-pitfalls.html', thread_type='blog',
    engine='MLX / mlx-lm (quantize, then post-process safetensors shards with mx.load / mx.save_safetensors)',
    engine_version='Feb 2026', gpu='Apple Mac Studio, 512 GB unified memory', model='Qwen3.5-397B (MoE, MLX-quantized)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('The post-processing step loaded each quantized safetensors shard with mx.load, changed the gate weights '
                'and wrote it back with mx.save_safetensors, which corrupts bfloat16 data; the corrupted weights made the '
                'model collapse into repeated punctuation. The same model without the post-processing step worked.'),
    fix='Do not round-trip bfloat16 shards through mx.save_safetensors (write them with a writer that preserves bf16).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Bug 1: mx.save_safetensors Corrupts bfloat16 Data',
        'intro': ('We quantized 400B+ parameter MoE models on a 512 GB Mac Studio using MLX. Along the way, we found a data '
                  'corruption bug, a dtype footgun, and a GPU timeout trap.'),
        'symptom': ('After quantizing Qwen3.5-397B and post-processing the gate weights (setting pruned expert rows to '
                    '-1e9), the model produced garbage output:'),
        'output': ['User: What is 2+2?', 'Model: !!!!!!!!!!!!!!!!!!!!'],
        'collapse': ('The model had collapsed completely. Every response was either random tokens or repeated '
                     'punctuation.'),
        'ruled_out': ['Verified gate masking was correct (5,562 experts masked, correct layer assignments) ✓',
                      'Verified quantization config had correct per-module overrides (351 overrides) ✓',
                      'Reconverted with bfloat16 instead of float16 — still collapsed ✗'],
        'breakthrough': ('The breakthrough came from testing without post-processing: we converted the model, skipped the '
                         'gate weight masking step entirely, and the model worked perfectly. 15/15 collapse tests '
                         'passed.'),
        'root_cause': ('The post-processing code was loading each safetensors shard with mx.load, modifying the gate '
                       'weights, and saving with mx.save_safetensors:'),
        'code': ['# THIS CORRUPTS DATA:', 'tensors = mx.load(str(shard_file))',
                 'tensors[gate_key][expert_idx, :] = mx.array(-1e9)'],
    },
    outputs=[('output', 1)],
    args_model='Qwen3.5-397B MLX quantized',
    args_gpu='Apple Mac Studio 512 GB',
    notes=('the output line is the model answer to "What is 2+2?" quoted in the article (a verbatim prefix: the article shows a longer run of "!"); no engine flags or logs are '
           'given; the model is passed as the article names it'),
    leak=("The article's title and root-cause section (mx.save_safetensors corrupts bfloat16), the post-processing code "
          "and the breakthrough (the unprocessed conversion works) are left out."),
    hard=('Only the collapsed output is in the inputs; the post-processing round trip through mx.save_safetensors that '
          'corrupted the bf16 weights is not.')))

I.append(dict(
    src='https://jangwook.net/en/blog/en/local-llm-reasoning-mode-token-cost-experiment/', thread_type='blog',
    engine='Ollama /api/chat (Python client, stream false)', engine_version='2026', gpu=None,
    model='gemma4:12b-it-qat',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('gemma4:12b is a reasoning model: with thinking on, the reply has a separate thinking field, and the '
                'num_predict budget was so low that it was used up entirely in the reasoning channel, leaving no token '
                'for the answer, so content came back empty while eval_count rose.'),
    fix='Raise num_predict well above the thinking length (or turn thinking off with think:false for such calls).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Does a Local Reasoning Model Earn Its Keep? Measuring thinking ON/OFF on gemma4:12b',
        'earlier': ('Last month, in my post measuring output reproducibility with temperature and seed, I confidently '
                    'wrote one paragraph that was wrong. I saw gemma4:12b-it-qat return a rising eval_count while content '
                    'came back as an empty string, declared it “a packaging problem where tokens don’t map to visible '
                    'text,” and dropped the model from my determinism table.'),
        'diagnosis': ('That wasn’t it. While prepping a different experiment this week I hit the same empty reply, and '
                      'this time I read the response JSON to the end. Inside message, alongside content, was another '
                      'field: thinking. gemma4:12b is a reasoning model. The empty reply wasn’t a bug. I had set '
                      'num_predict too low, so the generation budget drained entirely into the reasoning channel and not '
                      'a single token was left for the answer. I had misdiagnosed the whole thing.'),
        'request_code': ['def chat(msg, think, num_predict=512):', '"model": "gemma4:12b-it-qat",',
                         '"options": {"temperature": 0, "seed": 7,', '"num_ctx": 2048, "num_predict": num_predict},'],
    },
    engine_args='num_ctx 2048 num_predict 512',
    args_model='gemma4:12b-it-qat',
    args_gpu=None,
    notes=('engine_args is rebuilt from the request options in the reporter\'s harness ("num_ctx": 2048, num_predict '
           'default 512); the think flag the harness toggles is not passed; the empty content with a rising eval_count '
           'is passed as output_quality (no verbatim output sample exists); no GPU is named'),
    leak=("The reporter's diagnosis (a thinking field next to content; num_predict too low, so the budget drained into "
          "the reasoning channel) and the experiment's title about thinking ON/OFF are left out."),
    hard=None))

I.append(dict(
    src='https://lilting.ch/en/articles/qwen35-ctx-kv-cache-vulkan-optimization', thread_type='blog',
    engine='llama-server (llama.cpp Vulkan) called as an API from a VPS over Tailscale', engine_version='b8183',
    gpu='AMD Radeon 8060S (Ryzen AI Max+ 395, 64GB unified memory)', model='Qwen3.5-35B-A3B Q6_K',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('llama-server was left at its default ctx-size of 4096 while the client sends the full conversation log '
                'with every request; mid-conversation the prompt overflows the 4096-token context and the answers go off '
                'the rails.'),
    fix='Raise --ctx-size (65K cost only ~800 MB extra VRAM on this hybrid SSM/attention model).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Scaling Qwen3.5-35B-A3B from 4K to 65K Context with Only 800MB Extra VRAM',
        'background': ('In the previous article, I got Qwen3.5-35B-A3B running on llama-server + Vulkan. It hit 53 t/s '
                       'with Q6_K, which was perfectly usable, but since I was just testing things out, I left ctx-size '
                       'at the default 4096.'),
        'problem': ('I’ve been running this model as an API, accessed from a VPS over Tailscale. Full conversation logs '
                    'get sent with each request, so at ctx-size 4096, the context overflows mid-conversation and '
                    'responses start going off the rails.'),
        'setup': ['| GPU | Radeon 8060S (RDNA 4 / gfx1151) |',
                  '| Memory | 64GB unified memory (BIOS: 32GB VRAM / 32GB system) |',
                  '| llama.cpp | b8183 Vulkan + --no-mmap |', '| Model | Qwen3.5-35B-A3B Q6_K (26.55 GiB) |'],
    },
    engine_args='--no-mmap',
    observe={'output_tokens_per_s': (53, 'It hit 53 t/s')},
    args_model='Qwen3.5-35B-A3B Q6_K',
    args_gpu='AMD Radeon 8060S (gfx1151)',
    notes=('engine_args is the only flag the setup table names ("b8183 Vulkan + --no-mmap"); no --ctx-size was passed, '
           'so the server ran at its default; output_tokens_per_s is the generation speed the author measured; the '
           'answers going off the rails mid-conversation are passed as output_quality'),
    leak=("The author's explanation (ctx-size left at the default 4096; full conversation logs sent with each request "
          "overflow it) and the title naming the 4K -> 65K change are left out."),
    hard=('No context size and no prompt length are in the inputs; only the absence of --ctx-size on the command line '
          'points at the 4096-token default.')))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://ai-navigate-news.com/en/articles/3b965a43-d3be-4fd7-8d86-b1b73e10725f', thread_type='forum',
    engine='llama.cpp mainline (llama-server, CUDA) for agentic coding', engine_version='b8457',
    gpu='NVIDIA RTX PRO 4000 Blackwell 24GB', model='Qwen 3.5 27B Q4_K_M',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Mainline llama.cpp (b8457) split Qwen 3.5\'s hybrid Gated Delta Network / SSM layers across 34 graph '
                'nodes with the CPU doing much of the work (all threads pegged, GPU only partly used), so prompt '
                'evaluation ran at ~43 tok/s and generation at ~7.5 tok/s; the ik_llama.cpp fork\'s fused GDN CUDA '
                'kernels keep the whole computation on the GPU (2 graph splits).'),
    fix='Use a build with fused Gated Delta Net CUDA kernels (here the ik_llama.cpp fork: 1,122 tok/s prefill, 26 tok/s).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'ik_llama.cpp gives 26x faster prompt processing on Qwen 3.5 27B — real world numbers',
        'origin': 'Reddit r/LocalLLaMA / 3/22/2026',
        'report': ('I\'ve been running Qwen 3.5 27B Q4_K_M on a Blackwell RTX PRO 4000 (24GB) for agentic coding work '
                   'and hit a wall with mainline llama.cpp. Switched to the ik_llama.cpp fork today and the difference '
                   'is staggering. Posting real numbers in case it helps others.'),
        'hardware': ('Hardware Lenovo ThinkStation P520, Xeon W-2295 18-core, 128GB DDR4 ECC NVIDIA RTX PRO 4000 '
                     'Blackwell 24GB GDDR7 Context: 131,072 tokens, KV cache q8_0/q4_0'),
        'table': ('Metric Mainline b8457 ik_llama.cpp b4370 Prompt eval ~43 tok/sec 1,122 tok/sec (26x) Generation ~7.5 '
                  'tok/sec 26 tok/sec (3.5x) Graph splits 34 2 CPU during inference All threads pegged Idle GPU prompt '
                  'processing Partial 100% GPU'),
        'why': ('Qwen 3.5 uses a hybrid Gated Delta Network / Mamba-style SSM architecture interleaved with standard '
                'attention. Mainline llama.cpp was splitting this across 34 graph nodes with significant CPU '
                'involvement. ik_llama.cpp implements fused GDN kernels that handle the entire computation on CUDA, '
                'dropping graph splits from 34 to 2.'),
    },
    engine_args='-c 131072 -ctk q8_0 -ctv q4_0',
    observe={'output_tokens_per_s': (7.5, 'Generation ~7.5 tok/sec')},
    args_model='Qwen 3.5 27B Q4_K_M',
    args_gpu='NVIDIA RTX PRO 4000 Blackwell 24GB',
    notes=('the page is a news aggregator\'s verbatim repost of a r/LocalLLaMA post; engine_args is rebuilt from the '
           'setup line ("Context: 131,072 tokens, KV cache q8_0/q4_0"); output_tokens_per_s is the mainline generation '
           'speed from the comparison table (the ~43 tok/s prompt evaluation has no VOCAB name); the slow generation is '
           'passed as tpot_high'),
    leak=("The title and the comparison with ik_llama.cpp (fix numbers), the graph-split count, the pegged CPU threads "
          "and the reporter's explanation (no fused GDN kernels in mainline) are left out."),
    hard=('The 34 graph splits and the CPU doing the Gated Delta Net work are not in the inputs; only the slow '
          'generation on a 24 GB Blackwell card with a hybrid-architecture model is.')))

I.append(dict(
    src='https://ourweirdfuture.dev/posts/tuning-llama-server-for-agents', thread_type='blog',
    engine='llama-server (llama.cpp, CUDA) behind hobby agent pipelines', engine_version='b8933',
    gpu='NVIDIA RTX 4090 24 GiB', model='Qwen3.6-35B-A3B, lmstudio-community Q4_K_M GGUF',
    symptom='tpot_high', layer='operator_hardware',
    root_cause=('Qwen3.6-35B-A3B is a hybrid model (30 of 40 layers are a Mamba-like SSM); the lmstudio-community Q4_K_M '
                'GGUF loaded fully onto the GPU but decoded at 0.5 tok/s, while Unsloth\'s UD-Q4_K_XL of the same model '
                'ran at 152 tok/s with the same binary, flags and card: that quant\'s tensor layout trips a slow fallback '
                'of llama.cpp\'s SSM scan kernels instead of the fast path.'),
    fix="Use a GGUF whose tensors hit the fast SSM kernel path (Unsloth's UD-Q4_K_XL).",
    confidence='confirmed_by_reporter',
    evidence={
        'setup': ('Everything below is one card (RTX 4090, 24 GiB) and one server, llama-server from llama.cpp build '
                  'b8933.'),
        'chart': 'Qwen3.6-35B MoE, lmstudio Q4_K_M 0.5',
        'symptom': ('The 0.5 tk/s reading was the first surprise of the week. Qwen3.6-35B-A3B is a hybrid architecture: '
                    '30 of its 40 layers are a Mamba-like state space model, and only 10 are attention. The '
                    'lmstudio-community Q4_K_M quant loaded fine, fit in VRAM with room to spare, claimed all 41 layers '
                    'on GPU, and then ran at half a token per second. Nothing looked broken. It was just slow.'),
        'fix': ('The fix wasn’t a config flag. It was a different GGUF. Unsloth ship a “dynamic” quant of the same model '
                '(UD-Q4_K_XL), and on the same hardware, same flags, same binary, it runs at 152 tk/s with q4_0 KV '
                'cache. That’s 200x faster than a quant of nominally the same thing. My best guess at what’s going on: '
                'llama.cpp’s SSM scan kernels have a fast path that’s picky about tensor layout, and the lmstudio quant '
                'trips a fallback.'),
    },
    observe={'output_tokens_per_s': (0.5, 'The 0.5 tk/s reading')},
    args_model='Qwen3.6-35B-A3B lmstudio-community Q4_K_M',
    args_gpu='NVIDIA RTX 4090 24 GiB',
    notes=('output_tokens_per_s is the decode speed of the lmstudio quant; the post gives no command line for that run '
           '(the flags were the same as for the fast quant), so no engine_args; that all 41 layers were on the GPU is '
           'known from the post but there is no verbatim load log line to pass'),
    leak=("The fix (a different GGUF, 152 tok/s with the same binary and flags) and the author's explanation (an SSM scan "
          "kernel fallback tripped by the quant's tensor layout) are left out."),
    hard=('The inputs show only 0.5 tok/s for a 35B-A3B quant on an RTX 4090; that a different GGUF of the same model '
          'runs 300x faster on the same setup is not in them.')))

I.append(dict(
    src='https://github.com/nomic-ai/gpt4all/issues/1604', thread_type='issue',
    engine='GPT4All chat app (Vulkan GPU backend)', engine_version='2.5.2', gpu='NVIDIA RTX 4060',
    model=None,
    symptom='ttft_spike', layer='operator_hardware',
    root_cause=('GPT4All 2.5.x had disabled GPU-accelerated prompt processing (bugs in the Vulkan backend), so a prompt of '
                'a few lines was processed on the CPU with the GPU at ~2%: short questions were fine, but a 4-line prompt '
                'waited more than 5 minutes before any output.'),
    fix='Wait for GPU prompt processing to be re-enabled (see gpt4all #1580), or use a CUDA-based app for long prompts.',
    confidence='maintainer_explained',
    evidence={
        'title': 'CPU and GPU(nvidia) usage',
        'system': 'version 2.4.19 and 2.5.2 on win10 with i7 and 4060 nvidia',
        'report': ['ok , if i load a bin model in the old version 2.4.19',
                   'all works fine if i only ask a question with a few words, if a ask 4 lines only one core is working '
                   'and gpu 2%',
                   'same on new version 2.5.2',
                   'if cpu all core used if a ask i simple question ist more or less fast...  (3tok/sec)',
                   'if a write 4 lines only one core and 2% GPU are used and i wait more than 5 min ^^ ',
                   'btw oobadoooga works fine   ;)'],
        'expected': ('if i change cpu or gpu or auto in application settings allways the same is happened how i described '
                     'it ...'),
        'maintainer': 'We have disabled GPU-accelerated prompt processing until we sort out some bugs. See #1580',
        'maintainer_2': ('If your issue is that the GPU is never being used, you need to look at the CPU fallback reason, '
                         'which is shown in the bottom-right corner. There are currently some limitations of our Vulkan '
                         'backend that do not apply to the CUDA backend used by oobabooga\'s TGWUI.'),
    },
    observe={'gpu_util': (0.02, 'only one core and 2% GPU are used')},
    args_model=None,
    args_gpu='NVIDIA RTX 4060',
    notes=('gpu_util is the 2% the reporter saw while a 4-line prompt was pending (% -> fraction); the wait of more than '
           '5 minutes before output is passed as ttft_spike; the device setting (cpu/gpu/auto) made no difference, so no '
           'engine_args; no model is named'),
    leak="The maintainer's answers (GPU prompt processing disabled; Vulkan backend limitations) are left out.",
    hard=('Only a near-idle GPU is in the inputs; that this GPT4All version had switched GPU prompt processing off is '
          'not.')))

# ============================== scheduling_capacity ==============================
I.append(dict(
    src='https://blog.stellersjay.pub/fixing-concurrent-agent-slowness-in-llama-server-and-why-i-didnt-switch-to-vllm.html',
    thread_type='blog',
    engine='llama-server (llama.cpp, Metal) behind a four-agent pipeline (LiteLLM routing)', engine_version='May 2026',
    gpu='Apple M1 Max', model=None,
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('llama-server was started without --parallel, so it served one sequence at a time; with four agents '
                'calling it at once every request queued behind the previous one and the third and fourth could wait '
                'minutes before inference even started.'),
    fix='Start llama-server with --parallel 4 (and q8_0 KV cache so the four slots fit the Metal working set).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Fixing Concurrent Agent Slowness in llama-server (and Why I Didn\'t Switch to vLLM)',
        'problem': ('My pipeline runs up to four agents simultaneously, called step1-2, step3, step4, probe-builder - all '
                    'routing through the same llama-server instance for local workloads. I was getting slow responses '
                    'and assumed it was just the model. It wasn\'t.'),
        'cause': ('The issue was that I never set --parallel on llama-server. Without it, the default is one concurrent '
                  'sequence. Every agent request waits in line behind the one before it. With four agents active at the '
                  'same time, the third and fourth requests could wait minutes before inference even started.'),
        'fix': 'llama-server ... --parallel 4',
        'kv': ('Adding four parallel slots has a cost: each slot needs its own KV cache allocation. I was using '
               '--cache-type-k bf16 --cache-type-v bf16 from the previous post, which made sense when running a single '
               'sequence.'),
        'kv_fix': ('Switching to q8_0 KV cache cuts that in half with no meaningful quality loss on analytical tasks:'),
        'hardware': ('The tradeoff is worth it. q8_0 is still high precision for KV, and the memory freed keeps all four '
                     'parallel slots comfortably within the Metal working set on my M1 Max.'),
    },
    engine_args='--cache-type-k bf16 --cache-type-v bf16',
    args_model=None,
    args_gpu='Apple M1 Max',
    notes=('engine_args are the flags the server ran with before the fix ("I was using --cache-type-k bf16 '
           '--cache-type-v bf16"); no --parallel was set; the wait of minutes before inference started is passed as '
           'ttft_spike; the number of concurrent agents has no measured queue figure, so no observe values'),
    leak=("The author's cause paragraph (never set --parallel; one concurrent sequence; four agents queueing), the fix "
          "and the title are left out."),
    hard=('The four concurrent agents are not in the inputs; only the KV-cache flags without --parallel and a long wait '
          'before the first token are.')))

I.append(dict(
    src='https://github.com/ollama/ollama/issues/2362', thread_type='issue',
    engine='Ollama', engine_version='Feb 2024 (0.1.2x)', gpu='NVIDIA RTX A4000 16GB', model='mixtral',
    symptom='tpot_high', layer='scheduling_capacity',
    root_cause=('Mixtral does not fit into the 16 GB card: only part of the layers were offloaded (nvidia-smi showed '
                '14.8/16.3 GiB used) and the rest ran on the CPU, so generation was bottlenecked on the CPU and the GPU '
                'sat at ~7% utilisation.'),
    fix='Use a model/quantisation that fits entirely in VRAM (or more VRAM); partial offload is CPU-bound.',
    confidence='maintainer_explained',
    evidence={
        'title': 'Ollama Mixtral uses only 7% of the Nvidia RTX A4000 GPU.',
        'report': ('When I execute Ollama Mixtral with the Nvidia A4000 (16GB), I observe that only 7% of the GPU is '
                   'utilized. Do you know why this might be happening? Additionally, the process seems somewhat slow. It '
                   'appears that Ollama Mixtral is using 40% of the CPU but only 7% of the GPU.'),
        'maintainer': ('Hi @nejib1, it seems that your system is bottlenecked on the CPU since the entire model won\'t fit '
                       'into memory (only some does, as you can see in `nvidia-smi` (thanks for sharing this 😊 ) it\'s '
                       '14.8/16.3GiB which is almost all of your VRAM'),
        'other_user': ('Same here on MacBook  M1 Pro 32Go :\nGPU usage with mixtral is 0. Really slow.'),
    },
    observe={'gpu_util': (0.07, 'only 7% of the GPU is utilized'),
             'gpu_mem_used_gib': (14.8, "it's 14.8/16.3GiB")},
    args_model='mixtral',
    args_gpu='NVIDIA RTX A4000 16GB',
    notes=('gpu_util is the 7% the reporter measured (% -> fraction); gpu_mem_used_gib is the reporter\'s nvidia-smi '
           'screenshot reading as the maintainer quoted it (14.8 of 16.3 GiB); the slow generation is passed as '
           'tpot_high; no Ollama settings were changed, so no engine_args'),
    leak=("The maintainer's explanation (the whole model does not fit into VRAM, so it is bottlenecked on the CPU) is "
          "left out; only the memory figure it quotes from the reporter's screenshot is used."),
    hard=None))

# ============================== load ==============================
I.append(dict(
    src='https://developer.apple.com/forums/thread/801504', thread_type='forum',
    engine="Apple Foundation Models framework (on-device system language model)", engine_version='2025 (iOS/macOS 26)',
    gpu=None, model='Apple on-device foundation model (4096-token context)',
    symptom='other', layer='load',
    root_cause=('The context window is always 4096 tokens and must hold the response too; the request content was 4,089 '
                'tokens, leaving 7 tokens, fewer than the model needs to answer, so the framework rejects it with an '
                'exceeded-context error even though 4089 < 4096.'),
    fix='Send shorter content (leave room in the 4096-token window for the response).',
    confidence='maintainer_explained',
    evidence={
        'title': 'Context Size Error But Size is Less Than Limit',
        'report': 'Seeing this error from time to time:',
        'error': ('Context(debugDescription: "Content contains 4089 tokens, which exceeds the maximum allowed context '
                  'size of 4096.", underlyingErrors: [])'),
        'question': ('Of course, 4089 is less than 4096 so what is this telling me and how do I work around it? Is the '
                     'limit actually lower than 4096?'),
        'maintainer': ['The context window size is always 4096',
                       'When the model throws this error at a number close to to limit (4089 above) that means the model '
                       'doesn\'t have enough tokens to generate its response. In other words, it had 4096 - 4089 = 7 '
                       'tokens left, but it needs more than 7 tokens to produce its response.'],
    },
    log=[('error', None)],
    observe={'input_len_mean': (4089, 'Content contains 4089 tokens')},
    args_model=None,
    args_gpu=None,
    notes=('the log line is the error the app printed; input_len_mean is the token count it reports; the model is the '
           'system on-device model, so no model or GPU is passed'),
    leak="The Apple engineer's explanation (the 4096 window must also hold the response; 7 tokens left) is left out.",
    hard=None))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/open-webui/open-webui/issues/3067', thread_type='issue',
    engine='Open WebUI (Docker) in front of Ollama', engine_version='Open WebUI v0.3.3, Ollama 0.1.43', gpu=None,
    model='a slow model (unnamed)',
    symptom='timeout_or_stream_break', layer='gateway_client',
    root_cause=('Open WebUI\'s backend called Ollama through an aiohttp.ClientSession whose default total timeout is 5 '
                'minutes, so any reply that took longer than 5 minutes to generate was cut off and the chat showed an '
                'error, although Ollama itself was still generating.'),
    fix='Make the aiohttp client timeout configurable and longer (PR #3107; AIOHTTP_CLIENT_TIMEOUT).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Timeout error after 5 minutes on chat',
        'steps': 'Load a slow model, have it generate a long reply. ',
        'expected': 'The full reply gets displayed in browser',
        'actual': 'After 5 minutes, the connection is closed, giving an error.',
        'environment': ['Open WebUI Version:** v0.3.3', 'Ollama (if applicable):** 0.1.43',
                        'Operating System:** Windows 10'],
        'log': ['ERROR:    Exception in ASGI application',
                'File "/usr/local/lib/python3.11/site-packages/starlette/middleware/base.py", line 181, in body_stream'],
        'fix_pr_3107': ['Fix for https://github.com/open-webui/open-webui/issues/3067',
                        'Added configurable timeout to `aiohttp.ClientSession` call to ollama, to work around default '
                        'timeout of 5 minutes being too short in some situations'],
        'maintainer_on_pr': ('This is great! Apologies for mistaking your bug report as one of the low quality ones 😅 '
                             'I\'ve just been getting thousands of emails a day and it\'s getting pretty hard to discern '
                             'which ones are legitimate and which aren\'t. I\'ll rename the env var and merge the code. I '
                             'appreciate the PR!'),
    },
    log=[('log', 0), ('log', 1)],
    observe={'e2e_p99_s': (300, 'After 5 minutes, the connection is closed')},
    args_model=None,
    args_gpu=None,
    notes=('the log lines are the first and one inner line of the Docker container traceback in the report; e2e_p99_s is '
           'the 5 minutes after which every long reply failed (5 min -> 300 s); the fix PR is quoted in the evidence '
           'because it is the reporter\'s own confirmation of the cause'),
    leak=("The reporter's fix PR (#3107: aiohttp.ClientSession default timeout of 5 minutes) and the maintainer's merge "
          "comment are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261223, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
