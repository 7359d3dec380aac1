#!/usr/bin/env python3
"""A man page matches its program's --help (stdlib only):

  check_man.py PAGE.1 PROGRAM

every --option that `PROGRAM --help` lists (and `PROGRAM SUB --help` for each subcommand SUB that the page
names in a comment line `.\\" subcommands: SUB ...`) is described in PAGE.1 (written `\\-\\-option`
in roff), PAGE.1 names no --option that the program does not have, and groff formats the
page without a warning (where groff is installed); the page is ASCII (roff escapes such as
\\(*g for other characters), so that every man formats it the same.
"""
import re
import shutil
import subprocess
import sys


def options(text):
    return set(re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", text))


def main():
    page, program = sys.argv[1], sys.argv[2]
    with open(page, encoding="utf-8") as f:
        roff = f.read()
    if not roff.isascii():
        sys.exit(f"FAIL: {page} is not ASCII (write roff escapes such as \\(*g)")
    helptext = subprocess.run([program, "--help"], capture_output=True, text=True, check=True).stdout
    for line in roff.splitlines():
        if line.startswith('.\\" subcommands:'):
            for sub in line.split(":", 1)[1].split():
                helptext += subprocess.run([program, sub, "--help"], capture_output=True, text=True, check=True).stdout
    in_help = options(helptext)
    in_page = options(roff.replace("\\-", "-"))
    missing, stale = sorted(in_help - in_page), sorted(in_page - in_help)
    if missing:
        sys.exit(f"FAIL: {page} does not describe {', '.join('--' + o for o in missing)}")
    if stale:
        sys.exit(f"FAIL: {page} names {', '.join('--' + o for o in stale)}, which {program} --help does not list")
    if shutil.which("groff"):
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page], capture_output=True, text=True)
        if p.returncode != 0 or p.stderr.strip():
            sys.exit(f"FAIL: groff warns about {page}:\n{p.stderr}")
    print(f"{page}: the {len(in_help)} options of {program} --help, groff clean")


if __name__ == "__main__":
    main()
