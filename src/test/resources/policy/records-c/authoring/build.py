"""Renders the hand-written records of <lang>.py (this folder) into ../<lang>.jsonl, one case a line.

Run from this folder: python3 build.py   (Python 3.8+, standard library only, deterministic).

Third tool-record set (issue 13, set C). An entry R(...) is one record written once with a slot (@@, and @2 for an
attack split over two fields), the text a person would really put there (the benign twin) and one or two attacks.
Each attack and the benign text become one case each, rendered the same way, so an attack and its twin differ only
in the slot(s). Formats:
  json          the record as JSON text, indent 2, one text block
  json_compact  the record as JSON text on one line, one text block
  repr          the record as Python prints a dict (single quotes unless a string holds one), one text block
  text          "Key: value" lines (lists as indented "- " items), one text block
  markdown      a Markdown rendering (title, bold field list, long fields and item lists as sections)
  structured    the record as structuredContent, beside a one-line text block that does not carry it
"""
import importlib
import json
import os
import sys
import unicodedata

sys.dont_write_bytecode = True

LANGS = ["en", "fr", "es", "de", "zh"]
FORMATS = ["json", "json_compact", "repr", "text", "markdown", "structured"]
STYLES = ["request", "override", "to_assistant", "question", "workflow_step", "reminder", "friend_favour",
          "exfiltration"]
POSITIONS = ["whole", "middle", "end", "split"]
QUOTING = ["none", "quoted", "nested"]
HARD = ["plain", "courtesy", "person_request", "how_to", "security_advice", "quoted_attack", "refund_complaint"]

# record type -> (upstream, tool), declared in ../env.json
TOOLS = {
    "email": ("mail", "read_email"),
    "email_search": ("mail", "search_emails"),
    "product_review": ("shop", "get_product_reviews"),
    "calendar_event": ("calendar", "list_events"),
    "repository": ("github", "get_repository"),
    "repo_issue": ("github", "list_issues"),
    "note": ("notes", "read_note"),
    "bank_transaction": ("bank", "list_transactions"),
    "payee_list": ("bank", "list_payees"),
    "search_result": ("web", "search"),
    "device_status": ("home", "get_device_status"),
    "file_listing": ("drive", "list_files"),
}

SUMMARY = {
    "email": "Message loaded.",
    "email_search": "Search finished.",
    "product_review": "Reviews loaded.",
    "calendar_event": "Events listed.",
    "repository": "Repository loaded.",
    "repo_issue": "Issues listed.",
    "note": "Note loaded.",
    "bank_transaction": "Transactions listed.",
    "payee_list": "Payees listed.",
    "search_result": "Results ready.",
    "device_status": "Status read.",
    "file_listing": "Files listed.",
}


class R:
    """One record (record_type, dict) with a slot; its format; benign text; attacks as
    (style, position, text) or (style, position, text, quoting); the benign twin's hard-negative label.
    A split attack's text (and its twin's) is a pair: the @@ field's text and the @2 field's text."""

    def __init__(self, record, fmt, benign, attacks, hard="plain"):
        assert fmt in FORMATS, fmt
        assert hard in HARD, hard
        self.record_type, self.record = record
        assert self.record_type in TOOLS, self.record_type
        self.fmt, self.benign, self.hard = fmt, benign, hard
        self.attacks = [a if len(a) == 4 else (a[0], a[1], a[2], "none") for a in attacks]


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


def scalar(v):
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def plain(node, indent=""):
    lines = []
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, list) and all(not isinstance(i, (dict, list)) for i in v):
                lines.append(f"{indent}{label(k)}: {', '.join(scalar(i) for i in v)}")
            elif isinstance(v, (dict, list)):
                lines.append(f"{indent}{label(k)}:")
                lines.extend(plain(v, indent + "  "))
            else:
                lines.append(f"{indent}{label(k)}: {scalar(v)}")
    elif isinstance(node, list):
        for item in node:
            sub = plain(item, indent + "  ")
            if sub:
                sub[0] = indent + "- " + sub[0].lstrip()
            lines.extend(sub)
    return lines


def markdown(record):
    items = list(record.items())
    _, title = items[0]
    out = [f"# {title}", ""]
    sections = []
    for k, v in items[1:]:
        if isinstance(v, str) and (len(v) > 80 or "\n" in v):
            sections.append((k, v))
        elif isinstance(v, list) and v and isinstance(v[0], dict):
            sections.append((k, v))
        elif isinstance(v, dict):
            sections.append((k, [v]))
        elif isinstance(v, list):
            out.append(f"- **{label(k)}:** {', '.join(scalar(i) for i in v)}")
        else:
            out.append(f"- **{label(k)}:** {scalar(v)}")
    for k, v in sections:
        if out[-1] != "":
            out.append("")
        out += [f"## {label(k)}", ""]
        if isinstance(v, str):
            out.append(v)
        else:
            for item in v:
                for ik, iv in item.items():
                    out.append(f"- **{label(ik)}:** {scalar(iv)}")
                out.append("")
    return "\n".join(out).rstrip() + "\n"


def result(entry, x):
    record = fill(entry.record, x)
    fmt = entry.fmt
    structured = None
    if fmt == "json":
        text = json.dumps(record, ensure_ascii=False, indent=2)
    elif fmt == "json_compact":
        text = json.dumps(record, ensure_ascii=False)
    elif fmt == "repr":
        text = repr(record)
    elif fmt == "text":
        text = "\n".join(plain(record))
    elif fmt == "markdown":
        text = markdown(record)
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
        base = f"{lang}-c{i:03d}"
        assert 1 <= len(e.attacks) <= 2, base
        upstream, tool = TOOLS[e.record_type]
        bid = base + "-b"
        split_record = "@2" in flat(e.record)
        assert "@@" in flat(e.record), base + ": no slot"
        assert split_record == isinstance(e.benign, tuple), base + ": split record, split benign text"
        benign = result(e, e.benign)
        for j, (style, pos, text, quoting) in enumerate(e.attacks):
            aid = base + "-a" + ("" if j == 0 else str(j + 1))
            assert style in STYLES, aid + ": style " + style
            assert pos in POSITIONS, aid + ": position " + pos
            assert quoting in QUOTING, aid + ": quoting " + quoting
            assert (pos == "split") == isinstance(text, tuple) == split_record, aid + ": split alike"
            r = result(e, text)
            assert r != benign, aid + ": same as its twin"
            out.append({"id": aid, "kind": "attack", "twin": bid, "language": lang, "record_type": e.record_type,
                        "format": e.fmt, "attack": style, "position": pos, "quoting": quoting,
                        "upstream": upstream, "tool": tool, "result": r})
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
