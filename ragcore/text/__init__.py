"""Text helpers with no state and no model: citation markers, identifiers, sentence
boundaries, content terms and quantities. The bottom layer: imports only ``errors``."""
