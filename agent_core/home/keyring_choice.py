"""Which keyring backend this process uses: the one keyring's own detection would choose,
found without importing every backend keyring knows where that is sure to be the same.

keyring picks the backend of highest priority among all it knows, importing each to ask: on
Linux its macOS backend alone runs `ldconfig` three times (`ctypes.util.find_library`), about a
tenth of a second of every `briefdesk-cli hook` call, which masks the secrets BriefDesk holds.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

_KEYRING_OWN_BACKENDS = "keyring.backends."
_KWALLET_AND_LIBSECRET_NEED = ("dbus", "gi")  # python-dbus, PyGObject


def _linux_backend() -> KeyringBackend | None:
    """On Linux, where keyring's answer is sure to be the same: nothing chosen in the
    environment (PYTHON_KEYRING_BACKEND) or keyring's config file, no backend of another
    package installed, and neither KWallet's nor libsecret's library importable. Then it is
    the Secret Service when one answers, else keyring's failing backend. None: keyring detects
    (it honours its environment and config file itself)."""
    if not sys.platform.startswith("linux") or "PYTHON_KEYRING_BACKEND" in os.environ:
        return None
    from importlib.metadata import entry_points
    from importlib.util import find_spec

    from keyring.util import platform_

    if (platform_.config_root() / "keyringrc.cfg").exists():
        return None
    if any(find_spec(module) is not None for module in _KWALLET_AND_LIBSECRET_NEED):
        return None
    plugins = entry_points(group="keyring.backends")
    if any(not plugin.value.startswith(_KEYRING_OWN_BACKENDS) for plugin in plugins):
        return None
    from keyring.core import load_keyring

    try:  # keyring's own loader: it asks the backend's priority, which fails if none answers
        return load_keyring("keyring.backends.SecretService.Keyring")
    except Exception:  # not viable, as keyring's detection judges any failure of a priority
        return load_keyring("keyring.backends.fail.Keyring")


def chosen_backend() -> KeyringBackend:
    """keyring's backend for this process (raises ImportError without keyring)."""
    import keyring

    # Nobody chose one yet in this process (keyring itself, or a caller's set_keyring).
    if getattr(keyring.core, "_keyring_backend", False) is None:
        chosen = _linux_backend()
        if chosen is not None:
            keyring.set_keyring(chosen)
    return keyring.get_keyring()
