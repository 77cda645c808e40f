"""The firmware's import graph has no cycles, even through imports inside functions and modules loaded
by name (`__import__`, a Scope's `load` and `adopt`, `once`, with a literal or a module-level constant, its own
or imported):
a cycle makes which module is half-made at import depend on who came first, and on a Pico each side
holds the other on the heap."""

import ast
import os

from conftest import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
BY_NAME = ("__import__", "load", "adopt", "once")  # the calls that import the module their first argument names


def modules():
    """{dotted name: path} of every firmware module (a package by its own name)."""
    out = {}
    for folder, _, names in os.walk(FIRMWARE):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                dotted = os.path.relpath(path, FIRMWARE)[:-3].replace(os.sep, ".")
                out[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = path
    return out


def constants(path):
    """{NAME: "dicetower...."}: the module's top-level names for a module's name (loaded by that name)."""
    with open(path) as f:
        tree = ast.parse(f.read())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    out[target.id] = node.value.value
    return out


def imports(path, known, named):
    """The firmware modules the module at `path` imports, wherever in it. `named`: each module's
    constants(), so that a name imported from another module resolves to the module it names."""
    with open(path) as f:
        tree = ast.parse(f.read())
    local = constants(path)
    for node in ast.walk(tree):  # from PACKAGE import CHECKS: CHECKS names a module there
        if isinstance(node, ast.ImportFrom) and node.module in named:
            for alias in node.names:
                if alias.name in named[node.module]:
                    local[alias.asname or alias.name] = named[node.module][alias.name]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                whole = node.module + "." + alias.name
                found.add(whole if whole in known else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Call) and node.args:
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            first = node.args[0]
            if called in BY_NAME:
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
                elif isinstance(first, ast.Name) and first.id in local:
                    found.add(local[first.id])
    return {name for name in found if name in known}


def cycles(graph):
    """The strongly connected parts of more than one module (Tarjan's), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def graph():
    known = modules()
    named = {name: constants(path) for name, path in known.items()}
    return {name: imports(path, known, named) - {name} for name, path in known.items()}


def test_the_firmware_imports_no_module_that_imports_it_back():
    found = graph()
    assert cycles(found) == [], [(part, {m: sorted(found[m] & set(part)) for m in part}) for part in cycles(found)]


def test_the_check_finds_a_cycle_through_an_import_inside_a_function_and_a_load_by_name():
    made = {
        "a": {"b"},  # a function of a's: from b import x
        "b": {"c"},
        "c": {"a"},  # Scope.load(A) with A = "a"
        "d": {"a"},
    }
    assert cycles(made) == [["a", "b", "c"]]
    real = graph()
    assert (
        "dicetower.core.games.battlerealm.check" in real["dicetower.core.games.battlerealm.tracker"]
    )  # once(CHECKS, ...)
    assert "dicetower.ui.battlerealm" in real["dicetower.ui.flow"]  # scope.load("dicetower.ui.battlerealm")
    assert "dicetower.startup" in real["dicetower.device"]  # inside Device.restart
