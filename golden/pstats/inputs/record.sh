#!/bin/sh
# Records golden/pstats/inputs' files with Debian's python3 (3.11), from /tmp/proftools-pstats so
# that the file names they hold do not depend on the checkout's place:
#   cprofile.pstats   python3 -m cProfile -o ... workload.py
#   profile.pstats    python3 -m profile -o ... workload.py   (callers as call counts only)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=/tmp/proftools-pstats
mkdir -p "$dir"
cp "$here/workload.py" "$dir/workload.py"
cd "$dir"
/usr/bin/python3 -m cProfile -o "$here/cprofile.pstats" workload.py
/usr/bin/python3 -m profile -o "$here/profile.pstats" workload.py
/usr/bin/python3 --version >"$here/python-version.txt"
