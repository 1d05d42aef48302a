// The hook's event types, agent adapters and inbox record live in the Foundation-free HookIntake (so
// `lfg-hook` starts cheaply); every user of HookAdapter sees them as before.
@_exported import HookIntake
