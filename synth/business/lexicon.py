"""Word lists for business documents: people, places, companies and what they sell, per country.

Everything here is fictitious. Company and bank names are assembled from invented brand words so
no real organisation is imitated; cities and postal-code shapes are real so addresses look like
the ones a reader meets (a reader that has never seen "1015 CJ Amsterdam" or "M5V 3L9" fails on
them). Names are stored as printed in running text (title case, diacritics kept); the documents
print them that way or upper-cased.
"""

from __future__ import annotations


def _split(text: str) -> tuple[str, ...]:
    """Comma-separated items (so a formatter does not explode the lists one item a line)."""
    return tuple(word.strip() for word in text.replace("\n", " ").split(",") if word.strip())


# --------------------------------------------------------------------------------------------
# People

GIVEN_NAMES: dict[str, tuple[str, ...]] = {
    "en": _split(
        """James, Mary, John, Patricia, Robert, Jennifer, Michael, Linda, William, Elizabeth, David,
        Susan, Richard, Jessica, Joseph, Sarah, Thomas, Karen, Daniel, Emily, Oliver, Amelia, Harry,
        Isla, George, Olivia, Noah, Charlotte, Grace, Ethan, Chloe, Samuel, Megan, Aidan, Priya,
        Mohammed, Wei, Aaliyah, Connor, Siobhan"""
    ),
    "de": _split(
        """Lukas, Anna, Leon, Lena, Felix, Laura, Jonas, Julia, Maximilian, Sophie, Paul, Marie,
        Jürgen, Ursula, Klaus, Sabine, Stefan, Petra, Thomas, Katrin, Günter, Jörg, Mehmet, Ayşe,
        Elif, Hannah, Tobias, Birgit, Dieter, Monika"""
    ),
    "fr": _split(
        """Jean, Marie, Pierre, Camille, Louis, Chloé, Lucas, Léa, Hugo, Manon, Nicolas, Sophie,
        François, Isabelle, Théo, Inès, Mathieu, Élodie, Jean-Luc, Marie-Claire, Hélène, Gaëlle,
        Karim, Yasmine, Benoît, Amélie, Céline, Jérôme"""
    ),
    "es": _split(
        """Antonio, María, José, Carmen, Manuel, Lucía, Francisco, Ana, David, Laura, Javier, Marta,
        Alejandro, Paula, Daniel, Elena, Pablo, Sofía, Sergio, Isabel, Íñigo, Begoña, Jesús, Nuria,
        Álvaro, Rocío"""
    ),
    "it": _split(
        """Giuseppe, Maria, Giovanni, Anna, Marco, Giulia, Luca, Francesca, Alessandro, Chiara,
        Andrea, Sara, Matteo, Elena, Lorenzo, Valentina, Davide, Martina, Francesco, Alessia,
        Niccolò, Ilaria, Gianluca, Federica"""
    ),
    "nl": _split(
        """Daan, Emma, Sem, Julia, Lucas, Mila, Levi, Tess, Finn, Sophie, Jan, Anouk, Pieter, Femke,
        Joris, Sanne, Thijs, Lotte, Bram, Eva, Willem, Ingrid, Sven, Marloes"""
    ),
}

SURNAMES: dict[str, tuple[str, ...]] = {
    "en": _split(
        """Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Taylor, Anderson, Thomas,
        Moore, Martin, Jackson, Thompson, White, Harris, Clarke, Walker, Robinson, Wright, Hughes,
        Evans, O'Brien, Macdonald, Patel, Nguyen, Kowalski, Murphy, Campbell, Fitzgerald, Okafor,
        Chen, Singh, Roberts, Bennett, Hall, Wood, Carter, Mitchell"""
    ),
    "de": _split(
        """Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch,
        Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hofmann,
        Hartmann, Lange, Weiß, Y\u0131lmaz, Kowalczyk, Vogel, Friedrich, Keller, Günther, Groß, Jäger"""
    ),
    "fr": _split(
        """Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon,
        Laurent, Lefèvre, Michel, Garcia, David, Bertrand, Roux, Vincent, Fournier, Girard, Bonnet,
        Lambert, Fontaine, Rousseau, Benali, Nguyen, Chevalier, Gauthier, Lemaître"""
    ),
    "es": _split(
        """García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Martín,
        Jiménez, Ruiz, Hernández, Díaz, Moreno, Muñoz, Álvarez, Romero, Navarro, Torres, Domínguez,
        Gil, Vázquez, Serrano, Ramos, Blanco, Castro, Ortega"""
    ),
    "it": _split(
        """Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno,
        Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri,
        Fontana, Santoro, Mariani, D'Angelo, Caruso"""
    ),
    "nl": _split(
        """de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Janssen, Visser, Smit, Meijer,
        de Boer, Mulder, de Groot, Bos, Vos, Peters, Hendriks, van Leeuwen, Dekker, Brouwer,
        van der Meer, Kok, Jacobs, van Vliet"""
    ),
}

# Courtesy titles printed before a name (never part of the canonical name).
TITLES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"M": ("Mr", "Mr.", "MR"), "F": ("Mrs", "Ms", "Ms.", "Miss", "MRS")},
    "de": {"M": ("Herrn", "Herr"), "F": ("Frau",)},
    "fr": {"M": ("M.", "Monsieur"), "F": ("Mme", "Madame", "Mme.")},
    "es": {"M": ("Sr.", "D.", "Don"), "F": ("Sra.", "Dña.", "Doña")},
    "it": {"M": ("Sig.", "Egr. Sig."), "F": ("Sig.ra", "Gent.ma Sig.ra")},
    "nl": {"M": ("Dhr.", "De heer"), "F": ("Mevr.", "Mevrouw")},
}

FEMALE_NAMES: frozenset[str] = frozenset(
    _split(
        """Mary, Patricia, Jennifer, Linda, Elizabeth, Susan, Jessica, Sarah, Karen, Emily, Amelia,
        Isla, Olivia, Charlotte, Grace, Chloe, Megan, Priya, Aaliyah, Siobhan, Anna, Lena, Laura,
        Julia, Sophie, Marie, Ursula, Sabine, Petra, Katrin, Ayşe, Elif, Hannah, Birgit, Monika,
        Camille, Chloé, Léa, Manon, Isabelle, Inès, Élodie, Marie-Claire, Hélène, Gaëlle, Yasmine,
        Amélie, Céline, María, Carmen, Lucía, Ana, Marta, Paula, Elena, Sofía, Isabel, Begoña,
        Nuria, Rocío, Maria, Giulia, Francesca, Chiara, Sara, Valentina, Martina, Alessia, Ilaria,
        Federica, Emma, Mila, Tess, Anouk, Femke, Sanne, Lotte, Eva, Ingrid, Marloes"""
    )
)

# --------------------------------------------------------------------------------------------
# Places: (city as printed, region code printed in addresses or "", postal code seed)

CITIES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "US": (
        ("New York", "NY", "100"),
        ("Los Angeles", "CA", "900"),
        ("Chicago", "IL", "606"),
        ("Houston", "TX", "770"),
        ("Phoenix", "AZ", "850"),
        ("Philadelphia", "PA", "191"),
        ("San Diego", "CA", "921"),
        ("Dallas", "TX", "752"),
        ("Austin", "TX", "787"),
        ("Seattle", "WA", "981"),
        ("Denver", "CO", "802"),
        ("Boston", "MA", "021"),
        ("Portland", "OR", "972"),
        ("Miami", "FL", "331"),
        ("Atlanta", "GA", "303"),
        ("Minneapolis", "MN", "554"),
        ("Springfield", "IL", "627"),
        ("Columbus", "OH", "432"),
        ("Nashville", "TN", "372"),
        ("Salt Lake City", "UT", "841"),
        ("Albuquerque", "NM", "871"),
        ("Newark", "NJ", "071"),
    ),
    "CA": (
        ("Toronto", "ON", "M"),
        ("Ottawa", "ON", "K"),
        ("Mississauga", "ON", "L"),
        ("Vancouver", "BC", "V"),
        ("Victoria", "BC", "V"),
        ("Calgary", "AB", "T"),
        ("Edmonton", "AB", "T"),
        ("Winnipeg", "MB", "R"),
        ("Halifax", "NS", "B"),
        ("Regina", "SK", "S"),
    ),
    "CA-QC": (("Montréal", "QC", "H"), ("Québec", "QC", "G"), ("Laval", "QC", "H"), ("Gatineau", "QC", "J")),
    "GB": (
        ("London", "", "SW"),
        ("London", "", "E"),
        ("London", "", "N"),
        ("London", "", "SE"),
        ("London", "", "NW"),
        ("Manchester", "", "M"),
        ("Birmingham", "", "B"),
        ("Leeds", "", "LS"),
        ("Glasgow", "", "G"),
        ("Edinburgh", "", "EH"),
        ("Bristol", "", "BS"),
        ("Liverpool", "", "L"),
        ("Cardiff", "", "CF"),
        ("Oxford", "", "OX"),
        ("Cambridge", "", "CB"),
        ("Brighton", "", "BN"),
        ("Norwich", "", "NR"),
        ("York", "", "YO"),
        ("Sheffield", "", "S"),
        ("Belfast", "", "BT"),
    ),
    "DE": (
        ("Berlin", "", "10"),
        ("Berlin", "", "12"),
        ("Hamburg", "", "20"),
        ("Hamburg", "", "22"),
        ("München", "", "80"),
        ("München", "", "81"),
        ("Köln", "", "50"),
        ("Frankfurt am Main", "", "60"),
        ("Stuttgart", "", "70"),
        ("Düsseldorf", "", "40"),
        ("Leipzig", "", "04"),
        ("Dresden", "", "01"),
        ("Hannover", "", "30"),
        ("Nürnberg", "", "90"),
        ("Bremen", "", "28"),
        ("Freiburg im Breisgau", "", "79"),
        ("Münster", "", "48"),
        ("Essen", "", "45"),
    ),
    "FR": (
        ("Paris", "", "750"),
        ("Lyon", "", "6900"),
        ("Marseille", "", "130"),
        ("Toulouse", "", "31"),
        ("Nice", "", "06"),
        ("Nantes", "", "44"),
        ("Strasbourg", "", "67"),
        ("Montpellier", "", "34"),
        ("Bordeaux", "", "33"),
        ("Lille", "", "59"),
        ("Rennes", "", "35"),
        ("Grenoble", "", "38"),
        ("Saint-Étienne", "", "42"),
        ("Aix-en-Provence", "", "13"),
    ),
    "ES": (
        ("Madrid", "", "280"),
        ("Barcelona", "", "080"),
        ("Valencia", "", "460"),
        ("Sevilla", "", "410"),
        ("Zaragoza", "", "500"),
        ("Málaga", "", "290"),
        ("Bilbao", "", "480"),
        ("Alicante", "", "030"),
        ("Córdoba", "", "140"),
        ("Valladolid", "", "470"),
        ("Granada", "", "180"),
        ("A Coruña", "", "150"),
    ),
    "IT": (
        ("Roma", "RM", "001"),
        ("Milano", "MI", "201"),
        ("Napoli", "NA", "801"),
        ("Torino", "TO", "101"),
        ("Palermo", "PA", "901"),
        ("Genova", "GE", "161"),
        ("Bologna", "BO", "401"),
        ("Firenze", "FI", "501"),
        ("Bari", "BA", "701"),
        ("Verona", "VR", "371"),
        ("Padova", "PD", "351"),
        ("Reggio Emilia", "RE", "421"),
    ),
    "NL": (
        ("Amsterdam", "", "10"),
        ("Rotterdam", "", "30"),
        ("Den Haag", "", "25"),
        ("Utrecht", "", "35"),
        ("Eindhoven", "", "56"),
        ("Groningen", "", "97"),
        ("Tilburg", "", "50"),
        ("Almere", "", "13"),
        ("Breda", "", "48"),
        ("Nijmegen", "", "65"),
        ("Haarlem", "", "20"),
        ("'s-Hertogenbosch", "", "52"),
    ),
    "CH": (
        ("Zürich", "", "80"),
        ("Genève", "", "12"),
        ("Basel", "", "40"),
        ("Bern", "", "30"),
        ("Lausanne", "", "10"),
        ("Luzern", "", "60"),
        ("Winterthur", "", "84"),
    ),
}

# Street name parts per country; see common.street() for how they are combined.
STREETS: dict[str, tuple[str, ...]] = {
    "US": _split(
        """Main, Oak, Maple, Cedar, Elm, Pine, Washington, Lake, Hill, Park, Lincoln, Sunset,
        Jefferson, Madison, Highland, River, Church, Spring, Walnut, Franklin, Willow, Chestnut,
        Ridge, Meadow, Lakeview, Broadway"""
    ),
    "GB": _split(
        """High, Station, Church, Victoria, Park, Mill, King, Queen, Green, Manor, Albert, London,
        York, Grange, Windsor, Kingsway, Chapel, Springfield, Orchard, Beech, Meadow, Abbey,
        Cromwell, Elmwood"""
    ),
    "DE": _split(
        """Haupt, Bahnhof, Garten, Schul, Kirch, Berg, Wald, Ring, Linden, Birken, Goethe, Schiller,
        Mozart, Friedrich, Rosen, Mühlen, Park, Sonnen, Wiesen, Feld, Eichen, Kastanien, Blumen,
        Markt"""
    ),
    "FR": _split(
        """de la République, Victor Hugo, Jean Jaurès, de la Paix, du Général de Gaulle, Pasteur,
        des Lilas, de la Gare, Gambetta, Voltaire, Émile Zola, du Moulin, des Écoles, Saint-Michel,
        de Verdun, Nationale, du Château, Lafayette, des Roses, Carnot"""
    ),
    "ES": _split(
        """Mayor, de Alcalá, Gran Vía, del Sol, de la Constitución, de Cervantes, Real, San Juan,
        de Goya, de la Princesa, de Colón, del Carmen, de Andalucía, de la Paz, Nueva, del Prado,
        de Atocha, de Santa Ana"""
    ),
    "IT": _split(
        """Roma, Garibaldi, Giuseppe Verdi, Dante Alighieri, XX Settembre, Cavour, Mazzini, della
        Repubblica, Vittorio Emanuele II, dei Mille, San Francesco, Manzoni, Marconi, Matteotti,
        Nazionale, del Corso, Leopardi, IV Novembre"""
    ),
    "NL": _split(
        """Kerk, Dorps, Molen, School, Stations, Prinsen, Keizers, Heren, Linden, Eiken, Beuken,
        Wilhelmina, Juliana, Oranje, Nieuwe, Hoog, Zuid, Noord, Tulpen, Rozen"""
    ),
    "CH": _split(
        """Bahnhof, Haupt, Kirch, Dorf, See, Berg, Schul, Post, Linden, Rosen, Gartenstadt,
        Limmat"""
    ),
    "CH-fr": _split("""du Rhône, de Lausanne, du Lac, de la Gare, du Marché, des Alpes, de Genève"""),
    "CA-QC": _split(
        """Sainte-Catherine, Saint-Denis, Sherbrooke, Saint-Laurent, de la Montagne, Notre-Dame"""
    ),
}

STREET_TYPES: dict[str, tuple[str, ...]] = {
    "US": _split(
        "Street, St, Avenue, Ave, Road, Rd, Boulevard, Blvd, Drive, Dr, Lane, Ln, Court, Ct, Way, Place"
    ),
    "GB": _split("Street, Road, Lane, Avenue, Close, Gardens, Crescent, Drive, Terrace, Way, Grove, Place"),
    "DE": _split("straße, str., weg, allee, gasse, platz, ring"),
    "FR": _split("rue, rue, avenue, boulevard, place, allée, impasse, chemin, quai"),
    "ES": _split("Calle, Calle, C/, Avenida, Avda., Plaza, Paseo, Camino, Ronda"),
    "IT": _split("Via, Via, Via, Viale, Corso, Piazza, Largo, Vicolo"),
    "NL": _split("straat, straat, weg, laan, gracht, plein, singel, kade"),
    "CH": _split("strasse, weg, gasse, platz"),
}

# --------------------------------------------------------------------------------------------
# Organisations: invented brand words, trades and legal forms

BRANDS: tuple[str, ...] = _split(
    """Nordlicht, Bluewave, Alpina, Solaris, Verdant, Brightline, Kestrel, Orion, Horizon, Lumen,
    Vertex, Arcadia, Meridian, Helix, Polaris, Cobalt, Aurora, Summit, Riverside, Greenfield,
    Silverline, Falcon, Atlas, Nova, Zenith, Corvina, Altamira, Bellavista, Sonnental, Westerbrook,
    Clearwater, Oakridge, Lindqvist, Marenco, Tramonto, Valmont, Quercia, Eichhorn, Duinzicht,
    Sterling, Calypso, Pinewood, Redfern, Ashby, Brisa, Levante, Mistral, Fjordline"""
)

LEGAL_FORMS: dict[str, tuple[str, ...]] = {
    "US": _split("Inc., LLC, Corp., Co., Inc"),
    "CA": _split("Inc., Ltd., Corp., Ltée"),
    "GB": _split("Ltd, Limited, PLC, Ltd., LLP"),
    "DE": _split("GmbH, AG, KG, GmbH & Co. KG, e.K., UG (haftungsbeschränkt)"),
    "FR": _split("SARL, SAS, SA, EURL, SASU"),
    "ES": _split("S.L., S.A., S.L.U., SL"),
    "IT": _split("S.r.l., S.p.A., S.n.c., Srl, S.a.s."),
    "NL": _split("B.V., N.V., V.O.F., BV"),
    "CH": _split("AG, GmbH, SA, Sàrl"),
}

TRADES: dict[str, tuple[str, ...]] = {
    "en": _split(
        """Consulting, Design Studio, Building Services, Logistics, Software, Print & Media,
        Electrical, Plumbing & Heating, Office Supplies, Engineering, Marketing, Catering,
        IT Solutions, Cleaning Services, Architects, Legal Services"""
    ),
    "de": _split(
        """Haustechnik, Beratung, Elektro, Bau, Logistik, Software, Druck & Medien, Sanitär,
        Bürobedarf, Ingenieurbüro, Werbeagentur, Gebäudereinigung, IT-Systeme, Malerbetrieb,
        Steuerberatung"""
    ),
    "fr": _split(
        """Conseil, Bâtiment, Électricité, Plomberie, Logistique, Informatique, Imprimerie,
        Fournitures de Bureau, Ingénierie, Communication, Nettoyage, Architecture, Traiteur"""
    ),
    "es": _split(
        """Consultoría, Construcciones, Electricidad, Fontanería, Logística, Informática, Artes
        Gráficas, Suministros de Oficina, Ingeniería, Publicidad, Limpiezas, Arquitectura"""
    ),
    "it": _split(
        """Consulenze, Costruzioni, Impianti Elettrici, Idraulica, Logistica, Informatica,
        Tipografia, Forniture Ufficio, Ingegneria, Comunicazione, Pulizie, Architettura"""
    ),
    "nl": _split(
        """Advies, Bouw, Elektrotechniek, Installatietechniek, Logistiek, Software, Drukwerk,
        Kantoorartikelen, Ingenieursbureau, Reclamebureau, Schoonmaak, Architecten"""
    ),
}

# --------------------------------------------------------------------------------------------
# What is sold: (name, low price, high price) in the document's currency

GROCERIES: dict[str, tuple[tuple[str, float, float], ...]] = {
    "en": (
        ("Whole Milk 2L", 1.2, 3.5),
        ("Sourdough Bread", 2.0, 5.5),
        ("Bananas", 0.8, 2.2),
        ("Free Range Eggs x12", 2.5, 5.0),
        ("Cheddar Cheese 400g", 3.0, 6.5),
        ("Orange Juice 1L", 1.5, 4.0),
        ("Chicken Breast 500g", 4.0, 8.5),
        ("Pasta Penne 500g", 0.9, 2.5),
        ("Tomatoes Vine", 1.2, 3.5),
        ("Greek Yogurt", 1.1, 3.9),
        ("Coffee Beans 1kg", 8.0, 19.0),
        ("Olive Oil 750ml", 4.5, 11.0),
        ("Apples Gala 1kg", 1.8, 4.0),
        ("Dish Soap", 1.5, 3.9),
        ("Toilet Tissue 9pk", 3.5, 8.0),
        ("Sparkling Water 6x1.5L", 2.0, 5.0),
        ("Dark Chocolate 100g", 1.0, 3.5),
        ("Butter 250g", 1.8, 4.2),
    ),
    "de": (
        ("Vollmilch 1L", 0.99, 1.69),
        ("Bauernbrot", 2.2, 4.5),
        ("Bananen", 0.9, 2.2),
        ("Eier Bodenhaltung 10St", 1.8, 3.5),
        ("Gouda jung 400g", 2.5, 5.0),
        ("Orangensaft 1L", 1.2, 2.9),
        ("Hähnchenbrust 500g", 4.5, 8.0),
        ("Spaghetti 500g", 0.79, 2.2),
        ("Tomaten", 1.2, 3.5),
        ("Joghurt Natur", 0.49, 1.5),
        ("Kaffee Bohnen 1kg", 8.0, 17.0),
        ("Butter 250g", 1.6, 3.5),
        ("Äpfel Elstar 1kg", 1.8, 3.5),
        ("Mineralwasser 6x1,5L", 2.0, 4.5),
        ("Schokolade Vollmilch", 0.9, 2.5),
        ("Brezel", 0.6, 1.2),
        ("Pfand", 0.25, 3.0),
        ("Weißwurst 4St", 2.8, 5.0),
    ),
    "fr": (
        ("Lait demi-écrémé 1L", 0.9, 1.6),
        ("Baguette tradition", 0.9, 1.5),
        ("Bananes", 0.9, 2.5),
        ("Œufs plein air x12", 2.5, 4.5),
        ("Comté 250g", 3.5, 7.0),
        ("Jus d'orange 1L", 1.5, 3.5),
        ("Filet de poulet", 4.5, 9.0),
        ("Pâtes fusilli 500g", 0.8, 2.0),
        ("Tomates grappe", 1.5, 3.8),
        ("Yaourt nature x4", 1.0, 2.8),
        ("Café moulu 250g", 2.5, 6.0),
        ("Beurre doux 250g", 1.9, 3.6),
        ("Pommes Golden 1kg", 1.8, 3.5),
        ("Eau gazeuse 6x1L", 2.0, 4.5),
        ("Chocolat noir 70%", 1.2, 3.2),
        ("Croissant", 0.9, 1.6),
        ("Camembert", 1.8, 4.0),
        ("Vin rouge AOC 75cl", 4.0, 15.0),
    ),
    "es": (
        ("Leche entera 1L", 0.8, 1.5),
        ("Pan de barra", 0.6, 1.5),
        ("Plátanos de Canarias", 1.5, 3.0),
        ("Huevos L docena", 2.0, 3.8),
        ("Queso manchego 250g", 3.5, 7.5),
        ("Zumo de naranja 1L", 1.2, 2.9),
        ("Pechuga de pollo", 4.0, 7.5),
        ("Macarrones 500g", 0.7, 1.8),
        ("Tomates pera", 1.2, 3.0),
        ("Yogur natural x4", 0.9, 2.4),
        ("Café molido 250g", 2.2, 5.5),
        ("Aceite de oliva virgen extra 1L", 5.0, 11.0),
        ("Manzanas Fuji", 1.8, 3.5),
        ("Agua mineral 6x1,5L", 1.5, 3.5),
        ("Jamón serrano 100g", 2.0, 6.0),
        ("Chorizo ibérico", 2.5, 6.5),
        ("Arroz bomba 1kg", 2.5, 5.5),
    ),
    "it": (
        ("Latte intero 1L", 0.9, 1.7),
        ("Pane casereccio", 1.5, 3.5),
        ("Banane", 1.0, 2.5),
        ("Uova fresche x6", 1.5, 3.0),
        ("Parmigiano Reggiano 300g", 4.5, 9.5),
        ("Succo d'arancia 1L", 1.2, 2.9),
        ("Petto di pollo", 4.0, 8.0),
        ("Spaghetti n.5 500g", 0.8, 2.0),
        ("Pomodorini", 1.5, 3.5),
        ("Yogurt bianco", 0.6, 1.8),
        ("Caffè macinato 250g", 2.8, 6.0),
        ("Olio extravergine 1L", 6.0, 12.0),
        ("Mele Golden", 1.5, 3.2),
        ("Acqua frizzante 6x1,5L", 1.8, 3.9),
        ("Mozzarella di bufala", 2.5, 5.5),
        ("Prosciutto crudo 100g", 2.5, 6.0),
        ("Basilico", 0.9, 1.9),
    ),
    "nl": (
        ("Halfvolle melk 1L", 0.99, 1.69),
        ("Volkoren brood", 1.8, 3.5),
        ("Bananen", 1.0, 2.3),
        ("Scharreleieren 10st", 2.2, 3.9),
        ("Goudse kaas jong 500g", 4.0, 7.5),
        ("Sinaasappelsap 1L", 1.5, 3.2),
        ("Kipfilet 500g", 4.5, 8.5),
        ("Penne 500g", 0.8, 2.0),
        ("Trostomaten", 1.5, 3.5),
        ("Yoghurt volle", 1.0, 2.2),
        ("Koffiebonen 1kg", 8.0, 17.0),
        ("Roomboter 250g", 2.0, 3.8),
        ("Elstar appels 1kg", 1.8, 3.5),
        ("Spa rood 6x1,5L", 2.5, 5.0),
        ("Hagelslag puur", 1.8, 3.5),
        ("Stroopwafels", 1.5, 3.2),
        ("Statiegeld", 0.15, 3.0),
    ),
}

CAFE: dict[str, tuple[tuple[str, float, float], ...]] = {
    "en": (
        ("Flat White", 2.8, 4.5),
        ("Cappuccino", 2.8, 4.5),
        ("Americano", 2.4, 3.8),
        ("Tea Earl Grey", 2.0, 3.2),
        ("Croissant", 1.8, 3.5),
        ("Club Sandwich", 7.5, 13.0),
        ("Caesar Salad", 8.0, 14.0),
        ("Cheeseburger", 9.0, 16.0),
        ("Fish & Chips", 10.0, 17.0),
        ("Pint of Lager", 4.5, 7.5),
        ("House Red Glass", 5.0, 9.0),
        ("Chocolate Brownie", 3.0, 6.5),
        ("Soup of the Day", 5.0, 8.5),
        ("Sparkling Water", 2.0, 4.0),
    ),
    "de": (
        ("Milchkaffee", 3.2, 4.8),
        ("Cappuccino", 2.9, 4.5),
        ("Espresso", 2.0, 3.0),
        ("Apfelschorle 0,4l", 3.2, 4.8),
        ("Weizenbier 0,5l", 4.2, 5.9),
        ("Schnitzel Wiener Art", 13.5, 21.0),
        ("Currywurst mit Pommes", 7.5, 11.5),
        ("Käsespätzle", 11.0, 16.5),
        ("Apfelstrudel", 4.5, 7.5),
        ("Brezel mit Butter", 2.5, 4.0),
        ("Salatteller", 9.5, 14.5),
        ("Mineralwasser 0,75l", 4.5, 7.0),
    ),
    "fr": (
        ("Café crème", 2.8, 4.5),
        ("Expresso", 1.8, 3.0),
        ("Croque-monsieur", 7.5, 12.0),
        ("Salade niçoise", 11.0, 16.0),
        ("Steak frites", 16.0, 24.0),
        ("Quiche lorraine", 7.0, 11.0),
        ("Verre de vin rouge", 4.5, 8.0),
        ("Pression 25cl", 3.5, 6.5),
        ("Crème brûlée", 6.0, 9.5),
        ("Menu du jour", 14.0, 22.0),
        ("Carafe d'eau", 0.0, 0.0),
        ("Tarte Tatin", 6.0, 9.0),
    ),
    "es": (
        ("Café con leche", 1.3, 2.5),
        ("Cortado", 1.2, 2.2),
        ("Caña", 1.8, 3.2),
        ("Tortilla española", 3.0, 6.5),
        ("Patatas bravas", 4.0, 7.5),
        ("Croquetas de jamón", 6.0, 10.0),
        ("Paella valenciana", 12.0, 19.0),
        ("Menú del día", 11.0, 16.0),
        ("Copa de vino tinto", 2.5, 5.5),
        ("Tostada con tomate", 2.0, 4.0),
        ("Agua mineral", 1.5, 3.0),
        ("Flan casero", 3.5, 6.0),
    ),
    "it": (
        ("Caffè espresso", 1.1, 2.0),
        ("Cappuccino", 1.4, 2.8),
        ("Cornetto", 1.2, 2.0),
        ("Spritz Aperol", 5.0, 9.0),
        ("Pizza Margherita", 6.0, 11.0),
        ("Spaghetti carbonara", 10.0, 15.0),
        ("Lasagne al forno", 10.0, 15.0),
        ("Tiramisù", 5.0, 8.0),
        ("Acqua naturale 75cl", 2.0, 4.0),
        ("Calice di vino rosso", 4.5, 8.5),
        ("Coperto", 1.5, 3.0),
        ("Bruschetta", 4.5, 7.5),
    ),
    "nl": (
        ("Koffie verkeerd", 3.0, 4.5),
        ("Cappuccino", 3.0, 4.5),
        ("Verse muntthee", 3.0, 4.5),
        ("Tosti ham kaas", 5.0, 8.0),
        ("Uitsmijter", 8.5, 12.5),
        ("Bitterballen 8st", 6.5, 9.5),
        ("Appeltaart met slagroom", 4.5, 6.5),
        ("Fluitje bier", 2.8, 4.2),
        ("Huiswijn wit glas", 4.5, 7.0),
        ("Broodje kroket", 4.5, 7.0),
        ("Soep van de dag", 6.0, 8.5),
        ("Spa blauw", 2.8, 3.9),
    ),
}

HARDWARE: tuple[tuple[str, float, float], ...] = (
    ("USB-C Cable 1m", 5.0, 19.0),
    ("AA Batteries 8pk", 4.0, 12.0),
    ("LED Bulb E27 9W", 2.5, 8.0),
    ("Extension Lead 4-way", 8.0, 25.0),
    ("Screwdriver Set", 9.0, 35.0),
    ("Wood Screws 4x40 200pc", 4.0, 11.0),
    ("Masking Tape 25mm", 2.0, 6.0),
    ("Paint White 2.5L", 15.0, 45.0),
    ("Wireless Mouse", 12.0, 45.0),
    ("HDMI Cable 2m", 6.0, 22.0),
    ("Drill Bits HSS 10pc", 7.0, 24.0),
    ("Cable Ties 100pc", 2.0, 7.0),
    ("Power Bank 10000mAh", 18.0, 49.0),
    ("Notebook A5", 2.0, 8.0),
)

SERVICES: dict[str, tuple[tuple[str, float, float], ...]] = {
    "en": (
        ("Consulting services", 80.0, 180.0),
        ("Software licence (annual)", 200.0, 2400.0),
        ("Website design and development", 500.0, 4500.0),
        ("Hosting - 12 months", 60.0, 480.0),
        ("Project management", 60.0, 140.0),
        ("On-site support (hours)", 65.0, 150.0),
        ("Office chair ergonomic", 120.0, 450.0),
        ("Printing - brochures A4", 0.2, 1.5),
        ("Translation services (per page)", 18.0, 45.0),
        ("Maintenance contract Q4", 150.0, 900.0),
        ("Travel expenses", 40.0, 600.0),
        ("Training workshop (1 day)", 450.0, 1800.0),
        ("Laptop 14in", 700.0, 1800.0),
        ("Delivery and installation", 30.0, 250.0),
    ),
    "de": (
        ("Beratungsleistung", 80.0, 170.0),
        ("Softwarelizenz (jährlich)", 200.0, 2400.0),
        ("Webdesign und Umsetzung", 500.0, 4500.0),
        ("Hosting 12 Monate", 60.0, 480.0),
        ("Projektmanagement", 60.0, 140.0),
        ("Vor-Ort-Service (Std.)", 65.0, 140.0),
        ("Bürostuhl ergonomisch", 120.0, 450.0),
        ("Flyer DIN A5 (Stück)", 0.1, 0.9),
        ("Wartungsvertrag Q4", 150.0, 900.0),
        ("Anfahrtspauschale", 25.0, 90.0),
        ("Schulung (1 Tag)", 450.0, 1800.0),
        ("Materialkosten", 20.0, 600.0),
        ("Montagearbeiten (Std.)", 45.0, 85.0),
    ),
    "fr": (
        ("Prestation de conseil", 80.0, 170.0),
        ("Licence logicielle (annuelle)", 200.0, 2400.0),
        ("Conception site internet", 500.0, 4500.0),
        ("Hébergement 12 mois", 60.0, 480.0),
        ("Gestion de projet", 60.0, 140.0),
        ("Intervention sur site (heure)", 65.0, 140.0),
        ("Fauteuil de bureau", 120.0, 450.0),
        ("Impression flyers A5", 0.1, 0.9),
        ("Contrat de maintenance T4", 150.0, 900.0),
        ("Frais de déplacement", 30.0, 400.0),
        ("Formation (1 jour)", 450.0, 1800.0),
        ("Main d'œuvre (heure)", 40.0, 80.0),
    ),
    "es": (
        ("Servicios de consultoría", 70.0, 160.0),
        ("Licencia de software (anual)", 200.0, 2400.0),
        ("Diseño y desarrollo web", 500.0, 4000.0),
        ("Alojamiento 12 meses", 60.0, 480.0),
        ("Gestión de proyecto", 50.0, 120.0),
        ("Asistencia técnica (horas)", 45.0, 110.0),
        ("Silla de oficina ergonómica", 120.0, 400.0),
        ("Impresión folletos A5", 0.1, 0.8),
        ("Contrato de mantenimiento T4", 150.0, 900.0),
        ("Gastos de desplazamiento", 30.0, 300.0),
        ("Formación (1 día)", 400.0, 1500.0),
        ("Mano de obra (horas)", 30.0, 60.0),
    ),
    "it": (
        ("Consulenza professionale", 70.0, 160.0),
        ("Licenza software (annuale)", 200.0, 2400.0),
        ("Sviluppo sito web", 500.0, 4000.0),
        ("Hosting 12 mesi", 60.0, 480.0),
        ("Gestione progetto", 50.0, 130.0),
        ("Assistenza tecnica (ore)", 45.0, 110.0),
        ("Sedia da ufficio ergonomica", 120.0, 400.0),
        ("Stampa volantini A5", 0.1, 0.8),
        ("Contratto di manutenzione", 150.0, 900.0),
        ("Spese di trasferta", 30.0, 300.0),
        ("Corso di formazione (1 giorno)", 400.0, 1500.0),
        ("Manodopera (ore)", 30.0, 60.0),
    ),
    "nl": (
        ("Advieswerkzaamheden", 75.0, 160.0),
        ("Softwarelicentie (jaarlijks)", 200.0, 2400.0),
        ("Ontwerp en bouw website", 500.0, 4500.0),
        ("Hosting 12 maanden", 60.0, 480.0),
        ("Projectmanagement", 60.0, 140.0),
        ("Ondersteuning op locatie (uur)", 65.0, 140.0),
        ("Bureaustoel ergonomisch", 120.0, 450.0),
        ("Drukwerk flyers A5", 0.1, 0.9),
        ("Onderhoudscontract Q4", 150.0, 900.0),
        ("Reiskosten", 25.0, 250.0),
        ("Training (1 dag)", 450.0, 1800.0),
        ("Arbeidsloon (uur)", 40.0, 80.0),
    ),
}
