"""Figures of the compendium (matplotlib only).

Every function draws one figure from the library's own results and returns the
matplotlib Figure (or Axes, where noted), with axis labels and units; chapters call
them and attach captions.  The functions live in one private submodule per chapter
and are all available here:

* comparison of classifiers: :func:`cd_diagram` (Demšar's critical-difference diagram);
* introduction: :func:`idm_interval_figure`, :func:`credal_simplex_figure`,
  :func:`utility_figure`;
* data chapter: :func:`dataset_map`;
* reproduction report: :func:`verdict_chart`;
* one submodule per paper chapter (``_likelihood_ncc``, ``_independence``, ``_trees``,
  ``_aode``, ``_averaging``, ``_robust``, ``_leaderboard``).
"""

from . import (_aode, _averaging, _compare, _data, _independence, _intro, _leaderboard,
               _likelihood_ncc, _report, _robust, _trees)
from ._aode import *  # noqa: F401,F403
from ._averaging import *  # noqa: F401,F403
from ._compare import *  # noqa: F401,F403
from ._data import *  # noqa: F401,F403
from ._independence import *  # noqa: F401,F403
from ._intro import *  # noqa: F401,F403
from ._leaderboard import *  # noqa: F401,F403
from ._likelihood_ncc import *  # noqa: F401,F403
from ._report import *  # noqa: F401,F403
from ._robust import *  # noqa: F401,F403
from ._trees import *  # noqa: F401,F403

_SUBMODULES = (_compare, _intro, _data, _likelihood_ncc, _independence, _trees, _aode,
               _averaging, _robust, _leaderboard, _report)
__all__ = [name for m in _SUBMODULES for name in m.__all__]
