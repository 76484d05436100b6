"""A paho client set up from a `BrokerUrl`: credentials, TLS, reconnection with back-off."""

from __future__ import annotations

import ssl
import uuid

import paho.mqtt.client as mqtt

from nardy_pi.club.broker_url import BrokerUrl

#: seconds between reconnection attempts: doubling from the first to the second figure
RECONNECT_MIN = 1
RECONNECT_MAX = 30
KEEPALIVE = 15  # seconds; a broker notices a silently vanished peer within 1.5x this


def make_client(url: BrokerUrl, role: str) -> mqtt.Client:
    """A paho client for `url` (not yet connected). `role` starts the client id; a random
    tail keeps two processes with the same name from kicking each other off the broker."""
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2,
        client_id=f"{role}-{uuid.uuid4().hex[:8]}"[:64],
        clean_session=True,
    )
    if url.username is not None:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        try:
            client.tls_set(ca_certs=url.ca_file, cert_reqs=ssl.CERT_REQUIRED)
        except (OSError, ssl.SSLError) as exc:  # SSLError is an OSError; named for clarity
            reason = getattr(exc, "strerror", None) or getattr(exc, "reason", None) or exc
            raise ValueError(f"broker URL: cannot use the certificate authority file "
                             f"{url.ca_file}: {reason}") from None
    client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)
    return client


def connect_in_background(client: mqtt.Client, url: BrokerUrl) -> None:
    """Start paho's network thread; it keeps (re)connecting with back-off, also when the
    broker is down at start, so the caller never waits for the network."""
    client.connect_async(url.host, url.port, keepalive=KEEPALIVE)
    client.loop_start()
