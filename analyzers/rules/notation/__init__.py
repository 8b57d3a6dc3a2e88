"""NOT: notation that changes meaning within one paper (macros, symbol domains, acronyms)."""

from .acronym_before_definition import acronym_used_before_definition
from .acronym_redefined import acronym_redefined
from .acronym_transposed import acronym_transposed
from .bound_symbol import bound_symbol_renamed
from .explained_symbol import explained_symbol_not_in_display
from .macro_redefined import macro_redefined
from .name_variant import name_variant
from .normal_density import normal_density_sign
from .subscript_variant import subscript_variant
from .symbol_domain import conflicting_symbol_domain
from .undefined_acronym import undefined_acronym
from .unit_dimension import unit_of_another_dimension

__all__ = [
    "acronym_redefined",
    "acronym_transposed",
    "acronym_used_before_definition",
    "bound_symbol_renamed",
    "conflicting_symbol_domain",
    "explained_symbol_not_in_display",
    "macro_redefined",
    "name_variant",
    "normal_density_sign",
    "subscript_variant",
    "undefined_acronym",
    "unit_of_another_dimension",
]
