#!/usr/bin/env bash
# Runs its arguments with an OS keychain available.
#
# On Linux with dbus-run-session and gnome-keyring-daemon installed, the command runs inside a private
# D-Bus session with a fresh, unlocked gnome-keyring Secret Service whose HOME and XDG dirs live in a
# temp folder, so a developer's real keyring is never read or written. The folder is removed on exit.
# Elsewhere (macOS, Windows via Git Bash, Linux without the tools) the command runs as is: the platform
# keychain, or the vault's file fallback, is used.
#
# Usage: bash scripts/with-keyring.sh npx vitest run src/main/vault
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

if [ "$(uname -s)" != "Linux" ] || ! command -v dbus-run-session >/dev/null 2>&1 \
  || ! command -v gnome-keyring-daemon >/dev/null 2>&1; then
  echo "with-keyring: no private Secret Service set up here; running the command as is." >&2
  exec "$@"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/with-keyring.XXXXXX")"
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

mkdir -p "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp/runtime"

# The keyring password only protects a throwaway keyring inside $tmp.
export WITH_KEYRING_PASSWORD="with-keyring-$$-$RANDOM"

# Not exec: the trap must run after the session ends.
set +e
HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache" \
  XDG_RUNTIME_DIR="$tmp/runtime" \
  dbus-run-session -- bash -c '
    # --unlock reads the password on stdin and creates the "login" keyring unlocked. The daemon can
    # answer before that keyring is ready (a test then meets "unlock prompt was dismissed"), so where
    # secret-tool is installed, wait until an entry can be stored, restarting the daemon if it cannot.
    printf "%s" "$WITH_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    if command -v secret-tool >/dev/null 2>&1; then
      for attempt in 1 2 3 4 5 6 7 8 9 10; do
        if printf probe | timeout 5 secret-tool store --label=with-keyring-probe with-keyring probe >/dev/null 2>&1; then
          secret-tool clear with-keyring probe >/dev/null 2>&1
          break
        fi
        sleep 0.3
        if [ "$attempt" = 5 ]; then
          printf "%s" "$WITH_KEYRING_PASSWORD" | gnome-keyring-daemon --replace --unlock --components=secrets >/dev/null
        fi
      done
    fi
    unset WITH_KEYRING_PASSWORD
    exec "$@"' _ "$@"
status=$?
set -e
exit "$status"
