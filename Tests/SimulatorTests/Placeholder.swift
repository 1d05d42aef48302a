// Tests for Simulator live in this folder.
