"""Frames from the synthetic renderer: a fixed camera over one board, random seeded scenes
(or a given list), each frame's ground truth kept in `last_truth`."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from nardy_pi.vision.render import Camera, Scene, render_scene
from nardy_pi.vision.render.random_scenes import random_scene
from nardy_pi.vision.render.styles import style_named
from nardy_pi.vision.sources.base import Frame, SourceStatus


class SyntheticSource:
    def __init__(self, style: str = "wood", camera: Camera | None = None,
                 scenes: Sequence[Scene] | None = None, seed: int = 0,
                 limit: int | None = None) -> None:
        self.style = style_named(style)
        self.camera = camera or Camera()
        self._scenes = list(scenes) if scenes is not None else None
        self._rng = np.random.default_rng(seed)
        self._count = 0
        self.limit = len(self._scenes) if self._scenes is not None else limit
        self.last_truth: dict | None = None

    def read(self) -> Frame:
        if self.limit is not None and self._count >= self.limit:
            return Frame(SourceStatus.ENDED, message="no more scenes")
        if self._scenes is not None:
            scene = self._scenes[self._count]
        else:
            scene = random_scene(self._rng, self.style.trays)
        self._count += 1
        rendered = render_scene(self.style, self.camera, scene)
        self.last_truth = rendered.truth
        return Frame(SourceStatus.OK, rendered.image, time.time())

    def close(self) -> None:
        pass
