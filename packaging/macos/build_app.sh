#!/usr/bin/env bash
# Build pdfdesk.app and a compressed .dmg on macOS: PyInstaller's BUNDLE step (packaging/pdfdesk.spec)
# makes the .app; hdiutil wraps it with an /Applications link. Signing and notarisation need an Apple
# Developer ID: set CODESIGN_IDENTITY to sign (notarise with `xcrun notarytool` afterwards).
# Usage: bash packaging/macos/build_app.sh   ->  dist/pdfdesk-<version>.dmg
set -euo pipefail
cd "$(dirname "$0")/../.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n1)
bash packaging/build_bundle.sh   # on macOS PyInstaller also writes dist/pdfdesk.app (pdfdesk.spec)
QT_QPA_PLATFORM=offscreen dist/pdfdesk.app/Contents/MacOS/pdfdesk --self-test
if [ -n "${CODESIGN_IDENTITY:-}" ]; then
    codesign --force --deep --options runtime --timestamp --sign "$CODESIGN_IDENTITY" dist/pdfdesk.app
    codesign --verify --strict dist/pdfdesk.app
fi
stage=build/dmg
rm -rf "$stage" && mkdir -p "$stage"
cp -R dist/pdfdesk.app "$stage/"
ln -s /Applications "$stage/Applications"
hdiutil create -volname "pdfdesk $version" -srcfolder "$stage" -ov -format UDZO "dist/pdfdesk-$version.dmg"
echo "dmg: dist/pdfdesk-$version.dmg"
