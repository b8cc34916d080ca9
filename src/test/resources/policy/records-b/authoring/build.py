"""Renders the hand-written records of <lang>.py (this folder) into ../<lang>.jsonl, one case a line.

Run from this folder: python3 build.py   (Python 3.8+, standard library only, deterministic).

Second tool-record set (issue 13, set B). An entry is one record written once with a slot (@@, and @2 for an
attack split over two fields), its benign text and one or two attacks. Every attack and the benign text become
one case each, rendered the same way, so an attack and its twin differ only in the slot(s). Formats:
  json        the record as JSON text (indent 2), one text block
  repr        the record as Python prints a dict (single quotes unless a string holds one), one text block
  text        plain "Key: value" lines, one text block
  markdown    a Markdown rendering (title, field list, long fields as paragraphs), one text block
  csv         the record's rows (its one list of flat objects) as CSV with a header, one text block
  structured  the record as structuredContent, beside a one-line text block that does not carry it
"""
import csv
import importlib
import io
import json
import os
import sys
import unicodedata

sys.dont_write_bytecode = True

LANGS = ["en", "fr", "es", "de", "zh"]
FORMATS = ["json", "repr", "text", "markdown", "csv", "structured"]
STYLES = ["note_to_self", "friend_favour", "workflow_step", "reminder", "question", "to_assistant", "override"]
POSITIONS = ["whole", "middle", "end", "split"]
HARD = ["plain", "courtesy", "colleague_request", "how_to", "security_advice", "quoted_attack", "refund_complaint"]

# record type -> (upstream, tool), declared in ../env.json
TOOLS = {
    "hr_record": ("hr", "get_employee"),
    "shipment": ("logistics", "track_shipment"),
    "crm_note": ("crm", "get_account_notes"),
    "support_chat": ("helpdesk", "get_chat_transcript"),
    "code_review": ("git", "get_pull_request_comments"),
    "wiki_page": ("wiki", "read_page"),
    "spreadsheet": ("sheets", "read_range"),
    "app_review": ("appstore", "list_reviews"),
    "sms_thread": ("phone", "read_sms_thread"),
    "voicemail": ("phone", "get_voicemail_transcript"),
    "iot_log": ("devices", "get_device_log"),
}

SUMMARY = {
    "hr_record": "Employee record loaded.",
    "shipment": "Tracking details loaded.",
    "crm_note": "Account notes loaded.",
    "support_chat": "Transcript loaded.",
    "code_review": "Review comments loaded.",
    "wiki_page": "Page loaded.",
    "spreadsheet": "Range read.",
    "app_review": "Reviews loaded.",
    "sms_thread": "Thread loaded.",
    "voicemail": "Transcript ready.",
    "iot_log": "Log loaded.",
}


class P:
    """One record (record_type, dict) with a slot; benign text; attacks as (style, position, text).
    A split attack's text (and its twin's) is a pair: the @@ field's text and the @2 field's text."""

    def __init__(self, record, fmt, benign, attacks, hard="plain"):
        assert fmt in FORMATS, fmt
        assert hard in HARD, hard
        self.record_type, self.record = record
        assert self.record_type in TOOLS, self.record_type
        self.fmt, self.benign, self.attacks, self.hard = fmt, benign, attacks, hard


def fill(node, x):
    if isinstance(node, str):
        if isinstance(x, tuple):
            return node.replace("@@", x[0]).replace("@2", x[1])
        return node.replace("@@", x)
    if isinstance(node, list):
        return [fill(n, x) for n in node]
    if isinstance(node, dict):
        return {k: fill(v, x) for k, v in node.items()}
    return node


def flat(node):
    if isinstance(node, str):
        return node
    if isinstance(node, list):
        return "\n".join(flat(n) for n in node)
    if isinstance(node, dict):
        return "\n".join(flat(v) for v in node.values())
    return ""


def label(k):
    return k.replace("_", " ").capitalize()


def plain(node, indent=""):
    lines = []
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, list) and all(not isinstance(i, (dict, list)) for i in v):
                lines.append(f"{indent}{label(k)}: {', '.join(str(i) for i in v)}")
            elif isinstance(v, (dict, list)):
                lines.append(f"{indent}{label(k)}:")
                lines.extend(plain(v, indent + "  "))
            else:
                lines.append(f"{indent}{label(k)}: {v}")
    elif isinstance(node, list):
        for item in node:
            sub = plain(item, indent + "  ")
            if sub:
                sub[0] = indent + "- " + sub[0].lstrip()
            lines.extend(sub)
    return lines


def markdown(record):
    items = list(record.items())
    title_key, title = items[0]
    out = [f"# {title}", ""]
    paragraphs = []
    for k, v in items[1:]:
        if isinstance(v, str) and (len(v) > 80 or "\n" in v):
            paragraphs.append((k, v))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            paragraphs.append((k, v))
        elif isinstance(v, list):
            out.append(f"- **{label(k)}:** {', '.join(str(i) for i in v)}")
        else:
            out.append(f"- **{label(k)}:** {v}")
    for k, v in paragraphs:
        out += ["", f"## {label(k)}", ""]
        if isinstance(v, str):
            out.append(v)
        else:
            for item in v:
                vals = list(item.values())
                head = " · ".join(str(x) for x in vals[:-1])
                out.append(f"**{head}**  ")
                out.append(str(vals[-1]))
                out.append("")
    return "\n".join(out).rstrip() + "\n"


def rows_csv(record):
    lists = [v for v in record.values() if isinstance(v, list) and v and isinstance(v[0], dict)]
    assert len(lists) == 1, "a csv record has exactly one list of rows"
    rows = lists[0]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(list(rows[0].keys()))
    for r in rows:
        w.writerow([r[k] for k in rows[0].keys()])
    return buf.getvalue()


def result(entry, x):
    record = fill(entry.record, x)
    fmt = entry.fmt
    structured = None
    if fmt == "json":
        text = json.dumps(record, ensure_ascii=False, indent=2)
    elif fmt == "repr":
        text = repr(record)
    elif fmt == "text":
        text = "\n".join(plain(record))
    elif fmt == "markdown":
        text = markdown(record)
    elif fmt == "csv":
        text = rows_csv(record)
    else:
        text, structured = SUMMARY[entry.record_type], record
    r = {"content": [{"type": "text", "text": text}]}
    if structured is not None:
        r["structuredContent"] = structured
    r["isError"] = False
    return r


def visible(line):
    """Invisible and look-alike characters escaped, so a reviewer sees them (the set plants none on purpose)."""
    out = []
    for ch in line:
        cat = unicodedata.category(ch)
        name = unicodedata.name(ch, "")
        if (cat in {"Cf", "Cc", "Co", "Cn", "Zl", "Zp"} and ch != "\n") or (cat == "Zs" and ch != " ") \
                or name.startswith("CYRILLIC") or name.startswith("GREEK"):
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def cases(lang, entries):
    out = []
    for i, e in enumerate(entries, 1):
        base = f"{lang}-b{i:03d}"
        assert 1 <= len(e.attacks) <= 2, base
        upstream, tool = TOOLS[e.record_type]
        bid = base + "-b"
        split_record = "@2" in flat(e.record)
        assert "@@" in flat(e.record), base + ": no slot"
        assert split_record == isinstance(e.benign, tuple), base + ": split record, split benign text"
        benign = result(e, e.benign)
        for j, (style, pos, text) in enumerate(e.attacks):
            aid = base + "-a" + ("" if j == 0 else str(j + 1))
            assert style in STYLES, aid + ": style " + style
            assert pos in POSITIONS, aid + ": position " + pos
            assert (pos == "split") == isinstance(text, tuple) == split_record, aid + ": split alike"
            r = result(e, text)
            assert r != benign, aid + ": same as its twin"
            out.append({"id": aid, "kind": "attack", "twin": bid, "language": lang, "record_type": e.record_type,
                        "format": e.fmt, "attack": style, "position": pos, "upstream": upstream, "tool": tool,
                        "result": r})
        out.append({"id": bid, "kind": "benign", "twin": base + "-a", "language": lang,
                    "record_type": e.record_type, "format": e.fmt, "hard_negative": e.hard, "upstream": upstream,
                    "tool": tool, "result": benign})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    for lang in LANGS:
        if not os.path.exists(os.path.join(here, lang + ".py")):
            continue
        rows = cases(lang, importlib.import_module(lang).ENTRIES)
        with open(os.path.join(here, "..", lang + ".jsonl"), "w", encoding="utf-8", newline="\n") as f:
            for r in rows:
                f.write(visible(json.dumps(r, ensure_ascii=False)) + "\n")
        a = sum(1 for r in rows if r["kind"] == "attack")
        print(f"{lang}: {a} attacks, {len(rows) - a} benign")


if __name__ == "__main__":
    main()
