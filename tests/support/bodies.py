"""Request bodies the tests of several directories build: multipart forms, bodies never held whole, gzip bombs."""

import functools
import io
import zlib

MiB = 2**20
BOUNDARY = "passk-test-limits"


def multipart(fields=(), files=()):
    """A multipart/form-data body: fields are (name, text), files (name, filename, bytes)."""
    parts = [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in fields]
    for name, filename, content in files:
        parts += [f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                  "Content-Type: application/octet-stream\r\n\r\n".encode(), content, b"\r\n"]
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


class Endless(io.RawIOBase):
    """A body of `size` bytes made of `piece` again and again, never held whole; `consumed` counts what was read."""

    def __init__(self, size, opening, piece):
        self.size, self.left, self.pending, self.piece = size, size, opening, piece

    @property
    def consumed(self):
        return self.size - self.left

    def readable(self):
        return True

    def readinto(self, buffer):
        self.pending = self.pending or self.piece
        data = self.pending[:min(len(buffer), self.left)]
        buffer[:len(data)] = data
        self.pending, self.left = self.pending[len(data):], self.left - len(data)
        return len(data)


@functools.lru_cache(maxsize=None)
def gzipped(unit, unpacked, opening=b"[", closing=b"0]"):
    """A gzip stream of opening, unit repeated to about unpacked bytes, then closing; made in pieces."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    piece = unit * (MiB // len(unit))
    parts = [packer.compress(opening)]
    parts += [packer.compress(piece) for _ in range(unpacked // len(piece))]
    return b"".join(parts + [packer.compress(closing), packer.flush()])
