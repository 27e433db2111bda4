"""One LLVM module per compiled specialisation: its native function, every native callee, and the entry."""
from __future__ import annotations

import llvmlite.ir as ir

from moshjit.backends.llvm.deopt import DeoptTable
from moshjit.backends.llvm.entry import emit_entry
from moshjit.backends.llvm.lower import FunctionLowering, function_type, global_reads, settle_cold_blocks, value_reprs
from moshjit.backends.llvm.native_types import CallGraph, Signature
from moshjit.backends.llvm.runtime import Runtime


def build_module(graph: CallGraph, root: Signature, triple: str, data_layout: str, binding_kinds=()):
    """(LLVM IR text, PyMethodDef symbol of the entry, names of the module globals the entry reads, the
    deoptimisation table as JSON or None when the module cannot deoptimise, the symbol of its state flag).
    Raises NotNative for anything without a native form. ``binding_kinds``: what the entry checks of the names bound
    when compiling (``entry.emit_entry``)."""
    module = ir.Module(name=root.symbol)
    module.triple = triple
    module.data_layout = data_layout
    runtime = Runtime(module)
    table = DeoptTable()
    symbols: dict = {}
    reads = {}
    for sig in graph.order:
        settle_cold_blocks(sig)
        value_reprs(sig.ir, sig.cold)           # the first non-native value, before the signature's types
        reads[sig.symbol] = global_reads(sig, root=sig is root)
    for sig in graph.order:
        function = ir.Function(module, function_type(sig, reads[sig.symbol]), sig.symbol)
        function.linkage = "internal"
        index = table.add_function(sig)
        symbols[(sig.py_function, sig.arg_types)] = (sig, function, index)
    for sig in graph.order:
        _, function, index = symbols[(sig.py_function, sig.arg_types)]
        FunctionLowering(sig, function, runtime, symbols, reads[sig.symbol], table, index).lower()
    runtime.finish()
    deopt = table.to_json()
    method_def = emit_entry(module, runtime, root, symbols[(root.py_function, root.arg_types)][1],
                            root.py_function.__name__, reads[root.symbol], can_deoptimize=deopt is not None,
                            binding_kinds=binding_kinds)
    return str(module), method_def, [name for name, _ in reads[root.symbol]], deopt, f"{root.symbol}_state"
