// Tests for HTTPServer live in this folder.
