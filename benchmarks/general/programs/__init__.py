"""Benchmark programs of pyperformance 1.14.0 (https://github.com/python/pyperformance), MIT licence (``LICENSE``,
authors in ``AUTHORS``): each ``bm_<name>.py`` is that benchmark's ``run_benchmark.py`` with only its pyperf runner
glue removed (the ``if __name__ == "__main__":`` block and ``add_cmdline_args``); the program code is unchanged."""
