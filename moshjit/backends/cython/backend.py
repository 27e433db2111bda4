"""The Cython backend's interface: typed SSA → a .pyx module built through the on-disk cache, its state bound.

``compile(ir, ctx)`` is this backend's half of the backends' common interface (``load_cached`` is in the package's
``__init__``: generated modules are cached by their text, so nothing can be loaded before the IR is built).
"""
from __future__ import annotations

import builtins
import os
import re
import shutil
import sys
import threading

from moshjit.artifact import Artifact
from moshjit.backends.cython.build import CythonToolchain, toolchain_for
from moshjit.backends.cython.generator_class import present_cython_generators
from moshjit.cache import DiskCache, make_key, scratch
from moshjit.context import CompileContext
from moshjit.functions import builtins_dict
from moshjit.ir import ops
from moshjit.ir.function import Function
from moshjit.runtime.toolchain import EXT_SUFFIX, NAMESPACE, load_extension

_module_states: dict[str, tuple] = {}      # loaded module name -> identities of the state it was given
_lock = threading.RLock()


# Names a generated module's own code uses: Python's builtins (``len``, ``isinstance``, ``set`` as a type), the C
# types and keywords of Cython's declarations, and the prefixes of moshjit's runtime names.
_CYTHON_WORDS = frozenset("""bint char short int long float double signed unsigned void size_t Py_ssize_t Py_hash_t
    Py_UCS4 Py_UNICODE ptrdiff_t object cdef cpdef ctypedef cimport struct union enum extern include inline public
    readonly api gil nogil noexcept NULL sizeof typeof const volatile fused cppclass namespace new operator DEF IF
    ELIF ELSE""".split())
_RUNTIME_PREFIXES = ("_mj", "mj_", "Mj", "MJ_", "Py", "_Py", "__pyx", "CharBuffer")


def entry_name_for(py_function) -> str:
    """The name of the function's entry in its generated module: the function's own, unless the module's code
    uses that name for something else (a method called ``set`` or ``double`` would shadow the type Cython declares
    variables with); the traceback shows the user's name either way."""
    name = re.sub(r"\W", "_", py_function.__name__)
    taken = (not name.isidentifier() or name.startswith(_RUNTIME_PREFIXES) or name in _CYTHON_WORDS
             or hasattr(builtins, name))
    return f"f_{name}" if taken else name


def own_lines(code) -> set[int]:
    """The source lines of a code object and of the code nested in it (comprehensions are translated inline)."""
    lines = {line for _, _, line in code.co_lines() if line is not None}
    for const in code.co_consts:
        if isinstance(const, type(code)):
            lines |= own_lines(const)
    return lines


def nested_codes(ir: Function, ctx: CompileContext) -> dict:
    """Each op making a function whose code has something to compile it (``ctx.nested_code``) → that."""
    found = {}
    for block in ir.blocks:
        for op in block.ops:
            if isinstance(op, (ops.MakeFunction, ops.MakeClosure)):
                owner = ctx.nested_code(op.code)
                if owner is not None:
                    found[op] = owner
    return found


def compile(ir: Function, ctx: CompileContext) -> Artifact:
    """The Cython artifact of ``ir``, built (or loaded from the cache) and bound to the function's state.
    Type assumptions about globals (``ctx.global_assumptions``) are checked on entry and hand the call to
    ``ctx.fallback`` when they fail, as are the jitted methods whose return types inference used
    (``ctx.method_assumptions``); the names bound when compiling (``ctx.bindings``) are checked too, and hand
    the call to ``ctx.on_rebound`` when one was rebound."""
    from moshjit.backends.cython.emit import split_source_map
    from moshjit.backends.cython.generate import generate_pyx
    from moshjit.backends.cython.method_calls import direct_methods
    py_function, cache = ctx.py_function, ctx.cache
    toolchain = toolchain_for(cache)
    entry_name = entry_name_for(py_function)
    from moshjit.bindings import unique
    bindings = tuple(unique(ctx.bindings)) if ctx.on_rebound is not None else ()
    shown, constants = generate_pyx(ir, entry_name, ctx.global_assumptions, ctx.fallback,
                                    own_lines(py_function.__code__), ctx.inlined_at, direct_methods(ir, ctx),
                                    bindings, ctx.on_rebound, ctx.method_assumptions, ctx.direct_entries,
                                    nested_codes(ir, ctx), ctx.closure_per_call)
    text, source = split_source_map(shown)
    closure = () if ctx.closure_per_call else tuple(py_function.__closure__ or ())
    state = (py_function.__globals__, builtins_dict(py_function), closure, tuple(constants))
    where = source.setup_arguments()
    state_ids = (tuple(id(x) for x in state[:2]) + tuple(id(c) for c in state[2]) + tuple(id(c) for c in constants)
                 + (where,))
    base_key = make_key(text, toolchain.fingerprint)
    stats: dict = {"backend": "cython", "cache": "hit"}
    with _lock:
        module = None
        for instance in range(1000):
            module_name = f"_mj_{base_key.replace('-', '_')}"
            registered = module_name if instance == 0 else f"{module_name}_{instance}"
            loaded = sys.modules.get(registered)
            if loaded is not None and _module_states.get(registered) == state_ids:
                module = loaded
                break
            if loaded is None:
                module = _load_or_build(toolchain, cache, base_key, module_name, text, stats, registered)
                module._mj_setup(state + where)
                _module_states[registered] = state_ids
                break
    return Artifact(getattr(module, entry_name), "cython", shown, "", stats, bindings=bindings)


def _load_or_build(toolchain: CythonToolchain, cache: DiskCache, key: str, module_name: str, text: str,
                   stats: dict, registered: str):
    """The module built from ``text``, from the cache or compiled into it, loaded as ``registered``. The same text
    bound to another state (the same function in another namespace, a class defined again) is a further instance:
    a private copy of the one built module, with module-level state of its own, instead of another C compile."""
    toolchain.ensure_support()
    with cache.lock(NAMESPACE, key):
        entry = cache.load(NAMESPACE, key, EXT_SUFFIX)
        if entry is None:
            data, timings = toolchain.build(text, module_name)
            stats.update(timings, cache="miss")
            cache.store(NAMESPACE, key, EXT_SUFFIX, data, {"module": module_name})
            entry = cache.load(NAMESPACE, key, EXT_SUFFIX)
    if registered == module_name:
        module = load_extension(entry[0], module_name)
    else:
        module = load_extension_copy(entry[0], module_name, registered)
    present_cython_generators()
    return module


def load_extension_copy(so_path: str, module_name: str, registered: str):
    """Another instance of the extension module at ``so_path``: a copy of the file is loaded (the dynamic loader
    maps a file once, and a module's C-level state lives in its mapping), registered in sys.modules as
    ``registered``. The copy is removed once loaded."""
    with scratch("moshjit-copy-") as workdir:
        copy_path = os.path.join(workdir, registered + EXT_SUFFIX)
        shutil.copyfile(so_path, copy_path)
        return load_extension(copy_path, module_name, registered)
