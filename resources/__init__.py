"""BriefDesk's bundled data: the demo corpus, attack scripts and icons."""
