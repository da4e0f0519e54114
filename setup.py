"""The compiled search kernel: an optional C extension (everything else is in pyproject.toml).

``pip install -e .`` builds ``cp_sudoku.backends._kernel`` with the system's C
compiler.  Without a compiler the build of the extension fails, setuptools
says so in the install log, and the install goes on: the ``kernel`` back end
then runs the pure-Python backtracker (see cp_sudoku/backends/kernel.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "cp_sudoku.backends._kernel",
            ["cp_sudoku/backends/_kernel.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
