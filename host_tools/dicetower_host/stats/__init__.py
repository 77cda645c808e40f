"""`dicetower stats`: the dice's fairness tested (maths.py: the tests; report.py: the report and its chart)."""
