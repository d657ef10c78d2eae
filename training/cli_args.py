"""Command lines from ``@dataclass Args`` classes, with each field's docstring as its help.

A field's docstring is the string literal right under it (CleanRL style); it is read from
the class source, so the dataclass stays the one place where an option is described.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import textwrap
import typing
from typing import Any, TypeVar

T = TypeVar("T")


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
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        help_text = f"{docs.get(f.name, '')} (default: {default!r})"
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
    values = {f.name: getattr(namespace, f.name) for f in dataclasses.fields(cls)}
    return cls(**values)


def parse_args(cls: type[T], argv: list[str] | None = None, prog: str | None = None) -> T:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(cls.__module__ and (inspect.getmodule(cls).__doc__ or "").split("\n")[0]),
    )
    add_dataclass_arguments(parser, cls)
    return args_from_namespace(cls, parser.parse_args(argv))


def _base_type(kind: Any) -> Any:
    """``int | None`` → int; plain types unchanged."""
    arguments = [a for a in typing.get_args(kind) if a is not type(None)]
    return arguments[0] if arguments else kind
