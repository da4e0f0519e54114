"""The optional C extensions (everything else is in pyproject.toml).

``pip install -e .`` builds, with the system's C compiler, the compiled search
kernel ``cp_sudoku.backends._kernel`` and the checker's screen
``cp_sudoku.model._screen``.  Without a compiler their build fails, setuptools
says so in the install log, and the install goes on: the ``kernel`` back end
then runs the pure-Python backtracker (see cp_sudoku/backends/kernel.py), and
the checker its passes in Python (cp_sudoku/model/checker.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "cp_sudoku.backends._kernel",
            ["cp_sudoku/backends/_kernel.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "cp_sudoku.model._screen",
            ["cp_sudoku/model/_screen.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
