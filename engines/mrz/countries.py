"""Codes that may appear in an MRZ's issuing-state and nationality fields.

ICAO 9303 Part 3 §5 uses ISO 3166-1 alpha-3, plus Germany's single 'D' and a few ICAO-only codes
(organisations, stateless persons, British nationality categories, the 'UTO' specimen state).
Repair uses this list to prefer a known code over an OCR misreading that is one lookalike away
(e.g. 'OAT' for 'QAT'); it never rejects an unknown code that reads cleanly.
"""

ISO_ALPHA3 = frozenset(
    """
    ABW AFG AGO AIA ALA ALB AND ARE ARG ARM ASM ATA ATF ATG AUS AUT AZE BDI BEL BEN BES BFA
    BGD BGR BHR BHS BIH BLM BLR BLZ BMU BOL BRA BRB BRN BTN BVT BWA CAF CAN CCK CHE CHL CHN
    CIV CMR COD COG COK COL COM CPV CRI CUB CUW CXR CYM CYP CZE DEU DJI DMA DNK DOM DZA ECU
    EGY ERI ESH ESP EST ETH FIN FJI FLK FRA FRO FSM GAB GBR GEO GGY GHA GIB GIN GLP GMB GNB
    GNQ GRC GRD GRL GTM GUF GUM GUY HKG HMD HND HRV HTI HUN IDN IMN IND IOT IRL IRN IRQ ISL
    ISR ITA JAM JEY JOR JPN KAZ KEN KGZ KHM KIR KNA KOR KWT LAO LBN LBR LBY LCA LIE LKA LSO
    LTU LUX LVA MAC MAF MAR MCO MDA MDG MDV MEX MHL MKD MLI MLT MMR MNE MNG MNP MOZ MRT MSR
    MTQ MUS MWI MYS MYT NAM NCL NER NFK NGA NIC NIU NLD NOR NPL NRU NZL OMN PAK PAN PCN PER
    PHL PLW PNG POL PRI PRK PRT PRY PSE PYF QAT REU ROU RUS RWA SAU SDN SEN SGP SGS SHN SJM
    SLB SLE SLV SMR SOM SPM SRB SSD STP SUR SVK SVN SWE SWZ SXM SYC SYR TCA TCD TGO THA TJK
    TKL TKM TLS TON TTO TUN TUR TUV TWN TZA UGA UKR UMI URY USA UZB VAT VCT VEN VGB VIR VNM
    VUT WLF WSM YEM ZAF ZMB ZWE
    """.split()  # noqa: SIM905 (a word list reads better than 249 quoted strings)
)

ICAO_ONLY = frozenset(
    """
    D EUE GBD GBN GBO GBP GBS RKS UNA UNK UNO UTO XBA XCC XCE XCO XDC XEC XES XIM XMP XOM
    XPO XXA XXB XXC XXX
    """.split()  # noqa: SIM905
)

KNOWN_CODES = ISO_ALPHA3 | ICAO_ONLY


def is_known_code(field: str) -> bool:
    """Whether a 3-character MRZ country field ('D<<' for Germany) holds a known code."""
    return field.replace("<", "") in KNOWN_CODES and len(field.rstrip("<")) == len(field.replace("<", ""))
