"""Bank accounts as statements print them: IBANs with valid check digits, or US account numbers.

The IBANs are built here from the published rules (ISO 13616 mod-97 check digits, and the
national check digits France, Spain, Italy and the Netherlands put inside the BBAN) so that a
reader which validates IBANs sees real-looking ones, and so the family owes nothing to another
generator. Truth (ARCHITECTURE §3.1): the IBAN without spaces, upper case; where none is printed
(US statements, UK ones that print only sort code and account number) the account number's digits.
"""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass

_LETTERS = string.ascii_uppercase


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(n))


def _letters(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_LETTERS) for _ in range(n))


def _as_number(text: str) -> int:
    """The IBAN digit string of ``text``: letters become 10..35."""
    return int("".join(str(int(ch, 36)) for ch in text))


def iban_from_bban(country: str, bban: str) -> str:
    """The compact IBAN of a BBAN, with its two mod-97 check digits."""
    check = 98 - _as_number(bban + country + "00") % 97
    return f"{country}{check:02d}{bban}"


def iban_is_valid(iban: str) -> bool:
    """The ISO 13616 check: the rearranged IBAN is 1 modulo 97."""
    compact = re.sub(r"\s", "", iban).upper()
    return len(compact) > 4 and _as_number(compact[4:] + compact[:4]) % 97 == 1


def _french_key(bank: str, branch: str, account: str) -> str:
    """The RIB key: 97 - (89 bank + 15 branch + 3 account) mod 97."""
    return f"{97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97:02d}"


def _spanish_digit(ten_digits: str) -> str:
    weights = (1, 2, 4, 8, 5, 10, 9, 7, 3, 6)
    value = 11 - sum(int(d) * w for d, w in zip(ten_digits, weights, strict=True)) % 11
    return {11: "0", 10: "1"}.get(value, str(value))


_CIN_ODD = (1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23)


def _italian_cin(body: str) -> str:
    """The CIN letter of an Italian BBAN (ABI + CAB + account): odd positions by a table."""
    total = 0
    for position, ch in enumerate(body, start=1):
        index = int(ch) if ch.isdigit() else _LETTERS.index(ch)
        total += _CIN_ODD[index] if position % 2 else index
    return _LETTERS[total % 26]


def _dutch_account(rng: random.Random) -> str:
    """Ten digits passing the Dutch weighted mod-11 test that NL account numbers satisfy."""
    while True:
        number = str(rng.randint(1, 9)) + _digits(rng, 9)
        if sum(int(d) * (10 - i) for i, d in enumerate(number)) % 11 == 0:
            return number


def _us_routing(rng: random.Random) -> str:
    """A nine-digit ABA routing number with its 3-7-1 check digit."""
    body = f"{rng.randint(1, 12):02d}" + _digits(rng, 6)
    weights = (3, 7, 1, 3, 7, 1, 3, 7)
    check = (10 - sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 10) % 10
    return body + str(check)


@dataclass(frozen=True)
class Account:
    iban: str  # compact; "" where the country has none (US)
    number: str  # the national account number as printed
    bic: str
    sort_code: str  # UK sort code or US routing number, "" elsewhere

    @property
    def iban_grouped(self) -> str:
        return " ".join(self.iban[i : i + 4] for i in range(0, len(self.iban), 4))


def sample_account(rng: random.Random, country: str) -> Account:
    """An account of ``country`` whose IBAN (where it has one) passes every check digit."""
    bic_country = country
    bic = _letters(rng, 4) + bic_country + rng.choice(["2X", "MM", "FF", "XX", "HH", "22"])
    if rng.random() < 0.4:
        bic += rng.choice(["XXX", "100", "B01", "MUC"])
    if country == "US":
        return Account("", _digits(rng, rng.randint(9, 12)), bic, _us_routing(rng))
    if country == "GB":
        sort = _digits(rng, 6)
        number = _digits(rng, 8)
        bban = _letters(rng, 4) + sort + number
        return Account(iban_from_bban("GB", bban), number, bic, f"{sort[:2]}-{sort[2:4]}-{sort[4:]}")
    if country == "DE":
        number = str(rng.randint(1, 9)) + _digits(rng, 9)
        return Account(iban_from_bban("DE", _digits(rng, 8) + number), number, bic, "")
    if country == "FR":
        bank, branch, number = _digits(rng, 5), _digits(rng, 5), _digits(rng, 11)
        bban = bank + branch + number + _french_key(bank, branch, number)
        return Account(iban_from_bban("FR", bban), number, bic, "")
    if country == "ES":
        bank, branch, number = _digits(rng, 4), _digits(rng, 4), _digits(rng, 10)
        control = _spanish_digit("00" + bank + branch) + _spanish_digit(number)
        return Account(iban_from_bban("ES", bank + branch + control + number), number, bic, "")
    if country == "IT":
        body = _digits(rng, 5) + _digits(rng, 5) + _digits(rng, 12)
        return Account(iban_from_bban("IT", _italian_cin(body) + body), body[-12:], bic, "")
    if country == "NL":
        number = _dutch_account(rng)
        return Account(iban_from_bban("NL", _letters(rng, 4) + number), number, bic, "")
    raise ValueError(f"no account format for {country}")
