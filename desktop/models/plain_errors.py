"""Errors as the window tells them: a plain sentence first, never a raw code or a class name.

The core's error codes are a public interface for scripts (see the CLI contract), and its
messages are written for people. The window shows the message, falls back to a sentence per code
when there is none, and strips what only a programmer reads: a leading `code:`, Python class
names (`APIConnectionError`, `keyring.backends.fail.Keyring`). Pure functions; in Chinese
the code's sentence is shown (the core's messages are English).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from agent_core.contract.errors import ErrorCode
from desktop import i18n
from desktop.i18n import QT_TRANSLATE_NOOP

translate = QCoreApplication.translate

# What each code means, for a person, when the error carries no message of its own.
SENTENCES: dict[str, str] = {
    ErrorCode.INVALID_ARGUMENTS: QT_TRANSLATE_NOOP("PlainErrors", "That value is not valid."),
    ErrorCode.UNKNOWN_TOOL: QT_TRANSLATE_NOOP(
        "PlainErrors", "The agent asked for a tool that does not exist."
    ),
    ErrorCode.NOT_FOUND: QT_TRANSLATE_NOOP("PlainErrors", "It no longer exists."),
    ErrorCode.PATH_OUTSIDE_SCOPE: QT_TRANSLATE_NOOP(
        "PlainErrors", "That path is outside the folder the agent may use."
    ),
    ErrorCode.WRITE_FORBIDDEN: QT_TRANSLATE_NOOP("PlainErrors", "Writing there is not allowed."),
    ErrorCode.NETWORK_BLOCKED: QT_TRANSLATE_NOOP(
        "PlainErrors", "The network is closed to the agent for that address."
    ),
    ErrorCode.APPROVAL_EXPIRED: QT_TRANSLATE_NOOP(
        "PlainErrors", "The proposal expired before anyone decided."
    ),
    ErrorCode.APPROVAL_SUPERSEDED: QT_TRANSLATE_NOOP(
        "PlainErrors", "An edit replaced this proposal with a newer version."
    ),
    ErrorCode.APPROVAL_ALREADY_RESOLVED: QT_TRANSLATE_NOOP(
        "PlainErrors", "Someone already decided this proposal."
    ),
    ErrorCode.TARGET_CHANGED: QT_TRANSLATE_NOOP(
        "PlainErrors", "The file changed on disk since the proposal was made."
    ),
    ErrorCode.TARGET_BUSY: QT_TRANSLATE_NOOP(
        "PlainErrors", "Another process is writing to that folder; nothing was written. Try again."
    ),
    ErrorCode.TOO_MANY_CALLS: QT_TRANSLATE_NOOP(
        "PlainErrors", "The model asked for too many actions at once; none of them ran."
    ),
    ErrorCode.DUPLICATE_CALL_ID: QT_TRANSLATE_NOOP(
        "PlainErrors", "The model asked for the same action twice; the second did not run."
    ),
    ErrorCode.MIGRATION_REQUIRED: QT_TRANSLATE_NOOP(
        "PlainErrors", "This run was saved by another version and cannot continue here."
    ),
    ErrorCode.RUN_IN_PROGRESS: QT_TRANSLATE_NOOP(
        "PlainErrors", "Another process is driving this run right now."
    ),
    ErrorCode.BUDGET_EXCEEDED: QT_TRANSLATE_NOOP(
        "PlainErrors", "The run reached one of its limits."
    ),
    ErrorCode.STORAGE_LOCKED: QT_TRANSLATE_NOOP(
        "PlainErrors", "The database is busy in another process; try again."
    ),
    ErrorCode.STORAGE_CORRUPT: QT_TRANSLATE_NOOP("PlainErrors", "The database is damaged."),
    ErrorCode.STORAGE_READ_ONLY: QT_TRANSLATE_NOOP(
        "PlainErrors", "The home folder cannot be written."
    ),
    ErrorCode.STORAGE_TOO_NEW: QT_TRANSLATE_NOOP(
        "PlainErrors", "The database was made by a newer BriefDesk."
    ),
    ErrorCode.KEYRING_UNAVAILABLE: QT_TRANSLATE_NOOP(
        "PlainErrors",
        "The system keyring cannot be used. Start or unlock your keyring, or set {variable} "
        "to give the key without one.",
    ),
    ErrorCode.KEY_MISSING: QT_TRANSLATE_NOOP("PlainErrors", "No API key is stored."),
    ErrorCode.RUN_NOT_WAITING: QT_TRANSLATE_NOOP(
        "PlainErrors", "The run is not waiting for that any more."
    ),
    ErrorCode.RUN_NOT_FINISHED: QT_TRANSLATE_NOOP("PlainErrors", "The run has not finished yet."),
    ErrorCode.PROVIDER_ERROR: QT_TRANSLATE_NOOP(
        "PlainErrors", "The model endpoint did not answer usefully."
    ),
    ErrorCode.PREVIOUSLY_REJECTED: QT_TRANSLATE_NOOP(
        "PlainErrors", "A person already rejected this action."
    ),
    ErrorCode.SANDBOX_UNSUPPORTED: QT_TRANSLATE_NOOP(
        "PlainErrors", "This system cannot sandbox the agent's tools."
    ),
    ErrorCode.STORAGE_FULL: QT_TRANSLATE_NOOP(
        "PlainErrors", "The disk is full; free some space, then resume."
    ),
    ErrorCode.STORAGE_UNAVAILABLE: QT_TRANSLATE_NOOP(
        "PlainErrors", "The database server cannot be reached."
    ),
    ErrorCode.QUESTION_ALREADY_ANSWERED: QT_TRANSLATE_NOOP(
        "PlainErrors", "Someone already answered this question."
    ),
    ErrorCode.RUN_OWNED_ELSEWHERE: QT_TRANSLATE_NOOP(
        "PlainErrors", "Another desk is driving this run."
    ),
    ErrorCode.NOT_AUTHORIZED: QT_TRANSLATE_NOOP(
        "PlainErrors", "You are not allowed to decide this."
    ),
    ErrorCode.MCP_SERVER_UNAVAILABLE: QT_TRANSLATE_NOOP(
        "PlainErrors", "The MCP server could not be started, or it stopped answering."
    ),
    ErrorCode.TOOL_TIMEOUT: QT_TRANSLATE_NOOP("PlainErrors", "The tool took too long to answer."),
    "agent_error": QT_TRANSLATE_NOOP("PlainErrors", "The agent runtime stopped unexpectedly."),
}
FALLBACK = QT_TRANSLATE_NOOP("PlainErrors", "Something went wrong.")
# The environment variable a keyring message names as the way around the keyring.
_ENV_VARIABLE = re.compile(r"\bBRIEFDESK_[A-Z0-9_]+\b")
DEFAULT_KEY_VARIABLE = "BRIEFDESK_OPENAI_API_KEY"

# What the standard library raises, in words (the class name is never shown).
_OS_WORDS: tuple[tuple[type[BaseException], str], ...] = (
    (ConnectionRefusedError, QT_TRANSLATE_NOOP("PlainErrors", "connection refused")),
    (ConnectionResetError, QT_TRANSLATE_NOOP("PlainErrors", "the connection was dropped")),
    (TimeoutError, QT_TRANSLATE_NOOP("PlainErrors", "it took too long to answer")),
    (PermissionError, QT_TRANSLATE_NOOP("PlainErrors", "permission denied")),
    (FileNotFoundError, QT_TRANSLATE_NOOP("PlainErrors", "no such file or folder")),
    (IsADirectoryError, QT_TRANSLATE_NOOP("PlainErrors", "that is a folder, not a file")),
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
    sentence = SENTENCES.get(str(code or ""))
    if sentence and (not said or i18n.active() != "en"):
        # The core's messages are English: in another language the code's sentence says it,
        # with the same fix (the variable the core names, say BRIEFDESK_OPENAI_API_KEY).
        named = _ENV_VARIABLE.search(said)
        variable = named.group() if named else DEFAULT_KEY_VARIABLE
        return translate("PlainErrors", sentence).replace("{variable}", variable)
    if said:
        return said if said[-1] in ".!?…)" else said + "."
    return translate("PlainErrors", FALLBACK)


def storage_banner(code: str | None, message: str | None) -> str:
    """The banner while the team database cannot be used: why and what to check (the core's
    message, which names the host), and that the window carries on by itself."""
    return translate(
        "PlainErrors",
        "{error} BriefDesk keeps trying: this note goes away, and runs stopped by it continue, "
        "once the database answers again.",
    ).format(error=plain_error(code, message))


def plain_exception(exc: BaseException) -> str:
    """What a failed job raised: a core error's message, or the OS's problem in words."""
    code, message = getattr(exc, "code", None), getattr(exc, "message", None)
    if code and isinstance(message, str):
        return plain_error(str(code), message)
    for kind, words in _OS_WORDS:
        if isinstance(exc, kind):
            where = getattr(exc, "filename", None)
            said = translate("PlainErrors", words) + (f" ({where})" if where else "")
            return translate("PlainErrors", "Something went wrong: {what}.").format(what=said)
    detail = without_class_names(str(exc))
    if detail:
        return translate("PlainErrors", "Something went wrong: {what}").format(what=detail)
    return translate("PlainErrors", FALLBACK)


def keyring_backend_name(label: str) -> str:
    """`keyring.backends.SecretService.Keyring` -> `the Secret Service keyring`."""
    known = {
        "environment": QT_TRANSLATE_NOOP(
            "PlainErrors", "the environment (BRIEFDESK_OPENAI_API_KEY)"
        ),
        "secretservice": QT_TRANSLATE_NOOP("PlainErrors", "the Secret Service keyring"),
        "libsecret": QT_TRANSLATE_NOOP("PlainErrors", "the Secret Service keyring"),
        "kwallet": QT_TRANSLATE_NOOP("PlainErrors", "KDE Wallet"),
        "macos": QT_TRANSLATE_NOOP("PlainErrors", "the macOS Keychain"),
        "windows": QT_TRANSLATE_NOOP("PlainErrors", "the Windows Credential Manager"),
    }
    lowered = label.lower()
    name = next((name for key, name in known.items() if key in lowered), None)
    if name is None:
        return translate("PlainErrors", "the system keyring")
    return translate("PlainErrors", name)
