# Sourced by the interop tests: the reports of pprof and prof-text made comparable.
# The unit of the type pprof and prof-text report by default (default_type, else the last).
default_unit() {
  prof-text --canonical "$1" | awk '
    $1 == "type" { unit[$2] = $3; last = $3 }
    $1 == "default_type" { d = unit[$2] }
    END { print (d != "" ? d : last) }'
}

# Names as both print them, made comparable: prof-text escapes tabs, newlines and invalid UTF-8
# (\t, \n, \xHH), pprof prints the raw bytes; both become "?", as does every non-ASCII byte.
AWK_CANON='
    function canon(s) {
      gsub(/\\x[0-9a-f][0-9a-f]/, "?", s); gsub(/\\[tnr]/, "?", s); gsub(/[^ -~]/, "?", s)
      return s
    }'

# pprof -top / prof-text --top rows -> "name<TAB>flat<TAB>cum", sorted, plus "total<TAB>X".
# Rows with flat and cum 0 are left out (pprof does not show them).
normalise_top() {
  awk "$AWK_CANON"'
    function row() { if (name != "" && (flat != 0 || cum != 0)) print canon(name) "\t" flat "\t" cum }
    /accounting for/ { t = $0; sub(/ total.*/, "", t); sub(/.* of /, "", t); gsub(/[a-zA-Z]+$/, "", t); print "total\t" t; next }
    /^ +flat +flat%/ { rows = 1; next }
    !rows { next }
    /^ *-?[0-9.]+[a-zA-Z]* +-?[0-9.]+% +-?[0-9.]+% +-?[0-9.]+[a-zA-Z]* +-?[0-9.]+%  / {
      row()
      flat = $1; cum = $4; gsub(/[a-zA-Z]+$/, "", flat); gsub(/[a-zA-Z]+$/, "", cum)
      name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /, "", name); sub(/ \((partial-)?inline\)$/, "", name)
      next
    }
    { name = name "\\n" $0 }   # pprof prints a newline in a name as it is
    END { row() }' | sort
}

# -traces blocks -> "frame;frame;...<TAB>value" summed per stack, sorted. Empty stacks and
# stacks worth 0 are left out (pprof drops empty-stack and all-zero samples from its rows).
normalise_traces() {
  awk "$AWK_CANON"'
    function flush() {
      if (stack != "" && stack != "(no frames)") sum[canon(stack)] += value
      stack = ""; inblock = 0
    }
    /^-----------\+/ { flush(); next }
    /^ *-?[0-9.]+[a-zA-Z]*   [^ ]/ && !inblock {
      inblock = 1; value = $1; gsub(/[a-zA-Z]+$/, "", value)
      f = $0; sub(/^ *[^ ]+   /, "", f); sub(/ \((partial-)?inline\)$/, "", f); stack = f; next
    }
    inblock && /^             [^ ]/ { f = substr($0, 14); sub(/ \((partial-)?inline\)$/, "", f); stack = stack ";" f; next }
    inblock { stack = stack "\\n" $0; next }
    END { flush(); for (s in sum) if (sum[s] != 0) printf "%s\t%.0f\n", s, sum[s] }' | sort
}
