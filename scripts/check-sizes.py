#!/usr/bin/env python3
"""Sizes (run by scripts/check-style.sh, a ctest of label style): no source file over 500 lines
(C++, GLSL, WGSL, JavaScript, Python, shell, CMake) and no C++, JavaScript or Python function over
80 lines, not counting the data tables in it (a table of rows is data, not code: C++ and JavaScript
braced initializers; Python statements made of literals, names and calls of them, such as a list
of test cases). Arguments: the files (or --self-test); it prints one line per file or function
over its limit and exits 1 if there is one.

Function bodies are found by matching braces outside comments and literals: at the top level, a
brace whose statement ends with a parameter list (`) const {`, `) -> T {`, a constructor's
initializer list) or an arrow (`=> {`) opens a function; a script's module wrapper
`(function () {` does not. Lambdas and local classes count as lines of their function. Python
functions are read with the ast module; a nested def is a function of its own."""
import ast
import re
import sys

FILE_LINES = 500
FUNCTION_LINES = 80

CONTROL = re.compile(r'^\s*(?:\}\s*)?(?:if|else|for|while|switch|do|try|catch|namespace|struct|class|union|enum|'
                     r'extern)\b')
FUNCTION_HEAD = re.compile(r'\)\s*(?:const|noexcept|override|final|mutable|->\s*[\w:<>,\s*&]+|\s)*$')
INITIALIZER_LIST_HEAD = re.compile(r'\)\s*:\s*\w+[({]')
LAMBDA_HEAD = re.compile(r'=\s*\[|\[[^\]]*\]\s*\(')
MODULE_WRAPPER = re.compile(r'^\(\s*(?:async\s+)?(?:function\s*\(\s*\)|\(\s*\)\s*=>)$')
# A braced initializer: after =, return, a comma, an open parenthesis or a declared name.
DATA_HEAD = re.compile(r'(?:=|return|,|\(|^)\s*$|^[\w:<>,\s*&]+\s+\w+\s*$')


def blank(text):
    """Blanks the characters of a comment or literal, keeping its newlines."""
    return re.sub(r'[^\n]', ' ', text)


def strip(text):
    """The text with comments and string, character and template literals blanked."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif text.startswith('R"', i) and re.match(r'R"([^(\s]*)\(', text[i:]):
            end = ')' + re.match(r'R"([^(\s]*)\(', text[i:]).group(1) + '"'
            j = text.find(end, i)
            j = n if j < 0 else j + len(end)
        elif c == '`':
            j = i + 1
            while j < n and text[j] != '`':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):  # not 1'000
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
        else:
            out.append(c)
            i += 1
            continue
        out.append(blank(text[i:j]))
        i = j
    return ''.join(out)


def block_kind(head, stack):
    """What a brace opens, given the statement before it: fn, data or blk."""
    in_function = any(kind == 'fn' for kind, _, _ in stack)
    if CONTROL.match(head):
        return 'blk'
    if in_function:
        in_data = any(kind == 'data' for kind, _, _ in stack)
        return 'data' if in_data or DATA_HEAD.search(head) else 'blk'
    if not stack and MODULE_WRAPPER.match(head):
        return 'blk'
    if LAMBDA_HEAD.search(head):
        return 'blk'
    if FUNCTION_HEAD.search(head) or head.endswith('=>') or INITIALIZER_LIST_HEAD.search(head):
        return 'fn'
    return 'blk'


def functions(path):
    """(first line, code lines) of each function: its body's lines less those of its data tables."""
    with open(path, encoding='utf-8') as f:
        lines = strip(f.read()).split('\n')
    stack = []  # [kind, line of its brace, data lines in it]
    found = []
    head = ''
    for number, line in enumerate(lines):
        for ch in line:
            if ch == '{':
                stack.append([block_kind(head.strip(), stack), number, 0])
                head = ''
            elif ch == '}':
                if stack:
                    kind, first, data = stack.pop()
                    if kind == 'fn':
                        found.append((first + 1, number - first - 1 - data))
                    elif kind == 'data' and not any(k == 'data' for k, _, _ in stack):
                        function = next(e for e in reversed(stack) if e[0] == 'fn')
                        function[2] += number - first + 1
                head = ''
            elif ch == ';':
                head = ''
            else:
                head += ch
        head += ' '
    return found


def is_data(node):
    """A Python expression that is data: literals, names, and containers and calls of them."""
    if isinstance(node, (ast.Constant, ast.Name, ast.Attribute, ast.Lambda, ast.JoinedStr)):
        return True
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return all(is_data(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or is_data(k) for k in node.keys) and all(is_data(v) for v in node.values)
    if isinstance(node, ast.Call):
        return all(is_data(a) for a in node.args) and all(is_data(k.value) for k in node.keywords)
    if isinstance(node, ast.UnaryOp):
        return is_data(node.operand)
    if isinstance(node, ast.BinOp):
        return is_data(node.left) and is_data(node.right)
    return False


def python_functions(path):
    """(first line, code lines) of each Python function: its body's lines less its nested functions'
    and its data statements'."""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        lines = set(range(fn.body[0].lineno, fn.end_lineno + 1))
        for n in ast.walk(fn):
            nested = n is not fn and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            data = (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and is_data(n.value)) or \
                (isinstance(n, ast.Assign) and is_data(n.value))
            if nested or data:
                lines -= set(range(n.lineno, n.end_lineno + 1))
        found.append((fn.lineno, len(lines)))
    return found


def self_test():
    """The checks catch what they are for (and spare a data table): 0 when they do."""
    import os
    import tempfile
    code = ['    x += 1;'] * (FUNCTION_LINES + 1)
    table = ['        {"row", 1, [](int v) { return v + 1; }},'] * 200
    cases = {
        'long.cpp': (['int f(int x) {'] + code + ['    return x;', '}'], 1),
        'fits.cpp': (['int f(int x) {'] + code[:FUNCTION_LINES - 1] + ['    return x;', '}'], 0),
        'table.cpp': (['const std::vector<Row>& rows() {', '    static const std::vector<Row> t{'] + table +
                      ['    };', '    return t;', '}'], 0),
        'long.mjs': (['export const f = async (x) => {'] + ['  x += 1;'] * (FUNCTION_LINES + 1) + ['};'], 1),
        'wrapped.js': (['(function () {', '  var f = function (x) {', '    return x;', '  };'] +
                       ['  f(1);'] * (FUNCTION_LINES + 1) + ['})();'], 0),
        'long.py': (['x = 1'] * (FILE_LINES + 1), 1),
        'long_def.py': (['def f(x):'] + ['    x += 1'] * (FUNCTION_LINES + 1) + ['    return x'], 1),
        'cases.py': (['def f(cases):'] + ['    cases.append(case("a", [1, 2], desc="b"))'] * 200, 0),
    }
    with tempfile.TemporaryDirectory() as d:
        for name, (lines, want) in cases.items():
            path = os.path.join(d, name)
            with open(path, 'w', encoding='utf-8') as f:
                f.write('\n'.join(lines) + '\n')
            got = len(problems_of([path]))
            if got != want:
                print(f"check-sizes self-test: {name}: {got} problems, expected {want}")
                return 1
    return 0


def problems_of(paths):
    problems = []
    for p in paths:
        with open(p, encoding='utf-8') as f:
            count = sum(1 for _ in f)
        if count > FILE_LINES:
            problems.append(f"{p}: {count} lines (at most {FILE_LINES})")
        found = functions(p) if p.endswith(('.cpp', '.hpp', '.js', '.mjs')) else \
            python_functions(p) if p.endswith('.py') else []
        for first, lines in found:
            if lines > FUNCTION_LINES:
                problems.append(f"{p}:{first}: a function of {lines} lines (at most {FUNCTION_LINES})")
    return problems


def main(paths):
    if paths == ['--self-test']:
        return self_test()
    problems = problems_of(paths)
    for line in problems:
        print(line)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
