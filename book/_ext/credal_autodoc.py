"""Sphinx hook for the API pages: leave out scikit-learn's generated
``set_*_request`` methods (metadata routing), which every estimator inherits and
whose docstrings refer to scikit-learn's own glossary."""


def _skip(app, what, name, obj, skip, options):
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
