"""Command lines from ``@dataclass Args`` classes, with each field's docstring as its help.

A field's docstring is the string literal right under it (CleanRL style); it is read from
the class source, so the dataclass stays the one place where an option is described. A field
without a default is required: on the command line it is None until given, and the class's
``__post_init__`` says so (:func:`check_game` for the game). A field named ``game`` is the
command's first positional argument, as in every command: ``boardgame-envs eval <game>``.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import math
import os
import re
import sys
import tempfile
import textwrap
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from boardgame_envs.core.rules import InvalidConfigError, is_integer
from boardgame_envs.registry import GAMES

T = TypeVar("T")


# -- checks of argument values (called from each Args.__post_init__) ----------------------
@dataclasses.dataclass(frozen=True)
class Allowed:
    """What a field accepts: a test and the words that say it in an error message."""

    test: Callable[[Any], bool]
    text: str

    def __or__(self, other: Allowed) -> Allowed:
        return Allowed(lambda v: self.test(v) or other.test(v), f"{self.text}, or {other.text}")


def at_least(low: int) -> Allowed:
    """An integer >= ``low`` (bools refused)."""
    return Allowed(lambda v: is_integer(v) and v >= low, f"an integer >= {low}")


def one_of(*choices: str) -> Allowed:
    """One of the given words."""
    return Allowed(lambda v: v in choices, ", ".join(choices))


def _is_real(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


POSITIVE = Allowed(lambda v: _is_real(v) and v > 0, "a number > 0")
NON_NEGATIVE = Allowed(lambda v: _is_real(v) and v >= 0, "a number >= 0")
FINITE = Allowed(_is_real, "a finite number")
FRACTION = Allowed(lambda v: _is_real(v) and 0 <= v <= 1, "a number from 0 to 1")
NONE = Allowed(lambda v: v is None, "unset (None: the default)")


def check_fields(args: Any, allowed: dict[str, Allowed]) -> None:
    """Raise ``InvalidConfigError`` for the first field of ``args`` whose value ``allowed``
    refuses, naming its command-line flag, the value and what is allowed."""
    for name, rule in allowed.items():
        value = getattr(args, name)
        if not rule.test(value):
            raise InvalidConfigError(
                f"{flag_of(name)} {value!r} is not allowed; allowed: {rule.text}"
            )


def check_game(args: Any) -> None:
    """The game, which has no default (no command picks a game for you): an
    ``InvalidConfigError`` listing the games when it is not given (a run resumed with
    ``--resume`` takes its own)."""
    if args.game is None and not getattr(args, "resume", ""):
        raise InvalidConfigError(
            f"the game is required, first after the command (e.g. {example(GAME_EXAMPLE)}); "
            f"allowed: {', '.join(GAMES)} (boardgame-envs list)"
        )


#: How the game is given on every command line: first after the command ({game}: see
#: :func:`example`).
GAME_EXAMPLE = "boardgame-envs eval {game} --agents heuristic,random"


def example(command: str) -> str:
    """``command`` with ``{game}`` written as a registered game's id (the first one), so that
    an example in a message is a command line that runs."""
    return command.format(game=next(iter(GAMES)))


#: The version in which the deprecated flags go.
DEPRECATED_UNTIL = "0.2.0"

#: The flags kept working for one version: the field each sets, what it is, its new form
#: and an example of it.
DEPRECATED_FLAGS = {
    "--game": ("game", "game", "the game first after the command", GAME_EXAMPLE),
    "--players": (
        "num_players",
        "number of players",
        "--num-players",
        "boardgame-envs play {game} --num-players 3",
    ),
}


def add_game_argument(parser: argparse.ArgumentParser, resumable: bool = False) -> None:
    """The game as the command's first positional argument, and the deprecated ``--game``."""
    resume = "; with --resume, the run's own" if resumable else ""
    parser.add_argument(
        "game",
        nargs="?",
        default=None,
        metavar="GAME",
        help=f"the game: {', '.join(GAMES)}{resume}",
    )
    add_deprecated_flag(parser, "--game")


def add_deprecated_flag(parser: argparse.ArgumentParser, flag: str, **kwargs: Any) -> None:
    """``flag`` of :data:`DEPRECATED_FLAGS`, hidden from the help, kept working: its value
    waits under its own name for :func:`take_deprecated_flags`."""
    parser.add_argument(flag, dest=flag, default=None, help=argparse.SUPPRESS, **kwargs)


def take_deprecated_flags(namespace: argparse.Namespace, argv: Sequence[str]) -> list[str]:
    """Give each deprecated flag's value to its field; the one-line notices to print once
    the arguments are checked. ``InvalidConfigError`` when a flag and its new form both
    give a value and they differ."""
    notices = []
    for flag, (field, what, new_form, new_example) in DEPRECATED_FLAGS.items():
        value = vars(namespace).pop(flag, None)
        if value is None:
            continue
        new_given = field == "game" or any(w.partition("=")[0] == new_form for w in argv)
        current = getattr(namespace, field, None)
        if new_given and current is not None and current != value:
            shown = current if field == "game" else f"{new_form} {current}"
            raise InvalidConfigError(
                f"the {what} is given twice ({shown}, and {flag} {value}); give it once, "
                f"as {new_form}"
            )
        setattr(namespace, field, value)
        notices.append(
            f"{flag} is deprecated and will be removed in version {DEPRECATED_UNTIL}; give "
            f"{new_form} instead, e.g. {example(new_example)}"
        )
    return notices


def check_output_file(flag: str, path: str | os.PathLike, suffixes: Sequence[str] = ()) -> Path:
    """``path`` if a command can write the file there (before any game is played): one of
    ``suffixes`` (any where empty), not a folder, a writable file where it exists, else a
    name that can be created (its nearest existing folder writable). ``InvalidConfigError``
    naming ``flag`` otherwise; nothing is left on disk."""
    path = Path(path)
    example = f"e.g. out{suffixes[0]}" if suffixes else "e.g. out.json"
    if suffixes and path.suffix.lower() not in suffixes:
        raise InvalidConfigError(
            f"{flag} {path} is not allowed; allowed: a file name ending in {', '.join(suffixes)}"
        )
    if path.is_dir():
        raise InvalidConfigError(f"{flag} {path} is a folder; give a file name, {example}")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise InvalidConfigError(f"{flag} {path} cannot be written (no permission)")
        return path
    _check_creatable(flag, path.parent, shown=path)
    return path


def check_output_folder(flag: str, path: str | os.PathLike) -> Path:
    """``path`` if a command can write files into it (before any game is played): an
    existing folder it can write in, or a folder that can be created. ``InvalidConfigError``
    naming ``flag`` otherwise; nothing is left on disk."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise InvalidConfigError(f"{flag} {path} is a file; give a folder (it is made if needed)")
    _check_creatable(flag, path)
    return path


def _check_creatable(flag: str, folder: Path, shown: Path | None = None) -> None:
    """``InvalidConfigError`` naming ``flag`` unless ``folder`` exists and is writable or can
    be made: its nearest existing ancestor must be a folder in which one can be made (tried
    with a temporary folder, removed at once)."""
    shown = folder if shown is None else shown
    ancestor = Path(os.path.abspath(folder))
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InvalidConfigError(
            f"{flag} {shown} cannot be made: {ancestor} is a file, not a folder"
        )
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".boardgame-envs-check-", dir=ancestor))
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise InvalidConfigError(
            f"{flag} {shown} cannot be written: {reason.lower()} in {ancestor}"
        ) from None


def flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


#: ``name=value`` in a message (a keyword of the library, as its Python API names it).
_KEYWORD_VALUE = re.compile(r"(?<![\w.(-])([a-z][a-z0-9_]*)=('[^']*'|\"[^\"]*\"|[^\s;,()]+)")


def as_typed(
    message: str, argv: Sequence[str], flags: dict[str, Sequence[str]] | None = None
) -> str:
    """``message`` with each ``name=value`` that a flag of ``argv`` gave written as it was
    typed: ``seed=-5`` -> ``--seed -5`` (the library's errors name its keywords; a command
    line's should name its flags). ``flags`` maps a keyword to the flags that set it where
    they are not ``--`` + the name (play's ``num_players``: ``--players``); a keyword no
    flag gave, or gave another value, is left as it is."""
    typed: dict[str, str] = {}
    for i, word in enumerate(argv):
        if word.startswith("--"):
            flag, eq, value = word.partition("=")
            if eq or i + 1 < len(argv):
                typed[flag] = value if eq else argv[i + 1]

    def flag_as_typed(match: re.Match) -> str:
        name, shown = match.group(1), match.group(2)
        for flag in (flags or {}).get(name, (flag_of(name),)):
            if flag in typed and shown.strip("'\"") == typed[flag]:
                return f"{flag} {typed[flag]}"
        return match.group(0)

    return _KEYWORD_VALUE.sub(flag_as_typed, message)


def parse_int_list(name: str, text: str, low: int = 1, example: str = "2,4") -> list[int]:
    """``"2,4"`` -> [2, 4]; ``InvalidConfigError`` naming the flag for anything else."""
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if not parts or not all(p.isascii() and p.isdigit() and int(p) >= low for p in parts):
        raise InvalidConfigError(
            f"{flag_of(name)} {text!r} is not allowed; allowed: comma-separated integers "
            f'>= {low}, e.g. "{example}"'
        )
    return [int(p) for p in parts]


def field_docs(cls: type) -> dict[str, str]:
    """{field name: the docstring written under it} for a dataclass."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, following in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def add_dataclass_arguments(parser: argparse.ArgumentParser, cls: type) -> None:
    """One option per field of ``cls``, its docstring the help; a field named ``game`` is
    the command's first positional argument (:func:`add_game_argument`), as is a field named
    in the class's ``POSITIONAL`` (optional, given without its flag)."""
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    for f in dataclasses.fields(cls):
        if f.name == "game":
            add_game_argument(parser, resumable="resume" in names)
            continue
        kind = _base_type(hints[f.name])
        default = _default(f)
        help_text = plain_help(docs.get(f.name, ""), default, _is_required(f))
        flag = flag_of(f.name)
        if f.name in getattr(cls, "POSITIONAL", ()):  # e.g. benchmark's AGENT
            parser.add_argument(
                f.name,
                nargs="?",
                type=kind,
                default=default,
                help=help_text,
                metavar=f.name.upper(),
            )
            continue
        if kind is bool:  # bool or bool | None: --flag / --no-flag
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=default, help=help_text
            )
        else:
            parser.add_argument(
                flag, type=kind, default=default, help=help_text, metavar=f.name.upper()
            )


def plain_help(doc: str, default: Any, required: bool = False) -> str:
    """A field's docstring as ``--help`` shows it: plain text (no ``code`` marks) ending in
    its default. An unset default (None or "") is said in the docstring's own words for it,
    a part "None: ..." or '"" = ...' of one of its parentheses, which moves to the end:
    "steps per update (None: the game's recipe)" -> "steps per update (default: the
    game's recipe)"."""
    doc = doc.replace("``", "")
    if required:
        return f"{doc} (required)"
    if isinstance(default, bool):
        return f"{doc} (default: {'on' if default else 'off'})"
    if default is None or default == "":
        doc, meaning = _take_unset_meaning(doc, "None: " if default is None else '"" = ')
        return f"{doc} (default: {meaning or 'unset'})"
    return f"{doc} (default: {default})"


_PARENTHESES = re.compile(r"\s?\(([^()]*)\)")


def _take_unset_meaning(doc: str, key: str) -> tuple[str, str | None]:
    """``doc`` without the part of a parenthesis that starts with ``key``, and that part's
    words (None where no parenthesis has one)."""
    for match in _PARENTHESES.finditer(doc):
        parts = [p.strip() for p in match.group(1).split(";")]
        meaning = next((p[len(key) :] for p in parts if p.startswith(key)), None)
        if meaning is None:
            continue
        rest = "; ".join(p for p in parts if not p.startswith(key))
        kept = f" ({rest})" if rest else ""
        return doc[: match.start()] + kept + doc[match.end() :], meaning
    return doc, None


def _default(f: dataclasses.Field) -> Any:
    """A field's default; None for a required field (refused by its class's checks)."""
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def args_from_namespace(cls: type[T], namespace: argparse.Namespace) -> T:
    """``cls`` from parsed arguments; its ``__post_init__`` checks may raise
    ``InvalidConfigError``."""
    values = {f.name: getattr(namespace, f.name) for f in dataclasses.fields(cls)}
    return cls(**values)


class OneLineParser(argparse.ArgumentParser):
    """A parser whose errors are one line on stderr (``boardgame-envs eval: argument
    --seed: invalid int value: '1.5' (see boardgame-envs eval --help)``), like the
    commands' own, with exit code 2 (its subcommands' parsers are of this class too)."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def parse_args(cls: type[T], argv: list[str] | None = None, prog: str | None = None) -> T:
    parser = OneLineParser(
        prog=prog,
        description=(cls.__module__ and (inspect.getmodule(cls).__doc__ or "").split("\n")[0]),
    )
    add_dataclass_arguments(parser, cls)
    argv = sys.argv[1:] if argv is None else argv
    namespace = parser.parse_args(argv)
    try:
        notices = take_deprecated_flags(namespace, argv)
        args = args_from_namespace(cls, namespace)
    except InvalidConfigError as error:  # a command-line mistake: one line, exit code 2
        print(f"{parser.prog}: error: {as_typed(str(error), argv)}", file=sys.stderr)
        raise SystemExit(2) from None
    for notice in notices:
        print(f"{parser.prog}: {notice}", file=sys.stderr)
    return args


def _is_required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _base_type(kind: Any) -> Any:
    """``int | None`` → int; plain types unchanged."""
    arguments = [a for a in typing.get_args(kind) if a is not type(None)]
    return arguments[0] if arguments else kind
