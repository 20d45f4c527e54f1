#!/usr/bin/env python3
"""Checks every relative link of a built mdBook: the target file exists and, for a link with a
fragment, the target page has an element with that id. External links (with a scheme) are not
fetched. Exit status 1 lists the broken links."""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("img", "script") and attrs.get("src"):
            self.links.append(attrs["src"])


def parse(path):
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def main(book):
    book = Path(book).resolve()
    pages = {p: parse(p) for p in book.rglob("*.html")}
    broken = []
    for path, page in sorted(pages.items()):
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//") or link.startswith("mailto:"):
                continue
            target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path.relative_to(book)}: {link} (no such file)")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{path.relative_to(book)}: {link} (no such anchor)")
    for line in broken:
        print(f"broken link: {line}", file=sys.stderr)
    print(f"{len(pages)} pages checked, {len(broken)} broken links")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "docs/book"))
