"""Frame sources behind one interface (base.FrameSource): replay of a directory or a video,
a USB webcam, the Pi camera, and the synthetic renderer."""

from nardy_pi.vision.sources.base import Frame, FrameSource, SourceStatus

__all__ = ["Frame", "FrameSource", "SourceStatus", "open_source"]


def open_source(spec: str, **options) -> FrameSource:
    """`dir:PATH`, `video:PATH`, `usb:INDEX`, `picamera`, `synthetic:STYLE`; a bare path is
    a directory or a video file."""
    from pathlib import Path

    kind, _, arg = spec.partition(":")
    if kind == "usb":
        from nardy_pi.vision.sources.webcam import WebcamSource

        return WebcamSource(int(arg or 0), **options)
    if kind == "picamera":
        from nardy_pi.vision.sources.picamera import PiCameraSource

        return PiCameraSource(**options)
    if kind == "synthetic":
        from nardy_pi.vision.sources.synthetic import SyntheticSource

        return SyntheticSource(style=arg or "wood", **options)
    from nardy_pi.vision.sources.replay import DirectorySource, VideoSource

    if kind == "dir":
        return DirectorySource(arg, **options)
    if kind == "video":
        return VideoSource(arg, **options)
    return DirectorySource(spec, **options) if Path(spec).is_dir() else VideoSource(spec, **options)
