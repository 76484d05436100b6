# MicroPython firmware for the nardy-pi point-LED strip (Raspberry Pi Pico / Pico W / Pico 2).
#
# Copy both files to the Pico:  mpremote cp stripcore.py main.py :
# Wiring, LED order and parts: ../WIRING.md and ../BOM.md.
#
# USB CDC carries the binary protocol, so Ctrl-C must not break into the REPL: kbd_intr(-1).
# To get the REPL back, hold the BOOTSEL button while plugging in and re-flash, or use
# `mpremote` which can still interrupt through its raw-REPL sequence before main.py starts.

import select
import sys
import time

import machine
import micropython
import neopixel
from stripcore import StripCore

DATA_PIN = 0  # GP0 -> 330 ohm -> DIN of the first LED (point 1)
LEDS = 28  # 24 points + bar (white, black) + bear-off (white, black); see WIRING.md
REFRESH_MS = 40

micropython.kbd_intr(-1)
strip = neopixel.NeoPixel(machine.Pin(DATA_PIN), LEDS)
core = StripCore(LEDS, time.ticks_ms(), time.ticks_diff)
port_in = sys.stdin.buffer
port_out = sys.stdout.buffer
poller = select.poll()
poller.register(sys.stdin, select.POLLIN)

port_out.write(core.banner())
last_draw = time.ticks_ms()
shown = None
while True:
    if poller.poll(5):
        data = port_in.read(1)
        reply = core.feed(data, time.ticks_ms())
        if reply:
            port_out.write(reply)
    now = time.ticks_ms()
    if time.ticks_diff(now, last_draw) >= REFRESH_MS:
        last_draw = now
        pixels = core.pixels(now)
        if pixels != shown:
            for i, color in enumerate(pixels):
                strip[i] = color
            strip.write()
            shown = pixels
