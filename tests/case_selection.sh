# Sourced by the test runners (tests/golden.sh, tests/conformance.sh) with their arguments:
# --update sets update=1, -h prints the runner's header comment, any other argument is a
# PATTERN; `selected CASE` is true when no pattern was given or CASE contains one of them, and
# when CASE is in this run's shard: SHARD=I/N (the Makefile runs N runners at once) takes every
# Nth case of those the patterns select, from the Ith on.
update=0
patterns=()
for arg in "$@"; do
  case $arg in
    --update) update=1 ;;
    -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) patterns+=("$arg") ;;
  esac
done

shard=${SHARD:-}
shard_index=${shard%/*}
shard_count=${shard#*/}
case_number=0
unset SHARD  # a case that runs a runner itself (golden-runner/self-test) runs all of its own

in_patterns() {
  [ ${#patterns[@]} -eq 0 ] && return 0
  local p
  for p in "${patterns[@]}"; do
    case $1 in *"$p"*) return 0 ;; esac
  done
  return 1
}

selected() {
  in_patterns "$1" || return 1
  [ -z "$shard" ] && return 0
  case_number=$((case_number + 1))
  [ $(((case_number - 1) % shard_count)) = $((shard_index - 1)) ]
}
