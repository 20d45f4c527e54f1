#!/usr/bin/env python3
"""A small vending machine speaking the ncomplete stdio protocol: inputs (coin, coffee_button,
tea_button) on stdin, outputs (refund, coffee, tea, change) on stdout, one per line, and nothing
while it waits for the customer (quiescence).

Like the model, it decides by itself after a coin whether it can serve (here: a stock check that
fails now and then) and refunds the coin otherwise. The model allows either outcome, so a test
that needed the other one ends in `retry` and is run again.

VENDING_BUG=swap makes the tea button serve coffee: a fault every suite should catch.
"""

import os
import random
import sys

BUG = os.environ.get("VENDING_BUG") == "swap"


def emit(label):
    sys.stdout.write(label + "\n")
    sys.stdout.flush()


def main():
    paid = False
    for line in sys.stdin:
        request = line.rstrip("\n")
        if request == "coin" and not paid:
            if random.random() < 0.8:
                paid = True
            else:
                emit("refund")
        elif request in ("coffee_button", "tea_button") and paid:
            tea = request == "tea_button" and not BUG
            emit("tea" if tea else "coffee")
            emit("change")
            paid = False
        # Anything else (a second coin, a button before paying) is ignored.


if __name__ == "__main__":
    main()
