"""The point LED strip: a microcontroller on USB serial driving one LED per point.

`cobs` and `crc` are the byte-level framing, `protocol` the packet format shared with the
firmware (hardware/firmware/stripcore.py), `session` the host's resend/heartbeat rules without
I/O, `link` pumps them over pyserial, `emulator` runs the firmware logic on a pty for tests,
`layout` maps a `State` to LED colours and `output` feeds the strip from the loop.
"""
