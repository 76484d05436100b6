"""Strict checks of a calibration file's JSON (issue 12): every field is looked at, and what is
wrong comes back as one line naming the field, before any of it reaches numpy or OpenCV.

`check(data)` returns the validated values as plain Python; `SchemaError.field` is the dotted
path of the first bad field.
"""

from __future__ import annotations

import math
import re
from typing import Any

FORMATS = (1, 2)
READERS = ("colour", "learned")
#: which strip models read a learned board (board/adapt.py LearnedSection.strips)
STRIP_MODELS = ("camera", "pair")
STACK_STYLES = ("rows", "layers")
MAX_FILE_BYTES = 2_000_000  # a real file is ~10 kB; more is not a calibration
MAX_DEPTH = 8  # a real file nests 4 deep
MAX_COORD = 1e6  # image pixels
MAX_SIDE = 20_000
MAX_ENTRY = 1e8  # homography entries (board units -> pixels: a few thousand at most)
MAX_EMBEDDING = 4096
MAX_CLASSES = 64
MAX_CAMERA_KEYS = 64
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
_DIGEST = re.compile(r"^[0-9a-f]{8,64}$")


class SchemaError(ValueError):
    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """Nesting depth, stopping early (iteratively, so hostile nesting cannot recurse)."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v)
    return deepest


def _obj(v: Any, field: str) -> dict:
    if not isinstance(v, dict):
        raise SchemaError(field, f"must be an object, not {_kind(v)}")
    return v


def _kind(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(v), "a number")


def _get(d: dict, key: str, field: str) -> Any:
    if key not in d:
        raise SchemaError(f"{field}.{key}" if field else key, "missing")
    return d[key]


def number(v: Any, field: str, lo: float = -math.inf, hi: float = math.inf,
           open_lo: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SchemaError(field, f"must be a number, not {_kind(v)}")
    try:
        x = float(v)
    except OverflowError:  # a 400-digit integer
        raise SchemaError(field, "is far too large") from None
    if not math.isfinite(x):
        raise SchemaError(field, "must be a finite number")
    if x < lo or x > hi or (open_lo and x <= lo):
        bound = f"more than {lo:g}" if open_lo else f"at least {lo:g}"
        raise SchemaError(field, f"{x:g} is out of range ({bound}, at most {hi:g})")
    return x


def numbers(v: Any, field: str, length: int | None, lo: float = -math.inf,
            hi: float = math.inf, max_length: int = 64) -> list[float]:
    if not isinstance(v, list):
        raise SchemaError(field, f"must be a list, not {_kind(v)}")
    if length is not None and len(v) != length:
        raise SchemaError(field, f"must hold {length} numbers, not {len(v)}")
    if length is None and not 1 <= len(v) <= max_length:
        raise SchemaError(field, f"must hold 1 to {max_length} numbers, not {len(v)}")
    return [number(x, f"{field}[{i}]", lo, hi) for i, x in enumerate(v)]


def matrix(v: Any, field: str, rows: int, cols: int, limit: float) -> list[list[float]]:
    if not isinstance(v, list) or len(v) != rows:
        raise SchemaError(field, f"must be a {rows}x{cols} list of lists")
    return [numbers(r, f"{field}[{i}]", cols, -limit, limit) for i, r in enumerate(v)]


def _text(v: Any, field: str, max_len: int = 200) -> str:
    if not isinstance(v, str) or not v or len(v) > max_len:
        raise SchemaError(field, f"must be a non-empty string of at most {max_len} characters")
    return v


def _bool(v: Any, field: str) -> bool:
    if not isinstance(v, bool):
        raise SchemaError(field, f"must be true or false, not {_kind(v)}")
    return v


def homography(v: Any, field: str = "homography") -> list[list[float]]:
    """3x3, finite, of sane size and well conditioned (it is inverted every frame)."""
    import numpy as np

    h = np.array(matrix(v, field, 3, 3, MAX_ENTRY))
    scale = float(np.abs(h).max())
    if scale == 0.0:
        raise SchemaError(field, "is all zeros")
    s = np.linalg.svd(h / scale, compute_uv=False)
    if s[-1] < 1e-9 * s[0]:
        raise SchemaError(field, "is not invertible")
    return h.tolist()


def surface_corners(corners: list[tuple[float, ...]], size: tuple[int, int]) -> None:
    """The four corners make a convex quadrilateral of some size that the image sees."""
    import numpy as np

    q = np.array(corners, np.float64)
    edges = np.roll(q, -1, axis=0) - q
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(
        edges, -1, axis=0)[:, 0]
    if not ((cross > 0).all() or (cross < 0).all()):
        raise SchemaError("corners", "do not make a convex quadrilateral")
    area = 0.5 * abs(float(np.dot(q[:, 0], np.roll(q[:, 1], 1))
                           - np.dot(q[:, 1], np.roll(q[:, 0], 1))))
    if area < 100.0:
        raise SchemaError("corners", "enclose almost no area")
    lo, hi = q.min(axis=0), q.max(axis=0)
    if hi[0] < 0 or hi[1] < 0 or lo[0] > size[0] or lo[1] > size[1]:
        raise SchemaError("corners", "put the playing surface wholly outside the image")


def projects_surface(h: list[list[float]], field: str = "homography") -> None:
    """The homography maps the whole surface (13 x 11 board units) in front of the camera."""
    import numpy as np

    pts = np.array([[0, 0, 1], [13, 0, 1], [13, 11, 1], [0, 11, 1], [6.5, 5.5, 1]], float)
    w = pts @ np.array(h).T
    if not ((w[:, 2] > 1e-12).all() or (w[:, 2] < -1e-12).all()):
        raise SchemaError(field, "puts part of the board behind the camera")
    xy = w[:, :2] / w[:, 2:3]
    if not np.isfinite(xy).all() or np.abs(xy).max() > MAX_COORD:
        raise SchemaError(field, "maps the board far outside any image")


def _position(v: Any, field: str) -> str:
    from nardy_pi.rules.notation.board_field import parse_board_field

    text = _text(v, field, 80)
    try:
        parse_board_field(text)
    except (ValueError, KeyError, IndexError) as exc:
        raise SchemaError(field, f"is not a board field ({exc})") from None
    return text


def colours(v: Any, field: str = "colours") -> dict:
    import numpy as np

    d = _obj(v, field)
    if not 1 <= len(d) <= MAX_CLASSES:
        raise SchemaError(field, f"must hold 1 to {MAX_CLASSES} colour classes, not {len(d)}")
    out = {}
    for name, cls in d.items():
        f = f"{field}.{name}"
        if not _NAME.match(name):
            raise SchemaError(f, "a class name is letters, digits and _ only")
        cls = _obj(cls, f)
        mean = numbers(_get(cls, "mean", f), f"{f}.mean", 3, -64.0, 320.0)
        cov = matrix(_get(cls, "cov", f), f"{f}.cov", 3, 3, 1e6)
        c = np.array(cov)
        if not np.allclose(c, c.T, rtol=1e-6, atol=1e-6):
            raise SchemaError(f"{f}.cov", "must be symmetric")
        if np.linalg.eigvalsh(c).min() <= 1e-6:
            raise SchemaError(f"{f}.cov", "must be positive definite")
        out[name] = {"mean": mean, "cov": cov}
    for needed in ("white", "black", "field"):
        if needed not in out:
            raise SchemaError(field, f"has no {needed!r} class")
    return out


def learned(v: Any, field: str = "learned") -> dict:
    d = _obj(v, field)
    lay = _obj(_get(d, "layout", field), f"{field}.layout")
    bar = numbers(_get(lay, "bar_u", f"{field}.layout"), f"{field}.layout.bar_u", 2, 0.3, 0.7)
    if not bar[0] < bar[1]:
        raise SchemaError(f"{field}.layout.bar_u", "must run left to right (u0 < u1)")
    length = number(_get(lay, "point_length_v", f"{field}.layout"),
                    f"{field}.layout.point_length_v", 0.05, 0.5)
    protos = _get(d, "prototypes", field)
    p_out = None
    if protos is not None:
        f = f"{field}.prototypes"
        p = _obj(protos, f)
        light = numbers(_get(p, "light", f), f"{f}.light", None, -1e6, 1e6, MAX_EMBEDDING)
        dark = numbers(_get(p, "dark", f), f"{f}.dark", None, -1e6, 1e6, MAX_EMBEDDING)
        if len(light) != len(dark):
            raise SchemaError(f"{f}.dark", f"must hold as many numbers as light ({len(light)})")
        spread = number(_get(p, "spread", f), f"{f}.spread", 0.0, 1e12, open_lo=True)
        p_out = {"light": light, "dark": dark, "spread": spread}
    heads = d.get("heads")
    h_out = None
    if heads is not None:
        f = f"{field}.heads"
        hd = _obj(heads, f)
        cw = _get(hd, "count_w", f)
        width = len(cw[0]) if isinstance(cw, list) and cw and isinstance(cw[0], list) else 0
        if not 1 <= width <= MAX_EMBEDDING:
            raise SchemaError(f"{f}.count_w", "must be 16 rows of embedding weights")
        if p_out is not None and len(p_out["light"]) != width:
            raise SchemaError(f"{f}.count_w", "must be as wide as the prototypes")
        h_out = {"count_w": matrix(cw, f"{f}.count_w", 16, width, 1e4),
                 "count_b": numbers(_get(hd, "count_b", f), f"{f}.count_b", 16, -1e4, 1e4),
                 "colour_w": matrix(_get(hd, "colour_w", f), f"{f}.colour_w", 2, width, 1e4),
                 "colour_b": numbers(_get(hd, "colour_b", f), f"{f}.colour_b", 2, -1e4, 1e4)}
    model = _get(d, "model", field)
    if not isinstance(model, str) or not _DIGEST.match(model):
        raise SchemaError(f"{field}.model", "must be the strip model's hex digest")
    strips = d.get("strips", "camera")  # files written before the first look's pair: camera
    if strips not in STRIP_MODELS:
        raise SchemaError(f"{field}.strips", f"must be one of {', '.join(STRIP_MODELS)}, "
                          f"not {strips!r}")
    return {"bar_u": bar, "point_length_v": length, "prototypes": p_out, "heads": h_out,
            "model": model, "strips": strips}


def camera(v: Any, field: str = "camera") -> dict | None:
    if v is None:
        return None
    d = _obj(v, field)
    if len(d) > MAX_CAMERA_KEYS:
        raise SchemaError(field, f"holds more than {MAX_CAMERA_KEYS} controls")
    for k, x in d.items():
        if not isinstance(x, (bool, int, float, str)) or (isinstance(x, str) and len(x) > 200):
            raise SchemaError(f"{field}.{k}", "must be a number, true/false or a short string")
        if isinstance(x, (int, float)) and not isinstance(x, bool):
            number(x, f"{field}.{k}")
    return d


def check(data: Any) -> dict:
    """The validated calibration, as plain values; SchemaError on the first bad field."""
    if depth(data) > MAX_DEPTH:
        raise SchemaError("(file)", f"nests deeper than {MAX_DEPTH} levels")
    d = _obj(data, "(file)")
    fmt = _get(d, "format", "")
    if isinstance(fmt, bool) or fmt not in FORMATS:
        raise SchemaError("format", f"unsupported format {fmt!r} (this version reads "
                          f"{', '.join(map(str, FORMATS))})")
    out: dict[str, Any] = {"format": fmt}
    size = numbers(_get(d, "image_size", ""), "image_size", 2, 1, MAX_SIDE)
    if any(s != int(s) for s in size):
        raise SchemaError("image_size", "must be two whole numbers (width, height)")
    out["image_size"] = (int(size[0]), int(size[1]))
    corners = _get(d, "corners", "")
    if not isinstance(corners, list) or len(corners) != 4:
        raise SchemaError("corners", "must be four [x, y] pairs")
    out["corners"] = [tuple(numbers(c, f"corners[{i}]", 2, -MAX_COORD, MAX_COORD))
                      for i, c in enumerate(corners)]
    surface_corners(out["corners"], out["image_size"])
    out["homography"] = homography(_get(d, "homography", ""))
    projects_surface(out["homography"])
    geo = _obj(_get(d, "geometry", ""), "geometry")
    out["scale"] = number(_get(geo, "raster_scale", "geometry"), "geometry.raster_scale",
                          0.0, 200.0, open_lo=True)
    prof = _obj(_get(d, "profile", ""), "profile")
    out["trays"] = _bool(_get(prof, "trays", "profile"), "profile.trays")
    styles = _get(prof, "stack_styles", "profile")
    if (not isinstance(styles, list) or not 1 <= len(styles) <= 2
            or any(s not in STACK_STYLES for s in styles)):
        raise SchemaError("profile.stack_styles", f"must list 1-2 of {', '.join(STACK_STYLES)}")
    out["stack_styles"] = tuple(styles)
    out["position"] = _position(_get(d, "position", ""), "position")
    reader = d.get("reader", "colour") if fmt == 2 else "colour"
    if reader not in READERS:
        raise SchemaError("reader", f"must be one of {', '.join(READERS)}, not {reader!r}")
    out["reader"] = reader
    has_colours = fmt == 1 or reader == "colour" or d.get("colours") is not None
    if has_colours:
        out["colours"] = colours(_get(d, "colours", ""))
        classes = _get(d, "point_classes", "")
        if not isinstance(classes, list) or len(classes) != 24:
            raise SchemaError("point_classes", "must list 24 class names, one per point")
        for i, c in enumerate(classes):
            if not isinstance(c, str) or c not in out["colours"]:
                raise SchemaError(f"point_classes[{i}]", "must name one of the colours")
        out["point_classes"] = tuple(classes)
        out["gain"] = tuple(numbers(_get(d, "gain", ""), "gain", 6, -20.0, 20.0))
    else:
        out["colours"] = out["point_classes"] = out["gain"] = None
    if fmt == 2 and (reader == "learned" or d.get("learned") is not None):
        out["learned"] = learned(_get(d, "learned", ""))
    else:
        out["learned"] = None
    out["camera"] = camera(d.get("camera"))
    return out
