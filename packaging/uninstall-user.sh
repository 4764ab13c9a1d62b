#!/bin/sh
# Remove the BriefDesk that install-user.sh installed for this user: exactly the paths listed in
# its manifest ($XDG_DATA_HOME/briefdesk-app/install-manifest.txt), nothing else. Folders it
# created go only when they are empty again. Your data (~/.local/share/BriefDesk: runs,
# artifacts, corpus) and your keys in the keyring are not touched.
set -eu

DATA_HOME="${XDG_DATA_HOME:-$HOME/.local/share}"
case "$DATA_HOME" in /*) ;; *) DATA_HOME="$HOME/.local/share" ;; esac
APP_DIR="$DATA_HOME/briefdesk-app"
MANIFEST="$APP_DIR/install-manifest.txt"

if [ ! -f "$MANIFEST" ]; then
  printf 'uninstall-user.sh: BriefDesk is not installed for this user (no %s)\n' "$MANIFEST" >&2
  exit 1
fi
entries="$(grep -v '^#' "$MANIFEST" || true)"

# Files and links first, then the bundle, then the folders, innermost first.
while IFS= read -r line; do
  kind="${line%% *}"
  path="${line#* }"
  if [ "$kind" = f ] && [ -f "$path" ] && [ ! -L "$path" ]; then rm -f "$path"; fi
  if [ "$kind" = l ] && [ -L "$path" ]; then rm -f "$path"; fi
done <<EOF
$entries
EOF
while IFS= read -r line; do
  kind="${line%% *}"
  path="${line#* }"
  # Only ever a bundle: the marker file says so.
  if [ "$kind" = t ] && [ -f "$path/.briefdesk-bundle" ]; then rm -rf "$path"; fi
done <<EOF
$entries
EOF
printf '%s\n' "$entries" | awk '{ lines[NR] = $0 } END { for (i = NR; i > 0; i--) print lines[i] }' |
  while IFS= read -r line; do
    kind="${line%% *}"
    path="${line#* }"
    if [ "$kind" = d ] && [ -d "$path" ]; then rmdir "$path" 2>/dev/null || true; fi
  done
printf 'BriefDesk removed from %s\n' "$APP_DIR" >&2
