"""What every kernel shares: the compile options, 64-bit constants and the bit-counting
instructions of the CPU (popcount, count of trailing and leading zeros) as numba intrinsics.

numba types a Python int below 2**63 as int64 and a larger one as uint64, and mixing
int64 with uint64 in arithmetic gives a float. So every kernel takes and returns uint64
bitboards through an explicit signature (one compiled version, no second specialisation),
and every constant that meets a bitboard is a uint64 made with ``u64``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

__all__ = [
    "ONE",
    "ZERO",
    "F",
    "entry_point",
    "kernel",
    "leading_zeros",
    "popcount",
    "signed",
    "trailing_zeros",
    "u64",
    "unsigned",
]

F = TypeVar("F", bound=Callable[..., Any])


def kernel(signature: str, *, inline: bool = False) -> Callable[[F], F]:
    """Compile a function with numba for one explicit signature: nopython, cached on disk
    (so only the first run on a machine pays for compiling) and without the GIL, so other
    Python threads (a widget, a timer) run while it does. ``inline`` copies its body into
    the kernels that call it, for the small hot ones that a call would slow down.

    Kernels allocate nothing (their arrays come from the caller), so they run without numba's
    reference counting of arrays: with it, every call of a recursive search counted every
    array it passes on, and that cost several times the work of a node."""
    options: dict[str, Any] = {"cache": True, "nogil": True, "inline": "always" if inline else "never", "_nrt": False}
    return cast(Callable[[F], F], njit(signature, **options))


def u64(value: int) -> int:
    """``value`` as a uint64 constant for the kernels (an int to the type checker)."""
    return cast(int, np.uint64(value))


ZERO = u64(0)
ONE = u64(1)


def _count(instruction: str) -> Any:
    """An intrinsic ``int64(uint64)`` applying one LLVM bit-count instruction."""

    def typer(typingctx: Any, x: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if instruction == "ctpop":
                return builder.ctpop(args[0])
            # The operand is never zero where these are used: let LLVM use tzcnt/lzcnt freely.
            return getattr(builder, instruction)(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.uint64), codegen

    typer.__name__ = instruction
    return intrinsic(typer)


_popcount = _count("ctpop")
_trailing_zeros = _count("cttz")
_leading_zeros = _count("ctlz")


# Typed for the type checker; inside kernels they compile to single CPU instructions.
popcount: Callable[[int], int] = cast(Callable[[int], int], _popcount)
trailing_zeros: Callable[[int], int] = cast(Callable[[int], int], _trailing_zeros)
leading_zeros: Callable[[int], int] = cast(Callable[[int], int], _leading_zeros)


def entry_point(compiled: Callable[..., Any]) -> Callable[..., Any]:
    """The compiled function's own entry point, which skips the dispatcher's resolution of
    argument types: with one explicit signature there is nothing to resolve, and a call from
    Python costs about half as much. The dispatcher itself if numba does not expose it."""
    overloads = getattr(compiled, "overloads", {})
    signatures = getattr(compiled, "signatures", [])
    if len(signatures) == 1 and signatures[0] in overloads:
        return cast(Callable[..., Any], getattr(overloads[signatures[0]], "entry_point", compiled))
    return compiled


@kernel("int64(uint64)", inline=True)
def signed(bits: int) -> int:
    """A uint64 below 2**63 as an int64, to do signed arithmetic with it."""
    return np.int64(bits)  # type: ignore[no-any-return]


@kernel("uint64(int64)", inline=True)
def unsigned(value: int) -> int:
    """A non-negative int64 as a uint64, to combine it with bitboards."""
    return np.uint64(value)  # type: ignore[no-any-return]
