#!/usr/bin/env bash
# src/backend/hash_backend_sources.cmake on a made-up backend tree: editing one backend's
# source changes that backend's hash only, editing a shared source (in the backend folder, in
# a shared folder outside it, or a shared single file) changes every hash, and an unchanged
# tree gives the same hashes again.
# Usage: hash_backend_sources_test.sh PATH/TO/hash_backend_sources.cmake
set -euo pipefail

script="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
  echo "hash_backend_sources_test: $*" >&2
  exit 1
}

mkdir -p "$work/backend/alpha/runtime" "$work/backend/beta" "$work/backend/not_a_backend" "$work/forms/nested"
echo "// form" >"$work/forms/nested/form.cc"
echo "// conversion" >"$work/conversion.cc"
echo "// shared" >"$work/backend/registry.cc"
echo "# alpha" >"$work/backend/alpha/backend.cmake"
echo "int alpha;" >"$work/backend/alpha/alpha.cc"
echo "// kernel" >"$work/backend/alpha/runtime/kernel.h"
echo "# beta" >"$work/backend/beta/backend.cmake"
echo "int beta;" >"$work/backend/beta/beta.cc"
echo "int ignored;" >"$work/backend/not_a_backend/x.cc"

# Prints "name hash" per backend of the generated table.
hashes() {
  cmake -DBACKEND_DIR="$work/backend" -DOUTPUT="$work/hashes.cc" "-DSHARED_SOURCES=$work/forms|$work/conversion.cc" -P "$script"
  sed -n 's/^ *{"\([^"]*\)", "\([0-9a-f]*\)"},$/\1 \2/p' "$work/hashes.cc"
}
hash_of() { awk -v name="$1" '$1 == name { print $2 }' <<<"$2"; }

first="$(hashes)"
[[ "$(wc -l <<<"$first")" == 2 ]] || fail "expected the backends alpha and beta, got: $first"
[[ "$(hash_of alpha "$first")" =~ ^[0-9a-f]{64}$ ]] || fail "alpha has no SHA-256: $first"
[[ "$(hashes)" == "$first" ]] || fail "the same tree hashed differently"

echo "// edited" >>"$work/backend/alpha/runtime/kernel.h"
second="$(hashes)"
[[ "$(hash_of alpha "$second")" != "$(hash_of alpha "$first")" ]] || fail "editing alpha's runtime header kept its hash"
[[ "$(hash_of beta "$second")" == "$(hash_of beta "$first")" ]] || fail "editing alpha changed beta's hash"

echo "// edited" >>"$work/backend/registry.cc"
third="$(hashes)"
[[ "$(hash_of alpha "$third")" != "$(hash_of alpha "$second")" ]] || fail "editing a shared source kept alpha's hash"
[[ "$(hash_of beta "$third")" != "$(hash_of beta "$second")" ]] || fail "editing a shared source kept beta's hash"
echo "// edited" >>"$work/forms/nested/form.cc"
fourth="$(hashes)"
[[ "$(hash_of alpha "$fourth")" != "$(hash_of alpha "$third")" ]] || fail "editing a shared folder's source kept alpha's hash"
[[ "$(hash_of beta "$fourth")" != "$(hash_of beta "$third")" ]] || fail "editing a shared folder's source kept beta's hash"
echo "// edited" >>"$work/conversion.cc"
fifth="$(hashes)"
[[ "$(hash_of alpha "$fifth")" != "$(hash_of alpha "$fourth")" ]] || fail "editing a shared file kept alpha's hash"
[[ "$(hash_of beta "$fifth")" != "$(hash_of beta "$fourth")" ]] || fail "editing a shared file kept beta's hash"
echo "hash_backend_sources_test: ok"
