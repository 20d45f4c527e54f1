"""The tea machine of models/tea_machine.dot as a process on the stdio protocol (one label per
line), for `Suite.run_process`: after `coin`, `button` brews `tea`; left alone for a moment the
machine refunds on its own. The first argument plants a fault: `refund` refunds instead of
brewing, `silent` swallows the button, `tea` gives up with `tea`."""

from __future__ import annotations

import select
import sys

fault = sys.argv[1] if len(sys.argv) > 1 else ""
state = "idle"


def say(label: str) -> None:
    sys.stdout.write(label + "\n")
    sys.stdout.flush()


while True:
    # After a coin the machine waits 50 ms for the button, then gives up on its own.
    wait = 0.05 if state == "paid" else None
    ready, _, _ = select.select([sys.stdin], [], [], wait)
    if not ready:
        say("tea" if fault == "tea" else "refund")
        state = "idle"
        continue
    line = sys.stdin.readline()
    if not line:
        break
    label = line.rstrip("\n")
    if (state, label) == ("idle", "coin"):
        state = "paid"
    elif (state, label) == ("paid", "button"):
        state = "idle"
        if fault == "refund":
            say("refund")
        elif fault != "silent":
            say("tea")
