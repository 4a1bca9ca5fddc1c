#!/usr/bin/env bash
# Package dist/pdfdesk/ (from build_bundle.sh) as a .deb: the bundle under /opt/pdfdesk, the command
# /usr/bin/pdfdesk, a desktop entry for application/pdf and hicolor icons. zstd-compressed.
# Usage: bash packaging/build_deb.sh   ->  dist/pdfdesk_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x dist/pdfdesk/pdfdesk ] || { echo "build_deb: run packaging/build_bundle.sh first" >&2; exit 1; }

version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n1)
arch=$(dpkg --print-architecture)
stage=build/deb/pdfdesk_${version}_${arch}
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/opt" "$stage/usr/bin" "$stage/usr/share/applications" \
         "$stage/usr/share/doc/pdfdesk"
cp -a dist/pdfdesk "$stage/opt/pdfdesk"
ln -s /opt/pdfdesk/pdfdesk "$stage/usr/bin/pdfdesk"
install -m 644 resources/pdfdesk.desktop "$stage/usr/share/applications/pdfdesk.desktop"
for png in resources/icons/pdfdesk-*.png; do
    size=$(basename "$png" .png); size=${size#pdfdesk-}
    install -D -m 644 "$png" "$stage/usr/share/icons/hicolor/${size}x${size}/apps/pdfdesk.png"
done
install -D -m 644 resources/pdfdesk.svg "$stage/usr/share/icons/hicolor/scalable/apps/pdfdesk.svg"
install -m 644 LICENSE "$stage/usr/share/doc/pdfdesk/copyright"

# The bundle carries Python, Qt and MuPDF; what it still takes from the system is the C library and
# the display stack Qt's xcb plugin loads at run time.
installed_kb=$(du -sk "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: pdfdesk
Version: ${version}
Architecture: ${arch}
Maintainer: pdfdesk developers <pdfdesk@users.noreply.invalid>
Installed-Size: ${installed_kb}
Depends: libc6 (>= 2.31), libfontconfig1, libfreetype6, libglib2.0-0, libdbus-1-3, libegl1, libgl1, libxkbcommon0, libxkbcommon-x11-0, libx11-xcb1, libxcb1, libxcb-cursor0, libxcb-icccm4, libxcb-image0, libxcb-keysyms1, libxcb-randr0, libxcb-render-util0, libxcb-shape0, libxcb-xfixes0, libxcb-xkb1
Recommends: tesseract-ocr, xdg-utils
Section: text
Priority: optional
Description: desktop workbench for reviewing PDFs with an embedded agent
 Read PDFs in a fast viewer, search them by keyword or meaning (by page or by
 section), and ask questions whose answers cite the pages they come from. The
 same PDF tools are available from the command line and over MCP.
CONTROL
cat > "$stage/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = "configure" ]; then
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q /usr/share/applications || true
    command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t /usr/share/icons/hicolor || true
fi
exit 0
POSTINST
cp "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"
sed -i 's/"\$1" = "configure"/"$1" = "remove" ] || [ "$1" = "purge"/' "$stage/DEBIAN/postrm"
chmod 755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/postrm"

out="dist/pdfdesk_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zzstd -z3 --build "$stage" "$out" >/dev/null
echo "deb: $out ($(du -h "$out" | cut -f1))"
