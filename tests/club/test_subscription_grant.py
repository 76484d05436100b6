"""The page's link says "ok" only once the broker has granted its subscription.

A real paho client (the page's `ClubSubscriber`) talks to a scripted MQTT peer on loopback
that accepts the connection and then holds back the SUBACK: messages published in that gap
would never reach the page, so "ok" there would be a lie (and made a test flaky). Mosquitto
cannot play this part: it always grants a subscription and filters on delivery.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from nardy_pi.club.boards import BoardTable
from nardy_pi.club.broker_url import parse_broker_url
from nardy_pi.club.subscriber import ClubSubscriber
from tests.club.helpers import wait_for

CONNACK_ACCEPTED = bytes([0x20, 0x02, 0x00, 0x00])
SUBSCRIBE = 0x80  # packet type in the high nibble of the first byte


def read_packet(conn: socket.socket) -> tuple[int, bytes]:
    """One MQTT control packet: (type nibble << 4, body)."""
    head = conn.recv(1)
    if not head:
        raise ConnectionError("peer closed")
    length, shift = 0, 0
    while True:
        byte = conn.recv(1)[0]
        length |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise ConnectionError("peer closed")
        body += chunk
    return head[0] & 0xF0, body


class ScriptedBroker:
    """Accepts one client, answers CONNACK, and records the SUBSCRIBE's packet id; the test
    decides when (and with which return code) the SUBACK goes out."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.subscribed = threading.Event()
        self.packet_id = b""
        self.conn: socket.socket | None = None
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        conn, _ = self.server.accept()
        self.conn = conn
        read_packet(conn)  # CONNECT
        conn.sendall(CONNACK_ACCEPTED)
        while True:
            try:
                kind, body = read_packet(conn)
            except (ConnectionError, OSError):
                return
            if kind == SUBSCRIBE:
                self.packet_id = body[:2]
                self.subscribed.set()
            # PINGREQ and anything else: ignored; the test is over long before keep-alive

    def suback(self, code: int) -> None:
        assert self.conn is not None
        self.conn.sendall(bytes([0x90, 0x03]) + self.packet_id + bytes([code]))

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.server.close()


@pytest.fixture
def scripted() -> Iterator[tuple[ScriptedBroker, ClubSubscriber]]:
    broker = ScriptedBroker()
    subscriber = ClubSubscriber(parse_broker_url(f"mqtt://127.0.0.1:{broker.port}"),
                                BoardTable())
    subscriber.start()
    yield broker, subscriber
    subscriber.stop()
    broker.close()


def test_connected_but_not_yet_granted_is_not_ok(
        scripted: tuple[ScriptedBroker, ClubSubscriber]) -> None:
    broker, subscriber = scripted
    assert broker.subscribed.wait(10), "the page never subscribed"
    time.sleep(0.5)  # ample time for paho to have handled the CONNACK
    assert subscriber.link == "reconnecting"
    broker.suback(0x01)  # granted, QoS 1
    wait_for(lambda: subscriber.link == "ok", 5, "the granted subscription")


def test_a_refused_subscription_is_an_error(
        scripted: tuple[ScriptedBroker, ClubSubscriber]) -> None:
    broker, subscriber = scripted
    assert broker.subscribed.wait(10), "the page never subscribed"
    broker.suback(0x80)  # MQTT 3.1.1: failure
    wait_for(lambda: subscriber.link == "error", 5, "the refusal")
