from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.engines.irondie.dice import DieClass, DieType
from games.engines.irondie.words import CLASS_NAMES, SYMBOL_NAMES, TYPE_NAMES
from players.dice_svg import die_svg, symbol_svg

register = template.Library()


@register.simple_tag
def die(data, value=None, size=56):
    """``{% die die_dict %}``: a die (``{"type", "colour", "rare"}``) drawn as SVG."""
    return mark_safe(die_svg(data["type"], data["colour"], data.get("rare", False), value, size))


@register.inclusion_tag("players/dice_key.html")
def dice_key():
    """``{% dice_key %}``: each die type's symbol with its name, class by class."""
    classes = [
        {
            "name": gettext(CLASS_NAMES[die_class.value]),
            "value_shown_as": gettext(SYMBOL_NAMES[die_class.symbol]),
            "types": [
                {"label": gettext(TYPE_NAMES[t.value]), "symbol": mark_safe(symbol_svg(t))}
                for t in DieType
                if t.die_class is die_class
            ],
        }
        for die_class in DieClass
    ]
    return {"classes": classes}
