// Tests for LFGCommand live in this folder.
