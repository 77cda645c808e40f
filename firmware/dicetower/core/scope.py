"""What one part of the tower brought onto the heap, and forgets together.

A `Scope` loads modules, at once (`load`) or one an idle pass (`queue`, then the loop's `step`), notes
every module each load brought in (its own imports too), and `close` forgets them all, as if never
imported: their code and data are garbage for the next collection, once nothing else holds them. The
heap a Pico's game needs is what the start menu, a game's set-up and the previous game leave of it.

Who owns one (docs/architecture.md, "What is on the heap when"): the boot chain (its wiring, closed once
the device is up); the start menu (its screens, closed when a game begins); a game's set-up (its rows
and checks, closed when it starts); each game chosen or resumed (its package's modules, closed when a
game of another kind begins); and every short read (a save's reader, a start-up test, the built-in
heroes), closed as soon as it is done. A module a scope did not bring in is never its to forget.
"""

import sys


class Scope:
    def __init__(self, name):
        self.name = name  # whose it is: "start menu", "set-up", a game's kind...
        self.held = []  # the modules it brought in
        self.queued = []  # the modules to load at idle, one a `step`
        self.lasting = False  # True: what it holds lives as long as the tower (closed by no one)

    def load(self, name):
        """The module called `name`, imported now if it is not loaded, with what it imports noted."""
        module = sys.modules.get(name)
        if module is not None:
            return module
        return self.run(__import__, name, None, None, ["_"])

    def run(self, function, *args):
        """function(*args), with every module it imports noted as this scope's (a save's reading
        imports its game's tracker)."""
        before = set(sys.modules)
        try:
            return function(*args)
        finally:
            for came in sys.modules:
                if came not in before:
                    self.held.append(came)

    def queue(self, names):
        """`names` to load at idle, one a `step`, in their order (the ones loaded already are skipped)."""
        for name in names:
            if name not in sys.modules and name not in self.queued:
                self.queued.append(name)

    def step(self):
        """Load the next queued module: its name, or None if none waits."""
        while self.queued:
            name = self.queued.pop(0)
            if name not in sys.modules:
                self.load(name)
                return name
        return None

    def adopt(self, name):
        """The module called `name`, loaded before this scope was made, is its to forget (boot.py's
        startup.py, which the device's boot chain goes on using)."""
        if name in sys.modules and name not in self.held:
            self.held.append(name)

    def hand(self, name, other):
        """The module called `name`, if this scope brought it in, is `other`'s from now on."""
        if name in self.held:
            self.held.remove(name)
            other.held.append(name)

    def drop(self, name):
        """Forget the module called `name` now, if this scope brought it in: it is done with it."""
        if name in self.held:
            self.held.remove(name)
            if sys.modules.pop(name, None) is not None:
                parent, _, child = name.rpartition(".")
                package = sys.modules.get(parent)
                if package is not None and hasattr(package, child):
                    delattr(package, child)  # an import also names the module in its package, which would keep it

    def close(self):
        """Forget every module it brought in, in the order it brought them; nothing queued is loaded."""
        self.queued = []
        while self.held:
            self.drop(self.held[0])


def once(name, function, *args):
    """The module called `name`'s `function`(*args), the module forgotten after unless it was loaded
    before: for what a moment needs once (a new game's or a save's checks)."""
    scope = Scope(name)
    try:
        return getattr(scope.load(name), function)(*args)
    finally:
        scope.close()
