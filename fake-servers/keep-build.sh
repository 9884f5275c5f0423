#!/usr/bin/env bash
# Sourced by the fakes' build scripts: keep_build SRC STORE NAME PREFIX keeps a copy of the build
# folder SRC as STORE/NAME, outside the clone, so a fresh clone copies it instead of compiling.
# The copy is written under a hidden name and renamed whole (mv -T), so a half-copied entry is
# never used, and a build of the same hash that finished first is kept as it is. Of the entries
# named PREFIX*, the newest three stay (a few branches' builds side by side); a hidden copy still
# being written by another build never matches the glob.
keep_build() {
  local src="$1" store="$2" name="$3" prefix="$4"
  mkdir -p "$store" 2>/dev/null || return 1
  local tmp="$store/.$name.tmp.$$"
  rm -rf "$tmp"
  if ! cp -a "$src" "$tmp"; then rm -rf "$tmp"; return 1; fi
  touch "$tmp"
  mv -T "$tmp" "$store/$name" 2>/dev/null || rm -rf "$tmp"
  # shellcheck disable=SC2012 # names are ours: no newlines
  ls -1dt "$store/$prefix"* 2>/dev/null | tail -n +4 | while read -r old; do rm -rf "$old"; done
  [ -d "$store/$name" ]
}
