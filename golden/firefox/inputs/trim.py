#!/usr/bin/env python3
"""Trims a Gecko profile recorded by record.sh to a size fit for the repository, keeping its
structure as Firefox wrote it: every marker table emptied (their rows are most of the bytes and
proftools reads samples, not markers), the parent process's main thread dropped (2 MB of browser
start-up), the child processes that did not run the page (no worker thread) dropped, and
profilingLog dropped. Reads the profile on stdin, writes it on stdout."""
import json
import sys


def trim(profile, parent):
    if parent:
        profile["threads"] = [t for t in profile["threads"] if t["name"] != "GeckoMain"]
    for thread in profile["threads"]:
        thread["markers"]["data"] = []
    profile["processes"] = [
        child for child in profile.get("processes", [])
        if any(t["name"] == "DOM Worker" for t in child["threads"])
    ]
    for child in profile["processes"]:
        trim(child, False)
    profile.pop("profilingLog", None)


profile = json.load(sys.stdin)
trim(profile, True)
json.dump(profile, sys.stdout, separators=(",", ":"))
