#!/usr/bin/env python3
"""Extracts public.tsv (the public part of the injection classifier's data) from snapshots of the source
repositories, one git directory per source (MIRRORS/<owner>+<name>/repo), at the commits named in SOURCES
below (README.md beside this file has the table with licences). Run once by hand; the trainer reads only
public.tsv, which is kept in the steering repository's shared/injection/, not in this repository.

    python3 extract_injection_data.py /path/to/mirrors > public.tsv

Each output line: label (1 injection, 0 benign) TAB source TAB language TAB family TAB text, with
backslash, tab and newline escaped as \\\\, \\t, \\n. Lines are written in a fixed order."""
import csv, io, re, subprocess, sys

MIRRORS = sys.argv[1]
SOURCES = {
    'pallms': ('mik0w+pallms', 'bfedec0fa6cb8d44a73c730a02eeaac36aefd198'),
    'taksec': ('TakSec+Prompt-Injection-Everywhere', '9b69c8ae7958f68d562d484103a7b14b66983d63'),
    'patt': ('swisskyrepo+PayloadsAllTheThings', 'f9fa51417886ac11476cb62db2dff21773dc570b'),
    'langgpt': ('langgptai+LLM-Jailbreaks', 'f866ee1bb86ceeee3c8675925ec6da02f16f697d'),
    'acp': ('f+awesome-chatgpt-prompts', '008698943a52f085a9e29b361562844cc13ce921'),
    'vite-es': ('vitejs+docs-es', 'ceab6516303316a00310befa240c13722dd64b3e'),
    'vite-de': ('vitejs+docs-de', 'f9ac6cd297e6f75a81b0a010e1d7f5c1f90f79e9'),
    'vue-fr': ('vuejs-translations+docs-fr', 'f944e8479b8d8ef3caa21a3ae415ba927b7492a7'),
    'vue-zh': ('vuejs-translations+docs-zh-cn', 'c2715ff75bae5376bc5bf212280ae76e30089fbd'),
    'vue-en': ('vuejs+docs', '01e098a967951ea92d09b100b8e7d82c7a3369a2'),
    'howtocook': ('Anduin2017+HowToCook', 'cbeb536760320efe24f9a61fe354a318d5887e30'),
}
MAX_CHARS = 3000

def git(src, *args):
    d, c = SOURCES[src]
    return subprocess.run(['git', '-C', f'{MIRRORS}/{d}/repo', *args], check=True, capture_output=True).stdout.decode('utf-8', 'replace')

def show(src, path):
    return git(src, 'show', f'{SOURCES[src][1]}:{path}')

def files(src, pattern):
    names = git(src, '-c', 'core.quotePath=false', 'ls-tree', '-r', '--name-only', SOURCES[src][1]).splitlines()
    return sorted(n for n in names if re.search(pattern, n))

out = []
seen = set()
def emit(label, src, lang, family, text):
    text = re.sub(r'[ \t]+', ' ', text).strip()
    if len(text) < 12 or text in seen:
        return
    seen.add(text)
    text = text[:MAX_CHARS]
    esc = text.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')
    out.append(f'{label}\t{src}\t{lang}\t{family}\t{esc}')

def lang_of(text):
    return 'zh' if len(re.findall(r'[\u4e00-\u9fff]', text)) > len(text) / 10 else 'en'

# --- positives -------------------------------------------------------------------------------------
for path in ['plaintext/promptinjection.txt', 'plaintext/jailbreak.txt']:
    for line in show('pallms', path).splitlines():
        line = line.replace('{NEW_INSTRUCTION}', '').strip()
        if len(line) >= 20:
            emit(1, 'pallms', lang_of(line), 'pallms:' + path, line)
for path in files('taksec', r'^(Basic-Prompt-Injection|Prompt-Leak).*\.txt$'):
    emit(1, 'taksec', 'en', 'taksec:' + path, show('taksec', path))
readme = show('patt', 'Prompt Injection/README.md')
for block in re.findall(r'```[a-z0-9]*\n(.*?)```', readme, re.S):
    emit(1, 'patt', 'en', 'patt:code', re.sub(r'\n\s+', '\n', block))
for m in re.findall(r'^\s*\* [^`\n]*?: `([^`]{15,})`', readme, re.M):
    emit(1, 'patt', 'en', 'patt:bullet', m)
for row in re.findall(r'^\|[^|\n]*\|[^|\n]*\| `([^`]{15,})`', readme, re.M):
    emit(1, 'patt', 'en', 'patt:table', row)
lg = show('langgpt', 'README.md')
for block in re.findall(r'```[a-z0-9]*\n(.*?)```', lg, re.S):
    emit(1, 'langgpt', lang_of(block), 'langgpt:readme', block)

# User-to-assistant prompts ("I want you to act as ..."): an order to the model. In a tool RESULT that is
# exactly what an injection is, so they are positives, never negatives (the first 600 text prompts).
csv.field_size_limit(10**8)
n = 0
for row in csv.DictReader(io.StringIO(show('acp', 'prompts.csv'))):
    if n < 600 and row.get('type') == 'TEXT' and 40 <= len(row['prompt']) <= MAX_CHARS:
        emit(1, 'acp', lang_of(row['prompt']), 'acp:prompts.csv', row['prompt'])
        n += 1

# --- negatives: documentation prose, recipes, commit subjects ----------------------------------------
def prose(md):
    md = re.sub(r'^---\n.*?\n---\n', '', md, flags=re.S)
    md = re.sub(r'```.*?```', '\n\n', md, flags=re.S)
    md = re.sub(r'<script.*?</script>|<style.*?</style>', '', md, flags=re.S)
    md = re.sub(r'<[^>]+>', '', md)
    md = re.sub(r'!\[[^\]]*\]\([^)]*\)', '', md)
    md = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', md)
    md = re.sub(r'\{[#.][^}]*\}', '', md)
    for para in re.split(r'\n\s*\n', md):
        para = '\n'.join(l for l in para.splitlines() if not re.match(r'\s*(:::|\||<|import |@)', l))
        para = re.sub(r'^\s*(#+|[*-]|\d+\.)\s*', '', para, flags=re.M).replace('**', '').replace('`', '')
        if len(para) >= 30:
            yield para

def docs(src, lang, pattern, cap):
    n = 0
    for path in files(src, pattern):
        for para in prose(show(src, path)):
            if n < cap:
                emit(0, src, lang, f'{src}:{path}', para)
                n += 1

docs('vite-es', 'es', r'^docs/.*\.md$', 1500)
docs('vite-de', 'de', r'^docs/.*\.md$', 1500)
docs('vue-fr', 'fr', r'^src/.*\.md$', 1500)
docs('vue-en', 'en', r'^src/.*\.md$', 1500)
docs('vue-zh', 'zh', r'^src/.*\.md$', 1500)
n = 0
for path in files('howtocook', r'^dishes/.*\.md$'):
    for line in show('howtocook', path).splitlines():
        line = re.sub(r'^\s*(#+|[*-]|\d+\.)\s*', '', line).replace('**', '')
        line = re.sub(r'!\[[^\]]*\]\([^)]*\)', '', line)
        if len(line) >= 8 and n < 2500 and re.search(r'[\u4e00-\u9fff]', line):
            emit(0, 'howtocook', 'zh', 'howtocook:' + path.split('/')[1], line)
            n += 1
for src in ['vite-es', 'vite-de', 'vue-fr']:
    n = 0
    for subject in git(src, 'log', '--no-merges', '--format=%s', SOURCES[src][1]).splitlines():
        if n < 700 and len(subject) >= 20 and re.match(r'^[ -~]+$', subject) and not re.search(r'https?:|@', subject):
            emit(0, src + '-commits', 'en', src + ':commits', subject)
            n += 1
print('\n'.join(out))
