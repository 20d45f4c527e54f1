#!/usr/bin/env python3
"""Writes conference.aut, the LTS of one Conference Protocol Entity (CONTRACT.md) under test,
with two potential partners (udp1, udp2) and a stranger (udp3) played by the tester: the
Distributed Single Layer architecture of Goga's thesis (seed 001, Sec. 4.3.1), where the tester
stands at the CPE's user interface (cf0) and at the UDP service below it.

    gen_model.py [OUT]      (default: conference.aut beside this script)

Data are instantiated over small name sets: the CPE's user is `a` or `b`, the peers' users `b`
or `c`, conferences `c1` and `c2`, one text `t` (conference_adapter.py maps them to wire names).
A stable state is `idle` or `engaged(U, C, p1, p2)`, where pK is the user name partnered at
address udpK or none (at most one partner per address; a join or answer PDU replaces it). An
input whose outputs are several (a join to both potential partners, data or leave to every
partner) leads through transient states, one per set of outputs still due, so they may come in
any order and each exactly once (a duplicate is not allowed), and then `!settled`: the adapter's
report that every channel has been silent for its settle time after the input
(conference_adapter.py). Transient states take no input, so every runner waits for the outputs
and `settled` before its next input, and inputs on different channels reach the CPE in the
order sent. Every input is enabled in every stable state; the ones the contract says are
ignored lead to `!settled` alone (nothing else may happen). The stranger sends join and data
PDUs (the ones a CPE that does not check the source would answer or deliver at once): they are
always ignored.

The output is deterministic: states are numbered in breadth-first order from `idle`, labels
sorted within a state.
"""

import itertools
import os
import sys

CPE_USERS = ("a", "b")
PEER_USERS = ("b", "c")
CONFERENCES = ("c1", "c2")
TEXT = "t"
PARTNERS = ("udp1", "udp2")
STRANGER = "udp3"
IDLE = ("idle",)


def engaged(user, conf, partners):
    return ("engaged", user, conf, tuple(partners))


def inputs():
    labels = ["cf0_join_%s_%s" % (u, c) for u in CPE_USERS for c in CONFERENCES]
    labels += ["cf0_datareq_" + TEXT, "cf0_leave"]
    for peer in PARTNERS + (STRANGER,):
        kinds = ("join", "answer", "leave") if peer in PARTNERS else ("join",)
        for kind in kinds:
            labels += [
                "%s_in_%s_%s_%s" % (peer, kind, v, c) for v in PEER_USERS for c in CONFERENCES
            ]
        labels += [
            "%s_in_data_%s_%s_%s" % (peer, v, c, TEXT) for v in PEER_USERS for c in CONFERENCES
        ]
    return labels


def after(outputs, target):
    """The state in which `outputs` (a set) are still due, then `!settled`, before `target`."""
    return ("due", frozenset(outputs), target) if outputs else ("settle", target)


def on_input(state, label):
    """The state after input `label` in stable `state` (the state itself when ignored; a
    stable state is reached through `!settled`)."""
    words = label.split("_")
    if state == IDLE:
        if words[:2] == ["cf0", "join"]:
            user, conf = words[2], words[3]
            due = {"%s_out_join_%s_%s" % (p, user, conf) for p in PARTNERS}
            return after(due, engaged(user, conf, (None, None)))
        return state
    _, user, conf, partners = state
    if words[0] == "cf0":
        if words[1] == "datareq":
            due = {
                "%s_out_data_%s_%s_%s" % (PARTNERS[k], user, conf, TEXT)
                for k, v in enumerate(partners)
                if v is not None
            }
            return after(due, state)
        if words[1] == "leave":
            due = {
                "%s_out_leave_%s_%s" % (PARTNERS[k], user, conf)
                for k, v in enumerate(partners)
                if v is not None
            }
            return after(due, IDLE)
        return state  # join while engaged
    peer, _, kind, sender, pdu_conf = words[:5]
    if peer not in PARTNERS or pdu_conf != conf:
        return state
    k = PARTNERS.index(peer)
    changed = list(partners)
    if kind == "join":
        changed[k] = sender
        return after({"%s_out_answer_%s_%s" % (peer, user, conf)}, engaged(user, conf, changed))
    if kind == "answer":
        changed[k] = sender
        return engaged(user, conf, changed)
    if partners[k] != sender:
        return state
    if kind == "data":
        return after({"cf0_dataind_%s_%s" % (sender, TEXT)}, state)
    changed[k] = None  # leave
    return engaged(user, conf, changed)


def successors(state):
    if state[0] == "settle":
        return [("!settled", state[1])]
    if state[0] == "due":
        _, due, target = state
        return [("!" + o, after(due - {o}, target)) for o in sorted(due)]
    return [("?" + label, settled_after(on_input(state, label))) for label in inputs()]


def settled_after(target):
    """`target` when outputs are due, else the state waiting for `!settled` before it."""
    return target if target[0] in ("due", "settle") else ("settle", target)


def build():
    numbers, order, edges = {IDLE: 0}, [IDLE], []
    for state in order:
        for label, target in successors(state):
            if target not in numbers:
                numbers[target] = len(order)
                order.append(target)
            edges.append((numbers[state], label, numbers[target]))
    return len(order), edges


def main():
    out = (
        sys.argv[1]
        if len(sys.argv) > 1
        else os.path.join(os.path.dirname(os.path.abspath(__file__)), "conference.aut")
    )
    states, edges = build()
    lines = ["des (0, %d, %d)" % (len(edges), states)]
    lines += ['(%d, "%s", %d)' % edge for edge in edges]
    temporary = out + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    os.replace(temporary, out)


if __name__ == "__main__":
    assert len(set(itertools.chain(inputs()))) == len(inputs())
    main()
