// Tests for FleetCore live in this folder.
