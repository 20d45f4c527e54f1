"""ncomplete_adapter: a multi-channel adapter between ncomplete's label lines and a real system.

``ncomplete run --sut``, ``ncomplete explore --sut`` and the generated pytest and Cargo programs
talk to a system one label per line (inputs on its standard input, outputs on its standard
output, nothing while it is quiescent). A system that speaks a protocol over several channels at
once (its own standard streams, UDP peers, TCP connections) is tested through an *adapter
process* that speaks labels to ncomplete and the concrete protocol to the system. This module
is the reusable part of such a process, after the TorX adapter of the Conference Protocol
experiment (Tretmans and Belinfante, Sec. 5.1.2 of the TorX thesis): one handler per point of
control and observation (a *channel*), an encoder and a decoder between abstract labels and
concrete messages (a *codec* of templates with value maps), and one queue of observations
across all channels. Quiescence is left to ncomplete: the adapter writes every observation as a
label line at once and stays silent otherwise, so the runner's own quiescence timeout applies
to all channels together.

Pure standard library (Python 3.8+), no import of the native ``ncomplete`` extension: it works
from a source checkout by path (``sys.path.insert(0, "<checkout>/python")``) and from the
installed package alike. ``examples/conference/conference_adapter.py`` is the worked example.

- Channels: :class:`ProcessChannel` (the system's stdin/stdout, one message a line; the process
  is started by the adapter), :class:`UdpChannel` (a socket the tester binds on an OS-chosen
  port, one message a datagram), :class:`TcpClientChannel` and :class:`TcpServerChannel` (one
  message a line over a connection). A channel of your own needs ``name``, ``fileno()``,
  ``receive()`` (the messages readable now, as ``(bytes, source)`` pairs; raise ``EOFError``
  when it ended), ``send(bytes)`` and ``close()``.
- :class:`Codec`: ``codec.input(label_template, channel, message_template)`` and
  ``codec.output(...)`` with ``{field}`` placeholders; ``codec.values[field]`` maps each label
  value of a field to its concrete text (a list maps values to themselves). Maps may be filled
  or changed at start-up (the tester's own addresses, chosen by the operating system).
- :class:`Adapter`: the loop. Each label line read is encoded and sent; each message received
  on any channel is decoded in arrival order and written as a label line. A message no output
  template matches is written as ``unparsed_<channel>``, a label outside any model, so the
  runner fails the test on it and the concrete log shows the message.
- Timing: an adapter's own timer (the ``settle`` label below) is a timeout like the runner's.
  Every runner exports the factor of its timing re-runs to the system it starts as
  ``NCOMPLETE_TIMING_SCALE`` (1 on a first run, then 4 and 16, see the timing rule in the
  guide's "Running" chapter); :func:`timing_scale` reads it and :class:`Adapter` multiplies its
  settle time by it. Declare the label the timer writes to the runner (``--timer-outputs`` of
  ``run`` and ``explore``, ``NCOMPLETE_TIMER_OUTPUTS`` for the generated programs): observing it
  is then a timing-dependent observation, and a fail after it is re-run with the timeouts x4 and
  x16 before it is reported.
"""

from __future__ import annotations

import os
import re
import select
import socket
import subprocess
import sys
import time
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

Message = Tuple[bytes, str]
"""A message received on a channel: its bytes and where it came from (text, for the log)."""

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def format_address(address: Tuple[str, int]) -> str:
    """``host:port`` of a socket address."""
    return "%s:%d" % (address[0], address[1])


def free_udp_port(host: str = "127.0.0.1") -> int:
    """A UDP port free on ``host`` right now (bound and released: another process may take it
    before the system binds it, which then fails to start and the run reports an error)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def timing_scale(environ: Mapping[str, str] = os.environ) -> int:
    """The factor the runner scaled its timeouts by for this start of the system
    (``NCOMPLETE_TIMING_SCALE``: 1 on a first run, 4 and 16 on the timing re-runs); 1 when the
    variable is not set. A value that is not a positive integer is an error (``ValueError``)."""
    text = environ.get("NCOMPLETE_TIMING_SCALE", "1")
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError("NCOMPLETE_TIMING_SCALE must be a positive integer, not %r" % text)
    return int(text)


class LineBuffer:
    """Splits a byte stream into lines ending in ``\\n`` (the ``\\n`` removed, nothing else)."""

    def __init__(self) -> None:
        self.pending = b""

    def feed(self, data: bytes) -> List[bytes]:
        self.pending += data
        *lines, self.pending = self.pending.split(b"\n")
        return lines


class ProcessChannel:
    """The system's standard streams: the adapter starts ``command`` (a list) with its stdin and
    stdout as one channel, one message a line; stderr is passed through. The channel ends
    (``EOFError``) when the process closes its stdout."""

    def __init__(self, name: str, command: Sequence[str]) -> None:
        self.name = name
        self.process = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self.lines = LineBuffer()
        self.early: List[bytes] = []

    def fileno(self) -> int:
        return self.process.stdout.fileno()

    def wait_for_line(self, expected: bytes, timeout: float) -> None:
        """Waits until the system writes the line ``expected`` (e.g. ``ready``); raises
        ``RuntimeError`` after ``timeout`` seconds or when it ends first. Lines before it are
        kept as its first messages."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self], [], [], left)[0]:
                raise RuntimeError("%s: no line %r within %.1f s" % (self.name, expected, timeout))
            data = os.read(self.fileno(), 65536)
            if not data:
                raise RuntimeError("%s: ended before the line %r" % (self.name, expected))
            for line in self.lines.feed(data):
                if line == expected:
                    return
                self.early.append(line)

    def receive(self) -> List[Message]:
        data = os.read(self.fileno(), 65536)
        if not data:
            raise EOFError("%s: the process closed its output" % self.name)
        return [(line, "stdout") for line in self.lines.feed(data)]

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def close(self) -> None:
        """Closes the system's stdin and waits a moment for it to exit, then kills it."""
        try:
            self.process.stdin.close()
            self.process.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


class UdpChannel:
    """A UDP socket of the tester, bound on an OS-chosen port of ``host`` (``address`` is known
    once it is created). Messages are datagrams; ``send`` goes to ``peer`` (set it once the
    system's address is known). The source of every datagram is kept for the log and, when
    ``only_from_peer`` is set, a datagram from anywhere else is reported as unparsed."""

    def __init__(self, name: str, host: str = "127.0.0.1") -> None:
        self.name = name
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind((host, 0))
        self.address = format_address(self.socket.getsockname())
        self.peer: Optional[Tuple[str, int]] = None
        self.only_from_peer = False

    def fileno(self) -> int:
        return self.socket.fileno()

    def receive(self) -> List[Message]:
        data, source = self.socket.recvfrom(65536)
        return [(data, format_address(source))]

    def accepts(self, source: str) -> bool:
        """Whether a message from ``source`` is decoded (else it is reported as unparsed)."""
        return not self.only_from_peer or (
            self.peer is not None and source == format_address(self.peer)
        )

    def send(self, data: bytes) -> None:
        if self.peer is None:
            raise RuntimeError("%s: no peer address to send to" % self.name)
        self.socket.sendto(data, self.peer)

    def close(self) -> None:
        self.socket.close()


class _StreamChannel:
    """A TCP connection carrying one message a line."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.connection: Optional[socket.socket] = None
        self.lines = LineBuffer()

    def fileno(self) -> int:
        assert self.connection is not None
        return self.connection.fileno()

    def receive(self) -> List[Message]:
        assert self.connection is not None
        data = self.connection.recv(65536)
        if not data:
            raise EOFError("%s: the connection was closed" % self.name)
        source = format_address(self.connection.getpeername())
        return [(line, source) for line in self.lines.feed(data)]

    def send(self, data: bytes) -> None:
        if self.connection is None:
            raise RuntimeError("%s: not connected" % self.name)
        self.connection.sendall(data + b"\n")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


class TcpClientChannel(_StreamChannel):
    """A connection the tester opens to the system at ``host:port`` (retried until ``timeout``
    seconds have passed, for a system still starting)."""

    def __init__(self, name: str, host: str, port: int, timeout: float = 5.0) -> None:
        super().__init__(name)
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.connection = socket.create_connection((host, port), timeout=timeout)
                self.connection.settimeout(None)
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


class TcpServerChannel(_StreamChannel):
    """A listening socket of the tester on an OS-chosen port (``address``) that the system
    connects to; ``accept(timeout)`` waits for that one connection."""

    def __init__(self, name: str, host: str = "127.0.0.1") -> None:
        super().__init__(name)
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind((host, 0))
        self.listener.listen(1)
        self.address = format_address(self.listener.getsockname())

    def accept(self, timeout: float) -> None:
        self.listener.settimeout(timeout)
        self.connection, _ = self.listener.accept()
        self.connection.settimeout(None)
        self.listener.close()


Channel = Union[ProcessChannel, UdpChannel, TcpClientChannel, TcpServerChannel]


class _Rule:
    def __init__(self, label: str, channel: str, message: str) -> None:
        self.label, self.channel, self.message = label, channel, message


def _pattern(template: str, alternatives: Mapping[str, Iterable[str]], default: str) -> str:
    """A regular expression matching ``template``: each ``{field}`` a named group of the field's
    alternatives (longest first), or of ``default`` for a field without a map."""
    parts, seen, last = [], set(), 0
    for found in _FIELD.finditer(template):
        name = found.group(1)
        if name in seen:
            raise ValueError("template %r: field {%s} twice" % (template, name))
        seen.add(name)
        choices = alternatives.get(name)
        if choices is None:
            body = default
        else:
            body = "|".join(re.escape(c) for c in sorted(choices, key=lambda c: (-len(c), c)))
        parts.append(re.escape(template[last : found.start()]))
        parts.append("(?P<%s>%s)" % (name, body))
        last = found.end()
    parts.append(re.escape(template[last:]))
    return "".join(parts)


class Codec:
    """Label templates paired with message templates, per channel and direction.

    ``values[field]`` is a dict from a field's label value to its concrete text, or a list of
    values written the same way in both. A field without a map takes any run of letters, digits
    and ``_`` in labels and any non-blank text in messages, unchanged. Labels are matched whole,
    messages whole (no trimming): a message with an extra blank matches nothing."""

    def __init__(
        self, values: Optional[Mapping[str, Union[Mapping[str, str], Sequence[str]]]] = None
    ):
        self.values: Dict[str, Union[Mapping[str, str], Sequence[str]]] = dict(values or {})
        self.inputs: List[_Rule] = []
        self.outputs: List[_Rule] = []

    def input(self, label: str, channel: str, message: str) -> None:
        """An input label: ``label`` is encoded as ``message`` sent on ``channel``."""
        self.inputs.append(_Rule(label, channel, message))

    def output(self, label: str, channel: str, message: str) -> None:
        """An output label: ``message`` received on ``channel`` is decoded as ``label``."""
        self.outputs.append(_Rule(label, channel, message))

    def _map(self, field: str) -> Optional[Mapping[str, str]]:
        known = self.values.get(field)
        if known is None:
            return None
        return known if isinstance(known, Mapping) else {v: v for v in known}

    def _fields(self, concrete: bool) -> Dict[str, List[str]]:
        fields = {}
        for name in self.values:
            mapping = self._map(name) or {}
            fields[name] = list(mapping.values() if concrete else mapping.keys())
        return fields

    def _translate(self, found: "re.Match[str]", to_concrete: bool) -> Dict[str, str]:
        """The fields of a match, mapped to the other side through their value maps."""
        values = {}
        for name, value in found.groupdict().items():
            mapping = self._map(name)
            if mapping is not None and to_concrete:
                value = mapping[value]
            elif mapping is not None:
                value = next(k for k, v in mapping.items() if v == value)
            values[name] = value
        return values

    def encode(self, label: str) -> Tuple[str, bytes]:
        """The channel and message of an input label; ``KeyError`` for a label no input
        template matches."""
        fields = self._fields(concrete=False)
        for rule in self.inputs:
            found = re.fullmatch(_pattern(rule.label, fields, r"[A-Za-z0-9_]+"), label)
            if found:
                values = self._translate(found, to_concrete=True)
                return rule.channel, rule.message.format(**values).encode()
        raise KeyError("no input template matches the label %r" % label)

    def decode(self, channel: str, message: bytes) -> Optional[str]:
        """The output label of ``message`` received on ``channel``, or ``None``."""
        try:
            text = message.decode()
        except UnicodeDecodeError:
            return None
        fields = self._fields(concrete=True)
        for rule in self.outputs:
            if rule.channel != channel:
                continue
            found = re.fullmatch(_pattern(rule.message, fields, r"\S+"), text)
            if found:
                return rule.label.format(**self._translate(found, to_concrete=False))
        return None


class Adapter:
    """The adapter's loop between ncomplete's label lines and the channels.

    ``serve()`` reads label lines from ``labels_in`` (a file descriptor, default stdin), encodes
    and sends each one; every message received on a channel goes into one observation queue in
    arrival order, is decoded and written to ``labels_out`` at once, one label a line. It returns
    0 when ncomplete closes the adapter's input (end of the test), and 1 when a channel ends or
    an input label has no template (the runner then fails the test: the system exited). Every
    label with its concrete message is appended to ``log`` (a path), one event a line, when given.

    ``settle=(label, seconds)``: after each input, once every channel has been silent for that
    long since the last input or output, the adapter writes ``label`` (TorX's adapter kept such
    a quiescence timer of its own). The time is multiplied by ``scale`` (default: the runner's
    :func:`timing_scale`), so the timing re-runs of a fail wait for a late system as long as
    the runner's own scaled timeouts do; declare ``label`` as a timer output to the runner.

    A system reads its channels in an order of its own (one ``select`` may return a datagram
    and a line together), so two inputs sent back to back on different channels may be handled
    in either order, while a model takes them in the order sent. A model that expects the
    settle label after every input, and enables no input before it, makes every runner wait for
    it: inputs reach the system one at a time, and a missing output is seen as the settle label
    where the output was due.
    """

    def __init__(
        self,
        codec: Codec,
        channels: Sequence[Channel],
        log: Optional[str] = None,
        settle: Optional[Tuple[str, float]] = None,
        scale: Optional[int] = None,
    ):
        self.codec = codec
        self.channels = {channel.name: channel for channel in channels}
        self.log = open(log, "a", encoding="utf-8") if log else None
        if settle is not None:
            settle = (settle[0], settle[1] * (timing_scale() if scale is None else scale))
        self.settle = settle
        self.queue: List[Tuple[Channel, Message]] = []
        self.settle_at: Optional[float] = None

    def note(self, direction: str, label: str, channel: str, where: str, message: bytes) -> None:
        """One event of the concrete log: ``direction label channel where message``."""
        if self.log is not None:
            shown = message.decode("utf-8", "backslashreplace")
            self.log.write("%s %s %s %s %r\n" % (direction, label, channel, where, shown))
            self.log.flush()

    def send(self, label: str) -> None:
        name, message = self.codec.encode(label)
        channel = self.channels[name]
        peer = getattr(channel, "peer", None)
        self.note(">", label, name, format_address(peer) if peer else "-", message)
        channel.send(message)
        self.restart_settle_timer()

    def restart_settle_timer(self) -> None:
        if self.settle is not None:
            self.settle_at = time.monotonic() + self.settle[1]

    def observe(self, messages: Iterable[Tuple[Channel, Message]], labels_out) -> None:
        """Puts ``messages`` into the observation queue, then empties it as label lines."""
        self.queue.extend(messages)
        while self.queue:
            channel, (message, source) = self.queue.pop(0)
            label = None
            if getattr(channel, "accepts", lambda _: True)(source):
                label = self.codec.decode(channel.name, message)
            if label is None:
                label = "unparsed_" + channel.name
            self.note("<", label, channel.name, source, message)
            labels_out.write(label + "\n")
            labels_out.flush()
            if self.settle_at is not None:
                self.restart_settle_timer()

    def serve(self, labels_in: int = 0, labels_out=None) -> int:
        labels_out = labels_out or sys.stdout
        lines = LineBuffer()
        channels = list(self.channels.values())
        try:
            for channel in channels:
                if isinstance(channel, ProcessChannel):
                    early, channel.early = channel.early, []
                    self.observe(((channel, (m, "stdout")) for m in early), labels_out)
            while True:
                wait = None
                if self.settle_at is not None:
                    wait = max(0.0, self.settle_at - time.monotonic())
                readable, _, _ = select.select([labels_in, *channels], [], [], wait)
                if not readable and self.settle_at is not None:
                    # Silent for the settle time, unless this process was descheduled past it
                    # with output waiting: drain what is readable before concluding.
                    readable, _, _ = select.select(channels, [], [], 0)
                    if not readable and time.monotonic() >= self.settle_at:
                        self.settle_at = None
                        self.note("<", self.settle[0], "-", "-", b"")
                        labels_out.write(self.settle[0] + "\n")
                        labels_out.flush()
                for ready in readable:
                    if ready == labels_in:
                        data = os.read(labels_in, 65536)
                        if not data:
                            return 0
                        for line in lines.feed(data):
                            self.send(line.decode())
                    else:
                        self.observe(((ready, m) for m in ready.receive()), labels_out)
        except (EOFError, KeyError, OSError, RuntimeError, UnicodeDecodeError) as problem:
            sys.stderr.write("adapter: %s\n" % problem)
            return 1
        finally:
            for channel in channels:
                channel.close()
            if self.log is not None:
                self.log.close()
