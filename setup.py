"""Packaging for Spectrum Backgammon: `pip install .` compiles native/ through cffi
(API mode, out of line) and installs the `spectrum-backgammon` console script."""
import re

from setuptools import setup

with open("game/__init__.py", encoding="utf-8") as init:
    VERSION = re.search(r'__version__ = "([^"]+)"', init.read()).group(1)

setup(
    name="spectrum-backgammon",
    version=VERSION,
    description="CP Software's 1983 ZX Spectrum Backgammon, ported to a small emulated 48K",
    python_requires=">=3.11",
    packages=["spectrum", "game", "roms", "native"],
    package_data={
        "roms": ["*.asm", "*.bin", "*.sym", "*.tap", "*.txt"],
        "native": ["*.h", "src/*.c", "src/*.h", "*.wts", "*.dat"],
        "game": ["*.tap", "mcode.*", "data/*"],
    },
    setup_requires=["cffi>=1.15"],
    cffi_modules=["native/build.py:ffibuilder"],
    install_requires=["pygame>=2.5", "numpy>=1.24", "cffi>=1.15"],
    extras_require={"test": ["pytest>=7", "pytest-xdist>=3.2", "hypothesis>=6", "skoolkit>=9",
                             "gnubg-nn>=1.1.0a11"],
                    "bench": ["gnubg-nn>=1.1.0a11"]},
    entry_points={"console_scripts": ["spectrum-backgammon = game.main:main"]},
)
