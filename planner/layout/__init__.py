"""Templates: whole halls generated from a few parameters."""
