#!/usr/bin/env python3
"""Scores the out-of-sample set incidents_fresh31 with the development set's scorer (../incidents/score.py): the same command
lines, the same summary line. Usage: python3 score.py [--bin build/llmtriage] [--verbose] [--case ID]"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'incidents'))
import score  # noqa: E402

score.CASES = os.path.join(HERE, 'cases')
sys.exit(score.main())
