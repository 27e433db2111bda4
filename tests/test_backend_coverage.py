"""Every IR op is either lowered or explicitly refused by each backend (mypyc's abstract ``OpVisitor`` forces the
same), so adding an op to ``ir/ops.py`` fails here until both backends have been told about it."""
from __future__ import annotations

from moshjit.backends.cython.emit import Emitter
from moshjit.backends.llvm import lower
from moshjit.ir import ops

TERMINATORS = {ops.Jump, ops.Branch, ops.ForIter, ops.Return, ops.Raise, ops.Reraise}


def test_the_terminators_are_the_ones_both_backends_know():
    found = set(ops.Terminator.__subclasses__())
    assert found == TERMINATORS, (f"terminators changed ({found ^ TERMINATORS}): teach both backends (Cython: "
                                  f"structure.py and Emitter.leaf; LLVM: lower.TERMINATOR_LOWERING), then list "
                                  f"them here")


def test_the_cython_backend_emits_every_op():
    missing = [cls.__name__ for cls in ops.OP_CLASSES if not callable(getattr(Emitter, "op_" + cls.__name__, None))]
    assert not missing, f"no Emitter.op_<Name> for {missing}"


def test_the_llvm_backend_lowers_or_refuses_every_op():
    lowered, refused = set(lower.OP_LOWERING), set(lower.REFUSED_OPS)
    assert not lowered & refused, f"both lowered and refused: {lowered & refused}"
    missing = [cls.__name__ for cls in ops.OP_CLASSES if cls not in lowered | refused]
    assert not missing, f"neither in lower.OP_LOWERING nor in lower.REFUSED_OPS: {missing}"
    assert all(isinstance(reason, str) and reason for reason in lower.REFUSED_OPS.values())


def test_the_llvm_backend_lowers_or_refuses_every_terminator():
    lowered, refused = set(lower.TERMINATOR_LOWERING), set(lower.REFUSED_TERMINATORS)
    assert lowered | refused == TERMINATORS and not lowered & refused
