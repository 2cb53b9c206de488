#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not installed yet, as root or
# through sudo (apt-get update first, once, only when something is missing).
#
#   scripts/apt-install-missing.sh PACKAGE...
set -euo pipefail

missing=()
for package in "$@"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
