"""The rack elevation dock: the selected rack's front, its finding marks and its ports' cabling menu."""
