"""`dicetower monitor` following a board from a test: in a thread, with the moment it has the port."""

import io
import threading

from dicetower_host import cli


class _Watching(io.StringIO):
    """The monitor's output, noticing its "-- connected" line."""

    def __init__(self, connected):
        io.StringIO.__init__(self)
        self.connected = connected

    def write(self, text):
        if text.startswith("-- connected"):
            self.connected.set()
        return io.StringIO.write(self, text)


def monitor_thread(url, log, count, seconds):
    """`dicetower monitor --port URL --save LOG --count N --seconds S`, not started, and the Event set once
    it has the port: start the thread and wait for the event before the first press (the board's output
    goes to its newest connection only)."""
    connected = threading.Event()
    parsed = cli.build_parser().parse_args(
        ["monitor", "--port", url, "--save", str(log), "--count", str(count), "--seconds", str(seconds)]
    )
    watcher = threading.Thread(target=parsed.run, args=(parsed,), kwargs={"out": _Watching(connected)})
    return watcher, connected
