"""What a typed test says when it expects a value to be there (issue 40: tests typed through
the facade's views). A view's optional field or a widget's optional child is narrowed here, so
that a None fails the test at the line that expected it."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, asserted not None."""
    assert value is not None, "expected a value, got None"
    return value
