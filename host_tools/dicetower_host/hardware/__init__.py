"""`dicetower hardware`: the parts and power budget (parts.py), the wiring drawings (wiring.py), the printable
tower (enclosure.py, through OpenSCAD)."""
