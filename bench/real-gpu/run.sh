#!/usr/bin/env bash
# Runs weft's Dawn benchmarks on a machine with a real GPU and no Node.js, from the archive that
# `npm run bench:pack-gpu` wrote to .gpu-bench/. Run from the repository root:
#
#   bash bench/real-gpu/run.sh [bench ...]      (default: pick marquee instances geometry)
#
# WEFT_BENCH_ADAPTER (default: nvidia) is a case-insensitive pattern the adapter's description must match; every
# benchmark checks it again, so no table comes from a software rasteriser by mistake. Output goes to the terminal and,
# when $OUT is set (the device tool), to $OUT/<bench>.txt.
set -euo pipefail

fail() { echo "bench/real-gpu/run.sh: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/../.." && pwd)
archive="$repo/.gpu-bench/weft-bench-linux-x64.tar.xz"
unpacked=${WEFT_BENCH_UNPACK_DIR:-/tmp/weft-bench}
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(pick marquee instances geometry)
export WEFT_BENCH_ADAPTER=${WEFT_BENCH_ADAPTER-nvidia}

[ "$(uname -m)" = x86_64 ] || fail "the archive holds x86-64 binaries and this machine is $(uname -m)"
[ -f "$archive" ] || fail "$archive is missing: run 'npm run bench:pack-gpu' on a machine with the repository installed, and bring .gpu-bench along"

if [ ! -f "$unpacked/PACKED.txt" ] || [ "$archive" -nt "$unpacked/PACKED.txt" ]; then
  rm -rf "$unpacked" && mkdir -p "$unpacked"
  tar -C "$unpacked" -xJf "$archive"
  for deb in "$unpacked"/vulkan/*.deb; do
    [ -e "$deb" ] && dpkg -x "$deb" "$unpacked/vulkan/root"
  done
  touch "$unpacked/PACKED.txt"
fi
cat "$unpacked/PACKED.txt"

# The Vulkan loader and glvnd: the system's when it has them, else the packed ones (kept out of / so nothing there
# changes). NVIDIA's driver gives no Vulkan instance without glvnd's libGLdispatch beside it.
system_libs=$(ldconfig -p 2>/dev/null || true)
if ! grep -q 'libvulkan.so.1 ' <<<"$system_libs" || ! grep -q 'libGLdispatch.so.0 ' <<<"$system_libs"; then
  for lib in "$unpacked/vulkan/root/usr/lib/x86_64-linux-gnu" "$unpacked/vulkan/lib"; do
    [ -e "$lib/libvulkan.so.1" ] && export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  done
fi
# NVIDIA's container toolkit puts its Vulkan ICD here; the loader does not look there by itself.
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [ -z "${VK_DRIVER_FILES:-}${VK_ICD_FILENAMES:-}" ] && [ -f "$nvidia_icd" ]; then
  export VK_DRIVER_FILES=$nvidia_icd
fi
nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$nvidia_egl" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-$nvidia_egl}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true

if [ ! -e "$repo/node_modules" ]; then
  ln -s "$unpacked/node_modules" "$repo/node_modules"
elif [ "$(readlink -f "$repo/node_modules")" != "$(readlink -f "$unpacked/node_modules")" ]; then
  echo "using the node_modules already in $repo (not the packed one)"
fi
node="$unpacked/bin/node"
tsx="$repo/node_modules/tsx/dist/cli.mjs"
cd "$repo"

"$node" "$tsx" bench/real-gpu/check-adapter.ts || fail "no WebGPU adapter matching /$WEFT_BENCH_ADAPTER/i (see above); nothing was measured"

for bench in "${benches[@]}"; do
  [ -f "bench/$bench.ts" ] || fail "no benchmark bench/$bench.ts"
  echo "== bench:$bench ($(date -u +%FT%TZ))"
  start=$(date +%s)
  if [ -n "${OUT:-}" ]; then
    "$node" --expose-gc "$tsx" "bench/$bench.ts" 2>&1 | tee "$OUT/$bench.txt"
  else
    "$node" --expose-gc "$tsx" "bench/$bench.ts"
  fi
  echo "== bench:$bench took $(($(date +%s) - start)) s"
done
