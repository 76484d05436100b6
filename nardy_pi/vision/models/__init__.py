"""Weights shipped with the package (a package, so setuptools installs the .npz files)."""
