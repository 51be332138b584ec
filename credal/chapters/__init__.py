"""Code that serves one chapter of the book each (not part of the library's API).

``credal.chapters.<notebook>`` holds what the notebook of the same name (with ``_``
for ``-``) needs beyond the core library: the classifiers it compares, the runs, its
tables, the numbers its text quotes, its headline rows for the reproduction report and
its figures. What several chapters share lives once in ``credal.chapters._common``.
The core library never imports this package.
"""
