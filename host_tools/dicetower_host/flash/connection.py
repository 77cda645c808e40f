"""The conversation with a board over its USB REPL, through mpremote's own transport: opened (or why
not, in one line), its files read, left with the board back at its game, and the wait for the
firmware's ready line after a reset."""

import errno
import os
import time

from dicetower_host.flash.messages import FlashError
from dicetower_host.monitor import event_of

READY_SECONDS = 20  # a Pico boots in about 2 s; an emulated one on a busy laptop may need --ready-seconds


def connect(port):
    from mpremote.transport import TransportError
    from mpremote.transport_serial import SerialTransport

    try:
        # A timeout: a board that goes silent ends the read (and the command, with a message), not the world.
        transport = SerialTransport(port, baudrate=115200, timeout=10)
    except (TransportError, OSError) as e:
        raise FlashError(why_not(port, e)) from None
    import contextlib
    import io

    said = io.StringIO()  # mpremote prints what came instead of the prompt (a stray b''): into the message
    try:
        with contextlib.redirect_stdout(said):
            transport.enter_raw_repl(soft_reset=True)
    except (TransportError, OSError) as e:
        transport.close()
        came = said.getvalue().strip()
        raise FlashError(
            "%s does not answer as a MicroPython REPL (%s%s); is MicroPython on it?"
            % (port, e, "; it said %s" % came[:60] if came and came != "b''" else "")
        )
    return transport


def why_not(port, error=None):
    """Why a port will not open, in one line with what to do (mpremote says only "failed to access")."""
    import serial

    try:  # opened as mpremote opens it, to hear the system's reason
        serial.serial_for_url(port, baudrate=115200, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as e:
        error = e
    number = getattr(error, "errno", None)
    text = str(error)
    if "://" in port:
        if number == errno.ECONNREFUSED or "refused" in text.lower():
            return "nothing answers at %s: is the virtual Pico (dicetower pico) still running?" % port
    elif not os.path.exists(port):
        return "no such device %s: is the board plugged in? %s" % (port, _seen())
    if number in (errno.EACCES, errno.EPERM):
        return (
            "permission denied on %s: add yourself to the dialout group (sudo usermod -aG dialout $USER), "
            "then log out and in again" % port
        )
    if number in (errno.EBUSY, errno.EAGAIN) or "exclusively lock" in text:
        return (
            "%s is busy: another program has it open (dicetower monitor, mpremote, Thonny, screen); "
            "close it and try again" % port
        )
    if number == errno.ENOTTY or "Inappropriate ioctl" in text:
        return "%s is not a serial port" % port
    return "cannot open %s: %s" % (port, text.strip() or type(error).__name__)


def _seen():
    from serial.tools import list_ports

    ports = ", ".join(p.device for p in list_ports.comports())
    return "Serial ports seen: %s" % ports if ports else "No serial ports are seen at all"


def read_bytes(transport, path):
    """A file's bytes on the board, or None if it is not there (any other error is the board's, raised)."""
    try:
        return bytes(transport.fs_readfile(path))
    except OSError as e:
        if e.errno == errno.ENOENT:
            return None
        raise


def read_text(transport, path):
    """A file's text, None if missing, "" if it is not UTF-8 (so its readers call it malformed)."""
    data = read_bytes(transport, path)
    try:
        return None if data is None else data.decode()
    except UnicodeError:
        return ""


class Session:
    """A conversation with a board in its raw REPL (flash, stats --port).

    On leaving, the board goes back to its game (unless the firmware was
    restarted already) and the port is closed; a board that vanished or went
    silent mid-conversation becomes a FlashError that says so.
    """

    def __init__(self, port):
        self.port = port
        self.transport = None
        self.restarted = False

    def __enter__(self):
        self.transport = connect(self.port)
        return self

    def __exit__(self, kind, error, trace):
        import struct

        from mpremote.transport import TransportError

        if not self.restarted:
            back_to_the_game(self.transport)
        close(self.transport)
        if kind is not None and issubclass(kind, (TransportError, OSError, struct.error)):
            raise FlashError(
                "lost the board on %s (%s); check the cable and run the command again"
                % (self.port, str(error).strip().splitlines()[-1] if str(error).strip() else kind.__name__)
            )
        return False


def back_to_the_game(transport):
    """Leave the raw REPL and soft-reset, so the board runs main.py again (or says what it needs).

    It waits for the board's "soft reboot" before the port is closed: a port closed with the
    board's output unread can lose the Ctrl-D on its way (a TCP bridge, as the virtual Pico's,
    resets such a connection, and its peer drops what it had not read yet; seen as a board left
    at its prompt, main.py not running, once in four runs on a loaded machine)."""
    try:
        transport.exit_raw_repl()
        transport.serial.write(b"\x04")
        transport.read_until(1, b"soft reboot\r\n", timeout=10, timeout_overall=30)
    except Exception:  # noqa: BLE001 (the port may be gone (unplugged); nothing more to do)
        pass


def close(transport):
    try:
        transport.close()
    except Exception:  # noqa: BLE001 (the port may be gone already (unplugged))
        pass


def restart(transport, out, seconds=READY_SECONDS):
    """Soft-reset into main.py and wait for the firmware's ready (or error) line."""
    transport.exit_raw_repl()
    transport.serial.timeout = 0.2
    transport.serial.write(b"\x04")
    deadline = time.monotonic() + seconds
    pending = b""
    while time.monotonic() < deadline:
        pending += transport.serial.read(max(1, transport.serial.in_waiting))
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                event = event_of(line)
            except ValueError:
                continue  # a garbled line while the board boots: wait for the next
            if event is None:
                continue
            if event.get("event") == "ready":
                out.write(
                    "dicetower %s ready on %s (dice: %s)\n"
                    % (event.get("version"), event.get("board"), event.get("dice"))
                )
                return event
            if event.get("event") == "error":
                raise FlashError("the firmware started but reports: %s" % event.get("error"))
    raise FlashError(
        "the board did not say it was ready within %g s after the reset (--ready-seconds waits "
        "longer); watch it with dicetower monitor --port" % seconds
    )
