#!/usr/bin/env python3
"""The adapter of the Conference Protocol case study: ncomplete's label lines on one side, a
Conference Protocol Entity (CONTRACT.md) on the other.

    conference_adapter.py [--log FILE] [--ready-timeout S] [--settle-ms MS] [--check] -- CMD ARGS...

starts the CPE as ``CMD ARGS... --listen ADDR --partners UDP1,UDP2`` after binding the tester's
sockets on OS-chosen ports: ``udp1`` and ``udp2`` play the two potential partners, ``udp3`` a
stranger whose address is not among them (the CPE must ignore it). The CPE's own port is chosen
free. Once it writes ``ready``, labels are translated by the codec below (``cf0`` its standard
streams). After each input, once every channel has been silent for the settle time (default
400 ms), the adapter writes `settled`: the model waits for it before its next input, so the
inputs reach the CPE one at a time although they travel on different channels. The settle time
is multiplied by the runner's timing scale (`NCOMPLETE_TIMING_SCALE`, 4 and 16 on the re-runs
of a fail that rests on timing), and `settled` is declared to the runner as a timer output
(`--timer-outputs settled`): a CPE that answers after `settled` on a loaded machine is re-run
with longer waits before any verdict, not failed at once. Every start is
a fresh CPE: ncomplete resets by restarting this process. With `--check` it only starts the
CPE, waits for `ready` and exits (0 when it came), as a check before a run.

The label of each message (``conference.aut``): ``cf0_join_a_c1`` is the line ``join ann mbt``
on the CPE's stdin, ``udp1_in_join_b_c1`` the datagram ``1 bob mbt`` from udp1 to the CPE,
``udp1_out_answer_a_c1`` the datagram ``3 ann mbt`` from the CPE to udp1, and so on.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # a checkout; else the installed one

from ncomplete_adapter import (  # noqa: E402
    Adapter,
    Codec,
    ProcessChannel,
    UdpChannel,
    free_udp_port,
)

# Label values (short, in the model) and the names on the wire.
USERS = {"a": "ann", "b": "bob", "c": "cat_7"}
CONFERENCES = {"c1": "mbt", "c2": "conf_2"}
TEXTS = {"t": "hello_42"}
PEERS = ("udp1", "udp2", "udp3")
PDUS = {"join": "1 {user} {conf}", "leave": "2 {user} {conf}", "answer": "3 {user} {conf}"}
DATA = "4 {user} {conf} {text}"


def conference_codec() -> Codec:
    codec = Codec({"user": USERS, "conf": CONFERENCES, "text": TEXTS})
    codec.input("cf0_join_{user}_{conf}", "cf0", "join {user} {conf}")
    codec.input("cf0_datareq_{text}", "cf0", "datareq {text}")
    codec.input("cf0_leave", "cf0", "leave")
    codec.output("cf0_dataind_{user}_{text}", "cf0", "dataind {user} {text}")
    for peer in PEERS:
        for kind, message in PDUS.items():
            codec.input(peer + "_in_" + kind + "_{user}_{conf}", peer, message)
            codec.output(peer + "_out_" + kind + "_{user}_{conf}", peer, message)
        codec.input(peer + "_in_data_{user}_{conf}_{text}", peer, DATA)
        codec.output(peer + "_out_data_{user}_{conf}_{text}", peer, DATA)
    return codec


def main(argv):
    log, ready_timeout, settle, check = None, 10.0, 0.4, False
    while argv and argv[0] != "--":
        if argv[0] == "--check":
            check, argv = True, argv[1:]
            continue
        option, value, argv = argv[0], argv[1], argv[2:]
        if option == "--log":
            log = value
        elif option == "--ready-timeout":
            ready_timeout = float(value)
        elif option == "--settle-ms":
            settle = float(value) / 1000
        else:
            sys.exit("conference_adapter: unknown option %s" % option)
    command = argv[1:]
    if not command:
        sys.exit(__doc__.split("\n\n")[1])
    peers = [UdpChannel(name) for name in PEERS]
    own = ("127.0.0.1", free_udp_port())
    partners = ",".join(peer.address for peer in peers[:2])
    try:
        cpe = ProcessChannel("cf0", command + ["--listen", "%s:%d" % own, "--partners", partners])
    except OSError as problem:
        sys.stderr.write("conference_adapter: cannot start %s: %s\n" % (command[0], problem))
        return 1
    for peer in peers:
        peer.peer, peer.only_from_peer = own, True
    if log:
        with open(log, "a", encoding="utf-8") as start:
            start.write(
                "# cpe %s:%d, udp1 %s, udp2 %s, udp3 %s\n"
                % (own + tuple(peer.address for peer in peers))
            )
    try:
        cpe.wait_for_line(b"ready", ready_timeout)
    except RuntimeError as problem:
        sys.stderr.write("conference_adapter: %s\n" % problem)
        cpe.close()
        return 1
    if check:
        cpe.close()
        return 0
    try:
        adapter = Adapter(conference_codec(), [cpe, *peers], log, ("settled", settle))
    except ValueError as problem:
        sys.stderr.write("conference_adapter: %s\n" % problem)
        cpe.close()
        return 1
    return adapter.serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
