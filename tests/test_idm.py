"""IDM intervals against enumeration of the prior simplex."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from credal.idm import idm_expectations, idm_interval


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=5),
       st.sampled_from([0.5, 1.0, 2.0, 7.3]))
def test_interval_is_envelope_of_expectations(counts, s):
    lo, up = idm_interval(counts, s)
    k = len(counts)
    rng = np.random.default_rng(len(counts) * 31 + int(s * 10))
    # vertices of the simplex (where the bounds are approached) plus random interior points
    t = np.vstack([np.eye(k), rng.dirichlet(np.ones(k), 500)])
    e = idm_expectations(counts, s, t)
    assert np.all(e >= lo - 1e-12) and np.all(e <= up + 1e-12)
    np.testing.assert_allclose(e[:k].min(axis=0), lo, rtol=0, atol=1e-12)
    np.testing.assert_allclose(e[:k].max(axis=0), up, rtol=0, atol=1e-12)


def test_hand_values_and_shrinking_width():
    lo, up = idm_interval([3, 1], s=2)
    np.testing.assert_allclose(lo, [0.5, 1 / 6])
    np.testing.assert_allclose(up, [5 / 6, 0.5])
    widths = [np.ptp(idm_interval([n, n], 1.0), axis=0)[0] for n in (1, 10, 100)]
    assert widths[0] > widths[1] > widths[2]


def test_bad_input():
    with pytest.raises(ValueError, match="s must be > 0"):
        idm_interval([1, 2], s=0)
    with pytest.raises(ValueError, match="non-negative"):
        idm_interval([1, -2])
    with pytest.raises(ValueError, match="NaN"):
        idm_interval([1, np.nan])
    with pytest.raises(ValueError, match="simplex"):
        idm_expectations([1, 2], 1.0, [0.7, 0.7])
