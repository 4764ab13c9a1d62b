#!/bin/sh
# BriefDesk developer entry point: `./dev.sh run` opens the app, `./dev.sh test` runs every test.
# Works from a fresh clone with only Python 3.11+ on Debian/Ubuntu: it creates .venv, installs
# the Python packages and, when run as root, the few Debian packages that are missing (fonts,
# Xvfb and Qt's xcb libraries, gnome-keyring + D-Bus for the keyring tests, PostgreSQL's server
# for the team-mode tests, which start a throwaway cluster of their own).
set -eu
cd "$(dirname "$0")"
VENV="${BRIEFDESK_VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
DEB_PACKAGES="fonts-dejavu-core xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 \
libxkbcommon-x11-0 libxcb-image0 libxcb-render-util0 libxcb-shape0 libegl1 libgl1 \
gnome-keyring dbus-x11 libsecret-tools desktop-file-utils appstream openbox xdotool \
postgresql poppler-utils at-spi2-core python3-pyatspi dunst fonts-noto-cjk bubblewrap \
tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim img2pdf pandoc qpdf libreoffice-writer-nogui \
hyphen-en-us"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

install_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || return 0
  missing=""
  for pkg in $DEB_PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
  done
  if ! "$PYTHON" -c 'import ensurepip, venv' >/dev/null 2>&1; then
    missing="$missing python3-venv"
  fi
  # Node.js and npm: the tests install the coding agents' CLIs and an MCP server from npm
  # (a Node.js installed some other way, as nvm or NodeSource's, is used as it is).
  if ! command -v npm >/dev/null 2>&1; then
    missing="$missing nodejs npm"
  fi
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = "0" ]; then
    say "Installing Debian packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    # shellcheck disable=SC2086
    apt-get install -y -qq $missing >/dev/null
  else
    say "Missing Debian packages (install them with sudo apt-get install$missing)"
  fi
}

ensure_venv() {
  install_debian_packages
  if [ ! -x "$VENV/bin/python" ]; then
    say "Creating $VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  stamp="$VENV/.briefdesk-installed"
  want="$(cat pyproject.toml | "$VENV/bin/python" -c 'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "Installing BriefDesk and its test tools into $VENV (first time: a few minutes)"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    # The build backend's notes (editable-install advice) are for packagers, not for a first run.
    PYTHONWARNINGS=ignore "$VENV/bin/python" -m pip install -q -e ".[test]"
    echo "$want" > "$stamp"
  fi
  # The window's translations: the committed .ts sources compiled to .qm (not in git).
  "$VENV/bin/python" -m desktop.i18n.build >/dev/null
}

cmd="${1:-help}"
[ $# -gt 0 ] && shift
case "$cmd" in
  run)
    ensure_venv
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ "$(uname)" = "Linux" ]; then
      say "No display found: starting BriefDesk on a virtual X server (xvfb-run)"
      exec xvfb-run -a "$VENV/bin/briefdesk" "$@"
    fi
    exec "$VENV/bin/briefdesk" "$@"
    ;;
  test)
    ensure_venv
    # One worker per core (at most 4; BRIEFDESK_TEST_WORKERS=0 runs in this process): most
    # tests wait on a subprocess, a server or a window, so two cores run the suite ~1.6x faster.
    # A file's tests stay on one worker (they may share a module's fixtures).
    workers="${BRIEFDESK_TEST_WORKERS:-$(nproc 2>/dev/null || echo 2)}"
    [ "$workers" -gt 4 ] && workers=4
    exec "$VENV/bin/python" -m pytest -n "$workers" --dist loadfile "$@"
    ;;
  cli)
    ensure_venv
    exec "$VENV/bin/briefdesk-cli" "$@"
    ;;
  package)
    # The one-folder app bundle in dist/briefdesk (packaging/briefdesk.spec); PyInstaller's work
    # files go to build/pyinstaller. Both are ignored by git.
    ensure_venv
    stamp="$VENV/.briefdesk-package-installed"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(cat "$VENV/.briefdesk-installed")" ]; then
      say "Installing the packaging tools (PyInstaller) into $VENV"
      PYTHONWARNINGS=ignore "$VENV/bin/python" -m pip install -q -e ".[package]"
      cp "$VENV/.briefdesk-installed" "$stamp"
    fi
    say "Building the app bundle (a few minutes on 2 cores)"
    "$VENV/bin/python" -m PyInstaller --noconfirm --log-level WARN \
      --distpath dist --workpath build/pyinstaller packaging/briefdesk.spec "$@"
    say "Built dist/briefdesk ($(du -sh dist/briefdesk | cut -f1)): ./dist/briefdesk/briefdesk, or install it for your user with ./dist/briefdesk/install-user.sh"
    ;;
  bench)
    # Benchmarks (benchmarks/README.md): they need the `bench` extra (LangGraph's SQLite
    # checkpointer to compare with, pyinstrument), never installed for the app itself; and
    # the document tools bench_corpus makes its PDFs with (LibreOffice converts, qpdf joins)
    # and what it makes them from (the SQLite documentation's HTML).
    DEB_PACKAGES="$DEB_PACKAGES libreoffice-writer-nogui qpdf sqlite3-doc time strace"
    ensure_venv
    stamp="$VENV/.briefdesk-bench-installed"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(cat "$VENV/.briefdesk-installed")" ]; then
      say "Installing the benchmark extras into $VENV"
      PYTHONWARNINGS=ignore "$VENV/bin/python" -m pip install -q -e ".[bench]"
      cp "$VENV/.briefdesk-installed" "$stamp"
    fi
    exec "$VENV/bin/python" benchmarks/run_all.py "$@"
    ;;
  *)
    echo "usage: ./dev.sh run | test [pytest args] | cli [briefdesk-cli args] | package | bench" >&2
    exit 2
    ;;
esac
