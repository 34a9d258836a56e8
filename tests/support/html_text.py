"""Reading a page's HTML in tests that need no browser."""

import re
from html import unescape


def element_text(html, element_id):
    """The text of the element with that id (up to its first child)."""
    match = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', html)
    return unescape(match.group(1)).strip()
