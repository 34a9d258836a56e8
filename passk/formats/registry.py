"""Where every reader is registered: each reader module registers itself as it is imported (register(__name__)).

Nothing here imports a reader, so any module, a reader included, may import this one.
The two orders are the one place a new reader is placed among the others.
"""

import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any, Protocol

# How the formats are listed to people (the format menu, errors, the README).
FORMATS = ("text", "csv", "humaneval", "evalarena", "evalplus", "bigcodebench", "cruxeval", "livecodebench",
           "multiple", "swebench", "taubench", "inspect", "lmeval", "lighteval", "everyevalever", "nemoskills", "json",
           "jsonl")
# A JSON document is offered to the document readers' looks_like in this order, the most specific first
# (Inspect logs have an "eval" too); JSON counts take what no other claims.
DOCUMENT_ORDER = ("inspect", "taubench", "bigcodebench", "evalplus", "cruxeval", "livecodebench", "multiple",
                  "swebench", "json")
READERS: dict[str, ModuleType] = {}   # format name -> its reader module, a LineReader or a DocumentReader


# What a reader module holds. Nothing here imports the package, so a JSON document is Any (_core.JSON) and
# a reader's problems are list[Any] (list[_core.Problem]). A module registers itself by its name, so mypy checks
# each reader's functions by their own annotations, not against these descriptions.
class Reader(Protocol):
    """What every reader module names: its format, how people name it and its tool, and the harness it reads."""

    NAME: str
    TITLE: str
    LABEL: str
    SOURCE: str


class LineReader(Reader, Protocol):
    """A reader of a line format (text, CSV, JSONL), given the input as chunks of whole lines; COST is what
    reading them costs (a passk.formats._cost.LineCost)."""

    COST: Any

    def read_lines(self, chunks: Iterable[bytes], limit: int | None) -> list[Any]: ...


class RunReader(LineReader, Protocol):
    """A line reader whose file may hold several runs (one is chosen by suite) or that has something to say
    about it (warnings); read_problems asks for read_run when a module has it."""

    def read_run(self, chunks: Iterable[bytes], suite: str, limit: int | None) -> tuple[list[Any], list[str]]: ...


class DocumentReader(Reader, Protocol):
    """A reader of JSON documents, offered each document (looks_like) in DOCUMENT_ORDER.

    It may also have source(document) -> str, the harness and version of that document, and
    warnings(document) -> list[str]; detect asks for them when a module has them.
    """

    SIGNATURE: str

    def looks_like(self, document: Any) -> bool: ...

    def read(self, document: Any, suite: str, limit: int | None) -> list[Any]: ...


def register(module_name: str) -> None:
    """Register the reader module of that name (its NAME, TITLE, LABEL and read or read_lines)."""
    module = sys.modules[module_name]
    READERS[module.NAME] = module


def titles() -> dict[str, str]:
    """{format: how it is named to people}, in the order of FORMATS."""
    return {name: READERS[name].TITLE for name in FORMATS}


def document_readers() -> list[DocumentReader]:
    """The readers of JSON documents, in the order they are offered a document."""
    return [READERS[name] for name in DOCUMENT_ORDER]
