// Tests for APNs live in this folder.
