"""Rule-based players, one module per game, each exposing ``HeuristicAgent``."""
