"""The service: ``cp-sudoku serve``, an HTTP API with jobs and a web page.

Modules: :mod:`~cp_sudoku.service.app` (the app: routers, error handlers,
middleware), :mod:`~cp_sudoku.service.routes` (one router per area),
:mod:`~cp_sudoku.service.schema` (the request body), :mod:`~cp_sudoku.service.state`
(settings and what the routes share), :mod:`~cp_sudoku.service.errors`,
:mod:`~cp_sudoku.service.body_limit`, :mod:`~cp_sudoku.service.runner` (worker
pool and jobs), :mod:`~cp_sudoku.service.store` (SQLite job store),
:mod:`~cp_sudoku.service.limits`, :mod:`~cp_sudoku.service.solving` (the one
adapter to the rest of the package) and :mod:`~cp_sudoku.service.command`.
Needs the ``service`` extra (FastAPI, uvicorn, python-multipart).
"""
