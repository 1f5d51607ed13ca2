#!/usr/bin/env bash
# Packs what the Chromium benchmarks (bench:three, bench:babylon, bench:browser) need on a device machine that has a
# GPU but no browser, no Node.js and no network, into .gpu-chrome/ (ignored by git; add `/.gpu-chrome/` to
# .git/info/exclude). Two archives:
#   chrome.tar.xz   Debian's chromium-headless-shell with the parts of chromium-common it reads (no validation layer,
#                   no locales but en-US), 64 MiB;
#   rest.tar.xz     this Node.js, playwright-core, the shared libraries Chromium links to (taken from this machine,
#                   less glibc, libgcc and libstdc++, which the device has newer) and NSS's modules, glvnd (NVIDIA's
#                   Vulkan driver needs libGLdispatch), the pages built by build-pages.ts and the runners bundled by
#                   esbuild, 36 MiB.
# A device call carries at most 64 MiB with the repository, so they travel as two chunks, each with chromium.sh and
# carried by two calls in a row while the machine stays warm (~30 s): .gpu-chrome/c1 (the first 50 MiB of
# chrome.tar.xz) and .gpu-chrome/c2 (the rest of it and rest.tar.xz); see README.md. chromium.sh unpacks them into
# /tmp and runs the benchmarks. Run from the repository root on x86-64 Debian with apt-get (about 10 min on 2 cores):
#
#   bash bench/real-gpu/pack-chromium.sh            WEFT_PACK_REST_ONLY=1 keeps an existing chrome.tar.xz
set -euo pipefail

fail() { echo "bench/real-gpu/pack-chromium.sh: $*" >&2; exit 1; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/.gpu-chrome"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ "$(uname -m)" = x86_64 ] || fail "the device machines are x86-64 and this one is $(uname -m)"
cd "$repo"
mkdir -p "$out"

# Chromium: the package's files under /usr/lib/chromium, unpacked here (never into /).
(cd "$work" && apt-get download chromium-headless-shell chromium-common 2>&1 | grep -v unsandboxed || true)
mkdir -p "$work/deb"
for deb in "$work"/*.deb; do dpkg -x "$deb" "$work/deb"; done
chrome_src="$work/deb/usr/lib/chromium"
chrome="$work/chrome/chromium"
mkdir -p "$chrome/locales"
for file in chromium-headless-shell headless_lib_data.pak headless_lib_strings.pak headless_command_resources.pak \
  icudtl.dat snapshot_blob.bin v8_context_snapshot.bin libEGL.so libGLESv2.so libvulkan.so.1 libvk_swiftshader.so \
  vk_swiftshader_icd.json; do
  [ -e "$chrome_src/$file" ] && cp "$chrome_src/$file" "$chrome/"
done
cp "$chrome_src/locales/en-US.pak" "$chrome/locales/"
dpkg-deb -f "$work"/chromium-headless-shell_*.deb Version >"$chrome/VERSION"
[ -n "${WEFT_PACK_REST_ONLY:-}" ] && [ -f "$out/chrome.tar.xz" ] ||
  tar -C "$work/chrome" -cf "$out/chrome.tar.xz" -I 'xz -9 -T0' .

# The rest: Node.js, playwright-core, Chromium's libraries, glvnd, pages and runners.
rest="$work/rest"
mkdir -p "$rest/bin" "$rest/lib" "$rest/node_modules" "$rest/run/three-pick" "$rest/run/browser-pick"
cp "$(command -v node)" "$rest/bin/node"
cp -rL node_modules/playwright-core "$rest/node_modules/"
skip='/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64|libgcc_s|libstdc\+\+)\.so'
for binary in "$chrome/chromium-headless-shell" "$chrome/libvulkan.so.1"; do
  ldd "$binary" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -Ev "$skip" | while read -r lib; do cp -L "$lib" "$rest/lib/"; done
if ldd "$chrome/chromium-headless-shell" | grep -q 'not found'; then
  fail "Chromium needs libraries this machine lacks: $(ldd "$chrome/chromium-headless-shell" | grep 'not found')"
fi
# NSS opens its crypto modules at run time (dlopen, from libnss3's folder); Chromium aborts when NSS cannot start.
for lib in libsoftokn3.so libfreebl3.so libfreeblpriv3.so libnssdbm3.so libnssckbi.so; do
  [ -e "/usr/lib/x86_64-linux-gnu/$lib" ] && cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$rest/lib/"
done
for lib in libGLdispatch.so.0 libGLX.so.0 libEGL.so.1 libOpenGL.so.0; do
  [ -e "/usr/lib/x86_64-linux-gnu/$lib" ] && cp -L "/usr/lib/x86_64-linux-gnu/$lib" "$rest/lib/"
done
npx tsx bench/real-gpu/build-pages.ts "$rest/pages"
# The runners find their pages by their own folder's name (three-pick, browser-pick): each bundle keeps it.
bundle() { npx esbuild "$1" --bundle --platform=node --format=esm --target=node20 --external:playwright-core --external:vite \
  '--external:*browser-rig.js' --log-level=warning --outfile="$2"; }
bundle bench/three-pick/run.ts "$rest/run/three-pick/run.mjs"
bundle bench/browser-pick/run.ts "$rest/run/browser-pick/run.mjs"
bundle bench/browser-pick/run-babylon.ts "$rest/run/browser-pick/run-babylon.mjs"
bundle bench/real-gpu/chromium-adapter.ts "$rest/run/adapter.mjs"
# Bundles that still import Vite (browser-rig.ts) are loaded only without WEFT_BENCH_PAGES; make sure they resolve.
echo '{"type":"module"}' >"$rest/run/package.json"
{
  echo "node $(node --version); playwright-core $(node -p "require('./node_modules/playwright-core/package.json').version")"
  echo "chromium-headless-shell $(cat "$chrome/VERSION"); packed $(date -u +%FT%TZ) from $(git rev-parse --short HEAD)"
} >"$rest/PACKED.txt"
tar -C "$rest" -cf "$out/rest.tar.xz" -I 'xz -9 -T0' .

rm -rf "$out/c1" "$out/c2" && mkdir -p "$out/c1" "$out/c2"
split -b 50M -d "$out/chrome.tar.xz" "$out/c1/chrome.tar.xz.part-"
mv "$out"/c1/chrome.tar.xz.part-0[1-9] "$out/c2/"
(cd "$out" && ls c1/chrome.tar.xz.part-* c2/chrome.tar.xz.part-* | xargs -n1 basename) >"$out/c1/chrome.parts"
cp "$out/c1/chrome.parts" "$out/c2/"
ln "$out/rest.tar.xz" "$out/c2/rest.tar.xz" 2>/dev/null || cp "$out/rest.tar.xz" "$out/c2/"
cp bench/real-gpu/chromium.sh "$out/c1/" && cp bench/real-gpu/chromium.sh "$out/c2/"
du -sh "$out"/c1 "$out"/c2 && ls -la "$out"/c1 "$out"/c2
