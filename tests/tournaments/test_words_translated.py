"""The words the pure cores keep in English, on the pages in the reader's language: a
standings row's arithmetic (the same sentences as ``RowExplanation.lines`` in English)
and the pairer's stored reasons."""

from django.utils import translation

from tests.tournaments.test_standings import CAT, five_player_event, ogw_event
from tournaments import words
from tournaments.standings import MatchRecord, PlayerEntry, compute_standings
from tournaments.tiebreakers import REGISTRY


def explanations():
    yield compute_standings(*five_player_event()).explain(CAT)
    floored = compute_standings(*ogw_event())
    yield floored.explain(60)
    yield floored.explain(40)
    yield compute_standings([PlayerEntry(1, "Al")], [MatchRecord.bye(1, 1)]).explain(1)


def test_the_arithmetic_in_english_is_the_standings_own():
    with translation.override("en"):
        for why in explanations():
            assert words.explanation_lines(why) == why.lines()


def test_the_arithmetic_in_russian():
    why = compute_standings(*five_player_event()).explain(CAT)
    with translation.override("ru"):
        text = "\n".join(words.explanation_lines(why))
    assert "Процент побед в матчах = 7 / 9 = 77.78%" in text
    assert "Тур 3, соперник Eve: MWP 77.78%, GWP 66.67%" in text
    assert "OMW = 13/9 / 3 = 48.15%" in text


def test_pairing_reasons_in_russian_and_unknown_ones_as_stored():
    with translation.override("ru"):
        assert words.reason_in_words("same point group (3 points)") == (
            "одна группа по очкам (3 очк.)"
        )
        assert words.reason_in_words("paired down from 6 to 3 points") == "спуск с 6 на 3 очк."
        assert words.reason_in_words("something new") == "something new"
        assert words.note_in_words("bye") == "бай"
        assert words.note_in_words("late, table 4") == "late, table 4"
    with translation.override("en"):
        assert words.reason_in_words("same point group (3 points)") == (
            "same point group (3 points)"
        )


def test_every_tiebreak_system_has_its_name_in_both_languages():
    with translation.override("en"):
        assert {name: words.tiebreak_label(name) for name in REGISTRY} == {
            name: system.label for name, system in REGISTRY.items()
        }
    with translation.override("ru"):
        assert words.tiebreak_label("buchholz") == "Бухгольц"
