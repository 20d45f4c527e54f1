#!/usr/bin/env python3
"""A second Conference Protocol Entity, written independently of cpe.py to CONTRACT.md: asyncio
instead of a select loop, the user's lines read by a thread, the partners a dict keyed by
address, messages parsed by splitting rather than by regular expressions, and every multicast
sent to the addresses in reverse order. The tests pass it like cpe.py, so neither the model nor
the adapter depends on one implementation's habits.

    cpe_alt.py --listen HOST:PORT --partners HOST:PORT,HOST:PORT
"""

import asyncio
import string
import sys
import threading

ALLOWED = set(string.ascii_letters + string.digits + "_")


def word(text, longest):
    return 1 <= len(text) <= longest and set(text) <= ALLOWED


def address(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


class Conference(asyncio.DatagramProtocol):
    def __init__(self, potential):
        self.potential = set(potential)
        self.broadcast_order = sorted(potential, reverse=True)
        self.me = None  # (user, conference) while engaged
        self.partners = {}  # address -> user
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport

    def multicast(self, text, addresses):
        for where in sorted(addresses, reverse=True):
            self.transport.sendto(text.encode("ascii"), where)

    def datagram_received(self, data, origin):
        if origin not in self.potential or self.me is None:
            return
        fields = data.decode("ascii", "replace").split(" ")
        sizes = {"1": 3, "2": 3, "3": 3, "4": 4}
        if sizes.get(fields[0]) != len(fields):
            return
        if not all(word(f, 10) for f in fields[1:3]):
            return
        if len(fields) == 4 and not word(fields[3], 64):
            return
        kind, user, conference = fields[0], fields[1], fields[2]
        if conference != self.me[1]:
            return
        if kind == "1":
            self.partners[origin] = user
            self.transport.sendto(("3 %s %s" % self.me).encode("ascii"), origin)
        elif kind == "3":
            self.partners[origin] = user
        elif self.partners.get(origin) != user:
            return
        elif kind == "4":
            print("dataind", user, fields[3], flush=True)
        else:
            del self.partners[origin]

    def user(self, line):
        words = line.split(" ")
        if words[0] == "join" and len(words) == 3 and self.me is None:
            if word(words[1], 10) and word(words[2], 10):
                self.me = (words[1], words[2])
                self.partners = {}
                self.multicast("1 %s %s" % self.me, self.broadcast_order)
        elif words[0] == "datareq" and len(words) == 2 and self.me is not None:
            if word(words[1], 64):
                self.multicast("4 %s %s %s" % (*self.me, words[1]), self.partners)
        elif words == ["leave"] and self.me is not None:
            self.multicast("2 %s %s" % self.me, self.partners)
            self.me, self.partners = None, {}


async def run(listen, potential):
    loop = asyncio.get_running_loop()
    finished = loop.create_future()
    _, entity = await loop.create_datagram_endpoint(
        lambda: Conference(potential), local_addr=listen
    )
    print("ready", flush=True)

    def read_user():
        for raw in sys.stdin.buffer:
            if raw.endswith(b"\n"):
                try:
                    text = raw[:-1].decode("utf-8")
                except UnicodeDecodeError:
                    continue
                loop.call_soon_threadsafe(entity.user, text)
        loop.call_soon_threadsafe(finished.set_result, None)

    threading.Thread(target=read_user, daemon=True).start()
    await finished


def main(argv):
    options = dict(zip(argv[::2], argv[1::2]))
    potential = [address(a) for a in options["--partners"].split(",")]
    asyncio.run(run(address(options["--listen"]), potential))


if __name__ == "__main__":
    main(sys.argv[1:])
