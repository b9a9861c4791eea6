"""Captions in English, German, French, Spanish, Italian and Dutch, with synonyms.

A reader that keys on the word "Total" alone fails on "Gesamtbetrag", "Net à payer" or
"Importe total", so every caption comes in several languages and, within a language, in the
variants real documents use. A document draws one variant per caption (``Labeler``) and keeps
it, as a real template would.
"""

from __future__ import annotations

import numpy as np

LANGUAGES = ("en", "de", "fr", "es", "it", "nl")

_L = dict[str, tuple[str, ...]]

LABELS: dict[str, _L] = {
    # ---- shared
    "date": {
        "en": ("Date",),
        "de": ("Datum",),
        "fr": ("Date",),
        "es": ("Fecha",),
        "it": ("Data",),
        "nl": ("Datum",),
    },
    "time": {
        "en": ("Time",),
        "de": ("Uhrzeit", "Zeit"),
        "fr": ("Heure",),
        "es": ("Hora",),
        "it": ("Ora",),
        "nl": ("Tijd",),
    },
    "page": {
        "en": ("Page {n} of {m}", "Page {n}/{m}"),
        "de": ("Seite {n} von {m}", "Seite {n}/{m}"),
        "fr": ("Page {n} sur {m}", "Page {n}/{m}"),
        "es": ("Página {n} de {m}", "Pág. {n}/{m}"),
        "it": ("Pagina {n} di {m}", "Pag. {n}/{m}"),
        "nl": ("Pagina {n} van {m}", "Blad {n}/{m}"),
    },
    "continued": {
        "en": ("Continued on next page", "continued overleaf"),
        "de": ("Fortsetzung auf der nächsten Seite", "Übertrag"),
        "fr": ("Suite page suivante", "À reporter"),
        "es": ("Continúa en la página siguiente", "Suma y sigue"),
        "it": ("Segue alla pagina successiva", "A riportare"),
        "nl": ("Vervolg op volgende pagina", "Transport"),
    },
    "total": {
        "en": ("Total", "TOTAL", "Total due", "Amount due", "Grand total", "Balance due", "Total amount"),
        "de": ("Gesamt", "Summe", "Gesamtbetrag", "Rechnungsbetrag", "Endbetrag", "Zu zahlen", "SUMME"),
        "fr": ("Total TTC", "Montant TTC", "Net à payer", "Total", "Montant total TTC"),
        "es": ("Total", "Importe total", "Total a pagar", "TOTAL FACTURA", "Total (IVA incl.)"),
        "it": ("Totale", "Totale documento", "Importo totale", "Totale da pagare", "TOTALE EURO"),
        "nl": ("Totaal", "Totaalbedrag", "Te betalen", "Totaal incl. btw", "TOTAAL"),
    },
    "subtotal": {
        "en": ("Subtotal", "Sub-total", "Net amount", "Total excl. VAT", "Net total"),
        "de": ("Zwischensumme", "Nettobetrag", "Summe netto", "Gesamt netto", "Netto"),
        "fr": ("Total HT", "Montant HT", "Sous-total HT", "Base HT"),
        "es": ("Base imponible", "Subtotal", "Importe neto", "Total sin IVA"),
        "it": ("Imponibile", "Totale imponibile", "Subtotale", "Totale netto"),
        "nl": ("Subtotaal", "Totaal excl. btw", "Netto bedrag", "Subtotaal excl. BTW"),
    },
    "tax_name": {
        "en": ("VAT",),
        "de": ("MwSt.", "USt.", "MwSt", "Umsatzsteuer"),
        "fr": ("TVA",),
        "es": ("IVA",),
        "it": ("IVA",),
        "nl": ("btw", "BTW"),
    },
    "tax_total": {
        "en": ("Total VAT", "VAT total", "Tax"),
        "de": ("Summe MwSt.", "MwSt. gesamt", "enthaltene MwSt."),
        "fr": ("Total TVA", "Montant TVA"),
        "es": ("Total IVA", "Cuota IVA"),
        "it": ("Totale IVA", "Imposta"),
        "nl": ("Totaal btw", "BTW bedrag"),
    },
    "net": {
        "en": ("Net",),
        "de": ("Netto",),
        "fr": ("HT",),
        "es": ("Base",),
        "it": ("Imponibile",),
        "nl": ("Netto",),
    },
    "gross": {
        "en": ("Gross",),
        "de": ("Brutto",),
        "fr": ("TTC",),
        "es": ("Total",),
        "it": ("Totale",),
        "nl": ("Bruto",),
    },
    "quantity": {
        "en": ("Qty", "Quantity", "Units"),
        "de": ("Menge", "Anz.", "Anzahl"),
        "fr": ("Qté", "Quantité"),
        "es": ("Cant.", "Cantidad", "Uds."),
        "it": ("Q.tà", "Quantità"),
        "nl": ("Aantal", "Aant."),
    },
    "unit_price": {
        "en": ("Unit price", "Rate", "Price", "Unit cost"),
        "de": ("Einzelpreis", "E-Preis", "Preis/Einheit"),
        "fr": ("Prix unitaire", "P.U. HT", "Prix unit."),
        "es": ("Precio unitario", "Precio", "P. unit."),
        "it": ("Prezzo unitario", "Prezzo", "P. unit."),
        "nl": ("Stukprijs", "Prijs", "Tarief"),
    },
    "amount": {
        "en": ("Amount", "Total", "Line total"),
        "de": ("Betrag", "Gesamt", "Gesamtpreis"),
        "fr": ("Montant", "Total HT", "Montant HT"),
        "es": ("Importe", "Total"),
        "it": ("Importo", "Totale"),
        "nl": ("Bedrag", "Totaal"),
    },
    "description": {
        "en": ("Description", "Item", "Details", "Service"),
        "de": ("Beschreibung", "Bezeichnung", "Leistung", "Artikel"),
        "fr": ("Désignation", "Description", "Libellé"),
        "es": ("Descripción", "Concepto", "Artículo"),
        "it": ("Descrizione", "Articolo", "Prestazione"),
        "nl": ("Omschrijving", "Artikel", "Beschrijving"),
    },
    "position": {
        "en": ("#", "No."),
        "de": ("Pos.",),
        "fr": ("N°",),
        "es": ("Nº",),
        "it": ("N.",),
        "nl": ("Nr.",),
    },
    "phone": {
        "en": ("Tel", "Phone", "Tel."),
        "de": ("Tel.", "Telefon"),
        "fr": ("Tél.", "Tél"),
        "es": ("Tel.", "Tfno."),
        "it": ("Tel.",),
        "nl": ("Tel.", "Telefoon"),
    },
    "email": {
        "en": ("Email", "E-mail"),
        "de": ("E-Mail",),
        "fr": ("E-mail", "Courriel"),
        "es": ("Email", "Correo"),
        "it": ("Email", "E-mail"),
        "nl": ("E-mail",),
    },
    "vat_id": {
        "en": ("VAT No.", "VAT Reg No", "Tax ID", "EIN"),
        "de": ("USt-IdNr.", "Steuernummer", "USt-ID"),
        "fr": ("N° TVA intracom.", "SIRET", "TVA"),
        "es": ("CIF", "NIF"),
        "it": ("P.IVA", "Partita IVA", "C.F./P.IVA"),
        "nl": ("BTW-nr.", "KvK", "Btw-id"),
    },
    "customer_number": {
        "en": ("Customer No.", "Customer ID", "Account No.", "Client ref"),
        "de": ("Kundennummer", "Kunden-Nr.", "Kd.-Nr."),
        "fr": ("N° client", "Réf. client", "Code client"),
        "es": ("Nº cliente", "Código de cliente"),
        "it": ("Codice cliente", "Cod. cliente", "N. cliente"),
        "nl": ("Klantnummer", "Klantnr."),
    },
    "reference": {
        "en": ("Reference", "Ref."),
        "de": ("Referenz", "Verwendungszweck"),
        "fr": ("Référence", "Réf."),
        "es": ("Referencia", "Ref."),
        "it": ("Riferimento", "Rif."),
        "nl": ("Referentie", "Kenmerk"),
    },
    "iban": {lang: ("IBAN",) for lang in LANGUAGES},
    "bic": {
        "en": ("BIC", "SWIFT/BIC", "SWIFT"),
        "de": ("BIC",),
        "fr": ("BIC", "Code BIC"),
        "es": ("BIC", "SWIFT"),
        "it": ("BIC", "SWIFT"),
        "nl": ("BIC",),
    },
    "bank_details": {
        "en": ("Bank details", "Payment details", "Please pay to"),
        "de": ("Bankverbindung", "Zahlungsinformationen"),
        "fr": ("Coordonnées bancaires", "Règlement par virement"),
        "es": ("Datos bancarios", "Forma de pago: transferencia"),
        "it": ("Coordinate bancarie", "Modalità di pagamento: bonifico"),
        "nl": ("Bankgegevens", "Betaalgegevens"),
    },
    "thank_you": {
        "en": (
            "Thank you for your business!",
            "Thank you for shopping with us",
            "THANK YOU - PLEASE COME AGAIN",
            "Thanks for your visit!",
        ),
        "de": ("Vielen Dank für Ihren Einkauf!", "Danke für Ihren Besuch", "Auf Wiedersehen!"),
        "fr": ("Merci de votre visite !", "Merci et à bientôt", "MERCI DE VOTRE CONFIANCE"),
        "es": ("¡Gracias por su visita!", "Gracias por su compra", "VUELVA PRONTO"),
        "it": ("Grazie e arrivederci", "Grazie per la visita!", "ARRIVEDERCI"),
        "nl": ("Bedankt voor uw bezoek!", "Tot ziens", "Dank u wel en tot ziens"),
    },
    # ---- receipts
    "receipt": {
        "en": ("RECEIPT", "Sales receipt", "Receipt", "TAX INVOICE"),
        "de": ("Kassenbon", "Beleg", "Quittung", "Kassenbeleg"),
        "fr": ("Ticket de caisse", "Reçu", "TICKET"),
        "es": ("Ticket de compra", "Factura simplificada", "Recibo"),
        "it": ("Scontrino", "Documento commerciale", "Ricevuta"),
        "nl": ("Kassabon", "Bon", "Kwitantie"),
    },
    "receipt_number": {
        "en": ("Receipt #", "Trans #", "Ticket No."),
        "de": ("Bon-Nr.", "Beleg-Nr.", "Bon"),
        "fr": ("Ticket n°", "N° ticket", "Transaction"),
        "es": ("Nº ticket", "Ticket nº", "Op."),
        "it": ("Scontrino n.", "Doc. n.", "N."),
        "nl": ("Bonnr.", "Bon nr", "Transactie"),
    },
    "cashier": {
        "en": ("Cashier", "Server", "Operator"),
        "de": ("Kasse", "Bediener", "Kassierer"),
        "fr": ("Caisse", "Caissier", "Serveur"),
        "es": ("Cajero", "Caja", "Atendido por"),
        "it": ("Cassa", "Operatore", "Cassiere"),
        "nl": ("Kassa", "Medewerker", "Caissière"),
    },
    "table": {
        "en": ("Table",),
        "de": ("Tisch",),
        "fr": ("Table",),
        "es": ("Mesa",),
        "it": ("Tavolo",),
        "nl": ("Tafel",),
    },
    "cash": {
        "en": ("Cash", "CASH"),
        "de": ("Bar", "BAR", "Gegeben"),
        "fr": ("Espèces", "ESPECES"),
        "es": ("Efectivo", "Entregado"),
        "it": ("Contanti", "Pagato contanti"),
        "nl": ("Contant", "Ontvangen"),
    },
    "change": {
        "en": ("Change", "CHANGE DUE"),
        "de": ("Rückgeld", "Zurück"),
        "fr": ("Rendu", "Monnaie rendue"),
        "es": ("Cambio", "Devolución"),
        "it": ("Resto",),
        "nl": ("Wisselgeld", "Terug"),
    },
    "card": {
        "en": ("Card payment", "VISA", "MASTERCARD", "Debit card", "Contactless"),
        "de": ("Kartenzahlung", "EC-Karte", "girocard", "VISA"),
        "fr": ("Carte bancaire", "CB", "CB sans contact"),
        "es": ("Tarjeta", "Pago con tarjeta", "VISA"),
        "it": ("Carta di credito", "Bancomat", "Pagamento elettronico"),
        "nl": ("Pin", "PIN", "Betaald met pin", "Maestro"),
    },
    "tip": {
        "en": ("Tip",),
        "de": ("Trinkgeld",),
        "fr": ("Pourboire",),
        "es": ("Propina",),
        "it": ("Mancia",),
        "nl": ("Fooi",),
    },
    "items_count": {
        "en": ("Items", "No. of items"),
        "de": ("Artikel", "Anzahl Artikel"),
        "fr": ("Articles", "Nb articles"),
        "es": ("Artículos", "Nº artículos"),
        "it": ("Articoli", "N. pezzi"),
        "nl": ("Artikelen", "Aantal artikelen"),
    },
    # ---- invoices
    "invoice": {
        "en": ("INVOICE", "Invoice", "TAX INVOICE", "Sales Invoice"),
        "de": ("RECHNUNG", "Rechnung"),
        "fr": ("FACTURE", "Facture"),
        "es": ("FACTURA", "Factura"),
        "it": ("FATTURA", "Fattura"),
        "nl": ("FACTUUR", "Factuur"),
    },
    "invoice_number": {
        "en": ("Invoice No.", "Invoice #", "Invoice number", "Invoice No:"),
        "de": ("Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."),
        "fr": ("Facture n°", "N° de facture", "Numéro de facture"),
        "es": ("Nº factura", "Factura nº", "Número de factura"),
        "it": ("Fattura n.", "Numero fattura", "N. documento"),
        "nl": ("Factuurnummer", "Factuurnr.", "Factuur nr."),
    },
    "invoice_date": {
        "en": ("Invoice date", "Date", "Date of issue", "Issue date"),
        "de": ("Rechnungsdatum", "Datum"),
        "fr": ("Date de facture", "Date", "Date d'émission"),
        "es": ("Fecha de factura", "Fecha", "Fecha de emisión"),
        "it": ("Data fattura", "Data", "Data documento"),
        "nl": ("Factuurdatum", "Datum"),
    },
    "due_date": {
        "en": ("Due date", "Payment due", "Due by", "Pay by"),
        "de": ("Fällig am", "Zahlbar bis", "Fälligkeitsdatum"),
        "fr": ("Date d'échéance", "Échéance", "À régler avant le"),
        "es": ("Fecha de vencimiento", "Vencimiento"),
        "it": ("Scadenza", "Data scadenza", "Scadenza pagamento"),
        "nl": ("Vervaldatum", "Te betalen voor", "Uiterste betaaldatum"),
    },
    "bill_to": {
        "en": ("Bill to", "Billed to", "Invoice to", "Customer", "To"),
        "de": ("Rechnungsempfänger", "Kunde", "An"),
        "fr": ("Facturé à", "Client", "Destinataire"),
        "es": ("Facturar a", "Cliente", "Datos del cliente"),
        "it": ("Intestatario", "Cliente", "Spett.le"),
        "nl": ("Factuur aan", "Klant", "Aan"),
    },
    "ship_to": {
        "en": ("Ship to", "Deliver to"),
        "de": ("Lieferadresse",),
        "fr": ("Livré à", "Adresse de livraison"),
        "es": ("Enviar a", "Dirección de entrega"),
        "it": ("Destinazione merce",),
        "nl": ("Afleveradres",),
    },
    "from": {
        "en": ("From",),
        "de": ("Von", "Absender"),
        "fr": ("Émetteur", "De"),
        "es": ("Emisor", "De"),
        "it": ("Emittente", "Da"),
        "nl": ("Van",),
    },
    "payment_terms": {
        "en": (
            "Payment terms: {days} days net. Please pay by {date}.",
            "Please remit payment by {date}.",
            "Terms: Net {days}",
        ),
        "de": (
            "Zahlbar innerhalb von {days} Tagen ohne Abzug bis zum {date}.",
            "Bitte überweisen Sie den Betrag bis zum {date}.",
            "Zahlungsziel: {days} Tage netto",
        ),
        "fr": (
            "Paiement à {days} jours, soit au plus tard le {date}.",
            "Merci de régler avant le {date}.",
            "Conditions de paiement : {days} jours",
        ),
        "es": (
            "Forma de pago: transferencia a {days} días, antes del {date}.",
            "Rogamos abonen el importe antes del {date}.",
            "Vencimiento a {days} días",
        ),
        "it": (
            "Pagamento a {days} giorni, entro il {date}.",
            "Si prega di effettuare il pagamento entro il {date}.",
            "Termini di pagamento: {days} gg d.f.",
        ),
        "nl": (
            "Gelieve binnen {days} dagen te betalen, uiterlijk {date}.",
            "Wij verzoeken u het bedrag vóór {date} over te maken.",
            "Betalingstermijn: {days} dagen",
        ),
    },
    "greeting": {
        "en": ("Dear {name},", "Dear Customer,", "Hello {name},"),
        "de": (
            "Sehr geehrte Damen und Herren,",
            "Guten Tag {name},",
            "Sehr geehrte Kundin, sehr geehrter Kunde,",
        ),
        "fr": ("Madame, Monsieur,", "Bonjour {name},", "Chère cliente, cher client,"),
        "es": ("Estimado/a cliente:", "Hola {name}:", "Muy señores nuestros:"),
        "it": ("Gentile cliente,", "Gentile {name},", "Spettabile cliente,"),
        "nl": ("Geachte heer/mevrouw,", "Beste {name},", "Geachte klant,"),
    },
    "invoice_intro": {
        "en": (
            "For the services below we charge as follows:",
            "Thank you for your order. Please find our invoice below.",
        ),
        "de": (
            "für unsere Leistungen erlauben wir uns, wie folgt zu berechnen:",
            "vielen Dank für Ihren Auftrag. Wir stellen Ihnen folgende Leistungen in Rechnung:",
        ),
        "fr": (
            "Veuillez trouver ci-dessous le détail de notre prestation.",
            "Nous vous remercions de votre commande.",
        ),
        "es": ("Por los servicios prestados le facturamos lo siguiente:", "Gracias por su pedido."),
        "it": ("Vi addebitiamo quanto segue per le prestazioni eseguite:", "Grazie per il vostro ordine."),
        "nl": (
            "Voor onze werkzaamheden brengen wij het volgende in rekening:",
            "Hartelijk dank voor uw opdracht.",
        ),
    },
    # ---- proof of address (bills)
    "bill_date": {
        "en": ("Bill date", "Statement date", "Date of issue", "Invoice date", "Issued"),
        "de": ("Rechnungsdatum", "Datum", "Ausstellungsdatum"),
        "fr": ("Date de facture", "Date d'émission", "Facture du"),
        "es": ("Fecha de emisión", "Fecha factura", "Fecha"),
        "it": ("Data emissione", "Data fattura", "Emessa il"),
        "nl": ("Factuurdatum", "Datum", "Datum nota"),
    },
    "billing_period": {
        "en": ("Billing period", "Period", "For the period"),
        "de": ("Abrechnungszeitraum", "Zeitraum", "Leistungszeitraum"),
        "fr": ("Période de facturation", "Période de consommation", "Période"),
        "es": ("Periodo de facturación", "Periodo de consumo", "Periodo"),
        "it": ("Periodo di fatturazione", "Periodo di riferimento", "Periodo"),
        "nl": ("Factuurperiode", "Periode", "Verbruiksperiode"),
    },
    "amount_due": {
        "en": ("Amount due", "Total to pay", "Balance to pay", "Total amount due"),
        "de": ("Zu zahlender Betrag", "Rechnungsbetrag", "Fälliger Betrag"),
        "fr": ("Montant à payer", "Total à payer", "Net à payer"),
        "es": ("Importe a pagar", "Total a pagar", "Total importe factura"),
        "it": ("Totale da pagare", "Importo da pagare", "Totale bolletta"),
        "nl": ("Te betalen bedrag", "Totaal te betalen", "Openstaand bedrag"),
    },
    "account_number": {
        "en": ("Account number", "Account No.", "Acct no."),
        "de": ("Vertragskonto", "Kontonummer", "Vertragsnummer"),
        "fr": ("N° de compte", "Référence client", "N° de contrat"),
        "es": ("Nº de contrato", "Nº de cuenta", "Referencia"),
        "it": ("Codice contratto", "N. contratto", "Codice cliente"),
        "nl": ("Contractnummer", "Rekeningnummer", "Klantnummer"),
    },
    "supply_address": {
        "en": ("Supply address", "Service address", "Property address", "Installation address"),
        "de": ("Verbrauchsstelle", "Lieferadresse", "Anschlussadresse"),
        "fr": ("Adresse de consommation", "Lieu de consommation", "Adresse de livraison"),
        "es": ("Dirección de suministro", "Punto de suministro"),
        "it": ("Indirizzo di fornitura", "Punto di fornitura"),
        "nl": ("Leveringsadres", "Aansluitadres"),
    },
    "meter_number": {
        "en": ("Meter number", "Meter No."),
        "de": ("Zählernummer", "Zähler-Nr."),
        "fr": ("N° compteur", "Compteur"),
        "es": ("Nº contador", "Contador"),
        "it": ("Matricola contatore", "Contatore"),
        "nl": ("Meternummer", "Meter"),
    },
    "previous_reading": {
        "en": ("Previous reading",),
        "de": ("Alter Zählerstand", "Anfangsstand"),
        "fr": ("Ancien index",),
        "es": ("Lectura anterior",),
        "it": ("Lettura precedente",),
        "nl": ("Vorige meterstand", "Beginstand"),
    },
    "current_reading": {
        "en": ("Current reading", "Latest reading"),
        "de": ("Neuer Zählerstand", "Endstand"),
        "fr": ("Nouvel index",),
        "es": ("Lectura actual",),
        "it": ("Lettura attuale",),
        "nl": ("Huidige meterstand", "Eindstand"),
    },
    "consumption": {
        "en": ("Usage", "Consumption", "Units used"),
        "de": ("Verbrauch",),
        "fr": ("Consommation",),
        "es": ("Consumo",),
        "it": ("Consumo",),
        "nl": ("Verbruik",),
    },
    "standing_charge": {
        "en": ("Standing charge", "Fixed charge"),
        "de": ("Grundpreis", "Grundgebühr"),
        "fr": ("Abonnement",),
        "es": ("Término fijo", "Cuota fija"),
        "it": ("Quota fissa",),
        "nl": ("Vastrecht", "Vaste kosten"),
    },
    "unit_rate": {
        "en": ("Unit rate", "Energy charge"),
        "de": ("Arbeitspreis",),
        "fr": ("Prix du kWh", "Consommation"),
        "es": ("Término de energía",),
        "it": ("Quota energia",),
        "nl": ("Leveringstarief", "Tarief"),
    },
    "monthly_plan": {
        "en": ("Monthly plan", "Broadband & calls package"),
        "de": ("Monatlicher Grundpreis", "Tarif"),
        "fr": ("Forfait mensuel", "Abonnement box"),
        "es": ("Cuota mensual", "Tarifa fibra + móvil"),
        "it": ("Canone mensile", "Offerta fibra"),
        "nl": ("Maandabonnement", "Internet & bellen"),
    },
    "calls": {
        "en": ("Calls", "Call charges"),
        "de": ("Verbindungen",),
        "fr": ("Communications",),
        "es": ("Llamadas",),
        "it": ("Traffico telefonico",),
        "nl": ("Gesprekskosten",),
    },
    "direct_debit_note": {
        "en": ("This amount will be collected by Direct Debit on or after {date}.", "Please pay by {date}."),
        "de": ("Der Betrag wird am {date} von Ihrem Konto abgebucht.", "Bitte zahlen Sie bis zum {date}."),
        "fr": ("Ce montant sera prélevé le {date}.", "À payer avant le {date}."),
        "es": ("El importe se cargará en su cuenta el {date}.", "Fecha límite de pago: {date}."),
        "it": ("L'importo sarà addebitato il {date}.", "Da pagare entro il {date}."),
        "nl": ("Dit bedrag wordt rond {date} automatisch afgeschreven.", "Gelieve te betalen vóór {date}."),
    },
    # ---- bank statements
    "statement": {
        "en": ("Statement of account", "Account statement", "Bank Statement", "Current Account Statement"),
        "de": ("Kontoauszug", "Kontoauszug Girokonto", "Finanzstatus"),
        "fr": ("Relevé de compte", "Relevé de compte courant", "Extrait de compte"),
        "es": ("Extracto de cuenta", "Extracto bancario", "Extracto de movimientos"),
        "it": ("Estratto conto", "Estratto conto corrente"),
        "nl": ("Rekeningafschrift", "Afschrift", "Bankafschrift"),
    },
    "account_holder": {
        "en": ("Account holder", "Account name", "Name"),
        "de": ("Kontoinhaber", "Kontoinhaberin", "Inhaber"),
        "fr": ("Titulaire du compte", "Titulaire"),
        "es": ("Titular", "Titular de la cuenta"),
        "it": ("Intestatario", "Intestato a"),
        "nl": ("Rekeninghouder", "Ten name van", "T.n.v."),
    },
    "statement_period": {
        "en": ("Statement period", "Period", "For the period"),
        "de": ("Zeitraum", "Abrechnungszeitraum", "Auszugszeitraum"),
        "fr": ("Période", "Période du relevé"),
        "es": ("Periodo", "Periodo del extracto"),
        "it": ("Periodo", "Periodo di riferimento"),
        "nl": ("Periode", "Afschriftperiode"),
    },
    "statement_date": {
        "en": ("Statement date", "Date issued", "Date"),
        "de": ("Erstellt am", "Auszugsdatum", "Datum"),
        "fr": ("Date d'édition", "Édité le", "Date d'arrêté"),
        "es": ("Fecha de emisión", "Fecha del extracto", "Fecha"),
        "it": ("Data emissione", "Data estratto conto", "Data"),
        "nl": ("Datum afschrift", "Aanmaakdatum", "Datum"),
    },
    "opening_balance": {
        "en": ("Opening balance", "Balance brought forward", "Previous balance", "Beginning balance"),
        "de": ("Alter Kontostand", "Anfangssaldo", "Saldo alt"),
        "fr": ("Ancien solde", "Solde précédent", "Solde au début"),
        "es": ("Saldo anterior", "Saldo inicial"),
        "it": ("Saldo iniziale", "Saldo precedente"),
        "nl": ("Beginsaldo", "Vorig saldo", "Oud saldo"),
    },
    "closing_balance": {
        "en": ("Closing balance", "Balance carried forward", "New balance", "Ending balance"),
        "de": ("Neuer Kontostand", "Endsaldo", "Saldo neu"),
        "fr": ("Nouveau solde", "Solde final", "Solde au"),
        "es": ("Saldo final", "Saldo a fecha"),
        "it": ("Saldo finale", "Saldo contabile finale"),
        "nl": ("Eindsaldo", "Nieuw saldo"),
    },
    "money_in": {
        "en": ("Money in", "Paid in", "Credits", "Deposits"),
        "de": ("Gutschriften", "Haben", "Eingänge"),
        "fr": ("Crédit", "Crédits"),
        "es": ("Abonos", "Haber", "Ingresos"),
        "it": ("Avere", "Accrediti", "Entrate"),
        "nl": ("Bij", "Ontvangen", "Credit"),
    },
    "money_out": {
        "en": ("Money out", "Paid out", "Debits", "Withdrawals"),
        "de": ("Lastschriften", "Soll", "Ausgänge"),
        "fr": ("Débit", "Débits"),
        "es": ("Cargos", "Debe", "Gastos"),
        "it": ("Dare", "Addebiti", "Uscite"),
        "nl": ("Af", "Betaald", "Debet"),
    },
    "txn_amount": {
        "en": ("Amount", "Transaction amount"),
        "de": ("Betrag", "Umsatz"),
        "fr": ("Montant",),
        "es": ("Importe",),
        "it": ("Importo",),
        "nl": ("Bedrag",),
    },
    "balance": {
        "en": ("Balance",),
        "de": ("Saldo", "Kontostand"),
        "fr": ("Solde",),
        "es": ("Saldo",),
        "it": ("Saldo",),
        "nl": ("Saldo",),
    },
    "booking_date": {
        "en": ("Date", "Posting date", "Trans. date"),
        "de": ("Buchungstag", "Buchung", "Datum"),
        "fr": ("Date", "Date opé."),
        "es": ("Fecha", "F. operación"),
        "it": ("Data", "Data contabile"),
        "nl": ("Datum", "Boekdatum"),
    },
    "value_date": {
        "en": ("Value date",),
        "de": ("Wert", "Valuta"),
        "fr": ("Valeur", "Date valeur"),
        "es": ("F. valor", "Valor"),
        "it": ("Valuta", "Data valuta"),
        "nl": ("Valutadatum", "Rentedatum"),
    },
    "transaction": {
        "en": ("Description", "Details", "Transaction"),
        "de": ("Vorgang", "Buchungstext", "Verwendungszweck"),
        "fr": ("Libellé", "Nature de l'opération"),
        "es": ("Concepto", "Descripción"),
        "it": ("Descrizione operazione", "Descrizione"),
        "nl": ("Omschrijving", "Mededelingen"),
    },
    "summary": {
        "en": ("Account summary", "Summary"),
        "de": ("Übersicht", "Zusammenfassung"),
        "fr": ("Synthèse", "Récapitulatif"),
        "es": ("Resumen",),
        "it": ("Riepilogo", "Sintesi"),
        "nl": ("Overzicht", "Samenvatting"),
    },
    "account_type": {
        "en": ("Current account", "Everyday Checking", "Personal account"),
        "de": ("Girokonto", "Privatkonto"),
        "fr": ("Compte courant", "Compte de dépôt"),
        "es": ("Cuenta corriente", "Cuenta nómina"),
        "it": ("Conto corrente", "Conto ordinario"),
        "nl": ("Betaalrekening", "Privérekening"),
    },
}

# Bill titles per utility type: one is printed as the document heading.
BILL_TITLES: dict[str, _L] = {
    "electricity": {
        "en": ("Your electricity bill", "Electricity Statement", "ELECTRICITY BILL"),
        "de": ("Stromrechnung", "Ihre Stromabrechnung", "Jahresabrechnung Strom"),
        "fr": ("Facture d'électricité", "Votre facture d'électricité"),
        "es": ("Factura de electricidad", "Factura de luz"),
        "it": ("Bolletta luce", "Fattura energia elettrica"),
        "nl": ("Jaarnota elektriciteit", "Factuur stroom"),
    },
    "gas": {
        "en": ("Your gas bill", "Gas Statement", "GAS BILL"),
        "de": ("Gasrechnung", "Ihre Erdgasabrechnung"),
        "fr": ("Facture de gaz", "Votre facture de gaz naturel"),
        "es": ("Factura de gas natural", "Factura de gas"),
        "it": ("Bolletta gas", "Fattura gas naturale"),
        "nl": ("Factuur gas", "Jaarnota gas"),
    },
    "water": {
        "en": ("Your water bill", "Water and Sewerage Charges", "WATER BILL"),
        "de": ("Wasserrechnung", "Abrechnung Wasser/Abwasser"),
        "fr": ("Facture d'eau", "Votre facture eau et assainissement"),
        "es": ("Factura del agua", "Recibo de agua"),
        "it": ("Bolletta acqua", "Fattura servizio idrico"),
        "nl": ("Waterrekening", "Nota drinkwater"),
    },
    "telecom": {
        "en": ("Your bill", "Broadband & Phone Bill", "Monthly Statement"),
        "de": ("Ihre Rechnung", "Mobilfunkrechnung", "Rechnung Internet & Telefon"),
        "fr": ("Votre facture", "Facture box internet", "Facture mobile"),
        "es": ("Su factura", "Factura fibra y móvil"),
        "it": ("La tua bolletta", "Fattura telefonia"),
        "nl": ("Uw factuur", "Rekening internet en bellen"),
    },
    "council_tax": {
        "en": ("Council Tax Bill", "COUNCIL TAX DEMAND NOTICE", "Council Tax Bill 2026/27"),
        "de": ("Grundbesitzabgabenbescheid", "Abgabenbescheid Abfall und Straßenreinigung"),
        "fr": ("Avis de taxe foncière", "Avis d'impôt taxe d'habitation"),
        "es": ("Recibo IBI", "Impuesto sobre Bienes Inmuebles"),
        "it": ("Avviso di pagamento TARI", "Tassa rifiuti TARI"),
        "nl": ("Aanslag gemeentelijke belastingen", "Aanslagbiljet"),
    },
}


class Labeler:
    """Draws one variant of each caption on first use and returns it every time after.

    ``upper`` and ``colon`` are the document's caption style: "INVOICE DATE:" or "Invoice date".
    """

    def __init__(self, language: str, rng: np.random.Generator, upper: bool = False, colon: bool = False):
        self.language = language
        self.upper = upper
        self.colon = colon
        self._rng = rng
        self._chosen: dict[str, str] = {}

    def raw(self, key: str, table: dict[str, _L] | None = None) -> str:
        """The chosen variant, as written in the table (no case or colon change)."""
        if key not in self._chosen:
            variants = (table or LABELS)[key][self.language]
            self._chosen[key] = variants[int(self._rng.integers(len(variants)))]
        return self._chosen[key]

    def __call__(self, key: str, **values: str) -> str:
        """The caption styled for the document: case and trailing colon applied."""
        text = self.raw(key).format(**values) if values else self.raw(key)
        if self.upper:
            text = text.upper()
        if self.colon and not text.endswith((":", "#", "?", ".")):
            text += ":"
        return text

    def text(self, key: str, **values: str) -> str:
        """A sentence or phrase (no caption styling)."""
        return self.raw(key).format(**values) if values else self.raw(key)

    def variants(self, key: str) -> tuple[str, ...]:
        """Every variant of ``key`` in the document's language (for sentences picked by content)."""
        return LABELS[key][self.language]

    def title(self, key: str, table: dict[str, _L] | None = None) -> str:
        return self.raw(key, table)
