"""Documents that leave the laptop: PDF, CSV/XLSX, SVG."""
