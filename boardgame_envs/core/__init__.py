"""The shared core: the rules contract, the AEC env, the single-agent env, test helpers."""
