"""Cython backend: typed SSA → out-of-SSA → structured statements → typed .pyx → extension module.

generate.py drives out_of_ssa.py, structure.py and emit.py; build.py compiles and loads; driver.py ties both to the
compile cache. (Nothing is imported here, so loading the support modules stays cheap.)"""
