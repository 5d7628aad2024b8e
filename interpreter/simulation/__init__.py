"""Simulation: many games played by agents, and what is learnt from them.

Takes a ``Game``, a player count and agents; gives per-seat statistics, rule firing counts,
throughput, records written whole (``recordfile``), runs over processes or a dask cluster,
experiments (a grid of runs), game-quality measures (``evaluate``) and parameter sweeps (``tune``),
reports and plots.
May import: ``interpreter.engine``, ``interpreter.agents``, ``interpreter.language``,
``interpreter.errors``.
"""
