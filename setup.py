"""Packaging for Spectrum Backgammon: the metadata is in pyproject.toml; this file is only
here for what pyproject.toml cannot yet carry without warnings: cffi's `cffi_modules`
(compiling native/ into native._engine) and the wheel's stable-ABI tag."""
from setuptools import setup

setup(
    cffi_modules=["native/build.py:ffibuilder"],
    # native._engine is built for the limited API (cffi's default): one wheel, tagged
    # cp311-abi3, for every CPython from 3.11.
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
