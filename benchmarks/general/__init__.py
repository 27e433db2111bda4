"""Class-heavy and object-heavy public programs under ``@jit``, against CPython and Numba (``run.py``)."""
