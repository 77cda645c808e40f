"""The progress bar `dicetower flash` shows while it copies."""


class Progress:
    """A progress bar for a copy (rich, which Textual brings), on a terminal only: `progress(path, done,
    total)` shows it from the copy's first bytes; `progress.write(text)` prints the command's own lines
    above it, never on its line."""

    def __init__(self, out):
        self.out = out
        self.bar = None

    def __enter__(self):
        return self if getattr(self.out, "isatty", lambda: False)() else None

    def __call__(self, path, done, total):
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, DownloadColumn, TextColumn
            from rich.progress import Progress as Bar

            self.bar = Bar(
                TextColumn("{task.description:<36}"),
                BarColumn(),
                DownloadColumn(),
                transient=True,
                console=Console(file=self.out),
            )
            self.bar.start()
            self.task = self.bar.add_task(path, total=total)
        self.bar.update(self.task, description=path, completed=done, total=total)

    def write(self, text):
        if self.bar is None:
            return self.out.write(text)
        self.bar.console.print(text, end="", markup=False, highlight=False, soft_wrap=True)
        return len(text)

    def flush(self):
        self.out.flush()

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
