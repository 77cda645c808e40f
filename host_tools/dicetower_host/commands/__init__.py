"""The `dicetower` subcommands, one module each.

Each module has a docstring (its `dicetower NAME --help` description), HELP (its line in
`dicetower --help`), add_arguments(parser) and run(args, out=None) -> exit status. A
ValueError raised by run() is printed as "dicetower: <reason>" with exit status 2.
"""


def add_source_options(parser):
    """The dice a host-side command rolls with: --seed or --faces, else the OS's entropy."""
    parser.add_argument("--seed", type=int, help="roll from a seed (replayable) instead of the OS")
    parser.add_argument("--faces", help="set faces in order, e.g. Mutant,Skill,Tech (teaching, tests)")


def face_source(args):
    """The dice the command rolls with: set faces, a seed, or the OS."""
    from dicetower.core.entropy import FairDice, ScriptedFaces, SeededSource
    from dicetower.hw.entropy import Urandom

    if args.faces:
        return ScriptedFaces([f.strip() for f in args.faces.split(",") if f.strip()])
    if args.seed is not None:
        return FairDice(SeededSource(args.seed))
    return FairDice(Urandom(name="host os.urandom"))


class Progress:
    """A progress bar for a copy (rich, which Textual brings), on a terminal only."""

    def __init__(self, out):
        self.out = out
        self.bar = None

    def __enter__(self):
        if not getattr(self.out, "isatty", lambda: False)():
            return None
        from rich.progress import BarColumn, DownloadColumn, Progress as Bar, TextColumn

        self.bar = Bar(TextColumn("{task.description:<36}"), BarColumn(), DownloadColumn(), transient=True)
        self.bar.start()
        task = self.bar.add_task("copying", total=None)

        def update(path, done, total):
            self.bar.update(task, description=path, completed=done, total=total)

        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
