#!/bin/sh
# Install the BriefDesk app bundle for the current user (no root needed).
#
#   ./install-user.sh [BUNDLE_DIR]
#
# BUNDLE_DIR is the one-folder bundle that `./dev.sh package` builds (dist/briefdesk). Without
# it: the folder holding this script when that is a bundle, else dist/briefdesk of the checkout.
#
# What it puts where (XDG_DATA_HOME defaults to ~/.local/share):
#   $XDG_DATA_HOME/briefdesk-app/                        the bundle (both executables, libraries)
#   $XDG_DATA_HOME/applications/org.briefdesk.BriefDesk.desktop      the menu entry
#   $XDG_DATA_HOME/metainfo/org.briefdesk.BriefDesk.metainfo.xml     for software centres
#   $XDG_DATA_HOME/icons/hicolor/*/apps/org.briefdesk.BriefDesk.*    the icons
#   ~/.local/bin/briefdesk, ~/.local/bin/briefdesk-cli                links to the executables
# Every path it creates (folders included) is listed in
# $XDG_DATA_HOME/briefdesk-app/install-manifest.txt; uninstall-user.sh removes exactly those.
# Installing again replaces the previous install. A file of someone else's at one of these
# places (say a `briefdesk` from pipx in ~/.local/bin) stops the install; nothing is changed.
set -eu

APP_ID="org.briefdesk.BriefDesk"
MARKER=".briefdesk-bundle"
HERE="$(cd "$(dirname "$0")" && pwd)"
DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
case "$DATA_HOME" in /*) ;; *) DATA_HOME="$HOME/.local/share" ;; esac  # XDG: absolute or ignored
APP_DIR="$DATA_HOME/briefdesk-app"
BIN_DIR="$HOME/.local/bin"
MANIFEST="$APP_DIR/install-manifest.txt"

say() { printf '%s\n' "$*" >&2; }
die() { say "install-user.sh: $*"; exit 1; }

if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  say "usage: install-user.sh [BUNDLE_DIR]"
  exit 2
fi
if [ $# -eq 1 ]; then
  BUNDLE="$1"
elif [ -f "$HERE/$MARKER" ]; then
  BUNDLE="$HERE"
else
  BUNDLE="$HERE/../dist/briefdesk"
fi
if [ ! -f "$BUNDLE/$MARKER" ] || [ ! -x "$BUNDLE/briefdesk" ] || [ ! -x "$BUNDLE/briefdesk-cli" ]; then
  die "no BriefDesk bundle at $BUNDLE (build one with ./dev.sh package)"
fi
BUNDLE="$(cd "$BUNDLE" && pwd)"
[ "$BUNDLE" != "$APP_DIR" ] || die "$BUNDLE is the installed copy; give the bundle you built"

# Installing again: first remove what the previous install put there (by its manifest).
if [ -f "$MANIFEST" ]; then
  say "Replacing the BriefDesk installed in $APP_DIR"
  sh "$HERE/uninstall-user.sh" >/dev/null
fi
[ ! -e "$APP_DIR" ] || die "$APP_DIR exists but was not installed by this script; move it away first"

ICONS_SRC="$BUNDLE/share/icons/hicolor"
# Everything this install writes outside APP_DIR, checked before anything is changed.
targets="$DATA_HOME/applications/$APP_ID.desktop
$DATA_HOME/metainfo/$APP_ID.metainfo.xml
$BIN_DIR/briefdesk
$BIN_DIR/briefdesk-cli"
for icon in "$ICONS_SRC"/*/apps/*; do
  rel="${icon#"$ICONS_SRC"/}"
  targets="$targets
$DATA_HOME/icons/hicolor/$rel"
done
conflicts=""
while IFS= read -r path; do
  if [ -e "$path" ] || [ -L "$path" ]; then conflicts="$conflicts
  $path"; fi
done <<EOF
$targets
EOF
[ -z "$conflicts" ] || die "these files exist and are not from a BriefDesk bundle install:$conflicts
Remove them (a pipx install: pipx uninstall briefdesk) and run this again."

# From here on, every path created is recorded; the manifest is written last, inside APP_DIR.
created=""
record() { created="$created$1 $2
"; }
make_dirs() {  # mkdir -p that records each folder it creates, outermost first
  [ -d "$1" ] && return 0
  make_dirs "$(dirname "$1")"
  mkdir "$1"
  record d "$1"
}

make_dirs "$DATA_HOME"
staging="$DATA_HOME/.briefdesk-app.installing.$$"
trap 'rm -rf "$staging"' EXIT
cp -R "$BUNDLE" "$staging"
mv "$staging" "$APP_DIR"
trap - EXIT
record t "$APP_DIR"

# The desktop entry runs the installed executable by its absolute path (quoted for the spec).
quoted="$(printf '%s' "$APP_DIR/briefdesk" | sed 's/\\/\\\\\\\\/g; s/["`$]/\\\\&/g')"
make_dirs "$DATA_HOME/applications"
desktop="$DATA_HOME/applications/$APP_ID.desktop"
sed -e "s|^Exec=.*|Exec=\"$(printf '%s' "$quoted" | sed 's/[|&]/\\&/g')\"|" \
    -e "s|^TryExec=.*|TryExec=$(printf '%s' "$APP_DIR/briefdesk" | sed 's/\\/\\\\/g; s/[|&]/\\&/g')|" \
    "$APP_DIR/share/applications/$APP_ID.desktop" >"$desktop"
record f "$desktop"

make_dirs "$DATA_HOME/metainfo"
cp "$APP_DIR/share/metainfo/$APP_ID.metainfo.xml" "$DATA_HOME/metainfo/$APP_ID.metainfo.xml"
record f "$DATA_HOME/metainfo/$APP_ID.metainfo.xml"

for icon in "$ICONS_SRC"/*/apps/*; do
  rel="${icon#"$ICONS_SRC"/}"
  target="$DATA_HOME/icons/hicolor/$rel"
  make_dirs "$(dirname "$target")"
  cp "$icon" "$target"
  record f "$target"
done

make_dirs "$BIN_DIR"
for exe in briefdesk briefdesk-cli; do
  ln -s "$APP_DIR/$exe" "$BIN_DIR/$exe"
  record l "$BIN_DIR/$exe"
done

printf '# BriefDesk user install: kind (d folder, t bundle, f file, l link) and path\n%s' \
  "$created" >"$MANIFEST"

say "BriefDesk $("$APP_DIR/briefdesk-cli" --version | sed 's/^briefdesk-cli //') installed in $APP_DIR"
say "  menu entry: $desktop"
say "  commands:   $BIN_DIR/briefdesk, $BIN_DIR/briefdesk-cli"
case ":$PATH:" in
  *":$BIN_DIR:"*) ;;
  *) say "  note: $BIN_DIR is not on your PATH; add it to run briefdesk from a terminal" ;;
esac
# A bare machine may lack a library Qt's X11 plugin needs; say which before the first start.
xcb="$APP_DIR/_internal/PySide6/Qt/plugins/platforms/libqxcb.so"
if command -v ldd >/dev/null 2>&1 && [ -f "$xcb" ]; then
  missing="$(LD_LIBRARY_PATH="$APP_DIR/_internal:$APP_DIR/_internal/PySide6/Qt/lib" ldd "$xcb" 2>/dev/null \
    | awk '/not found/ {print $1}' | tr '\n' ' ')"
  if [ -n "$missing" ]; then
    say "  warning: the window needs system libraries that are missing: $missing"
    say "  on Debian/Ubuntu: sudo apt-get install libegl1 libgl1 libxcb1 fontconfig fonts-dejavu-core"
  fi
fi
