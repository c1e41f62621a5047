"""The receipt's encoding, byte for byte as rules.md and schema/receipts.py state it, so that
any client reproduces it."""

import hashlib

from schema.receipts import encode, receipt, verify

NONCE = bytes(range(32))


def test_the_encoding_is_each_field_after_its_length_in_four_bytes_big_endian() -> None:
    assert encode("g1", 12, "p3", "AB to CD\nÉ H", b"\x01\x02") == (
        b"\x00\x00\x00\x1bskirmish-society/receipt/v1"
        b"\x00\x00\x00\x02g1"
        b"\x00\x00\x00\x0212"
        b"\x00\x00\x00\x02p3"
        b"\x00\x00\x00\x0dAB to CD\n\xc3\x89 H"
        b"\x00\x00\x00\x02\x01\x02"
    )


def test_the_receipt_is_the_sha256_of_the_encoding_in_hex() -> None:
    expected = hashlib.sha256(encode("g1", 1, "p1", "AB H", NONCE)).hexdigest()
    assert receipt("g1", 1, "p1", "AB H", NONCE) == expected
    assert len(expected) == 64


def test_fields_cannot_shift_into_one_another() -> None:
    assert receipt("g1", 1, "p1", "AB H", NONCE) != receipt("g1", 1, "p1A", "B H", NONCE)


def test_verify_checks_the_revealed_submission_against_the_receipt() -> None:
    given = receipt("g1", 1, "p1", "AB H", NONCE)
    assert verify(given, "g1", 1, "p1", "AB H", NONCE.hex())
    assert verify(given.upper(), "g1", 1, "p1", "AB H", NONCE.hex())
    assert not verify(given, "g1", 1, "p1", "AB H ", NONCE.hex())
    assert not verify(given, "g1", 1, "p1", "AB H", "not hex")
