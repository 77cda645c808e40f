"""What wrong PINs cost: counted per address (web/server.py's _Clients rows), looked at before the PIN.

An address's n-th wrong PIN makes it wait 2**(n-1) s (at most LONGEST_WAIT_S) before its next try is
looked at; at LOCK_AFTER it is locked out (the OLED says so). Its count falls by one for every
FORGIVE_S without a wrong PIN from it (a locked-out address tries once every FORGIVE_S), and to none
at a right PIN, which also makes it trusted. A right PIN from an address that is not waiting always
presses, unless the untrusted are all locked out: their wrong PINs spend a budget they share (BURST,
one back every REFILL_S, and their typos back at their right PIN); once it is spent, only trusted
addresses may press (the OLED says so) until a press on the tower gives LIFT_GRANT back. One address
cannot spend it alone (LOCK_AFTER < BURST, FORGIVE_S > REFILL_S): it takes several at once.

So however many addresses guess, at most BURST + one a REFILL_S are looked at, besides LIFT_GRANT for
each lockout a hand on the tower lifts (one a LIFT_S at most): a 4-digit PIN takes days (docs/playing.md
says the figure).
Loaded at the first press of a tower with a PIN; a tower whose phones only watch never loads it.
"""

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)


# The places in a row of web/server.py's _Clients that are this module's.
_ADDRESS = const(0)
_FAILS = const(3)
_FORGIVEN = const(4)
_FAILED = const(5)
_TRUSTED = const(6)

LONGEST_WAIT_S = 64
LOCK_AFTER = 10
FORGIVE_S = 300
BURST = 30
REFILL_S = 60
LIFT_GRANT = 3
LIFT_S = 600  # the least time between two lifts


def _settle(table, row, now):
    """What time has forgiven: the address's count, and the budget the untrusted share."""
    if row[_FAILS]:
        steps = (now - row[_FORGIVEN]) // (1000 * FORGIVE_S)
        if steps > 0:
            row[_FAILS] = max(0, row[_FAILS] - steps)
            row[_FORGIVEN] += steps * 1000 * FORGIVE_S
    if table.left is None:
        table.left = BURST
    steps = (now - table.filled) // (1000 * REFILL_S)
    if steps > 0 and table.left < BURST:
        table.left = min(BURST, table.left + steps)
        table.filled += steps * 1000 * REFILL_S
    if table.left >= BURST:
        table.locked = False


def refused(table, row):
    """(status, why) if this address may not try a PIN now, else None."""
    now = table.now()
    _settle(table, row, now)
    fails = row[_FAILS]
    if fails >= LOCK_AFTER:
        left = 1000 * FORGIVE_S - (now - row[_FORGIVEN])
        return 403, "this phone is locked out after %d wrong PINs: its next try in %d min" % (
            fails,
            (left + 59999) // 60000,
        )
    if fails:
        left = 1000 * min(LONGEST_WAIT_S, 1 << (fails - 1)) - (now - row[_FAILED])
        if left > 0:
            return 429, "a wrong PIN was sent from this phone: wait %d s before the next try" % ((left + 999) // 1000)
    if not row[_TRUSTED] and table.left <= 0:
        return 403, "too many wrong PINs from phones: a press of a button on the tower lets them try again"
    return None


def failed(table, row):
    """A wrong PIN from this address (one `refused` let through); what the OLED should say, or None."""
    now = table.now()
    row[_FORGIVEN] = now  # forgiving starts again from the last
    row[_FAILS] += 1
    row[_FAILED] = now
    if not row[_TRUSTED]:
        if table.left >= BURST:
            table.filled = now
        table.left -= 1
        if table.left <= 0 and not table.locked:
            table.locked = True
            return (
                "Phones locked out: %d wrong PINs from %d phones. Phones that pressed before still may; "
                "press a button on the tower to let the others try again."
                % (BURST, sum(1 for r in table.rows if r[_FAILS] and not r[_TRUSTED]))
            )
    if row[_FAILS] == LOCK_AFTER:
        return "Phone %s locked out: %d wrong PINs. It may try again in %d min." % (
            row[_ADDRESS],
            LOCK_AFTER,
            FORGIVE_S // 60,
        )
    return None


def passed(table, row):
    """A right PIN: its address's wrong PINs were typos (given back to the budget), and it is trusted."""
    if not row[_TRUSTED]:
        table.left = min(BURST, table.left + row[_FAILS])
    row[_FAILS] = 0
    row[_TRUSTED] = True


def lift(table):
    """A press on the tower while the untrusted are locked out: they may try LIFT_GRANT more, once a
    LIFT_S at most (every press of a game in play would hand guessers LIFT_GRANT each); True if lifted."""
    now = table.now()
    if table.lifted is not None and now - table.lifted < 1000 * LIFT_S:
        return False
    table.lifted = now
    table.locked = False
    if table.left < LIFT_GRANT:
        table.left = LIFT_GRANT
    return True
