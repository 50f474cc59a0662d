"""Qt user interface: thin; turns gestures into commands on the DocumentSession."""
