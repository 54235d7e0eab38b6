#!/bin/sh
# asmevo-run --executor hip --time with Debian's real HIP runtime (package
# libamdhip64-5) when it is installed. Without a GPU the expected answer is
# "no device" and exit status 2; without the package the check is skipped
# and says so. Arguments: asmevo-run, code object, spec (kernel axpy_f32).
lib=/usr/lib/x86_64-linux-gnu/libamdhip64.so.5
if [ ! -e "$lib" ]; then
  echo "SKIPPED: Debian's libamdhip64-5 is not installed ($lib missing)"
  exit 0
fi
"$1" "$2" --kernel axpy_f32 --spec "$3" --executor hip --hip-runtime "$lib" \
  --time --reps 3
status=$?
echo "exit status $status"
test "$status" = 2
