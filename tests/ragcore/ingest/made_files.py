"""Small real files for the format tests, written with the libraries themselves: PDFs
with fpdf2 (two columns, a table over a page break, running headers and footers, a
scanned page), .docx with python-docx, .odt with odfpy."""

from __future__ import annotations

import io

from fpdf import FPDF

LEFT_COLUMN = [
    "The pump must be stopped before",
    "the seal is inspected. Close the suc-",
    "tion valve and drain the casing.",
    "Check the seal faces for wear.",
    "Replace the seal every 4000 hours",
    "or when it leaks more than ten drops",
    "per minute at rated pressure.",
    "Record the date in the log book.",
]
RIGHT_COLUMN = [
    "The bearing housing holds 0.4 litres",
    "of ISO VG 68 oil. Change the oil",
    "every 2000 hours and check the level",
    "weekly through the sight glass.",
    "Overfilling raises the bearing tem-",
    "perature; keep the level at the mark.",
    "Use only the oil named in section 6.",
    "Dispose of used oil as waste.",
]
TABLE_HEADER = ("Part", "Interval", "Torque")
TABLE_ROWS = [
    ("Seal", "4000 h", "12 Nm"),
    ("Bearing", "8000 h", "30 Nm"),
    ("Impeller", "16000 h", "45 Nm"),
    ("Coupling", "2000 h", "25 Nm"),
    ("Gasket", "4000 h", "8 Nm"),
    ("Shaft sleeve", "8000 h", "18 Nm"),
]


def _page(pdf: FPDF, number: int, total: int) -> None:
    pdf.add_page()
    pdf.set_font("Helvetica", size=8)
    pdf.text(20, 12, "ACME CP-200 Service Manual - Rev. 3")
    pdf.text(100, 287, f"Page {number} of {total}")


def _gray_png() -> bytes:
    """A small grey picture (a 'scan' without text), as PNG bytes."""
    from PIL import Image

    image = Image.new("L", (200, 280), color=200)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def manual_pdf(*, scanned_page: bool = True) -> bytes:
    """A 4-page manual (5 with a scanned page): a heading and two columns written line by
    line across both columns (so PDFium's own order mixes them), a table that goes on
    over a page break with its header repeated, running headers and footers."""
    total = 5 if scanned_page else 4
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(False)
    # Page 1: title, then two columns interleaved line by line.
    _page(pdf, 1, total)
    pdf.set_font("Helvetica", "B", size=18)
    pdf.text(20, 30, "5 Maintenance")
    pdf.set_font("Helvetica", "B", size=14)
    pdf.text(20, 42, "5.3 Mechanical seal")
    pdf.set_font("Helvetica", size=10)
    for row, (left, right) in enumerate(zip(LEFT_COLUMN, RIGHT_COLUMN)):
        y = 55 + row * 5
        pdf.text(20, y, left)
        pdf.text(110, y, right)
    # Page 2: a paragraph, then a table that runs onto page 3.
    _page(pdf, 2, total)
    pdf.set_font("Helvetica", "B", size=14)
    pdf.text(20, 30, "5.4 Service intervals")
    pdf.set_font("Helvetica", size=10)
    pdf.text(20, 40, "The intervals below apply at 50 Hz and")
    pdf.text(20, 45, "normal duty; halve them in dusty plants.")
    _table(pdf, 60, [TABLE_HEADER, *TABLE_ROWS[:3]])
    _page(pdf, 3, total)
    pdf.set_font("Helvetica", size=10)
    _table(pdf, 25, [TABLE_HEADER, *TABLE_ROWS[3:]])
    pdf.text(20, 70, "Tighten the bolts crosswise in two passes.")
    # Page 4: a new section whose sentence is cut by the page break of page 3 to 4.
    _page(pdf, 4, total)
    pdf.set_font("Helvetica", "B", size=18)
    pdf.text(20, 30, "6 Lubrication")
    pdf.set_font("Helvetica", size=10)
    pdf.text(20, 40, "Grease the motor bearings every 3000 hours with 15 g of")
    pdf.text(20, 45, "lithium grease, and wipe off the old grease.")
    if scanned_page:
        pdf.add_page()
        pdf.image(io.BytesIO(_gray_png()), x=20, y=20, w=100)
    return bytes(pdf.output())


def _table(pdf: FPDF, top: float, rows) -> None:
    for index, row in enumerate(rows):
        for column, cell in enumerate(row):
            pdf.text(20 + column * 45, top + index * 6, cell)


def scanned_pdf() -> bytes:
    """A PDF whose only pages are images (no text layer)."""
    pdf = FPDF(format="A4", unit="mm")
    for _ in range(2):
        pdf.add_page()
        pdf.image(io.BytesIO(_gray_png()), x=20, y=20, w=100)
    return bytes(pdf.output())


def png(width: int = 40, height: int = 30) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), color=(120, 160, 200)).save(out, format="PNG")
    return out.getvalue()


def manual_docx() -> bytes:
    """A Word file: title property, headings, a list, a table, an image with alt text."""
    import docx

    document = docx.Document()
    document.core_properties.title = "HP-400 press service manual"
    document.add_heading("5 Maintenance", level=1)
    document.add_paragraph("Stop the press and release the pressure before any work.")
    document.add_heading("5.3 Mechanical seal", level=2)
    document.add_paragraph("Check the seal for leaks.", style="List Bullet")
    document.add_paragraph("Replace it every 4000 hours.", style="List Bullet")
    picture = document.add_paragraph().add_run().add_picture(io.BytesIO(png()))
    picture._inline.docPr.set("descr", "Exploded view of the seal cartridge")
    table = document.add_table(rows=3, cols=3)
    for row, cells in enumerate(
        [("Part", "Interval", "Torque"), ("Seal", "4000 h", "12 Nm"), ("Valve", "2000 h", "9 Nm")]
    ):
        for column, value in enumerate(cells):
            table.cell(row, column).text = value
    document.add_heading("6 Hydraulics", level=1)
    document.add_paragraph("The oil runs at 210 bar.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def manual_odt() -> bytes:
    """An OpenDocument text: headings, a list, a table with a header row, an image frame
    with a title (alt text)."""
    from odf import draw, svg, table, text
    from odf.opendocument import OpenDocumentText

    document = OpenDocumentText()
    body = document.text
    body.addElement(text.H(outlinelevel=1, text="2 Installation"))
    body.addElement(text.P(text="Mount the pump on a level base."))
    body.addElement(text.H(outlinelevel=2, text="2.1 Piping"))
    items = text.List()
    for line in ("Support the pipes separately.", "Flush the pipes before start-up."):
        item = text.ListItem()
        item.addElement(text.P(text=line))
        items.addElement(item)
    body.addElement(items)
    grid = table.Table(name="Sizes")
    grid.addElement(table.TableColumn(numbercolumnsrepeated=2))
    header = table.TableHeaderRows()
    rows = [("Pipe", "Diameter"), ("Suction", "DN 80"), ("Discharge", "DN 65")]
    for index, (name, size) in enumerate(rows):
        row = table.TableRow()
        for value in (name, size):
            cell = table.TableCell()
            cell.addElement(text.P(text=value))
            row.addElement(cell)
        (header if index == 0 else grid).addElement(row)
        if index == 0:
            grid.addElement(header)
    body.addElement(grid)
    paragraph = text.P()
    frame = draw.Frame(width="2cm", height="2cm", anchortype="as-char")
    frame.addElement(svg.Title(text="Piping diagram with valves"))
    paragraph.addElement(frame)
    body.addElement(paragraph)
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def scanned_text_pdf(lines: list[str]) -> bytes:
    """A one-page PDF whose only content is a picture of ``lines`` of text (a scan)."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1700, 140 * len(lines) + 80), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=48)
    for index, line in enumerate(lines):
        draw.text((40, 60 + 140 * index), line, fill=0, font=font)
    out = io.BytesIO()
    image.save(out, format="PNG")
    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(out.getvalue()), x=10, y=10, w=190)
    return bytes(pdf.output())
