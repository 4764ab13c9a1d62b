"""The range of every number BriefDesk takes from a person, a setting or a stored row.

One check per concept, used by the CLI's parser (flags), the preferences model (settings) and
the run's limits (the facade and the loader), so a value refused at the door is also refused
when it comes back from storage. A number that is not finite is never in range: nan compares
false with everything, so a `nan` budget would silently switch the budget off.
No I/O, no imports beyond the standard library: the CLI's parser uses it before anything loads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_COUNT = 100_000
"""Model turns and tool calls of one run (the contract: integers from 1 to 100,000)."""
MAX_TOKENS = 10**12
"""Tokens a remote model may report for one run."""
MAX_SECONDS = 10 * 365 * 24 * 3600
"""Ten years: an approval's time to live and a run's time budget. `now + MAX_SECONDS` is still a
date Python can write, so an expiry never overflows."""
MAX_SEQ = 2**63 - 1
"""An event sequence number: the largest integer SQLite stores."""
MAX_NOTE_CHARS = 10_000
"""A reviewer's note or reason, in characters (the contract): it is stored and sent to a model."""


class OutOfRange(ValueError):
    """A number outside its range; the message says what the value takes (no code: the caller
    knows whether it came from a person, `invalid_arguments`, or from storage, `storage_corrupt`).
    """


@dataclass(frozen=True)
class Bound:
    """The numbers one concept takes: `minimum` (inclusive unless `exclusive`) to `maximum`."""

    maximum: float
    unit: str
    whole: bool = False
    minimum: float = 0
    exclusive: bool = True
    """True: the minimum itself is refused (a TTL of 0 s expires at once)."""

    def check(self, value: object) -> int | float:
        """The value when it is in range; OutOfRange otherwise (bool is no number here)."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OutOfRange(f"takes a number ({self.unit})")
        if isinstance(value, float) and not math.isfinite(value):
            raise OutOfRange(f"takes a finite number ({self.unit})")
        if self.whole and isinstance(value, float) and not value.is_integer():
            raise OutOfRange(f"takes a whole number ({self.unit})")
        low_ok = value > self.minimum if self.exclusive else value >= self.minimum
        if not (low_ok and value <= self.maximum):
            raise OutOfRange(f"takes {self.describe()}")
        return int(value) if self.whole else value

    def describe(self) -> str:
        kind = "an integer" if self.whole else "a finite number"
        if self.whole and self.exclusive:
            return f"{kind} from {self.minimum + 1:,} to {self.maximum:,} ({self.unit})"
        if self.whole:
            return f"{kind} from {self.minimum:,} to {self.maximum:,} ({self.unit})"
        if self.minimum == 0:
            low = "positive" if self.exclusive else "non-negative"
            return f"a {low} number of {self.unit}, at most {self.maximum:,.0f}"
        above = "above" if self.exclusive else "from"
        return f"a number of {self.unit} {above} {self.minimum:g}, at most {self.maximum:,.0f}"

    def parse_text(self, text: str) -> int | float:
        """A number typed on a command line ("1e3", "nan" included) checked against the bound."""
        try:
            value: int | float = int(text.strip()) if self.whole else float(text)
        except ValueError:
            raise OutOfRange(f"takes {self.describe()}, not {text!r}") from None
        return self.check(value)


COUNT = Bound(MAX_COUNT, "a count", whole=True)
"""--max-turns, --max-tool-calls."""
TOKENS = Bound(MAX_TOKENS, "tokens", whole=True)
"""--max-tokens."""
SECONDS = Bound(MAX_SECONDS, "seconds")
"""--approval-ttl, --max-seconds, the approval_ttl setting."""
SEQ = Bound(MAX_SEQ, "an event sequence number", whole=True, exclusive=False)
"""timeline --since: 0 (everything) or a sequence number."""
COUNTER = Bound(MAX_SEQ, "a counter", whole=True, exclusive=False)
"""A stored count that starts at 0: a run's turns, tool calls, tokens, state version."""
ELAPSED = Bound(MAX_SECONDS, "seconds", exclusive=False)
"""A stored duration that starts at 0: the seconds a run has been driven."""
PARALLEL_CALLS = Bound(100, "calls in one model turn", whole=True)
"""limits.max_parallel_calls. At most 100: the SDK's approval pause costs grow with the square
of a turn's calls (1,000 paused calls took minutes), so a turn stays small enough to decide."""
RESPONSE_BYTES = Bound(2**30, "bytes", whole=True)
"""openai.max_response_bytes: a model response, decompressed, held in memory at most once."""
PRICE = Bound(1_000_000, "US dollars per million tokens", exclusive=False)
"""openai.price_input_per_mtok, openai.price_output_per_mtok: 0 (a free model) and up."""
# A corpus document: the file size past which it is not read, and what its parser may take.
DOCUMENT_MB = Bound(1_000_000, "MB")
DOCUMENT_SECONDS = Bound(3_600, "seconds")
PARSER_MEMORY_MB = Bound(1 << 20, "MB", whole=True, minimum=256, exclusive=False)
