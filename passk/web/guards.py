"""Request bounds Werkzeug does not give by itself: a 413 that names the form limit passed, smaller limits for
bodies read whole into memory (JSON, forms without a file), and the untrusted-host check for error pages."""

from typing import IO, TYPE_CHECKING, cast

from flask import Request, current_app, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge
from werkzeug.formparser import FormDataParser
from werkzeug.sansio.utils import host_is_trusted

from passk import limits

if TYPE_CHECKING:   # Werkzeug declares what a form parse returns only for the checker
    from werkzeug.formparser import t_parse_result


class PartCounter:
    """A multipart body's stream that counts the parts read so far, to tell which form limit a 413 passed."""

    def __init__(self, stream: IO[bytes], boundary: bytes) -> None:
        self._stream, self._delimiter = stream, b"--" + boundary
        self._tail, self.parts, self.over_size = b"", -1, False   # the closing delimiter starts no part

    def read(self, size: int = -1) -> bytes:
        try:
            data = self._stream.read(size)
        except RequestEntityTooLarge:
            self.over_size = True
            raise
        seen = self._tail + data
        self.parts += seen.count(self._delimiter)
        self._tail = seen[1 - len(self._delimiter):]
        return data


class FormParser(FormDataParser):
    """Werkzeug's form parser, whose 413 names the limit passed (a field's size or the number of fields), and
    which closes the spooled files of a body it could not finish (Werkzeug leaves them to the garbage collector)."""

    def _parse_multipart(self, stream: IO[bytes], mimetype: str, content_length: int | None,
                         options: dict[str, str]) -> "t_parse_result":
        counter = PartCounter(stream, options.get("boundary", "").encode("ascii"))
        spooled: list[IO[bytes]] = []
        make_file = self.stream_factory

        def spool(total_content_length: int | None, content_type: str | None, filename: str | None,
                  content_length: int | None = None) -> IO[bytes]:   # Werkzeug's stream factory, by keyword
            spooled.append(make_file(total_content_length=total_content_length, content_type=content_type,
                                     filename=filename, content_length=content_length))
            return spooled[-1]

        self.stream_factory, parsed = spool, False
        try:
            # Werkzeug's parser only read()s the stream, though its annotation asks for a whole IO[bytes]
            result = super()._parse_multipart(cast(IO[bytes], counter), mimetype, content_length, options)
            parsed = True
            return result
        except RequestEntityTooLarge:
            if counter.over_size:
                raise
            # The refusal comes as the part past the limit starts: its delimiter is read, the closing one not yet.
            too_many = self.max_form_parts is not None and counter.parts >= self.max_form_parts
            raise RequestEntityTooLarge(limits.too_many_fields() if too_many else limits.field_too_large()) from None
        finally:
            self.stream_factory = make_file
            if not parsed:   # a body refused part-way: no request holds its files to close them, so close them here
                for file in spooled:
                    file.close()


class LimitedRequest(Request):
    form_data_parser_class = FormParser


def whole_body_within_limit() -> None:
    """JSON bodies and forms without a file are read into memory at once, so their limits are smaller."""
    if request.is_json:
        limit = limits.LIMITS.json_bytes
    elif request.mimetype == "application/x-www-form-urlencoded":
        limit = limits.LIMITS.form_bytes
    else:
        return
    request.max_content_length = limit + 1   # Werkzeug cuts a chunked body at the limit: read a byte more to tell
    if len(request.get_data()) > limit:
        raise RequestEntityTooLarge()


def too_large_sentence(error: HTTPException) -> str:
    """A 413's sentence: the one raised with it, else the limit on this kind of body."""
    if error.description is not None and error.description != RequestEntityTooLarge.description:
        return error.description
    if request.is_json:
        return limits.json_too_large()
    if request.mimetype == "application/x-www-form-urlencoded":
        return limits.form_too_large()
    return limits.upload_too_large(current_app.config["MAX_CONTENT_LENGTH"])


def untrusted_host() -> bool:
    trusted = current_app.config.get("TRUSTED_HOSTS")
    return bool(trusted) and not host_is_trusted(request.environ.get("HTTP_HOST", ""), trusted)
