#!/usr/bin/env python3
"""Score `llmtriage diagnose` against the development incident set in cases/.

Usage (from the project checkout):
    python3 <this dir>/score.py [--bin build/llmtriage] [--case dev-NNN ...] [--verbose] [--all] [--print-cmd]

Each usable bundle cases/dev-NNN/ becomes one call
    BIN diagnose [--symptom S] [--log log.txt] [--engine-args "..."] [--model M] [--gpu G]
                 [--observe k=v]... [--outputs outputs.txt] --json
with a 30 s timeout. The first finding's layer (findings[0].layer, or the first object with a
'layer' inside 'findings') is compared with expected.json's layer. --verbose prints one line per
case; the last line is always the summary
    dev set: X/N usable incidents located in the right layer (P%); by layer: ...; by symptom: ...
--all also scores bundles marked "usable": false. This is a measuring tool: it always exits 0.
"""
import argparse, json, os, signal, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, 'cases')
LAYERS = ['load', 'scheduling_capacity', 'operator_hardware', 'numeric_parameter', 'gateway_client']
SYMPTOMS = ['startup_oom', 'runtime_oom_or_preemption', 'ttft_spike', 'tpot_high', 'throughput_low',
            'output_quality', 'timeout_or_stream_break', 'other']
TIMEOUT_S = 30

# Accept the obvious spellings of each layer; anything else is scored as given (and so as wrong).
ALIASES = {
    'load': 'load', 'load_layer': 'load', 'workload': 'load', 'traffic': 'load',
    'scheduling_capacity': 'scheduling_capacity', 'scheduling': 'scheduling_capacity',
    'capacity': 'scheduling_capacity', 'scheduling_and_capacity': 'scheduling_capacity',
    'operator_hardware': 'operator_hardware', 'operator': 'operator_hardware', 'hardware': 'operator_hardware',
    'operator_and_hardware': 'operator_hardware', 'operators_hardware': 'operator_hardware',
    'numeric_parameter': 'numeric_parameter', 'numeric_parameters': 'numeric_parameter',
    'numeric': 'numeric_parameter', 'numerics': 'numeric_parameter', 'parameter': 'numeric_parameter',
    'parameters': 'numeric_parameter', 'numeric_and_parameters': 'numeric_parameter',
    'numerics_parameters': 'numeric_parameter',
    'gateway_client': 'gateway_client', 'gateway': 'gateway_client', 'client': 'gateway_client',
    'gateway_and_client': 'gateway_client', 'client_gateway': 'gateway_client',
}


def norm_layer(v):
    if v is None:
        return None
    s = str(v).strip().lower()
    for ch in '/-. &':
        s = s.replace(ch, '_')
    while '__' in s:
        s = s.replace('__', '_')
    s = s.strip('_')
    return ALIASES.get(s, s)


def first_with_layer(obj):
    """Depth-first, in document order: the first dict that has a 'layer' key."""
    if isinstance(obj, dict):
        if 'layer' in obj:
            return obj
        for v in obj.values():
            r = first_with_layer(v)
            if r is not None:
                return r
    elif isinstance(obj, list):
        for v in obj:
            r = first_with_layer(v)
            if r is not None:
                return r
    return None


def find_findings(obj):
    if isinstance(obj, dict):
        if 'findings' in obj:
            return obj['findings']
        for v in obj.values():
            r = find_findings(v)
            if r is not None:
                return r
    elif isinstance(obj, list):
        for v in obj:
            r = find_findings(v)
            if r is not None:
                return r
    return None


def parse_json(text):
    text = text.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    i = text.find('{')  # tolerate a banner or progress text before the document
    if i >= 0:
        try:
            return json.JSONDecoder().raw_decode(text[i:])[0]
        except ValueError:
            return None
    return None


def top_layer(doc):
    findings = find_findings(doc)
    if findings is None:
        return None, 'no "findings" in the JSON'
    if isinstance(findings, list) and findings and isinstance(findings[0], dict) and 'layer' in findings[0]:
        return findings[0]['layer'], None
    hit = first_with_layer(findings)
    if hit is None:
        return None, 'no finding with a "layer"'
    return hit['layer'], None


def fmt_num(v):
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return str(v)


def build_cmd(binary, d, args):
    cmd = [binary, 'diagnose']
    if args.get('symptom'):
        cmd += ['--symptom', args['symptom']]
    log = os.path.join(d, 'log.txt')
    if os.path.exists(log) and os.path.getsize(log) > 0:
        cmd += ['--log', log]
    if args.get('engine_args'):
        ea = args['engine_args']
        # A value that starts with '-' would be read as an option by option-aware parsers;
        # a leading space keeps it a value and is dropped by any whitespace tokenizer.
        cmd += ['--engine-args', ' ' + ea if ea.startswith('-') else ea]
    if args.get('model'):
        cmd += ['--model', args['model']]
    if args.get('gpu'):
        cmd += ['--gpu', args['gpu']]
    for k, v in (args.get('observe') or {}).items():
        cmd += ['--observe', f'{k}={fmt_num(v)}']
    if args.get('outputs'):
        cmd += ['--outputs', os.path.join(d, 'outputs.txt')]
    cmd += ['--json']
    return cmd


def run_one(cmd):
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
    except OSError as e:
        return None, f'cannot run: {e}'
    try:
        out, err = p.communicate(timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        p.communicate()
        return None, f'timed out after {TIMEOUT_S} s'
    doc = parse_json(out)
    if doc is None:
        tail = (err or out or '').strip().splitlines()[-1:] or ['']
        return None, f'no JSON (rc={p.returncode}): {tail[0][:160]}'
    return doc, None


def pct(a, b):
    return f'{(100.0 * a / b):.0f}%' if b else 'n/a'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--bin', default='build/llmtriage', help='the llmtriage binary (default build/llmtriage)')
    ap.add_argument('--case', action='append', default=[], help='score only this case (repeatable), e.g. dev-007')
    ap.add_argument('--verbose', action='store_true', help='one line per case')
    ap.add_argument('--all', action='store_true', help='also score bundles marked unusable')
    ap.add_argument('--print-cmd', action='store_true', help='print the command lines and run nothing')
    a = ap.parse_args()

    binary = os.path.abspath(a.bin)
    if not os.path.isdir(CASES):
        print(f'dev set: no cases/ folder next to {__file__} (run make_bundles.py first)')
        return 0
    names = sorted(n for n in os.listdir(CASES) if n.startswith('new-'))
    if a.case:
        want = set(a.case)
        names = [n for n in names if n in want]
    if not a.print_cmd and not os.path.exists(binary):
        print(f'dev set: binary not found: {binary}')
        print(f'dev set: 0/0 usable incidents located in the right layer (n/a); by layer: n/a; by symptom: n/a')
        return 0

    by_layer = {l: [0, 0] for l in LAYERS}
    by_sym = {s: [0, 0] for s in SYMPTOMS}
    ok = total = 0
    for n in names:
        d = os.path.join(CASES, n)
        args = json.load(open(os.path.join(d, 'args.json')))
        exp = json.load(open(os.path.join(d, 'expected.json')))
        if not args.get('usable', True) and not a.all:
            continue
        cmd = build_cmd(binary, d, args)
        if a.print_cmd:
            print(n + ': ' + ' '.join(repr(c) if (' ' in c or not c) else c for c in cmd))
            continue
        doc, err = run_one(cmd)
        got, why = (None, err) if doc is None else top_layer(doc)
        want = exp['layer']
        hit = norm_layer(got) == want
        total += 1
        ok += hit
        by_layer.setdefault(want, [0, 0])
        by_layer[want][1] += 1
        by_layer[want][0] += hit
        sym = exp.get('symptom_class') or 'other'
        by_sym.setdefault(sym, [0, 0])
        by_sym[sym][1] += 1
        by_sym[sym][0] += hit
        if a.verbose:
            mark = 'ok  ' if hit else 'MISS'
            extra = '' if hit else f' (got {got!r}{"; " + why if why else ""})'
            hard = ' [hard]' if exp.get('hard') else ''
            print(f'{mark} {n} {sym:26s} expected {want}{extra}{hard}')
    if a.print_cmd:
        return 0
    bl = ', '.join(f'{l} {v[0]}/{v[1]}' for l, v in by_layer.items() if v[1])
    bs = ', '.join(f'{s} {v[0]}/{v[1]}' for s, v in by_sym.items() if v[1])
    print(f'dev set: {ok}/{total} usable incidents located in the right layer ({pct(ok, total)}); '
          f'by layer: {bl or "n/a"}; by symptom: {bs or "n/a"}')
    return 0


if __name__ == '__main__':
    try:
        main()
    except Exception as e:  # a measuring tool: report and exit 0
        print(f'dev set: scorer error: {e}')
    sys.exit(0)
