#!/usr/bin/env python3
"""Check the twelfth out-of-sample incident set (cases/new-NNN/ + incidents.jsonl): the checks are
../incident_set_check.py's; this set's sources must not be among incidents, incidents_fresh .. incidents_fresh10 nor in
../incidents_fresh10/excluded_sources.txt (which this set's excluded_sources.txt carries over in full, plus the 17 sources
of incidents_fresh10 = 401 URLs). As an extra guard it also verifies that every URL of every earlier set's
excluded_sources.txt is in this set's list and that no source of this set is in any earlier set's excluded_sources.txt.
Exits 1 and lists the problems when anything fails.
Usage: python3 check.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_check  # noqa: E402

EARLIER = ('incidents', 'incidents_fresh', 'incidents_fresh2', 'incidents_fresh3', 'incidents_fresh4', 'incidents_fresh5',
           'incidents_fresh6', 'incidents_fresh7', 'incidents_fresh8', 'incidents_fresh9', 'incidents_fresh10')



if __name__ == '__main__':
    sys.exit(incident_set_check.run(HERE, EARLIER, previous='incidents_fresh10', transitive=True))
