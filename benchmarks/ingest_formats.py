"""Reading speed per format, and the share of parsing in an ingest (issue 26).

Generates the same manual — ``--pages`` pages, each a numbered heading, three paragraphs
of about 110 words and a 4-row table, with a running header and footer — as PDF (fpdf2),
DOCX (python-docx), ODT (odfpy), HTML, Markdown and plain text, into a temporary folder.
For each format, ``load_bytes`` reads the file ``--rounds`` times: the median gives
pages/s (pages of the same content; only the PDF has real pages) and MB/s of file.
Peak RSS (VmHWM) is read after all formats were read.

Then the PDF is ingested end to end with the default embedder into a fresh data
directory: reading (``load_files``) and ``Engine.ingest`` (chunking, embedding,
storing) are timed apart, and the share of reading in the whole is printed; goal: it
must not dominate (≤ 0.3). The last line is JSON with every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from _common import median, peak_rss_mb

from ragcore import Config, Engine
from ragcore.ingest.formats import load_bytes
from ragcore.ingest.loaders import load_files

_VOCABULARY = (
    "pump seal bearing valve pressure check replace interval hours oil filter motor shaft "
    "housing torque gasket clean inspect drain level the a of and to with before after "
    "each weekly monthly operator maintenance coupling impeller casing flow rated start "
    "stop lock isolate record log temperature vibration noise leak wear spare part"
)
WORDS = tuple(_VOCABULARY.split())


def _page_content(rng: random.Random, number: int) -> tuple[str, list[str], list[list[str]]]:
    heading = f"{number // 10 + 1}.{number % 10 + 1} " + " ".join(rng.sample(WORDS, 3)).title()
    paragraphs = []
    for _ in range(3):
        words = [rng.choice(WORDS) for _ in range(110)]
        sentences = [" ".join(words[i : i + 11]).capitalize() + "." for i in range(0, 110, 11)]
        paragraphs.append(" ".join(sentences))
    rows = [["Part", "Interval", "Torque"]] + [
        [rng.choice(WORDS).title(), f"{rng.randint(1, 40) * 500} h", f"{rng.randint(5, 90)} Nm"]
        for _ in range(4)
    ]
    return heading, paragraphs, rows


def make_files(folder: Path, pages: int) -> dict[str, Path]:
    rng = random.Random(26)
    content = [_page_content(rng, n) for n in range(pages)]
    return {
        "pdf": _pdf(folder / "manual.pdf", content),
        "docx": _docx(folder / "manual.docx", content),
        "odt": _odt(folder / "manual.odt", content),
        "html": _write(folder / "manual.html", _html(content)),
        "markdown": _write(folder / "manual.md", _markdown(content)),
        "text": _write(folder / "manual.txt", _text(content)),
    }


def _write(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path


def _pdf(path: Path, content) -> Path:
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(False)
    for number, (heading, paragraphs, rows) in enumerate(content, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", size=8)
        pdf.text(20, 12, "ACME pump service manual - Rev. 3")
        pdf.text(100, 287, f"Page {number}")
        pdf.set_xy(20, 20)
        pdf.set_font("Helvetica", "B", size=14)
        pdf.cell(0, 8, heading, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=10)
        for paragraph in paragraphs:
            pdf.set_x(20)
            pdf.multi_cell(170, 5, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        y = pdf.get_y() + 4
        for index, row in enumerate(rows):
            for column, cell in enumerate(row):
                pdf.text(20 + column * 45, y + index * 6, cell)
    pdf.output(str(path))
    return path


def _docx(path: Path, content) -> Path:
    import docx

    document = docx.Document()
    for heading, paragraphs, rows in content:
        document.add_heading(heading, level=2)
        for paragraph in paragraphs:
            document.add_paragraph(paragraph)
        table = document.add_table(rows=len(rows), cols=3)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                table.cell(r, c).text = value
    document.save(str(path))
    return path


def _odt(path: Path, content) -> Path:
    from odf import table, text
    from odf.opendocument import OpenDocumentText

    document = OpenDocumentText()
    for heading, paragraphs, rows in content:
        document.text.addElement(text.H(outlinelevel=2, text=heading))
        for paragraph in paragraphs:
            document.text.addElement(text.P(text=paragraph))
        grid = table.Table()
        grid.addElement(table.TableColumn(numbercolumnsrepeated=3))
        for row in rows:
            line = table.TableRow()
            for value in row:
                cell = table.TableCell()
                cell.addElement(text.P(text=value))
                line.addElement(cell)
            grid.addElement(line)
        document.text.addElement(grid)
    document.save(str(path))
    return path


def _html(content) -> str:
    parts = ["<html><head><title>Manual</title></head><body>"]
    for heading, paragraphs, rows in content:
        parts.append(f"<h2>{heading}</h2>")
        parts += [f"<p>{p}</p>" for p in paragraphs]
        parts.append("<table><tr>" + "".join(f"<th>{h}</th>" for h in rows[0]) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{v}</td>" for v in r) + "</tr>" for r in rows[1:]]
        parts.append("</table>")
    return "\n".join(parts + ["</body></html>"])


def _markdown(content) -> str:
    parts = ["---\ntitle: Manual\nequipment: [P-1, P-2]\n---"]
    for heading, paragraphs, rows in content:
        parts.append(f"## {heading}")
        parts += paragraphs
        table = ["| " + " | ".join(rows[0]) + " |", "|---|---|---|"]
        table += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        parts.append("\n".join(table))
    return "\n\n".join(parts) + "\n"


def _text(content) -> str:
    return "\n\n".join(
        "\n\n".join([h, *p, *("  ".join(r) for r in rows)]) for h, p, rows in content
    )


def read_speed(files: dict[str, Path], pages: int, rounds: int) -> dict[str, dict[str, float]]:
    results = {}
    for name, path in files.items():
        data = path.read_bytes()
        times = []
        for _ in range(rounds):
            began = time.perf_counter()
            [doc] = load_bytes(data, path.name)
            times.append(time.perf_counter() - began)
        seconds = median(times)
        results[name] = {
            "seconds": round(seconds, 3),
            "pages_per_s": round(pages / seconds, 1),
            "mb_per_s": round(len(data) / 1e6 / seconds, 2),
            "file_mb": round(len(data) / 1e6, 2),
            "chars": len(doc.text),
            "sections": len(doc.sections),
        }
    return results


def parse_share(pdf: Path, data_dir: Path) -> dict[str, float]:
    began = time.perf_counter()
    loaded = load_files(pdf)
    reading = time.perf_counter() - began
    with Engine(Config(data_dir=data_dir)) as engine:
        began = time.perf_counter()
        report = engine.ingest(loaded.documents)
        ingesting = time.perf_counter() - began
    return {
        "pages": loaded.pages,
        "chunks": report.chunks,
        "read_s": round(reading, 2),
        "ingest_s": round(ingesting, 2),
        "read_share": round(reading / (reading + ingesting), 3),
        "pages_per_s_end_to_end": round(loaded.pages / (reading + ingesting), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=300, help="pages per file (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="reads per format (default 3)")
    parser.add_argument("--no-ingest", action="store_true", help="skip the end-to-end ingest")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ragcore-formats-") as tmp:
        folder = Path(tmp)
        began = time.perf_counter()
        files = make_files(folder, args.pages)
        print(f"generated {len(files)} files of {args.pages} pages in "
              f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        speeds = read_speed(files, args.pages, args.rounds)
        rss = peak_rss_mb()
        print(f"{'format':10} {'pages/s':>9} {'MB/s':>7} {'file MB':>8} {'chars':>9} sections")
        for name, row in speeds.items():
            print(
                f"{name:10} {row['pages_per_s']:9.1f} {row['mb_per_s']:7.2f} "
                f"{row['file_mb']:8.2f} {row['chars']:9d} {row['sections']}"
            )
        print(f"peak RSS after reading every format: {rss:.0f} MB")
        share = None
        if not args.no_ingest:
            pdf_only = folder / "pdf-only"
            pdf_only.mkdir()
            files["pdf"].rename(pdf_only / "manual.pdf")
            share = parse_share(pdf_only / "manual.pdf", folder / "data")
            print(
                f"PDF ingest of {share['pages']} pages ({share['chunks']} chunks): reading "
                f"{share['read_s']} s, chunking + embedding + storing {share['ingest_s']} s; "
                f"reading is {share['read_share']:.1%} of the whole (goal <= 30%), "
                f"{share['pages_per_s_end_to_end']} pages/s end to end"
            )
        print(
            json.dumps(
                {
                    "pages": args.pages,
                    "formats": speeds,
                    "peak_rss_mb_after_reading": round(rss),
                    "peak_rss_mb": round(peak_rss_mb()),
                    "pdf_ingest": share,
                }
            )
        )


if __name__ == "__main__":
    main()
