"""Generators of jitted generator functions answer ``isinstance(g, types.GeneratorType)`` as CPython's do.

Cython makes its own generator type, which is not ``types.GeneratorType`` and cannot be a subclass of it (C code
reads a generator's fields after ``PyGen_Check``). Code that drives the generators it finds by that test — esprima's
AST visitor keeps a stack of them and treats anything else as a leaf to visit — then saw a leaf, visited it into
another generator, and looped until memory ran out. ``isinstance`` also consults ``obj.__class__`` when the type
itself does not match, as ``inspect.isgenerator`` does through it; so Cython's generator type (one type, shared by
every generated module under moshjit's ABI name) gets a ``__class__`` that answers CPython's generator type and
refuses assignment with CPython's message. ``type(g)`` stays Cython's.

CPython's generators and coroutines also say whether they are suspended at a ``yield`` (``gi_suspended``,
``cr_suspended``), which ``inspect.getgeneratorstate`` and ``inspect.getcoroutinestate`` read; Cython's do not, so
those raised ``AttributeError`` on a jitted generator. The two types get the attribute too, read from the resume
label Cython keeps (``moshjit_rt.suspended_getter``, which checks the layout first).
"""
from __future__ import annotations

import logging
import sys
import threading
import types

log = logging.getLogger("moshjit")
ABI_MODULE_PREFIX = "_moshjit_cython_"      # ``runtime.toolchain.with_private_abi``'s name for Cython's shared types
_lock = threading.Lock()
_tried = False                             # whether the ABI module's generator type was found (and given it)


def present_cython_generators() -> None:
    """Give the generator type of the loaded moshjit ABI module (one per process: one Cython) its ``__class__``,
    once. Should that fail (a Python whose type dicts are laid out otherwise), generators stay as Cython makes
    them, and the failure is logged: it must not stop the module from loading."""
    global _tried
    if _tried:
        return
    modules = [module for name, module in list(sys.modules.items()) if name.startswith(ABI_MODULE_PREFIX)]
    generators = [kind for kind in (getattr(module, "generator", None) for module in modules) if isinstance(kind, type)]
    coroutines = [kind for kind in (getattr(module, "coroutine", None) for module in modules) if isinstance(kind, type)]
    if not generators:
        return
    with _lock:
        if _tried:
            return
        _tried = True
        for generator in generators:
            try:
                _put_into_type(generator, "__class__", property(_generator_class, _refuse_class_assignment))
            except Exception as error:            # noqa: BLE001 - only ever an improvement
                log.warning("moshjit: generators of compiled code keep Cython's __class__: %s", error)
        for kinds, name in ((generators, "gi_suspended"), (coroutines, "cr_suspended")):
            for kind in kinds:
                _set_suspended_attribute(kind, name)


def _set_suspended_attribute(kind: type, name: str) -> None:
    """``name`` (``gi_suspended`` or ``cr_suspended``) on Cython's generator or coroutine type ``kind``, unless
    this Cython lays them out otherwise (then it stays missing, and that is logged)."""
    from moshjit.runtime.moshjit_rt import suspended_getter
    getter = suspended_getter(kind)
    if getter is None:
        log.warning("moshjit: %s objects of compiled code have no %s: Cython's layout is not the known one",
                    kind.__name__, name)
        return
    try:
        _put_into_type(kind, name, property(getter))
    except Exception as error:                    # noqa: BLE001 - only ever an improvement
        log.warning("moshjit: %s objects of compiled code have no %s: %s", kind.__name__, name, error)


def _class_assignment_message() -> str:
    """CPython's message for assigning ``__class__`` of a generator, from one of its own."""
    plain = (item for item in ())
    try:
        plain.__class__ = object
    except TypeError as error:
        return str(error)
    raise AssertionError("CPython allowed assigning a generator's __class__")


_MESSAGE = _class_assignment_message()


def _generator_class(generator) -> type:
    return types.GeneratorType


def _refuse_class_assignment(generator, value) -> None:
    raise TypeError(_MESSAGE)


def _put_into_type(kind: type, name: str, value) -> None:
    """Put ``value`` into the type's dict and tell CPython's caches (the type is immutable to Python code)."""
    import ctypes
    import gc
    (namespace,) = [d for d in gc.get_referents(kind.__dict__) if type(d) is dict]
    namespace[name] = value
    ctypes.pythonapi.PyType_Modified(ctypes.py_object(kind))
