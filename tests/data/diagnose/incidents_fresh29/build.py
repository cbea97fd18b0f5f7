#!/usr/bin/env python3
"""Build the out-of-sample incident set incidents_fresh29: incidents.jsonl and cases/new-NNN/.

Same bundle format as the development set (tests/data/diagnose/incidents: README and make_bundles.py)
and the earlier fresh batches (incidents_fresh .. incidents_fresh27; this file follows incidents_fresh18/build.py).
Every evidence string below was copied verbatim from the GitHub issue/PR thread text returned by the search tool
(corpus "issues"). JSON escapes were decoded; leading indentation, list bullets/numbers and trailing blanks were dropped
(markdown emphasis was kept); a few long lines were cut to a verbatim prefix/substring. Log lines and output samples
are taken from the evidence, so check.py can verify they are verbatim substrings of it. This batch concentrates on
vLLM and SGLang incidents with their newer features (V1 engine, DP/EP, disaggregated prefill/decode and its routers,
speculative decoding, multimodal inputs and the encoder cache, hybrid Mamba/GDN models and prefix caching, KV
connectors (LMCache), FP4 checkpoints with CUDA graphs, tool/reasoning parsers, the Anthropic-compatible endpoint),
in any layer and symptom.

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
    src='https://github.com/vllm-project/vllm/issues/40696', thread_type='issue',
    engine='vLLM V1 OpenAI server (vllm serve), hybrid Mamba/GDN model with --enable-prefix-caching',
    engine_version='vLLM 0.19.1', gpu='NVIDIA A100/H20', model='Qwen/Qwen3.5-4B',
    symptom='ttft_spike', layer='scheduling_capacity',
    root_cause=('For the Mamba-hybrid Qwen3.5 vLLM raises the attention block size to 528 tokens so that an attention '
                'page is at least a mamba page; prefix caching only stores full blocks, so requests whose shared '
                'prefix is shorter than 528 tokens (here ~480) never get a prefix-cache hit and the whole prefix is '
                'recomputed on every request.'),
    fix=('Make the shared prefix longer than one (528-token) block, or use a smaller hybrid block size / finer '
         'prefix-match granularity once supported; standard transformer models use block_size=16.'),
    confidence='confirmed_by_reporter',
    evidence={
        'title': ('[Feature]: Prefix caching completely ineffective for Mamba-hybrid models (Qwen3.5) when prompt < '
                  'block_size (528 tokens)'),
        'env': ['vLLM version: 0.19.1', 'GPU: NVIDIA A100/H20', 'Model: Qwen/Qwen3.5-4B (Mamba-hybrid architecture)'],
        'desc': ('When serving Mamba-hybrid models like Qwen3.5, vLLM sets the attention block size to **528 tokens** '
                 'to align with the mamba page size:'),
        'log': ('INFO [config.py:281] Setting attention block size to 528 tokens to ensure that attention page size is '
                '>= mamba page size.'),
        'analysis': ('Since prefix caching operates at the **block** granularity, only **fully completed blocks** are '
                     'cached. This means:'),
        'measured': ['Prompt with **< 528 tokens**: **0% prefix cache hit** — the entire prefix must be recomputed '
                     'every request',
                     'Prompt with 552 tokens: ~95% hit (1 block cached, only 24 tokens recomputed)',
                     'Prompt with 979 tokens: ~54% hit (1 block cached, 451 tokens recomputed)'],
        'comparison': ('For comparison, standard transformer models use block_size=16, so even a 100-token prompt gets '
                       '6 fully cached blocks (96 tokens cached).'),
        'repro': ['vllm serve Qwen/Qwen3.5-4B \\', '--enable-prefix-caching \\', '--max-model-len 1024 \\',
                  '--dtype bfloat16',
                  '# Send requests with the same ~480 token prefix but different query suffixes'],
    },
    log=[('log', None)],
    engine_args='--enable-prefix-caching --max-model-len 1024 --dtype bfloat16',
    observe={'prefix_cache_hit_rate': (0.0, '0% prefix cache hit'),
             'input_len_mean': (480, '~480 token prefix')},
    args_model='Qwen/Qwen3.5-4B',
    args_gpu='NVIDIA A100/H20',
    notes=('the log line is the engine start-up line the reporter quoted; engine_args are the flags of the reproduction '
           'command; prefix_cache_hit_rate 0 (0%) is the hit rate the reporter read from the stats log for the ~480-token '
           'shared prefix (input_len_mean 480); the whole prefix being recomputed on every request is passed as '
           'ttft_spike'),
    leak=("The title (prefix caching ineffective when the prompt is shorter than the 528-token block) and the reporter's "
          "explanation (only fully completed blocks are cached; the 552/979-token measurements; the block_size=16 "
          "comparison) are left out; only the 0% hit rate for the ~480-token prefix is passed."),
    hard=None))

I.append(dict(
    src='https://github.com/decoderesearch/interp-engine/pull/2', thread_type='pr',
    engine='vLLM (offline and served paths of an interpretability harness), Gemma 4 multimodal checkpoint',
    engine_version='Aug 2026', gpu=None, model='Gemma 4 multimodal checkpoint',
    symptom='other', layer='scheduling_capacity',
    root_cause=('vLLM forces chunked multimodal input off for models whose image tokens attend bidirectionally (Gemma 3/4) '
                'and then refuses to start unless one whole multimodal item fits in a single batch; the harness sized '
                'max_num_batched_tokens to 512, below the 2496 tokens of one Gemma 4 image item.'),
    fix='Give max_num_batched_tokens a floor at least as large as the largest multimodal item (2496 on Gemma 4).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: multimodal checkpoints fail under vLLM when max_num_batched_tokens is too small',
        'desc': ('vLLM forces chunked multimodal input off for a model whose image tokens attend bidirectionally '
                 '(Gemma 3, Gemma 4), and then refuses to start unless one whole item fits in a single batch. Both of '
                 "this repo's vLLM paths size the batch to something smaller and hit the refusal:"),
        'error': ['Chunked MM input disabled but max_tokens_per_mm_item (2496) is larger',
                  'than max_num_batched_tokens (512).'],
        'floor': ('vLLM raises its own floor for exactly this case, but only while defaulting `max_num_batched_tokens`, '
                  'and clamps the result against `max_model_len` right after -- so a caller that sizes the window to '
                  'its prompt defeats the fix.'),
        'per_item': ('A floor rather than the real per-item count, because that count is not in the HF config -- it '
                     "comes from vLLM's per-family processing info (2496 on Gemma 4, 256 on Gemma 3), and deriving it "
                     "here would mean reimplementing each family's image-token math against a private API. vLLM names "
                     'the value it wanted when a floor is ever too low.'),
    },
    log=[('error', 0), ('error', 1)],
    engine_args='--max-num-batched-tokens 512',
    args_model=None,
    args_gpu=None,
    notes=('the two log lines are the vLLM start-up error as the PR quotes it (one message wrapped over two lines); '
           'engine_args is rebuilt from the error (the harness set max_num_batched_tokens to 512); the exact checkpoint '
           'and GPU are not named; the refusal to start is passed as symptom other'),
    leak=("The PR's explanation (chunked multimodal input is forced off for bidirectional-image models such as Gemma 3/4, "
          "so one whole item must fit in a batch; the harness sizes the window to its prompt) and the fix (a floor for "
          "max_num_batched_tokens) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/vllm/issues/34040', thread_type='issue',
    engine='vLLM OpenAI server behind an OCR service (multimodal, encoder cache)', engine_version='Feb 2026',
    gpu=None, model='zai-org/GLM-OCR',
    symptom='other', layer='scheduling_capacity',
    root_cause=("vLLM's GLM-4V/GLM-OCR processing info computed the largest single-image token count with the video "
                'default num_frames=16, so the profiled encoder cache was sized far too small (~3.7-4.8k tokens) while '
                'a large single image (e.g. merged PDF pages) produces ~6k image tokens; such requests were rejected '
                'with 400 "exceeds the pre-allocated encoder cache size".'),
    fix=('vLLM fix (PR #34483): use num_frames=1 for single-image sizing and read max_pixels from the HF image '
         'processor config, so the encoder cache budget covers the largest single image.'),
    confidence='maintainer_explained',
    evidence={
        'title': '[Doc]: Setting Encoder Cache for MultiModal LLMs',
        'overview': ('Attempting to run `zai-org/GLM-OCR` from Hugging Face with vLLM for OCR on images extracted from '
                     'PDF pages. Inference fails due to an encoder cache limit error.'),
        'error': ('"error": "All variants failed with errors: glm_ocr: All model providers failed to infer with errors: '
                  'vllm: Error 400 Bad Request from vllm client: {\\"error\\":{\\"message\\":\\"The decoder prompt '
                  'contains a(n) image item with length 6042, which exceeds the pre-allocated encoder cache size 4800. '
                  'Please reduce the input size or increase the encoder cache size by setting --limit-mm-per-prompt at '
                  'startup.\\",\\"type\\":\\"BadRequestError\\",\\"code\\":400}}"'),
        'observed': ['Image token length: 6042', 'Encoder cache limit: 4800'],
        'suspected': 'Multimodal embeddings generated from the image exceed the encoder cache size allocated by vLLM.',
        'fix_pr_ref': 'Fixes #34040',
        'fix_pr': ('`get_image_size_with_most_features()` and `get_num_image_tokens()` called `_get_vision_info()` with '
                   'the default `num_frames=16` (video), causing `smart_resize` to constrain `16*H*W <= max_pixels` and '
                   'vastly underestimating the spatial budget for a single image. This resulted in an encoder cache of '
                   '~3721 tokens, while large single images can produce up to ~6084 tokens, triggering "exceeds the '
                   'pre-allocated encoder cache size" errors.'),
        'fix_pr_fix': ('Fix by passing `num_frames=1` for single-image methods and reading `max_pixels` from the HF image '
                       'processor config instead of hardcoding.'),
    },
    log=['The decoder prompt contains a(n) image item with length 6042, which exceeds the pre-allocated encoder cache '
         'size 4800. Please reduce the input size or increase the encoder cache size by setting --limit-mm-per-prompt '
         'at startup.'],
    args_model='zai-org/GLM-OCR',
    args_gpu=None,
    notes=('the log line is the vLLM 400 error message the OCR service relayed (the surrounding JSON escaping is dropped '
           'by taking the inner message only); the maintainer-side explanation is the linked fix PR vllm-project/vllm#34483 '
           '("Fixes #34040"), whose text is quoted in the evidence under fix_pr*; no flags, GPU or observe values are '
           'given; the rejected request is passed as symptom other'),
    leak=("The fix PR's explanation (num_frames=16 video default underestimating the single-image budget; ~3721-token "
          "cache against ~6084-token images) and fix are left out; the reporter's 'Suspected Cause' line is left out."),
    hard=('The inputs only show one image of 6042 tokens against a 4800-token encoder cache, which reads like an '
          'oversized input; that vLLM itself sized the cache too small for a single image is not in them.')))

# ============================== load ==============================
I.append(dict(
    src='https://github.com/EvolvingLMMs-Lab/lmms-eval/issues/988', thread_type='issue',
    engine='vLLM (offline, via lmms-eval --model vllm), Qwen2.5-VL on image/video benchmarks', engine_version='Jan 2026',
    gpu=None, model='Qwen/Qwen2.5-VL-7B-Instruct',
    symptom='other', layer='load',
    root_cause=('The benchmark requests carried so many image/video tokens (163,270 tokens for one request, from '
                'high-resolution screenshots or many sampled video frames) that the prompt exceeded the model\'s '
                '128,000-token maximum length, so vLLM rejected it.'),
    fix='Lower max_pixels (image resolution) or the number/fps of sampled video frames, or raise max_model_len.',
    confidence='maintainer_explained',
    evidence={
        'title': ('When I tested Qwen-2.5-vl-7B on the Videomme dataset, ValueErrorr: The decoder prompt (length 163270) '
                  'is longer'),
        'error': ('ValueErrorr: The decoder prompt (length 163270) is longer than the maximum model length of 128000. '
                  'Make sure that `max_model_len` is no smaller than the number of text tokens plus multimodal tokens. '
                  'For image inputs, the number  of image tokens depends on the number of images, and possibly their '
                  'aspect ratios as well.'),
        'command': ['python3 -m lmms_eval \\', '--model vllm \\',
                    '--model_args model=Qwen/Qwen2.5-VL-7B-Instruct,tensor_parallel_size=4 \\',
                    '--tasks "screenspot" \\', '--batch_size 64 \\'],
        'maintainer': ("This error means your input (163k tokens) exceeds the model's max length (128k tokens). A few "
                       'things:'),
        'maintainer_fix': ['For Screenspot: try reducing `max_pixels` in model_args. Lower resolution = fewer tokens.',
                           'For Videomme: reduce the number of frames sampled from videos. Check the task config for '
                           'frame sampling settings.'],
        'maintainer_followup': ('following up — did lowering `max_pixels` / `fps` or increasing `max_model_len` resolve '
                                'this on your side? if yes, i can close this; if not, please share your fu'),
    },
    log=[('error', None)],
    observe={'input_len_mean': (163270, '(length 163270)')},
    engine_args='--tensor-parallel-size 4 --max-model-len 128000',
    args_model='Qwen/Qwen2.5-VL-7B-Instruct',
    args_gpu=None,
    notes=('the log line is the vLLM ValueError as the reporter pasted it (typo "ValueErrorr" and double space kept); '
           'input_len_mean is the rejected prompt length; engine_args is rebuilt from the lmms-eval model_args '
           '(tensor_parallel_size=4) and the 128000 maximum length the error reports; the rejected request is passed '
           'as symptom other'),
    leak=("The lmms-eval maintainer's answer (the input exceeds the max length; reduce max_pixels or the sampled video "
          "frames) and the follow-up are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/21064', thread_type='pr',
    engine='SGLang Anthropic-compatible /v1/messages endpoint (RadixAttention prefix cache), Claude Code client',
    engine_version='Mar 2026', gpu='8x RTX 6000 PRO (TP8)', model='Kimi-K2.5',
    symptom='ttft_spike', layer='load',
    root_cause=('Claude Code puts an x-anthropic-billing-header block with a per-request hash (cch=...) as the first '
                'system-prompt block; because it changes on every request at token position ~0, the radix prefix cache '
                'never matches the otherwise identical conversation prefix, so every turn re-prefills ~82k tokens '
                '(~18 s per turn).'),
    fix=('Strip the x-anthropic-billing-header system block before templating (SGLang PR), or remove it at the client/'
         'gateway.'),
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[Anthropic API] Strip billing header to fix prefix caching',
        'summary': ['Strip `x-anthropic-billing-header` system prompt blocks in the Anthropic Messages API endpoint '
                    'before passing to the model',
                    'This metadata block contains a per-request conversation context hash (`cch=...`) that changes on '
                    'every request',
                    'Because it is the **first** system prompt block, it changes the token prefix at position ~0, '
                    'defeating RadixAttention prefix caching for the entire conversation'],
        'setup': 'Tested with Claude Code → SGLang (Kimi-K2.5, MLA, 8×RTX 6000 PRO TP8):',
        'table': ['| Cached tokens per request | ~4,800 | ~20,800+ |',
                  '| New tokens to prefill per turn | ~82,000 | ~285 |',
                  '| Per-turn prefill latency | ~18 seconds | near-instant |'],
        'note': "The billing header carries no semantic meaning for the model — it's Anthropic SDK analytics metadata.",
    },
    engine_args='--tp 8',
    observe={'ttft_p50_s': (18.0, '~18 seconds')},
    args_model='Kimi-K2.5',
    args_gpu='8x RTX 6000 PRO',
    notes=('ttft_p50_s is the per-turn prefill latency before the fix (~18 s); engine_args is rebuilt from "TP8"; the '
           'cached/new token counts of the table are left out of observe because they need a ratio to become a hit '
           'rate; the slow per-turn prefill is passed as ttft_spike'),
    leak=("The PR's title and summary (the billing header block with a per-request hash at the start of the system prompt "
          "defeats the radix cache) and the after-fix column are left out."),
    hard=('Only the ~18 s per-turn prefill latency is in the inputs; the client-injected, per-request-changing first '
          'system block (and the low cached-token count) are not.')))

# ============================== numeric_parameter ==============================
I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/21272', thread_type='pr',
    engine='SGLang (ROCm) with EAGLE speculative decoding', engine_version='Mar 2026',
    gpu='8x AMD MI355X (gfx950)', model='moonshotai/Kimi-K2.5',
    symptom='tpot_high', layer='numeric_parameter',
    root_cause=('An Eagle3 draft model (lightseekorg/kimi-k2.5-eagle3) was run with --speculative-algorithm EAGLE instead '
                'of EAGLE3: EAGLE mode does not capture the 3-layer auxiliary hidden states, the draft\'s fc projection '
                '(expecting 3*hidden_size) is silently skipped, the drafter predicts garbage, accept length drops to '
                'exactly 1.0 and speculation makes decoding slower than no speculation.'),
    fix='Use --speculative-algorithm EAGLE3 for Eagle3 draft checkpoints (the PR auto-upgrades and warns).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': '[AMD] Auto-detect Eagle3 draft model when --speculative-algorithm EAGLE is used',
        'motivation': ('Using `--speculative-algorithm EAGLE` with an Eagle3 draft model (e.g. '
                       '`lightseekorg/kimi-k2.5-eagle3`) silently degrades performance with **no error or warning**. The '
                       '`accept_length` drops to exactly 1.0, making Eagle3 slower than running without speculation.'),
        'root_cause': ('Root cause: `EAGLE` mode does not enable aux hidden state capture (3-layer concatenation). Eagle3 '
                       'draft models have an `fc` layer that expects `3 * hidden_size` input, but under `EAGLE` mode they '
                       'receive `1 * hidden_size`. The `fc` projection is silently skipped because the dimension check '
                       '`hidden_states.shape[-1] != embeds.shape[-1]` evaluates to False (both are `hidden_size`), '
                       'producing garbage predictions.'),
        'symptom': ('This was discovered while debugging Eagle3 on MI355X — the only visible symptom was `accept_len: '
                    '1.00` in server logs, with no indication of misconfiguration.'),
        'changes': ("In `server_args.py` `_handle_speculative_decoding()`: when `--speculative-algorithm EAGLE` is "
                    "specified, inspect the draft model's HuggingFace config architecture. If it contains \"Eagle3\" "
                    '(e.g. `LlamaForCausalLMEagle3`), auto-upgrade to `EAGLE3` and emit a warning.'),
        'testing': ('Validated on 8× MI355X (gfx950) with `moonshotai/Kimi-K2.5` + `lightseekorg/kimi-k2.5-eagle3`:'),
    },
    log=['accept_len: 1.00'],
    engine_args='--speculative-algorithm EAGLE --speculative-draft-model-path lightseekorg/kimi-k2.5-eagle3',
    args_model='moonshotai/Kimi-K2.5',
    args_gpu='8x AMD MI355X',
    notes=('the log line is the fragment of the SGLang decode log the PR quotes (accept_len: 1.00); engine_args is '
           'rebuilt from the prose (--speculative-algorithm EAGLE with the Eagle3 draft lightseekorg/kimi-k2.5-eagle3; '
           'the draft flag name is SGLang\'s --speculative-draft-model-path); decoding slower than without speculation '
           'is passed as tpot_high'),
    leak=("The PR's motivation, root-cause paragraph and change description (EAGLE mode skips the aux hidden-state "
          "capture an Eagle3 drafter needs) are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/LMCache/LMCache/pull/2879', thread_type='pr',
    engine='vLLM V1 with the LMCache KV connector (LMCacheConnectorV1), hybrid attention+Mamba model',
    engine_version='Mar 2026', gpu=None, model='Qwen3.5 (hybrid attention + mamba/recurrent layers)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('LMCache stored only the attention KV of the hybrid Qwen3.5 but still reported the full prefix as an '
                'external cache hit; the vLLM scheduler then skipped those tokens for every layer type, so the mamba/'
                'recurrent layers started from uninitialised state and ~40% of cross-request cache hits produced word '
                'salad, repetition loops or empty output.'),
    fix=('Report zero external LMCache hits for hybrid models until recurrent state can be restored (current vLLM fails '
         'closed because LMCacheConnectorV1 does not advertise SupportsHMA).'),
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Fix garbled output on hybrid models (mamba + attention)',
        'summary': ('Hybrid models like Qwen3.5 interleave attention and mamba/recurrent layers. LMCache correctly '
                    'filters to attention-only KV caches for storage, but still reports the full token count as cached '
                    'via `get_num_new_matched_tokens()`. This causes the vLLM scheduler to skip mamba computation for '
                    'those tokens, leaving recurrent state uninitialized and producing garbled output on cross-request '
                    'cache hits.'),
        'root_cause': ('**Root cause**: when LMCache reports N cached tokens, the scheduler sets '
                       '`request.num_computed_tokens = N` for all layer types. The forward pass skips the first N tokens '
                       '— correct for attention (KV restored), but mamba layers start from uninitialized state. This '
                       'produces word salad, repetition loops (`** **`), or empty output ~40% of the time.'),
        'closing': ('Closing as historical. Current vLLM already fails closed for the bundled LMCacheConnectorV1 under '
                    'HMA because it does not advertise SupportsHMA, so the original unsafe default path is protected. '
                    'Full hybrid/Mamba LMCache support should be implemented separately with recurrent state '
                    'persistence/restore before reporting positive external hits. See the updated comment above for '
                    'details and latest test results.'),
    },
    outputs=['** **'],
    engine_args='--kv-transfer-config {"kv_connector":"LMCacheConnectorV1"}',
    args_model='Qwen3.5',
    args_gpu=None,
    notes=('the output line is the repetition-loop sample the PR quotes (`** **`); engine_args is rebuilt from the '
           'connector the thread names (LMCacheConnectorV1); the ~40% garbled rate is not passed as an observe value '
           '(error_rate counts failed requests, these returned 200); no GPU is named'),
    leak=("The PR's summary and root-cause paragraph (LMCache reports full hits for hybrid models, the scheduler skips "
          "mamba computation, recurrent state is uninitialised) and the closing note are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/sgl-project/sglang/pull/26172', thread_type='pr',
    engine='SGLang (sglang serve) OpenAI chat completions with tool calling and a reasoning parser',
    engine_version='May 2026', gpu=None, model='Qwen 3.5 (Qwen3)',
    symptom='output_quality', layer='numeric_parameter',
    root_cause=('With --tool-call-parser qwen3_coder and --reasoning-parser qwen3 the parsing classified the Qwen 3.5 '
                'tool call as part of the reasoning block, so the <tool_call> XML was returned in reasoning_content with '
                'content None and tool_calls None, and the client never executed the tool.'),
    fix='Fix the parser logic so tool calls are separated from reasoning and extracted into tool_calls.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'fix: correct tool parser for Qwen 3.5 (Qwen3)',
        'motivation': 'Fixes incorrect tool calling parsing for Qwen 3.5 (Qwen3) models.',
        'cause': ('Previously, the parser incorrectly classified tool calls as part of the reasoning block (reasoning '
                  'content), causing the tool invocation to be ignored or treated as plain text. This led to failed tool '
                  'calls and broken agent workflows.'),
        'fix': ('This PR updates the parser logic to correctly distinguish between reasoning steps and tool calls, '
                'ensuring that tool invocations are properly extracted and executed.'),
        'flags': ['sglang serve', '`--tool-call-parser qwen3_coder`', '`--reasoning-parser qwen3`'],
        'before': ("{'id': 'ee461f280734411e8f9c338787be4a9b', 'object': 'chat.completion', 'created': 1779344467, "
                   "'model': 'qwen', 'choices': [{'index': 0, 'message': {'role': 'assistant', 'content': None, "
                   "'reasoning_content': '<tool_call>\\n<function=get_current_weather>\\n<parameter=location>\\nBoston, "
                   "MA\\n</parameter>\\n</function>\\n</tool_call>', 'tool_calls': None}, 'logprobs': None, "
                   "'finish_reason': 'stop', 'matched_stop': 248046}], 'usage': {'prompt_tokens': 330, 'total_tokens': "
                   "359, 'completion_tokens': 29, 'prompt_tokens_details': None, 'reasoning_tokens': 29}, 'metadata': "
                   "{'weight_version': 'default'}}"),
    },
    outputs=[('before', None)],
    engine_args='--tool-call-parser qwen3_coder --reasoning-parser qwen3',
    args_model=None,
    args_gpu=None,
    notes=('the output line is the "before" chat completion the PR shows (content None, the <tool_call> XML in '
           'reasoning_content, tool_calls None); engine_args are the two serve flags it lists; the exact Qwen 3.5 '
           'checkpoint and GPU are not named'),
    leak=("The PR's cause and fix paragraphs (the parser classifies tool calls as reasoning content) and the 'after' "
          "response are left out."),
    hard=None))

# ============================== operator_hardware ==============================
I.append(dict(
    src='https://github.com/vllm-project/vllm/pull/40734', thread_type='pr',
    engine='vLLM V1 (vllm serve) with data parallel + expert parallel, NVFP4 MoE, FULL CUDA graphs',
    engine_version='Apr 2026', gpu=None, model='nvidia/MiniMax-M2.5-NVFP4',
    symptom='throughput_low', layer='operator_hardware',
    root_cause=('CUDA-graph capture sizes only land on multiples of 8/16; --max-num-batched-tokens 700 is not on the '
                'grid, so when the server runs at its maximum batch (700 tokens) no graph covers it and every such step '
                'falls back to eager execution, and throughput drops drastically at peak batch size.'),
    fix='Always capture max_num_batched_tokens when it is within max_cudagraph_capture_size (this PR), or set it to a multiple of the stride.',
    confidence='maintainer_explained',
    evidence={
        'title': '[Bugfix] Fix max_num_batched_token not captured in cuda graph',
        'purpose': ('Currently, cuda graph capture sizes only include batch size that land on multiples of 8 or 16. When '
                    "`max_num_batched_tokens` is not a multiple of the stride, it won't be captured. So when the model "
                    'runs at max batch size, it falls back to eager mode, causing significant performance degradation.'),
        'fix': ('This PR ensures `max_num_batched_tokens` is cuda graph captured when it is within '
                '`max_cudagraph_capture_size`'),
        'example': ['max-cudagraph-capture-size: 2048', 'max-num-batched-tokens: 700'],
        'symptom': 'Performance drops drastically when batch size reaches peak.',
        'command': ['vllm serve nvidia/MiniMax-M2.5-NVFP4 \\', '--data-parallel-size 2 \\', '--enable-expert-parallel \\',
                    '--max-model-len 2048 \\', '--kv-cache-dtype fp8 \\', '--max-cudagraph-capture-size 2048 \\',
                    '--max-num-batched-tokens 700 \\', '--stream-interval 20 \\', '--no-enable-prefix-caching \\',
                    '--trust-remote-code'],
        'benchmark': ['vllm bench serve \\', '--backend vllm \\', '--endpoint /v1/completions \\', '--port 8000 \\',
                      '--num-prompts 4096 \\', '--dataset-name random \\', '--input-len 1024 \\',
                      '--output-len 1024 \\', '--max-concurrency 2048 \\', '--trust-remote-code \\',
                      '--num-warmups 10'],
    },
    engine_args=('--data-parallel-size 2 --enable-expert-parallel --max-model-len 2048 --kv-cache-dtype fp8 '
                 '--max-cudagraph-capture-size 2048 --max-num-batched-tokens 700 --stream-interval 20 '
                 '--no-enable-prefix-caching --trust-remote-code'),
    args_model='nvidia/MiniMax-M2.5-NVFP4',
    args_gpu=None,
    notes=('engine_args are the flags of the serve command in the PR; the benchmark (random 1024/1024, max concurrency '
           '2048) is not an engine input; the throughput figures are only in a chart image, so no observe values; '
           '"performance drops drastically when batch size reaches peak" is passed as throughput_low'),
    leak=("The PR's purpose paragraph (capture sizes are multiples of 8/16, a non-multiple max_num_batched_tokens is not "
          "captured and falls back to eager) and the fix line are left out."),
    hard=None))

# ============================== gateway_client ==============================
I.append(dict(
    src='https://github.com/vllm-project/router/issues/174', thread_type='issue',
    engine='vllm-router (Rust) in prefill/decode disaggregation mode in front of vLLM workers',
    engine_version='May 2026', gpu=None, model=None,
    symptom='other', layer='gateway_client',
    root_cause=('The router\'s power_of_two policy polls GET /get_load (the SGLang endpoint, expecting {"load": N}) but '
                'vLLM exposes /load returning {"server_load": N}; every load query gets 404, so the load-aware policy '
                'silently degrades to random selection.'),
    fix='Query /load and parse server_load (router PR #175).',
    confidence='confirmed_by_reporter',
    evidence={
        'title': "[Bug]: vllm-router power_of_two policy queries /get_load but vLLM doesn't expose it",
        'summary': ('When using `--prefill-policy power_of_two` or `--decode-policy power_of_two` with a PD '
                    'disaggregation setup, vllm-router continuously sends `GET /get_load` to each backend worker. vLLM '
                    'returns **404 Not Found** because it exposes the load endpoint at `/load` (not `/get_load`) and '
                    'returns `{"server_load": N}` (not `{"load": N}`). As a result, `power_of_two` degrades to random '
                    'selection since all load queries fail.'),
        'repro_vllm': 'Start vLLM instances with `--enable-server-load-tracking`',
        'router_cmd': ['/vllm/vllm-router \\', '--vllm-pd-disaggregation \\', '--prefill "http://prefill1:6700" \\',
                       '--prefill "http://prefill2:6700" \\', '--decode "http://decode1:63110" \\',
                       '--decode "http://decode2:63111" \\', '--decode "http://decode3:63110" \\',
                       '--decode "http://decode4:63111" \\', '--prefill-policy power_of_two \\',
                       '--decode-policy power_of_two \\', '--host 0.0.0.0 \\', '--port 63110'],
        'access_log': 'Observe vLLM access logs: `GET /get_load HTTP/1.1" 404 Not Found`',
        'curl': ['$ curl http://decode1:63110/load', '{"server_load": 0}', '$ curl http://decode1:63110/get_load',
                 '{"detail":"Not Found"}'],
        'root_cause_head': 'There are **two mismatches** between vllm-router and vLL',
    },
    log=['GET /get_load HTTP/1.1" 404 Not Found'],
    engine_args=('--enable-server-load-tracking --vllm-pd-disaggregation --prefill-policy power_of_two '
                 '--decode-policy power_of_two'),
    args_model=None,
    args_gpu=None,
    notes=('the log line is the vLLM access-log entry the reporter quotes (cut to the request/status part); engine_args '
           'join the vLLM flag (--enable-server-load-tracking) and the router flags of the reproduction; the reporter\'s '
           'curl checks of /load and /get_load are investigation, not inputs; the load-aware policy falling back to '
           'random choice is passed as symptom other'),
    leak=("The title and summary (the router queries /get_load while vLLM serves /load with server_load), the curl checks "
          "and the root-cause section are left out."),
    hard=None))

I.append(dict(
    src='https://github.com/vllm-project/router/pull/2', thread_type='pr',
    engine='vllm-router (Rust) prefill/decode disaggregation proxy in front of vLLM (vllm bench serve client)',
    engine_version='Oct 2025', gpu=None, model='meta-llama/Llama-3.1-8B-Instruct',
    symptom='other', layer='gateway_client',
    root_cause=('The router built the prefill request with stream=False and max_tokens=1 but copied the client\'s '
                'stream_options into it; vLLM rejects stream_options without stream=True with 400, so every prefill '
                'failed, no KV was transferred and the decode instance ended up doing all the work.'),
    fix='Drop stream_options (the client streaming fields) from the prefill request the router sends.',
    confidence='confirmed_by_reporter',
    evidence={
        'title': 'Fix: Prefill router issue fix and documentation update',
        'context': ('**Context**: While running the `vllm bench serve` command, we were seeing that the Prefill-server '
                    'was returning 400 status code, for any of the requests, and due to which there was no kv transfer '
                    'happening between prefill and decode, and eventually decode was serving the requests.'),
        'error': ["Prefill response body content: {\"error\":{\"message\":\"[{'type': 'value_error', 'loc': ('body',), "
                  "'msg': 'Value error, Stream options can only be defined",
                  "when `stream=True`.', 'input': {'echo': False, 'ignore_eos': True, 'kv_transfer_params': "
                  "{'do_remote_decode': True, 'do_remote_prefill': False,",
                  "'remote_block_ids': None, 'remote_engine_id': None, 'remote_host': None, 'remote_port': None}, "
                  "'max_tokens': 1, 'model':",
                  "'meta-llama/Llama-3.1-8B-Instruct', 'no_stop_trim': False, 'prompt': 'Do you know the book Traction "
                  "by Gino Wickman', 'repetition_penalty': 1.0,",
                  "'return_hidden_states': False, 'skip_special_tokens': True, 'stream': Fals"],
    },
    log=[('error', 0), ('error', 1)],
    args_model='meta-llama/Llama-3.1-8B-Instruct',
    args_gpu=None,
    notes=('the two log lines are the first two lines of the prefill error body the router logged (wrapped over several '
           'lines in the PR; trailing blanks dropped); no flags or metrics are given; all requests ending up served by '
           'the decode instance without KV transfer is passed as symptom other'),
    leak=("The PR's context paragraph (prefill returns 400 for every request, so no KV transfer happens and decode serves "
          "everything) and the fix are left out."),
    hard=None))


# ---------------------------------------------------------------------------------------------
def main():
    return incident_set_build.write_set(HERE, I, seed=20261229, prefix='new')


if __name__ == '__main__':
    sys.exit(main())
