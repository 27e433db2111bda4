"""moshjit: a CPython 3.11 bytecode → SSA → native JIT compiler, plus syntax extensions as source rewrites."""
from setuptools import find_packages, setup

setup(
    name="moshjit",
    version="0.1.0",
    description="Python-to-native JIT for BERT preprocessing code: bytecode → SSA → Cython/LLVM",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    packages=find_packages(include=["moshjit", "moshjit.*"]),
    package_data={"moshjit.runtime": ["*.pyx", "*.pxd"]},
    install_requires=[
        "bytecode>=0.16,<0.20",
        "cython>=3.0,<3.4",
        "llvmlite>=0.50,<0.51",
        "cloudpickle>=2.1",
    ],
    extras_require={
        "test": [
            "pytest>=7",
            "pytest-xdist>=3",
            "hypothesis>=6.100",
            "ipython>=8.12",
            "ipykernel>=6.29",
            "nbclient>=0.10",
            "nbformat>=5.10",
        ],
        "bench": [                      # ranges with wheels for every supported CPython (3.11, 3.12, 3.13)
            "numba>=0.68,<0.69",
            "numpy>=1.26,<2.6",
            "tokenizers>=0.20",
            "pampy>=0.3",
            "matplotlib>=3.8",
            "tqdm>=4.66",
            "dask[distributed]>=2024.1",
        ],
    },
    entry_points={"console_scripts": ["moshjit=moshjit.__main__:main"]},
)
