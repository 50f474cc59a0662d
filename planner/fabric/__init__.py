"""Rail-optimised fat-tree sizing, port-level cabling, cable routing, media and length."""
