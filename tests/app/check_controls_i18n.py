#!/usr/bin/env python3
"""Every string of the Controls panel is translated (issue 12).

  check_controls_i18n.py SOURCE_DIR

Enumerates the string literals of views/panels/src/controls_panel.cpp (adjacent literals joined, as the
compiler joins them). A literal with an English word (three letters or more) must be passed
to tr() or tr_id(), and views/panels/src/i18n.cpp's table must give it a Chinese text that differs from
the English one. Exceptions are listed in ALLOWED with the reason.
"""
import re
import sys

# Literals that stay as they are: not words a user reads as English text.
ALLOWED = {
    "%.1f MiB": "a unit",
    "running": "an ImGui table id, never shown",
    ".npy": "a file extension the code compares",
}
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def literals(code):
    """(text, start offset) of each string literal, adjacent ones joined; comments skipped."""
    code = re.sub(r"//[^\n]*|#include[^\n]*", lambda m: " " * len(m.group(0)), code)
    out, pos = [], 0
    for m in LITERAL.finditer(code):
        if out and code[pos:m.start()].strip() == "":
            out[-1] = (out[-1][0] + m.group(1), out[-1][1])
        else:
            out.append((m.group(1), m.start()))
        pos = m.end()
    return out


def table(i18n):
    """English -> Chinese from kTable's {"en", "zh"} entries (literals joined)."""
    body = i18n[i18n.index("kTable[]"):]
    body = body[:body.index("\n};")]
    entries = {}
    for m in re.finditer(r"\{((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*,((?:\s*\"(?:[^\"\\]|\\.)*\")+)\s*\}", body):
        en = "".join(LITERAL.findall(m.group(1)))
        zh = "".join(LITERAL.findall(m.group(2)))
        entries[en] = zh
    return entries


def main():
    src = sys.argv[1]
    code = open(f"{src}/views/panels/src/controls_panel.cpp", encoding="utf-8").read()
    zh = table(open(f"{src}/views/panels/src/i18n.cpp", encoding="utf-8").read())
    if len(zh) < 100:
        sys.exit(f"FAIL: parsed only {len(zh)} entries of views/panels/src/i18n.cpp's table")
    problems, checked = [], 0
    found = literals(code)
    for k, (text, at) in enumerate(found):
        if text in ALLOWED or not re.search(r"[A-Za-z]{3,}", text) or text.startswith("##"):
            continue
        if k > 0 and re.fullmatch(r'\s*"\s*,\s*', code[found[k - 1][1] + len(found[k - 1][0]) + 1:at]) and \
                re.search(r"\btr_id\($", code[:found[k - 1][1]].rstrip()):
            continue  # tr_id's second argument: the ImGui id, never shown
        before = code[max(0, at - 12):at]
        if not re.search(r"\btr(_id)?\($", before.rstrip()):
            problems.append(f"not passed to tr()/tr_id(): {text!r}")
            continue
        checked += 1
        if text not in zh:
            problems.append(f"no Chinese text in views/panels/src/i18n.cpp: {text!r}")
        elif zh[text] == text:
            problems.append(f"the Chinese text equals the English one: {text!r}")
    print(f"{checked} Controls panel strings checked against {len(zh)} table entries")
    if problems:
        sys.exit("FAIL:\n  " + "\n  ".join(problems))
    print("PASS")


if __name__ == "__main__":
    main()
