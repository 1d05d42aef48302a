// Tests for HookAdapter live in this folder.
