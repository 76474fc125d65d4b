#!/usr/bin/env bash
# Installs Slurm (slurm-wlm: slurmctld, slurmd and the clients) and munge from Debian, for the
# test that runs a real single-node Slurm (tests/slurm/slurm_job_array.sh, ctest label
# `slurm`). Nothing is configured or started here: the test writes its own slurm.conf and
# munge key in a temporary folder and starts and stops its own daemons. scripts/setup.sh
# calls this when PTXBENCH_WITH_SLURM=1 (scripts/test.sh, and so .ci/run, sets it).
# Idempotent. Without root or sudo it says what is missing and leaves it (the test then skips,
# saying why).
set -euo pipefail
debs=(slurm-wlm munge)
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  if ! sudo -n true 2>/dev/null; then
    echo "setup-slurm: not installing ${missing[*]} (needs root or sudo); the slurm test will be skipped"
    exit 0
  fi
  sudo_cmd="sudo"
fi
echo "setup-slurm: installing Debian packages: ${missing[*]}"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
