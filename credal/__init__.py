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
averaging      model averaging over naive structures (Dash & Cooper) and CMA
networks       Bayesian networks: BIF reader, random networks, forward sampling, ROC
"""

from credal import datasets, experiments, idm, metrics, networks, preprocessing, stats
from credal.averaging import CMA, ModelAveragedNaiveBayes
from credal.robust import NaiveBayesMissing, RobustBayes

__version__ = "0.1.0"

__all__ = [
    "datasets",
    "experiments",
    "idm",
    "metrics",
    "networks",
    "preprocessing",
    "stats",
    "CMA",
    "ModelAveragedNaiveBayes",
    "NaiveBayesMissing",
    "RobustBayes",
    "__version__",
]
