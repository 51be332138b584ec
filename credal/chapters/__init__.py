"""Code that serves one chapter of the book each (not part of the library's API).

``credal.chapters.<notebook>`` holds what the notebook of the same name (with ``_``
for ``-``) needs beyond the core library: the classifiers it compares, the runs, its
tables, the numbers its text quotes, its headline rows for the reproduction report and
its figures. What several chapters share lives once: the verdict rule and the headline
declarations in ``credal.chapters._verdicts``, the book's display in
``credal.chapters._display``.
The core library never imports this package.
"""
