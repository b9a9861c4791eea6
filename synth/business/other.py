"""Documents that are none of the known types, for classification negatives.

A classifier that sees only the types it must recognise calls everything one of them. These
are the near misses: a letter (names, an address block, a date, like a bill), a restaurant
menu (prices, like a receipt), a product datasheet (tables and numbers, like an invoice), a
meeting agenda (dates and times, like a statement) and a certificate (a person's name and a
date, like an ID). No fields: the truth is the type "other" alone.
"""

from __future__ import annotations

import numpy as np

from synth.business import blocks, lexicon
from synth.business.blocks import Column, Writer
from synth.business.common import (
    Locale,
    chance,
    company_name,
    courtesy_title,
    document_date,
    format_date,
    format_number,
    money,
    pick,
    pick_weighted,
    sample_address,
    sample_locale,
    sample_person,
)
from synth.business.labels import Labeler
from synth.business.layout import Page, logo, sample_style
from synth.business.output import Composition

KINDS = (("letter", 0.26), ("menu", 0.18), ("datasheet", 0.18), ("agenda", 0.19), ("certificate", 0.19))

_LETTER: dict[str, tuple[str, ...]] = {
    "en": (
        "Thank you for your letter of last week regarding the planned renovation of the community hall.",
        "We are pleased to confirm that the committee has approved the proposal in principle.",
        "Work is expected to begin in the spring and should take approximately six weeks.",
        "During this period the hall will remain open on weekdays, with some restrictions in the afternoons.",
        "Please do not hesitate to contact us if you have any questions or would like to discuss the plans in more detail.",
        "We would also like to invite you to the information evening that will be held next month.",
        "A copy of the floor plans is enclosed for your reference.",
    ),
    "de": (
        "vielen Dank für Ihr Schreiben vom vergangenen Monat bezüglich der geplanten Sanierung des Gemeindehauses.",
        "Wir freuen uns, Ihnen mitteilen zu können, dass der Ausschuss dem Vorhaben grundsätzlich zugestimmt hat.",
        "Die Arbeiten sollen im Frühjahr beginnen und etwa sechs Wochen dauern.",
        "In dieser Zeit bleibt das Haus werktags geöffnet, nachmittags jedoch mit Einschränkungen.",
        "Für Rückfragen stehen wir Ihnen selbstverständlich jederzeit gerne zur Verfügung.",
        "Außerdem möchten wir Sie herzlich zu unserem Informationsabend im nächsten Monat einladen.",
        "Eine Kopie der Pläne liegt diesem Schreiben bei.",
    ),
    "fr": (
        "Nous vous remercions de votre courrier concernant le projet de rénovation de la salle communale.",
        "Nous avons le plaisir de vous confirmer que le comité a approuvé le projet sur le principe.",
        "Les travaux devraient commencer au printemps et durer environ six semaines.",
        "Pendant cette période, la salle restera ouverte en semaine, avec quelques restrictions l'après-midi.",
        "Nous restons à votre disposition pour toute question complémentaire.",
        "Nous vous invitons également à la réunion d'information qui se tiendra le mois prochain.",
        "Vous trouverez ci-joint une copie des plans.",
    ),
    "es": (
        "Le agradecemos su carta del mes pasado relativa a la reforma prevista del centro cívico.",
        "Nos complace confirmarle que la comisión ha aprobado la propuesta en principio.",
        "Está previsto que las obras comiencen en primavera y duren unas seis semanas.",
        "Durante este periodo el centro permanecerá abierto entre semana, con algunas restricciones por la tarde.",
        "Quedamos a su disposición para cualquier consulta.",
        "Asimismo, le invitamos a la sesión informativa que se celebrará el próximo mes.",
        "Adjuntamos una copia de los planos para su información.",
    ),
    "it": (
        "La ringraziamo per la Sua lettera del mese scorso relativa alla ristrutturazione della sala civica.",
        "Siamo lieti di confermarLe che il comitato ha approvato la proposta in linea di principio.",
        "I lavori dovrebbero iniziare in primavera e durare circa sei settimane.",
        "Durante questo periodo la sala resterà aperta nei giorni feriali, con alcune limitazioni il pomeriggio.",
        "Restiamo a disposizione per qualsiasi chiarimento.",
        "Desideriamo inoltre invitarLa alla serata informativa che si terrà il mese prossimo.",
        "In allegato trova una copia delle planimetrie.",
    ),
    "nl": (
        "Hartelijk dank voor uw brief van vorige maand over de geplande renovatie van het buurthuis.",
        "Wij zijn verheugd u te kunnen bevestigen dat de commissie het voorstel in principe heeft goedgekeurd.",
        "De werkzaamheden beginnen naar verwachting in het voorjaar en duren ongeveer zes weken.",
        "Gedurende deze periode blijft het buurthuis op werkdagen geopend, 's middags met enkele beperkingen.",
        "Heeft u nog vragen, neem dan gerust contact met ons op.",
        "Graag nodigen wij u ook uit voor de informatieavond die volgende maand wordt gehouden.",
        "Een kopie van de plattegronden is bijgevoegd.",
    ),
}
_SUBJECTS = {
    "en": (
        "Renovation of the community hall",
        "Your enquiry",
        "Invitation to our annual meeting",
        "Change of opening hours",
    ),
    "de": (
        "Sanierung des Gemeindehauses",
        "Ihre Anfrage vom",
        "Einladung zur Jahresversammlung",
        "Änderung der Öffnungszeiten",
    ),
    "fr": (
        "Rénovation de la salle communale",
        "Votre demande",
        "Invitation à notre assemblée annuelle",
        "Changement d'horaires",
    ),
    "es": ("Reforma del centro cívico", "Su consulta", "Invitación a la asamblea anual", "Cambio de horario"),
    "it": (
        "Ristrutturazione della sala civica",
        "La Sua richiesta",
        "Invito all'assemblea annuale",
        "Variazione orari",
    ),
    "nl": ("Renovatie buurthuis", "Uw aanvraag", "Uitnodiging jaarvergadering", "Wijziging openingstijden"),
}
_CLOSINGS = {
    "en": "Yours sincerely,",
    "de": "Mit freundlichen Grüßen",
    "fr": "Veuillez agréer nos salutations distinguées.",
    "es": "Atentamente,",
    "it": "Distinti saluti",
    "nl": "Met vriendelijke groet,",
}
_AGENDA = {
    "en": (
        "Welcome and apologies",
        "Minutes of the previous meeting",
        "Financial report",
        "Project updates",
        "Budget for next year",
        "Election of the board",
        "Any other business",
        "Date of next meeting",
    ),
    "de": (
        "Begrüßung",
        "Protokoll der letzten Sitzung",
        "Kassenbericht",
        "Stand der Projekte",
        "Haushaltsplan",
        "Wahlen",
        "Verschiedenes",
        "Termin der nächsten Sitzung",
    ),
    "fr": (
        "Accueil",
        "Approbation du procès-verbal",
        "Rapport financier",
        "Point sur les projets",
        "Budget prévisionnel",
        "Élection du bureau",
        "Questions diverses",
        "Date de la prochaine réunion",
    ),
    "es": (
        "Bienvenida",
        "Lectura del acta anterior",
        "Informe económico",
        "Estado de los proyectos",
        "Presupuesto",
        "Elección de la junta",
        "Ruegos y preguntas",
        "Próxima reunión",
    ),
    "it": (
        "Benvenuto",
        "Approvazione del verbale",
        "Relazione finanziaria",
        "Aggiornamento progetti",
        "Bilancio preventivo",
        "Elezione del consiglio",
        "Varie ed eventuali",
        "Prossima riunione",
    ),
    "nl": (
        "Opening",
        "Notulen vorige vergadering",
        "Financieel verslag",
        "Stand van zaken projecten",
        "Begroting",
        "Bestuursverkiezing",
        "Rondvraag",
        "Volgende vergadering",
    ),
}
_AGENDA_TITLE = {
    "en": "Meeting agenda",
    "de": "Tagesordnung",
    "fr": "Ordre du jour",
    "es": "Orden del día",
    "it": "Ordine del giorno",
    "nl": "Agenda",
}
_MENU_TITLE = {
    "en": ("Menu", "Lunch Menu", "Dinner"),
    "de": ("Speisekarte", "Mittagskarte"),
    "fr": ("La Carte", "Menu du jour"),
    "es": ("Carta", "Menú"),
    "it": ("Menù", "La nostra cucina"),
    "nl": ("Menukaart", "Lunchkaart"),
}
_SECTIONS = {
    "en": ("Starters", "Mains", "Desserts", "Drinks"),
    "de": ("Vorspeisen", "Hauptgerichte", "Desserts", "Getränke"),
    "fr": ("Entrées", "Plats", "Desserts", "Boissons"),
    "es": ("Entrantes", "Principales", "Postres", "Bebidas"),
    "it": ("Antipasti", "Primi e secondi", "Dolci", "Bevande"),
    "nl": ("Voorgerechten", "Hoofdgerechten", "Desserts", "Dranken"),
}
_CERT = {
    "en": (
        "Certificate of Completion",
        "This is to certify that",
        "has successfully completed the course",
        "Awarded on",
    ),
    "de": (
        "Teilnahmebescheinigung",
        "Hiermit wird bestätigt, dass",
        "erfolgreich an dem Kurs teilgenommen hat",
        "Ausgestellt am",
    ),
    "fr": (
        "Attestation de formation",
        "Nous certifions que",
        "a suivi avec succès la formation",
        "Délivré le",
    ),
    "es": (
        "Certificado de aprovechamiento",
        "Se certifica que",
        "ha completado con éxito el curso",
        "Expedido el",
    ),
    "it": (
        "Attestato di partecipazione",
        "Si attesta che",
        "ha completato con successo il corso",
        "Rilasciato il",
    ),
    "nl": (
        "Certificaat",
        "Hierbij wordt verklaard dat",
        "de cursus met goed gevolg heeft afgerond",
        "Uitgereikt op",
    ),
}
_COURSES = (
    "Project Management Fundamentals",
    "First Aid at Work",
    "Advanced Excel",
    "Food Hygiene Level 2",
    "Data Protection Essentials",
    "Forklift Safety",
    "Python for Data Analysis",
)
_SPECS = {
    "en": (
        "Dimensions",
        "Weight",
        "Operating voltage",
        "Power consumption",
        "Operating temperature",
        "Material",
        "Protection class",
        "Warranty",
    ),
    "de": (
        "Abmessungen",
        "Gewicht",
        "Betriebsspannung",
        "Leistungsaufnahme",
        "Betriebstemperatur",
        "Material",
        "Schutzart",
        "Garantie",
    ),
    "fr": (
        "Dimensions",
        "Poids",
        "Tension de service",
        "Consommation",
        "Température de fonctionnement",
        "Matériau",
        "Indice de protection",
        "Garantie",
    ),
    "es": (
        "Dimensiones",
        "Peso",
        "Tensión de funcionamiento",
        "Consumo",
        "Temperatura de trabajo",
        "Material",
        "Grado de protección",
        "Garantía",
    ),
    "it": (
        "Dimensioni",
        "Peso",
        "Tensione di esercizio",
        "Assorbimento",
        "Temperatura di esercizio",
        "Materiale",
        "Grado di protezione",
        "Garanzia",
    ),
    "nl": (
        "Afmetingen",
        "Gewicht",
        "Bedrijfsspanning",
        "Opgenomen vermogen",
        "Bedrijfstemperatuur",
        "Materiaal",
        "Beschermingsklasse",
        "Garantie",
    ),
}
_SPEC_VALUES = (
    "120 x 80 x 35 mm",
    "1.2 kg",
    "230 V AC",
    "12 W",
    "-10 ... +45 °C",
    "Aluminium",
    "IP54",
    "2 years",
)


def _letter(locale: Locale, rng: np.random.Generator) -> tuple[list[Page], str]:
    lang = locale.language
    style = sample_style(rng)
    size = blocks.paper_size(locale)
    writer = Writer(style, size, Labeler(lang, rng))
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    sender = blocks.sample_organisation(
        rng,
        locale,
        company_name(rng, locale)
        if chance(rng, 0.5)
        else f"{pick(rng, lexicon.BRANDS)} {pick(rng, ('Association', 'Verein', 'Association', 'Asociación', 'Associazione', 'Vereniging'))}",
    )
    blocks.letterhead(pen, rng, sender, m, m - 4, detail=chance(rng, 0.6))
    person = sample_person(rng, lang)
    address = sample_address(rng, locale)
    title = courtesy_title(rng, person, lang) if chance(rng, 0.5) else ""
    blocks.address_block(pen, m, 58, [f"{title} {person.printed}".strip(), *address.lines])
    pen.text(
        right,
        85,
        f"{sender.address.city}, {format_date(document_date(rng), locale.date_style, lang)}",
        align="r",
    )
    y = 100.0
    pen.text(m, y, pick(rng, _SUBJECTS[lang]), style.size * 1.15, bold=True)
    y += 10
    greeting = Labeler(lang, rng).text("greeting", name=person.printed)
    pen.text(m, y, greeting)
    y += pen.step(style.size, 1.8)
    sentences = list(_LETTER[lang])
    for _ in range(int(rng.integers(2, 4))):
        count = int(rng.integers(2, 4))
        start = int(rng.integers(0, len(sentences) - count + 1))
        y = pen.wrap(m, y, " ".join(sentences[start : start + count]), right - m) + 3
    pen.text(m, y + 6, _CLOSINGS[lang])
    pen.text(m, y + 20, sample_person(rng, lang).printed)
    return writer.pages, "letter"


def _menu(locale: Locale, rng: np.random.Generator) -> tuple[list[Page], str]:
    lang = locale.language
    style = sample_style(rng)
    width, height = pick(rng, ((210.0, 297.0), (148.0, 210.0), (120.0, 297.0)))
    writer = Writer(style, (width, height), Labeler(lang, rng))
    pen = writer.pen
    m = min(style.margin, 14.0)
    name = f"{pick(rng, ('Café', 'Restaurant', 'Trattoria', 'Bistro', 'Brasserie', 'Taberna', 'Eetcafé'))} {pick(rng, lexicon.BRANDS)}"
    pen.text(
        width / 2, m + 8, name, style.size * 2.2, bold=True, color=style.accent, align="c", face=style.heading
    )
    pen.text(width / 2, m + 17, pick(rng, _MENU_TITLE[lang]), style.size * 1.3, align="c", color=style.muted)
    y = m + 30
    pool = list(lexicon.CAFE.get(lang, lexicon.CAFE["en"]))
    for section in _SECTIONS[lang]:
        if y > height - 30:
            break
        pen.text(width / 2, y, section.upper(), style.size * 1.15, bold=True, align="c")
        pen.rule(width / 2 - 20, width / 2 + 20, y + 2, style.accent)
        y += 9
        for _ in range(int(rng.integers(2, 5))):
            dish, low, high = pick(rng, pool)
            price = format_number(money(rng.uniform(max(low, 1), max(high, 2))), locale.money_style)
            pen.text(m, y, dish, style.size)
            if chance(rng, 0.5):
                pen.text(width - m, y, price, style.size, align="r")
            else:
                pen.text(m + pen.measure(dish) + 4, y, price, style.size, color=style.muted)
            y += pen.step(style.size, 1.7)
        y += 5
    return writer.pages, "menu"


def _datasheet(locale: Locale, rng: np.random.Generator) -> tuple[list[Page], str]:
    lang = locale.language
    style = sample_style(rng)
    size = blocks.paper_size(locale)
    writer = Writer(style, size, Labeler(lang, rng))
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    maker = company_name(rng, locale)
    product = f"{pick(rng, lexicon.BRANDS)} {pick(rng, ('X', 'Pro', 'S', 'Max', 'Lite'))}{int(rng.integers(10, 990))}"
    pen.rect(0, 0, size[0], 14, fill=style.accent)
    pen.text(m, 9.5, maker, style.size * 1.1, bold=True, color=(255, 255, 255))
    pen.text(
        right,
        9.5,
        {
            "de": "Datenblatt",
            "fr": "Fiche technique",
            "es": "Ficha técnica",
            "it": "Scheda tecnica",
            "nl": "Productblad",
        }.get(lang, "Product datasheet"),
        style.size,
        color=(255, 255, 255),
        align="r",
    )
    pen.text(m, 34, product, style.size * 2.6, bold=True, face=style.heading)
    y = pen.wrap(m, 45, " ".join(_LETTER[lang][1:3]), right - m, color=style.muted) + 4
    pen.rect(m, y, m + 60, y + 45, fill=style.shade)
    logo(pen, rng, m + 20, y + 12, 20, product, style.accent)
    columns = [
        Column(
            {
                "de": "Merkmal",
                "fr": "Caractéristique",
                "es": "Característica",
                "it": "Caratteristica",
                "nl": "Kenmerk",
            }.get(lang, "Feature"),
            0.55,
        ),
        Column(
            {"de": "Wert", "fr": "Valeur", "es": "Valor", "it": "Valore", "nl": "Waarde"}.get(lang, "Value"),
            0.45,
        ),
    ]
    rows = [[spec, value] for spec, value in zip(_SPECS[lang], _SPEC_VALUES, strict=True)]
    blocks.table(writer, y + 5, m + 68, right, columns, rows, pick(rng, ("grid", "zebra", "lines")))
    y += 60
    order = [
        [f"{product}-{i}", pick(rng, lexicon.HARDWARE)[0], str(int(rng.integers(1, 50)) * 10)]
        for i in range(int(rng.integers(3, 7)))
    ]
    blocks.table(
        writer,
        y,
        m,
        right,
        [
            Column("Art.-Nr." if lang == "de" else "Ref.", 0.25),
            Column("", 0.55),
            Column("VE" if lang == "de" else "Pack", 0.2, "r"),
        ],
        order,
        "shaded",
    )
    pen.text(
        size[0] / 2,
        size[1] - 12,
        f"{maker} · {' · '.join(sample_address(rng, locale).lines)}",
        style.size * 0.8,
        color=style.muted,
        align="c",
    )
    return writer.pages, "datasheet"


def _agenda(locale: Locale, rng: np.random.Generator) -> tuple[list[Page], str]:
    lang = locale.language
    style = sample_style(rng)
    size = blocks.paper_size(locale)
    writer = Writer(style, size, Labeler(lang, rng))
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    org = company_name(rng, locale)
    pen.text(m, m + 6, org, style.size * 1.3, bold=True, color=style.accent)
    pen.text(m, m + 20, _AGENDA_TITLE[lang], style.size * 2.2, bold=True, face=style.heading)
    when = document_date(rng)
    y = (
        blocks.kv_rows(
            pen,
            m,
            m + 32,
            [
                (Labeler(lang, rng).raw("date") + ":", format_date(when, locale.date_style, lang)),
                (
                    {"de": "Uhrzeit:", "fr": "Heure :", "es": "Hora:", "it": "Ora:", "nl": "Tijd:"}.get(
                        lang, "Time:"
                    ),
                    f"{int(rng.integers(8, 18))}:00",
                ),
                (
                    {"de": "Ort:", "fr": "Lieu :", "es": "Lugar:", "it": "Luogo:", "nl": "Locatie:"}.get(
                        lang, "Location:"
                    ),
                    ", ".join(sample_address(rng, locale).lines),
                ),
            ],
            30,
        )
        + 8
    )
    hour, minute = int(rng.integers(8, 17)), 0
    items = list(_AGENDA[lang])
    for i, item in enumerate(items[: int(rng.integers(5, len(items) + 1))], start=1):
        pen.text(m, y, f"{hour:02d}:{minute:02d}", color=style.muted)
        pen.text(m + 22, y, f"{i}. {item}", bold=chance(rng, 0.3))
        if chance(rng, 0.5):
            pen.text(right, y, sample_person(rng, lang).printed, color=style.muted, align="r")
        minute += int(pick(rng, (10, 15, 20, 30)))
        hour, minute = hour + minute // 60, minute % 60
        y += pen.step(style.size, 2.2)
    pen.rule(m, right, y, style.muted)
    pen.wrap(m, y + 8, _LETTER[lang][4], right - m, color=style.muted)
    return writer.pages, "agenda"


def _certificate(locale: Locale, rng: np.random.Generator) -> tuple[list[Page], str]:
    lang = locale.language
    style = sample_style(rng)
    width, height = (297.0, 210.0) if chance(rng, 0.6) else (210.0, 297.0)
    writer = Writer(style, (width, height), Labeler(lang, rng))
    pen = writer.pen
    border = 10.0
    pen.rect(border, border, width - border, height - border, stroke=style.accent, width=1.2)
    pen.rect(border + 3, border + 3, width - border - 3, height - border - 3, stroke=style.accent, width=0.3)
    title, intro, completed, awarded = _CERT[lang]
    cx = width / 2
    logo(pen, rng, cx - 9, 24, 18, title, style.accent)
    pen.text(
        cx, 62, title.upper(), style.size * 2.6, bold=True, color=style.accent, align="c", face=style.heading
    )
    pen.text(cx, 80, intro, style.size * 1.2, align="c")
    person = sample_person(rng, lang)
    pen.text(cx, 98, person.printed, style.size * 2.4, bold=True, align="c", face=style.heading)
    pen.rule(cx - 70, cx + 70, 101, style.muted)
    pen.text(cx, 115, completed, style.size * 1.2, align="c")
    pen.text(cx, 128, pick(rng, _COURSES), style.size * 1.6, bold=True, align="c")
    pen.text(
        cx,
        142,
        f"{awarded} {format_date(document_date(rng), locale.date_style, lang)}",
        style.size,
        align="c",
    )
    for x in (cx - 60, cx + 60):
        pen.rule(x - 35, x + 35, height - 40, style.muted)
        pen.text(
            x, height - 35, sample_person(rng, lang).printed, style.size * 0.9, align="c", color=style.muted
        )
    return writer.pages, "certificate"


_FUNCS = {
    "letter": _letter,
    "menu": _menu,
    "datasheet": _datasheet,
    "agenda": _agenda,
    "certificate": _certificate,
}


def compose(rng: np.random.Generator) -> Composition:
    """A letter, menu, datasheet, agenda or certificate; its truth is just the type."""
    kind = pick_weighted(rng, KINDS)
    locale = sample_locale(rng)
    pages, layout = _FUNCS[kind](locale, rng)
    return Composition(
        document_type="other",
        pages=pages,
        fields={},
        printed={},
        layout=layout,
        meta={"country": locale.country.code, "language": locale.language, "other_kind": kind},
        px_per_mm=(6.8, 8.3),
    )
