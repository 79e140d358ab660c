"""Free loopback ports for the servers the tests start (pogi, PostgreSQL,
s3rver), shared by every test helper.

Ports are picked at random below Linux's ephemeral range (32768-60999 by
default): a port the kernel hands out for bind(0) is the next one it hands to
another test process's client socket or bind(0), which could take it
between being picked here and the server listening on it. What is left, two
processes picking the same random port at once, the callers that start
servers meet by picking again when the server says the address is in use.
"""

import random
import socket

LOCALHOST = "127.0.0.1"
_RANGE = (20000, 32768)
_handed_out = set()
_random = random.SystemRandom()


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now and that this
    process has not handed out before."""
    while True:
        port = _random.randrange(*_RANGE)
        if port in _handed_out:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((LOCALHOST, port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
