from django import template
from django.utils.safestring import mark_safe

from players.dice_svg import die_svg

register = template.Library()


@register.simple_tag
def die(data, value=None, size=56):
    """``{% die die_dict %}``: a die (``{"type", "colour", "rare"}``) drawn as SVG."""
    return mark_safe(die_svg(data["type"], data["colour"], data.get("rare", False), value, size))
