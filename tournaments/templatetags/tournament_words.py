"""Template tags over tournaments/words.py: plain words for results."""

from django import template

from tournaments import words

register = template.Library()


@register.simple_tag
def submission_words(submission, match):
    """``{% submission_words s match %}``: one version of a result as a sentence."""
    return words.submission_in_words(submission, match)


@register.simple_tag
def reader_score(match, registration_id):
    """``{% reader_score match registration.pk %}``: "You won 2-0 against Bob"."""
    return words.score_for_reader(match, registration_id)


@register.simple_tag
def game_outcome(game, match):
    """``{% game_outcome g match %}``: "Alice won" or "Drawn" for one game of a match."""
    return words.game_outcome_in_words(game.outcome, match)


@register.filter
def reason_text(text):
    """``{{ reason.text|reason_text }}``: a pairing reason in the reader's language."""
    return words.reason_in_words(text)


@register.filter
def note_text(note):
    """``{{ entry.reason|note_text }}``: the server's own notes in the reader's language."""
    return words.note_in_words(note)


@register.filter
def pod_proof(method):
    """``{{ round.pairing_cost.method|pod_proof }}``: how a pod seating was proved optimal."""
    return words.pod_proof_label(method)


@register.filter
def pod_proof_words(pairing_cost):
    """``{{ round.pairing_cost|pod_proof_words }}``: the proof, or a seating's cost against
    its bound when no tier proved it."""
    return words.pod_proof_in_words(pairing_cost)
