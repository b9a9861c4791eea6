"""ICAO 9303 Part 3 §4.9 check digits (weights 7, 3, 1; digits, A=10..Z=35, '<'=0)."""

_WEIGHTS = (7, 3, 1)


def char_value(char: str) -> int:
    if char.isdigit():
        return int(char)
    if "A" <= char <= "Z":
        return ord(char) - ord("A") + 10
    if char == "<":
        return 0
    raise ValueError(f"not an MRZ character: {char!r}")


def check_digit(data: str) -> str:
    """The check digit of ``data`` as a single character."""
    total = sum(char_value(c) * _WEIGHTS[i % 3] for i, c in enumerate(data))
    return str(total % 10)


def is_valid(data: str, digit: str) -> bool:
    try:
        return check_digit(data) == digit
    except ValueError:
        return False
