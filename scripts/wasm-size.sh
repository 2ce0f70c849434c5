#!/usr/bin/env bash
# wasm-size.sh — print the raw and gzipped sizes of a built site's .wasm files.
#
# For: the size figures of the app's .wasm (issue #26's goal is the main .wasm gzipped), taken
# the same way each time: `gzip -9`, in bytes. Not for: finding what is big in it (see below).
#
#   scripts/wasm-size.sh [DIST]    DIST defaults to dist/ (what `trunk build --release` writes)
#
# Prints one line per .wasm file: its name, raw bytes, gzipped bytes. Exits 1 when DIST holds
# no .wasm file.
#
# What is big in the app's .wasm: the release strips the "name" section (Cargo.toml), so build
# one that keeps it and run twiggy over it after wasm-bindgen and wasm-opt, as Trunk does:
#   CARGO_PROFILE_RELEASE_STRIP=false cargo build --release --target wasm32-unknown-unknown \
#     -p queue-lab --bin queue-lab
#   wasm-bindgen --target web --no-typescript --out-dir /tmp/named \
#     target/wasm32-unknown-unknown/release/queue-lab.wasm
#   wasm-opt -Oz --debuginfo <the features index.html passes> /tmp/named/queue-lab_bg.wasm -o /tmp/named/opt.wasm
#   twiggy top -n 40 /tmp/named/opt.wasm
# and what a group of functions costs it, gzipped (a lab's, a dependency's):
#   node scripts/wasm-parts.mjs /tmp/named/opt.wasm queue_lab::labs::pgq 'tachys|reactive_graph'
set -euo pipefail

dist="${1:-dist}"
shopt -s nullglob
files=("$dist"/*.wasm)
if [ ${#files[@]} -eq 0 ]; then
  echo "wasm-size: no .wasm file in $dist" >&2
  exit 1
fi
printf '%-44s %10s %10s\n' file raw gzip-9
for f in "${files[@]}"; do
  printf '%-44s %10d %10d\n' "$(basename "$f")" "$(wc -c <"$f")" "$(gzip -9 -c "$f" | wc -c)"
done
