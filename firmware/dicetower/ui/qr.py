"""A QR code of a short text (the scoreboard's address), made on the device for the OLED.

Byte mode, error correction level L, versions 1 to 5 (up to 106 bytes): one block of
Reed-Solomon codewords, one alignment pattern at most, no version information, which is
all an address needs. The steps and tables are ISO/IEC 18004's; the mask is the one of the
eight with the lowest penalty (its rules 1, 2 and 4). `encode(text)` returns the size and
the modules, row by row (1 dark). A decoder reads it back in tests/test_web_qr.py.
"""

# version: (data codewords, error correction codewords, alignment pattern's centre or 0), level L
VERSIONS = ((19, 7, 0), (34, 10, 18), (55, 15, 22), (80, 20, 26), (108, 26, 30))
_FORMAT_L = 1  # level L's two format bits


def _mul(x, y):
    """x * y in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1."""
    z = 0
    for i in range(7, -1, -1):
        z = (z << 1) ^ ((z >> 7) * 0x11D)
        z ^= ((y >> i) & 1) * x
    return z


def _divisor(degree):
    out = [0] * (degree - 1) + [1]
    root = 1
    for _ in range(degree):
        for j in range(degree):
            out[j] = _mul(out[j], root)
            if j + 1 < degree:
                out[j] ^= out[j + 1]
        root = _mul(root, 2)
    return out


def _remainder(data, divisor):
    out = [0] * len(divisor)
    for b in data:
        factor = b ^ out.pop(0)
        out.append(0)
        for i in range(len(divisor)):
            out[i] ^= _mul(divisor[i], factor)
    return out


def _codewords(data, capacity):
    """Mode, count, data, terminator and padding: `capacity` bytes."""
    bits = []

    def put(value, n):
        for i in range(n - 1, -1, -1):
            bits.append((value >> i) & 1)

    put(4, 4)  # byte mode
    put(len(data), 8)
    for b in data:
        put(b, 8)
    put(0, min(4, capacity * 8 - len(bits)))
    put(0, -len(bits) % 8)
    out = bytearray(len(bits) // 8)
    for i in range(len(out)):
        for bit in bits[8 * i : 8 * i + 8]:
            out[i] = (out[i] << 1) | bit
    pad = 0xEC
    while len(out) < capacity:
        out.append(pad)
        pad ^= 0xEC ^ 0x11
    return out


class _Grid:
    def __init__(self, size):
        self.size = size
        self.dark = bytearray(size * size)
        self.fixed = bytearray(size * size)  # function patterns: no data, no mask

    def set(self, x, y, dark):
        i = y * self.size + x
        self.dark[i] = 1 if dark else 0
        self.fixed[i] = 1


def _functions(grid, align):
    size = grid.size
    for i in range(size):
        grid.set(6, i, i % 2 == 0)
        grid.set(i, 6, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                x, y = cx + dx, cy + dy
                if 0 <= x < size and 0 <= y < size:
                    d = max(abs(dx), abs(dy))
                    grid.set(x, y, d != 2 and d != 4)
    if align:
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                grid.set(align + dx, align + dy, max(abs(dx), abs(dy)) != 1)
    _format(grid, 0)  # reserved now, written once the mask is chosen


def _format(grid, mask):
    size = grid.size
    data = _FORMAT_L << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    bits = (data << 10 | rem) ^ 0x5412
    for i in range(6):
        grid.set(8, i, bits >> i & 1)
    grid.set(8, 7, bits >> 6 & 1)
    grid.set(8, 8, bits >> 7 & 1)
    grid.set(7, 8, bits >> 8 & 1)
    for i in range(9, 15):
        grid.set(14 - i, 8, bits >> i & 1)
    for i in range(8):
        grid.set(size - 1 - i, 8, bits >> i & 1)
    for i in range(8, 15):
        grid.set(8, size - 15 + i, bits >> i & 1)
    grid.set(8, size - 8, 1)  # the dark module


def _place(grid, codewords):
    size = grid.size
    i = 0
    total = len(codewords) * 8
    right = size - 1
    while right >= 1:
        if right == 6:
            right = 5
        upward = (right + 1) & 2 == 0
        for vert in range(size):
            y = size - 1 - vert if upward else vert
            for x in (right, right - 1):
                if not grid.fixed[y * size + x] and i < total:
                    grid.dark[y * size + x] = codewords[i >> 3] >> (7 - (i & 7)) & 1
                    i += 1
        right -= 2


def _masked(x, y, mask):
    if mask == 0:
        return (x + y) % 2 == 0
    if mask == 1:
        return y % 2 == 0
    if mask == 2:
        return x % 3 == 0
    if mask == 3:
        return (x + y) % 3 == 0
    if mask == 4:
        return (x // 3 + y // 2) % 2 == 0
    if mask == 5:
        return x * y % 2 + x * y % 3 == 0
    if mask == 6:
        return (x * y % 2 + x * y % 3) % 2 == 0
    return ((x + y) % 2 + x * y % 3) % 2 == 0


def _apply(grid, mask):
    size = grid.size
    for y in range(size):
        for x in range(size):
            i = y * size + x
            if not grid.fixed[i] and _masked(x, y, mask):
                grid.dark[i] ^= 1


def _penalty(grid):
    size = grid.size
    dark = grid.dark
    score = 0
    for line in range(size):  # rule 1: runs of five or more alike, in rows and columns
        for step, start in ((1, line * size), (size, line)):
            run = 1
            for k in range(1, size):
                if dark[start + k * step] == dark[start + (k - 1) * step]:
                    run += 1
                else:
                    if run >= 5:
                        score += run - 2
                    run = 1
            if run >= 5:
                score += run - 2
    for y in range(size - 1):  # rule 2: 2x2 blocks alike
        for x in range(size - 1):
            i = y * size + x
            if dark[i] == dark[i + 1] == dark[i + size] == dark[i + size + 1]:
                score += 3
    share = sum(dark) * 20 // (size * size)  # rule 4: how far from half dark
    score += 10 * max(abs(share - 10) - (1 if share < 10 else 0), 0)
    return score


def encode(text):
    """(size, modules): the QR code of `text` (str or bytes), modules row by row, 1 dark."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    for number, (capacity, ecc, align) in enumerate(VERSIONS):  # noqa: B007 (the one it stops at is used)
        if len(data) + 2 <= capacity:
            break
    else:
        raise ValueError("a QR code here holds at most %d bytes, not %d" % (VERSIONS[-1][0] - 2, len(data)))
    size = 21 + 4 * number
    codewords = _codewords(data, capacity)
    codewords += bytes(_remainder(codewords, _divisor(ecc)))
    best = None
    for mask in range(8):
        grid = _Grid(size)
        _functions(grid, align)
        _place(grid, codewords)
        _apply(grid, mask)
        _format(grid, mask)
        score = _penalty(grid)
        if best is None or score < best[0]:
            best = (score, grid)
    return size, best[1].dark
