"""Sphinx hooks of the book.

* API pages: leave out scikit-learn's generated ``set_*_request`` methods (metadata
  routing), which every estimator inherits and whose docstrings refer to
  scikit-learn's own glossary.
* API pages: formulas in docstrings are typeset.  The library writes formulas as
  inline literals in plain ASCII (``P(c | a) ∝ sum_{j in J} P(c, a | s_j)``), readable
  in ``help()``; :func:`formula_to_tex` turns such a literal into a ``:math:`` role when
  it is unmistakably a formula and it understands every token, and leaves anything
  else (code, names, doubtful cases) as code.  The ASCII text stays the source.
* Every page: drop repeated script entries.  jupyter-book 1.0 with sphinx-thebe 0.3
  adds the inline thebe configuration twice, and the second copy makes the browser
  log ``Identifier 'THEBE_JS_URL' has already been declared`` on every page.
* Build set-up: create ``generated/_extra`` (listed in ``html_extra_path``; the chapters
  copy their tables' CSVs there) so that a build without chapter tables does not warn,
  and copy the reproduction report's verdict chart to
  ``generated/_extra/figures/verdicts.<ext>`` for the landing page (cross-page glue of
  myst-nb 1.x does not carry SVG figures).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

EXTRA = Path("generated") / "_extra"
#: (notebook, figure name) of the chart the landing page shows
LANDING_FIGURE = ("reproduction-report", "fig-verdicts")
LANDING_IMAGE = EXTRA / "figures" / "verdicts"


def _skip(app, what, name, obj, skip, options):
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def _dedupe_scripts(app, pagename, templatename, context, doctree):
    seen, kept = set(), []
    for js in context.get("script_files", []):
        key = (getattr(js, "filename", js) or "",
               tuple(sorted(getattr(js, "attributes", {}).items())))
        if key not in seen:
            seen.add(key)
            kept.append(js)
    context["script_files"] = kept


# --------------------------------------------------------------------------- formulas

GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
         "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi",
         "psi", "omega", "Gamma", "Delta", "Theta", "Lambda", "Pi", "Sigma", "Phi", "Omega"}
ALIASES = {"eps": r"\varepsilon", "epsilon": r"\varepsilon", "thetahat": r"\hat\theta",
           "lam": r"\lambda"}
FUNCTIONS = {"ln": r"\ln", "log": r"\log", "exp": r"\exp", "min": r"\min", "max": r"\max",
             "sup": r"\sup", "inf": r"\inf", "argmax": r"\arg\max", "argmin": r"\arg\min",
             "log2": r"\log_2"}
# A formula has one of these (a relation or a mathematical operator) ...
_MARKERS = re.compile(r"<=|>=|=|<|>|∝|\bsum_|\bsqrt\(|\^|\||\b(" + "|".join(
    sorted(GREEK | set(ALIASES))) + r")\b")
# ... and none of these, which belong to code (strings, indexing, attributes, keywords,
# Python operators, shell, paths).
_CODE = re.compile(r"""["`\[\]#;@\\$]|\*\*|==|!=|->|<-|\w<\w|\b(log|ln)_\D|\.\w|\w\.\w|"""
                   r"""\b(for|in\s+range|def|"""
                   r"""lambda\s*:|return|import|None|True|False|mod)\b|^\w+\s*=\s*["'\w.]+$"""
                   r"""|\.\.|,\s*$|^\W*$""")
_TOKEN = re.compile(r"\s+|\d+(?:\.\d+)?|[A-Za-z][A-Za-z0-9]*|<=|>=|[=<>∝+\-*/(){}|,'~^_!]")


def _name(word: str) -> str:
    if word in ALIASES:
        return ALIASES[word]
    if word in GREEK:
        return "\\" + word
    if word in FUNCTIONS:
        return FUNCTIONS[word]
    if len(word) == 1 or word.isdigit():
        return word
    m = re.fullmatch(r"([A-Za-z])(\d+)", word)
    if m:  # x0 -> x_0
        return f"{m.group(1)}_{{{m.group(2)}}}"
    if re.fullmatch(r"[a-z]{2}", word):  # rc, dv: a product of two letters
        return word
    return r"\mathrm{" + word + "}"


def _script(text: str) -> str | None:
    """A subscript or superscript body (``ij``, ``{j in J}``, ``dep``, ``0.05``)."""
    if text.startswith("{") and text.endswith("}"):
        inner = formula_to_tex(text[1:-1], check=False)
        return None if inner is None else "{" + inner + "}"
    if re.fullmatch(r"\d+(\.\d+)?", text) or re.fullmatch(r"[A-Za-z]", text):
        return "{" + text + "}"
    if re.fullmatch(r"[a-z]{2}", text):  # x_ij, sum_xy: two indices
        return "{" + text + "}"
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", text):
        return "{" + _name(text) + "}"
    return None


def _matching(tokens, start, opening, closing):
    """Index of the token closing the bracket at ``start``, or ``len(tokens)``."""
    level, j = 0, start
    while j < len(tokens):
        level += {opening: 1, closing: -1}.get(tokens[j], 0)
        if level == 0:
            return j
        j += 1
    return j


def formula_to_tex(text: str, check: bool = True) -> str | None:
    """LaTeX for an ASCII formula of a docstring, or None if it is not clearly one.

    Parameters
    ----------
    text : str
        The content of an inline literal, e.g. ``tolerance = z * sqrt(a^2 + b^2)``.
    check : bool
        Require a formula marker (a relation, ``sum_``, ``sqrt(``, ``^``, ``|`` or a
        Greek letter) and no sign of code; False inside a sub- or superscript.

    Returns
    -------
    str or None
    """
    text = text.strip()
    if check and (not _MARKERS.search(text) or _CODE.search(text)):
        return None
    # lower-case words of three letters or more are code names (``lo``, ``hi`` pass)
    known = GREEK | set(ALIASES) | set(FUNCTIONS) | {"sum", "sqrt", "in", "arg"}
    if check and any(w not in known for w in re.findall(r"(?<![A-Za-z])[a-z]{3,}", text)):
        return None
    # snake_case words of code (``prune_factor``, ``_log_proba``) are not subscripts
    for word in re.findall(r"[A-Za-z0-9]*_[A-Za-z0-9_{}]*", text):
        head, _, tail = word.partition("_")
        if not head or "_" in tail.replace("{", "").split("}")[0][1:] and not tail.startswith("{"):
            return None
        if not tail.startswith("{") and len(tail) > 3 and tail not in GREEK | set(ALIASES):
            return None
    out, i, depth = [], 0, 0
    pos = 0
    tokens = []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            return None
        tokens.append(m.group())
        pos = m.end()
    while i < len(tokens):
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if tok.isspace():
            out.append(" ")
        elif tok in ("_", "^"):
            if not out or out[-1] == " ":
                return None
            body = nxt
            if nxt == "{":  # a braced script: up to the matching brace
                j = _matching(tokens, i + 1, "{", "}")
                if j == len(tokens):
                    return None
                body = "".join(tokens[i + 1:j + 1])
                i = j - 1
            script = _script(body)
            if script is None:
                return None
            out.append(tok + script)
            i += 1
        elif tok == "sum":
            out.append(r"\sum")
        elif tok == "sqrt" and nxt == "(":
            j = _matching(tokens, i + 1, "(", ")")
            inner = formula_to_tex("".join(tokens[i + 2:j]), check=False) \
                if j < len(tokens) else None
            if inner is None:
                return None
            out.append(r"\sqrt{" + inner + "}")
            i = j
        elif re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", tok):
            if tok == "in" and out and out[-1] == " ":
                out.append(r"\in")
            elif tok == "arg" and nxt == " " and i + 2 < len(tokens) and tokens[i + 2] in (
                    "max", "min"):
                out.append(r"\arg\\" + tokens[i + 2])
                i += 2
            else:
                out.append(_name(tok))
        elif tok == "*":
            prev = out[-1] if out else " "
            out.append(r"\cdot" if prev == " " or nxt == " " and prev == " " else "^*")
            if prev != " " and nxt == " ":
                out[-1] = "^*"
        elif tok == "~":
            if not out or out[-1] == " ":
                return None
            out[-1] = r"\tilde{" + out[-1] + "}"
        elif tok == "|":
            out.append(r"\mid" if out and out[-1] == " " and nxt == " " else "|")
        elif tok in ("{", "}"):
            depth += 1 if tok == "{" else -1
            out.append("\\" + tok)
        else:
            out.append({"<=": r"\le", ">=": r"\ge", "∝": r"\propto"}.get(tok, tok))
        i += 1
    if depth != 0:
        return None
    tex = ""
    for piece in out:  # a command followed by a letter needs a space: \alpha x, not \alphax
        if re.search(r"\\[A-Za-z]+$", tex) and re.match(r"[A-Za-z0-9]", piece):
            tex += " "
        tex += piece
    return tex.strip()


_LITERAL = re.compile(r"(?<![`\w])``([^`]+?)``(?!`)")


def _formulas(app, what, name, obj, options, lines):
    """Typeset the formulas of a docstring (see :func:`formula_to_tex`)."""
    in_block = False
    for k, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith((">>>", "...")) or stripped.endswith("::"):
            in_block = stripped.endswith("::")
            continue
        if in_block and (line.startswith((" ", "\t")) or not stripped):
            continue
        in_block = False

        def repl(m):
            tex = formula_to_tex(m.group(1))
            return m.group(0) if tex is None else r":math:`" + tex.replace("`", "") + "`"
        lines[k] = _LITERAL.sub(repl, line)


# --------------------------------------------------------------------------- build set-up

def _prepare(app, config):
    src = Path(app.srcdir)
    (src / EXTRA / "tables").mkdir(parents=True, exist_ok=True)
    _landing_figure(src)


def _landing_figure(src: Path) -> None:
    """Copy the report notebook's verdict chart to ``LANDING_IMAGE`` (.svg or .png)."""
    notebook, fig_name = LANDING_FIGURE
    path = src / "generated" / f"{notebook}.ipynb"
    if not path.is_file():
        return
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb.get("cells", []):
        meta = (cell.get("metadata", {}).get("mystnb") or {}).get("figure") or {}
        if meta.get("name") != fig_name:
            continue
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            target = src / LANDING_IMAGE
            target.parent.mkdir(parents=True, exist_ok=True)
            if "image/svg+xml" in data:
                svg = data["image/svg+xml"]
                target.with_suffix(".svg").write_text(
                    "".join(svg) if isinstance(svg, list) else svg, encoding="utf-8")
                target.with_suffix(".png").unlink(missing_ok=True)
                return
            if "image/png" in data:
                png = data["image/png"]
                target.with_suffix(".png").write_bytes(base64.b64decode(
                    "".join(png) if isinstance(png, list) else png))
                target.with_suffix(".svg").unlink(missing_ok=True)
                return


def setup(app):
    app.connect("config-inited", _prepare, priority=100)  # before html_extra_path is checked
    app.connect("autodoc-skip-member", _skip)
    app.connect("autodoc-process-docstring", _formulas)
    app.connect("html-page-context", _dedupe_scripts)
    # env_version: bump when a hook changes what pages read to, so that Sphinx re-reads
    # every page instead of reusing a cached one
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 2}
