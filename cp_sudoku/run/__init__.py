"""Running many puzzles: slices of a file, executors (process pool, Dask), table output, resume."""
