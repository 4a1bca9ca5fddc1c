#!/usr/bin/env bash
# Package dist/pdfdesk/ (from build_bundle.sh) as a .deb: the bundle under /opt/pdfdesk, the command
# /usr/bin/pdfdesk, a desktop entry for application/pdf and hicolor icons; zstd-compressed.
# Depends is computed by dpkg-shlibdeps from the libraries the bundle's programs and Qt plugins
# link but do not carry, so it names exactly the Debian packages they come from, with versions.
# Usage: bash packaging/build_deb.sh   ->  dist/pdfdesk_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ -x dist/pdfdesk/pdfdesk ] || { echo "build_deb: run packaging/build_bundle.sh first" >&2; exit 1; }

# dpkg-shlibdeps finds the package of each library the bundle leaves to the system among the
# installed packages, so those libraries must be installed here (Wayland's are not by default).
bash scripts/apt_install_missing.sh dpkg-dev libwayland-client0 libwayland-cursor0 libwayland-egl1

version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n1)
arch=$(dpkg --print-architecture)
stage="$root/build/deb/pdfdesk_${version}_${arch}"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/opt" "$stage/usr/bin" "$stage/usr/share/applications" \
         "$stage/usr/share/doc/pdfdesk"
cp -a dist/pdfdesk "$stage/opt/pdfdesk"
chmod -R u=rwX,go=rX "$stage/opt/pdfdesk"   # whatever the build umask was
find "$stage/opt/pdfdesk/_internal" -type f \( -name '*.so' -o -name '*.so.*' \) -exec chmod 644 {} +
ln -s /opt/pdfdesk/pdfdesk "$stage/usr/bin/pdfdesk"   # absolute: it crosses top-level folders
# lintian checks Debian's own packaging rules; these are what a self-contained bundle in /opt is
# made of, so they are declared here instead of reported on every build.
install -D -m 644 /dev/stdin "$stage/usr/share/lintian/overrides/pdfdesk" <<'OVERRIDES'
# The issue asks for the bundle under /opt/pdfdesk.
pdfdesk: dir-or-file-in-opt
# A PyInstaller bundle carries Python, Qt and MuPDF with their own copies of zlib, libpng, freetype
# and the like, finds them through RPATH, and includes Python's stock extension modules.
pdfdesk: embedded-library
pdfdesk: custom-library-search-path
pdfdesk: library-not-linked-against-libc
pdfdesk: shared-library-lacks-prerequisites
# PyInstaller's bootloader is built without PIE.
pdfdesk: hardening-no-pie [opt/pdfdesk/pdfdesk]
OVERRIDES
install -m 644 resources/pdfdesk.desktop "$stage/usr/share/applications/pdfdesk.desktop"
for png in resources/icons/pdfdesk-*.png; do
    size=$(basename "$png" .png); size=${size#pdfdesk-}
    install -D -m 644 "$png" "$stage/usr/share/icons/hicolor/${size}x${size}/apps/pdfdesk.png"
done
install -D -m 644 resources/pdfdesk.svg "$stage/usr/share/icons/hicolor/scalable/apps/pdfdesk.svg"

# Debian's copyright format; the AGPL is not among /usr/share/common-licenses, so its text follows.
{
    cat <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pdfdesk
Comment: /opt/pdfdesk is a PyInstaller bundle. Besides pdfdesk it carries the Python runtime
 (PSF-2.0), Qt 6 through PySide6-Essentials (LGPL-3.0), PyMuPDF and MuPDF (AGPL-3.0), whoosh-reloaded
 (BSD-2-Clause), snowballstemmer (BSD-3-Clause), httpx, openai, anthropic, mcp (MIT / BSD / Apache-2.0) and their dependencies, each under
 its own licence; their licence files are in /opt/pdfdesk/_internal/*.dist-info.

Files: *
Copyright: pdfdesk developers
License: AGPL-3.0-or-later
COPYRIGHT
    sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' LICENSE
} > "$stage/usr/share/doc/pdfdesk/copyright"
printf 'pdfdesk (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- pdfdesk developers <pdfdesk@users.noreply.invalid>  %s\n' \
    "$version" "$version" "$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")" \
    | gzip -9n > "$stage/usr/share/doc/pdfdesk/changelog.gz"

# Depends: dpkg-shlibdeps over every ELF file in the bundle; libraries the bundle carries itself are
# found through -l and left out. It wants a debian/control to read, so it runs in a scratch folder.
shlib=$(mktemp -d)
trap 'rm -rf "$shlib"' EXIT
mkdir -p "$shlib/debian"
printf 'Source: pdfdesk\n\nPackage: pdfdesk\nArchitecture: any\n' > "$shlib/debian/control"
mapfile -t elves < <(find "$stage/opt/pdfdesk" -type f \( -name '*.so' -o -name '*.so.*' -o -path '*/opt/pdfdesk/pdfdesk' \))
mapfile -t libdirs < <(for f in "${elves[@]}"; do dirname "$f"; done | sort -u)
# It maps a library the bundle carries to the system package of the same name too, so those
# packages are excluded (-x): the bundle does not need them installed.
mapfile -t carried < <(find "$stage/opt/pdfdesk/_internal" -maxdepth 1 -name 'lib*.so*' -printf '%f\n' |
                       while read -r soname; do { dpkg -S "*/$soname" 2>/dev/null || true; } | cut -d: -f1; done | sort -u)
# (its warnings about Python symbols in extension modules and unused links are expected: dropped)
depends=$(cd "$shlib" && dpkg-shlibdeps -O --ignore-missing-info "${libdirs[@]/#/-l}" "${carried[@]/#/-x}" \
          "${elves[@]}" 2>"$shlib/log" \
          | sed -n 's/^shlibs:Depends=//p') || true
[ -n "$depends" ] || { grep -v "warning:" "$shlib/log" >&2; echo "build_deb: dpkg-shlibdeps failed" >&2; exit 1; }
# Data the bundled copies of libfontconfig and libxkbcommon read from the system (their Debian
# packages depend on these; the bundle carries the libraries but not the data): fonts and their
# configuration, and the keyboard layouts.
depends="$depends, fontconfig-config, xkb-data"

installed_kb=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: pdfdesk
Version: ${version}
Architecture: ${arch}
Maintainer: pdfdesk developers <pdfdesk@users.noreply.invalid>
Installed-Size: ${installed_kb}
Depends: ${depends}
Recommends: tesseract-ocr, tesseract-ocr-eng, tesseract-ocr-osd, tesseract-ocr-deu, tesseract-ocr-fra,
 tesseract-ocr-spa, tesseract-ocr-ita, tesseract-ocr-por, tesseract-ocr-rus, tesseract-ocr-chi-sim,
 tesseract-ocr-jpn, tesseract-ocr-ara, mythes-ru, mythes-ar, xdg-utils
Section: text
Priority: optional
Description: desktop workbench for reviewing PDFs with an embedded agent
 Read PDFs in a fast viewer, search them by keyword or meaning (by page or by
 section), and ask questions whose answers cite the pages they come from. The
 same PDF tools are available from the command line and over MCP.
CONTROL
# No maintainer scripts: the desktop database and the icon cache are refreshed by the dpkg triggers
# of desktop-file-utils and the hicolor theme.

out="dist/pdfdesk_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zzstd -z3 --build "$stage" "$out" >/dev/null
echo "deb: $out ($(du -h "$out" | cut -f1)); Depends: $depends"
