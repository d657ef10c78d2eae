"""Games kept and shown again: game records (``--save``, ``--save-games``), replays in the
terminal (``boardgame-envs replay``), the HTML viewer and GIFs, and agents watched as they
play (``boardgame-envs watch``).

    game_records.py  a record's format: deal seed, agents, actions; saving, loading, replaying
    replay.py        a record move by move in the terminal, as HTML or a GIF
    narration.py     what a move reads as to each seat, and what is said after it
    html_replay.py   the HTML viewer: one self-contained page
    watch.py         agents play a game move by move, saved as a record on request

From Python::

    from boardgame_envs.training.records import load_record, replay_states
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it (imported when first used).
PUBLIC = {
    "make_record": "game_records",
    "save_record": "game_records",
    "load_record": "game_records",
    "check_record": "game_records",
    "replay_states": "game_records",
    "play_recorded_game": "game_records",
    "InvalidRecordError": "game_records",
    "describe_move": "narration",
    "Narrator": "replay",
    "write_html": "html_replay",
}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
