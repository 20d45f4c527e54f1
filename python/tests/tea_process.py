"""The tea machine of models/tea_machine.dot as a process on the stdio protocol (one label per
line), for `Suite.run_process`: after `coin`, `button` brews `tea`; left alone for a moment the
machine refunds on its own. The first argument plants a fault: `refund` refunds instead of
brewing, `silent` swallows the button, `tea` gives up with `tea`."""

from __future__ import annotations

import os
import select
import sys

fault = sys.argv[1] if len(sys.argv) > 1 else ""
state = "idle"
pending = b""  # bytes read and not yet handled: select() does not see them


def say(label: str) -> None:
    sys.stdout.write(label + "\n")
    sys.stdout.flush()


while True:
    if b"\n" not in pending:
        # After a coin the machine waits 50 ms for the button, then gives up on its own.
        ready, _, _ = select.select([0], [], [], 0.05 if state == "paid" else None)
        if not ready:
            say("tea" if fault == "tea" else "refund")
            state = "idle"
            continue
        chunk = os.read(0, 4096)
        if not chunk:
            break
        pending += chunk
        continue
    line, pending = pending.split(b"\n", 1)
    label = line.decode()
    if (state, label) == ("idle", "coin"):
        state = "paid"
    elif (state, label) == ("paid", "button"):
        state = "idle"
        if fault == "refund":
            say("refund")
        elif fault != "silent":
            say("tea")
