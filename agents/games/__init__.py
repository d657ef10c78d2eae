"""The built-in games' settings for agents and training, one package per game."""
