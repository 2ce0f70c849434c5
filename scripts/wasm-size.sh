#!/usr/bin/env bash
# wasm-size.sh — print the raw and gzipped sizes of a built site's .wasm files.
#
# For: the size figures of the app's .wasm (issue #26's goal is the main .wasm gzipped), taken
# the same way each time: `gzip -9`, in bytes. Not for: finding what is big in it (see below).
#
#   scripts/wasm-size.sh [DIST]    DIST defaults to dist/ (what `./lab build` writes)
#
# Prints one line per .wasm file: its name, raw bytes, gzipped bytes. Exits 1 when DIST holds
# no .wasm file.
#
# The split release (./lab build) has the app's main module, one module per lab
# (split_<Lab>-<hash>.wasm) and shared ones (chunk_<n>-<hash>.wasm): all listed here; `./lab
# bench sizes` adds up what each lab's page loads.
#
# What is big in the app's main module: the app is linked unstripped (Cargo.toml), and
# scripts/split-release.mjs leaves the main module after wasm-bindgen in target/split/bound/;
# -Oz with --debuginfo keeps the names that the shipped module drops:
#   wasm-opt -Oz --debuginfo <the features index.html passes> \
#     target/split/bound/queue-lab-<hash>_bg.wasm -o /tmp/named/opt.wasm
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
