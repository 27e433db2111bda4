"""moshjit's version and the CPython versions it compiles for, in a module of their own so that any layer can read
them without importing the public API. ``SUPPORTED_PYTHONS`` is the one list: the frontend's gate, the decoration-
time check and pyproject's ``requires-python`` (checked by tests/test_packaging.py) all follow it."""
__version__ = "0.1.0"
SUPPORTED_PYTHONS = ((3, 11),)


def unsupported_python(version_info=None) -> str | None:
    """One line saying this Python cannot run moshjit's compiled code, or None when it can."""
    import sys
    version = version_info or sys.version_info
    if tuple(version[:2]) in SUPPORTED_PYTHONS:
        return None
    supported = ", ".join(f"{major}.{minor}" for major, minor in SUPPORTED_PYTHONS)
    return f"moshjit supports CPython {supported}; this is {version[0]}.{version[1]}"
