#!/usr/bin/env python3
"""A small login service speaking the ncomplete stdio protocol: one request per line on stdin,
one reply per line on stdout.

It is written as a programmer would write it (a counter of wrong passwords, flags), not as a copy
of the model's state table, so the tests check an implementation against its specification.

LOGIN_BUG=third-strike makes the account lock only after the third wrong password: a fault that
needs one state more than the model, which a suite with one extra state must catch.
"""

import os
import sys

MAX_WRONG = 3 if os.environ.get("LOGIN_BUG") == "third-strike" else 2


class Session:
    def __init__(self):
        self.name_given = False
        self.logged_in = False
        self.wrong = 0

    def handle(self, request):
        if self.wrong >= MAX_WRONG:
            return "locked"
        if request == "USER":
            return "error" if self.logged_in else self.ask_password()
        if request in ("PASS_OK", "PASS_BAD"):
            if self.logged_in or not self.name_given:
                return "error"
            return self.check_password(request == "PASS_OK")
        if request == "LOGOUT":
            if not (self.logged_in or self.name_given):
                return "error"
            self.name_given = self.logged_in = False
            self.wrong = 0
            return "bye"
        if request == "READ":
            return "data" if self.logged_in else "denied"
        return "error"

    def ask_password(self):
        self.name_given = True
        return "ask_pass"

    def check_password(self, correct):
        if correct:
            self.logged_in = True
            self.wrong = 0
            return "welcome"
        self.wrong += 1
        return "locked" if self.wrong >= MAX_WRONG else "denied"


def main():
    session = Session()
    for line in sys.stdin:
        reply = session.handle(line.rstrip("\n"))
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
