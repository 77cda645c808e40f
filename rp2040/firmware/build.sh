#!/usr/bin/env bash
# Rebuild the official, unmodified MicroPython firmware for the RPI_PICO board
# (RP2040) from pinned upstream sources. See README.md beside this file.
set -euo pipefail

# --- Pinned sources: the one place to change versions ----------------------
# These are the commits MicroPython v1.27.0 pins as git submodules, plus
# picotool 2.1.1 (the version pico-sdk 2.1.1 requires).
BOARD=RPI_PICO
MICROPYTHON_TAG=v1.27.0
MICROPYTHON_COMMIT=78ff170de9e32c79db6e64d3e33d2bd60002bdcd
PICO_SDK_COMMIT=9a4113fbbae65ee82d8cd6537963bc3d3b14bcca      # pico-sdk 2.1.1
TINYUSB_COMMIT=aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf
MICROPYTHON_LIB_COMMIT=6ae440a8a144233e6e703f6759b7e7a0afaa37a4
MBEDTLS_COMMIT=107ea89daaefb9867ea9121002fbbdf926780e98
PICOTOOL_TAG=2.1.1
PICOTOOL_COMMIT=de8ae5ac334e1126993f72a5c67949712fd1e1a4

# key | GitHub owner/name | commit | checkout path (relative to src/)
REPOS=(
  "micropython|micropython/micropython|$MICROPYTHON_COMMIT|micropython"
  "pico-sdk|raspberrypi/pico-sdk|$PICO_SDK_COMMIT|micropython/lib/pico-sdk"
  "tinyusb|hathach/tinyusb|$TINYUSB_COMMIT|micropython/lib/tinyusb"
  "micropython-lib|micropython/micropython-lib|$MICROPYTHON_LIB_COMMIT|micropython/lib/micropython-lib"
  "mbedtls|Mbed-TLS/mbedtls|$MBEDTLS_COMMIT|micropython/lib/mbedtls"
  "picotool|raspberrypi/picotool|$PICOTOOL_COMMIT|picotool"
)
# Files the build never reads that some mirrors lack (their blobs were left
# out of the mirror as too large). If one is absent from a checkout it is
# marked skip-worktree, so that git, and so MicroPython's version string, do
# not call the tree "dirty". Any other missing file is an error.
ALLOWED_MISSING=(
  "pico-sdk:src/rp2350/hardware_regs/RP2350.svd"                           # RP2350 register description for debuggers
  "mbedtls:tests/suites/test_suite_psa_crypto_op_fail.generated.data"      # mbedtls test data
)
UF2_NAME="$BOARD-$MICROPYTHON_TAG.uf2"
APT_HINT="apt-get update && apt-get install -y gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib"

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
  cat <<EOF
Usage: $(basename "$0") [options]

Rebuilds MicroPython $MICROPYTHON_TAG for board $BOARD (unmodified upstream
sources) and writes $UF2_NAME.  Stages: check out pinned sources, build
picotool $PICOTOOL_TAG (host), build mpy-cross (host), build the firmware.
Everything is built outside this repository, in the build folder.

Options:
  --mirrors DIR   Take sources from local git repositories in DIR instead of
                  cloning from GitHub.  For each source the first of these that
                  is a git repository (bare or not) is used:
                    DIR/<owner>+<name>/repo  DIR/<owner>+<name>
                    DIR/<name>.git  DIR/<name>
                  e.g. DIR/micropython+micropython/repo, DIR/pico-sdk.
                  (env: DICETOWER_MIRRORS)
  --build-dir DIR Build folder (env: DICETOWER_RP2_BUILD_DIR; default:
                  \${XDG_CACHE_HOME:-\$HOME/.cache}/dicetower/rp2-build)
  --output FILE   Where to copy the UF2 (default: <build-dir>/out/$UF2_NAME).
                  The ELF always stays in <build-dir>/out/.
  --jobs N        Parallel make jobs (default: nproc)
  --clean         Delete the build folder's sources and build outputs first
                  (downloaded mirrors under <build-dir>/mirrors are kept).
  --firmware-only Skip the picotool and mpy-cross stages (they must have been
                  built before in the same build folder); rebuilds the
                  firmware from a clean firmware build directory.
  -h, --help      Show this help.

Without --mirrors, sources are cloned from https://github.com/<owner>/<name>
into <build-dir>/mirrors (needs network access to GitHub).
Each checkout is verified to be at its pinned commit.  The firmware build
directory is always wiped, so the firmware stage is a clean build.
SOURCE_DATE_EPOCH defaults to the MicroPython $MICROPYTHON_TAG commit time, so
the build date in the banner is fixed (set it yourself to override).

Needs: git, cmake, make, gcc/g++, python3, and the Arm toolchain:
  $APT_HINT

At the end the SHA-256 of the UF2 is printed and compared with SHA256SUMS
beside this script, if present.
EOF
}

die() { echo "error: $*" >&2; exit 1; }

MIRRORS=${DICETOWER_MIRRORS:-}
BUILD_ROOT=${DICETOWER_RP2_BUILD_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dicetower/rp2-build}
OUTPUT=
JOBS=$(nproc 2>/dev/null || echo 2)
CLEAN=0
FIRMWARE_ONLY=0

while [[ $# -gt 0 ]]; do
  case "$1" in
    --mirrors) [[ $# -ge 2 ]] || die "--mirrors needs a directory"; MIRRORS=$2; shift 2 ;;
    --mirrors=*) MIRRORS=${1#*=}; shift ;;
    --build-dir) [[ $# -ge 2 ]] || die "--build-dir needs a directory"; BUILD_ROOT=$2; shift 2 ;;
    --build-dir=*) BUILD_ROOT=${1#*=}; shift ;;
    --output) [[ $# -ge 2 ]] || die "--output needs a file path"; OUTPUT=$2; shift 2 ;;
    --output=*) OUTPUT=${1#*=}; shift ;;
    --jobs|-j) [[ $# -ge 2 ]] || die "--jobs needs a number"; JOBS=$2; shift 2 ;;
    --jobs=*) JOBS=${1#*=}; shift ;;
    --clean) CLEAN=1; shift ;;
    --firmware-only) FIRMWARE_ONLY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done

[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive number, got '$JOBS'"
BUILD_ROOT=$(realpath -m "$BUILD_ROOT")
REPO_TOP=$(git -C "$SCRIPT_DIR" rev-parse --show-toplevel 2>/dev/null || echo "$SCRIPT_DIR")
case "$BUILD_ROOT/" in
  "$REPO_TOP"/*)
    die "build folder $BUILD_ROOT is inside the repository $REPO_TOP; choose one outside it (--build-dir)" ;;
esac
if [[ -n "$MIRRORS" ]]; then
  [[ -d "$MIRRORS" ]] || die "mirrors directory not found: $MIRRORS"
  MIRRORS=$(cd "$MIRRORS" && pwd)
fi
mkdir -p "$BUILD_ROOT"
OUT_DIR=$BUILD_ROOT/out
[[ -n "$OUTPUT" ]] || OUTPUT=$OUT_DIR/$UF2_NAME
SRC=$BUILD_ROOT/src
LOGS=$BUILD_ROOT/logs
MPY=$SRC/micropython
PICOTOOL_BUILD=$BUILD_ROOT/picotool-build
PICOTOOL_INSTALL=$BUILD_ROOT/picotool-install
FW_BUILD=$MPY/ports/rp2/build-$BOARD

# --- Tool checks -----------------------------------------------------------
for t in git cmake make gcc g++ python3 sha256sum; do
  command -v "$t" >/dev/null 2>&1 || die "'$t' not found in PATH; install it first"
done
command -v arm-none-eabi-gcc >/dev/null 2>&1 ||
  die "Arm toolchain (arm-none-eabi-gcc) not found; install it with: $APT_HINT"
[[ "$(arm-none-eabi-gcc -print-file-name=libc.a)" == /* ]] ||
  die "newlib for arm-none-eabi not found; install it with: $APT_HINT"

# --- Helpers ---------------------------------------------------------------
declare -A STAGE_SECONDS=()
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# run_logged NAME CMD...: run CMD with output in $LOGS/NAME.log; on failure
# show the log's tail.
run_logged() {
  local name=$1; shift
  local log=$LOGS/$name.log
  if ! "$@" >>"$log" 2>&1; then
    echo "---- last 40 lines of $log ----" >&2
    tail -n 40 "$log" >&2
    die "$name failed: $* (full log: $log)"
  fi
}

# find_source KEY OWNER/NAME: print the git repository to take KEY from.
find_source() {
  local key=$1 slug=$2 owner name cand
  owner=${slug%/*} name=${slug#*/}
  if [[ -n "$MIRRORS" ]]; then
    for cand in "$MIRRORS/$owner+$name/repo" "$MIRRORS/$owner+$name" \
                "$MIRRORS/$name.git" "$MIRRORS/$name"; do
      if [[ -d "$cand" ]] && git --git-dir="$cand" rev-parse --git-dir >/dev/null 2>&1; then
        echo "$cand"; return 0
      fi
      if [[ -d "$cand/.git" ]]; then echo "$cand"; return 0; fi
    done
    die "no mirror of $slug ($key) in $MIRRORS (looked for $owner+$name/repo, $owner+$name, $name.git, $name)"
  fi
  local mirror=$BUILD_ROOT/mirrors/$owner+$name.git
  if [[ ! -d "$mirror" ]]; then
    echo "cloning https://github.com/$slug ..." >&2
    rm -rf "$mirror.part"
    git clone --quiet --bare "https://github.com/$slug.git" "$mirror.part" >&2 ||
      die "could not clone https://github.com/$slug (network?); use --mirrors DIR for local sources"
    mv "$mirror.part" "$mirror"
  fi
  echo "$mirror"
}

# checkout KEY SLUG COMMIT DEST: put a git checkout of COMMIT at DEST and
# verify it. Reuses DEST if it is already a clean checkout of COMMIT.
checkout() {
  local key=$1 slug=$2 commit=$3 dest=$4 origin head
  if [[ -e "$dest/.git" ]] && head=$(git -C "$dest" rev-parse HEAD 2>/dev/null) &&
     [[ "$head" == "$commit" ]] &&
     [[ -z "$(git -C "$dest" status --porcelain --ignore-submodules=all 2>/dev/null)" ]]; then
    echo "  $key: $commit (reused)"
    return 0
  fi
  origin=$(find_source "$key" "$slug")
  if ! git -C "$origin" cat-file -e "$commit^{commit}" 2>/dev/null; then
    if [[ -z "$MIRRORS" ]]; then
      git -C "$origin" fetch --quiet origin "$commit" 2>/dev/null || true
    fi
    git -C "$origin" cat-file -e "$commit^{commit}" 2>/dev/null ||
      die "commit $commit of $slug ($key) is missing from $origin"
  fi
  rm -rf "$dest"
  mkdir -p "$(dirname "$dest")"
  # A local clone carries every object of the origin, so the pinned commit is
  # present even if no branch or tag points to it.
  git clone --quiet --no-checkout "$origin" "$dest" ||
    die "could not clone $origin into $dest"
  git -C "$dest" -c advice.detachedHead=false checkout --quiet --detach "$commit" \
    >>"$LOGS/sources.log" 2>&1 ||
    die "could not check out $commit of $slug in $dest (see $LOGS/sources.log)"
  head=$(git -C "$dest" rev-parse HEAD)
  [[ "$head" == "$commit" ]] || die "$key: checked out $head, expected $commit"
  local path note=""
  while IFS= read -r path; do
    [[ -n "$path" ]] || continue
    if [[ " ${ALLOWED_MISSING[*]} " == *" $key:$path "* ]]; then
      git -C "$dest" update-index --skip-worktree -- "$path"
      note+=" [absent from mirror, unused by the build: $path]"
    else
      die "$key: file $path of commit $commit is missing from $origin (incomplete mirror)"
    fi
  done < <(git -C "$dest" ls-files --deleted)
  echo "  $key: $commit$note"
}

# --- Stage 0: sources ------------------------------------------------------
if [[ $CLEAN == 1 ]]; then
  echo "cleaning $BUILD_ROOT (keeping mirrors/)"
  rm -rf "$SRC" "$PICOTOOL_BUILD" "$PICOTOOL_INSTALL" "$OUT_DIR" "$LOGS"
fi
mkdir -p "$SRC" "$LOGS" "$OUT_DIR"
rm -f "$LOGS"/*.log

echo "== sources (build folder: $BUILD_ROOT)"
t0=$(now)
for entry in "${REPOS[@]}"; do
  IFS='|' read -r key slug commit rel <<<"$entry"
  checkout "$key" "$slug" "$commit" "$SRC/$rel"
  if [[ $key == micropython ]]; then
    # The tag must resolve to the pinned commit (and exist, for the version
    # string that py/makeversionhdr.py takes from `git describe`).
    if tagc=$(git -C "$MPY" rev-parse -q --verify "refs/tags/$MICROPYTHON_TAG^{commit}"); then
      [[ "$tagc" == "$MICROPYTHON_COMMIT" ]] ||
        die "tag $MICROPYTHON_TAG is $tagc in the micropython source, expected $MICROPYTHON_COMMIT"
    else
      git -C "$MPY" tag "$MICROPYTHON_TAG" "$MICROPYTHON_COMMIT"
    fi
  fi
  if [[ $key == picotool ]]; then
    if tagc=$(git -C "$SRC/picotool" rev-parse -q --verify "refs/tags/$PICOTOOL_TAG^{commit}"); then
      [[ "$tagc" == "$PICOTOOL_COMMIT" ]] ||
        die "tag $PICOTOOL_TAG is $tagc in the picotool source, expected $PICOTOOL_COMMIT"
    fi
  fi
done
# The pins above must be the ones MicroPython itself records for its submodules.
for entry in "${REPOS[@]}"; do
  IFS='|' read -r key slug commit rel <<<"$entry"
  [[ $rel == micropython/lib/* ]] || continue
  sub=${rel#micropython/}
  pinned=$(git -C "$MPY" ls-tree HEAD "$sub" | awk '{print $3}')
  [[ "$pinned" == "$commit" ]] ||
    die "$key: script pins $commit but micropython $MICROPYTHON_TAG pins $sub at ${pinned:-nothing}"
done
t1=$(now); STAGE_SECONDS[sources]=$(elapsed "$t0" "$t1")

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$MPY" log -1 --format=%ct "$MICROPYTHON_COMMIT")}

# --- Stage 1: picotool (host tool the pico-sdk uses to make the UF2) -------
# Same options the pico-sdk itself uses when it builds picotool
# (pico-sdk tools/Findpicotool.cmake), installed flat so that the SDK finds
# it through PICOTOOL_FETCH_FROM_GIT_PATH and never tries to download it.
if [[ $FIRMWARE_ONLY == 0 ]]; then
  echo "== picotool $PICOTOOL_TAG"
  t0=$(now)
  run_logged picotool cmake -S "$SRC/picotool" -B "$PICOTOOL_BUILD" \
    --no-warn-unused-cli \
    "-DPICO_SDK_PATH:FILEPATH=$MPY/lib/pico-sdk" \
    -DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 \
    "-DCMAKE_INSTALL_PREFIX=$PICOTOOL_INSTALL"
  run_logged picotool cmake --build "$PICOTOOL_BUILD" -j "$JOBS"
  run_logged picotool cmake --install "$PICOTOOL_BUILD"
  t1=$(now); STAGE_SECONDS[picotool]=$(elapsed "$t0" "$t1")
fi
[[ -x "$PICOTOOL_INSTALL/picotool/picotool" ]] ||
  die "picotool not built in $PICOTOOL_INSTALL (run without --firmware-only)"
"$PICOTOOL_INSTALL/picotool/picotool" version "$PICOTOOL_TAG" >/dev/null ||
  die "built picotool is not version $PICOTOOL_TAG"

# --- Stage 2: mpy-cross -------------------------------------------------------
if [[ $FIRMWARE_ONLY == 0 ]]; then
  echo "== mpy-cross"
  t0=$(now)
  run_logged mpy-cross make -C "$MPY/mpy-cross" -j "$JOBS"
  t1=$(now); STAGE_SECONDS[mpy-cross]=$(elapsed "$t0" "$t1")
fi
[[ -x "$MPY/mpy-cross/build/mpy-cross" ]] ||
  die "mpy-cross not built in $MPY/mpy-cross/build (run without --firmware-only)"

# --- Stage 3: firmware --------------------------------------------------------
echo "== firmware $BOARD (clean build)"
t0=$(now)
rm -rf "$FW_BUILD"
export PICOTOOL_FETCH_FROM_GIT_PATH=$PICOTOOL_INSTALL
export picotool_DIR=$PICOTOOL_INSTALL/picotool
run_logged firmware make -C "$MPY/ports/rp2" BOARD="$BOARD" -j "$JOBS"
t1=$(now); STAGE_SECONDS[firmware]=$(elapsed "$t0" "$t1")
if grep -q "Downloading Picotool" "$LOGS/firmware.log"; then
  die "the pico-sdk tried to download picotool instead of using $PICOTOOL_INSTALL"
fi
[[ -f "$FW_BUILD/firmware.uf2" ]] || die "no firmware.uf2 in $FW_BUILD"

# --- Checks, output --------------------------------------------------------
# The banner version must be exactly the tag (no "-dirty", no "-preview").
grep -aq "MicroPython $MICROPYTHON_TAG on " "$FW_BUILD/firmware.bin" ||
  die "firmware version string is not '$MICROPYTHON_TAG' (modified sources?)"
grep -aqE "$MICROPYTHON_TAG[-.](dirty|preview)" "$FW_BUILD/firmware.bin" &&
  die "firmware version string says the sources were not a clean $MICROPYTHON_TAG"

python3 - "$FW_BUILD/firmware.uf2" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert len(data) % 512 == 0 and data, "UF2 size is not a multiple of 512"
n = len(data) // 512
addrs = []
for i in range(n):
    b = data[i * 512:(i + 1) * 512]
    m0, m1, flags, addr, size, seq, total, family = struct.unpack("<8I", b[:32])
    (mend,) = struct.unpack("<I", b[508:512])
    assert (m0, m1, mend) == (0x0A324655, 0x9E5D5157, 0x0AB16F30), f"bad magic in block {i}"
    assert flags & 0x2000 and family == 0xE48BFF56, f"block {i}: not RP2040 family"
    assert seq == i and total == n, f"block {i}: bad block numbering"
    assert size == 256 and addr >= 0x10000000, f"block {i}: bad payload/address"
    addrs.append(addr)
print(f"UF2 ok: {n} blocks, family 0xe48bff56 (RP2040), "
      f"addresses 0x{min(addrs):08x}..0x{max(addrs) + 255:08x}")
PY

mkdir -p "$OUT_DIR" "$(dirname "$OUTPUT")"
cp "$FW_BUILD/firmware.elf" "$OUT_DIR/$BOARD-$MICROPYTHON_TAG.elf"
cp "$FW_BUILD/firmware.uf2" "$OUT_DIR/$UF2_NAME"
if [[ "$(cd "$(dirname "$OUTPUT")" && pwd)/$(basename "$OUTPUT")" != "$OUT_DIR/$UF2_NAME" ]]; then
  cp "$FW_BUILD/firmware.uf2" "$OUTPUT"
fi

sha=$(sha256sum "$OUTPUT" | awk '{print $1}')
size=$(stat -c %s "$OUTPUT")
{
  echo "MicroPython $MICROPYTHON_TAG ($MICROPYTHON_COMMIT), board $BOARD"
  for entry in "${REPOS[@]}"; do
    IFS='|' read -r key slug commit rel <<<"$entry"
    echo "source $key github.com/$slug $commit"
  done
  echo "toolchain $(arm-none-eabi-gcc --version | head -n1)"
  if command -v dpkg-query >/dev/null 2>&1; then
    dpkg-query -W gcc-arm-none-eabi libnewlib-arm-none-eabi binutils-arm-none-eabi 2>/dev/null |
      sed 's/^/package /' || true
  fi
  echo "SOURCE_DATE_EPOCH $SOURCE_DATE_EPOCH"
  echo "command PICOTOOL_FETCH_FROM_GIT_PATH=$PICOTOOL_INSTALL make -C ports/rp2 BOARD=$BOARD -j $JOBS"
  for s in sources picotool mpy-cross firmware; do
    [[ -n "${STAGE_SECONDS[$s]:-}" ]] && echo "time $s ${STAGE_SECONDS[$s]} s"
  done
  echo "uf2 $OUTPUT $size bytes"
  echo "sha256 $sha"
} | tee "$OUT_DIR/build-info.txt"

if [[ -f "$SCRIPT_DIR/SHA256SUMS" ]]; then
  want=$(awk -v f="$UF2_NAME" '$2 == f || $2 == "*" f { print $1 }' "$SCRIPT_DIR/SHA256SUMS")
  if [[ -n "$want" && "$want" == "$sha" ]]; then
    echo "matches SHA256SUMS beside this script"
  elif [[ -n "$want" ]]; then
    echo "note: differs from SHA256SUMS beside this script ($want)"
  fi
fi
echo "ELF: $OUT_DIR/$BOARD-$MICROPYTHON_TAG.elf"
echo "$sha  $OUTPUT"
