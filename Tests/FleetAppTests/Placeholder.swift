// Tests for FleetApp live in this folder.
