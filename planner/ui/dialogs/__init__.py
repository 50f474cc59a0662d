"""Dialogs of the main window: new hall, hall features, custom equipment type."""
