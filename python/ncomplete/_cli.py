"""The ``ncomplete`` command of the Python package: runs the command-line binary that
``scripts/build-wheel`` bundles in the wheel (``ncomplete/bin/ncomplete``), so that
``pip install`` of the wheel gives the whole command line on a machine without Rust.

A package built without it (``pip install ./python``) runs the next ``ncomplete`` on ``PATH``
instead, or says how to get one.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import sys
from typing import Optional

BUNDLED = pathlib.Path(__file__).resolve().parent / "bin" / "ncomplete"


def binary() -> Optional[str]:
    """The bundled binary, else another ``ncomplete`` on ``PATH`` than this script."""
    if BUNDLED.is_file() and os.access(BUNDLED, os.X_OK):
        return str(BUNDLED)
    me = pathlib.Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = shutil.which("ncomplete", path=folder) if folder else None
        if found and pathlib.Path(found).resolve() != me:
            return found
    return None


def main() -> None:
    path = binary()
    if path is None:
        sys.stderr.write(
            "ncomplete: this Python package was built without its command-line binary "
            "(scripts/build-wheel bundles it); install the command with "
            "`cargo install --locked --path .` from a checkout\n"
        )
        sys.exit(2)
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
