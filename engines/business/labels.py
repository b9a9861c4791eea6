"""Label dictionaries in English, German, French, Spanish, Italian and Dutch, and label matching
that tolerates OCR.

Receipts, invoices, bills and statements print most values next to a label ("Total",
"Rechnungsdatum", "Montant TTC"). Labels are matched on folded text (lower case, accents dropped);
words may be glued together ("TotalAmtPayable") and the usual OCR confusions of i/l/1 and o/0 are
allowed, because that is what scanned receipts look like. Where two labels overlap the longer one
wins, so "sub total" is a subtotal, "total qty" is ignored and "amount due" is a total, not a due
date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engines.layout import Line
from engines.validators import fold

# Label phrases per key, folded (lower case, no accents). EN, DE, FR, ES, IT, NL. A line's text is
# matched against all of them; where two overlap the longer phrase wins, so "sub total" is a
# subtotal, "total qty" is ignored and "amount due" is a total, not a due date.
LABELS: dict[str, tuple[str, ...]] = {
    "total": (
        "total", "grand total", "total amount", "total amt", "amount due", "amt due", "total due",
        "balance due", "amount payable", "total payable", "total amt payable", "total amount payable",
        "total amount due", "nett total", "total incl", "total inclusive", "total including",
        "total incl gst", "total incl tax", "total incl vat", "rounded total", "total rounded",
        "total amt rounded", "total after rounding", "total after adj", "after rounding", "total to pay", "amount to pay", "total sales", "total (incl", "total eur",
        "invoice total", "total invoice", "gesamt", "gesamtbetrag", "gesamtsumme", "summe", "endbetrag",
        "endsumme", "rechnungsbetrag", "zu zahlen", "zahlbetrag", "bruttobetrag", "gesamt brutto",
        "summe brutto", "total ttc", "montant total", "montant ttc", "net a payer", "total a payer",
        "montant a payer", "importe total", "total a pagar", "total factura", "importe a pagar",
        "totale", "totale fattura", "totale da pagare", "importo totale", "totale documento",
        "importo da pagare", "totaal", "te betalen", "totaalbedrag", "totaal incl", "totaal te betalen",
        "totaal bedrag", "total general",
        "balance to pay", "zu zahlender betrag", "falliger betrag", "total importe factura", "totale bolletta", "te betalen bedrag", "openstaand bedrag", "totale euro", "montant total ttc", "total iva incl", "amount to be paid", "total a regler", "net a payer ttc", "total usd", "total gbp", "total cad", "total chf", "total aud",
        "total myr", "gesamtbetrag brutto", "totale complessivo",
    ),
    "subtotal": (
        "subtotal", "sub total", "total excl", "total excluding", "total before tax", "total before gst",
        "net amount", "net total", "total net", "amount excl", "total exclusive", "netto", "nettobetrag",
        "zwischensumme", "summe netto", "gesamt netto", "nettosumme", "netto summe", "sous total",
        "total ht", "montant ht", "total hors taxes", "base imponible", "importe neto", "total neto",
        "subtotale", "imponibile", "totale imponibile", "totale netto", "subtotaal", "totaal excl",
        "netto bedrag", "bedrag excl", "totaal exclusief",
        "base ht", "sous total ht", "total sin iva", "subtotaal excl btw", "net", "nettobetrag", "zwischensumme netto", "totale merce", "total net ht",
    ),
    "tax": (
        "tax", "vat", "gst", "sst", "hst", "pst", "tps", "tvq", "qst", "sales tax", "tax amount", "total tax", "total gst",
        "gst amount", "vat amount", "total vat", "mwst", "ust", "umsatzsteuer", "mehrwertsteuer",
        "mwst betrag", "tva", "montant tva", "total tva", "iva", "importe iva", "cuota iva", "total iva",
        "btw", "btw bedrag", "totaal btw", "imposta", "totale iva", "importo iva",
        "summe mwst", "mwst gesamt", "enthaltene mwst", "vat total", "totaal btw", "iva total", "tva totale", "impuesto", "steuer", "umsatzsteuer gesamt", "totale imposta",
    ),
    # Labels that look like money labels but are not the ones we want.
    "ignore": (
        # salutations: "Dear Customer," opens a letter's text, it labels nothing
        "dear customer", "dear client", "dear valued customer", "sehr geehrter kunde",
        "sehr geehrte kundin", "sehr geehrte kundinnen und kunden", "lieber kunde", "liebe kundin",
        "cher client", "chere cliente", "estimado cliente", "estimada cliente", "gentile cliente",
        "caro cliente", "geachte klant", "beste klant",
        "gst reg", "gst reg no", "gst id", "gst no", "gst summary", "tax summary", "vat summary",
        "vat no", "vat reg", "vat number", "vat id", "tax id", "tax no", "tax invoice", "tax reg",
        "sst reg", "sst id", "sst no", "price inclusive of gst", "prices inclusive of gst",
        "ust id", "ust idnr", "ust id nr", "steuernummer", "steuer nr", "n tva", "numero tva",
        "tva intracom", "tva intracommunautaire", "partita iva", "p iva", "p.iva", "codice fiscale",
        "btw nummer", "btw nr", "btw id", "cif", "nif", "total qty", "total quantity", "total items", "total item",
        "total qty tender", "item count", "no of items", "discount", "total discount", "total savings",
        "you saved", "member", "points", "company reg", "co reg", "reg no", "total points",
        "total stamp",
        "customer no", "customer number", "customer id", "customer ref", "client ref", "client no", "kundennummer", "kunden nr", "kd nr", "n client", "ref client", "ref cuent", "reference client", "code client", "n cliente", "codigo de cliente", "codice cliente", "cod cliente", "klantnummer", "klantnr", "ship to", "deliver to", "delivery address", "lieferadresse", "livre a", "adresse de livraison", "enviar a", "direccion de entrega", "destinazione merce", "afleveradres", "opening balance", "closing balance", "previous balance", "new balance", "balance brought forward", "balance carried forward", "anfangssaldo", "endsaldo", "alter kontostand", "neuer kontostand", "saldo alt", "saldo neu", "ancien solde", "nouveau solde", "solde precedent", "solde final", "saldo anterior", "saldo inicial", "saldo final", "saldo iniziale", "saldo finale", "saldo precedente", "beginsaldo", "eindsaldo", "vorig saldo", "nieuw saldo", "oud saldo", "meter number", "meter no", "zahlernummer", "reference", "referenz", "referencia", "riferimento", "referentie", "kenmerk", "order no", "order number", "bestellnummer", "po number", "purchase order", "vat id", "tax id", "siret", "kvk", "btw id", "p iva", "c f p iva", "bic", "swift", "swift bic", "page",
    ),
    # Qualifiers: "Total (excl. VAT)" is a subtotal, "Total incl. GST" a total.
    "excl": (
        "excl", "excluding", "exclusive", "exclusive of", "before tax", "before gst", "ohne", "zzgl",
        "hors", "hors taxes", "ht", "sin", "sin iva", "senza", "escl", "esclusa", "iva esclusa",
        "exclusief", "zonder", "excl btw",
    ),
    "incl": (
        "incl", "including", "inclusive", "inclusive of", "inkl", "inklusive", "incluido", "incluida",
        "incluso", "inclusa", "compresa", "inclusief", "ttc", "dont", "davon", "enthaltene", "di cui",
        "waarvan", "de los cuales", "of which",
    ),
    "rounding": ("rounding", "rounding adj", "rounding adjustment", "round adj", "rundung", "arrondi", "redondeo", "arrotondamento", "afronding"),
    # What the customer handed over, and what came back: payment - change = total.
    "payment": (
        "cash", "tendered", "cash tendered", "paid", "paid amount", "amount paid", "payment",
        "payment mode", "card", "visa", "mastercard", "credit card", "amount tendered", "gegeben",
        "bar", "bezahlt", "especes", "paye", "efectivo", "entregado", "pagado", "contanti", "pagato",
        "contant", "betaald", "pin", "girocard", "ec karte", "ec cash", "kartenzahlung",
        "carte bancaire", "carte bleue", "tarjeta", "bancomat", "maestro", "amex",
    ),
    "change": (
        "change", "change due", "change amt", "cash change", "change cash", "ruckgeld", "wechselgeld",
        "rendu", "monnaie", "monnaie rendue", "cambio", "vuelto", "resto", "wisselgeld",
    ),
    "invoice_number": (
        "invoice no", "invoice number", "invoice #", "invoice nr", "invoice num", "invoice id",
        "inv no", "inv #", "inv nr", "bill no", "receipt no", "document no", "doc no",
        "rechnungsnummer", "rechnung nr", "rechnungs nr", "n factura", "n facture", "no facture", "nr factuur", "rechnungs no", "rechnung no", "rechnungs nummer", "re nr", "rechnung no", "beleg nr",
        "facture n", "facture no", "numero de facture", "n de facture", "no de facture",
        "numero facture", "factura n", "factura no", "numero de factura", "n de factura",
        "no factura", "num factura", "fattura n", "fattura no", "numero fattura", "n fattura",
        "fattura nr", "numero documento", "factuurnummer", "factuur nr", "factuurnr", "factuur no",
        "invoice", "rechnung", "facture", "factura", "fattura", "factuur",
        "n documento", "document number", "nr factuur", "numero", "invoice ref", "facture numero",
    ),
    "invoice_date": (
        "invoice date", "date of invoice", "date", "dated", "issue date", "date of issue", "issued",
        "issued on", "rechnungsdatum", "datum", "ausstellungsdatum", "date de facture",
        "date de la facture", "date d emission", "date facture", "fecha", "fecha de factura",
        "fecha de emision", "fecha factura", "data", "data fattura", "data di emissione",
        "data emissione", "data documento", "factuurdatum", "datum factuur", "tarikh",
        "statement date", "bill date", "billing date", "letter date", "date du releve",
        "date d edition", "fecha del extracto", "data estratto", "datum afschrift",
        "erstellt am", "auszugsdatum", "date d edition", "edite le", "date d arrete", "fecha del extracto", "data estratto conto", "aanmaakdatum", "date issued", "facture du", "emessa il", "datum nota", "invoice dated", "date of statement", "printed on", "datum van uitgifte", "fecha de expedicion",
    ),
    "due_date": (
        "due date", "payment due", "payment due date", "due", "due by", "pay by", "payable by",
        "please pay by", "falligkeit", "faellig", "fallig", "fallig am", "falligkeitsdatum",
        "zahlbar bis", "zahlungsziel", "date d echeance", "echeance", "a payer avant",
        "payable avant", "a regler avant", "fecha de vencimiento", "vencimiento", "pagar antes de",
        "data di scadenza", "scadenza", "da pagare entro", "vervaldatum", "te betalen voor",
        "uiterste betaaldatum", "betalen voor",
        "bedrag voor",  # "Wij verzoeken u het bedrag vóór 27 november 2023 over te maken"
        "a regler avant le", "remit payment by", "payment by", "please remit payment by", "pay before",
        "payable until", "bis zum", "bis spatestens", "au plus tard le", "avant le", "antes del", "entro il",
        "uiterlijk", "data scadenza", "scadenza pagamento", "payment due by", "due on", "zahlungsfrist", "date limite de paiement", "fecha limite de pago", "uiterlijk betalen op",
    ),
    "customer": (
        "bill to", "billed to", "invoice to", "sold to", "customer", "client", "customer name",
        "buyer", "rechnungsempfanger", "rechnung an", "kunde", "empfanger", "kundenname",
        "facture a", "facturer a", "destinataire", "facturar a", "facturado a", "cliente",
        "fatturare a", "fatturato a", "spett le", "spettabile", "factuur aan", "klant",
        "gefactureerd aan", "afnemer",
        "datos del cliente", "intestatario fattura", "intestatario", "bill to name", "customer details", "adressat",
        "cuent",  # OCR's CLIENT, its LI read as one U (as "Condlitions" shows letters run together)
    ),
    "vendor": (
        "from", "seller", "vendor", "supplier", "issued by", "lieferant", "verkaufer",
        "rechnungssteller", "fournisseur", "vendeur", "emetteur", "proveedor", "emisor", "vendedor",
        "fornitore", "venditore", "cedente", "leverancier", "verkoper",
        "absender", "emittente", "remitente", "afzender", "issuer", "supplier details",
    ),
    "period": (
        "statement period", "period", "billing period", "period covered", "statement from",
        "zeitraum", "abrechnungszeitraum", "kontoauszug vom", "auszugszeitraum", "periode",
        "periode du", "releve du", "periodo", "periodo del", "periodo dal", "periode van",
        "afschriftperiode", "rekeningoverzicht van", "for the period", "from",
        "periode du releve", "periodo del extracto", "periodo di riferimento", "billing period", "periode de facturation", "periodo de facturacion", "periodo di fatturazione", "factuurperiode", "leistungszeitraum", "verbruiksperiode", "periode de consommation", "periodo de consumo", "statement period from", "period from",
    ),
    "holder": (
        "account holder", "account name", "name", "customer name", "account owner", "kontoinhaber",
        "inhaber", "name des kontoinhabers", "titulaire", "titulaire du compte", "nom", "titular",
        "titular de la cuenta", "nombre", "intestatario", "intestatario del conto", "titolare",
        "nome", "rekeninghouder", "ten name van", "tnv", "naam",
        "kontoinhaberin", "intestato a", "t n v", "customer", "account holder name",
    ),
    # Column captions of an item table: a row of them is a table header, not a list of labels.
    "column": (
        "qty", "quantity", "units", "menge", "anz", "anzahl", "qte", "quantite", "cant", "cantidad", "uds",
        "q ta", "quantita", "aantal", "aant", "unit price", "price", "unit cost", "einzelpreis", "e preis",
        "preis", "prix unitaire", "p u", "p u ht", "prix unit", "prix", "precio", "precio unitario",
        "p unit", "prezzo", "prezzo unitario", "stukprijs", "prijs", "description", "item", "items",
        "details", "beschreibung", "bezeichnung", "artikel", "leistung", "designation", "libelle",
        "descripcion", "concepto", "articulo", "descrizione", "articolo", "prestazione", "omschrijving",
        "beschrijving", "amount", "betrag", "montant", "importe", "importo", "bedrag", "line total",
        "gesamtpreis", "pos", "rate", "hours", "stunden", "heures", "horas", "ore", "uren",
    ),
    "iban": ("iban",),
    "account_number": (
        "n de contrat", "numero de contrat", "account number", "account no", "acct no", "account #", "acc no", "a c no", "kontonummer",
        "konto nr", "konto", "numero de compte", "n de compte", "no de compte", "compte",
        "numero de cuenta", "n de cuenta", "cuenta", "numero di conto", "numero conto", "conto n",
        "conto", "rekeningnummer", "rekening nr", "rekening",
        "account no", "acct no", "kontonummer", "konto nr", "n de compte", "numero de cuenta", "n de cuenta", "numero di conto", "rekeningnummer",
    ),
    "address": (
        "service address", "billing address", "supply address", "address", "installation address",
        "delivery address", "anschrift", "lieferadresse", "adresse", "adresse de facturation",
        "direccion", "domicilio", "indirizzo", "adres", "leveringsadres",
    ),
}  # fmt: skip

# Words that open a document title, never a value ("INVOICE", "RECHNUNG", ...).
TITLES = (
    "invoice", "tax invoice", "receipt", "rechnung", "quittung", "beleg", "kassenbon", "facture",
    "recu", "ticket", "factura", "recibo", "fattura", "ricevuta", "scontrino", "factuur", "bon",
    "kwitantie", "statement", "bank statement", "account statement", "kontoauszug", "releve",
    "releve de compte", "extracto", "extracto bancario", "estratto conto", "rekeningafschrift", "bankafschrift",
    "afschrift", "dagafschrift", "finanzstatus",
    "utility bill", "bill", "cash bill", "simplified tax invoice", "official receipt", "sales invoice",
    "sales receipt", "commercial invoice", "proforma invoice", "credit note", "invoice receipt",
    "factura simplificada", "ticket de caisse", "ticket de compra", "documento commerciale",
    "scontrino fiscale", "kassenbeleg", "bon de caisse", "cash sale", "cash sales", "tax receipt",
    "sales slip", "till receipt", "extrait de compte", "extrait de compte courant", "releve de compte courant",
    "releve de comptes", "releve bancaire", "extracto de cuenta", "extracto de cuenta corriente",
    "estratto conto corrente", "statement of account", "current account statement", "rekeningoverzicht",
    "council tax bill", "council tax demand notice", "council tax demand", "demand notice", "tax bill",
    "notice", "final notice", "payment reminder", "reminder", "electricity bill", "gas bill",
    "water bill", "phone bill", "energy bill", "annual statement", "tax notice", "avis d imposition",
    "mahnung", "zahlungserinnerung", "jahresabrechnung", "abrechnung",
    # the kind of account a statement covers, printed as its heading: never its bank's name
    "betaalrekening", "spaarrekening", "girokonto", "privatkonto", "sparkonto", "compte courant",
    "compte cheques", "cuenta corriente", "cuenta nomina", "conto corrente", "current account",
    "checking account", "savings account",
)  # fmt: skip

_FREELY_GLUED_LENGTH = 9  # letters of a phrase long enough to be a label whatever follows it
_CHAR_CLASSES = {"i": "[il1!|]", "l": "[li1|]", "o": "[o0]", "'": "['\u2019` ]?", " ": ""}
_SEPARATOR = r"[\s.:_\-/'\u2019°º#]*"


# What OCR glues to a short tax qualifier ("sinIVA", "exclVAT", "HTtaxes"): the tax it qualifies.
_TAX_WORD = r"(?:vat|gst|hst|tax|iva|igic|tva|taxe|mwst|ust|btw|steuer)"


def _phrase_regex(phrase: str, *, glued: bool) -> str:
    """A phrase as a regex over folded text. ``glued``: the next word may follow without a space
    (OCR drops spaces: "ExcludingGST"), allowed for long phrases, where a longer word that merely
    starts with the phrase is unlikely, and for a short qualifier only when the glued word is a
    tax's name: "Singh", "Horsham" and "Dontell" are names, not "sin", "hors" and "dont"."""
    words = []
    for word in re.split(r"[\s.\-]+", phrase):
        words.append("".join(_CHAR_CLASSES.get(c, re.escape(c)) for c in word))
    if not glued:
        end = r"(?![a-z])"
    elif len(phrase) >= _FREELY_GLUED_LENGTH:
        end = ""
    else:
        end = rf"(?:(?![a-z])|(?={_TAX_WORD}))"
    return r"(?<![a-z0-9])" + _SEPARATOR.join(words) + end


@cache
def _key_patterns() -> dict[str, re.Pattern[str]]:
    out = {}
    for key, phrases in LABELS.items():
        ordered = sorted(set(phrases), key=len, reverse=True)
        qualifier = key in ("excl", "incl")
        out[key] = re.compile(
            "|".join(
                f"(?:{_phrase_regex(p, glued=qualifier or len(p) >= _FREELY_GLUED_LENGTH)})" for p in ordered
            )
        )
    return out


@dataclass(frozen=True)
class LabelHit:
    """A label printed on a line: which key it belongs to and where it is in the line's text."""

    key: str
    line: Line
    start: int
    end: int

    @property
    def strength(self) -> int:
        """Longer labels are more specific ("total amount payable" beats "total")."""
        return self.end - self.start


# Short words that are labels only when they fill a cell on their own ("To:", "Von").
CELL_LABELS: dict[str, tuple[str, ...]] = {
    "customer": ("to", "an", "aan", "a", "para", "per", "sold to", "bill to"),
    "vendor": ("from", "von", "de", "da", "van", "by"),
    # an invoice's header cell over its number ("INTESTATARIO | DOCUMENTO | DATA")
    "invoice_number": ("documento", "document", "doc"),
}


# A tax abbreviation in capitals that OCR glued to the word before it ("dontTVA 20%", "inkl.MwSt"):
# case tells the word boundary that the folded text has lost.
_GLUED_TAX = re.compile(r"(?<=[a-zß-ÿ.])(?:TVA|VAT|GST|MWST|MwSt|IVA|BTW|USt)(?![a-z])")


# A total's word that OCR glued to the currency code after it ("TOTALEEUR", "TotalUSD", "TOTALRM").
_GLUED_TOTAL = re.compile(
    r"(?<![A-Za-z])(?:total|totale|totaal|gesamt)(?=(?:EUR|USD|GBP|CHF|CAD|AUD|RM)(?![A-Za-z]))",
    re.IGNORECASE,
)


def _initial_letter(text: str) -> bool:
    """A letter standing alone without a colon or its accent ("A" beside "Altamira", a logo's
    initial): no French "À" that names the addressee."""
    return len(text.strip()) == 1 and text.strip() not in ("à", "À")


def label_hits(line: Line) -> list[LabelHit]:
    """The labels on one line, left to right; where labels overlap, the longest wins (a phrase
    that belongs to two keys, such as "customer", is a hit for both)."""
    folded = fold(line.text)
    cell = re.sub(r"[\s:.]+$", "", folded).strip()
    for key, words in CELL_LABELS.items():
        if cell in words and not _initial_letter(line.text):
            return [LabelHit(key, line, 0, len(line.text))]
    found = []
    for key, pattern in _key_patterns().items():
        for match in pattern.finditer(folded):
            if match.end() > match.start():
                found.append(LabelHit(key, line, match.start(), match.end()))
    spans = {(h.key, h.start, h.end) for h in found}
    found.extend(
        LabelHit("tax", line, m.start(), m.end())
        for m in _GLUED_TAX.finditer(line.text)
        if ("tax", m.start(), m.end()) not in spans
    )
    found.extend(
        LabelHit("total", line, m.start(), m.end())
        for m in _GLUED_TOTAL.finditer(line.text)
        if ("total", m.start(), m.end()) not in spans
    )
    found.sort(key=lambda h: (-h.strength, h.start))
    kept: list[LabelHit] = []
    for hit in found:
        same = any(k.start == hit.start and k.end == hit.end for k in kept)
        if same or all(hit.end <= k.start or hit.start >= k.end for k in kept):
            kept.append(hit)
    return sorted(kept, key=lambda h: h.start)


_TITLES_GLUED = frozenset(title.replace(" ", "") for title in TITLES)
# Words a title may open with: a possessive addressed to the reader ("Your bill", "Ihre Rechnung",
# "Votre facture") and the period a bill covers ("Monthly statement"). They never make a name of
# a title, and a title with them stands where an issuer's name stands on many bills.
_TITLE_OPENERS = frozenset((
    "your", "my", "the", "a", "ihre", "ihr", "deine", "dein", "meine", "votre", "vos", "ta", "su",
    "sus", "tu", "la", "le", "il", "uw", "je", "de", "vostra", "tua",
    "monthly", "quarterly", "annual", "yearly", "final", "interim", "electronic", "online", "e",
    "monatliche", "monatlicher", "mensuel", "mensuelle", "mensual", "mensile", "maandelijkse",
))  # fmt: skip


def is_title(text: str) -> bool:
    """True for a document title alone on its line ("TAX INVOICE", "Rechnung", OCR's "TAXINVOICE",
    "Your bill", "Votre facture", "Monthly statement")."""
    if re.search(r"[#°º\d]", text):
        return False  # "Invoice #", "Facture n°": a caption, not the title
    words = re.sub(r"[^a-z ]", " ", fold(text)).split()
    while len(words) > 1 and words[0] in _TITLE_OPENERS:
        words = words[1:]
    if " ".join(words) in TITLES or "".join(words) in _TITLES_GLUED:
        return True
    if 2 <= len(words) <= 5 and words[-1] in _TITLE_TAILS and not any(w in _LEGAL_FORMS for w in words):
        return True  # the kind of a bill before its closing word: "Water and Sewerage Charges"
    # a bill's kind after its title word: "Facture de gaz", "Fattura servizio idrico"
    return (
        len(words) in (2, 3, 4)
        and words[0] in _TITLE_HEADS
        and not any(word in _LEGAL_FORMS or word in _CAPTION_WORDS for word in words[1:])
    )


# Words that close an English bill's title ("Water and Sewerage Charges"): no firm's name ends
# so without its legal form (not "bill": EVANS BILL is a person, surname first).
_TITLE_TAILS = frozenset(("charges",))


# Title words a bill's kind follows ("Facture de gaz"); never "bill", a given name too. A tax's
# own word heads the tax's name, the title of its bill ("Impuesto sobre bienes inmuebles", "Taxe
# foncière", "Tassa rifiuti").
_TITLE_HEADS = frozenset((
    "invoice", "facture", "factura", "fattura", "rechnung", "factuur", "bolletta", "releve",
    "extracto", "estratto", "kontoauszug", "avis", "jahresabrechnung", "abrechnung",
    "impuesto", "taxe", "tassa", "avviso",
))  # fmt: skip
# Words after a title word that make it a caption over a value ("INVOICE NO:", "Invoice date",
# "Facture à"), whose value may stand on the next line: never the page's title.
_CAPTION_WORDS = frozenset((
    "no", "nr", "n", "nro", "num", "number", "numero", "nummer", "ref", "reference", "id", "date",
    "dated", "datum", "fecha", "data", "to", "a", "total", "amount", "period", "periode",
))  # fmt: skip
_LEGAL_FORMS = frozenset((
    "ltd", "limited", "plc", "llc", "inc", "gmbh", "ag", "kg", "sa", "sas", "sasu", "sarl", "srl",
    "spa", "sl", "bv", "nv", "co",
))  # fmt: skip


def without_trailing_title(text: str) -> str:
    """A name line without the document title OCR read into it from the same row
    ("Supermercado Nordlicht FACTURA SIMPLIFICADA"); the text itself when nothing else is left.
    The longest title is cut: "Thompson's Diner SALES RECEIPT" loses "SALES RECEIPT", not just
    "RECEIPT"."""
    if is_title(text):
        return text
    words = text.split()
    for cut in range(1, len(words)):
        if is_title(" ".join(words[cut:])):
            return " ".join(words[:cut])
    return text
