"""Which of the ARCHITECTURE §3.2 document types a page set is, from its text.

Identity documents announce themselves through machine-readable evidence (an MRZ, an AAMVA
barcode), which the pipeline finds before calling this. Everything else is told apart by words:
each type has cue phrases in the languages our customers' documents come in, weighted by how
specific they are ("opening balance" says bank statement; "total" says little), plus a few layout
cues (a receipt is a narrow strip). Scores become probabilities through a softmax whose
temperature was chosen so that a document with two or three strong cues reaches ~0.95.

Phrases are matched on word boundaries, so "TVA" does not fire inside "TVAL" and "gas" not inside
"vegas", in folded text (lower case, accents dropped, "ß" as "ss") on both sides: PP-OCR's alphabet has no
accented letters, so a page photographed reads "Falligkeit", "recu", "Zahlerstand", and a cue
spelled with its accent would only ever match a digital PDF's text layer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engines import doctype_model
from engines.approximate import occurs_approximately
from engines.layout import PageText
from engines.mrz.countries import is_known_code
from engines.mrz.reader import looks_like_mrz_line
from engines.spec import DOCUMENT_TYPES
from engines.validators import fold

# (phrase, weight). Weights: 3 = nearly decisive, 2 = strong, 1 = supporting.
_CUES: dict[str, tuple[tuple[str, float], ...]] = {
    "receipt": (
        ("receipt", 2),
        ("receipt #", 3),
        ("receipt no", 3),
        ("receipt nr", 3),
        ("receipt number", 3),
        ("cash receipt", 3),
        ("sales receipt", 3),
        ("till", 1),
        ("cashier", 2),
        ("change due", 3),
        ("change", 1),
        ("cash", 1),
        ("tendered", 3),
        ("amount tendered", 3),
        ("thank you", 1.5),
        ("come again", 2),
        ("cash bill", 3),
        ("cash sales", 2),
        ("cash inv", 2),
        ("simplified tax invoice", 3),
        ("payment mode", 2),
        ("nett total", 1),
        ("inclusive of gst", 1.5),
        ("price inclusive", 1.5),
        ("goods sold are not returnable", 3),
        ("not returnable", 2),
        ("no refund", 2),
        ("served by", 2),
        ("counter", 1),
        ("thank you for shopping", 3),
        ("thanks for your visit", 2),
        ("please come again", 3),
        ("qty", 0.5),
        ("rounding", 2),
        ("round adj", 2),
        ("visa", 0.5),
        ("mastercard", 0.5),
        ("card payment", 1),
        ("terminal", 1),
        ("store", 0.5),
        ("pos", 1),
        ("cashier:", 2),
        ("kassenbon", 3),
        ("quittung", 2),
        ("beleg", 1.5),
        ("bar", 0.5),
        ("rückgeld", 3),
        ("kasse", 1.5),
        ("ticket de caisse", 3),
        ("reçu", 2),
        ("rendu", 2),
        ("merci de votre visite", 3),
        ("ticket", 1),
        ("n° ticket", 2.5),
        ("n ticket", 2.5),
        ("numéro de ticket", 3),
        ("recibo", 2),
        ("cambio", 1),
        ("gracias por su compra", 3),
        ("gracias por su visita", 2.5),
        ("ticket de compra", 3),
        ("entregado", 1.5),  # the cash handed over, and the change given back
        ("devolución", 1),
        ("efectivo", 1.5),
        ("scontrino", 3),
        ("ricevuta", 2.5),
        ("ricevuta fiscale", 3),
        ("grazie per la visita", 2),
        ("di cui iva", 1.5),
        ("resto", 1.5),
        ("contanti", 1.5),
        ("grazie", 1),
        ("documento commerciale", 3),
        ("kassabon", 3),
        ("bon", 0.5),
        ("wisselgeld", 3),
        ("contant", 1.5),
        ("bedankt", 1),
        ("gst reg", 1.5),
        ("gst id", 1),
        ("sdn bhd", 1),
        ("tax invoice", 0.5),
        ("member", 0.5),
        ("items", 0.5),
        ("total items", 1.5),
        ("item(s)", 1.5),
        ("endbetrag", 3),
        ("nettobetrag", 1),
        ("artikel", 1),
        ("enth. ust", 2),
        ("enth. mwst", 2),
        ("bon-nr", 2.5),
        ("tisch", 1.5),
        ("bedienung", 1.5),
        ("kellner", 2),
        # payment terminal slips printed on receipts
        ("maestro", 1.5),
        ("bancomat", 2),
        ("contactless", 1.5),
        ("auth", 1),
        ("auth code", 2),
        ("approval", 1),
        ("tid", 1),
        ("aid", 1),
        ("mid", 0.5),
        ("card no", 1),
        ("debit card", 1),
        ("ec-karte", 2),
        ("girocard", 2),
        ("kartenzahlung", 2),
        ("carte bancaire", 1.5),
        ("cb", 0.5),
        ("tarjeta", 1.5),
        ("pagamento", 1),
        ("pin", 0.5),
        # farewells and till words in the languages of our customers
        ("kwitantie", 3),
        ("bon nr", 2.5),
        ("bonnr", 2.5),
        ("dank u", 2),
        ("tot ziens", 2),
        ("te betalen", 1),
        ("artikelen", 1.5),
        ("grazie e arrivederci", 3),
        ("arrivederci", 2),
        ("totale euro", 2),
        ("di cui iva", 2),
        ("merci", 1),
        ("à bientôt", 2),
        ("vielen dank", 2),
        ("danke", 1),
        ("auf wiedersehen", 2),
        ("summe", 1),
        ("gracias", 1.5),
        ("hasta pronto", 2),
        ("vuelva pronto", 2),
        ("le atendió", 2),
        ("ticket n", 2),
        ("ticket no", 2.5),
        ("table", 1),
        ("server", 1.5),
        ("tip", 1.5),
        ("gratuity", 2),
        ("suggested tip", 3),
        ("guests", 1.5),
        ("balance due", 0.5),
        ("subtotaal", 1),
        ("order", 0.5),
        ("takeaway", 2),
        ("eat in", 2),
        ("merci de votre confiance", 2.5),
        ("caisse", 1.5),
        ("caissier", 2),
        ("caissière", 2),
        ("espèces", 1.5),
        ("monnaie rendue", 3),
    ),
    "invoice": (
        ("invoice", 2.5),
        ("rechnung nr", 3),
        ("rechnungsbetrag", 1.5),  # German tills print it too
        ("in rechnung", 2),
        ("bitte uberweisen", 2.5),
        ("zahlungsinformationen", 2),
        ("leistungszeitraum", 2),
        ("zu zahlen", 1),
        ("please transfer", 1.5),
        ("payment information", 1.5),
        ("payment details", 1.5),
        ("merci de regler", 2),
        ("veuillez regler", 2),
        ("forma de pago", 1.5),
        ("modalita di pagamento", 1.5),
        ("betalingstermijn", 2),
        ("gelieve te betalen", 2),
        ("graag overmaken", 2),
        ("invoice number", 3),
        ("invoice no", 3),
        ("invoice #", 3),
        ("invoice#", 3),
        ("invoice date", 3),
        ("invoice to", 3),
        ("total to pay", 1.5),
        # payment terms in days: an invoice's, never a till's
        ("net 7", 2),
        ("net 10", 2),
        ("net 14", 2),
        ("net 15", 2),
        ("net 30", 2),
        ("net 45", 2),
        ("net 60", 2),
        ("bill to", 3),
        ("billed to", 3),
        ("ship to", 1.5),
        ("due date", 2.5),
        ("payment terms", 2.5),
        ("terms", 0.5),
        ("purchase order", 1.5),
        ("po number", 1.5),
        ("amount due", 1),
        ("balance due", 1.5),
        ("unit price", 2),
        ("description", 1),
        ("subtotal", 1),
        ("vat number", 1.5),
        ("vat reg", 1),
        ("remit to", 2),
        ("please pay", 1.5),
        ("bank details", 1),
        ("rechnung", 3),
        ("rechnungsnummer", 3),
        ("rechnungsdatum", 3),
        ("fällig", 1.5),
        ("zahlungsziel", 2.5),
        ("rechnungsempfänger", 3),
        ("einzelpreis", 2),
        ("netto", 1),
        ("ust-idnr", 1.5),
        ("facture", 3),
        ("n° de facture", 3),
        ("numéro de facture", 3),
        ("date de facture", 3),
        ("échéance", 2),
        ("date d'échéance", 2.5),
        ("facturé à", 3),
        ("prix unitaire", 2),
        ("total ht", 2),
        ("factura", 3),
        ("número de factura", 3),
        ("fecha de factura", 3),
        ("vencimiento", 2),
        ("facturar a", 3),
        ("precio unitario", 2),
        ("base imponible", 2),
        ("fattura", 3),
        ("numero fattura", 3),
        ("data fattura", 3),
        ("scadenza", 2),
        ("prezzo unitario", 2),
        ("imponibile", 2),
        ("intestatario", 1.5),
        ("factuur", 3),
        ("factuurnummer", 3),
        ("factuurdatum", 3),
        ("factuurnr", 3),  # "Factuurnr. INV-2023-2524", as rechnungsnr
        ("klantnr", 1.5),
        ("btw-nr", 1.5),
        ("totaal incl. btw", 1.5),
        ("vervaldatum", 2.5),
        ("uiterste betaaldatum", 3),
        ("stukprijs", 2),
        ("facture n", 3),
        ("destinataire", 1.5),
        ("à régler avant", 2),
        ("prix unit", 2),
        ("montant ht", 2),
        ("libellé", 1),
        ("qté", 1),
        ("rechnungs-nr", 3),
        ("rechnungsnr", 3),
        # the line items and totals of a bill to a customer, and the terms it is paid on
        ("quantity", 1),
        ("total excl", 1.5),
        ("excl. vat", 1.5),
        ("excluding vat", 1.5),
        ("amount payable", 1.5),
        ("payment due", 2),
        ("quantité", 1),
        ("désignation", 1.5),
        ("montant ttc", 2),
        ("montant tva", 1.5),
        ("total ttc", 1),
        ("net à payer", 1.5),
        ("conditions de paiement", 2.5),
        ("date d'émission", 1),
        ("zzgl. mwst", 2),
        ("zzgl. ust", 2),
        ("gesamtbetrag", 1),
        ("zahlungsbedingungen", 2.5),
        ("leistungsdatum", 2),
        ("lieferdatum", 1.5),
        ("cantidad", 1),
        ("importe", 1),
        ("concepto", 1),
        ("condiciones de pago", 2.5),
        ("fecha de vencimiento", 2.5),
        ("quantità", 1),
        ("descrizione", 1),
        ("importo", 1),
        ("aliquota iva", 1.5),
        ("totale documento", 2),
        ("condizioni di pagamento", 2.5),
        ("aantal", 1),
        ("omschrijving", 1),
        ("totaal excl", 1.5),
        ("excl. btw", 1.5),
        ("betalingsvoorwaarden", 2.5),
    ),
    "proof_of_address": (
        ("electricity", 2.5),
        ("electric", 1.5),
        ("energy", 1.5),
        ("gas", 1.5),
        ("water", 1.5),
        ("utility", 2.5),
        ("utilities", 2.5),
        ("meter", 2.5),
        ("meter reading", 3),
        ("kwh", 3),
        ("m3", 1),
        ("tariff", 2),
        ("billing period", 2),
        ("bill date", 1.5),
        ("your bill", 2),
        ("account number", 1),
        ("customer number", 1),
        ("supply address", 3),
        ("service address", 3),
        ("broadband", 2.5),
        ("mobile", 1),
        ("telephone", 1),
        ("internet", 1.5),
        ("council tax", 3),
        ("standing charge", 3),
        ("direct debit", 1),
        ("amount due", 1),
        ("previous balance", 1),
        ("usage", 1.5),
        ("consumption", 2),
        ("stromrechnung", 3),
        ("strom", 2),
        ("verbrauch", 2),
        ("zählerstand", 3),
        ("abrechnungszeitraum", 2),
        ("kundennummer", 1),
        ("lieferstelle", 3),
        ("abschlag", 2),
        ("électricité", 2.5),
        ("consommation", 2),
        ("relevé de compteur", 3),
        ("compteur", 2),
        ("point de livraison", 3),
        ("abonnement", 1.5),
        ("facture d'énergie", 3),
        ("electricidad", 2.5),
        ("consumo", 2),
        ("contador", 2),
        ("suministro", 2.5),
        ("periodo de facturación", 2),
        ("bolletta", 3),
        ("luce", 1.5),
        ("consumi", 2),
        ("fornitura", 2.5),
        ("contatore", 2.5),
        ("energierekening", 3),
        ("verbruik", 2),
        ("meterstand", 3),
        ("leveringsadres", 3),
        # where a line or meter is installed: a telecom's or utility's bill names it
        ("installation address", 3),
        ("installationsadresse", 3),
        ("anschlussadresse", 3),
        ("adresse d'installation", 3),
        ("dirección de instalación", 3),
        ("indirizzo di installazione", 3),
        ("installatieadres", 3),
        ("verbrauchsstelle", 3),
        # telecom and subscription bills: invoices to a person at their address
        ("your bill", 2),
        ("votre facture", 2),
        ("ihre rechnung", 2),
        ("su factura", 2),
        ("la sua bolletta", 3),
        ("uw factuur", 2),
        ("forfait", 2.5),
        ("forfait mensuel", 3),
        ("communications", 2),
        ("contrat", 1),
        ("n° de contrat", 2),
        ("nº de contrato", 2),
        ("contrato", 1),
        ("vertragsnummer", 2),
        ("numero contratto", 2),
        ("période de facturation", 3),
        ("periodo de facturación", 3),
        ("periodo di fatturazione", 3),
        ("lieu de consommation", 3),
        ("line rental", 3),
        ("monthly charge", 2),
        ("monthly plan", 2.5),
        ("cuota mensual", 3),
        ("fibra", 2),
        ("llamadas", 2),
        ("minutes", 1.5),
        ("sms", 1.5),
        ("roaming", 2),
        ("data usage", 2.5),
        ("mobilfunk", 2.5),
        ("grundgebühr", 3),
        ("canone", 2.5),
        ("abbonamento", 2),
        ("account summary", 1.5),
        ("payment slip", 1.5),
        ("instalment", 2),
        ("instalments", 2),
        ("water rates", 3),
        ("sewerage", 3),
        ("wastewater", 3),
        ("heating", 1.5),
        ("electricity supply", 3),
        # a bill's own charges, as utilities and telecoms in each language name them
        ("fixed charge", 2.5),
        ("energy charge", 2.5),
        ("unit rate", 3),
        ("call charges", 2.5),
        ("calls", 1.5),
        ("phone bill", 3),
        ("mobilfunkrechnung", 3),
        ("bellen", 2),
        ("gesprekskosten", 2.5),
        ("vastrecht", 3),
        ("leveringstarief", 3),
        ("jaarnota", 3),
        ("waterrekening", 3),
        ("drinkwater", 2.5),
        ("factuurperiode", 2),
        ("klantnummer", 1),
        # the period whose use a bill charges: no supplier's invoice for goods names one
        ("verbruiksperiode", 3),
        ("usage period", 3),
        ("consumption period", 3),
        ("verbrauchszeitraum", 3),
        ("période de consommation", 3),
        ("periodo de consumo", 3),
        ("periodo di consumo", 3),
        ("traffico telefonico", 3),
        ("telefonia", 2.5),
        ("quota fissa", 3),
        ("quota energia", 3),
        ("servizio idrico", 3),
        ("término fijo", 3),
        ("cuota fija", 2.5),
        ("término de energía", 3),
        ("recibo de agua", 3),
        ("punto de suministro", 3),
        ("móvil", 2),
        ("teléfono", 1),
        ("telefono", 1),
        ("téléphone", 1),
        ("telefon", 1),
        ("tarifa", 1.5),
        ("tariffa", 1.5),
        ("tarief", 1.5),
        ("tarif", 1.5),
        # a utility bill's own title, and its meter's two readings, in each language
        ("gas bill", 3),
        ("electricity bill", 3),
        ("water bill", 3),
        ("previous reading", 2.5),
        ("current reading", 2.5),
        ("units used", 2),
        ("facture de gaz", 3),
        ("facture d'électricité", 3),
        ("facture d'eau", 3),
        ("ancien index", 2.5),
        ("nouvel index", 2.5),
        ("période de consommation", 3),
        ("factura de gas", 3),
        ("factura de luz", 3),
        ("factura del agua", 3),
        ("lectura anterior", 2.5),
        ("lectura actual", 2.5),
        ("lettura precedente", 2.5),
        ("lettura attuale", 2.5),
        ("beginstand", 2.5),
        ("eindstand", 2.5),
        # water and heating bills (DE), and the meter's readings
        ("wasserrechnung", 3),
        ("gasrechnung", 3),
        ("heizkostenabrechnung", 3),
        ("abwasser", 2.5),
        ("zählernummer", 3),
        ("zähler-nr", 3),
        ("anfangsstand", 2.5),
        ("endstand", 2.5),
        ("arbeitspreis", 2.5),
        ("grundpreis", 2),
        ("vertragskonto", 2),
        # municipal taxes and fees on a property: a council's bill to the occupier
        ("abgabenbescheid", 3),
        ("grundbesitzabgaben", 3),
        ("grundsteuer", 3),
        ("müllgebühren", 3),
        ("abfallgebühren", 3),
        ("straßenreinigung", 2.5),
        ("anschlussadresse", 3),
        ("taxe d'habitation", 3),
        ("taxe foncière", 3),
        ("ordures ménagères", 3),
        ("avis d'imposition", 2.5),
        ("avis d'impot", 2.5),
        ("echeancier", 1.5),  # a tax's or a bill's payment plan
        ("impuesto sobre bienes inmuebles", 3),
        ("tasa de basuras", 3),
        ("tassa rifiuti", 3),
        ("tari", 3),  # the waste tax's name, as "tassa rifiuti" is
        ("comune di", 2),  # an Italian town hall's bill
        ("avviso di pagamento", 3),  # a public body's payment notice (PagoPA)
        ("indirizzo di fornitura", 3),
        ("gemeentelijke belastingen", 3),
        ("aanslagbiljet", 3),
        ("afvalstoffenheffing", 3),
        ("rioolheffing", 3),
        ("property address", 3),
        ("city council", 2),
        ("district council", 2),
        ("demand notice", 3),  # a council tax bill's title
        ("borough council", 2),
        ("county council", 2),
        # a home's internet box and its phone's connections (FR, DE); the slip to pay a bill with
        ("box internet", 2.5),
        ("abonnement box", 2.5),
        ("verbindungen", 2),
        ("talon de paiement", 2),
        ("überweisungsträger", 1.5),
        # a Spanish town hall's property tax bill (IBI), paid in instalments
        ("ayuntamiento", 2),
        ("recibo ibi", 3),
        ("plazos", 1.5),
        # the address a connection or subscription serves (NL)
        ("aansluitadres", 3),
        ("maandabonnement", 2.5),
        ("contractnummer", 2),
    ),
    "bank_statement": (
        ("statement", 2),
        ("bank statement", 3),
        ("account statement", 3),
        ("statement period", 3),
        ("statement date", 2),
        ("opening balance", 3),
        ("closing balance", 3),
        ("balance brought forward", 3),
        ("balance carried forward", 3),
        ("previous balance", 1),
        ("new balance", 1.5),
        ("iban", 1),  # invoices print the payee's IBAN too
        ("bic", 0.5),
        ("swift", 1.5),
        ("sort code", 2.5),
        ("routing number", 2),
        ("transactions", 1.5),
        ("debit", 1),
        ("credit", 1),
        ("withdrawal", 2),
        ("deposit", 1.5),
        ("account holder", 2),
        ("available balance", 2),
        ("overdraft", 2),
        ("kontoauszug", 3),
        ("anfangssaldo", 3),
        ("endsaldo", 3),
        ("alter kontostand", 3),
        ("neuer kontostand", 3),
        ("kontoinhaber", 2.5),
        ("kontoinhaberin", 2.5),
        ("saldo alt", 3),
        ("saldo neu", 3),
        ("buchungstext", 2.5),
        ("dauerauftrag", 2),
        ("bargeldauszahlung", 2),
        ("privatkonto", 2),
        ("girokonto", 1.5),
        ("lastschrift", 1),  # invoices offer "SEPA-Lastschrift" as a way to pay
        ("buchungstag", 2.5),
        ("soll", 0.5),
        ("haben", 0.5),
        ("relevé de compte", 3),
        ("relevé bancaire", 3),
        ("solde initial", 3),
        ("solde final", 3),
        ("ancien solde", 3),
        ("nouveau solde", 3),
        ("titulaire", 2),
        ("titulaire du compte", 2.5),
        ("prélèvement", 1),
        ("débit", 1),
        ("crédit", 1),
        ("extracto", 3),
        ("extracto bancario", 3),
        ("saldo inicial", 3),
        ("saldo final", 3),
        ("titular", 2),
        ("estratto conto", 3),
        ("saldo iniziale", 3),
        ("saldo finale", 3),
        ("intestatario del conto", 2.5),
        ("rekeningafschrift", 3),
        ("beginsaldo", 3),
        ("eindsaldo", 3),
        ("rekeninghouder", 2.5),
        ("afschrift", 2),
        # the ledger's own words: balances carried over, value dates, kinds of movement
        ("value date", 2),
        ("saldo precedente", 3),
        ("saldo contabile", 3),
        ("conto corrente", 2),
        ("intestato a", 2),
        ("descrizione operazione", 2),
        ("data valuta", 2),
        ("competenze di chiusura", 3),
        ("accredito", 1.5),
        ("bonifico", 1.5),
        ("prelievo", 2),
        ("saldo anterior", 3),
        ("fecha valor", 2),
        ("movimientos", 2),
        ("solde précédent", 3),
        ("date de valeur", 2),
        ("virement", 1.5),
        ("wertstellung", 2.5),
        ("gutschrift", 1.5),
        ("valutadatum", 2),
        ("overboeking", 1.5),
    ),
    "driver_license": (
        ("driver license", 3),
        ("driver's license", 3),
        ("drivers license", 3),
        ("driving licence", 3),
        ("driver licence", 3),
        ("operator license", 2),
        ("dl", 1),
        ("dln", 2.5),
        ("class", 1),
        ("endorsements", 1.5),
        ("end", 0.5),
        ("restrictions", 1),
        ("rstr", 2.5),
        ("donor", 1.5),
        ("veteran", 1),
        ("real id", 2),
        ("usa", 0.5),
        ("iss", 0.5),
        ("exp", 0.5),
        ("dob", 1),
        ("hgt", 2),
        ("wgt", 2),
        ("eyes", 1.5),
        ("hair", 1),
        ("permis de conduire", 3),
        ("führerschein", 3),
        ("licencia de conducir", 3),
        ("permiso de conducción", 3),
        ("patente di guida", 3),
        ("rijbewijs", 3),
    ),
    "passport": (
        ("passport", 3),
        ("passeport", 3),
        ("reisepass", 3),
        ("pasaporte", 3),
        ("passaporto", 3),
        ("paspoort", 3),
        ("nationality", 1.5),
        ("place of birth", 1.5),
        ("date of expiry", 1),
    ),
    "id_card": (
        ("identity card", 3),
        ("id card", 2.5),
        ("national identity", 3),
        ("personalausweis", 3),
        ("carte d'identité", 3),
        ("carte nationale", 2.5),
        ("documento nacional de identidad", 3),
        ("carta d'identità", 3),
        ("identiteitskaart", 3),
        ("nationality", 1),
    ),
    # what a document of none of the types says of itself: a meeting's agenda and its minutes,
    # whose letterhead may name a utility ("Vertex Électricité EURL") and whose times say till
    "other": (
        ("agenda", 2),
        ("ordre du jour", 2.5),
        ("procès-verbal", 2),
        ("tagesordnung", 2.5),
        ("protokoll", 1.5),
        ("orden del día", 2.5),
        ("ordine del giorno", 2.5),
        ("minutes of the meeting", 2.5),
        ("notulen", 2),
        # an invitation to a members' meeting: a letter that thanks for a letter
        ("einladung", 2),
        ("jahresversammlung", 2.5),
        ("mitgliederversammlung", 2.5),
        ("invitation", 2),
        ("annual general meeting", 2.5),
        ("assemblée générale", 2.5),
        ("convocatoria", 2),
        ("convocazione", 2),
        ("uitnodiging", 2),
        # a reply to a letter, which thanks for it as a till thanks for a visit
        ("your letter", 2),
        ("ihr schreiben", 2),
        ("votre courrier", 2),
        ("votre lettre", 2),
        ("su carta", 1.5),
        ("su escrito", 2),
        ("la sua lettera", 2),
        ("uw brief", 2),
        ("mit freundlichen", 1),
        ("yours sincerely", 1),
        # a product's data sheet: its maker's name, its power draw ("Consommation 12 W") and its
        # maker's address line read like a utility's bill
        ("fiche technique", 3),
        ("datasheet", 3),
        ("data sheet", 3),
        ("datenblatt", 3),
        ("technische daten", 2.5),
        ("ficha técnica", 3),
        ("scheda tecnica", 3),
        ("technische fiche", 3),
        ("technical specifications", 2.5),
        ("indice de protection", 2),
        ("schutzart", 2),
    ),
}

_OTHER_PRIOR = 2.5  # the score "other" gets: a type must beat this to be claimed
_MRZ_LINE_WEIGHT = 4.0  # an MRZ line the reader could not read whole
_TD3_LINE_MIN = 40  # characters: a passport's MRZ line (44), not a card's (30, 36)
_TEMPERATURE = 1.6


def _fold(text: str) -> str:
    """Lower case without accents, "ß" as "ss" (what an OCR reading of "STRASSE" gives)."""
    return fold(text).replace("ß", "ss")


def _folded_cues(cues: tuple[tuple[str, float], ...]) -> dict[str, float]:
    """Cues by folded phrase; a phrase listed with and without its accents keeps its larger weight."""
    folded: dict[str, float] = {}
    for phrase, weight in cues:
        key = _fold(phrase)
        folded[key] = max(weight, folded.get(key, 0.0))
    return folded


_FOLDED_CUES = {doc_type: _folded_cues(cues) for doc_type, cues in _CUES.items()}


def _cue_pattern(phrase: str) -> re.Pattern[str]:
    """A cue on word boundaries, except that a number may run into its letters, as OCR and print
    glue them: a caption and the number it captions ("Factura2025-2985"), a quantity and its
    unit ("1.234kWh")."""
    start = r"(?<![^\W\d_])" if phrase[0].isalpha() else r"(?<![\w])"
    end = r"(?![^\W\d_])" if phrase[-1].isalpha() else r"(?![\w])"
    return re.compile(start + re.escape(phrase) + end)


_PHRASES = {
    doc_type: [(_cue_pattern(phrase), weight) for phrase, weight in cues.items()]
    for doc_type, cues in _FOLDED_CUES.items()
}
_GLUED = {
    doc_type: [phrase.replace(" ", "") if " " in phrase and len(phrase) >= 10 else "" for phrase in cues]
    for doc_type, cues in _FOLDED_CUES.items()
}
# A long phrase also counts, for less, when OCR got a letter or two of it wrong ("Numero de
# tacture"): one edit in a phrase of 10 letters or more, two from 16. Shorter phrases would
# match ordinary words ("statement" is one letter from "statements" and from "settlement").
_APPROXIMATE_MIN_LETTERS = 10
_APPROXIMATE_TWO_EDITS_LETTERS = 16
_APPROXIMATE_WEIGHT = 0.75
# Only a page where no type beats "other" by this much is searched again; a page of more letters
# than this without one clear cue is a letter, not a blurred bill (and the search costs time).
_CLEAR_MARGIN = 1.0
_APPROXIMATE_MAX_CHARS = 4000
_APPROXIMATE = {
    doc_type: [
        (squashed, 1 if len(squashed) < _APPROXIMATE_TWO_EDITS_LETTERS else 2)
        if len(squashed := phrase.replace(" ", "")) >= _APPROXIMATE_MIN_LETTERS
        else ("", 0)
        for phrase in cues
    ]
    for doc_type, cues in _FOLDED_CUES.items()
}
_AMOUNT = re.compile(r"\d[\d,. ]*[.,]\d{2}(?!\d)")
# a line that starts with a date (a statement's row): 01.11.2023, 04/04/2024, 2024-04-04, 4 Apr 2024
_DATED_ROW = re.compile(
    r"\s*(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})(?!\d)|\d{4}-\d{2}-\d{2}|\d{1,2} [A-Za-z]{3,9}\.? \d{4})"
)
_LEDGER_ROWS = 8
# a row of a payment plan: a date and the instalment due then, nothing else ("07/05/2024 167,55")
_INSTALMENT_ROW = re.compile(_DATED_ROW.pattern + r"\s+(?:[^\s\d]{1,3}\s?)?" + _AMOUNT.pattern + r"\s*$")
_INSTALMENT_ROWS = 4
# a till's item lines (OCR reads "2,98" as "2:98" off a soft photo)
_COUNTED_ITEM = re.compile(r"\s*\d{1,3}\s*[x\u00d7*]\s*\d{1,5}[.,:]\d{2}(?!\d)", re.IGNORECASE)
_VAT_CLASSED_AMOUNT = re.compile(r"\d[.,]\d{2} ?[A-E]\s*$")
_TILL_LINES = 3


@dataclass(frozen=True)
class Classification:
    document_type: str
    confidence: float
    probabilities: dict[str, float]


def classify_text(pages: Sequence[PageText]) -> Classification:
    """Probabilities over the §3.2 types for pages without machine-readable identity evidence:
    the cue classifier's and the fitted model's (engines.doctype_model, where an artefact was
    fitted on this engine version) multiplied, each an expert's opinion of equal weight. Alone,
    the model measured below the cues on held-out generated documents and the product above
    both (docs/engine/doctype-model.md)."""
    return classify_with_model(pages, doctype_model.current())


def classify_with_model(
    pages: Sequence[PageText], model: doctype_model.DoctypeModel | None
) -> Classification:
    """:func:`classify_text` with the given fitted model (None: the cues alone)."""
    cues = classify_by_cues(pages)
    if model is None or not any(page.lines for page in pages) or _machine_readable_identity(pages):
        # no words for the model to weigh, or an identity document's machine-readable evidence
        # (an MRZ line the reader could not read whole, a licence holder's AAMVA description),
        # which decides whatever the words around it say
        return cues
    combined = combine(cues, model.probabilities(pages))
    # The calibration of a type's confidence was fitted on the cues' probabilities, and the product
    # of two opinions is surer than either: until both are refitted together, the confidence
    # claimed is no more than the cues' own for the type chosen (where the model overruled the
    # cues, they doubted it, and the document goes to a person).
    cue_confidence = cues.probabilities.get(combined.document_type, 0.0)
    return Classification(
        combined.document_type, min(combined.confidence, cue_confidence), combined.probabilities
    )


def _machine_readable_identity(pages: Sequence[PageText]) -> bool:
    scores = dict.fromkeys(DOCUMENT_TYPES, 0.0)
    _mrz_cues(pages, scores)
    _licence_cues(pages, scores)
    return any(scores.values())


_CUE_FLOOR = 1e-4  # the cue classifier rounds its probabilities to 4 places
_MODEL_FLOOR = 1e-6


def combine(cues: Classification, fitted: dict[str, float]) -> Classification:
    """The renormalised product of two distributions over the types; a tie with "other" is other."""
    logs = {
        t: math.log(max(cues.probabilities.get(t, 0.0), _CUE_FLOOR))
        + math.log(max(fitted.get(t, 0.0), _MODEL_FLOOR))
        for t in DOCUMENT_TYPES
    }
    top = max(logs.values())
    exps = {t: math.exp(v - top) for t, v in logs.items()}
    norm = sum(exps.values())
    probabilities = {t: round(exps[t] / norm, 4) for t in DOCUMENT_TYPES}
    best = max(probabilities, key=lambda t: (probabilities[t], t == "other"))
    return Classification(best, probabilities[best], probabilities)


def classify_by_cues(pages: Sequence[PageText]) -> Classification:
    """The hand-weighted cue classifier alone: phrases, titles, MRZ-like lines, layout."""
    # "THANKYOU", as OCR glues it, is the one cue "thank you" (a letter saying both is no receipt)
    text = re.sub(r"(?<![\w])thankyou(?![\w])", "thank you", _fold("\n".join(page.text for page in pages)))
    squashed = re.sub(r"\s+", "", text)
    scores: dict[str, float] = {}
    found: dict[str, set[int]] = {}
    for doc_type in _PHRASES:
        scores[doc_type], found[doc_type] = _score(text, doc_type, squashed)
    if max(scores.values()) < _OTHER_PRIOR + _CLEAR_MARGIN and len(squashed) <= _APPROXIMATE_MAX_CHARS:
        # no type stands out: look again for cues OCR misread by a letter (a blurred photo)
        for doc_type in _PHRASES:
            scores[doc_type] += _approximate_score(doc_type, squashed, found[doc_type])
    scores["other"] += _OTHER_PRIOR
    _mrz_cues(pages, scores)
    _licence_cues(pages, scores)
    _title_cues(pages, scores)
    _layout_cues(pages, text, scores)
    _transaction_cues(text, scores)
    _demand_cues(pages, text, scores)
    return _softmax(scores)


def printed_identity_type(pages: Sequence[PageText]) -> str | None:
    """ "passport" or "id_card" where the printed words name one of the two and not the other
    ("PASSPORT", "PERSONALAUSWEIS"), else None: what a TD2 is when its MRZ's document code, the
    only other thing that tells the two apart, was misread."""
    text = _fold("\n".join(page.text for page in pages))
    squashed = re.sub(r"\s+", "", text)
    # Only a title counts: both print "nationality", "place of birth" and "date of expiry", which
    # together once outweighed nothing and made a Danish identity certificate a passport.
    passport, card = (_names_itself(text, doc_type, squashed) for doc_type in ("passport", "id_card"))
    if passport and not card:
        return "passport"
    if card and not passport:
        return "id_card"
    return None


_TITLE_WEIGHT = 2.5  # an identity cue this strong is the document's title ("PASSPORT", "ID card")


def _names_itself(text: str, doc_type: str, squashed: str) -> bool:
    """Whether the text prints one of the type's titles."""
    _, found = _score(text, doc_type, squashed)
    return any(_PHRASES[doc_type][index][1] >= _TITLE_WEIGHT for index in found)


def identity_classification(document_type: str, confidence: float) -> Classification:
    """A classification decided by machine-readable evidence (MRZ or AAMVA barcode)."""
    rest = (1.0 - confidence) / (len(DOCUMENT_TYPES) - 1)
    probabilities = {t: (confidence if t == document_type else rest) for t in DOCUMENT_TYPES}
    return Classification(document_type, confidence, probabilities)


def _score(text: str, doc_type: str, squashed: str) -> tuple[float, set[int]]:
    """Sum of the weights of distinct cues present, and which cues (by index) they are; repeated
    cues add only a little. A phrase of several words also counts when OCR glued its words
    ("Date defacture"), found in the text with every space removed (only long phrases: short
    ones would match inside other words)."""
    total = 0.0
    found = set()
    for index, ((pattern, weight), glued) in enumerate(
        zip(_PHRASES[doc_type], _GLUED[doc_type], strict=True)
    ):
        hits = len(pattern.findall(text))
        if not hits and glued and glued in squashed:
            hits = 1
        if hits:
            total += weight * (1.0 + 0.15 * min(hits - 1, 3))
            found.add(index)
    return total, found


def _approximate_score(doc_type: str, squashed: str, found: set[int]) -> float:
    """The weights, discounted, of long cues :func:`_score` did not find but that are there
    with a letter or two misread."""
    total = 0.0
    cues = zip(_PHRASES[doc_type], _APPROXIMATE[doc_type], strict=True)
    for index, ((_, weight), (approximate, edits)) in enumerate(cues):
        if approximate and index not in found and occurs_approximately(approximate, squashed, edits):
            total += weight * _APPROXIMATE_WEIGHT
    return total


# Money that changed hands at the counter (a receipt) against money asked for later (an invoice):
# a receipt says how it was paid; an invoice names whom it bills and when payment falls due.
_PAID = re.compile(
    r"(?<![\w])(cash|change|tendered|card|visa|mastercard|maestro|contactless|auth code|"
    r"ruckgeld|bar|girocard|ec-karte|kartenzahlung|especes|rendu|efectivo|cambio|contanti|resto|"
    r"bancomat|contant|wisselgeld|pin|carta di credito|carte bancaire|tarjeta|cb|sans contact|entregado)(?![\w])"
)
_BILLED = re.compile(
    r"(?<![\w])(bill to|billed to|sold to|ship to|customer|due date|payment terms|remit to|please pay|"
    r"bank details|iban|rechnungsempfanger|kunde|faellig|fallig|zahlungsziel|facture a|echeance|client|"
    r"facturar a|vencimiento|cliente|scadenza|intestatario|vervaldatum|klant|destinataire)(?![\w])"
)
# a time alone, or glued to the date before it ("09.04.202507:00", "2026-02-0209:14", as OCR
# reads a till's line)
_TIME_OF_DAY = re.compile(
    r"(?:(?<=(?:19|20)\d\d)|(?<=\d{4}-\d\d-\d\d)|(?<![\d:]))"
    r"(?:[01]\d|2[0-3]|(?<![\d:])\d):[0-5]\d(?::[0-5]\d)?(?![\d:])"
)


# a payment card's number as a till prints it, all but its last four digits masked
_MASKED_CARD = re.compile(r"(?:\*{2,}|x{4,})\s*\d{4}(?!\d)")


def _paid_at_the_counter(text: str) -> bool:
    """A means of payment with the amount it paid, on its line or the next ("CASH $6.90",
    "Change" / "$0.00"), or with the masked number of the card that paid ("CONTACTLESS" /
    "****6299", whose amount a photo's columns may set apart): the word alone is prose ("Change
    of opening hours")."""
    lines = text.split("\n")
    return any(
        _PAID.search(line)
        and any(_AMOUNT.search(near) or _MASKED_CARD.search(near) for near in lines[i : i + 2])
        for i, line in enumerate(lines)
    )


def _transaction_cues(text: str, scores: dict[str, float]) -> None:
    """A document that says how it was paid and bills nobody is a receipt, whatever it calls
    itself: Malaysian and Singaporean tills print "TAX INVOICE" and "Invoice #" on every
    receipt. A time of day beside the date is a till's habit too, the more so where nobody is
    billed; invoices print dates only."""
    billed = _BILLED.search(text) is not None
    paid = _paid_at_the_counter(text)
    timed = _TIME_OF_DAY.search(text) is not None
    if paid and not billed:
        scores["receipt"] += 1.5
    if timed:
        scores["receipt"] += 1.0 if billed else 1.5
    if paid and timed and not billed:
        # all three together are a till's slip, whatever its columns say ("Prix unitaire",
        # "Montant HT": a French supermarket prints an invoice's captions on its tickets); the
        # time's own word ("Heure", "Uhrzeit") is no cue: an agenda prints it over every slot
        scores["receipt"] += 2.0


# A demand for payment, which bills print and a bank's statement of an account never does: it
# reports balances ("Balance brought forward"), and its ledger's rows, rather than asking for any.
_DEMAND = re.compile(
    r"(?<![\w])(please pay|total to pay|amount due|total due|balance due|pay by|montant a payer|"
    r"net a payer|a regler avant|importe a pagar|total a pagar|zu zahlen|zahlbetrag|importo da pagare|"
    r"te betalen)(?![\w])"
)
_LEDGER_BALANCE = re.compile(
    r"(?<![\w])(opening balance|closing balance|balance brought forward|balance carried forward|"
    r"anfangssaldo|endsaldo|alter kontostand|neuer kontostand|saldo alt|saldo neu|solde initial|"
    r"solde final|ancien solde|nouveau solde|saldo inicial|saldo final|saldo iniziale|saldo finale|"
    r"saldo precedente|beginsaldo|eindsaldo)(?![\w])"
)
_DEMAND_WEIGHT = 2.0


def _demand_cues(pages: Sequence[PageText], text: str, scores: dict[str, float]) -> None:
    """A page that asks to be paid and keeps no ledger is a bill, whatever "statement" it says
    (a telecom's "Monthly Statement", "STATEMENT DATE"): a bank statement never asks for payment."""
    if not _DEMAND.search(text) or _LEDGER_BALANCE.search(text):
        return
    dated = sum(1 for page in pages for line in page.lines if _DATED_ROW.match(line.text))
    if dated < _LEDGER_ROWS:
        scores["bank_statement"] -= _DEMAND_WEIGHT


# A North American licence's physical description, its captions lost to blur: the eye colour as
# an AAMVA code on its own, and a height in feet and inches or in centimetres.
_EYE_COLOUR_CODE = re.compile(r"\s*(?:BLK|BLU|BRO|GRY|GRN|HAZ|MAR|PNK|DIC)\s*")
_HEIGHT = re.compile(r"(?<![\d.,])(?:[4-7]\s?'\s?-?\s?(?:0\d|1[01])\s?\"?|1\d\d\s?\.?\s?cm)(?![\w])")
_DESCRIBED_HOLDER_WEIGHT = 3.0


def _licence_cues(pages: Sequence[PageText], scores: dict[str, float]) -> None:
    """A holder described by an eye colour's AAMVA code on a line of its own and a height is on
    a North American driver's licence, whatever of its captions ("EYES", "HGT") a smear took."""
    lines = [line.text for page in pages for line in page.lines]
    if any(_EYE_COLOUR_CODE.fullmatch(text) for text in lines) and any(
        _HEIGHT.search(text) for text in lines
    ):
        scores["driver_license"] += _DESCRIBED_HOLDER_WEIGHT


def _mrz_cues(pages: Sequence[PageText], scores: dict[str, float]) -> None:
    """A line of an MRZ, fillers and all, that the MRZ reader could not read whole (a small card
    photographed upside down beside its other side) still says identity document: a passport's
    lines run to 44 characters, a card's to 30 or 36."""
    lengths = [
        len(line.text.replace(" ", ""))
        for page in pages
        for line in page.lines
        if ("<<" in line.text and looks_like_mrz_line(line.text)) or _passport_mrz_first_line(line.text)
    ]
    if lengths:
        scores["passport" if max(lengths) >= _TD3_LINE_MIN else "id_card"] += _MRZ_LINE_WEIGHT


# A passport's first MRZ line with its fillers misread as letters (K, as a smeared "<" reads):
# "P", its second character, the issuing state's code, then letters to 44 characters.
_TD3_FIRST_LINE = re.compile(r"P[A-Z<]([A-Z<]{3})[A-Z<]{35,41}")


def _passport_mrz_first_line(text: str) -> bool:
    """No word of prose runs to 40 capitals without a space, and none opens with "P", one
    letter and a state's code: a passport's first MRZ line, though not one "<" of it was read."""
    match = _TD3_FIRST_LINE.fullmatch(text.replace(" ", ""))
    return match is not None and is_known_code(match.group(1))


# What a document calls itself on a line of its own: a title, which prose only mentions
# ("Please find our invoice enclosed"). Names of a type only, never a caption ("Water" heads a
# menu's drinks as well as a bill's charges).
_TITLES = {
    "invoice": ("invoice", "sales invoice", "rechnung", "facture", "factura", "fattura", "factuur"),
    "receipt": (
        "receipt",
        "sales receipt",
        "cash receipt",
        "kassenbon",
        "kassenbeleg",
        "quittung",
        "ticket de caisse",
        "ticket de compra",
        "recibo",
        "scontrino",
        "ricevuta",
        "kassabon",
        "kwitantie",
    ),
    "bank_statement": (
        "bank statement",
        "account statement",
        "statement of account",
        "kontoauszug",
        "releve de compte",
        "extracto bancario",
        "extracto de cuenta",
        "estratto conto",
        "rekeningafschrift",
    ),
    "passport": ("passport", "passeport", "pasaporte", "passaporto", "reisepass", "paspoort"),
}
_TITLE_BONUS = 1.0
_TITLE_EDGES = re.compile(r"^[\W_]+|[\W_]+$")


def _title_line(titles: tuple[str, ...]) -> re.Pattern[str]:
    """A line of one title, or of the same title in two or three languages, apart or as OCR
    glues them ("PASSPORT/PASSEPORT", "PASSPORTPASSEPORT", "RECHNUNG INVOICE")."""
    one = "|".join(re.escape(t).replace(r"\ ", r"\s*") for t in sorted(titles, key=len, reverse=True))
    return re.compile(rf"(?:{one})(?:[\W_]*(?:{one})){{0,2}}")


_TITLE_LINES = {doc_type: _title_line(titles) for doc_type, titles in _TITLES.items()}


def _title_cues(pages: Sequence[PageText], scores: dict[str, float]) -> None:
    """A first page that prints a type's name as a line of its own is titled so: that counts a
    little more than the word in passing, enough to tell "INVOICE" over a total from nothing
    when blur left OCR little else to read."""
    if not pages:
        return
    lines = {_TITLE_EDGES.sub("", _fold(line.text)) for line in pages[0].lines}
    for doc_type, pattern in _TITLE_LINES.items():
        if any(pattern.fullmatch(line) for line in lines):
            scores[doc_type] += _TITLE_BONUS


def _layout_cues(pages: Sequence[PageText], text: str, scores: dict[str, float]) -> None:
    """A receipt is one narrow strip of short lines with many amounts; statements run long."""
    lines = [line for page in pages for line in page.lines]
    if not lines:
        return
    amounts = len(_AMOUNT.findall(text))
    if amounts >= 4:
        for doc_type in ("receipt", "invoice", "bank_statement", "proof_of_address"):
            scores[doc_type] += 0.5
    if amounts >= 12:
        scores["bank_statement"] += 1.0
    if len(pages) >= 2:
        scores["bank_statement"] += 0.5
        scores["receipt"] -= 1.0
    tilled = sum(
        1 for line in lines if _COUNTED_ITEM.match(line.text) or _VAT_CLASSED_AMOUNT.search(line.text)
    )
    if tilled >= _TILL_LINES:
        # a till's item lines: "2 x 1,00" (a count times a unit price on a line of its own) and
        # amounts followed by the letter of their VAT rate ("8,04 B"); an invoice tabulates both
        scores["receipt"] += 1.5
    dated = sum(1 for line in lines if _DATED_ROW.match(line.text))
    instalments = sum(1 for line in lines if _INSTALMENT_ROW.match(line.text))
    if instalments >= _INSTALMENT_ROWS and instalments * 2 > dated:
        # a payment plan: a council's or a utility's bill spread over the year ("Rate", "Plazos",
        # "Abschläge"); a ledger's rows say what each movement was
        scores["proof_of_address"] += 2.5
    elif dated >= _LEDGER_ROWS:
        # a ledger of dated movements: its descriptions name utilities and shops ("ADDEBITO
        # DIRETTO Alpina Luce e Gas", "PAGAMENTO POS"), which must not make it their bill
        scores["bank_statement"] += 2.0


def _softmax(scores: dict[str, float]) -> Classification:
    top = max(scores.values())
    exps = {t: math.exp((s - top) / _TEMPERATURE) for t, s in scores.items()}
    norm = sum(exps.values())
    probabilities = {t: round(exps.get(t, 0.0) / norm, 4) for t in DOCUMENT_TYPES}
    # a type must beat "other" to be claimed: a tie with it is "other"
    best = max(probabilities, key=lambda t: (probabilities[t], t == "other"))
    return Classification(best, probabilities[best], probabilities)
