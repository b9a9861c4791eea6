"""Number filters for the dashboard: a missing value reads "—", never "None" or "0 %"."""

from __future__ import annotations

import datetime as dt

from django import template

from apps.review.charts import seconds_text
from apps.review.presentation import duration_text

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


@register.filter
def seconds(value: float | None) -> str:
    return "—" if value is None else seconds_text(value)


@register.filter
def age(value: dt.timedelta | None) -> str:
    return "" if value is None else duration_text(value)
