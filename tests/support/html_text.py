"""Reading a page's HTML in tests that need no browser."""

import re
from html import unescape


def element_text(html, element_id):
    """The text of the element with that id (up to its first child)."""
    match = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', html)
    return unescape(match.group(1)).strip()


def table_rows(html, table_id):
    """The text of each body row (a row per k) of the table with that id, cells split."""
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row,
                                                                                    re.S)]
            for row in re.findall(r"<tr data-k[^>]*>(.*?)</tr>", table, re.S)]
