"""Every rule auditex ships, grouped by family (one module per family)."""

from ..registry import rules_in
from . import citations, includes, references

ALL_RULES = tuple(rules_in(references, citations, includes))
