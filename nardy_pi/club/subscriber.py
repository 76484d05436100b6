"""The tournament page's side of the broker: every message under `nardy/boards/` into the
`BoardTable`. Subscribing to the whole subtree (not `+/state`) lets a badly named board be
seen and logged rather than silently missed.

Retained messages make a (re)connect replay every table's newest state and status, so a
broker restart or a late start of the page loses nothing.
"""

from __future__ import annotations

import logging
import threading

import paho.mqtt.client as mqtt

from nardy_pi.club.boards import BoardTable
from nardy_pi.club.broker import connect_in_background, make_client
from nardy_pi.club.broker_url import BrokerUrl
from nardy_pi.club.names import PREFIX

log = logging.getLogger(__name__)

SUBSCRIPTION = f"{PREFIX}/#"


class ClubSubscriber:
    def __init__(self, url: BrokerUrl, table: BoardTable) -> None:
        self.url = url
        self.table = table
        self._lock = threading.Lock()
        self._subscribed = False
        self._refused = ""
        self._stopping = False
        self.received = 0
        client = make_client(url, "nardy-club")
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        self._client = client

    def start(self) -> None:
        log.info("club: subscribing to %s on %s", SUBSCRIPTION, self.url)
        connect_in_background(self._client, self.url)

    @property
    def link(self) -> str:
        """"ok" once the broker has granted the subscription (not merely accepted the
        connection: messages sent before the grant would be missed), "reconnecting", or
        "error" when the broker refused us (e.g. bad password)."""
        with self._lock:
            if self._subscribed:
                return "ok"
            return "error" if self._refused else "reconnecting"

    def _on_connect(self, client: mqtt.Client, _userdata: object, _flags: object,
                    reason: mqtt.ReasonCode, _properties: object) -> None:
        if reason.is_failure:
            with self._lock:
                self._refused = str(reason)
            log.warning("club: broker %s refused the page: %s", self.url, reason)
            return
        with self._lock:
            self._refused = ""
        log.info("club: connected to %s", self.url)
        client.subscribe(SUBSCRIPTION, qos=1)

    def _on_subscribe(self, _client: mqtt.Client, _userdata: object, _mid: int,
                      reasons: list[mqtt.ReasonCode], _properties: object) -> None:
        refused = [r for r in reasons if r.is_failure]
        with self._lock:
            if refused:
                self._refused = str(refused[0])
            else:
                self._subscribed = True
        if refused:
            log.warning("club: broker %s refused the subscription to %s: %s",
                        self.url, SUBSCRIPTION, refused[0])

    def _on_disconnect(self, _client: mqtt.Client, _userdata: object, _flags: object,
                       reason: mqtt.ReasonCode, _properties: object) -> None:
        with self._lock:
            self._subscribed = False
        if not self._stopping:
            log.warning("club: lost the broker %s (%s); reconnecting", self.url, reason)

    def _on_message(self, _client: mqtt.Client, _userdata: object,
                    message: mqtt.MQTTMessage) -> None:
        self.received += 1
        try:
            self.table.receive(message.topic, message.payload)
        except Exception:  # one odd message must never stop the page's network thread
            log.exception("club: message on %s could not be read", message.topic)

    def stop(self) -> None:
        self._stopping = True
        self._client.disconnect()
        self._client.loop_stop()
