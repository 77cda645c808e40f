"""The `dicetower` command a player types, driven through its real entry point."""

import subprocess

import pytest

from conftest import ROOT, tool


def dicetower(*args, stdin=""):
    return subprocess.run([tool("dicetower"), *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_roll_reroll_finalize_with_set_faces():
    done = dicetower("roll", "--faces", "Mutant,Skill,Skill,Tech,Cosmic,Mystic,Mutant,Mutant", stdin="r 2 3\nf\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "1 Mutant    locked" in out
    assert "re-rolls left: 1" in out
    assert "Crystal Prison! 3 Mutant" in out
    assert "+1 PVP (1 Mystic)." in out


def test_refusals_are_explained_and_the_turn_goes_on():
    done = dicetower(
        "roll", "--faces", "Mutant,Skill,Skill,Tech,Cosmic,Mystic,Tech", stdin="r 1\nr 7\nl 2\nzap\nr 2\nf\n"
    )
    assert done.returncode == 0
    assert "Refused: Die 1 is locked (Mutant) for the rest of the turn." in done.stdout
    assert "Refused: There is no die 7; dice are numbered 1 to 6." in done.stdout
    assert "Refused: Only a Lucky hero" in done.stdout
    assert "Refused: Unknown command 'zap'" in done.stdout
    assert "Tech 2: up to 2 damage" in done.stdout


def test_lucky_hero_in_prison_escapes():
    done = dicetower(
        "roll",
        "--in-prison",
        "--ability",
        "Lucky",
        "--faces",
        "Cosmic,Cosmic,Skill,Tech,Mystic,Mutant,Cosmic",
        stdin="l 3\nf\n",
    )
    assert "Escape! Three Cosmic free you from the Crystal Prison" in done.stdout


def test_seeded_rolls_replay():
    first = dicetower("roll", "--seed", "42", stdin="r all\nf\nn\nf\n")
    again = dicetower("roll", "--seed", "42", stdin="r all\nf\nn\nf\n")
    assert first.stdout == again.stdout
    assert first.stdout.count("Dice (finalized)") == 2


def test_os_entropy_rolls():
    done = dicetower("roll", stdin="f\n")
    assert "host os.urandom" in done.stdout
    assert "Dice (finalized)" in done.stdout


def test_running_out_of_set_faces_is_reported():
    done = dicetower("roll", "--faces", "Skill,Skill", stdin="")
    assert done.returncode == 1
    assert "scripted faces ran out" in done.stdout


def test_throw_attack_die_against_a_target():
    done = dicetower("throw", "attack", "3", "--faces", "Star,Blank,5", "--bonus", "4", "--target", "8")
    assert done.stdout.splitlines() == ["Star Blank 5", "Star + 4 vs 8: hit", "Blank + 4 vs 8: miss", "5 + 4 vs 8: hit"]


def test_throw_coin_and_plain_dice():
    coin = dicetower("throw", "coin", "5", "--seed", "3")
    assert set(coin.stdout.split()) <= {"Energy", "Moon"} and len(coin.stdout.split()) == 5
    d20 = dicetower("throw", "d20", "10", "--seed", "3")
    assert all(1 <= int(f) <= 20 for f in d20.stdout.split())


def test_a_bonus_or_a_target_for_another_die_than_the_attack_die_is_refused():
    for args in (("coin", "--bonus", "3"), ("d6", "--target", "8"), ("battlerealm", "--bonus", "1")):
        done = dicetower("throw", *args)
        assert done.returncode == 2 and done.stdout == "", args
        assert "--bonus and --target go with the Attack Die" in done.stderr, done.stderr


def test_unknown_die_is_a_clear_error():
    done = dicetower("throw", "d1")
    assert done.returncode == 2
    assert "plain die has 2 to 100 sides" in done.stderr
    done = dicetower("throw", "banana")
    assert "unknown die 'banana'" in done.stderr


# -- every ordinary mistake is one line -------------------------------------------------------------


def one_line(capsys, *argv):
    """(status, the stderr line) of `dicetower ARGV` run through cli.main, which must say exactly one line."""
    from dicetower_host import cli

    try:
        status = cli.main(list(argv))
    except SystemExit as e:  # argparse's own refusals
        status = e.code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dicetower"), err
    return status, err.strip()


class SerialPort:
    def __init__(self, device, vid, description="Board in FS mode"):
        self.device, self.vid, self.description = device, vid, description


@pytest.fixture
def no_board(monkeypatch):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda: [SerialPort("/dev/ttyS0", None, "n/a")])


def test_monitor_and_stats_find_the_board_like_flash(capsys, monkeypatch, no_board):
    from serial.tools import list_ports

    from dicetower_host import flash

    status, said = one_line(capsys, "monitor", "--seconds", "1")
    assert status == 2 and said.startswith("dicetower: no board found")
    status, stats_said = one_line(capsys, "stats")
    assert status == 2 and stats_said == said  # the same words as flash's own search
    two = [SerialPort("/dev/ttyACM0", flash.RASPBERRY_PI_VID), SerialPort("/dev/ttyACM1", flash.RASPBERRY_PI_VID)]
    monkeypatch.setattr(list_ports, "comports", lambda: two)
    status, said = one_line(capsys, "monitor")
    assert status == 2 and "several boards" in said and "/dev/ttyACM0, /dev/ttyACM1" in said and "--port" in said
    # One board: the monitor opens it (here it is not there, so the monitor waits for it, then --seconds ends it).
    monkeypatch.setattr(list_ports, "comports", lambda: two[:1])
    opened = []
    from dicetower_host import monitor

    monkeypatch.setattr(monitor, "open_serial", lambda port: opened.append(port) or (lambda: Port()))
    from dicetower_host import cli

    assert cli.main(["monitor", "--seconds", "0.2"]) == 0
    assert opened == ["/dev/ttyACM0"]


class Port:
    def read(self, size=1):
        return b""


@pytest.mark.parametrize(
    "argv, words",
    [
        (["throw", "d1"], "a plain die has 2 to 100 sides"),
        (["throw", "banana"], "unknown die 'banana'"),
        (["throw", "d6", "0"], "throw 1 to 10000 dice at a time, not 0"),
        (["throw", "d6", "--faces", "Mutant"], "--faces: 'Mutant' is not a face of the d6 die"),
        (["throw", "attack", "--faces", "7"], "--faces: '7' is not a face of the Attack die (Star, 2, 3, 4, 5, Blank)"),
        (["roll", "--faces", "Star"], "--faces: 'Star' is not a face of the Battlerealm die"),
        (["throw", "d6", "many"], "argument count: invalid int value: 'many'"),
        (["monitor", "--port", "socket://127.0.0.1:9", "--count", "0"], "argument --count: must be a number above 0"),
        (
            ["monitor", "--port", "socket://127.0.0.1:9", "--seconds", "nan"],
            "argument --seconds: must be a number above 0",
        ),
        (
            ["monitor", "--port", "socket://127.0.0.1:9", "--save", "/no/such/folder/log.jsonl"],
            "cannot write --save /no/such/folder/log.jsonl: No such file or directory",
        ),
        (["stats", "/no/such/log.jsonl"], "cannot read the log"),
        (["stats", "/"], "cannot read the log"),
        (["stats", "log.jsonl", "--port", "socket://127.0.0.1:9"], "give a log file or --port, not both"),
        (["stats", "--rolls", "-5"], "argument --rolls: must be a number above 0"),
        (["hardware", "bom", "--board", "picoo"], "unknown board 'picoo'; the boards are: pico,"),
        (["hardware", "bom", "--out", "/proc/no"], "cannot write the bom into /proc/no"),
        (["nonsense"], "argument COMMAND: invalid choice: 'nonsense'"),
    ],
)
def test_each_ordinary_mistake_is_one_line(capsys, argv, words):
    status, said = one_line(capsys, *argv)
    assert status == 2 and words in said, said


def test_stats_png_into_a_missing_folder_is_one_line(capsys, tmp_path):
    log = tmp_path / "log.jsonl"
    log.write_text('{"event": "roll", "hero": "Hulk", "faces": ["Mutant", "Skill", "Tech", "Tech", "Tech", "Tech"]}\n')
    status, said = one_line(capsys, "stats", str(log), "--png", str(tmp_path / "nope" / "h.png"))
    assert status == 2 and said.startswith("dicetower: cannot write --png %s" % (tmp_path / "nope" / "h.png"))


def test_a_bug_keeps_its_traceback(monkeypatch):
    """A ValueError that is not a UserError is a fault in the code: cli lets it through, traceback and all."""
    from dicetower_host import cli
    from dicetower_host.commands import throw

    def broken(args, out=None):
        raise ValueError("a bug")

    monkeypatch.setattr(throw, "run", broken)
    with pytest.raises(ValueError, match="a bug"):
        cli.main(["throw", "d6"])


# -- the help a new user reads ----------------------------------------------------------------------


def test_the_help_says_what_dicetower_is_and_what_each_command_does():
    from dicetower_host import cli

    done = dicetower("--help")
    assert done.returncode == 0
    text = done.stdout
    first = text.split("\n\n")[1].replace("\n", " ")
    assert first.startswith("dicetower: fair electronic dice") and "`" not in first
    for name in cli.COMMANDS:
        listed = [line for line in text.splitlines() if line.strip().startswith(name + " ")]
        assert listed and len(listed[0].split(None, 1)) == 2, name  # the name, then what it does
        sub = dicetower(name, "--help").stdout
        assert sub.split("\n\n")[1].strip(), name  # its own description under the usage


def test_throws_faces_example_uses_the_thrown_dice():
    from dicetower.core import dice

    text = " ".join(dicetower("throw", "--help").stdout.split())
    example = text.split("--faces FACES")[-1].split("(teaching")[0]
    assert "Mutant" not in example and "Star,3,Blank" in example and "Moon,Energy" in example
    for faces in ("Star,3,Blank", "Moon,Energy"):
        for face in faces.split(","):
            assert face in list(dice.ATTACK.faces) + list(dice.DANGER_COIN.faces)
    done = dicetower("throw", "attack", "3", "--faces", "Star,3,Blank")
    assert done.returncode == 0 and done.stdout.split() == ["Star", "3", "Blank"]


# A Ctrl-C at the moment the k-th module starts loading, once the console script's own code runs: the
# interrupt is the real signal (os.kill), sent from an import hook so that the moment is the same on a
# loaded machine. (Before the console script's first line, Python's own start-up is not ours to word.)
CTRL_C_AT_IMPORT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal (a CI job may start with it ignored)
class Interrupt:
    seen = 0
    def find_spec(self, name, path=None, target=None):
        Interrupt.seen += 1
        if Interrupt.seen == {k}:
            os.kill(os.getpid(), signal.SIGINT)
        return None
from dicetower_host import console
sys.meta_path.insert(0, Interrupt())
sys.argv = ["dicetower"] + {args!r}
try:
    sys.exit(console.main())
finally:
    if {k} == 0:
        os.write(2, b"imports %d" % Interrupt.seen)
"""


@pytest.mark.parametrize(
    "args", [["throw", "attack", "3"], ["sim", "--script", "-"], ["stats", "--help"]], ids=["throw", "sim", "stats"]
)
def test_ctrl_c_while_a_command_loads_is_one_line(args):
    python = tool("python")
    counted = subprocess.run(
        [python, "-c", CTRL_C_AT_IMPORT.format(k=0, args=args)], input="", capture_output=True, text=True, timeout=120
    )
    loads = int(counted.stderr.rsplit("imports ", 1)[1])  # the modules the command looks for as it loads
    assert loads > 20, counted.stderr[-500:]
    for k in sorted({1, 2, 3, 5, 8, loads // 4, loads // 2, (3 * loads) // 4, loads - 1}):
        done = subprocess.run(
            [python, "-c", CTRL_C_AT_IMPORT.format(k=k, args=args)],
            input="",
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.stderr == "dicetower: interrupted\n", (k, done.stderr[-1500:])
        assert done.returncode == 130, k


@pytest.mark.parametrize("command", ["stats", "monitor", "flash"])
@pytest.mark.parametrize(
    "url, said",
    [
        (
            "bogus://x",
            "'bogus://x' is not a port this command opens: give a device (/dev/ttyACM0, COM3) or socket://HOST:PORT",
        ),
        ("socket://127.0.0.1", "'socket://127.0.0.1' needs a host and a port number, e.g. socket://127.0.0.1:41069"),
        ("socket://127.0.0.1:0", "needs a host and a port number"),
    ],
)
def test_a_port_url_no_board_can_be_at_is_one_line(command, url, said):
    done = dicetower(command, "--port", url)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


@pytest.mark.parametrize("png", ["{tmp}", "{tmp}/dice.jpg", "{tmp}/dice"])
def test_a_histogram_that_is_not_a_png_file_is_one_line(tmp_path, png):
    log = tmp_path / "rolls.jsonl"
    log.write_text('{"event": "roll", "dice": "battlerealm", "faces": [1, 2, 3, 4, 5, 0]}\n')
    done = dicetower("stats", str(log), "--png", png.format(tmp=tmp_path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "is not a .png file to write" in done.stderr, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["rolls.jsonl"]


@pytest.mark.slow  # mpremote waits 10 s for the raw REPL's prompt before it gives up
def test_a_port_that_is_not_micropython_is_one_line_without_a_stray_bytes_literal():
    """mpremote prints what came instead of the raw REPL's prompt (b'') before it gives up: that line
    reached the user's terminal ahead of the error."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def silent():  # takes every byte, answers none
        conn, _ = server.accept()
        while conn.recv(100):
            pass

    threading.Thread(target=silent, daemon=True).start()
    done = dicetower("flash", "--port", "socket://127.0.0.1:%d" % server.getsockname()[1], "--board", "pico")
    server.close()
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1 and "does not answer as a MicroPython REPL" in done.stderr


def test_a_hint_runs_as_typed_from_a_fresh_clone(tmp_path):
    """Without an activated venv, `dicetower` is not on PATH: the hint names the command as it was run."""
    import os
    import signal

    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(p, "dicetower"))
    )
    command = os.path.relpath(tool("dicetower"))
    board = subprocess.Popen(
        [command, "pico", "--headless", "--files", str(tmp_path / "f")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        lines = []
        for _ in range(10):  # its few lines about itself, the hint among them
            line = board.stdout.readline()
            lines.append(line)
            if line.startswith("try: ") or not line:
                break
    finally:
        board.send_signal(signal.SIGTERM)
        board.communicate(timeout=60)
    url = lines[0].split(" on ")[1].split()[0]
    assert lines[-1] == "try: %s flash --port %s --board pico\n" % (command, url), lines


def test_a_monitor_port_that_is_not_there_is_one_line_not_a_wait(capsys, tmp_path):
    # It waited for ever, saying "waiting for it", for a typo.
    missing = str(tmp_path / "ttyACM9")
    status, said = one_line(capsys, "monitor", "--port", missing)
    assert (
        status == 2
        and said == "dicetower: no port %s (a board plugged in? `dicetower monitor` without --port finds it)" % missing
    )


def test_version_names_the_installed_package(capsys):
    from importlib import metadata

    from dicetower_host import cli

    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out == "dicetower %s\n" % metadata.version("dicetower")


def test_a_mistyped_task_is_named_with_the_task_meant():
    import sys

    done = subprocess.run([sys.executable, "tasks.py", "simm"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "tasks.py: no task named 'simm' (did you mean sim?); the tasks are sim, test, bench, package "
        "(python3 tasks.py says more)\n"
    )
