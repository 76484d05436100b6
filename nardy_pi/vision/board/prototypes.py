"""Per-board adaptation: what this board's light and dark checkers look like to the model.

At calibration the known position says which strips hold light and which dark checkers; the
mean embedding of each is kept. A later strip's colour then weighs the model's own (board
independent) opinion with its distance to the two prototypes, so a red checker is "light" on
a board whose other side is darker, whatever the model thinks of red in general.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Prototypes:
    light: np.ndarray  # E
    dark: np.ndarray  # E
    spread: float  # pooled within-class mean squared distance

    @staticmethod
    def fit(embedding: np.ndarray, counts: np.ndarray, seen: np.ndarray) -> Prototypes | None:
        counts = np.asarray(counts)
        light = embedding[(counts > 0) & seen]
        dark = embedding[(counts < 0) & seen]
        if len(light) == 0 or len(dark) == 0:
            return None
        lm, dm = light.mean(0), dark.mean(0)
        within = np.concatenate([((light - lm) ** 2).sum(1), ((dark - dm) ** 2).sum(1)])
        between = float(((lm - dm) ** 2).sum())
        # Never tighter than a share of the gap: two checkers are not a covariance estimate.
        spread = max(float(within.mean()), 0.05 * between, 1e-3)
        return Prototypes(lm.astype(np.float32), dm.astype(np.float32), spread)

    def light_probability(self, embedding: np.ndarray, model_light: np.ndarray) -> np.ndarray:
        dl = ((embedding - self.light) ** 2).sum(1)
        dd = ((embedding - self.dark) ** 2).sum(1)
        proto = np.clip((dd - dl) / (2.0 * self.spread), -30, 30)
        m = np.clip(model_light, 1e-6, 1 - 1e-6)
        logit = 0.5 * np.log(m / (1 - m)) + proto
        return 1.0 / (1.0 + np.exp(-logit))

    def to_json(self) -> dict:
        return {"light": [round(float(v), 6) for v in self.light],
                "dark": [round(float(v), 6) for v in self.dark], "spread": self.spread}
