"""``{{ seconds|minutes_seconds }}``: time left as the clocks count it, "33:34"."""

from django import template

register = template.Library()


@register.filter
def minutes_seconds(seconds) -> str:
    """Whole seconds as m:ss, the way templates/clocks/countdown.js.html shows a running
    clock (a paused round read "2014s" before); nothing for no value."""
    if seconds is None or seconds == "":
        return ""
    whole = int(float(seconds))
    sign = "-" if whole < 0 else ""
    minutes, rest = divmod(abs(whole), 60)
    return f"{sign}{minutes}:{rest:02d}"
