#!/usr/bin/env bash
# Rebuilds docs/ for the ragcore maintenance-document evaluation set.
#  - Debian-sourced docs: downloaded with apt-get (Debian 12 "bookworm" archive) and extracted.
#  - GitHub-sourced docs: repository, commit and paths are listed below. They are ALSO committed
#    under docs/ (all licences allow redistribution, see SOURCES.md). To re-extract them, set
#    MIRRORS=/path/to/dir containing bare or normal clones named <owner>+<repo> (e.g. LinuxCNC+linuxcnc);
#    without MIRRORS the GitHub part only prints what it would take.
# Usage: bash fetch.sh            (run from /work/manuals or anywhere; writes next to this script)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DOCS="$HERE/docs"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

########## Debian packages ##########
deb_get() { # pkg version
  ( cd "$WORK" && apt-get download "$1=$2" >/dev/null 2>&1 || apt-get download "$1" )
  local f; f=$(ls "$WORK"/"$1"_*.deb | head -1)
  mkdir -p "$WORK/x/$1"; dpkg-deb -x "$f" "$WORK/x/$1"
}
if command -v apt-get >/dev/null; then
  apt-get update >/dev/null 2>&1 || true

  # 1. linuxcnc-doc-en (GPL-2+ / GFDL-1.1+)
  deb_get linuxcnc-doc-en '2.9.0~pre1+git20230208.f1270d6ed7-1+deb12u2'
  mkdir -p "$DOCS/linuxcnc-doc-en"
  for f in LinuxCNC_Getting_Started.pdf LinuxCNC_Integrator.pdf LinuxCNC_Manual_Pages.pdf gcode.html; do
    cp "$WORK/x/linuxcnc-doc-en/usr/share/doc/linuxcnc/$f" "$DOCS/linuxcnc-doc-en/"
  done
  # (LinuxCNC_Documentation.pdf, 25.9 MB, deliberately left out: over the 3 MB per-file cap)

  # 2. apcupsd-doc (GPL-2+) -- the .rst files are shipped gzip-compressed by Debian; we gunzip them
  deb_get apcupsd-doc '3.14.14-3.1'
  A="$WORK/x/apcupsd-doc/usr/share/doc/apcupsd/manual"; mkdir -p "$DOCS/apcupsd-doc"
  cp "$A/manual.html" "$DOCS/apcupsd-doc/"
  for f in maintaining_ups cables smartprotocol; do gunzip -c "$A/$f.rst.gz" > "$DOCS/apcupsd-doc/$f.rst"; done

  # 3. nut-doc (GPL-2+ / GPL-3+)
  deb_get nut-doc '2.8.0-7'
  N="$WORK/x/nut-doc/usr/share/doc/nut-doc"; mkdir -p "$DOCS/nut-doc"
  for f in user-manual FAQ cables; do cp "$N/pdf/$f.pdf" "$DOCS/nut-doc/"; done
  cp "$N/html/FAQ.html" "$DOCS/nut-doc/"
  for f in ar01s02 ar01s03 ar01s05 ar01s06 ar01s07 apcs02; do
    cp "$N/html/user-manual/$f.html" "$DOCS/nut-doc/user-manual-$f.html"
  done
fi

########## GitHub repositories (files committed; listed here for provenance) ##########
# Each output file name is the repository path with '/' replaced by '_'.
gh() { # owner+repo commit slug paths...
  local r="$1" c="$2" slug="$3"; shift 3
  echo "github:${r/+//} @ $c -> docs/$slug ($# files)"
  if [ -n "${MIRRORS:-}" ] && [ -d "$MIRRORS/$r" ]; then
    local gd="$MIRRORS/$r"; [ -d "$gd/.git" ] && gd="$gd/.git"; [ -d "$gd/repo" ] && gd="$gd/repo"
    mkdir -p "$DOCS/$slug"
    for p in "$@"; do git --git-dir="$gd" show "$c:$p" > "$DOCS/$slug/$(echo "$p" | tr / _)"; done
  else
    printf '   %s\n' "$@"
  fi
}
F=source/docs
gh wpilibsuite+frc-docs 5f2436d61ea8fc2e5ac0f3080a755f312f91252d frc-docs \
  $F/hardware/hardware-basics/status-lights-ref.rst $F/hardware/hardware-basics/robot-battery.rst \
  $F/hardware/hardware-basics/preemptive-troubleshooting.rst $F/hardware/hardware-basics/wiring-best-practices.rst \
  $F/hardware/hardware-basics/wiring-pneumatics-pcm.rst $F/hardware/hardware-basics/wiring-pneumatics-ph.rst \
  $F/controls-overviews/control-system-hardware.rst $F/software/can-devices/power-distribution-module.rst \
  $F/software/can-devices/can-addressing.rst $F/networking/networking-introduction/roborio-network-troubleshooting.rst \
  $F/hardware/sensors/proximity-switches.rst $F/hardware/sensors/encoders-hardware.rst \
  $F/software/hardware-apis/pneumatics/pressure.rst $F/software/labview/resources/files/2015-frc-pneumatics-manual.pdf
gh odriverobotics+ODrive f9b5419c820c6fb2f609322a5131cdf8c5f71657 odrive \
  docs/troubleshooting.rst docs/specifications.rst docs/getting-started.rst docs/encoders.rst docs/endstops.rst \
  docs/thermistors.rst docs/ground-loops.rst docs/can-guide.rst docs/control.rst docs/commands.rst \
  docs/hoverboard.rst docs/can-protocol.rst
gh UniversalRobots+Universal_Robots_ROS_Driver 66510fde40df294631bd22899677375d0b190d4e ur-ros-driver \
  README.md ur_robot_driver/doc/install_urcap_cb3.md ur_robot_driver/doc/install_urcap_e_series.md \
  ur_robot_driver/doc/setup_tool_communication.md ur_robot_driver/doc/real_time.md ur_robot_driver/doc/features.md \
  ur_calibration/README.md ur_robot_driver/doc/usage_example.md
gh mjbots+moteus db1a7623d6a7d5568e7632b974a9ab521a4d2bab moteus \
  docs/troubleshooting/overvoltage-fault-34.md docs/troubleshooting/gate-driver-faults.md \
  docs/troubleshooting/limited-torque.md docs/troubleshooting/no-motion.md docs/troubleshooting/timeout-mode-11.md \
  docs/troubleshooting/calibration.md docs/reference/configuration.md \
  docs/reference/hardware.md docs/reference/pinouts.md docs/protocol/registers.md docs/protocol/diagnostic.md \
  docs/guides/electrical-setup.md docs/guides/pid-tuning.md hw/c1/r1.2/20240305-moteus-c1-r1_2.pdf
S=docs/src
gh LinuxCNC+linuxcnc 5c41560ebbc3a40f84a5547bc6f7c5cd9278ba6b linuxcnc-src \
  $S/drivers/gs2.adoc $S/drivers/mitsub-vfd.adoc $S/drivers/vfs11.adoc $S/man/man1/hy_vfd.1.adoc \
  $S/man/man1/hy_gt_vfd.1.adoc $S/man/man1/vfdb_vfd.1.adoc $S/man/man1/svd-ps_vfd.1.adoc \
  $S/config/stepper-diagnostics.adoc $S/motion/tweaking-steppers.adoc $S/motion/pid-theory.adoc \
  $S/plasma/plasma-cnc-primer.adoc $S/config/ini-homing.adoc $S/examples/spindle.adoc $S/lathe/lathe-user.adoc
# openenergymonitor/learn: taken at b3685e2 (parent of the commit that moved the content to openenergymonitor/docs),
# where the repository's LICENSE is CC BY-SA 4.0. Output names drop the leading "view/".
V=view/electricity-monitoring
OEM_PATHS="view/heatpumps/basics.md view/heatpumps/guide.md $V/ct-sensors/installation.md $V/ac-power-theory/3-phase-power.md
 view/pv-diversion/background/overload-protection-of-mains-electrical-circuits.md view/pv-diversion/background/meters.md
 view/pv-diversion/introduction/choosing-an-energy-diverter.md $V/ctac/calibration.md $V/ctac/emontx-error-sources.md
 $V/temperature/rtd-temperature-sensing.md $V/pulse-counting/gas-meter-monitoring.md $V/ac-power-theory/use-in-north-america.md
 $V/ct-sensors/files/YhdcCTReportIss6.pdf"
echo "github:openenergymonitor/learn @ b3685e23cdc2fd2a9f83cf279c5ec4520ca14792 -> docs/openenergymonitor-learn"
if [ -n "${MIRRORS:-}" ] && [ -d "$MIRRORS/openenergymonitor+learn" ]; then
  gd="$MIRRORS/openenergymonitor+learn"; [ -d "$gd/.git" ] && gd="$gd/.git"; [ -d "$gd/repo" ] && gd="$gd/repo"
  mkdir -p "$DOCS/openenergymonitor-learn"
  for p in $OEM_PATHS; do q=${p#view/}; git --git-dir="$gd" show "b3685e23cdc2fd2a9f83cf279c5ec4520ca14792:$p" > "$DOCS/openenergymonitor-learn/$(echo "$q" | tr / _)"; done
else
  printf '   %s\n' $OEM_PATHS
fi
# evcc-io/docs: output names drop the leading "src/content/docs/".
E=src/content/docs/en
EVCC_PATHS="$E/reference/modbus.md $E/reference/configuration/meters.md $E/reference/configuration/loadpoints.md
 $E/reference/configuration/hems.md $E/reference/configuration/eebus.md $E/reference/configuration/modbusproxy.md
 $E/reference/configuration/index.md"
echo "github:evcc-io/docs @ 8fe5c783d1149b8c8e31ae003bbd0d6794c2cc02 -> docs/evcc-docs"
if [ -n "${MIRRORS:-}" ] && [ -d "$MIRRORS/evcc-io+docs" ]; then
  gd="$MIRRORS/evcc-io+docs"; [ -d "$gd/.git" ] && gd="$gd/.git"; [ -d "$gd/repo" ] && gd="$gd/repo"
  mkdir -p "$DOCS/evcc-docs"
  for p in $EVCC_PATHS; do q=${p#src/content/docs/}; git --git-dir="$gd" show "8fe5c783d1149b8c8e31ae003bbd0d6794c2cc02:$p" > "$DOCS/evcc-docs/$(echo "$q" | tr / _)"; done
else
  printf '   %s\n' $EVCC_PATHS
fi
echo "done: $(find "$DOCS" -type f | wc -l) files in $DOCS"
