"""Errors as the window tells them: a plain sentence first, never a raw code or a class name.

The core's error codes are a public interface for scripts (see the CLI contract), and its
messages are written for people. The window shows the message, falls back to a sentence per code
when there is none, and strips what only a programmer reads: a leading `code:`, Python class
names (`APIConnectionError`, `keyring.backends.fail.Keyring`). Pure functions, no Qt.
"""

from __future__ import annotations

import re

from agent_core.contract.errors import ErrorCode

# What each code means, for a person, when the error carries no message of its own.
SENTENCES: dict[str, str] = {
    ErrorCode.INVALID_ARGUMENTS: "That value is not valid.",
    ErrorCode.UNKNOWN_TOOL: "The agent asked for a tool that does not exist.",
    ErrorCode.NOT_FOUND: "It no longer exists.",
    ErrorCode.PATH_OUTSIDE_SCOPE: "That path is outside the folder the agent may use.",
    ErrorCode.WRITE_FORBIDDEN: "Writing there is not allowed.",
    ErrorCode.NETWORK_BLOCKED: "The network is closed to the agent for that address.",
    ErrorCode.APPROVAL_EXPIRED: "The proposal expired before anyone decided.",
    ErrorCode.APPROVAL_SUPERSEDED: "An edit replaced this proposal with a newer version.",
    ErrorCode.APPROVAL_ALREADY_RESOLVED: "Someone already decided this proposal.",
    ErrorCode.TARGET_CHANGED: "The file changed on disk since the proposal was made.",
    ErrorCode.TARGET_BUSY: "Another process is writing to that folder; nothing was written. "
    "Try again.",
    ErrorCode.TOO_MANY_CALLS: "The model asked for too many actions at once; none of them ran.",
    ErrorCode.DUPLICATE_CALL_ID: "The model asked for the same action twice; the second did "
    "not run.",
    ErrorCode.MIGRATION_REQUIRED: "This run was saved by another version and cannot continue here.",
    ErrorCode.RUN_IN_PROGRESS: "Another process is driving this run right now.",
    ErrorCode.BUDGET_EXCEEDED: "The run reached one of its limits.",
    ErrorCode.STORAGE_LOCKED: "The database is busy in another process; try again.",
    ErrorCode.STORAGE_CORRUPT: "The database is damaged.",
    ErrorCode.STORAGE_READ_ONLY: "The home folder cannot be written.",
    ErrorCode.STORAGE_TOO_NEW: "The database was made by a newer BriefDesk.",
    ErrorCode.KEYRING_UNAVAILABLE: "The system keyring cannot be used.",
    ErrorCode.KEY_MISSING: "No API key is stored.",
    ErrorCode.RUN_NOT_WAITING: "The run is not waiting for that any more.",
    ErrorCode.RUN_NOT_FINISHED: "The run has not finished yet.",
    ErrorCode.PROVIDER_ERROR: "The model endpoint did not answer usefully.",
    ErrorCode.PREVIOUSLY_REJECTED: "A person already rejected this action.",
    ErrorCode.SANDBOX_UNSUPPORTED: "This system cannot sandbox the agent's tools.",
    ErrorCode.STORAGE_FULL: "The disk is full; free some space, then resume.",
    ErrorCode.STORAGE_UNAVAILABLE: "The database server cannot be reached.",
    ErrorCode.QUESTION_ALREADY_ANSWERED: "Someone already answered this question.",
    ErrorCode.RUN_OWNED_ELSEWHERE: "Another desk is driving this run.",
    ErrorCode.NOT_AUTHORIZED: "You are not allowed to decide this.",
    ErrorCode.MCP_SERVER_UNAVAILABLE: "The MCP server could not be started, or it stopped "
    "answering.",
    ErrorCode.TOOL_TIMEOUT: "The tool took too long to answer.",
    "agent_error": "The agent runtime stopped unexpectedly.",
}
FALLBACK = "Something went wrong."

# What the standard library raises, in words (the class name is never shown).
_OS_WORDS: tuple[tuple[type[BaseException], str], ...] = (
    (ConnectionRefusedError, "connection refused"),
    (ConnectionResetError, "the connection was dropped"),
    (TimeoutError, "it took too long to answer"),
    (PermissionError, "permission denied"),
    (FileNotFoundError, "no such file or folder"),
    (IsADirectoryError, "that is a folder, not a file"),
)

# "(keyring.backends.fail.Keyring)", "(NoKeyringError)", "APIConnectionError: " ...
_DOTTED = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+"
_CLASS = r"[A-Z]\w*(?:Error|Exception|Warning|Keyring|Backend)"
_CLASS_IN_PARENS = re.compile(rf"\s*\((?:{_DOTTED}|{_CLASS})\)")
_CLASS_PREFIX = re.compile(rf"^(?:{_DOTTED}|{_CLASS}):\s*")
_CLASS_WORD = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b")
_CODE_PREFIX = re.compile(r"^[a-z]+(?:_[a-z]+)+:\s*")


def without_class_names(text: str) -> str:
    """`text` minus Python class names and a leading `some_code:` (what only a programmer reads)."""
    text = _CLASS_IN_PARENS.sub("", text)
    text = _CODE_PREFIX.sub("", text.strip())
    text = _CLASS_PREFIX.sub("", text)
    text = _CLASS_WORD.sub("error", text)
    return " ".join(text.split())


def plain_error(code: str | None, message: str | None) -> str:
    """One error (a code and its message, as the core gives them) as the window says it."""
    said = without_class_names(str(message or ""))
    if said:
        return said if said[-1] in ".!?…)" else said + "."
    return SENTENCES.get(str(code or ""), FALLBACK)


def storage_banner(code: str | None, message: str | None) -> str:
    """The banner while the team database cannot be used: why and what to check (the core's
    message, which names the host), and that the window carries on by itself."""
    return (
        f"{plain_error(code, message)} BriefDesk keeps trying: this note goes away, and runs "
        "stopped by it continue, once the database answers again."
    )


def plain_exception(exc: BaseException) -> str:
    """What a failed job raised: a core error's message, or the OS's problem in words."""
    code, message = getattr(exc, "code", None), getattr(exc, "message", None)
    if code and isinstance(message, str):
        return plain_error(str(code), message)
    for kind, words in _OS_WORDS:
        if isinstance(exc, kind):
            where = getattr(exc, "filename", None)
            return f"{FALLBACK[:-1]}: {words}" + (f" ({where})." if where else ".")
    detail = without_class_names(str(exc))
    return f"{FALLBACK[:-1]}: {detail}" if detail else FALLBACK


def keyring_backend_name(label: str) -> str:
    """`keyring.backends.SecretService.Keyring` -> `the Secret Service keyring`."""
    known = {
        "environment": "the environment (BRIEFDESK_OPENAI_API_KEY)",
        "secretservice": "the Secret Service keyring",
        "libsecret": "the Secret Service keyring",
        "kwallet": "KDE Wallet",
        "macos": "the macOS Keychain",
        "windows": "the Windows Credential Manager",
    }
    lowered = label.lower()
    return next((name for key, name in known.items() if key in lowered), "the system keyring")
