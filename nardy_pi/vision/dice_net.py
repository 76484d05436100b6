"""The two learned dice models, run with OpenCV's DNN module (no PyTorch at runtime).

- `dice_heat.onnx` (proposals): a 5-layer fully convolutional net over the frame scaled so a die
  is 6 px; two maps of logits every 2 px: a die centred here, the cube centred here.
- `dice_check.onnx` (check): a small CNN over 32x32 crops, two die sides wide, around each
  proposal; logits for dice_crops.CLASSES (nothing, a flat die 1..6, a cocked die, the cube by
  its face).

Both are trained by bench/train_dice_net.py (seeded, CPU, a few minutes) and shipped in
nardy_pi/vision/models/.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.dice_crops import to_blob

MODELS = Path(__file__).with_name("models")
HEAT_MODEL = MODELS / "dice_heat.onnx"
CHECK_MODEL = MODELS / "dice_check.onnx"


@dataclass
class DiceNets:
    """Both nets, loaded once. cv2.dnn nets are not thread-safe: calls are serialised."""

    heat: cv2.dnn.Net
    check: cv2.dnn.Net
    lock: threading.Lock

    def heat_logits(self, small_bgr: np.ndarray) -> np.ndarray:
        """(2, h/2, w/2) logits for a frame already scaled by dice_crops.heat_image."""
        with self.lock:
            self.heat.setInput(to_blob(small_bgr[None]))
            return np.array(self.heat.forward()[0])

    def check_probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, classes) softmax probabilities for uint8 crops (N, 32, 32, 3)."""
        if len(crops) == 0:
            return np.zeros((0, 0), np.float32)
        with self.lock:
            self.check.setInput(to_blob(crops))
            logits = np.array(self.check.forward())
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)


def load_nets(heat_path: Path = HEAT_MODEL, check_path: Path = CHECK_MODEL) -> DiceNets:
    for path in (heat_path, check_path):
        if not path.exists():
            raise FileNotFoundError(f"dice model {path.name} is missing: run "
                                    "bench/train_dice_net.py --write")
    return DiceNets(cv2.dnn.readNetFromONNX(str(heat_path)),
                    cv2.dnn.readNetFromONNX(str(check_path)), threading.Lock())


@cache
def default_nets() -> DiceNets:
    return load_nets()
