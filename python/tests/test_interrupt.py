"""Ctrl-C stops `Suite.run_process`: KeyboardInterrupt in the caller, every system killed."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import MODELS

SCRIPT = textwrap.dedent(
    """
    import sys
    import ncomplete

    tea = ncomplete.load_model(sys.argv[1])
    suite = ncomplete.generate(tea, method="ioco-auto", extra_states=1)
    print("running", flush=True)
    try:
        # A system that never answers, and timeouts that wait a minute for it.
        suite.run_process(
            f"exec sleep {sys.argv[2]}",
            quiescence_ms=60000,
            response_ms=60000,
            startup_ms=60000,
            jobs=2,
        )
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(0)
    print("finished", flush=True)
    """
)


def sleeping(tag: str) -> list:
    """Processes whose command line is `sleep TAG`."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if cmdline == f"sleep\0{tag}\0".encode():
            found.append(entry.name)
    return found


@pytest.mark.skipif(not pathlib.Path("/proc").is_dir(), reason="needs /proc")
def test_ctrl_c_stops_run_process_and_its_systems() -> None:
    # A unique duration names this test's systems.
    tag = f"300.{os.getpid()}{int(time.time()) % 100000}"
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(MODELS / "tea_machine.dot"), tag],
        stdout=subprocess.PIPE,
        text=True,
        # A test run in the background of a shell inherits SIGINT ignored, and Python then
        # installs no KeyboardInterrupt handler: give the child the default.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout.readline().strip() == "running"
        deadline = time.monotonic() + 30
        while not sleeping(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert sleeping(tag), "no system started"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=20)
        assert child.returncode == 0 and "interrupted" in out, out
        deadline = time.monotonic() + 5
        while sleeping(tag) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not sleeping(tag), "a system outlived the interrupted run"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for pid in sleeping(tag):
            os.kill(int(pid), signal.SIGKILL)
