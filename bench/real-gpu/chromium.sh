#!/usr/bin/env bash
# Runs weft's Chromium benchmarks on a machine with a real GPU and no browser, Node.js or network, from the two
# archives bench/real-gpu/pack-chromium.sh wrote (a device call carries at most 64 MiB, so they travel in two calls
# in a row, while the machine stays warm; everything unpacks into /tmp, nothing into /):
#
#   bash chromium.sh unpack DIR              unpacks a chunk folder (.gpu-chrome/c1, c2) into $WEFT_CHROME_DIR
#   bash chromium.sh check                   prints the GPU, the Vulkan driver files, missing libraries and the
#                                            adapter a Chromium page gets
#   bash chromium.sh run [bench[:rounds] ...]  benches three, babylon, browser (default: three:5 babylon:5 browser:5)
#
# WEFT_BENCH_LIMIT_S (default 300) bounds each bench's run.
# WEFT_BENCH_ADAPTER (default: nvidia) is the case-insensitive pattern the page's WebGPU adapter must match; every bench
# refuses to measure otherwise. Tables go to the terminal and, when $OUT is set (the device tool), to $OUT/<bench>.txt.
set -euo pipefail

fail() { echo "chromium.sh: $*" >&2; exit 1; }
dir=${WEFT_CHROME_DIR:-/tmp/weft-chrome}
export WEFT_BENCH_ADAPTER=${WEFT_BENCH_ADAPTER-nvidia}

# A chunk folder holds rest.tar.xz and/or pieces of chrome.tar.xz (chrome.parts lists them all); pieces wait in
# $dir/parts until the last one has come.
unpack() {
  mkdir -p "$dir/parts"
  local found=0
  if [ -f "$1/rest.tar.xz" ]; then
    tar -C "$dir" -xJf "$1/rest.tar.xz" && found=1 && echo "unpacked $1/rest.tar.xz into $dir"
  fi
  for part in "$1"/chrome.tar.xz.part-*; do
    [ -f "$part" ] && cp "$part" "$1/chrome.parts" "$dir/parts/" && found=1 && echo "kept $part"
  done
  [ $found = 1 ] || fail "no rest.tar.xz or chrome.tar.xz.part-* in $1"
  local part missing=0
  while read -r part; do [ -f "$dir/parts/$part" ] || missing=1; done <"$dir/parts/chrome.parts"
  if [ $missing = 0 ] && [ ! -x "$dir/chromium/chromium-headless-shell" ]; then
    (cd "$dir/parts" && xargs cat <chrome.parts) | tar -C "$dir" -xJf - && echo "unpacked Chromium into $dir"
    rm -rf "$dir/parts"
  fi
  ls "$dir"
}

# The environment Chromium's GPU process needs: the packed libraries and NVIDIA's Vulkan driver (the container
# toolkit's ICD file lies where the loader does not look by itself).
environment() {
  [ -x "$dir/chromium/chromium-headless-shell" ] || fail "$dir has no Chromium: unpack chrome.tar.xz first"
  [ -x "$dir/bin/node" ] || fail "$dir has no Node.js: unpack rest.tar.xz first"
  export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export WEFT_CHROMIUM="$dir/chromium/chromium-headless-shell"
  export WEFT_BENCH_PAGES="$dir/pages"
  if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ]; then
    for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json \
      /etc/vulkan/icd.d/nvidia_icd.json; do
      if [ -f "$icd" ]; then export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd; break; fi
    done
  fi
  local egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [ -f "$egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-$egl}
  return 0
}

check() {
  environment
  cat "$dir/PACKED.txt" 2>/dev/null || true
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-(none found)}"
  [ -n "${VK_DRIVER_FILES:-}" ] && cat "$VK_DRIVER_FILES"
  ls -l /dev/nvidia* /dev/dri 2>&1 | head -20 || true
  local missing
  missing=$(ldd "$WEFT_CHROMIUM" "$dir/chromium/libvulkan.so.1" | grep 'not found' | sort -u || true)
  echo "libraries missing: ${missing:-none}"
  if [ -n "${VK_DRIVER_FILES:-}" ]; then
    local driver
    driver=$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$VK_DRIVER_FILES")
    echo "driver $driver: $(ldd "$(command -v "$driver" || echo "$driver")" 2>&1 | grep -c 'not found') libraries missing"
  fi
  # The adapter a page gets, with Chromium's own log (pw:browser) kept in full under $OUT and its errors shown here.
  local log=${OUT:-/tmp}/adapter.txt status=0
  (cd "$dir/run" && DEBUG=pw:browser "$dir/bin/node" adapter.mjs >"$log" 2>&1) || status=$?
  grep -v 'pw:browser' "$log" || true
  grep 'pw:browser' "$log" | grep -iE 'error|vulkan|gpu|fail|dawn' | cut -c1-400 | head -40 || true
  [ $status = 0 ] || fail "no WebGPU adapter matching /$WEFT_BENCH_ADAPTER/i in Chromium (see above); nothing was measured"
}

run() {
  check
  local benches=("$@")
  [ ${#benches[@]} -gt 0 ] || benches=(three:5 babylon:5 browser:5)
  # One stuck bench must not use up a device call's 10 minutes: each gets WEFT_BENCH_LIMIT_S (default 300 s).
  local limit=${WEFT_BENCH_LIMIT_S:-300}
  cd "$dir/run"
  for entry in "${benches[@]}"; do
    local bench=${entry%%:*} rounds=${entry#*:} script
    [ "$rounds" = "$entry" ] && rounds=5
    case $bench in
      three) script=three-pick/run.mjs ;;
      babylon) script=browser-pick/run-babylon.mjs ;;
      browser) script=browser-pick/run.mjs ;;
      *) fail "no bench '$bench' (three, babylon, browser)" ;;
    esac
    echo "== bench:$bench, $rounds rounds ($(date -u +%FT%TZ))"
    local start status=0
    start=$(date +%s)
    if [ -n "${OUT:-}" ]; then
      timeout "$limit" "$dir/bin/node" "$script" "$rounds" 2>&1 | tee "$OUT/$bench.txt" || status=$?
    else
      timeout "$limit" "$dir/bin/node" "$script" "$rounds" || status=$?
    fi
    echo "== bench:$bench exited $status after $(($(date +%s) - start)) s"
  done
}

case ${1:-} in
  unpack) unpack "${2:?unpack needs the folder holding the archives}" ;;
  check) check ;;
  run) shift; run "$@" ;;
  *) fail "usage: chromium.sh unpack DIR | check | run [three|babylon|browser[:rounds] ...]" ;;
esac
