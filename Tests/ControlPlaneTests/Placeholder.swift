// Tests for ControlPlane live in this folder.
