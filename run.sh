#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs asmevo on the
# bundled example kernels with the embedded CPU emulator, printing what it did.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$root/utils/install-deps.sh"
"$root/utils/build.sh"
exec "$root/utils/main-job.sh" "$@"
