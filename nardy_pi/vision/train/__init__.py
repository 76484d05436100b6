"""Training code and data recipes for the learned vision models (the `[train]` extra).

Nothing here is imported at run time: the shipped package only loads the exported ONNX weights.
"""
