#!/bin/sh
# Probes the HIP executor with Debian's real HIP runtime (package
# libamdhip64-5, bookworm) when it is installed. There is no GPU on the
# machines this project is tested on: the expected answer is the clean
# "no device" path, exit status 2. Without the package the check is skipped
# and says so (utils/install-deps.sh installs it; only the runtime
# libraries, which do not change how clang-22 compiles the test kernels).
lib=/usr/lib/x86_64-linux-gnu/libamdhip64.so.5
if [ ! -e "$lib" ]; then
  echo "SKIPPED: Debian's libamdhip64-5 is not installed ($lib missing)"
  exit 0
fi
"$1" --probe-hip --hip-runtime "$lib"
status=$?
echo "exit status $status"
