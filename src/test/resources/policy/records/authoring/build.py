"""Renders the hand-written tool records of ../authoring/<lang>.py into ../<lang>.jsonl (one case a line).

Run from this folder: python3 build.py   (Python 3.8+, standard library only; deterministic).

A source entry is one record written once with a slot (@@) and what goes in the slot: one benign text and
one or two attack texts. Each attack and the benign text become one case each, the same record rendered the
same way, so an attack and its twin differ only in the slot. The rendering (format) is chosen per entry:
  json        the record as JSON text (indent 2), one text block
  repr        the record as Python prints a dict (repr: single quotes unless the string holds one), one text block
  text        the record as plain "Key: value" text, one text block
  structured  the record as structuredContent, with a one-line text block that does not carry it
Split entries (attack kind "split") put the slot's first part in the record and its second part in a second
text block; their benign twin is split the same way.
"""
import base64
import importlib
import json
import os
import sys
import unicodedata

sys.dont_write_bytecode = True  # no __pycache__ beside the sources

SLOT = "@@"
LANGS = ["en", "fr", "es", "de", "zh"]
FORMATS = ["json", "repr", "text", "structured"]
KINDS = ["override", "action_request", "exfiltration", "fake_authority", "todo_note", "polite_question",
         "hidden_html", "hidden_unicode", "hidden_base64", "split", "wrapped"]
HARD = ["plain", "courtesy", "how_to", "product_instructions", "colleague_request", "security_article",
        "support_ticket", "encoded"]

# record type -> (upstream, tool); the env.json beside the cases declares these and the session's action tools
TOOLS = {
    "email": ("mail", "search_inbox"),
    "product_review": ("shop", "get_product_reviews"),
    "calendar_event": ("calendar", "list_events"),
    "repository": ("github", "get_repository"),
    "note": ("notes", "read_note"),
    "ticket_comment": ("tickets", "get_ticket"),
    "chat_message": ("chat", "read_channel"),
    "web_page": ("web", "fetch_page"),
    "search_result": ("web", "web_search"),
    "file_listing": ("drive", "list_files"),
    "customer_record": ("crm", "get_customer"),
}


# ---- helpers the language files use -------------------------------------------------------------------------

def b64(text):
    """The UTF-8 text as base64, as an attacker (or a mail client) writes it."""
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def zw(text):
    """Zero-width spaces inside every word of four letters or more (after the second letter)."""
    out = []
    for w in text.split(" "):
        out.append(w[:2] + "\u200b" + w[2:] if len(w) >= 4 and w[:2].isalpha() else w)
    return " ".join(out)


HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "i": "\u0456"}


def hg(text):
    """Latin letters swapped for Cyrillic look-alikes (a e o p c x i), every other occurrence."""
    out = []
    n = 0
    for ch in text:
        if ch in HOMO:
            n += 1
            out.append(HOMO[ch] if n % 2 else ch)
        else:
            out.append(ch)
    return "".join(out)


def email(frm, to, subject, body, date="2026-03-12T09:14:00Z", mid=None):
    return "email", {"id": mid or "msg_" + str(abs(hash_(subject)) % 100000), "from": frm, "to": to,
                     "subject": subject, "date": date, "body": body}


def review(product, name, rating, content, date="2026-02-18", others=()):
    reviews = [{"name": n, "rating": r, "date": d, "content": c} for (n, r, d, c) in others]
    reviews.append({"name": name, "rating": rating, "date": date, "content": content})
    return "product_review", {"product": product, "reviews": reviews}


def event(title, start, end, location, description, organizer, attendees=()):
    return "calendar_event", {"events": [{"title": title, "start": start, "end": end, "location": location,
                                          "organizer": organizer, "attendees": list(attendees),
                                          "description": description}]}


def repo(full_name, description, language, stars, readme=None, topics=()):
    r = {"full_name": full_name, "description": description, "language": language, "stargazers_count": stars,
         "topics": list(topics), "default_branch": "main"}
    if readme is not None:
        r["readme_excerpt"] = readme
    return "repository", r


def note(title, body, updated="2026-03-02T18:40:00Z", tags=()):
    return "note", {"title": title, "updated": updated, "tags": list(tags), "body": body}


def ticket(key, title, status, comments, reporter="customer"):
    return "ticket_comment", {"key": key, "title": title, "status": status, "reporter": reporter,
                              "comments": [{"author": a, "created": t, "body": b} for (a, t, b) in comments]}


def chat(channel, messages):
    return "chat_message", {"channel": channel, "messages": [{"user": u, "ts": t, "text": x} for (u, t, x) in messages]}


def page(url, title, text):
    return "web_page", {"url": url, "title": title, "status": 200, "text": text}


def search(query, results):
    return "search_result", {"query": query, "results": [{"title": t, "url": u, "snippet": s} for (t, u, s) in results]}


def files(path, entries, description=None):
    f = {"path": path, "entries": [{"name": n, "size": s, "modified": m} for (n, s, m) in entries]}
    if description is not None:
        f["folder_description"] = description
    return "file_listing", f


def customer(cid, name, email_, phone, address, notes, tier="standard"):
    return "customer_record", {"customer_id": cid, "name": name, "email": email_, "phone": phone,
                               "address": address, "tier": tier, "notes": notes}


def hash_(s):
    h = 0
    for ch in s:
        h = (h * 31 + ord(ch)) & 0xFFFFFFFF
    return h


class P:
    """One record with a slot: the benign text and one or two attacks (kind, text). A split entry's texts are
    pairs (first block's part, second block)."""

    def __init__(self, record, fmt, benign, attacks, hard="plain", note=""):
        assert fmt in FORMATS, fmt
        assert hard in HARD, hard
        self.record_type, self.record = record
        self.fmt = fmt
        self.benign = benign
        self.attacks = attacks
        self.hard = hard
        self.note = note


# ---- rendering -------------------------------------------------------------------------------------------

def fill(node, x):
    if isinstance(node, str):
        return node.replace(SLOT, x)
    if isinstance(node, list):
        return [fill(n, x) for n in node]
    if isinstance(node, dict):
        return {k: fill(v, x) for k, v in node.items()}
    return node


def has_slot(node):
    if isinstance(node, str):
        return SLOT in node
    if isinstance(node, list):
        return any(has_slot(n) for n in node)
    if isinstance(node, dict):
        return any(has_slot(v) for v in node.values())
    return False


def plain(node, indent=""):
    """A record as a tool prints it for people: 'key: value' lines, list items indented."""
    lines = []
    if isinstance(node, dict):
        for k, v in node.items():
            label = k.replace("_", " ").capitalize()
            if isinstance(v, (dict, list)):
                if isinstance(v, list) and all(isinstance(i, str) for i in v):
                    lines.append(f"{indent}{label}: {', '.join(v)}")
                else:
                    lines.append(f"{indent}{label}:")
                    lines.extend(plain(v, indent + "  "))
            else:
                lines.append(f"{indent}{label}: {v}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            sub = plain(item, indent + "  ")
            if sub:
                sub[0] = indent + "- " + sub[0].lstrip()
            lines.extend(sub)
            if i < len(node) - 1:
                lines.append("")
    return lines


SUMMARY = {
    "email": "1 message found.",
    "product_review": "Reviews loaded.",
    "calendar_event": "1 event in range.",
    "repository": "Repository details loaded.",
    "note": "Note loaded.",
    "ticket_comment": "Ticket loaded.",
    "chat_message": "Channel history loaded.",
    "web_page": "Page fetched.",
    "search_result": "Search complete.",
    "file_listing": "Folder listed.",
    "customer_record": "Customer found.",
}


def render(fmt, record_type, record):
    if fmt == "json":
        return [json.dumps(record, ensure_ascii=False, indent=2)], None
    if fmt == "repr":
        return [repr(record)], None
    if fmt == "text":
        return ["\n".join(plain(record))], None
    return [SUMMARY[record_type]], record


def result(entry, x):
    split = isinstance(x, tuple)
    first = x[0] if split else x
    texts, structured = render(entry.fmt, entry.record_type, fill(entry.record, first))
    if split:
        texts = texts + [x[1]]
    r = {"content": [{"type": "text", "text": t} for t in texts]}
    if structured is not None:
        r["structuredContent"] = structured
    r["isError"] = False
    return r


INVISIBLE = {"Cf", "Cc", "Co", "Cn", "Zl", "Zp"}


def visible(line):
    """JSON text with every invisible or look-alike character escaped, so a reviewer sees it."""
    out = []
    for ch in line:
        cat = unicodedata.category(ch)
        name = unicodedata.name(ch, "")
        if (cat in INVISIBLE and ch not in "\n") or (cat == "Zs" and ch != " ") or name.startswith("CYRILLIC") \
                or name.startswith("GREEK") or name.startswith("FULLWIDTH LATIN"):
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


def cases(lang, entries):
    out = []
    for i, e in enumerate(entries, 1):
        assert has_slot(e.record), f"{lang} entry {i} has no slot"
        assert 1 <= len(e.attacks) <= 2, f"{lang} entry {i}: one or two attacks"
        base = f"{lang}-{i:03d}"
        upstream, tool = TOOLS[e.record_type]
        bid = base + "-b"
        aids = [base + "-a" + ("" if j == 0 else str(j + 1)) for j in range(len(e.attacks))]
        for j, (kind, text) in enumerate(e.attacks):
            assert kind in KINDS, f"{aids[j]}: kind {kind}"
            assert (kind == "split") == isinstance(text, tuple), f"{aids[j]}: split texts are pairs"
            assert isinstance(e.benign, tuple) == isinstance(text, tuple), f"{aids[j]}: twin split alike"
            out.append({"id": aids[j], "kind": "attack", "twin": bid, "language": lang, "record_type": e.record_type,
                        "format": e.fmt, "attack": kind, "upstream": upstream, "tool": tool,
                        "result": result(e, text)})
        out.append({"id": bid, "kind": "benign", "twin": aids[0], "language": lang, "record_type": e.record_type,
                    "format": e.fmt, "hard_negative": e.hard, "upstream": upstream, "tool": tool,
                    "result": result(e, e.benign)})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    for lang in LANGS:
        if not os.path.exists(os.path.join(here, lang + ".py")):
            continue
        mod = importlib.import_module(lang)
        rows = cases(lang, mod.ENTRIES)
        with open(os.path.join(here, "..", lang + ".jsonl"), "w", encoding="utf-8", newline="\n") as f:
            for r in rows:
                f.write(visible(json.dumps(r, ensure_ascii=False)) + "\n")
        a = sum(1 for r in rows if r["kind"] == "attack")
        print(f"{lang}: {a} attacks, {len(rows) - a} benign")


if __name__ == "__main__":
    main()
