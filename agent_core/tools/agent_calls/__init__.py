"""What a coding agent's tool call is and does, by agent: read-only or not, its target, and
for a file write, edit or patch the file(s) after the change (for the diff a person sees and
for confirming the write happened). Pure: no store, no agent's hook format."""
