"""Where every reader is registered: each reader module registers itself as it is imported (register(__name__)).

Nothing here imports a reader, so any module, a reader included, may import this one.
The two orders are the one place a new reader is placed among the others.
"""

import sys

# How the formats are listed to people (the format menu, errors, the README).
FORMATS = ("text", "csv", "humaneval", "evalarena", "evalplus", "bigcodebench", "cruxeval", "livecodebench",
           "multiple", "swebench", "taubench", "inspect", "json")
# A JSON document is offered to the document readers' looks_like in this order, the most specific first
# (Inspect logs have an "eval" too); JSON counts take what no other claims.
DOCUMENT_ORDER = ("inspect", "taubench", "bigcodebench", "evalplus", "cruxeval", "livecodebench", "multiple",
                  "swebench", "json")
READERS = {}   # format name -> its reader module


def register(module_name):
    """Register the reader module of that name (its NAME, TITLE, LABEL and read or read_lines)."""
    module = sys.modules[module_name]
    READERS[module.NAME] = module


def titles():
    """{format: how it is named to people}, in the order of FORMATS."""
    return {name: READERS[name].TITLE for name in FORMATS}


def document_readers():
    """The readers of JSON documents, in the order they are offered a document."""
    return [READERS[name] for name in DOCUMENT_ORDER]
