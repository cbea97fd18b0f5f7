#!/usr/bin/env python3
"""The checks every out-of-sample incident set runs on itself (incidents_fresh2/ and later: their
check.py calls run() with its folder, the sets before it and the one whose exclusion list it
carries over). For every case it verifies:
  - args.json has exactly the keys symptom, engine_args, model, gpu, observe, outputs, usable, input_notes,
    with the right value types; symptom is one of the fixed symptom classes or null;
  - observe names are in the diagnose vocabulary (VOCAB of make_bundles.py) and values are numbers,
    each with a source snippet that occurs in the incident's evidence;
  - outputs is true exactly when outputs.txt exists; a usable case has a machine-usable input;
  - expected.json has exactly the keys layer, symptom_class, root_cause, source, leak_check, confidence,
    engine, hard, hard_reason; layer/symptom/confidence are from the fixed lists and agree with args.json
    and incidents.jsonl; hard_reason is set exactly when hard is true;
  - every log.txt / outputs.txt line is a non-empty single line that is a verbatim substring of one of
    that incident's evidence strings in incidents.jsonl;
  - incidents.jsonl has the required fields, unique ids and unique sources, matching the case folders;
  - case ids are new-001 .. new-NNN without gaps;
  - no source is one of the threads listed in the set's excluded_sources.txt, which itself contains every
    source of the earlier sets and every URL of the previous set's excluded_sources.txt.
The fixed lists are cross-checked against the development set's make_bundles.py when that file is present.
run() returns 1 and lists the problems when anything fails.
"""
import importlib.util, json, os, re, sys

DEV_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'incidents')   # only for the VOCAB/list cross-check
# Set by run(): the set's folder, its cases, its exclusion list, the earlier sets, the previous set.
HERE = CASES = EXCLUDED = PREVIOUS = ''
EARLIER_SETS = ()

VOCAB = {'running', 'waiting', 'kv_usage', 'preemptions_per_s', 'prefix_cache_hit_rate', 'ttft_p50_s',
         'ttft_p99_s', 'tpot_p50_s', 'tpot_p99_s', 'e2e_p99_s', 'request_rate', 'input_len_mean',
         'input_len_p99', 'output_len_mean', 'output_tokens_per_s', 'expected_output_tokens_per_s',
         'gpu_util', 'power_w', 'power_limit_w', 'sm_clock_mhz', 'max_sm_clock_mhz', 'temp_c',
         'gpu_mem_used_gib', 'gateway_timeout_s', 'client_retry_rate', 'error_rate'}
SYMPTOMS = {'startup_oom', 'runtime_oom_or_preemption', 'ttft_spike', 'tpot_high', 'throughput_low',
            'output_quality', 'timeout_or_stream_break'}
LAYERS = {'load', 'scheduling_capacity', 'operator_hardware', 'numeric_parameter', 'gateway_client'}
CONFIDENCE = {'confirmed_by_reporter', 'maintainer_explained', 'plausible'}

ARGS_KEYS = {'symptom', 'engine_args', 'model', 'gpu', 'observe', 'outputs', 'usable', 'input_notes'}
EXP_KEYS = {'layer', 'symptom_class', 'root_cause', 'source', 'leak_check', 'confidence', 'engine', 'hard',
            'hard_reason'}
INC_KEYS = {'id', 'source', 'engine', 'engine_version', 'gpu', 'model', 'symptom_class', 'evidence',
            'root_cause_layer', 'root_cause', 'fix', 'confidence'}

def thread_key(url):
    m = re.match(r'https?://github\.com/([^/]+)/([^/]+)/(?:issues|pull|discussions)/(\d+)', url.strip())
    if not m:
        return url.strip().lower()
    owner, repo, num = m.groups()
    repo_l = f'{owner}/{repo}'.lower()
    # llama.cpp moved from ggerganov to ggml-org; treat both as one repo
    repo_l = repo_l.replace('ggerganov/llama.cpp', 'ggml-org/llama.cpp')
    return f'{repo_l}#{num}'


def load_vocab_from_dev(problems):
    """Cross-check the copied lists against make_bundles.py when it is available."""
    p = os.path.join(DEV_DIR, 'make_bundles.py')
    if not os.path.exists(p):
        return
    spec = importlib.util.spec_from_file_location('make_bundles', p)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # noqa: BLE001
        problems.append(f'could not import {p}: {e}')
        return
    for name, mine in (('VOCAB', VOCAB), ('SYMPTOMS', SYMPTOMS), ('LAYERS', LAYERS), ('CONFIDENCE', CONFIDENCE)):
        if getattr(mod, name, None) != mine:
            problems.append(f'{name} differs from {p}')


def flatten(x):
    if isinstance(x, str):
        return [x]
    if isinstance(x, list):
        return [s for v in x for s in flatten(v)]
    if isinstance(x, dict):
        return [s for v in x.values() for s in flatten(v)]
    return [] if x is None else [str(x)]


def excluded_keys():
    """Thread keys from excluded_sources.txt (one URL a line; blank lines and # comments ignored)."""
    keys = set()
    if not os.path.exists(EXCLUDED):
        return keys, []
    for line in open(EXCLUDED):
        u = line.strip()
        if u and not u.startswith('#'):
            keys.add(thread_key(u))
    return keys, [EXCLUDED]


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def main():
    problems = []
    load_vocab_from_dev(problems)
    incs = {}
    seen_src = {}
    for n, line in enumerate(open(os.path.join(HERE, 'incidents.jsonl')), 1):
        if not line.strip():
            continue
        r = json.loads(line)
        missing = INC_KEYS - set(r)
        if missing:
            problems.append(f'incidents.jsonl line {n}: missing fields {sorted(missing)}')
        if r.get('id') in incs:
            problems.append(f'duplicate id {r.get("id")}')
        incs[r.get('id')] = r
        k = thread_key(r.get('source', ''))
        if k in seen_src:
            problems.append(f'{r.get("id")}: same thread as {seen_src[k]} ({r.get("source")})')
        seen_src[k] = r.get('id')
        if r.get('root_cause_layer') not in LAYERS:
            problems.append(f'{r.get("id")}: bad root_cause_layer {r.get("root_cause_layer")}')
        if r.get('symptom_class') not in SYMPTOMS | {'other'}:
            problems.append(f'{r.get("id")}: bad symptom_class {r.get("symptom_class")}')
        if r.get('confidence') not in CONFIDENCE:
            problems.append(f'{r.get("id")}: bad confidence {r.get("confidence")}')
        if not isinstance(r.get('evidence'), dict) or not r['evidence']:
            problems.append(f'{r.get("id")}: evidence must be a non-empty object')

    excl, excl_files = excluded_keys()
    if not excl_files:
        problems.append('excluded_sources.txt not found next to check.py')
    for iid, r in incs.items():
        if thread_key(r['source']) in excl:
            problems.append(f'{iid}: source is an excluded (already used) thread: {r["source"]}')
    # every earlier set's sources must be listed in excluded_sources.txt (union of all earlier lists)
    for earlier in EARLIER_SETS:
        p = os.path.join(HERE, '..', earlier, 'incidents.jsonl')
        if not os.path.exists(p):
            continue
        for line in open(p):
            if line.strip():
                src = json.loads(line).get('source', '')
                if thread_key(src) not in excl:
                    problems.append(f'excluded_sources.txt lacks a source of {earlier}: {src}')

    # the previous batch's exclusion list must be carried over in full (this list = that list + its sources)
    prev = os.path.join(HERE, '..', PREVIOUS, 'excluded_sources.txt') if PREVIOUS else ''
    if os.path.exists(prev):
        for line in open(prev):
            u = line.strip()
            if u and not u.startswith('#') and thread_key(u) not in excl:
                problems.append(f'excluded_sources.txt lacks a URL of ../{PREVIOUS}/excluded_sources.txt: {u}')

    dirs = sorted(d for d in os.listdir(CASES) if d.startswith('new-'))
    others = sorted(d for d in os.listdir(CASES) if not d.startswith('new-'))
    if others:
        problems.append(f'unexpected entries in cases/: {others}')
    if dirs != [f'new-{i:03d}' for i in range(1, len(dirs) + 1)]:
        problems.append('case ids are not new-001 .. new-NNN without gaps')
    if set(dirs) != set(incs):
        problems.append(f'case folders and incidents.jsonl ids differ: {sorted(set(dirs) ^ set(incs))}')

    for iid in dirs:
        d = os.path.join(CASES, iid)
        inc = incs.get(iid)
        if inc is None:
            continue
        ev_strings = flatten({k: v for k, v in inc['evidence'].items() if k != 'observe_sources'})
        ev_text = '\n'.join(ev_strings)
        for fn in ('log.txt', 'args.json', 'expected.json'):
            if not os.path.exists(os.path.join(d, fn)):
                problems.append(f'{iid}: missing {fn}')
        try:
            args = json.load(open(os.path.join(d, 'args.json')))
            exp = json.load(open(os.path.join(d, 'expected.json')))
        except Exception as e:  # noqa: BLE001
            problems.append(f'{iid}: unreadable json: {e}')
            continue
        # ---- args.json
        if set(args) != ARGS_KEYS:
            problems.append(f'{iid}: args.json keys {sorted(set(args) ^ ARGS_KEYS)} wrong')
        sym = args.get('symptom')
        if sym is not None and sym not in SYMPTOMS:
            problems.append(f'{iid}: args symptom not in list: {sym}')
        for k in ('engine_args', 'model', 'gpu'):
            if args.get(k) is not None and not (isinstance(args[k], str) and args[k].strip()):
                problems.append(f'{iid}: {k} must be a non-empty string or null')
        if not isinstance(args.get('input_notes'), str) or not args['input_notes'].strip():
            problems.append(f'{iid}: input_notes must be a non-empty string')
        if not isinstance(args.get('outputs'), bool) or not isinstance(args.get('usable'), bool):
            problems.append(f'{iid}: outputs/usable must be booleans')
        if args.get('usable') is not True:
            problems.append(f'{iid}: usable must be true')
        obs = args.get('observe')
        srcs = inc['evidence'].get('observe_sources', {})
        if not isinstance(obs, dict):
            problems.append(f'{iid}: observe must be an object')
            obs = {}
        for k, v in obs.items():
            if k not in VOCAB:
                problems.append(f'{iid}: observe name not in VOCAB: {k}')
            if not is_num(v):
                problems.append(f'{iid}: observe value not a number: {k}={v!r}')
            snip = srcs.get(k)
            if not snip or snip not in ev_text:
                problems.append(f'{iid}: observe {k} has no source snippet in the evidence')
        out_path = os.path.join(d, 'outputs.txt')
        if args.get('outputs') != os.path.exists(out_path):
            problems.append(f'{iid}: outputs flag does not match outputs.txt presence')
        # ---- verbatim log / outputs
        lines = []
        for fn in ('log.txt', 'outputs.txt'):
            p = os.path.join(d, fn)
            if not os.path.exists(p):
                continue
            raw = open(p, encoding='utf-8').read()
            if raw and not raw.endswith('\n'):
                problems.append(f'{iid}: {fn} does not end with a newline')
            for ln in raw.split('\n')[:-1] if raw else []:
                lines.append((fn, ln))
                if not ln:
                    problems.append(f'{iid}: empty line in {fn}')
                elif not any(ln in s for s in ev_strings):
                    problems.append(f'{iid}: {fn} line not a verbatim substring of the evidence: {ln[:80]!r}')
        if args.get('outputs') and not any(f == 'outputs.txt' for f, _ in lines):
            problems.append(f'{iid}: outputs.txt is empty')
        has_input = bool(lines or obs or args.get('engine_args'))
        if args.get('usable') and not has_input:
            problems.append(f'{iid}: usable but no machine-usable input (log, outputs, observe or engine_args)')
        # ---- expected.json
        if set(exp) != EXP_KEYS:
            problems.append(f'{iid}: expected.json keys {sorted(set(exp) ^ EXP_KEYS)} wrong')
        if exp.get('layer') not in LAYERS:
            problems.append(f'{iid}: layer not in list: {exp.get("layer")}')
        sc = exp.get('symptom_class')
        if sc not in SYMPTOMS | {'other'}:
            problems.append(f'{iid}: symptom_class not in list: {sc}')
        if (None if sc == 'other' else sc) != sym:
            problems.append(f'{iid}: args symptom {sym} does not match symptom_class {sc}')
        if exp.get('confidence') not in CONFIDENCE:
            problems.append(f'{iid}: confidence not in list: {exp.get("confidence")}')
        if not isinstance(exp.get('hard'), bool):
            problems.append(f'{iid}: hard must be a boolean')
        elif exp['hard'] != isinstance(exp.get('hard_reason'), str):
            problems.append(f'{iid}: hard_reason must be a string exactly when hard is true')
        for k in ('root_cause', 'leak_check', 'engine', 'source'):
            if not isinstance(exp.get(k), str) or not exp[k].strip():
                problems.append(f'{iid}: {k} must be a non-empty string')
        if exp.get('source') != inc['source'] or exp.get('layer') != inc['root_cause_layer'] \
                or sc != inc['symptom_class'] or exp.get('confidence') != inc['confidence'] \
                or exp.get('root_cause') != inc['root_cause']:
            problems.append(f'{iid}: expected.json disagrees with incidents.jsonl')

    if problems:
        print('\n'.join(problems))
        print(f'{len(problems)} problem(s)')
        return 1
    print(f'OK: {len(dirs)} cases checked (exclusions from: {", ".join(excl_files)})')
    return 0


def transitive_exclusion(here, earlier_sets):
    """The guard against a thread reused through a chain of sets: every URL of every earlier set's
    excluded_sources.txt is in this set's list, and no source of this set is on any of them.
    Prints the problems; returns the exit code."""
    key = thread_key
    mine = {key(l) for l in open(os.path.join(here, 'excluded_sources.txt')) if l.strip() and not l.startswith('#')}
    srcs = [json.loads(l)['source'] for l in open(os.path.join(here, 'incidents.jsonl')) if l.strip()]
    problems = []
    for s in earlier_sets:
        p = os.path.join(here, '..', s, 'excluded_sources.txt')
        if not os.path.exists(p):
            continue
        theirs = {key(l) for l in open(p) if l.strip() and not l.startswith('#')}
        problems += [f'excluded_sources.txt lacks a URL of ../{s}/excluded_sources.txt: {u}' for u in sorted(theirs - mine)]
        problems += [f'source is on ../{s}/excluded_sources.txt: {u}' for u in srcs if key(u) in theirs]
    for p in problems:
        print(p)
    return 1 if problems else 0


def run(here, earlier_sets, previous='', transitive=False):
    """Checks the set in folder `here`; `earlier_sets` (folder names beside it) must all be excluded,
    and so must every URL of `previous`'s excluded_sources.txt; with `transitive`, also every URL
    of every earlier set's list (transitive_exclusion). Returns the exit code."""
    global HERE, CASES, EXCLUDED, EARLIER_SETS, PREVIOUS
    HERE = os.path.abspath(here)
    CASES = os.path.join(HERE, 'cases')
    EXCLUDED = os.path.join(HERE, 'excluded_sources.txt')
    EARLIER_SETS = tuple(earlier_sets)
    PREVIOUS = previous
    rc = main()
    return max(rc, transitive_exclusion(HERE, EARLIER_SETS)) if transitive else rc
