#!/usr/bin/env bash
# Chromium for the review console's browser tests (playwright-core drives Debian's chromium, not a downloaded one).
# Source this file, then call chromium_install: it apt-installs chromium only when /usr/bin/chromium is missing.

CHROMIUM_PATH=/usr/bin/chromium

chromium_install() {
  if [ -x "$CHROMIUM_PATH" ]; then
    echo "chromium: $("$CHROMIUM_PATH" --version 2>/dev/null | head -1)"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "chromium: installing from apt"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null || {
    echo "chromium: apt-get install chromium failed" >&2
    return 1
  }
  [ -x "$CHROMIUM_PATH" ] || { echo "chromium: installed, but $CHROMIUM_PATH is missing" >&2; return 1; }
  echo "chromium: $("$CHROMIUM_PATH" --version 2>/dev/null | head -1)"
}
