"""One board's MQTT output: the newest `State` snapshot (retained, QoS 1) and the board's
`online`/`offline` status under `nardy/boards/NAME/`, with a last will.

It plugs into the outputs fan-out like the LEDs or the page. `show` never waits for the
network: with the broker connected it hands the snapshot to paho's network thread; with the
broker down it only remembers the snapshot, and the reconnect (paho's own, with back-off)
publishes the newest one. So a dead broker never slows or stops refereeing; the link shows as
the `club` device ("ok" or "reconnecting").
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


def encode_state(state: State) -> bytes:
    return json.dumps(state.to_json(), ensure_ascii=False, separators=(",", ":")).encode()


class ClubPublisher:
    """An `Output` named "club" publishing one board to the broker."""

    name = "club"

    def __init__(self, url: BrokerUrl, board: str) -> None:
        self.url = url
        self.board = check_board_name(board)
        self._lock = threading.Lock()
        self._latest: bytes | None = None
        self._connected = False
        self._refused = ""  # the broker's reason when it turned us away (bad password...)
        self._closed = False
        self.published = 0
        client = make_client(url, f"nardy-board-{board}")
        client.will_set(status_topic(board), OFFLINE, qos=QOS, retain=True)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        self._client = client

    def start(self) -> None:
        log.info("club: publishing board %s to %s", self.board, self.url)
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
        client.publish(status_topic(self.board), ONLINE, qos=QOS, retain=True)
        with self._lock:
            self._connected = True
            self._refused = ""
            latest = self._latest
        if latest is not None:  # the newest snapshot, whatever was missed while away
            self._send(latest)

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object,
                       reason: mqtt.ReasonCode, _properties: object) -> None:
        with self._lock:
            was = self._connected
            self._connected = False
        if was and not self._closed:
            log.warning("club: lost the broker %s (%s); reconnecting", self.url, reason)

    # --- Output ---------------------------------------------------------------------------------
    def show(self, state: State) -> None:
        payload = encode_state(state)
        with self._lock:
            self._latest = payload
            connected = self._connected
        if connected:
            self._send(payload)

    def _send(self, payload: bytes) -> None:
        info = self._client.publish(state_topic(self.board), payload, qos=QOS, retain=True)
        if info.rc == mqtt.MQTT_ERR_SUCCESS:
            self.published += 1

    def status(self) -> DeviceStatus:
        with self._lock:
            if self._connected:
                return "ok"
            return "error" if self._refused else "reconnecting"

    def close(self) -> None:
        """Say `offline` ourselves (a clean stop is no vanishing), then leave."""
        self._closed = True
        with self._lock:
            connected = self._connected
        if connected:
            info = self._client.publish(status_topic(self.board), OFFLINE, qos=QOS, retain=True)
            try:
                info.wait_for_publish(GOODBYE_SECONDS)
            except (RuntimeError, ValueError) as exc:
                log.warning("club: could not say offline: %s", exc)
        self._client.disconnect()
        self._client.loop_stop()
