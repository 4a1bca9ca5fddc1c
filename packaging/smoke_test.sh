#!/usr/bin/env bash
# Smoke test of the Linux installer on this machine: build the bundle and the .deb, install the .deb,
# run the installed `pdfdesk --self-test` offscreen, then start a real window under Xvfb, grab a
# screenshot and check that it is not blank. Prints build time, sizes and cold start time.
# Usage: bash packaging/smoke_test.sh      (needs root or sudo for apt-get and dpkg)
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends xvfb x11-utils imagemagick desktop-file-utils xauth time >/dev/null

desktop-file-validate resources/pdfdesk.desktop

started=$(date +%s)
bash packaging/build_bundle.sh
bash packaging/build_deb.sh
build_s=$(( $(date +%s) - started ))

deb=$(ls -t dist/pdfdesk_*.deb | head -n1)
$sudo apt-get install -y -qq "./$deb" >/dev/null   # resolves the Depends line from Debian's packages
test -x /usr/bin/pdfdesk
test -f /usr/share/applications/pdfdesk.desktop
test -f /usr/share/icons/hicolor/256x256/apps/pdfdesk.png

home=$(mktemp -d)
export PDFDESK_HOME="$home"
cold_start=$( { /usr/bin/time -f "%e" env QT_QPA_PLATFORM=offscreen /usr/bin/pdfdesk --self-test >"$home/self-test.log"; } 2>&1 | tail -n1 )
cat "$home/self-test.log"
grep -q "self-test OK" "$home/self-test.log"

# A real window on a virtual screen: the bundled sample opens; the screenshot must show it.
display=:93
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
trap 'kill "$app_pid" "$xvfb_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do xdpyinfo -display "$display" >/dev/null 2>&1 && break; sleep 0.1; done
DISPLAY=$display QT_QPA_PLATFORM=xcb /usr/bin/pdfdesk >"$home/window.log" 2>&1 &
app_pid=$!
shot="$home/window.png"
for _ in $(seq 60); do
    sleep 0.5
    kill -0 "$app_pid" 2>/dev/null || { cat "$home/window.log"; echo "smoke: the window exited" >&2; exit 1; }
    DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -qi '"pdfdesk' && break
done
sleep 3  # let the first pages paint
DISPLAY=$display import -window root "$shot"
colours=$(convert "$shot" -format "%k" info:)
spread=$(convert "$shot" -colorspace Gray -format "%[fx:standard_deviation]" info:)
echo "screenshot: $shot, $colours colours, grey standard deviation $spread"
awk -v c="$colours" -v s="$spread" 'BEGIN { exit !(c > 50 && s > 0.05) }' || { echo "smoke: the window looks blank" >&2; exit 1; }
kill "$app_pid"; wait "$app_pid" 2>/dev/null || true

echo "smoke: OK — build ${build_s} s, bundle $(du -sh dist/pdfdesk | cut -f1), deb $(du -h "$deb" | cut -f1), installed cold start (self-test) ${cold_start} s"
