"""Records whose fields are set once, when they are made, and compared by value.

Why not frozen dataclasses: rollouts build an observation of the table (its seats, the pending
decision) at every decision of every playout, tens of thousands of times for one review. Compiled
with mypyc, a frozen dataclass still runs the `__init__` the dataclasses module writes, which sets
each field through `object.__setattr__`: 1.15 µs for three fields, against 0.04 µs for a class
whose `__init__` is compiled (measured on this machine). A `Frozen` subclass declares its fields
`Final` in a plain `__init__` (compiled, the fields are set natively and cannot be assigned from
Python afterwards) and refuses any later assignment itself (plain Python, where `Final` is only
checked by mypy). Equality, hashing, `repr`, pickling and `replace` read `FIELDS`, as a
dataclass's do.

A subclass must define `__setattr__` as `self._set_once(name, value)`: compiled, a `__setattr__`
inherited from a base class would route the subclass's own `__init__` through it.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, TypeVar

_F = TypeVar("_F", bound="Frozen")


class Frozen:
    """A value: its `FIELDS`, in the order its `__init__` takes them."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    def values(self) -> tuple[Any, ...]:
        """The fields' values, in the order of `FIELDS` (what `__init__` takes back)."""
        return tuple([getattr(self, name) for name in self.FIELDS])

    def replace(self: _F, **changes: Any) -> _F:
        """A copy with some fields changed (`dataclasses.replace` for these records)."""
        unknown = sorted(set(changes) - set(self.FIELDS))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(unknown)}")
        values = [changes[name] if name in changes else getattr(self, name)
                  for name in self.FIELDS]
        return _rebuild(type(self), tuple(values))

    def _set_once(self, name: str, value: object) -> None:
        """Plain Python: a field may be set while the record is made, never after."""
        if name not in self.FIELDS or hasattr(self, name):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Frozen) and \
            self.values() == other.values()

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={value!r}" for name, value in zip(self.FIELDS, self.values(),
                                                                     strict=True))
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as its fields: a compiled record cannot be refilled field by
        field after it is made."""
        return _rebuild, (type(self), self.values())


def _rebuild(cls: type[_F], values: tuple[Any, ...]) -> _F:
    made: _F = cls(*values)
    return made
