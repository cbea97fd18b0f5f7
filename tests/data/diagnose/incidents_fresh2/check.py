#!/usr/bin/env python3
"""Check the second out-of-sample incident set (cases/new-NNN/ + incidents.jsonl): the checks are
../incident_set_check.py's; this set's sources must not be among the development set's and the
first fresh set's, nor in excluded_sources.txt (those two sets and 14 threads used elsewhere).
Exits 1 and lists the problems when anything fails.
Usage: python3 check.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_check  # noqa: E402

if __name__ == '__main__':
    sys.exit(incident_set_check.run(HERE, ('incidents', 'incidents_fresh')))
