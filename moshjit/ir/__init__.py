"""The SSA IR: plain data with a printer, a verifier and a reference interpreter.

``ops.py`` (values and operations), ``block.py`` and ``function.py`` (containers), ``types.py`` (the type
lattice of typed SSA), ``printer.py``, ``verifier.py`` and ``interpreter.py`` (the oracle of differential tests).
Nothing is imported here, so that reading ``ir.types`` (as the dispatcher does) stays cheap.
"""
