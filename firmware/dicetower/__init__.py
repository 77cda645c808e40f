"""dicetower firmware: fair dice and score keeping for Marvel tabletop games.

The core decides, the ui shows, the hw drives the parts, the shell wires them
(core <- ui <- shell; hw: drivers only). Each layer imports only itself and
the layers its line names; tests/test_layers.py reads this table and checks
every import of every file. Files are in this package; main.py and boot.py
are beside it.

    layer  imports     files
    core   -           core/
    ui     core        ui/ web/scoreboard.py
    hw     -           hw/
    shell  core ui hw  main.py boot.py launch.py device.py wiring.py startup.py saves.py setup_files.py web/server.py
                       web/request.py web/access.py web/radio.py web/guard.py web/policy.py

core   the rules: dice, rolls, each game, undo, saves' format, the advisor; no I/O, no clock
ui     state -> what the OLED, the LEDs and a phone's page show; a press -> a core action
hw     one driver per part, the runtime seam (hw/platform.py), entropy sources, files
shell  settings and board profile -> drivers -> app -> the loop
"""

VERSION = "0.1.0"
