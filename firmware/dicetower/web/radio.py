"""The phones' link on a board with a radio (a Pico W): kept up, and the scoreboard served while it is.

Imported only on a board whose profile has `wifi` (flash sends web/ to those alone): a plain Pico never
loads it. A radio or server that fails is logged; the game never waits for it.
"""

import asyncio

RADIO_S = 5  # how often the radio is looked at (and brought back after a loss)


def random_bytes(dice, n):
    """Bytes from the dice's own health-tested entropy (the network's password, a PIN)."""
    below = getattr(dice, "below", None)
    if below is None:  # dice set for teaching: the host's randomness
        from os import urandom

        return urandom(n)
    return bytes(below(256) for _ in range(n))


async def keep_up(dev):
    """The link kept up (tried again every RADIO_S after a loss), the page served on the device's
    web_port while it is, and the address on the Phones screen (gone while the link is)."""
    try:
        from dicetower.web.server import Server
    except ImportError as e:
        dev.log_line("the scoreboard cannot be served: %s (run dicetower flash again)" % e)
        return
    server = Server(dev, dev.wifi["shown_pin"])
    serving = [None]

    async def serve():
        try:
            await server.start_server(port=dev.web_port)
        except OSError as e:
            dev.log_line("the scoreboard's server stopped: %s" % e)
        serving[0] = None

    app = dev.app
    while True:
        up = dev.link.keep()
        address = dev.link.address() if up else None
        url = None
        if address:
            port = dev.web_port
            url = "http://%s/" % address if port == 80 else "http://%s:%d/" % (address, port)
        if url != app.phones["url"]:
            app.phones["url"] = url
            app.changed = True
            dev.emit({"event": "phones", "url": url})
        if up and serving[0] is None:
            serving[0] = asyncio.create_task(serve())
        await asyncio.sleep(RADIO_S)
