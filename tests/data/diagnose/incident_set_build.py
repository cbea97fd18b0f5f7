#!/usr/bin/env python3
"""What every incident set's build.py does once its cases are listed: check each log/output line
and observe snippet against the case's own evidence, and write cases/ and incidents.jsonl (the
bundle format of the development set's make_bundles.py; README.md in each set). The sets keep
only their case list, their shuffle seed and their id prefix."""
import json
import os
import random
import shutil


def flatten(x):
    if isinstance(x, str):
        return [x]
    if isinstance(x, list):
        return [s for v in x for s in flatten(v)]
    if isinstance(x, dict):
        return [s for v in x.values() for s in flatten(v)]
    return [] if x is None else [str(x)]


def resolve(ev, item):
    if isinstance(item, tuple):
        key, idx = item
        v = ev[key]
        return v[idx] if idx is not None else v
    return item


def write_set(here, cases, seed, prefix='new'):
    """Writes the set in folder `here` from `cases` (the build.py's list I): cases/<prefix>-NNN/ in
    an order shuffled by `seed` (so the id says nothing about the layer) and incidents.jsonl.
    Returns 1 and lists the problems when a log/output line or an observe snippet is not verbatim
    in the case's evidence, or a case has no machine-usable input."""
    I = cases
    HERE = os.path.abspath(here)
    OUT = os.path.join(HERE, 'cases')
    order = list(range(len(I)))
    random.Random(seed).shuffle(order)   # mix layers so the id order says nothing
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    problems = []
    rows = []
    for n, k in enumerate(order, 1):
        c = I[k]
        iid = f'{prefix}-{n:03d}'
        ev = dict(c['evidence'])
        log = [resolve(ev, x) for x in c.get('log', [])]
        outs = [resolve(ev, x) for x in c.get('outputs', [])]
        observe = {name: v for name, (v, _) in (c.get('observe') or {}).items()}
        ev['observe_sources'] = {name: snip for name, (_, snip) in (c.get('observe') or {}).items()}
        ev_text = '\n'.join(flatten(c['evidence']))
        for name, (_, snip) in (c.get('observe') or {}).items():
            if snip not in ev_text:
                problems.append(f'{iid}: observe snippet not in evidence: {name} <- {snip!r}')
        for line in log + outs:
            if line not in ev_text or '\n' in line:
                problems.append(f'{iid}: log/output line not a single-line verbatim substring: {line!r}')
        sym = c['symptom']
        rows.append(dict(id=iid, source=c['src'], thread_type=c['thread_type'], engine=c['engine'],
                         engine_version=c['engine_version'], gpu=c['gpu'], model=c['model'],
                         symptom_class=sym, evidence=ev, root_cause_layer=c['layer'],
                         root_cause=c['root_cause'], fix=c['fix'], confidence=c['confidence']))
        d = os.path.join(OUT, iid)
        os.makedirs(d)
        with open(os.path.join(d, 'log.txt'), 'w') as f:
            f.write(''.join(l + '\n' for l in log))
        if outs:
            with open(os.path.join(d, 'outputs.txt'), 'w') as f:
                f.write(''.join(o + '\n' for o in outs))
        args = {'symptom': None if sym == 'other' else sym, 'engine_args': c.get('engine_args'),
                'model': c.get('args_model', c['model']), 'gpu': c.get('args_gpu', c['gpu']),
                'observe': observe, 'outputs': bool(outs), 'usable': True, 'input_notes': c['notes']}
        if not (log or outs or observe or args['engine_args']):
            problems.append(f'{iid}: no machine-usable input')
        with open(os.path.join(d, 'args.json'), 'w') as f:
            json.dump(args, f, indent=1, ensure_ascii=False); f.write('\n')
        exp = {'layer': c['layer'], 'symptom_class': sym, 'root_cause': c['root_cause'], 'source': c['src'],
               'leak_check': c['leak'], 'confidence': c['confidence'], 'engine': c['engine'],
               'hard': bool(c.get('hard')), 'hard_reason': c.get('hard')}
        with open(os.path.join(d, 'expected.json'), 'w') as f:
            json.dump(exp, f, indent=1, ensure_ascii=False); f.write('\n')
    with open(os.path.join(HERE, 'incidents.jsonl'), 'w') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    if problems:
        print('\n'.join(problems)); return 1
    print(f'wrote {len(rows)} cases to {OUT} and incidents.jsonl')
    return 0
