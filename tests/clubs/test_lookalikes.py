"""Names that look like another already there (Unicode TR39 confusables): the same letters
in another script, "I" for "l", "0" for "O". What a name looks like (``names_alike``), and
the players and clubs refused for it, naming the name they look like."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from pitchkeeper.clubs.models import Club, Player
from pitchkeeper.clubs.names import names_alike
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create

# Latin letters and a letter of another script drawn the same.
HOMOGLYPHS = {
    "A": "АΑ",  # Cyrillic, Greek
    "B": "ВΒ",
    "E": "ЕΕ",
    "H": "НΗ",
    "K": "КΚ",
    "M": "МΜ",
    "N": "Ν",
    "O": "ОΟ0",
    "P": "РΡ",
    "T": "ТΤ",
    "X": "ХΧ",
    "a": "а",
    "c": "с",
    "e": "е",
    "l": "I1",
    "o": "оο",
    "p": "р",
    "x": "х",
    "y": "у",
}
PAIRS = [
    ("Аnn", "Ann"),  # Cyrillic А
    ("ΑΝΝ", "ANN"),  # Greek Alpha and Nu
    ("аnn", "ANN"),  # another script and another case
    ("Ρeter", "Peter"),
    ("Bi11", "Bill"),
    ("Al", "AI"),
    ("B0b", "Bob"),
    ("Zoё", "Zoë"),  # Cyrillic yo
    ("ЅΡRING", "Spring"),  # other scripts and cases: its small letters look alike
    ("Јо", "JO"),
]
ORDINARY = [
    "Ann", "Anna", "Anne", "Bob", "Bobby", "Cy", "Dee", "Eve", "Ola", "Ole", "Kari", "Kåre",
    "Per", "Pål", "Olga", "Oleg", "Иван", "Ivan", "Marit", "Mari", "Peter", "Petra", "Zoë",
    "Zoe", "Jo", "Joe", "Lee", "Leo", "Tim", "Tom", "Sam", "Sára", "Ян", "Яна", "Anna 2",
]  # fmt: skip


@pytest.mark.parametrize(("one", "other"), PAIRS)
def test_known_lookalikes_look_the_same_both_ways(one, other):
    assert names_alike(one, other)
    assert names_alike(other, one)


def test_every_character_drawn_like_l_looks_the_same():
    # Each of "l", "I", "1" and "|" is a homoglyph of the others: whichever a name uses,
    # it is the same look, not the smallest of each character's own homoglyphs.
    assert all(names_alike(f"A{one}", f"A{other}") for one, other in combinations("lI1|", 2))


def test_distinct_ordinary_names_do_not_look_alike():
    alike = [(a, b) for a, b in combinations(ORDINARY, 2) if names_alike(a, b)]

    assert alike == []


@given(
    st.text(alphabet="".join(HOMOGLYPHS), min_size=1, max_size=12).flatmap(
        lambda name: st.tuples(
            st.just(name),
            st.tuples(*(st.sampled_from(HOMOGLYPHS[c] + c) for c in name)).map("".join),
        )
    )
)
def test_a_name_with_any_letters_swapped_for_their_homoglyphs_looks_the_same(names):
    name, disguised = names

    assert names_alike(disguised, name)


@pytest.mark.django_db
@pytest.mark.parametrize(("typed", "existing"), PAIRS)
def test_a_player_that_looks_like_another_is_refused_naming_them(client, club, typed, existing):
    roster([existing], club=club)

    response = client.post(reverse("players"), {"name": typed})

    assert response.status_code == 400
    assert (
        f"“{typed}” looks like “{existing}”, already on the roster; "
        "choose a name that reads differently."
    ) in response.content.decode()
    assert Player.objects.count() == 1


@pytest.mark.django_db
def test_a_rename_that_looks_like_another_player_is_refused(client, club):
    players = roster(["Ann", "Bob"], club=club)

    response = client.post(
        reverse("player", args=[players["Bob"].pk]), {"name": "Аnn", "action": "rename"}
    )

    assert response.status_code == 400
    assert "“Аnn” looks like “Ann”" in response.content.decode()
    players["Bob"].refresh_from_db()
    assert players["Bob"].name == "Bob"


@pytest.mark.django_db
def test_a_player_keeps_their_name_in_another_script_when_renamed_to_it(client, club):
    # Their own name is not another's: "Ann" may become Cyrillic "Аnn".
    ann = roster(["Ann"], club=club)["Ann"]

    response = client.post(reverse("player", args=[ann.pk]), {"name": "Аnn", "action": "rename"})

    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Аnn"


@pytest.mark.django_db
def test_the_refusal_is_in_the_users_language(client, club):
    roster(["Ann"], club=club)

    ru = client.post(reverse("players"), {"name": "Аnn"}, HTTP_ACCEPT_LANGUAGE="ru")
    nb = client.post(reverse("players"), {"name": "Аnn"}, HTTP_ACCEPT_LANGUAGE="nb")

    assert "«Аnn» похоже на «Ann» — уже в списке игроков" in ru.content.decode()
    assert "«Аnn» ligner på «Ann», som allerede er på spillerlisten" in nb.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Thursday tаble", "“Thursday tаble” looks like “Thursday table”, one of your clubs"),
        ("THURSDAY TABLE", "You already have a club called Thursday table."),
    ],
)
def test_a_club_that_looks_like_another_of_the_users_clubs_is_refused(client, club, typed, message):
    response = client.post(reverse("clubs"), {"name": typed})

    assert response.status_code == 400
    assert message in response.content.decode()
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_another_users_club_may_have_the_same_name(club, django_user_model):
    other = club_create(name="Thursday table", owner=django_user_model.objects.create_user("cy"))

    assert other.name == club.name
