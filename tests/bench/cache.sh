# Shared by the benchmarks (sourced, not run): inputs that take minutes to make are kept under
# build/bench-cache/ (BENCH_CACHE overrides), keyed by the content of the script that makes
# them and its arguments, so an unchanged generator is not run again and a changed one (or other
# arguments) makes a new input. `make clean` drops the cache with build/.
#
#   cached_input VAR NAME GENERATOR [ARG...]
#
# runs `GENERATOR FILE ARG...` (it must write FILE, a file or a directory) unless the cache already holds NAME for
# this key, then sets VAR to the cached file and cached_input_reused to true or false. A
# failed run caches nothing. Copies of NAME under other keys are removed: they are large.
cached_input() {
  local var=$1 name=$2 generator=$3
  shift 3
  local dir=${BENCH_CACHE:-build/bench-cache} key file
  key=$({ cat "$generator" && printf '%s\n' "$@"; } | sha256sum | cut -c1-16) || return 1
  file=$dir/$name.$key
  cached_input_reused=true
  if [ ! -s "$file" ]; then
    cached_input_reused=false
    mkdir -p "$dir" || return 1
    rm -rf "$dir/$name".*
    "$generator" "$file.tmp" "$@" || { rm -rf "$file.tmp"; return 1; }
    mv -f "$file.tmp" "$file" || return 1
  fi
  printf -v "$var" '%s' "$file"
}
