"""The two learned dice models, run with OpenCV's DNN module (no PyTorch at runtime).

- `dice_heat.onnx` (proposals): a 5-layer fully convolutional net over the frame scaled so a die
  is 6 px; two maps of logits every 2 px: a die centred here, the cube centred here.
- `dice_check.onnx` (check): a small CNN over 32x32 crops, two die sides wide, around each
  proposal; logits for dice_crops.CLASSES (nothing, a flat die 1..6, a cocked die, the cube by
  its face).
- `dice_check_fine.onnx` (fine check): the same crops and classes through EfficientNet-Lite0's
  first blocks (started from ImageNet weights), about four times the plain check's cost a crop;
  still reads (`analyze`) take it for what the plain check lets through (dice_board.checked).

All are trained by bench/train_dice_net.py (seeded, CPU, a few minutes each; the fine check
with `--fine`, about half an hour) and shipped in nardy_pi/vision/models/.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from nardy_pi.vision.dice_crops import to_blob

MODELS = Path(__file__).with_name("models")
HEAT_MODEL = MODELS / "dice_heat.onnx"
CHECK_MODEL = MODELS / "dice_check.onnx"
FINE_MODEL = MODELS / "dice_check_fine.onnx"


@dataclass
class DiceNets:
    """The nets, loaded once. cv2.dnn nets are not thread-safe: calls are serialised."""

    heat: cv2.dnn.Net
    check: cv2.dnn.Net
    lock: threading.Lock
    # The fine check net's file, where there is one: loaded at its first use (a camera's
    # frames never read with it).
    fine_path: Path | None = None
    _fine: cv2.dnn.Net | None = field(default=None, repr=False)

    @property
    def has_fine(self) -> bool:
        return self.fine_path is not None

    def heat_logits(self, small_bgr: np.ndarray) -> np.ndarray:
        """(2, h/2, w/2) logits for a frame already scaled by dice_crops.heat_image."""
        with self.lock:
            self.heat.setInput(to_blob(small_bgr[None]))
            return np.array(self.heat.forward()[0])

    def check_probabilities(self, crops: np.ndarray, fine: bool = False) -> np.ndarray:
        """(N, classes) softmax probabilities for uint8 crops (N, 32, 32, 3), by the fine
        check net with `fine` (its file must have been given)."""
        if len(crops) == 0:
            return np.zeros((0, 0), np.float32)
        if fine and self.fine_path is None:
            raise ValueError("no fine check net was given")
        with self.lock:
            if fine and self._fine is None:
                self._fine = cv2.dnn.readNetFromONNX(str(self.fine_path))
            net = self._fine if fine else self.check
            net.setInput(to_blob(crops))
            logits = np.array(net.forward())
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)


def load_nets(heat_path: Path = HEAT_MODEL, check_path: Path = CHECK_MODEL,
              fine_path: Path | None = None) -> DiceNets:
    """The proposal and check nets, and the fine check net where `fine_path` is given."""
    paths = (heat_path, check_path) + ((fine_path,) if fine_path is not None else ())
    for path in paths:
        if not path.exists():
            extra = " --fine" if path == fine_path else ""
            raise FileNotFoundError(f"dice model {path.name} is missing: run "
                                    f"bench/train_dice_net.py{extra} --write")
    return DiceNets(cv2.dnn.readNetFromONNX(str(heat_path)),
                    cv2.dnn.readNetFromONNX(str(check_path)), threading.Lock(), fine_path)


@cache
def default_nets() -> DiceNets:
    return load_nets(fine_path=FINE_MODEL)
