from django import template

from players.people import person_label

register = template.Library()


@register.filter
def person(user, viewer):
    """``{{ some_user|person:user }}``: the login name for its owner and staff, the
    public name (display name) for everyone else, "—" when there is none."""
    return person_label(user, viewer) or "—"
