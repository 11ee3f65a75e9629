"""Where the repository and its test folder are, for tests in any folder under tests/ (each
test file sits one or more folders down, so none reckons the root from its own path)."""
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent
REPO = TESTS.parent
