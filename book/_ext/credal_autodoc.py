"""Sphinx hooks of the book.

* API pages: leave out scikit-learn's generated ``set_*_request`` methods (metadata
  routing), which every estimator inherits and whose docstrings refer to
  scikit-learn's own glossary.
* Every page: drop repeated script entries.  jupyter-book 1.0 with sphinx-thebe 0.3
  adds the inline thebe configuration twice, and the second copy makes the browser
  log ``Identifier 'THEBE_JS_URL' has already been declared`` on every page.
"""


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


def setup(app):
    app.connect("autodoc-skip-member", _skip)
    app.connect("html-page-context", _dedupe_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
