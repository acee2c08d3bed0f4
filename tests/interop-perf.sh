#!/usr/bin/env bash
# perf2prof's mappings and inlined frames as Google's pprof reads them (issue 16):
#
#   1. Mappings from mmap records (perf script --show-mmap-events): every mapping `pprof -raw`
#      lists is an executable mapping perf recorded (start/limit/offset, file, build id; the
#      kernel's `[kernel.kallsyms]_text` as `[kernel.kallsyms]`), and every location's address
#      lies in its mapping's range, so pprof can symbolise a stripped binary from them.
#   2. Inlined frames (perf record --call-graph dwarf): the functions perf tags `(inlined)` in
#      front of a frame at their address are exactly the ones pprof -traces marks ` (inline)`:
#      one location with several lines, as pprof's symbolizer makes of inlined code. (tests/interop-pprof.sh compares pprof -traces with prof-text --traces
#      on these profiles, golden outputs all.)
name=interop-perf
. "$(dirname "$0")/interop/prelude.sh"
corpus=$root/golden/perf/corpus/local

for input in perf61-mmap perf61-mmap-buildid; do
  zcat "$corpus/$input.txt.gz" >"$T/$input.txt"
  perf2prof "$T/$input.txt" | prof2pprof -o "$T/$input.pb.gz"
  # What perf recorded: START/LIMIT/OFFSET FILE [BUILD_ID], as pprof -raw prints a mapping.
  perl -ne 'next unless /PERF_RECORD_MMAP2? .*\[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (?:0x)?([0-9a-f]+)( <([0-9a-f]+)>)?[^\]]*\]: \S+ (.*)$/;
      my ($start, $len, $off, $id, $file) = (hex $1, hex $2, hex $3, $5, $6);
      $file =~ s/^\[kernel\.kallsyms\]_text$/[kernel.kallsyms]/;
      printf "0x%x/0x%x/0x%x %s%s\n", $start, $start + $len, $off, $file, defined $id ? " $id" : ""' \
    "$T/$input.txt" | sort -u >"$T/recorded"
  "$pprof" -raw "$T/$input.pb.gz" 2>/dev/null |
    awk '/^Mappings/ { m = 1; next } m && /^[0-9]+:/ { sub(/^[0-9]+: /, ""); sub(/ \[FN\]$/, ""); sub(/ +$/, ""); print }' |
    sort -u >"$T/mappings"
  checks=$((checks + 1))
  if [ ! -s "$T/mappings" ]; then
    problem "$input: pprof -raw lists no mapping"
  elif extra=$(comm -23 "$T/mappings" "$T/recorded") && [ -n "$extra" ]; then
    problem "$input: pprof's mappings that perf did not record: $extra"
  fi
  # Every location's address lies in its mapping (pprof -raw: `ID: ID 0xADDR M=MAPPING ...`).
  checks=$((checks + 1))
  "$pprof" -raw "$T/$input.pb.gz" 2>/dev/null | perl -ne '
    if (/^Locations/) { $l = 1; $m = 0; next } if (/^Mappings/) { $m = 1; $l = 0; next }
    if ($l && /(0x[0-9a-f]+) M=(\d+)/) { push @loc, [hex $1, $2, $1] }
    if ($m && /^(\d+): 0x([0-9a-f]+)\/0x([0-9a-f]+)\//) { $lo{$1} = hex $2; $hi{$1} = hex $3 }
    END { print "no location has a mapping\n" unless @loc;
          for (@loc) { my ($a, $map, $text) = @$_;
                       print "$text outside mapping $map\n" if $a < $lo{$map} || $a >= $hi{$map} } }' >"$T/outside"
  [ -s "$T/outside" ] && problem "$input: $(head -3 "$T/outside")"
done

for input in perf61-dwarf-inlined perf61-dwarf-inlined-srcline perf61-dwarf; do
  zcat "$corpus/$input.txt.gz" >"$T/$input.txt"
  perf2prof "$T/$input.txt" >"$T/$input.prof"
  prof2pprof -o "$T/$input.pb.gz" "$T/$input.prof"
  # perf: a frame tagged (inlined), on its line or its srcline, followed by a frame at the same
  # address is inlined there.
  perl -ne '
    if (/^\t\s*([0-9a-f]+) (.*)$/) {
      my ($addr, $rest) = ($1, $2);
      my $tag = $rest =~ s/ \((inlined|[^()]*(?:\([^()]*\))?[^()]*)\)$// ? $1 : "";
      $rest =~ s/\+0x[0-9a-f]+$//;
      print "$sym\n" if $inl && $addr eq $prev;
      ($prev, $sym, $inl) = ($addr, $rest, $tag eq "inlined");
    } elsif (/^  .*\(inlined\)\s*$/) { $inl = 1 }
    elsif (/^\s*$/) { $inl = 0 }' "$T/$input.txt" | sort -u >"$T/perf-inlined"
  "$pprof" -traces -symbolize=none "$T/$input.pb.gz" 2>/dev/null |
    sed -n 's/^ *\([0-9.]*[a-z]*s \)\{0,1\} *\(.*\) (inline)$/\2/p' | sort -u >"$T/pprof-inline"
  checks=$((checks + 1))
  if [ ! -s "$T/perf-inlined" ]; then
    problem "$input: no inlined frame in the input (the test checks nothing)"
  elif ! cmp -s "$T/perf-inlined" "$T/pprof-inline"; then
    problem "$input: perf's inlined functions and pprof's (inline) frames differ:"
    diff "$T/perf-inlined" "$T/pprof-inline" | head -10
  fi
done
echo "$name: $checks checks, $fail problem(s)"
[ "$fail" -eq 0 ]
