"""The multi-channel adapter layer (ncomplete_adapter): codecs from templates and value maps, and
the adapter loop over a UDP peer and a process, as the Conference Protocol example uses them."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time

import pytest

from ncomplete_adapter import (
    Adapter,
    Codec,
    ProcessChannel,
    TcpClientChannel,
    TcpServerChannel,
    UdpChannel,
    timing_scale,
)


def codec() -> Codec:
    c = Codec({"user": {"a": "ann", "b": "bob"}, "n": ["1", "12"]})
    c.input("join_{user}_{n}", "udp", "1 {user} {n}")
    c.output("answer_{user}", "udp", "3 {user}")
    c.output("line_{word}", "proc", "said {word}")
    return c


def test_encode_maps_label_values_to_concrete_text():
    assert codec().encode("join_b_12") == ("udp", b"1 bob 12")
    assert codec().encode("join_a_1") == ("udp", b"1 ann 1")
    with pytest.raises(KeyError):
        codec().encode("join_c_1")


def test_decode_is_exact_and_maps_back():
    c = codec()
    assert c.decode("udp", b"3 ann") == "answer_a"
    assert c.decode("udp", b"3 ann ") is None
    assert c.decode("udp", b"3 eve") is None
    assert c.decode("proc", b"3 ann") is None
    assert c.decode("proc", b"said anything_at_all") == "line_anything_at_all"
    assert c.decode("udp", b"\xff") is None


def test_values_known_at_start_up_can_be_set_later():
    c = Codec()
    c.input("hello_{peer}", "udp", "hello from {peer}")
    c.values["peer"] = {"me": "127.0.0.1:4000"}
    assert c.encode("hello_me") == ("udp", b"hello from 127.0.0.1:4000")


def test_a_field_twice_in_one_template_is_refused():
    c = Codec()
    c.input("x_{a}_{a}", "udp", "{a}")
    with pytest.raises(ValueError):
        c.encode("x_1_1")


def run_adapter(adapter: Adapter, labels: bytes, read_until: int):
    """Serves `labels` to `adapter` in a thread; the first `read_until` label lines it writes."""
    inputs_r, inputs_w = os.pipe()
    outputs_r, outputs_w = os.pipe()
    out = os.fdopen(outputs_w, "w")
    thread = threading.Thread(target=lambda: adapter.serve(inputs_r, out))
    thread.start()
    os.write(inputs_w, labels)
    seen, reader = [], os.fdopen(outputs_r)
    while len(seen) < read_until:
        seen.append(reader.readline().rstrip("\n"))
    os.close(inputs_w)
    thread.join(timeout=5)
    out.close()
    reader.close()
    os.close(inputs_r)
    return seen


def test_the_adapter_translates_both_ways_and_reports_settling(tmp_path):
    system = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    system.bind(("127.0.0.1", 0))
    udp = UdpChannel("udp")
    udp.peer, udp.only_from_peer = system.getsockname(), True
    stranger = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def answer():
        data, source = system.recvfrom(100)
        assert data == b"1 ann 12"
        system.sendto(b"3 bob", source)
        stranger.sendto(b"3 bob", source)  # not from the peer: unparsed

    threading.Thread(target=answer).start()
    log = tmp_path / "log"
    adapter = Adapter(codec(), [udp], str(log), settle=("settled", 0.2))
    assert run_adapter(adapter, b"join_a_12\n", 3) == ["answer_b", "unparsed_udp", "settled"]
    events = log.read_text().splitlines()
    assert events[0].startswith("> join_a_12 udp 127.0.0.1:")
    assert events[0].endswith("'1 ann 12'")
    assert events[1].startswith("< answer_b udp")
    system.close()
    stranger.close()


def test_the_settle_time_follows_the_runners_timing_scale(monkeypatch):
    """The settle timer is multiplied by NCOMPLETE_TIMING_SCALE, which every runner sets for
    the processes it starts (4 and 16 on the re-runs of a fail that rests on timing): the
    silence the adapter waits for before `settled` grows with it."""
    assert timing_scale({}) == 1
    assert timing_scale({"NCOMPLETE_TIMING_SCALE": "16"}) == 16
    for bad in ("0", "x", "-4", "1.5"):
        with pytest.raises(ValueError, match="NCOMPLETE_TIMING_SCALE"):
            timing_scale({"NCOMPLETE_TIMING_SCALE": bad})
    waits = {}
    for scale in ("1", "4"):
        monkeypatch.setenv("NCOMPLETE_TIMING_SCALE", scale)
        udp = UdpChannel("udp")
        udp.peer = ("127.0.0.1", 9)
        adapter = Adapter(codec(), [udp], settle=("settled", 0.1))
        assert adapter.settle == ("settled", 0.1 * int(scale))
        started = time.monotonic()
        assert run_adapter(adapter, b"join_a_12\n", 1) == ["settled"]
        waits[scale] = time.monotonic() - started
    # At least the scaled time (a loaded machine only adds to either).
    assert waits["1"] >= 0.1 and waits["4"] >= 0.4, waits


def test_a_process_channel_waits_for_its_ready_line_and_keeps_earlier_lines():
    script = "import sys; print('said early'); print('ready'); sys.stdout.flush(); sys.stdin.read()"
    process = ProcessChannel("proc", [sys.executable, "-c", script])
    process.wait_for_line(b"ready", 10)
    adapter = Adapter(codec(), [process])
    assert run_adapter(adapter, b"", 1) == ["line_early"]


def test_tcp_channels_both_ways_round_a_relaying_system():
    """The tester connects to the system (client channel) and the system connects to the tester
    (server channel); the system relays each line it is sent as a reply on the other."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    upstream = TcpServerChannel("up")
    host, port = upstream.address.rsplit(":", 1)

    def relay():
        incoming, _ = listener.accept()
        with incoming, socket.create_connection((host, int(port))) as outgoing:
            line = incoming.makefile("rb").readline()
            outgoing.sendall(line.replace(b"ping", b"pong"))
            outgoing.recv(1)  # until the tester closes

    system = threading.Thread(target=relay)
    system.start()
    downstream = TcpClientChannel("down", "127.0.0.1", listener.getsockname()[1])
    upstream.accept(5)
    c = Codec()
    c.input("ping_{word}", "down", "ping {word}")
    c.output("pong_{word}", "up", "pong {word}")
    adapter = Adapter(c, [downstream, upstream])
    assert run_adapter(adapter, b"ping_x7\n", 1) == ["pong_x7"]
    system.join(timeout=5)
    listener.close()
