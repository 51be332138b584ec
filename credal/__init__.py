"""credal: credal (imprecise-probability) classifiers and the compendium's tools.

Modules
-------
datasets       the shipped data sets (catalogue, loading, checksums)
preprocessing  MDL and equal-frequency discretisation, imputation, feature removal
missing        deletion mechanisms for controlled studies (MCAR, informative)
metrics        determinacy, single/set accuracy, discounted accuracy, u65/u80, Brier,
               coverage, set size, accuracy-rejection curves
conformal      conformal sets (MAPIE), credible sets, nested conformal calibration
stats          Wilcoxon, Friedman + Nemenyi, Bayesian signed-rank
experiments    the one cross-validation engine (tidy tables, fold cache, joblib)
plotting       generic figures (CD diagram, IDM interval, credal simplex, utility)
idm            imprecise Dirichlet model intervals
naive          naive Bayes, NCC, NCC-epsilon and the likelihood-based LNCC
ncc2           NCC2: NCC with features not missing at random (Corani & Zaffalon)
dominance      NCC's exact dominance test (used by naive)
likelihood     LNCC's profile likelihood and exact dominance threshold (used by naive)
aode           AODE, BMA-AODE, COMP-AODE and their credal versions (Corani & Antonucci)
robust         robust Bayes classifier (Ramoni & Sebastiani) and its baselines
averaging      model averaging over naive structures (Dash & Cooper) and CMA
networks       Bayesian networks: BIF reader, random networks, forward sampling, ROC
independence   scores for testing independence of two discrete variables (Moral)
structure      Bayesian-network structure search with the BDeu score
reference      slow reference computations (solver baselines) for tests and benchmarks
trees          credal decision tree (Abellán & Moral) and C4.5
"""

from credal import (datasets, experiments, idm, independence, metrics, missing, networks,
                    preprocessing, stats, structure)
from credal.aode import AODE, BMAAODE, CompAODE, CredalBMAAODE, CredalCompAODE
from credal.averaging import CMA, ModelAveragedNaiveBayes
from credal.conformal import ConformalClassifier, CredibleSet, NestedConformal
from credal.naive import LNCC, NCC, NaiveBayes
from credal.ncc2 import NCC2
from credal.preprocessing import MDLDiscretizer, make_pipeline
from credal.robust import NaiveBayesMissing, RobustBayes
from credal.trees import C45Tree, CredalDecisionTree

__version__ = "0.1.0"

__all__ = [
    "datasets",
    "experiments",
    "idm",
    "independence",
    "metrics",
    "missing",
    "networks",
    "preprocessing",
    "stats",
    "structure",
    "AODE",
    "BMAAODE",
    "C45Tree",
    "CMA",
    "CompAODE",
    "ConformalClassifier",
    "CredibleSet",
    "CredalBMAAODE",
    "CredalCompAODE",
    "CredalDecisionTree",
    "LNCC",
    "MDLDiscretizer",
    "ModelAveragedNaiveBayes",
    "NCC",
    "NCC2",
    "NestedConformal",
    "NaiveBayes",
    "NaiveBayesMissing",
    "RobustBayes",
    "make_pipeline",
    "__version__",
]
