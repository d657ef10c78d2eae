"""Command lines from ``@dataclass Args`` classes, with each field's docstring as its help.

A field's docstring is the string literal right under it (CleanRL style); it is read from
the class source, so the dataclass stays the one place where an option is described. A field
without a default is required: on the command line it is None until given, and the class's
``__post_init__`` says so (:func:`check_game` for ``--game``).
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
    """``--game``, which has no default (no command picks a game for you): an
    ``InvalidConfigError`` listing the games when it is not given (a run resumed with
    ``--resume`` takes its own)."""
    if args.game is None and not getattr(args, "resume", ""):
        raise InvalidConfigError(
            f"--game is required; allowed: {', '.join(GAMES)} (boardgame-envs list)"
        )


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
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        kind = hints[f.name]
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:  # required: None until given, refused by the class's __post_init__
            default = None
        shown = "required" if _is_required(f) else f"default: {default!r}"
        help_text = f"{docs.get(f.name, '')} ({shown})"
        flag = "--" + f.name.replace("_", "-")
        if _base_type(kind) is bool:  # bool or bool | None: --flag / --no-flag
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=default, help=help_text
            )
        else:
            parser.add_argument(
                flag, type=_base_type(kind), default=default, help=help_text, metavar=f.name.upper()
            )


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
    namespace = parser.parse_args(argv)
    try:
        return args_from_namespace(cls, namespace)
    except InvalidConfigError as error:  # a command-line mistake: one line, exit code 2
        typed = as_typed(str(error), sys.argv[1:] if argv is None else argv)
        print(f"{parser.prog}: error: {typed}", file=sys.stderr)
        raise SystemExit(2) from None


def _is_required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


def _base_type(kind: Any) -> Any:
    """``int | None`` → int; plain types unchanged."""
    arguments = [a for a in typing.get_args(kind) if a is not type(None)]
    return arguments[0] if arguments else kind
