"""The benchmark kernels (benchmarks/kernels) compiled with backend="llvm" give CPython's results at small
sizes, and their lists are the unboxed native kind (none of them escapes)."""
import pytest

import moshjit
from benchmarks.kernels import kernels

SMALL = [(kernels.nbody, (3, 7)), (kernels.spectral_norm, (9,)), (kernels.fannkuch, (6,)), (kernels.sieve, (500,)),
         (kernels.mandelbrot, (12, 20)), (kernels.collatz, (300,)), (kernels.nqueens, (6,)),
         (kernels.integrate, (1000,))]


@pytest.mark.parametrize("kernel,args", SMALL, ids=[k.__name__ for k, _ in SMALL])
def test_kernel_matches_cpython(kernel, args):
    jitted = moshjit.jit(kernel, backend="llvm")
    assert jitted(*args) == kernel(*args)


def test_kernel_lists_are_native():
    jitted = moshjit.jit(kernels.sieve, backend="llvm")
    jitted(100)
    assert "mj_nlist_new" in jitted.inspect_code() and "PyList_New" not in jitted.inspect_code()
