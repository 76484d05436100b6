# Protocol core of the point-LED strip firmware. Runs under MicroPython on a Raspberry Pi Pico
# and under CPython (the host's tests drive this very file through an emulator on a pty), so it
# uses only builtins: no typing, no dataclasses, no imports.
#
# Wire format (must match nardy_pi/devices/strip/protocol.py):
#   COBS(type, seq, payload..., crc_hi, crc_lo) 0x00, CRC-16/CCITT-FALSE over type+seq+payload.
#   FRAME 0x01 payload = brightness, R, G, B per LED    -> ACK seq
#   PING  0x02 (heartbeat)                                -> ACK seq
#   HELLO 0x03 (host opened the port)                     -> READY seq
#   READY 0x80 payload = b"nardy-strip <version> <leds>"  (sent at boot, seq 0, and to HELLO)

VERSION = 1
FRAME = 0x01
PING = 0x02
HELLO = 0x03
READY = 0x80
ACK = 0x81
HOST_LOST_MS = 3000  # the host pings every second; three missed beats mean it is gone
MAX_PACKET = 1024


def crc16(data):
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray(1)
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and i != last:  # block full and more data follows
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    # Returns None for an invalid encoding instead of raising: cheaper on the device.
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        for j in range(i + 1, end):
            if data[j] == 0:
                return None
            out.append(data[j])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def pack(kind, seq, payload=b""):
    body = bytes([kind, seq & 0xFF]) + payload
    crc = crc16(body)
    return cobs_encode(body + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


class StripCore:
    """Everything the firmware decides, with bytes in and bytes out; no pins, no clock."""

    def __init__(self, leds, now_ms=0, ticks_diff=None):
        # MicroPython's ticks_ms wraps around: pass time.ticks_diff there.
        self._diff = ticks_diff or (lambda a, b: a - b)
        self.leds = leds
        self.brightness = 0
        self.colors = [(0, 0, 0)] * leds
        self.last_seq = -1
        self.last_rx_ms = now_ms
        self.heard_host = False
        self.frames_applied = 0
        self.bad_packets = 0
        self._buf = bytearray()

    def banner(self, seq=0):
        return pack(READY, seq, f"nardy-strip {VERSION} {self.leds}".encode())

    def feed(self, data, now_ms):
        """Consume received bytes; return the bytes to send back (ACKs)."""
        out = bytearray()
        for byte in data:
            if byte != 0:
                if len(self._buf) < MAX_PACKET:
                    self._buf.append(byte)
                continue
            if self._buf:
                out += self._packet(bytes(self._buf), now_ms)
                self._buf = bytearray()
        return bytes(out)

    def _packet(self, frame, now_ms):
        raw = cobs_decode(frame)
        if raw is None or len(raw) < 4:
            self.bad_packets += 1
            return b""
        body = raw[:-2]
        if crc16(body) != (raw[-2] << 8) | raw[-1]:
            self.bad_packets += 1
            return b""
        kind, seq, payload = body[0], body[1], body[2:]
        if kind == FRAME:
            if len(payload) < 1 or (len(payload) - 1) % 3:
                self.bad_packets += 1
                return b""
            # Frames are whole and idempotent: a resend just shows the same thing again, and
            # there is no "already seen" sequence check to go stale when the host restarts.
            self._apply(payload)
        elif kind == HELLO:
            self.last_rx_ms = now_ms
            self.heard_host = True
            return self.banner(seq)
        elif kind != PING:
            self.bad_packets += 1
            return b""
        self.last_seq = seq
        self.last_rx_ms = now_ms
        self.heard_host = True
        return pack(ACK, seq)

    def _apply(self, payload):
        self.brightness = payload[0]
        colors = []
        for i in range(self.leds):
            k = 1 + 3 * i
            colors.append(tuple(payload[k : k + 3]) if k + 3 <= len(payload) else (0, 0, 0))
        self.colors = colors
        self.frames_applied += 1

    def host_lost(self, now_ms):
        return self.heard_host and self._diff(now_ms, self.last_rx_ms) > HOST_LOST_MS

    def pixels(self, now_ms):
        """Colours to show now: the last frame, or the "host lost" pattern."""
        if self.host_lost(now_ms):
            # A slow amber blink on every sixth LED (the point groups): clearly "not live".
            on = (now_ms // 500) % 2 == 0
            return [(40, 16, 0) if on and i % 6 == 0 else (0, 0, 0) for i in range(self.leds)]
        scale = self.brightness
        return [(r * scale // 255, g * scale // 255, b * scale // 255) for r, g, b in self.colors]
