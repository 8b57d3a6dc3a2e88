from auditex.analyzers.rules.arithmetic.named_quantities import named_shares, named_values, quantity_noun


def test_a_share_of_a_named_quantity_is_read_with_its_value_and_unit():
    (share,) = named_shares("we add a load of 50g, which corresponds to 35.7% of its weight.")
    assert (share.value.value, share.unit, share.percent.value, share.noun, share.estimate) == (50, "g", 35.7, "mass", False)
    (hedged,) = named_shares("a load of 180 g (≈ 25% of its weight)")  # plain text, as a block reads
    assert (hedged.value.value, hedged.percent.value, hedged.estimate) == (180, 25, True)


def test_a_share_whose_sentence_gives_a_base_in_its_unit_is_not_read():
    assert named_shares("The rotor adds 20g, 10% of the total mass of 200g.") == ()
    assert named_shares("Training took 3 runs, 40% of the time.") == ()  # no unit of measure


def test_a_named_quantity_is_given_a_value_in_a_unit():
    values = named_values("The first has a mass of 792g and an arm length of 16.6 cm. The station weighs about 2.4 kg.")
    assert [(v.noun, v.value.value, v.unit) for v in values] == [("mass", 792, "g"), ("length", 16.6, "cm"), ("mass", 2.4, "kg")]


def test_a_unit_is_read_as_written():
    assert [v.unit for v in named_values("a memory of 16 MB and a period of 2 ms")] == ["MB", "ms"]
    assert named_values("a ratio of 3 mb") == ()


def test_a_noun_is_paired_in_the_singular_and_by_what_it_stands_for():
    assert [quantity_noun(noun) for noun in ("weights", "mass", "Budgets")] == ["mass", "mass", "budget"]
