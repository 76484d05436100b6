"""One board's MQTT output: the newest `State` snapshot (retained, QoS 1) and the board's
`online`/`offline` status under `nardy/boards/NAME/`, with a last will.

It plugs into the outputs fan-out like the LEDs or the page. `show` never waits for the
network: it leaves the newest snapshot in a slot and wakes the publisher's own sender
thread, which hands it to paho whenever the broker is connected. With the broker down the
slot simply keeps the newest snapshot, and paho's reconnect (with back-off) has it sent. So a
dead broker never slows or stops refereeing; the link shows as the `club` device ("ok",
"reconnecting", or "error" when the broker refuses us).

Threads: only the sender publishes snapshots, so they leave in order; paho's callbacks
take our lock only briefly and never call paho under it, and the sender never holds our
lock while calling paho (paho runs some callbacks under its own locks).
"""

from __future__ import annotations

import json
import logging
import threading

import paho.mqtt.client as mqtt

from nardy_pi.club.broker import connect_in_background, make_client
from nardy_pi.club.broker_url import BrokerUrl
from nardy_pi.club.names import check_board_name, state_topic, status_topic
from nardy_pi.state import DeviceStatus, State

log = logging.getLogger(__name__)

ONLINE = b"online"
OFFLINE = b"offline"
QOS = 1
GOODBYE_SECONDS = 2.0  # how long a clean stop waits for `offline` to reach the broker
MAX_UNACKED = 1000  # message ids remembered while awaiting their acknowledgement


def encode_state(state: State) -> bytes:
    return json.dumps(state.to_json(), ensure_ascii=False, separators=(",", ":")).encode()


class ClubPublisher:
    """An `Output` named "club" publishing one board to the broker."""

    name = "club"

    def __init__(self, url: BrokerUrl, board: str) -> None:
        self.url = url
        self.board = check_board_name(board)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._latest: bytes | None = None
        self._owed = False  # the broker has not been handed `_latest` yet
        self._connected = False
        self._refused = ""  # the broker's reason when it turned us away (bad password...)
        self._closed = False
        self.published = 0
        # Snapshots awaiting the broker's PUBACK (message id -> send order): after a
        # reconnect paho re-sends what was in flight *after* our newest snapshot, and the
        # one the broker gets last is the one it retains.
        self._unacked: dict[int, int] = {}
        self._early_acks: set[int] = set()
        self._status_mids: set[int] = set()
        self._order = 0
        self._newest_acked = True
        client = make_client(url, f"nardy-board-{board}")
        client.will_set(status_topic(board), OFFLINE, qos=QOS, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self._client = client
        self._sender = threading.Thread(target=self._send_loop, name=f"club-{board}",
                                        daemon=True)

    def start(self) -> None:
        log.info("club: publishing board %s to %s", self.board, self.url)
        self._sender.start()
        connect_in_background(self._client, self.url)

    # --- paho's network thread ---------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object,
                    reason: mqtt.ReasonCode, _properties: object) -> None:
        if reason.is_failure:
            with self._lock:
                self._refused = str(reason)
            log.warning("club: broker %s refused board %s: %s", self.url, self.board, reason)
            return
        log.info("club: connected to %s", self.url)
        status = client.publish(status_topic(self.board), ONLINE, qos=QOS, retain=True)
        with self._lock:  # its PUBACK is read only after this callback returns
            self._status_mids.add(status.mid)
            self._connected = True
            self._refused = ""
            self._owed = self._latest is not None  # the newest, whatever was missed
        self._wake.set()

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object,
                       reason: mqtt.ReasonCode, _properties: object) -> None:
        with self._lock:
            was = self._connected
            self._connected = False
        if was and not self._closed:
            log.warning("club: lost the broker %s (%s); reconnecting", self.url, reason)

    def _on_publish(self, _client: mqtt.Client, _userdata: object, mid: int,
                    _reason: object, _properties: object) -> None:
        """An older snapshot acknowledged after the newest one: the broker now retains the
        older one, so the newest is owed again."""
        with self._lock:
            if mid in self._status_mids:
                self._status_mids.discard(mid)
                return
            order = self._unacked.pop(mid, None)
            if order is None:
                self._early_acks.add(mid)  # the sender has not noted its id yet
                return
            self._note_ack(order)
        self._wake.set()

    def _note_ack(self, order: int) -> None:
        """With the lock held."""
        if order == self._order:
            self._newest_acked = True
        elif self._newest_acked and self._latest is not None:
            self._owed = True

    # --- the sender thread -------------------------------------------------------------------
    def _send_loop(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            with self._lock:
                if self._closed:
                    return
                if not (self._connected and self._owed and self._latest is not None):
                    continue
                payload, self._owed = self._latest, False
            info = self._client.publish(state_topic(self.board), payload, qos=QOS,
                                        retain=True)
            with self._lock:
                if len(self._unacked) > MAX_UNACKED:  # ids of messages paho gave up on
                    self._unacked.clear()
                    self._early_acks.clear()
                    self._status_mids.clear()
                self._order += 1
                self._newest_acked = False
                if info.mid in self._early_acks:
                    self._early_acks.discard(info.mid)
                    self._newest_acked = True
                else:
                    self._unacked[info.mid] = self._order
                if info.rc == mqtt.MQTT_ERR_SUCCESS:
                    self.published += 1

    # --- Output ---------------------------------------------------------------------------------
    def show(self, state: State) -> None:
        payload = encode_state(state)
        with self._lock:
            self._latest, self._owed = payload, True
        self._wake.set()

    def status(self) -> DeviceStatus:
        with self._lock:
            if self._connected:
                return "ok"
            return "error" if self._refused else "reconnecting"

    def close(self) -> None:
        """Stop sending, say `offline` ourselves (a clean stop is no vanishing), leave."""
        with self._lock:
            self._closed = True
            connected = self._connected
        self._wake.set()
        if self._sender.is_alive():
            self._sender.join(GOODBYE_SECONDS)
        if connected:
            info = self._client.publish(status_topic(self.board), OFFLINE, qos=QOS, retain=True)
            try:
                info.wait_for_publish(GOODBYE_SECONDS)
            except (RuntimeError, ValueError) as exc:
                log.warning("club: could not say offline: %s", exc)
        self._client.disconnect()
        self._client.loop_stop()
