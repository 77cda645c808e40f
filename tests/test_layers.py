"""The firmware's layers, as firmware/dicetower/__init__.py draws them: every import of every file checked.

core <- ui <- shell, and hw is drivers only. The table in the package's docstring is the one
statement of which file is in which layer and what each layer may import; this test reads it,
so the picture cannot drift from the code. Imports inside functions count (a lazy import is
still a dependency), and so do module names written as strings (`__import__`, games.COUNTS).
"""

import ast
import os

import pytest

from conftest import FIRMWARE, firmware_files

PACKAGE = os.path.join(FIRMWARE, "dicetower")
# What core/ and ui/ may use of the runtime: the pure parts of the standard library. No clock, no
# files, no hardware, no randomness of their own (it is injected): what the design asks of them.
# sys: the dice release their start-up test's module once it has passed (sys.modules: memory, not I/O).
PURE = {"array", "binascii", "hashlib", "json", "math", "micropython", "struct", "sys"}


def layer_table():
    """{layer: (layers it may import, [files and folders, relative to firmware/])} from the docstring."""
    with open(os.path.join(PACKAGE, "__init__.py")) as f:
        doc = ast.get_docstring(ast.parse(f.read()))
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split() == ["layer", "imports", "files"])
    table = {}
    last = None
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        words = line.split()
        if line.startswith(" " * 8):  # a continuation: more files of the layer above
            table[last][1].extend(words)
            continue
        last, imports, files = words[0], [], []
        for word in words[1:]:
            if files or "/" in word or word.endswith(".py"):
                files.append(word)
            elif word != "-":
                imports.append(word)
        table[last] = (imports, files)
    out = {}
    for layer, (imports, files) in table.items():
        paths = []
        for name in files:  # in the package, or beside it (main.py, boot.py)
            paths.append(name if os.path.isfile(os.path.join(FIRMWARE, name)) else "dicetower/" + name)
        out[layer] = (set(imports), paths)
    return out


LAYERS = layer_table()


def module_of(rel):
    """'dicetower/core/games/battlerealm/roll.py' -> 'dicetower.core.games.battlerealm.roll'; a package's __init__ is the package."""
    name = rel[:-3].replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def rel_of(module):
    """The file (relative to firmware/) of a firmware module, whether or not it exists."""
    path = module.replace(".", "/")
    if os.path.isdir(os.path.join(FIRMWARE, path)):
        return path + "/__init__.py"
    return path + ".py"


def layer_of(rel):
    found = [
        layer
        for layer, (_, paths) in LAYERS.items()
        if any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in paths)
    ]
    return found


def is_marker(rel):
    """A package's __init__.py with no code: every import of a module inside it loads it, so any layer
    may; it must then import nothing itself."""
    return rel.endswith("__init__.py")


FILES = [os.path.relpath(p, FIRMWARE).replace(os.sep, "/") for p in firmware_files()]
MODULES = {module_of(rel) for rel in FILES}


def imports(rel, names=True):
    """[(line, module imported)] of a firmware file: every import statement anywhere in it, and (with
    `names`) every string that names a firmware module (what __import__ is given)."""
    with open(os.path.join(FIRMWARE, rel)) as f:
        tree = ast.parse(f.read())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            for a in node.names:
                full = "%s.%s" % (node.module, a.name)
                found.append((node.lineno, full if full in MODULES else node.module))
        elif names and isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in MODULES:
            found.append((node.lineno, node.value))
    return found


def test_the_table_names_real_files_and_layers():
    assert set(LAYERS) == {"core", "ui", "hw", "shell"}
    for layer, (may, paths) in LAYERS.items():
        assert may <= set(LAYERS), (layer, may)
        for path in paths:
            assert os.path.exists(os.path.join(FIRMWARE, path)), path


def test_the_layers_are_the_ones_the_design_draws():
    """core <- ui <- shell; hw: drivers only."""
    assert LAYERS["core"][0] == set()
    assert LAYERS["ui"][0] == {"core"}
    assert LAYERS["hw"][0] == set()
    assert LAYERS["shell"][0] == {"core", "ui", "hw"}


@pytest.mark.parametrize("rel", FILES)
def test_every_file_is_in_one_layer(rel):
    if is_marker(rel):
        assert not imports(rel, names=False), (
            "%s: a package's __init__ imports nothing (every import of the package runs it)" % rel
        )
        # The modules it names (the games' registry: what a game's idle passes fetch) are of its own layer.
        for line, module in imports(rel):
            assert layer_of(rel_of(module)) == layer_of(rel), "%s:%d names %s, of another layer" % (rel, line, module)
        return
    assert len(layer_of(rel)) == 1, "%s is in %s: put it in one line of dicetower/__init__.py's table" % (
        rel,
        layer_of(rel) or "no layer",
    )


@pytest.mark.parametrize("rel", [rel for rel in FILES if not is_marker(rel)])
def test_imports_go_down_the_layers_only(rel):
    (layer,) = layer_of(rel)
    may = LAYERS[layer][0] | {layer}
    wrong = []
    for line, module in imports(rel):
        if module == "dicetower" or not module.startswith("dicetower."):
            continue
        target = rel_of(module)
        if is_marker(target):
            continue
        target_layers = layer_of(target)
        assert target_layers, "%s:%d imports %s, which is in no layer" % (rel, line, module)
        if target_layers[0] not in may:
            wrong.append("%s:%d imports %s (%s)" % (rel, line, module, target_layers[0]))
    assert not wrong, "a %s file may import only %s:\n%s" % (layer, ", ".join(sorted(may)), "\n".join(wrong))


@pytest.mark.parametrize("rel", [rel for rel in FILES if layer_of(rel) in (["core"], ["ui"])])
def test_core_and_ui_touch_no_runtime(rel):
    """No machine, no time, no files, no network in the rules or the screens: the shell passes them in."""
    used = {module.split(".")[0] for _, module in imports(rel) if module.split(".")[0] != "dicetower"}
    assert used <= PURE, "%s imports %s" % (rel, ", ".join(sorted(used - PURE)))


def test_the_checks_catch_a_driver_importing_the_rules(tmp_path, monkeypatch):
    """The test above can fail: hw/storage.py as it was (it encoded games itself) is reported."""
    bad = tmp_path / "dicetower" / "hw"
    bad.mkdir(parents=True)
    (bad / "storage.py").write_text("from dicetower.core.savefile import SaveError, decode, encode\n")
    monkeypatch.setattr(__import__(__name__), "FIRMWARE", str(tmp_path))
    with pytest.raises(AssertionError, match=r"dicetower/hw/storage.py:1 imports dicetower.core.savefile \(core\)"):
        test_imports_go_down_the_layers_only("dicetower/hw/storage.py")


# -- what main.py can still show when files are damaged ----------------------------------------


def functions_imports(rel, name):
    """The firmware modules one function of a file imports."""
    with open(os.path.join(FIRMWARE, rel)) as f:
        tree = ast.parse(f.read())
    (function,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    out = set()
    for node in ast.walk(function):
        if isinstance(node, ast.ImportFrom) and node.module.startswith("dicetower"):
            out |= {
                "%s.%s" % (node.module, a.name) for a in node.names if "%s.%s" % (node.module, a.name) in MODULES
            } or {node.module}
    return out


def top_level_imports(module):
    with open(os.path.join(FIRMWARE, rel_of(module))) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module.startswith("dicetower"):
            out |= {
                "%s.%s" % (node.module, a.name) for a in node.names if "%s.%s" % (node.module, a.name) in MODULES
            } or {node.module}
    return out


def test_boot_needs_lists_what_the_reflash_notice_imports():
    """launch.BOOT_NEEDS must hold every module that showing "reflash needed" on the OLED loads: what
    launch.reflash_needed imports, what hw/platform.make picks for the runtime, everything those import
    when loaded, and their packages. A file left out would crash the notice when it is the damaged one."""
    with open(os.path.join(FIRMWARE, "dicetower", "launch.py")) as f:
        tree = ast.parse(f.read())
    (node,) = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "BOOT_NEEDS"]
    listed = set(ast.literal_eval(node.value))
    todo = functions_imports("dicetower/launch.py", "reflash_needed") | functions_imports(
        "dicetower/hw/platform.py", "make"
    )
    loaded = set()
    while todo:
        module = todo.pop()
        if module in loaded:
            continue
        loaded.add(module)
        parts = module.split(".")
        todo |= {".".join(parts[:i]) for i in range(1, len(parts))}  # its packages
        todo |= top_level_imports(module)
    assert listed == {rel_of(m)[:-3] for m in loaded}


# ---- the host side: rooms grouped by command (host_tools/dicetower_host/__init__.py's table)

HOST = os.path.join(os.path.dirname(FIRMWARE), "host_tools", "dicetower_host")


def host_rooms():
    """{room: rooms it may import}, from the host package's docstring."""
    with open(os.path.join(HOST, "__init__.py")) as f:
        doc = ast.get_docstring(ast.parse(f.read()))
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split() == ["room", "imports"])
    rooms = {}
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        words = line.split()
        rooms[words[0]] = {w for w in words[1:] if w != "-"}
    return rooms


ROOMS = host_rooms()
HOST_FILES = sorted(
    os.path.relpath(os.path.join(folder, name), HOST)
    for folder, dirs, names in os.walk(HOST)
    if "__pycache__" not in folder and "/data" not in folder
    for name in names
    if name.endswith(".py") and os.path.relpath(os.path.join(folder, name), HOST) != "__init__.py"
)


def room_of(rel):
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith(".py") else first


def host_imports(rel):
    """The rooms of dicetower_host that a host file imports (at the top or inside a function)."""
    with open(os.path.join(HOST, rel)) as f:
        tree = ast.parse(f.read())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "dicetower_host":
            parts = node.module.split(".")
            names = [a.name for a in node.names] if len(parts) == 1 else [parts[1]]
            found += [(node.lineno, name) for name in names]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[1]) for a in node.names if a.name.startswith("dicetower_host.")]
    return found


def test_every_host_file_is_in_a_room():
    assert {room_of(rel) for rel in HOST_FILES} <= set(ROOMS), sorted({room_of(rel) for rel in HOST_FILES} - set(ROOMS))
    for room, may in ROOMS.items():
        assert may <= set(ROOMS), (room, may)


@pytest.mark.parametrize("rel", HOST_FILES)
def test_host_imports_stay_in_their_rooms(rel):
    room = room_of(rel)
    for line, other in host_imports(rel):
        assert other == room or other in ROOMS[room], (
            "host_tools/dicetower_host/%s:%d imports %s (%s may import %s)"
            % (
                rel,
                line,
                other,
                room,
                " ".join(sorted(ROOMS[room])) or "nothing",
            )
        )


def test_only_the_cli_imports_the_commands():
    importers = {room for room, may in ROOMS.items() if "commands" in may}
    assert importers == {"cli"}, importers


def test_the_host_check_sees_a_room_importing_the_commands(tmp_path, monkeypatch):
    import sys

    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "bad.py").write_text("def f():\n    from dicetower_host.commands import pico\n")
    monkeypatch.setattr(sys.modules[__name__], "HOST", str(tmp_path))
    with pytest.raises(AssertionError, match=r"sim/bad.py:2 imports commands \(sim may import errors paths"):
        test_host_imports_stay_in_their_rooms(os.path.join("sim", "bad.py"))
