"""Play in the browser: ``boardgame-envs serve``, a local web app where people open tables,
play the games by clicking, against agents or each other, and replay them.

    tables.py    a table: its game, seats, secret links, moves; the store that saves each
                 table atomically after every move and loads them all again at start
    views.py     what one seat's page shows (its view only), and where to click for a move
    server.py    the web app (Starlette, served by uvicorn) and the ``serve`` command
    static/      the start page and the table page (HTML, CSS, JavaScript)

From Python::

    from boardgame_envs.training.web import make_app

    app = make_app("my-tables")  # an ASGI app; serve it with uvicorn
"""

from boardgame_envs.training import public_names

#: Each public name and the module of the room that defines it (imported when first used).
PUBLIC = {
    "make_app": "server",
    "Table": "tables",
    "TableStore": "tables",
    "TableError": "tables",
    "seat_view": "views",
    "click_targets": "views",
}
__all__ = list(PUBLIC)
__getattr__ = public_names(__name__, PUBLIC)
