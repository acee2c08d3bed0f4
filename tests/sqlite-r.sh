#!/usr/bin/env bash
# prof2sqlite's database read from R with DBI and RSQLite (Debian's r-cran-rsqlite), as users
# of the R profile package's v2 data model would: the seed's tables have the seed's columns
# with the seed's types (meta, sources, samples, sample_values, sample_locations, locations,
# functions), the version row says 2.0, and the self value per function of one run computed in
# R from those tables alone agrees with the database's stack_self view and with prof-text's.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$root/bin:$PATH" LC_ALL=C
name=sqlite-r
source "$root/tests/skip.sh"
if ! command -v Rscript > /dev/null || ! Rscript -e 'library(RSQLite)' > /dev/null 2>&1; then
  skip_installable "R with RSQLite is not installed (Debian: r-cran-rsqlite)"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/sqlite-r.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Two runs in one database: the worked example and an R memory profile.
prof2sqlite -o "$work/p.db" "$root/golden/inputs/worked-example.prof"
rprof2prof "$root/golden/rprof/corpus/memory_mem.out.gz" 2>/dev/null > "$work/r.prof"
prof2sqlite --append -o "$work/p.db" "$work/r.prof"
# prof-text's self cpu per function of the R profile (the leaf of each folded stack, summed),
# name<TAB>nanoseconds.
prof-text --folded --value cpu "$work/r.prof" |
  awk '{ v = $NF; sub(/ [^ ]*$/, ""); n = split($0, f, ";"); s[f[n]] += v }
       END { for (k in s) if (s[k] != 0) print k "\t" s[k] }' | sort > "$work/flat.tsv"

Rscript - "$work/p.db" "$work/flat.tsv" <<'R'
suppressPackageStartupMessages({ library(DBI); library(RSQLite) })
args <- commandArgs(trailingOnly = TRUE)
con <- dbConnect(RSQLite::SQLite(), args[[1]], flags = RSQLite::SQLITE_RO)
fail <- function(...) { cat("sqlite-r: FAIL:", ..., "\n"); quit(status = 1) }

# The seed's tables, columns and R types (extra columns of ours are allowed after them).
seed <- list(
  meta = c(key = "character", value = "character"),
  sources = c(source_id = "integer", source_type = "character", source_uri = "character",
              source_timestamp = "numeric"),
  samples = c(sample_id = "integer", source_id = "integer"),
  sample_values = c(sample_id = "integer", type = "character", unit = "character",
                    value = "numeric"),
  sample_locations = c(sample_id = "integer", depth = "integer", location_id = "integer"),
  locations = c(location_id = "integer", function_id = "integer", line = "integer"),
  functions = c(function_id = "integer", name = "character", system_name = "character",
                filename = "character", start_line = "integer"))
tables <- list()
for (name in names(seed)) {
  t <- dbReadTable(con, name)
  for (column in names(seed[[name]])) {
    if (!column %in% names(t)) fail(name, "has no column", column)
    # Integer columns holding large values come back as double; both are numbers to R.
    want <- seed[[name]][[column]]
    got <- class(t[[column]])[1]
    ok <- got == want || (want == "numeric" && got == "integer") ||
      (want == "integer" && got == "numeric" && all(t[[column]] == round(t[[column]]), na.rm = TRUE))
    if (!ok) fail(name, column, "is", got, "not", want)
  }
  tables[[name]] <- t
}
version <- tables$meta$value[tables$meta$key == "version"]
if (!identical(version, "2.0")) fail("meta version is", version)
if (nrow(tables$sources) != 2) fail("expected 2 sources, found", nrow(tables$sources))
if (any(tables$sample_locations$depth < 1)) fail("depth starts at 1 (innermost)")

# Self value per function of the R run (source 2), the seed's way: the innermost location of
# each sample.
r_samples <- tables$samples$sample_id[tables$samples$source_id == 2]
leaf <- merge(tables$sample_locations[tables$sample_locations$depth == 1, ], tables$locations,
              by = "location_id")
leaf <- merge(leaf, tables$functions, by = "function_id")
cpu <- tables$sample_values[tables$sample_values$type == "cpu" &
                            tables$sample_values$sample_id %in% r_samples, ]
self <- merge(leaf[, c("sample_id", "name")], cpu[, c("sample_id", "value")], by = "sample_id")
ours <- aggregate(value ~ name, data = self, FUN = sum)
ours <- ours[ours$value != 0, ]
ours <- ours[order(ours$name), ]

view <- dbGetQuery(con, "
  SELECT f.name, SUM(v.value) AS self FROM samples s JOIN sample_values v USING (sample_id)
    JOIN stack_self x USING (stack_id) JOIN functions f USING (function_id)
  WHERE s.source_id = 2 AND v.type = 'cpu' GROUP BY f.function_id HAVING self <> 0")
view <- view[order(view$name), ]
if (!isTRUE(all.equal(ours$value, view$self)) || !identical(ours$name, view$name)) {
  fail("the stack_self view differs from the seed tables' self value")
}
flat <- read.delim(args[[2]], header = FALSE, col.names = c("name", "value"),
                   quote = "", stringsAsFactors = FALSE)
flat <- flat[order(flat$name), ]
if (!identical(flat$name, ours$name) || !isTRUE(all.equal(as.numeric(flat$value), ours$value))) {
  print(head(flat)); print(head(ours))
  fail("R's self value per function differs from prof-text's flat column")
}
cat(sprintf("sqlite-r: ok: %d tables of the seed, %d samples, self cpu of %d functions agrees with stack_self and prof-text\n",
            length(seed), nrow(tables$samples), nrow(ours)))
dbDisconnect(con)
R
