"""How a normal density's exponent is read (analyzers/rules/notation/densities.py)."""

from auditex.analyzers.rules.notation.densities import signless_densities


def test_a_density_of_a_variable_without_the_minus_is_read_with_its_variable():
    formula = r"\phi(h) = \left( 2\pi \sigma^{*} \right) exp\left[ \frac{\left(h - \mu^{*}\right)^{2}} { 2\sigma^{*2}} \right]"
    (density,) = signless_densities(formula)
    assert density.variable == "h"
    assert formula[density.start : density.end].startswith("exp\\left[") and formula[density.end - 1] == "]"


def test_a_subscripted_variable_is_one_variable():
    (density,) = signless_densities(r"g(x_i \mid \theta) = \exp(\frac{(x_i - \mu_k)^2}{2 \sigma_k^2})")
    assert density.variable == "x_i"


def test_signed_exponents_squares_of_sums_and_functions_of_other_variables_are_no_findings():
    assert signless_densities(r"p(x) = \frac{1}{\sqrt{2 \pi} \sigma} \exp\left[-\frac{(x-\mu)^2}{2 \sigma^2}\right]") == ()
    assert signless_densities(r"Z = \exp\left(\frac{(\mu+\sigma^2)^2}{2\sigma^2}\right)") == ()
    assert signless_densities(r"g(x) = \exp(\frac{(x_i - \mu_k)^2}{2 \sigma_k^2})") == ()  # x is not x_i
    assert signless_densities(r"f(x) = \exp\left(\frac{(x-\mu)^2}{2\sigma^2} - 1\right)") == ()  # not a lone fraction


def test_a_density_in_escaped_braces_spans_its_closing_brace():
    formula = r"p(x) = \exp\{\frac{(x-\mu)^2}{2\sigma^2}\}"
    (density,) = signless_densities(formula)
    assert formula[density.start : density.end] == r"\exp\{\frac{(x-\mu)^2}{2\sigma^2}\}"
