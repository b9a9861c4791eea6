"""Template filters of the operators' pages (thin wrappers over ``apps.ingestion.presentation``)."""

from __future__ import annotations

from django import template

from apps.ingestion import presentation

register = template.Library()


@register.filter
def humanise(name: str | None) -> str:
    """``driver_license`` → ``Driver license``; empty stays empty so ``default`` can take over."""
    return presentation.humanise(name) if name else ""


@register.filter
def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


@register.filter
def type_label(document_type: str | None) -> str:
    """A document type as operators read it (``id_card`` → ``ID card``)."""
    return presentation.document_type_label(document_type)
