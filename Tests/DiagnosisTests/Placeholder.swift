// Tests for Diagnosis live in this folder.
