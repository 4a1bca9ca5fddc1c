#!/usr/bin/env bash
# Smoke test of the Linux installer on this machine (Debian/Ubuntu): build the bundle and the .deb,
# install the .deb with apt (so its Depends must resolve), run the installed `pdfdesk --self-test`
# offscreen (cold, then warm) and on an X server, then start the real window under Xvfb, grab a
# screenshot and check that it shows a rendered page. Prints build time, sizes and start times.
# Usage: bash packaging/smoke_test.sh   (root or sudo: apt-get and dpkg; ~5 minutes, mostly the build)
#   KEEP_INSTALLED=1  leave pdfdesk installed afterwards (default: removed again, which is checked too)
# Outputs: dist/smoke/ (window.png, logs, lintian.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
out=dist/smoke
rm -rf "$out" && mkdir -p "$out"
fail() { echo "smoke: FAILED: $*" >&2; exit 1; }

$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends xvfb x11-utils imagemagick desktop-file-utils xauth time \
    dpkg-dev >/dev/null

desktop-file-validate resources/pdfdesk.desktop || fail "resources/pdfdesk.desktop does not validate"

started=$(date +%s)
bash packaging/build_bundle.sh | tee "$out/build.log"
bash packaging/build_deb.sh | tee -a "$out/build.log"
build_s=$(( $(date +%s) - started ))
version=$(sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml | head -n1)
deb="dist/pdfdesk_${version}_$(dpkg --print-architecture).deb"

if command -v lintian >/dev/null; then   # optional: apt-get install lintian
    lintian --tag-display-limit 0 "$deb" >"$out/lintian.txt" 2>&1 || true
    echo "lintian: $(grep -c '^E:' "$out/lintian.txt" || true) errors, $(grep -c '^W:' "$out/lintian.txt" || true) warnings (dist/smoke/lintian.txt)"
fi

# Install as a user would; without Recommends, so Depends alone must be enough to run.
dpkg-query -W pdfdesk >/dev/null 2>&1 && $sudo apt-get remove -y -qq pdfdesk >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "./$deb" >/dev/null || fail "apt could not install $deb"
for f in /usr/bin/pdfdesk /opt/pdfdesk/pdfdesk /usr/share/applications/pdfdesk.desktop \
         /usr/share/icons/hicolor/256x256/apps/pdfdesk.png /usr/share/icons/hicolor/scalable/apps/pdfdesk.svg; do
    [ -e "$f" ] || fail "$f was not installed"
done
desktop-file-validate /usr/share/applications/pdfdesk.desktop || fail "the installed desktop entry does not validate"
grep -q 'application/pdf=.*pdfdesk.desktop' /usr/share/applications/mimeinfo.cache 2>/dev/null \
    || fail "the desktop database does not list pdfdesk for application/pdf"
/usr/bin/pdfdesk --version | grep -qx "pdfdesk $version" || fail "pdfdesk --version does not say $version"

# Every library Qt's xcb platform plugin needs must resolve (from the bundle or from Depends).
missing=$(LD_LIBRARY_PATH=/opt/pdfdesk/_internal ldd /opt/pdfdesk/_internal/PySide6/Qt/plugins/platforms/libqxcb.so \
          | grep "not found" || true)
[ -z "$missing" ] || fail "the xcb platform plugin misses: $missing"

home=$(mktemp -d)
export PDFDESK_HOME="$home"
self_test() {  # $1 = log name; the rest = environment; prints the wall time in seconds
    /usr/bin/time -f "%e" -o "$out/$1.time" env "${@:2}" /usr/bin/pdfdesk --self-test >"$out/$1.log" 2>"$out/$1.err" \
        || { cat "$out/$1.log" "$out/$1.err" >&2; fail "the installed self-test ($1) failed"; }
    grep -q "^pdfdesk self-test OK" "$out/$1.log" || fail "no OK line from the self-test ($1)"
    cat "$out/$1.log" >&2
    tail -n1 "$out/$1.time"
}
sync
if echo 3 | $sudo tee /proc/sys/vm/drop_caches >/dev/null 2>&1; then cold_note="page cache dropped"; else
    cold_note="page cache could not be dropped here: first run after the build"; fi
cold_s=$(self_test self-test-cold QT_QPA_PLATFORM=offscreen)
warm_s=$(self_test self-test-warm QT_QPA_PLATFORM=offscreen)

# A real X server: the xcb plugin, then the window as `pdfdesk` opens it (the bundled sample).
xvfb_pid=""; app_pid=""
cleanup() { kill $app_pid $xvfb_pid 2>/dev/null || true; rm -rf "$home"; }
trap cleanup EXIT
exec 3>"$out/display"
Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
display=":$(head -n1 "$out/display")"
exec 3>&-
[ "$display" != ":" ] || fail "Xvfb did not start"
xcb_s=$(self_test self-test-xcb DISPLAY="$display" QT_QPA_PLATFORM=xcb)

main_window='\("pdfdesk" "pdfdesk"\) +[0-9]{3,}x[0-9]{3,}'  # Qt's helper windows are a few pixels wide
DISPLAY=$display QT_QPA_PLATFORM=xcb /usr/bin/pdfdesk >"$out/window.log" 2>&1 &
app_pid=$!
for _ in $(seq 60); do
    sleep 0.5
    kill -0 "$app_pid" 2>/dev/null || { cat "$out/window.log" >&2; fail "the window exited"; }
    DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -qE "$main_window" && break
done
window=$(DISPLAY=$display xwininfo -root -tree | grep -E "$main_window" | head -n1) \
    || fail "no pdfdesk window appeared in 30 s"
echo "window: $window"
sleep 3  # the first pages paint within a fraction of a second; leave time for thumbnails and the outline
shot="$out/window.png"
DISPLAY=$display import -window "$(awk '{ print $1 }' <<<"$window")" "$shot"
kill "$app_pid"; wait "$app_pid" 2>/dev/null || true; app_pid=""
# A rendered page of the sample is a large white area showing its headings in their blue (#1d4e89,
# a colour Qt's widgets do not use); an empty, failed or black window has neither.
colours=$(convert "$shot" -format "%k" info:)
white=$(convert "$shot" -fuzz 2% -fill black +opaque white -colorspace Gray -format "%[fx:mean]" info:)
heading=$(convert "$shot" -fuzz 6% -fill black +opaque "#1d4e89" -fill white -opaque "#1d4e89" -colorspace Gray \
          -format "%[fx:round(mean*w*h)]" info:)
echo "screenshot: $shot: $colours colours, white $white of the window, $heading pixels of heading blue"
awk -v c="$colours" -v w="$white" -v h="$heading" 'BEGIN { exit !(c > 50 && w > 0.10 && h > 300) }' \
    || fail "the window shows no rendered page"

if [ "${KEEP_INSTALLED:-0}" != 1 ]; then
    $sudo apt-get remove -y -qq pdfdesk >/dev/null
    [ ! -e /opt/pdfdesk ] && [ ! -e /usr/bin/pdfdesk ] || fail "removing the package left files behind"
fi

echo "smoke: OK — build ${build_s} s (see above for venv/pip vs PyInstaller), bundle $(du -sh dist/pdfdesk | cut -f1)," \
     "deb $(du -h "$deb" | cut -f1) (installed $(dpkg-deb -f "$deb" Installed-Size) KB)," \
     "installed self-test: cold ${cold_s} s (${cold_note}), warm ${warm_s} s, on X ${xcb_s} s"
