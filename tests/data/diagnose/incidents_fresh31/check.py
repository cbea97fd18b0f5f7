#!/usr/bin/env python3
"""Check the out-of-sample incident set incidents_fresh31 (cases/new-NNN/ + incidents.jsonl): the checks are
../incident_set_check.py's; this set's sources must not be among incidents, incidents_fresh .. incidents_fresh30 nor in
../incidents_fresh30/excluded_sources.txt. This set's excluded_sources.txt is /work/excluded_605.txt: fresh30's list
(571 URLs) plus the 34 sources of incidents_fresh28, incidents_fresh29 and incidents_fresh30 = 605 URLs (sets gathered in
parallel with this one shared a claims list so no thread is used twice). As an extra guard it also verifies that every
URL of every earlier set's excluded_sources.txt is in this set's list and that no source of this set is in any earlier
set's excluded_sources.txt (transitive=True).
Exits 1 and lists the problems when anything fails.
Usage: python3 check.py
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import incident_set_check  # noqa: E402

EARLIER = ('incidents', 'incidents_fresh', 'incidents_fresh2', 'incidents_fresh3', 'incidents_fresh4',
           'incidents_fresh5', 'incidents_fresh6', 'incidents_fresh7', 'incidents_fresh8', 'incidents_fresh9',
           'incidents_fresh10', 'incidents_fresh11', 'incidents_fresh12', 'incidents_fresh13', 'incidents_fresh14',
           'incidents_fresh15', 'incidents_fresh16', 'incidents_fresh17', 'incidents_fresh18', 'incidents_fresh19',
           'incidents_fresh20', 'incidents_fresh21', 'incidents_fresh22', 'incidents_fresh23', 'incidents_fresh24',
           'incidents_fresh25', 'incidents_fresh26', 'incidents_fresh27', 'incidents_fresh28', 'incidents_fresh29',
           'incidents_fresh30')


if __name__ == '__main__':
    sys.exit(incident_set_check.run(HERE, EARLIER, previous='incidents_fresh30', transitive=True))
