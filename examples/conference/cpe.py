#!/usr/bin/env python3
"""A Conference Protocol Entity following CONTRACT.md, with the faults of the case study's
mutants behind `--mutant NAME` (`--list-mutants` prints them with their group and description).

    cpe.py [--mutant NAME] [--delay-ms MS] --listen HOST:PORT --partners HOST:PORT,HOST:PORT

`--delay-ms MS` makes a conforming but slow CPE: it sleeps MS before handling each line or
datagram, as a CPE descheduled on a loaded machine answers late (the timing rule's tests).

One select loop over standard input (the user, `cf0`) and the UDP socket; state is idle or
engaged (user, conference) with a dict of partners address -> user name.
"""

import re
import select
import socket
import sys
import time

NAME = r"[A-Za-z0-9_]{1,10}"
TEXT = r"[A-Za-z0-9_]{1,64}"
USER_LINES = {
    "join": re.compile(r"join (%s) (%s)" % (NAME, NAME)),
    "datareq": re.compile(r"datareq (%s)" % TEXT),
    "leave": re.compile(r"leave"),
}
PDUS = {
    "1": re.compile(r"1 (%s) (%s)" % (NAME, NAME)),
    "2": re.compile(r"2 (%s) (%s)" % (NAME, NAME)),
    "3": re.compile(r"3 (%s) (%s)" % (NAME, NAME)),
    "4": re.compile(r"4 (%s) (%s) (%s)" % (NAME, NAME, TEXT)),
}

# name: (group, description). The groups of the original experiment (Goga, Sec. 4.2.4).
MUTANTS = {
    # No outputs: an output the contract requires is not sent.
    "no-join-first": ("no outputs", "join sends no join PDU to the first potential partner"),
    "no-join-second": ("no outputs", "join sends no join PDU to the second potential partner"),
    "no-answer": ("no outputs", "a join PDU of the conference gets no answer PDU"),
    "no-data-first": ("no outputs", "datareq sends no data PDU to the first partner listed"),
    "no-data-second": ("no outputs", "datareq sends data PDUs to the first partner listed only"),
    "no-leave-pdu": ("no outputs", "leave sends no leave PDU to any partner"),
    "no-leave-second": ("no outputs", "leave sends a leave PDU to the first partner listed only"),
    "no-dataind": ("no outputs", "a data PDU from a partner is not passed to the user"),
    # No internal checks: a check of the conference, the partner set or the state is missing.
    "join-pdu-any-conf": ("no internal checks", "a join PDU of another conference is answered"),
    "answer-any-conf": ("no internal checks", "an answer PDU of another conference adds a partner"),
    "data-any-conf": ("no internal checks", "a data PDU of another conference is delivered"),
    "data-any-partner": (
        "no internal checks",
        "a data PDU from any potential partner is delivered",
    ),
    "data-any-user": (
        "no internal checks",
        "a data PDU from a partner address, any user, is delivered",
    ),
    "leave-any-user": (
        "no internal checks",
        "a leave PDU from a partner address, any user, removes it",
    ),
    "leave-any-conf": (
        "no internal checks",
        "a leave PDU of another conference removes the partner",
    ),
    "any-source-join": ("no internal checks", "a join PDU from any address is answered and added"),
    "any-source-data": (
        "no internal checks",
        "a data PDU from any address of a partner's user is delivered",
    ),
    "join-while-engaged": ("no internal checks", "join while engaged joins again (join PDUs sent)"),
    "answer-while-idle": (
        "no internal checks",
        "an idle CPE answers join PDUs for its last conference",
    ),
    # No internal updates: the state or the partner set is administered wrongly.
    "no-add-on-join": ("no internal updates", "a join PDU is answered but the sender is not added"),
    "no-add-on-answer": ("no internal updates", "an answer PDU does not add its sender"),
    "keep-old-partner": (
        "no internal updates",
        "a join or answer PDU does not replace the partner at its address",
    ),
    "add-duplicate": (
        "no internal updates",
        "an answer PDU adds a second entry for its address (data sent twice)",
    ),
    "no-remove-on-leave": ("no internal updates", "a leave PDU does not remove the partner"),
    "leave-removes-all": ("no internal updates", "a leave PDU removes every partner"),
    "leave-removes-other": (
        "no internal updates",
        "a leave PDU removes the other partners, not the sender",
    ),
    "join-clears-partners": ("no internal updates", "a join PDU makes its sender the only partner"),
    "no-clear-on-leave": (
        "no internal updates",
        "leave keeps the partners for the next conference",
    ),
    "stay-idle": ("no internal updates", "join sends the join PDUs but the CPE stays idle"),
    "stay-engaged": ("no internal updates", "leave sends the leave PDUs but the CPE stays engaged"),
    "keep-first-conf": ("no internal updates", "a second join keeps the first conference's name"),
    "keep-first-user": ("no internal updates", "a second join keeps the first user's name"),
}


def parse_address(text):
    host, _, port = text.rpartition(":")
    return (host, int(port))


class Entity:
    def __init__(self, listen, potential, mutant, delay=0.0):
        self.mutant = mutant
        self.delay = delay
        self.potential = potential
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(listen)
        self.engaged = None  # (user, conference)
        self.last = None  # the last (user, conference) joined
        self.partners = []  # [(address, user)], at most one per address (bar mutants)

    def send(self, data, address):
        self.socket.sendto(data.encode(), address)

    def write(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def add(self, address, user, kind):
        """Partner `user` at `address`, for a join (kind "1") or answer ("3") PDU."""
        m = self.mutant
        if m == "join-clears-partners" and kind == "1":
            self.partners = []
        known = [i for i, (a, _) in enumerate(self.partners) if a == address]
        if known and m == "keep-old-partner":
            return
        if known and not (m == "add-duplicate" and kind == "3"):
            self.partners[known[0]] = (address, user)
        else:
            self.partners.append((address, user))

    def user_line(self, line):
        m = self.mutant
        for kind, pattern in USER_LINES.items():
            found = pattern.fullmatch(line)
            if found:
                break
        else:
            return
        if kind == "join" and (self.engaged is None or m == "join-while-engaged"):
            user, conf = found.group(1), found.group(2)
            if self.last is not None and m == "keep-first-conf":
                conf = self.last[1]
            if self.last is not None and m == "keep-first-user":
                user = self.last[0]
            for k, address in enumerate(self.potential):
                if (k, m) not in ((0, "no-join-first"), (1, "no-join-second")):
                    self.send("1 %s %s" % (user, conf), address)
            if m != "stay-idle":
                self.engaged = (user, conf)
            self.last = (user, conf)
            if m != "no-clear-on-leave":
                self.partners = []
        elif kind == "datareq" and self.engaged is not None:
            for k, (address, _) in enumerate(self.partners):
                if (k, m) not in ((0, "no-data-first"),) and not (k > 0 and m == "no-data-second"):
                    self.send("4 %s %s %s" % (*self.engaged, found.group(1)), address)
        elif kind == "leave" and self.engaged is not None:
            for k, (address, _) in enumerate(self.partners):
                if m != "no-leave-pdu" and not (k > 0 and m == "no-leave-second"):
                    self.send("2 %s %s" % self.engaged, address)
            if m != "stay-engaged":
                self.engaged = None
                if m != "no-clear-on-leave":
                    self.partners = []

    def datagram(self, data, source):
        m = self.mutant
        try:
            text = data.decode("ascii")
        except UnicodeDecodeError:
            return
        pattern = PDUS.get(text[:1])
        found = pattern.fullmatch(text) if pattern else None
        if found is None:
            return
        kind, user, conf = text[0], found.group(1), found.group(2)
        potential = source in self.potential
        if not potential and not (
            (m == "any-source-join" and kind == "1") or (m == "any-source-data" and kind == "4")
        ):
            return
        if self.engaged is None:
            if m == "answer-while-idle" and kind == "1" and self.last and conf == self.last[1]:
                self.send("3 %s %s" % self.last, source)
            return
        own_conf = self.engaged[1]
        same_conf = conf == own_conf
        if kind == "1" and (same_conf or m == "join-pdu-any-conf"):
            if m != "no-add-on-join":
                self.add(source, user, kind)
            if m != "no-answer":
                self.send("3 %s %s" % self.engaged, source)
        elif kind == "3" and (same_conf or m == "answer-any-conf"):
            if m != "no-add-on-answer":
                self.add(source, user, kind)
        elif kind == "4" and (same_conf or m == "data-any-conf"):
            partner = (source, user) in self.partners
            if m == "data-any-partner":
                partner = True
            elif m == "data-any-user":
                partner = any(a == source for a, _ in self.partners)
            elif m == "any-source-data" and not potential:
                partner = any(u == user for _, u in self.partners)
            if partner and m != "no-dataind":
                self.write("dataind %s %s" % (user, found.group(3)))
        elif kind == "2" and (same_conf or m == "leave-any-conf"):
            match = [p for p in self.partners if p[0] == source]
            if m != "leave-any-user":
                match = [p for p in match if p[1] == user]
            if not match or m == "no-remove-on-leave":
                return
            if m == "leave-removes-all":
                self.partners = []
            elif m == "leave-removes-other":
                self.partners = [p for p in self.partners if p[0] == source]
            else:
                self.partners = [p for p in self.partners if p[0] != source]

    def serve(self):
        self.write("ready")
        pending = b""
        stdin = sys.stdin.buffer.raw
        while True:
            readable, _, _ = select.select([stdin, self.socket], [], [])
            if self.delay:
                time.sleep(self.delay)
            if self.socket in readable:
                data, source = self.socket.recvfrom(65536)
                self.datagram(data, source)
            if stdin in readable:
                chunk = stdin.read(65536)
                if not chunk:
                    return
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    try:
                        self.user_line(line.decode("utf-8"))
                    except UnicodeDecodeError:
                        pass


def main(argv):
    if argv == ["--list-mutants"]:
        for name, (group, description) in MUTANTS.items():
            print("%s\t%s\t%s" % (name, group, description))
        return 0
    options = {}
    while argv:
        options[argv[0]] = argv[1]
        argv = argv[2:]
    mutant = options.get("--mutant")
    if mutant is not None and mutant not in MUTANTS:
        sys.exit("cpe.py: unknown mutant %s" % mutant)
    potential = [parse_address(a) for a in options["--partners"].split(",")]
    delay = float(options.get("--delay-ms", "0")) / 1000
    Entity(parse_address(options["--listen"]), potential, mutant, delay).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
