# Sourced by the test runners (tests/golden.sh, tests/conformance.sh) with their arguments:
# --update sets update=1, -h prints the runner's header comment, any other argument is a
# PATTERN; `selected CASE` is true when no pattern was given or CASE contains one of them.
update=0
patterns=()
for arg in "$@"; do
  case $arg in
    --update) update=1 ;;
    -h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) patterns+=("$arg") ;;
  esac
done

selected() {
  [ ${#patterns[@]} -eq 0 ] && return 0
  local p
  for p in "${patterns[@]}"; do
    case $1 in *"$p"*) return 0 ;; esac
  done
  return 1
}
