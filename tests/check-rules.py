#!/usr/bin/env python3
"""Checks the layering rules of src/ against tests/include-rules.txt and tests/library-calls.txt:
every `#include "module/..."` goes along an allowed edge, every as_<module> library in
CMakeLists.txt links exactly the modules its line allows, and library code (outside src/cli/)
neither exits nor prints. Prints one line per violation, naming file:line, and exits 1 if any.

usage: check-rules.py [--root DIR] [--rules FILE] [--calls FILE]
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# calls that end the process or write to the terminal, and the standard streams themselves
CALLS = re.compile(r'(?<![.>\w])(exit|_exit|_Exit|quick_exit|abort|die|error|err|errx|verr|verrx|warn|warnx|'
                   r'vwarn|assert|printf|vprintf|puts|putchar|perror)\s*\(')
STREAMS = re.compile(r'\b(stdout|stderr)\b')


def read_rules(path):
    """{module: set of modules it may include, or None for every module}, {module: line number}"""
    rules, where = {}, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            if ':' not in line:
                sys.exit(f'{path}:{n}: expected "MODULE: MODULE..."')
            mod, rest = line.split(':', 1)
            mod, targets = mod.strip(), rest.split()
            if mod in rules:
                sys.exit(f'{path}:{n}: module {mod} listed twice')
            rules[mod] = None if targets == ['*'] else set(targets)
            where[mod] = n
    for mod, allowed in rules.items():
        for t in allowed or ():
            if t not in rules:
                sys.exit(f'{path}:{where[mod]}: {mod} may include {t}, which has no line of its own')
    return rules


def read_calls(path):
    """[(line number, source path, name)] of the allowed exceptions"""
    allowed = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split('#', 1)[0].split()
            if words:
                if len(words) < 2:
                    sys.exit(f'{path}:{n}: expected "PATH NAME  why"')
                allowed.append((n, words[0], words[1]))
    return allowed


def strip_c(text):
    """text with comments and string and character literals blanked, line breaks kept"""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def sources(src):
    for d, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(('.c', '.h')):
                yield os.path.join(d, name)


def module_of(src, path):
    rel = os.path.relpath(path, src)
    return None if rel.startswith('..') or os.sep not in rel else rel.split(os.sep, 1)[0]


def check_includes(root, rules, problems):
    src = os.path.join(root, 'src')
    modules = {m for m in os.listdir(src) if os.path.isdir(os.path.join(src, m))}
    for m in sorted(modules - set(rules)):
        problems.append(f'src/{m}/: module {m} has no line in tests/include-rules.txt')
    for path in sources(src):
        rel = os.path.relpath(path, root)
        mod = module_of(src, path)
        if mod is None or mod not in rules:
            continue
        with open(path, errors='replace') as f:
            lines = f.readlines()
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quote, name = m.groups()
            local = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if quote == '"' and os.path.exists(local):
                target = module_of(src, local)  # beside the file, or ../ into another module
            else:
                first = name.split('/', 1)[0]
                target = first if '/' in name and (first in rules or first in modules) else None
                if target is None:
                    if quote == '"':
                        problems.append(f'{rel}:{n}: #include "{name}" names no module of src/ '
                                        f'(write it as "module/file.h")')
                    continue
            if target is None or target == mod or rules[mod] is None:
                continue
            if target not in rules[mod]:
                may = ' '.join(sorted(rules[mod])) or 'nothing'
                problems.append(f'{rel}:{n}: {mod} -> {target} is not allowed '
                                f'({mod} may include: {may}): {line.strip()}')


def check_links(root, rules, problems):
    """CMakeLists.txt: as_<module> for each module with C sources, linking exactly its allowed set."""
    path = os.path.join(root, 'CMakeLists.txt')
    with open(path) as f:
        text = f.read()
    lineno = lambda pos: text.count('\n', 0, pos) + 1
    libs, links = {}, {}
    for m in re.finditer(r'add_library\(\s*as_(\w+)', text):
        libs[m.group(1)] = lineno(m.start())
    for m in re.finditer(r'target_link_libraries\(\s*as_(\w+)([^)]*)\)', text):
        got = set(re.findall(r'(?<![\w$])as_(\w+)', m.group(2)))
        links.setdefault(m.group(1), [set(), lineno(m.start())])[0].update(got)
    checked = re.search(r'set\(\s*AS_MODULES([^)]*)\)', text)
    checked = set(re.findall(r'as_(\w+)', checked.group(1))) if checked else set()
    src = os.path.join(root, 'src')
    for mod in sorted(rules):
        d = os.path.join(src, mod)
        has_c = os.path.isdir(d) and any(n.endswith('.c') for n in os.listdir(d))
        if mod == 'cli' or not has_c:
            continue
        if mod not in libs:
            problems.append(f'CMakeLists.txt: src/{mod}/ has C sources but no add_library(as_{mod} ...)')
            continue
        got, n = links.get(mod, [set(), libs[mod]])
        for extra in sorted(got - rules[mod] - {mod}):
            problems.append(f'CMakeLists.txt:{n}: as_{mod} links as_{extra}: {mod} -> {extra} is not allowed')
        for missing in sorted(rules[mod] - got):
            if missing in libs:
                problems.append(f'CMakeLists.txt:{n}: as_{mod} does not link as_{missing} '
                                f'(tests/include-rules.txt allows {mod} -> {missing}; link exactly what is allowed)')
        if mod not in checked:
            problems.append(f'CMakeLists.txt:{libs[mod]}: as_{mod} is missing from AS_MODULES (its link check)')


def check_calls(root, allowed, calls_path, problems):
    src = os.path.join(root, 'src')
    used = set()
    for path in sources(src):
        rel = os.path.relpath(path, root)
        if module_of(src, path) in (None, 'cli'):
            continue
        with open(path, errors='replace') as f:
            text = strip_c(f.read())
        for n, line in enumerate(text.split('\n'), 1):
            if line.lstrip().startswith('#'):
                continue  # preprocessor lines (#include <stdio.h>, #define) call nothing
            for m in list(CALLS.finditer(line)) + list(STREAMS.finditer(line)):
                name = m.group(1)
                hit = [a for a in allowed if a[1] == rel and a[2] in (name, '*')]
                if hit:
                    used.update(a[0] for a in hit)
                    continue
                what = f'{name}()' if m.re is CALLS else name
                problems.append(f'{rel}:{n}: library code uses {what}: return an error instead '
                                f'(or add "{rel} {name}  why" to tests/library-calls.txt)')
    shown = os.path.relpath(calls_path, root) if calls_path.startswith(root + os.sep) else calls_path
    for n, path, name in allowed:
        if n not in used:
            problems.append(f'{shown}:{n}: {path} no longer uses {name}: remove the exception')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--root', default=os.path.dirname(HERE))
    ap.add_argument('--rules', default=os.path.join(HERE, 'include-rules.txt'))
    ap.add_argument('--calls', default=os.path.join(HERE, 'library-calls.txt'))
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    rules = read_rules(a.rules)
    problems = []
    check_includes(root, rules, problems)
    check_links(root, rules, problems)
    check_calls(root, read_calls(a.calls), os.path.abspath(a.calls), problems)
    for p in problems:
        print(p)
    print(f'{len(problems)} rule violations')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
