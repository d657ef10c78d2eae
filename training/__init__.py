"""Training and evaluation: MaskablePPO runs, tournaments, benchmarks, the CLI's commands."""
