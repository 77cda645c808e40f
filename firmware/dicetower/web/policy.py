"""The page's Content-Security-Policy, made once when the server starts and then forgotten (web/server.py).

Nothing but the page's own style and script (each by its SHA-256, hashed from web/page.html a piece at
a time, so an edited page is never refused its own script), its requests to the tower, and no frame.
"""

# The page's inline style and script, in that order, between these marks.
MARKS = (b"<style>", b"</style>", b"<script>", b"</script>")
PIECE = 512


def of(path):
    import hashlib
    from binascii import b2a_base64

    hashes = []
    mark = 0
    data = b""
    digest = None
    with open(path, "rb") as f:
        while mark < len(MARKS):
            at = data.find(MARKS[mark])
            if at >= 0:
                if digest is None:
                    digest = hashlib.sha256()
                else:
                    digest.update(data[:at])
                    hashes.append(b2a_base64(digest.digest()).strip().decode())
                    digest = None
                data = data[at + len(MARKS[mark]) :]
                mark += 1
                continue
            keep = len(data) - len(MARKS[mark]) + 1  # a mark may straddle two pieces
            if keep > 0:
                if digest is not None:
                    digest.update(data[:keep])
                data = data[keep:]
            piece = f.read(PIECE)
            if not piece:
                raise ValueError("web/page.html has no <style> and <script>")
            data += piece
    return (
        "default-src 'none'; style-src 'sha256-%s'; script-src 'sha256-%s'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'" % (hashes[0], hashes[1])
    )
