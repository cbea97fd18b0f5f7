#!/usr/bin/env python3
"""Check the sixth out-of-sample incident set (cases/new-NNN/ + incidents.jsonl): the checks are
../incident_set_check.py's; this set's sources must not be among incidents, incidents_fresh, incidents_fresh2, incidents_fresh3, incidents_fresh4 nor in
../incidents_fresh4/excluded_sources.txt. Exits 1 and lists the problems when anything fails.
Usage: python3 check.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_check  # noqa: E402

if __name__ == '__main__':
    sys.exit(incident_set_check.run(HERE, ('incidents', 'incidents_fresh', 'incidents_fresh2', 'incidents_fresh3', 'incidents_fresh4',), previous='incidents_fresh4'))
