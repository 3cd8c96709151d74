"""OCR of scanned PDF pages through the ``tesseract`` program (Debian ``tesseract-ocr``,
Apache-2.0), when it is on PATH. Optional: without it, scanned pages are listed by
number instead. The page is rendered by PDFium at 300 dpi in grey and handed to
``tesseract stdin stdout`` as a PGM image (no temporary file, no Python imaging library).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import Protocol

import pypdfium2 as pdfium

OCR_DPI = 300
OCR_TIMEOUT_SECONDS = 120


class Ocr(Protocol):
    """Reads the text of a rendered page."""

    def page_text(self, page: pdfium.PdfPage) -> str: ...


def find_ocr() -> Ocr | None:
    """Tesseract if the program is on PATH, else None."""
    program = shutil.which("tesseract")
    return TesseractOcr(program) if program else None


@dataclass(frozen=True)
class TesseractOcr:
    program: str
    language: str = "eng"

    def page_text(self, page: pdfium.PdfPage) -> str:
        bitmap = page.render(scale=OCR_DPI / 72, grayscale=True)
        try:
            image = _pgm(bitmap)
        finally:
            bitmap.close()
        try:
            done = subprocess.run(
                [self.program, "stdin", "stdout", "-l", self.language],
                input=image,
                capture_output=True,
                timeout=OCR_TIMEOUT_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""


def _pgm(bitmap: pdfium.PdfBitmap) -> bytes:
    """The bitmap as a binary PGM (one grey byte per pixel; PDFium's grey bitmaps are
    8-bit, rows ``stride`` bytes apart)."""
    width, height, stride = bitmap.width, bitmap.height, bitmap.stride
    channels = bitmap.n_channels
    buffer = bytes(bitmap.buffer)
    rows = b"".join(
        buffer[row * stride : row * stride + width * channels : channels] for row in range(height)
    )
    return b"P5 %d %d 255\n" % (width, height) + rows
