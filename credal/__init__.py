"""credal: credal (imprecise-probability) classifiers and the compendium's tools.

Modules
-------
datasets       the shipped data sets (catalogue, loading, checksums)
preprocessing  MDL and equal-frequency discretisation, imputation, feature removal
metrics        determinacy, single/set accuracy, discounted accuracy, u65/u80, Brier
stats          Wilcoxon, Friedman + Nemenyi, Bayesian signed-rank
experiments    the one cross-validation engine (tidy tables, fold cache, joblib)
plotting       the book's figures (CD diagrams, IDM and utility figures, ...)
idm            imprecise Dirichlet model intervals
robust         robust Bayes classifier (Ramoni & Sebastiani) and its baselines
"""

from credal import datasets, experiments, idm, metrics, preprocessing, stats
from credal.robust import NaiveBayesMissing, RobustBayes

__version__ = "0.1.0"

__all__ = [
    "datasets",
    "experiments",
    "idm",
    "metrics",
    "preprocessing",
    "stats",
    "NaiveBayesMissing",
    "RobustBayes",
    "__version__",
]
