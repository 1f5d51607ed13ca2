#!/usr/bin/env bash
# Installs what `npm run demo` (mode "demo") or `npm test` (mode "test") needs, only when missing.
# Safe to run repeatedly. Fails with a message naming the missing pieces when it cannot install them.
set -euo pipefail
mode="${1:-demo}"
root_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root_dir"

say() { printf '[weft bootstrap] %s\n' "$*"; }
fail() { printf '[weft bootstrap] ERROR: %s\n' "$*" >&2; exit 1; }

# --- Node.js ------------------------------------------------------------------------------------
node_version="$(node -p 'process.versions.node' 2>/dev/null || true)"
[ -n "$node_version" ] || fail "Node.js is missing: install Node.js 20.19+ (and npm)."
IFS=. read -r node_major node_minor _ <<<"$node_version"
if [ "$node_major" -lt 20 ] || { [ "$node_major" -eq 20 ] && [ "$node_minor" -lt 19 ]; }; then
  fail "Node.js $node_version is too old: weft needs Node.js 20.19 or newer."
fi

# --- npm packages (from the committed lock file) ------------------------------------------------
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
stamp="node_modules/.weft-lock-sha256"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --ignore-scripts
  echo "$lock_hash" > "$stamp"
fi

# --- System packages (Debian 12 + root only) ----------------------------------------------------
apt_updated=0
is_root() { [ "$(id -u)" -eq 0 ]; }
is_bookworm() { grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; }
apt_install() { # apt_install <description> <apt-get install args...>
  local what="$1"; shift
  if ! is_root || ! is_bookworm || ! command -v apt-get >/dev/null; then
    fail "$what is missing and cannot be installed automatically here (needs Debian 12 and root). Install: $*"
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ "$apt_updated" -eq 0 ]; then apt-get update -q; apt_updated=1; fi
  say "installing $what: apt-get install $*"
  apt-get install -y -q --no-install-recommends "$@"
}

# The mirror this machine already uses for Debian's 'bookworm' suite (deb822 .sources or one-line entries), so the
# backports suite comes from the same place.
debian_mirror() {
  local file
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
      {
        uris = ""; suites = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Suites:/) { suites = " " $i " "; sub(/^ Suites:/, " ", suites) }
        }
        if (suites ~ /[ \t]bookworm[ \t]/ && uris != "") { split(uris, u, /[ \t]+/); print u[1]; exit }
      }' "$file"
  done | head -n 1 | grep . && return 0
  grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    | sed -E 's/\[[^]]*\]//' | awk '$3 == "bookworm" { print $2; exit }'
}

# Debian 12's own Mesa (22.3) is too old for Dawn; Mesa from bookworm-backports works (DESIGN.md §7).
mesa_version="$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)"
mesa_major="${mesa_version%%.*}"; mesa_major="${mesa_major##*:}"
if ! [[ "$mesa_major" =~ ^[0-9]+$ ]] || [ "$mesa_major" -lt 24 ] || ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
  if is_root && is_bookworm && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    mirror="$(debian_mirror)"
    [ -n "$mirror" ] || fail "no configured apt source serves the Debian 'bookworm' suite; add one, or add bookworm-backports yourself"
    say "adding the bookworm-backports apt suite from $mirror"
    cat > /etc/apt/sources.list.d/weft-bookworm-backports.sources <<SRC
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  apt_install "Mesa's Vulkan driver (lavapipe) from bookworm-backports" \
    -t bookworm-backports mesa-vulkan-drivers libvulkan1
fi

if [ "$mode" = "test" ] && [ ! -x /usr/bin/chromium ]; then
  apt_install "Chromium (browser tests)" chromium
fi
exit 0
