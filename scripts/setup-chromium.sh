#!/usr/bin/env bash
# Installs headless Chromium (Debian's `chromium` package) and the DejaVu fonts, for the test
# that renders the HTML report (tests/report/chromium.sh). Called by scripts/setup.sh.
# Pinned to the Debian version below as far as the archive allows: Debian's security archive
# keeps only its newest Chromium, so where the pinned version is gone the current one is
# installed and named (update CHROMIUM_VERSION to it in the same change as anything it breaks).
# Idempotent; PTXBENCH_NO_CHROMIUM=1 skips it (the report test is then skipped, outside CI).
set -euo pipefail
CHROMIUM_VERSION=156.0.8078.114-1~deb12u1

[ "${PTXBENCH_NO_CHROMIUM:-}" = "1" ] && { echo "setup: PTXBENCH_NO_CHROMIUM=1: not installing Chromium"; exit 0; }
# The installed version of a package, or nothing. dpkg-query fails for a package it has never
# seen: under pipefail and `set -e` that ended this script on a fresh machine.
installed() {
  { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null || true; } |
    sed -n 's/^install ok installed //p'
}
sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
apt_install() { DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$@"; }

have=$(installed chromium)
if [ "$have" = "$CHROMIUM_VERSION" ] && [ -n "$(installed fonts-dejavu-core)" ]; then exit 0; fi
$sudo_cmd apt-get update -qq
if apt-cache madison chromium 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' |
    grep -qxF "$CHROMIUM_VERSION"; then
  echo "setup: installing chromium=$CHROMIUM_VERSION and fonts-dejavu-core"
  apt_install "chromium=$CHROMIUM_VERSION" fonts-dejavu-core
elif apt-cache show chromium >/dev/null 2>&1; then
  echo "setup: note: chromium $CHROMIUM_VERSION is no longer in the archive; installing its current version"
  apt_install chromium fonts-dejavu-core
  echo "setup: chromium $(installed chromium) installed (pinned: $CHROMIUM_VERSION)"
else
  echo "setup: note: no Debian chromium package here; the HTML report's Chromium test will be skipped"
fi
